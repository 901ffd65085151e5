#!/usr/bin/env python3
"""Runs one hostile-input case: acme-sim on a bad (or borderline) input, in its own temporary folder.

A case is one file, `tests/hostile/cases/<family>/<name>.case`: header lines, then the files it needs.

    # what the case stands for (comments)
    args: run config.yaml -o {out}     command line (default as shown), run in the case's folder
    exit: 2                            expected exit code (default 2)
    stderr: config.yaml:3:12: ...      a line of stderr must contain this (repeatable, in order;
                                       " ... " stands for anything)
    stdout: text                       same for stdout
    absent: text                       no line of stderr or stdout may contain this
    lines: 3                           stderr may have this many lines (default: exactly 1 on exit 2)
    file: jobs.csv                     the output folder must hold this file afterwards (repeatable)
    nofile: jobs.csv                   ... must not hold it
    keep: summary.json                 the output folder's file must be byte-identical afterwards
    json: summary.json                 the output folder's file must be valid JSON (repeatable)
    csv: jobs.csv                      ... a CSV whose every row has the header's number of fields
                                       ("csv: jobs.csv 3": and 3 rows under its header)
    fsize: 100000                      file size limit (RLIMIT_FSIZE) of the run: writes fail like on a
                                       full disk
    timeout: 20                        seconds before the case counts as hung (default 20)
    env: NAME=VALUE                    an environment variable of the run (repeatable)
    --- config.yaml                    a file of the case (until the next ---); "--- {out}/x" goes into the
    ...                                output folder before the run (an earlier run's outputs)

In args and files: {out} the output folder, {repo} the repository, {repeat:TEXT:N} TEXT N times, {keys:N} the
mapping entries "k0: 0, k1: 1, ..." N of them ({jsonkeys:N}: with the keys quoted), {nl} a
newline (inside one argument of args too), {byte:HH} the raw byte of hex HH (in files: not UTF-8 if >= 80).
Every case also checks: no crash, abort or sanitizer report; on exit 2, one located line; no temporary
file or staging folder left in the output folder or the case folder.
"""
import csv
import importlib.util
import json
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

# The e2e harness's matcher: each wanted line appears in order, " ... " inside it matching anything.
_E2E = importlib.util.spec_from_file_location("e2e_run_case",
                                              Path(__file__).resolve().parents[1] / "e2e" / "run_case.py")
_e2e = importlib.util.module_from_spec(_E2E)
_E2E.loader.exec_module(_e2e)
contains_in_order = _e2e.contains_in_order

REPO = Path(__file__).resolve().parents[2]
CRASH_MARKS = ("terminate called", "Assertion", "AddressSanitizer", "runtime error:", "LeakSanitizer",
               "internal error", "Aborted", "Segmentation fault", "std::bad_alloc", "filesystem error")
LEFTOVER = re.compile(r"(\.tmp\.\d+$|^\.acme-staging\.|^\.tmp-)")
MAX_LINE_CHARS = 1200


def expand(text, out):
    text = text.replace("{out}", str(out)).replace("{repo}", str(REPO)).replace("{nl}", "\n")
    text = re.sub(r"\{repeat:([^:}]*):(\d+)\}", lambda m: m.group(1) * int(m.group(2)), text)
    text = re.sub(r"\{keys:(\d+)\}", lambda m: ", ".join(f"k{i}: {i}" for i in range(int(m.group(1)))), text)
    text = re.sub(r"\{jsonkeys:(\d+)\}", lambda m: ", ".join(f'"k{i}": {i}' for i in range(int(m.group(1)))), text)
    # A byte >= 0x80 alone is not UTF-8: carried as a lone surrogate and written back by surrogateescape.
    return re.sub(r"\{byte:([0-9a-fA-F]{2})\}", lambda m: bytes([int(m.group(1), 16)]).decode("utf-8", "surrogateescape"),
                  text)


def parse_case(path):
    spec = {"args": "run config.yaml -o {out}", "exit": 2, "stderr": [], "stdout": [], "absent": [], "file": [],
            "nofile": [], "keep": [], "json": [], "csv": [], "lines": None, "fsize": None, "timeout": 20.0,
            "env": []}
    files = []
    current = None
    for raw in path.read_text().split("\n"):
        if raw.startswith("--- "):
            current = [raw[4:].strip(), []]
            files.append(current)
            continue
        if current is not None:
            current[1].append(raw)
            continue
        if not raw.strip() or raw.startswith("#"):
            continue
        key, _, value = raw.partition(":")
        value = value.strip()
        if key in ("stderr", "stdout", "absent", "file", "nofile", "keep", "json", "csv", "env"):
            spec[key].append(value)
        elif key in ("exit", "lines", "fsize"):
            spec[key] = int(value)
        elif key == "timeout":
            spec[key] = float(value)
        elif key == "args":
            spec["args"] = value
        else:
            sys.exit(f"{path}: unknown key {key!r}")
    return spec, [(name, "\n".join(lines)) for name, lines in files]


