#!/usr/bin/env python3
"""A Python policy gives the same bytes as its C++ counterpart: runs acme-sim on CONFIG twice (each in
its own process and output folder), once with the C++ policy and once with the Python one at every
given key, and compares every output file byte for byte (jobs.csv, summary.json, runs.csv, ...).

usage: same_outputs.py ACME_SIM CONFIG KIND CPP_NAME PY_FILE PY_CLASS KEY... [-- EXTRA ARGS]
  KIND: scheduler or placement; KEY: where the policy goes (policies.scheduler, clusters[0].policies.scheduler)
  PY_FILE is written into the override relative to the config's folder, as a user would write it.
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(binary, config, out, sets, extra):
    args = [binary, "run", config, "-o", out, "--quiet"] + extra
    for key, value in sets:
        args += ["--set", f"{key}={value}"]
    start = time.monotonic()
    proc = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)}: exit {proc.returncode}\n{proc.stderr}")
    return time.monotonic() - start


def comparable(path):
    """The file's bytes; summary.json without its provenance block (the overrides and the Python module
    differ by design; everything the runs computed must not)."""
    data = path.read_bytes()
    if path.name != "summary.json":
        return data
    lines = data.split(b"\n")
    start = lines.index(b'  "provenance": {')
    end = lines.index(b"  },", start)
    return b"\n".join(lines[:start] + lines[end + 1:])


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    binary, config, kind, cpp_name, py_file, py_class, keys = argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6:]
    module = os.path.relpath(os.path.abspath(py_file), os.path.dirname(os.path.abspath(config)))
    cpp = [(k, f"{{name: {cpp_name}}}") for k in keys]
    python = [(k, f"{{name: python, module: {module}, class: {py_class}}}") for k in keys]
    with tempfile.TemporaryDirectory(prefix="acme-py-") as a, tempfile.TemporaryDirectory(prefix="acme-py-") as b:
        cpp_s = run(binary, config, a, cpp, extra)
        py_s = run(binary, config, b, python, extra)
        files = sorted(p.name for p in Path(a).iterdir())
        if files != sorted(p.name for p in Path(b).iterdir()) or "jobs.csv" not in files:
            sys.exit(f"FAIL: different output files: {files} vs {sorted(p.name for p in Path(b).iterdir())}")
        for name in files:
            if name == "config.resolved.yaml":
                continue  # names the policy each run was given: the point of the comparison
            if comparable(Path(a) / name) != comparable(Path(b) / name):
                sys.exit(f"FAIL: {name} differs between {kind} {cpp_name} (C++) and {py_class} ({py_file})")
        jobs = len((Path(a) / "jobs.csv").read_text().splitlines()) - 1
        print(f"identical ({jobs} jobs): {', '.join(files)}; C++ {cpp_s:.2f} s, Python {py_s:.2f} s")


if __name__ == "__main__":
    main()
