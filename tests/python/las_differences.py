#!/usr/bin/env python3
"""The example las.py against the C++ `las` on one config (the CI scenario): both clusters run each in
turn, and this prints, per cluster, the all-GPU queueing delay (mean, p50, p90, p99), mean JCT, GPU
utilisation and preemptions of both, with their differences. It fails when a difference is larger than
the bound README.md documents ("Write your scheduler in Python": relative bounds below).

usage: las_differences.py ACME_SIM CONFIG LAS_PY
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# Documented bounds (README.md): relative difference of each figure, Python las.py vs C++ las.
BOUNDS = {"queue mean": 0.25, "queue p50": None, "queue p90": 0.5, "queue p99": 0.5, "JCT mean": 0.1,
          "utilisation": 0.02, "preemptions": None}
KEYS = ("clusters[0].policies.scheduler", "clusters[1].policies.scheduler")


def run(binary, config, out, value):
    args = [binary, "run", config, "-o", out, "--quiet"]
    for key in KEYS:
        args += ["--set", f"{key}={value}"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)}: exit {proc.returncode}\n{proc.stderr}")
    return json.loads((Path(out) / "summary.json").read_text())


def figures(cluster):
    gpu = cluster["by_type"]["all_gpu"]
    q = gpu["queue_s"]
    return {"queue mean": q["mean"], "queue p50": q["p50"], "queue p90": q["p90"], "queue p99": q["p99"],
            "JCT mean": gpu["jct_s"]["mean"], "utilisation": cluster["gpu_utilisation"],
            "preemptions": cluster["fault_tolerance"]["preemptions"]}


def main():
    binary, config, las_py = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    module = os.path.relpath(las_py, os.path.dirname(config))
    with tempfile.TemporaryDirectory(prefix="acme-las-") as a, tempfile.TemporaryDirectory(prefix="acme-las-") as b:
        cpp = run(binary, config, a, "{name: las}")
        py = run(binary, config, b, f"{{name: python, module: {module}, class: Las}}")
    failures = []
    print(f"{'cluster':8} {'figure':12} {'C++ las':>12} {'las.py':>12} {'difference':>11}")
    for name in cpp["clusters"]:
        c, p = figures(cpp["clusters"][name]), figures(py["clusters"][name])
        for figure, bound in BOUNDS.items():
            rel = (p[figure] - c[figure]) / c[figure] if c[figure] else (0.0 if p[figure] == c[figure] else 1.0)
            print(f"{name:8} {figure:12} {c[figure]:12.6g} {p[figure]:12.6g} {rel:+10.1%}")
            if bound is not None and abs(rel) > bound:
                failures.append(f"{name} {figure}: {rel:+.1%} (bound {bound:.0%})")
    if failures:
        sys.exit("FAIL: beyond the documented differences: " + "; ".join(failures))
    print("las.py is within the documented differences of the C++ las")


if __name__ == "__main__":
    main()
