#!/usr/bin/env python3
"""The example las.py against the C++ `las` on one config (the CI scenario): both clusters run each in
turn, and this prints, per cluster, the all-GPU queueing delay (mean, p50, p90, p99), mean JCT, GPU
utilisation and preemptions of both, with their differences. It fails when a difference is larger than
the bound docs/python.md documents: a figure passes when it is within the
relative bound of the C++ figure or within the absolute bound of it (queueing delays of a few seconds
differ by large ratios but little time).

usage: las_differences.py ACME_SIM CONFIG LAS_PY
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# Documented bounds (docs/python.md), Python las.py vs C++ las: (relative, absolute) per figure.
BOUNDS = {"queue mean": (0.25, 30.0), "queue p50": (0.25, 30.0), "queue p90": (0.25, 60.0),
          "queue p99": (0.5, 120.0), "JCT mean": (0.05, 0.0), "utilisation": (0.02, 0.0),
          "preemptions": (0.25, 5.0)}
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
    print(f"{'cluster':8} {'figure':12} {'C++ las':>12} {'las.py':>12} {'difference':>12} {'relative':>9}")
    for name in cpp["clusters"]:
        c, p = figures(cpp["clusters"][name]), figures(py["clusters"][name])
        for figure, bound in BOUNDS.items():
            diff = p[figure] - c[figure]
            rel = diff / c[figure] if c[figure] else 0.0
            print(f"{name:8} {figure:12} {c[figure]:12.6g} {p[figure]:12.6g} {diff:+12.6g} {rel:+9.1%}")
            if abs(diff) > max(bound[0] * abs(c[figure]), bound[1]):
                failures.append(f"{name} {figure}: {diff:+.6g} ({rel:+.1%}; bound {bound[0]:.0%} or {bound[1]:g})")
    if failures:
        sys.exit("FAIL: beyond the documented differences: " + "; ".join(failures))
    print("las.py is within the documented differences of the C++ las")


if __name__ == "__main__":
    main()
