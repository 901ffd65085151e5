#!/usr/bin/env python3
"""Runs one end-to-end case: acme-sim in its own process and its own temporary output folder.

A case is a folder with expect.txt (a minimal tesh) and the inputs it names:
    args: run config.yaml -o {out}      command line ({out}: a fresh temp folder; default as shown)
    exit: 2                             expected exit code
    stderr: text                        a line of stderr must contain `text` (repeatable, in order;
                                        " ... " inside text stands for anything)
    stdout: text                        same for stdout
    file: jobs.csv                      the output folder must contain this file (repeatable)
    nofile: jobs.csv                    ... must not contain it
    outdir: empty                       ... must hold nothing at all (no file, not even a temporary one)
"""
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def parse_expect(path):
    spec = {"args": "run config.yaml -o {out}", "exit": 0, "stderr": [], "stdout": [], "file": [], "nofile": [],
            "outdir": ""}
    for raw in path.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        key, _, value = raw.partition(":")
        value = value.strip()
        if key in ("stderr", "stdout", "file", "nofile"):
            spec[key].append(value)
        elif key == "exit":
            spec["exit"] = int(value)
        elif key in ("args", "outdir"):
            spec[key] = value
        else:
            sys.exit(f"{path}: unknown key {key!r}")
    return spec


def line_matches(line, pattern):
    """`pattern` is found in `line`; " ... " inside it matches anything (parts in order)."""
    pos = 0
    for part in pattern.split(" ... "):
        found = line.find(part, pos)
        if found < 0:
            return False
        pos = found + len(part)
    return True


def contains_in_order(lines, wanted):
    i = 0
    for line in lines:
        if i < len(wanted) and line_matches(line, wanted[i]):
            i += 1
    return i == len(wanted), wanted[i] if i < len(wanted) else None


def main():
    case, binary = Path(sys.argv[1]), sys.argv[2]
    spec = parse_expect(case / "expect.txt")
    with tempfile.TemporaryDirectory(prefix="acme-e2e-") as out:
        args = [a.replace("{out}", out) for a in shlex.split(spec["args"])]
        proc = subprocess.run([binary] + args, cwd=case, capture_output=True, text=True, timeout=600)
        failures = []
        if proc.returncode != spec["exit"]:
            failures.append(f"exit code {proc.returncode}, expected {spec['exit']}")
        for stream in ("stderr", "stdout"):
            ok, missing = contains_in_order(getattr(proc, stream).splitlines(), spec[stream])
            if not ok:
                failures.append(f"{stream} lacks a line containing {missing!r}")
        for name in spec["file"]:
            if not (Path(out) / name).is_file():
                failures.append(f"missing output file {name}")
        for name in spec["nofile"]:
            if (Path(out) / name).exists():
                failures.append(f"unexpected output file {name}")
        if spec["outdir"] == "empty" and any(Path(out).iterdir()):
            failures.append(f"output folder not empty: {sorted(p.name for p in Path(out).iterdir())}")
        if failures:
            print("command:", binary, " ".join(args))
            print("--- stdout ---\n" + proc.stdout + "--- stderr ---\n" + proc.stderr)
            for f in failures:
                print("FAIL:", f)
            sys.exit(1)


if __name__ == "__main__":
    main()
