#!/usr/bin/env python3
"""Same config and seed, same bytes out: runs acme-sim twice on CONFIG (each in its own process and
output folder) and compares every output file byte for byte.

usage: check.py ACME_SIM CONFIG [extra acme-sim run arguments...]
"""
import subprocess
import sys
import tempfile
from pathlib import Path


def main():
    binary, config, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory(prefix="acme-det-") as a, tempfile.TemporaryDirectory(prefix="acme-det-") as b:
        for out in (a, b):
            proc = subprocess.run([binary, "run", config, "-o", out, "--quiet"] + extra, capture_output=True, text=True,
                                  timeout=1200)
            if proc.returncode != 0:
                sys.exit(f"acme-sim failed ({proc.returncode}): {proc.stderr}")
        files = sorted(p.name for p in Path(a).iterdir())
        if files != sorted(p.name for p in Path(b).iterdir()) or not files:
            sys.exit(f"different output files: {files}")
        for name in files:
            if (Path(a) / name).read_bytes() != (Path(b) / name).read_bytes():
                sys.exit(f"{name} differs between two runs with the same config and seed")
        print("identical:", ", ".join(files))


if __name__ == "__main__":
    main()
