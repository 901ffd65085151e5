#!/usr/bin/env python3
"""Provenance end to end: a run writes config.resolved.yaml (what `acme-sim config show` prints for the
same config and overrides) and records its inputs' hashes; `acme-sim rerun` repeats it from its folder
with identical outputs, refuses when a trace changed since, and never writes into the run's own folder.

usage: provenance_test.py ACME_SIM REPO_ROOT
"""
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def fail(text):
    sys.exit("FAIL: " + text)


def acme(binary, args, cwd):
    return subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True, timeout=300)


def main():
    binary, root = sys.argv[1], Path(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="acme-prov-") as tmp_text:
        tmp = Path(tmp_text)
        for name in ("tiny.yaml", "tiny_trace.csv"):
            shutil.copy(root / "configs" / "test" / name, tmp / name)
        setting = ["--set", "policies.placement.name=first_fit", "--set", "recovery.quarantine.window=2d", "--seed", "3"]
        proc = acme(binary, ["run", "tiny.yaml", "-o", "run", "--quiet"] + setting, tmp)
        if proc.returncode != 0:
            fail("the run failed: " + proc.stderr)
        resolved = (tmp / "run" / "config.resolved.yaml").read_text()
        shown = acme(binary, ["config", "show", "tiny.yaml"] + setting, tmp)
        if shown.returncode != 0 or resolved.split("\n", 1)[1] != shown.stdout:
            fail("config show differs from the run's config.resolved.yaml:\n" + shown.stdout + "\n---\n" + resolved)
        for wanted in ("seed: 3", "name: first_fit",
                       "# overrides: policies.placement.name=first_fit recovery.quarantine.window=2d seed=3",
                       "# defaults:", "#   recovery.quarantine.release_after: 30d", "#   recovery.policy.hang_timeout: "):
            if wanted not in resolved:
                fail(f"config.resolved.yaml lacks {wanted!r}:\n{resolved}")
        if "#   recovery.quarantine.window" in resolved:  # set: among the config's keys, not the defaults
            fail(f"config.resolved.yaml lists a key the config sets among its defaults:\n{resolved}")
        inputs = json.loads((tmp / "run" / "summary.json").read_text())["provenance"]["inputs"]
        if sorted(inputs) != ["config", "workload.path"] or any(len(v["hash"]) != 16 for v in inputs.values()):
            fail(f"summary.json provenance inputs: {inputs}")
        before = {p.name: p.read_bytes() for p in (tmp / "run").iterdir()}
        # From another folder: the resolved config's base_dir finds the trace.
        elsewhere = tmp / "elsewhere"
        elsewhere.mkdir()
        proc = acme(binary, ["rerun", str(tmp / "run"), "-o", str(tmp / "again")], elsewhere)
        if proc.returncode != 0 or "every output is identical" not in proc.stdout:
            fail(f"rerun ({proc.returncode}): {proc.stdout}{proc.stderr}")
        proc = acme(binary, ["rerun", "run/", "--quiet"], tmp)  # default: run.rerun beside it
        if proc.returncode != 0 or not (tmp / "run.rerun" / "jobs.csv").is_file():
            fail(f"rerun run/ into its default folder ({proc.returncode}): {proc.stderr}")
        proc = acme(binary, ["rerun", "run", "-o", "run"], tmp)
        if proc.returncode != 2 or "RUN_DIR itself" not in proc.stderr:
            fail(f"rerun into the run's own folder ({proc.returncode}): {proc.stderr}")
        trace = tmp / "tiny_trace.csv"
        trace.write_text(trace.read_text() + "\n")
        proc = acme(binary, ["rerun", "run", "-o", "third"], tmp)
        if proc.returncode != 2 or "provenance.inputs.workload.path" not in proc.stderr or (tmp / "third").exists():
            fail(f"rerun after the trace changed ({proc.returncode}): {proc.stderr}")
        after = {p.name: p.read_bytes() for p in (tmp / "run").iterdir()}
        if before != after:
            fail("the run's own folder changed")
    print("config.resolved.yaml = config show; rerun identical; a changed trace refused; the run's folder untouched")


if __name__ == "__main__":
    main()
