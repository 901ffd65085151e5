#!/usr/bin/python3
"""Fuzzes the reader and drawer of `acme-sim report` (tools/report) with damaged run folders.

libFuzzer cannot drive Python, so this is a seeded mutation fuzzer: it starts from a run folder written
by acme-sim (tests/golden/tiny_fifo/expected/ by default), damages one of its files per input — the
JSON of summary.json at the level of values (a count turned into a string, a list, null, a huge or
negative number, a deleted key, deep nesting) or the bytes of any file (flips, cuts, inserted quotes,
non-UTF-8 bytes) — and calls the report in-process. Each input must end with exit 0 (a page written) or
exit 2 (one line on stderr); anything else (a traceback, another exit code, more than one line) is a
finding, saved under FINDINGS/<n>/ as the damaged folder with the error. Same --seed, same inputs.

    /usr/bin/python3 tests/fuzz/report_fuzzer.py --seconds 600 [--seed 1] [--run DIR] [--findings build/fuzz/findings/report]

Prints the figures (inputs, per second, exits by code, findings); exit 1 when there was a finding.
"""
import argparse
import contextlib
import importlib.machinery
import io
import json
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FILES = ("summary.json", "jobs.csv", "timeseries.csv")
ODD_VALUES = ("16", "", [], {}, None, True, -1, 0, 1e308, -1e308, 2**70, "$\\frac{a}{$", "\u00e9\u4e2d", [1, [2]])


def load_report_module():
    loader = importlib.machinery.SourceFileLoader("acme_report_tool", str(REPO / "tools" / "report"))
    return loader.load_module()  # noqa: the tool is a script without .py


def paths_of(value, prefix=()):
    """Every path to a value inside the JSON document (keys and list indices)."""
    yield prefix
    if len(prefix) > 12:  # below a deep nesting this fuzzer made
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_of(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:8]):
            yield from paths_of(v, prefix + (i,))


def mutate_json(doc, rng):
    paths = [p for p in paths_of(doc) if p]
    if not paths:
        return [doc]
    path = rng.choice(paths)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    what = rng.randrange(4)
    if what == 0:
        parent[path[-1]] = rng.choice(ODD_VALUES)
    elif what == 1 and isinstance(parent, dict):
        del parent[path[-1]]
    elif what == 2:
        parent[path[-1]] = [parent[path[-1]]] * rng.randrange(2, 4)
    else:
        nested = parent[path[-1]]
        for _ in range(rng.choice((2, 50, 3000))):
            nested = [nested]
        parent[path[-1]] = nested
    return doc


def mutate_bytes(data, rng):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        at = rng.randrange(len(data) + 1)
        what = rng.randrange(5)
        if what == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif what == 1:
            del data[at:]
        elif what == 2:
            data[at:at] = rng.choice((b'"', b",", b"\n", b"\xff\xfe", b"\x00", b"[" * 100, b"x" * 140000))
        elif what == 3 and data:
            end = min(len(data), at + rng.randrange(1, 200))
            data[at:at] = data[at:end]
        else:
            data[at:at + rng.randrange(1, 50)] = b""
    return bytes(data)


def damage(run_dir, rng):
    name = rng.choice(FILES)
    path = run_dir / name
    if not path.exists():
        return f"{name}: absent"
    if name == "summary.json" and rng.random() < 0.7:
        doc = json.loads(path.read_text())
        for _ in range(rng.randrange(1, 4)):
            doc = mutate_json(doc, rng)
        try:
            text = json.dumps(doc)
        except RecursionError:  # nested past what json.dumps writes: a nesting written by hand
            text = "[" * 5000 + "]" * 5000
        path.write_text(text)
        return f"{name}: values"
    path.write_bytes(mutate_bytes(path.read_bytes(), rng))
    return f"{name}: bytes"


def run_once(report, run_dir, out):
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = report.main([str(run_dir), "-o", str(out)])
    except SystemExit as e:  # argparse
        code = e.code
    except BaseException:  # noqa: an escaping exception is what this looks for
        return "traceback", traceback.format_exc()
    lines = err.getvalue().strip().splitlines()
    if code == 0 and out.is_file():
        return 0, ""
    if code == 2 and len(lines) == 1 and not out.exists():
        return 2, lines[0]
    return f"exit {code}", err.getvalue()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--run", type=Path, default=REPO / "tests" / "golden" / "tiny_fifo" / "expected")
    parser.add_argument("--findings", type=Path, default=REPO / "build" / "fuzz" / "findings" / "report")
    args = parser.parse_args(argv)
    report = load_report_module()
    rng = random.Random(args.seed)
    exits, found, started = {}, 0, time.monotonic()
    with tempfile.TemporaryDirectory(prefix="acme-fuzz-report-") as tmp:
        code, detail = run_once(report, args.run, Path(tmp) / "seed.html")
        if code != 0:  # every input would fail before the drawing: a fuzzer that measures nothing
            print(f"report fuzzer: the seed run {args.run} does not report ({code}): {detail.strip()}", file=sys.stderr)
            return 2
        while time.monotonic() - started < args.seconds:
            run_dir, out = Path(tmp) / "run", Path(tmp) / "page.html"
            shutil.rmtree(run_dir, ignore_errors=True)
            out.unlink(missing_ok=True)
            shutil.copytree(args.run, run_dir)
            what = damage(run_dir, rng)
            code, detail = run_once(report, run_dir, out)
            exits[code] = exits.get(code, 0) + 1
            if code not in (0, 2):
                found += 1
                keep = args.findings / str(found)
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(run_dir, keep)
                (keep / "finding.txt").write_text(f"{what}\n{code}\n{detail}")
    inputs = sum(exits.values())
    elapsed = time.monotonic() - started
    print(f"report {args.seconds:.0f}s: {inputs} inputs, {inputs / elapsed:.1f}/s, exits "
          f"{', '.join(f'{k}: {v}' for k, v in sorted(exits.items(), key=str))}; findings: {found}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
