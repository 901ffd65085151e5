#!/usr/bin/env python3
"""Golden regression check: runs acme-sim on a case and compares every output number with the
expected files (relative tolerance 1e-9; text cells exactly). With --update, rewrites the expected
files instead (tools/update_golden); a changed golden file needs a sentence in the commit saying why
the new trajectory is correct.

usage: compare.py CASE_DIR ACME_SIM [--update]
"""
import json
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REL_TOL = 1e-9
# Every output a case's run writes among these is compared (nodes.csv and runs.csv come with failures).
FILES = ("jobs.csv", "summary.json", "timeseries.csv", "nodes.csv", "runs.csv")


def same_cell(a, b):
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return math.isclose(x, y, rel_tol=REL_TOL, abs_tol=1e-12)


def compare_csv(expected, actual, name):
    e_lines, a_lines = expected.read_text().splitlines(), actual.read_text().splitlines()
    if len(e_lines) != len(a_lines):
        return [f"{name}: {len(a_lines)} lines, expected {len(e_lines)}"]
    errors = []
    header = e_lines[0].split(",")
    for row, (el, al) in enumerate(zip(e_lines, a_lines), start=1):
        ec, ac = el.split(","), al.split(",")
        if len(ec) != len(ac):
            errors.append(f"{name}:{row}: {len(ac)} cells, expected {len(ec)}")
            continue
        for col, (x, y) in enumerate(zip(ec, ac)):
            if not same_cell(x, y):
                errors.append(f"{name}:{row}: column {header[col] if col < len(header) else col}: {y!r}, expected {x!r}")
    return errors


def compare_json(e, a, path="summary.json"):
    if isinstance(e, dict) and isinstance(a, dict):
        if set(e) != set(a):
            return [f"{path}: keys {sorted(set(a) ^ set(e))} differ"]
        return [err for k in e for err in compare_json(e[k], a[k], f"{path}.{k}")]
    if isinstance(e, (int, float)) and isinstance(a, (int, float)) and not isinstance(e, bool):
        return [] if math.isclose(e, a, rel_tol=REL_TOL, abs_tol=1e-12) else [f"{path}: {a}, expected {e}"]
    # Input identities (paths, content hashes) say what was read, not what was simulated: a comment
    # edited in a case's config must not fail it.
    if e == a or path.endswith(".config") or path.startswith("summary.json.provenance.inputs."):
        return []
    return [f"{path}: {a!r}, expected {e!r}"]


def main():
    case, binary = Path(sys.argv[1]), sys.argv[2]
    update = "--update" in sys.argv[3:]
    with tempfile.TemporaryDirectory(prefix="acme-golden-") as out:
        proc = subprocess.run([binary, "run", "config.yaml", "-o", out, "--quiet"], cwd=case, capture_output=True,
                              text=True, timeout=600)
        if proc.returncode != 0:
            sys.exit(f"acme-sim failed ({proc.returncode}):\n{proc.stderr}")
        expected_dir = case / "expected"
        produced = [f for f in FILES if (Path(out) / f).exists()]
        if update:
            expected_dir.mkdir(exist_ok=True)
            for f in FILES:
                if f in produced:
                    shutil.copy(Path(out) / f, expected_dir / f)
                else:
                    (expected_dir / f).unlink(missing_ok=True)
            print(f"updated {expected_dir}")
            return
        expected = [f for f in FILES if (expected_dir / f).exists()]
        errors = [f"{f}: written by the run, not in {expected_dir}" for f in produced if f not in expected]
        errors += [f"{f}: expected, not written by the run" for f in expected if f not in produced]
        for f in sorted(set(produced) & set(expected)):
            if f.endswith(".json"):
                errors += compare_json(json.loads((expected_dir / f).read_text()), json.loads((Path(out) / f).read_text()))
            else:
                errors += compare_csv(expected_dir / f, Path(out) / f, f)
        if errors:
            print("\n".join(errors[:50]))
            sys.exit(f"{len(errors)} differences from {expected_dir}")


if __name__ == "__main__":
    main()