def leftovers(folder):
    found = []
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            if LEFTOVER.search(name):
                found.append(os.path.relpath(os.path.join(root, name), folder))
    return found


def limits(fsize):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return apply


def check(spec, proc, out, case_dir, kept):
    failures = []
    if proc.returncode != spec["exit"]:
        failures.append(f"exit code {proc.returncode}, expected {spec['exit']}")
    err_lines = [l for l in proc.stderr.splitlines() if l.strip()]
    for stream in ("stderr", "stdout"):
        ok, missing = contains_in_order(getattr(proc, stream).splitlines(), spec[stream])
        if not ok:
            failures.append(f"{stream} lacks a line containing {missing!r}")
    for text in spec["absent"] + list(CRASH_MARKS):
        if text in proc.stderr or text in proc.stdout:
            failures.append(f"output contains {text!r}")
    allowed = spec["lines"] if spec["lines"] is not None else (1 if spec["exit"] == 2 else None)
    if allowed is not None and len(err_lines) > allowed:
        failures.append(f"{len(err_lines)} lines on stderr, expected at most {allowed}")
    if any(len(l) > MAX_LINE_CHARS for l in err_lines):
        failures.append(f"a stderr line is longer than {MAX_LINE_CHARS} characters")
    for name in spec["file"]:
        if not (out / name).is_file():
            failures.append(f"missing output file {name}")
    for name in spec["nofile"]:
        if (out / name).exists():
            failures.append(f"unexpected output file {name}")
    for name in spec["json"]:
        try:
            json.loads((out / name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            failures.append(f"{name} is not valid JSON: {e}")
    for entry in spec["csv"]:
        name, _, count = entry.partition(" ")
        try:
            with open(out / name, newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f))
            widths = {len(r) for r in rows}
            if len(widths) != 1:
                failures.append(f"{name}: rows of {sorted(widths)} fields (header: {len(rows[0])})")
            if count and len(rows) - 1 != int(count):
                failures.append(f"{name}: {len(rows) - 1} rows, expected {count}")
        except (OSError, ValueError, IndexError) as e:
            failures.append(f"{name} is not readable CSV: {e}")
    for name, before in kept.items():
        after = (out / name).read_bytes() if (out / name).is_file() else None
        if after != before:
            failures.append(f"{name} in the output folder changed")
    for folder in (out, case_dir):
        for name in leftovers(folder):
            failures.append(f"left behind: {name}")
    return failures


def main():
    case, binary = Path(sys.argv[1]), sys.argv[2]
    spec, files = parse_case(case)
    with tempfile.TemporaryDirectory(prefix="acme-hostile-") as tmp:
        case_dir, out = Path(tmp) / "case", Path(tmp) / "out"
        case_dir.mkdir()
        for name, text in files:
            target = Path(expand(name, out))
            target = target if target.is_absolute() else case_dir / target
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(expand(text, out), encoding="utf-8", errors="surrogateescape")
        kept = {name: (out / name).read_bytes() for name in spec["keep"]}
        args = [expand(a, out) for a in shlex.split(spec["args"])]
        try:
            env = dict(os.environ, **dict(expand(e, out).split("=", 1) for e in spec["env"]))
            proc = subprocess.run([binary] + args, cwd=case_dir, capture_output=True, text=True, errors="replace", env=env,
                                  timeout=spec["timeout"], preexec_fn=limits(spec["fsize"]))
        except subprocess.TimeoutExpired:
            print(f"FAIL: {case.name}: no answer within {spec['timeout']} s (hung)")
            sys.exit(1)
        failures = check(spec, proc, out, case_dir, kept)
        if failures:
            print("command:", binary, " ".join(args)[:2000])
            print("--- stdout ---\n" + proc.stdout[-4000:] + "--- stderr ---\n" + proc.stderr[-4000:])
            for f in failures:
                print("FAIL:", f)
            sys.exit(1)


if __name__ == "__main__":
    main()
