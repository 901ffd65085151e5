#!/usr/bin/env python3
"""A Python scheduler in `acme-sim sweep`: every point is its own process, started from a working
directory far from the study, yet the module path resolves against the base config in each. The study
(tests/python/study.yaml) pairs the C++ fifo with the Python example fifo: every point must succeed and
each Python point's metrics must equal its C++ twin's. Then the same study in two shards (as the array
tasks of `--emit-slurm` run them: the emitted script itself, with SLURM_ARRAY_TASK_ID set), merged,
must give the same results byte for byte.

usage: sweep_test.py ACME_SIM STUDY.yaml
"""
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SHARDS = 2


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def run(args, cwd, env=None):
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=900, env=env)
    if proc.returncode != 0:
        fail(f"{' '.join(args)}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
    return proc


def check_points(results_csv):
    rows = list(csv.DictReader(open(results_csv)))
    if len(rows) != 8:
        fail(f"{results_csv}: {len(rows)} points, expected 8")
    bad = [r for r in rows if r["status"] != "ok"]
    if bad:
        fail(f"points failed: {[(r['point_id'], r['error']) for r in bad]}")
    scheduler = "set:policies.scheduler"
    metrics = [k for k in rows[0] if not k.startswith("set:") and k not in ("point_id", "group_id", "status", "label")]
    twins = {}
    for r in rows:
        twins.setdefault((r["set:policies.placement.name"], r["seed"]), {})["python" in r[scheduler]] = r
    for key, pair in twins.items():
        cpp, py = pair.get(False), pair.get(True)
        if cpp is None or py is None:
            fail(f"point {key} lacks its C++ or Python twin")
        diff = [m for m in metrics if cpp[m] != py[m]]
        if diff:
            fail(f"Python fifo differs from C++ fifo at {key} in {diff[:5]}")
    return len(rows)


def main():
    binary, study = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="acme-pysweep-") as tmp:
        elsewhere = Path(tmp) / "elsewhere"
        elsewhere.mkdir()
        run([binary, "sweep", study, "-o", str(Path(tmp) / "whole"), "-j", "2", "--quiet"], cwd=elsewhere)
        points = check_points(Path(tmp) / "whole" / "results.csv")
        slurm = Path(tmp) / "slurm"
        run([binary, "sweep", study, "--emit-slurm", str(slurm), "--shards", str(SHARDS), "--slurm-cpus", "1",
             "--quiet"], cwd=elsewhere)
        shard_dirs = []
        for k in range(1, SHARDS + 1):
            env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(k), SLURM_CPUS_PER_TASK="1")
            run(["bash", str(slurm / "sweep.sbatch")], cwd=elsewhere, env=env)
            shard_dirs += [str(p) for p in sorted(slurm.parent.rglob(f"shard-{k}")) if (p / "results.csv").is_file()]
        if len(shard_dirs) != SHARDS:
            fail(f"the emitted array script left {shard_dirs}, expected {SHARDS} shard folders")
        run([binary, "merge"] + shard_dirs + ["-o", str(Path(tmp) / "merged"), "--quiet"], cwd=elsewhere)
        for name in ("results.csv", "results.json", "aggregate.csv"):
            if (Path(tmp) / "merged" / name).read_bytes() != (Path(tmp) / "whole" / name).read_bytes():
                fail(f"{name} of the merged shards differs from the whole sweep's")
        print(f"sweep with a Python scheduler: {points} points ok, Python = C++ fifo, {SHARDS} shards merged = whole")


if __name__ == "__main__":
    main()
