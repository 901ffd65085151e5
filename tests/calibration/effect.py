#!/usr/bin/env python3
"""Pointing a run at another calibration file changes checkpoint stalls and restores in the direction
and proportion the model says: an asynchronous snapshot stalls training for shard / (d2h / GPUs per
PCIe switch); a restore reads the checkpoint back (unchanged: storage path) then copies the shard to
each GPU at h2d / GPUs per PCIe switch.

Two runs of one 64-GPU pretraining job (7B, async checkpoints every 30 min, one traced node failure,
automatic recovery): calibration A = the A100 spec with the background-persist slowdown set to 0,
calibration B = A with half the host<->device bandwidths. Checks: stall per checkpoint doubles, and the
restore time grows by shard x (1/h2d_B - 1/h2d_A) exactly.

usage: effect.py ACME_SIM SOURCE_DIR
"""
import csv
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PARAMS = 7e9            # the job's model size (64 GPUs -> 7B by the default mapping)
BYTES_PER_PARAM = 14
GPUS = 64
GPUS_PER_SWITCH = 2


def calibration(spec_text, d2h, h2d):
    text = re.sub(r"d2h_pinned_bw_GBps: [0-9.]+", f"d2h_pinned_bw_GBps: {d2h}", spec_text)
    text = re.sub(r"h2d_pinned_bw_GBps: [0-9.]+", f"h2d_pinned_bw_GBps: {h2d}", text)
    return re.sub(r"async_compute_slowdown_fraction: [0-9.e+-]+", "async_compute_slowdown_fraction: 0", text)


def run(binary, folder, calibration_text):
    folder.mkdir()
    (folder / "calibration.yaml").write_text(calibration_text)
    (folder / "trace.csv").write_text(
        "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n"
        f"p,u,8,{GPUS},128,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,,21600,,0\n")
    (folder / "failures.csv").write_text("time,cluster,node,category\n11400,seren,0,cuda\n")
    (folder / "config.yaml").write_text("""seed: 1
clusters:
  - name: seren
    nodes: 16
workload: {kind: trace, format: acme, path: trace.csv}
failures: {trace: failures.csv}
checkpoint: {policy: {name: fixed, interval: 30min}, mode: async}
recovery: {policy: {name: automatic, human_share: 0}}
calibration: {path: calibration.yaml}
""")
    proc = subprocess.run([binary, "run", "config.yaml", "-o", "out", "--quiet"], cwd=folder, capture_output=True,
                          text=True, timeout=300)
    if proc.returncode != 0:
        sys.exit(f"acme-sim failed: {proc.stderr}")
    row = next(csv.DictReader(open(folder / "out" / "jobs.csv")))
    return {k: float(row[k]) for k in ("ckpt_stall_s", "restore_s", "checkpoints")} | {"failures": row["failures"]}


def main():
    binary, source = sys.argv[1], Path(sys.argv[2])
    spec = (source / "configs/calibration/a100-spec.yaml").read_text()
    d2h = float(re.search(r"d2h_pinned_bw_GBps: ([0-9.]+)", spec).group(1))
    h2d = float(re.search(r"h2d_pinned_bw_GBps: ([0-9.]+)", spec).group(1))
    with tempfile.TemporaryDirectory(prefix="acme-cal-") as tmp:
        a = run(binary, Path(tmp) / "a", calibration(spec, d2h, h2d))
        b = run(binary, Path(tmp) / "b", calibration(spec, d2h / 2, h2d / 2))
    shard = PARAMS * BYTES_PER_PARAM / GPUS
    failures = []
    for name, r in (("A", a), ("B", b)):
        if r["failures"] != "cuda:1":
            failures.append(f"run {name}: expected the traced failure, got {r['failures']!r}")
    per_a, per_b = a["ckpt_stall_s"] / a["checkpoints"], b["ckpt_stall_s"] / b["checkpoints"]
    expect_a = shard / (d2h * 1e9 / GPUS_PER_SWITCH)
    print(f"stall per checkpoint: A {per_a:.6f} s (expected {expect_a:.6f}), B {per_b:.6f} s, ratio {per_b / per_a:.4f}")
    if abs(per_a - expect_a) > 1e-6 * expect_a or abs(per_b / per_a - 2.0) > 1e-6:
        failures.append("stall per checkpoint does not follow shard / (d2h / GPUs per PCIe switch)")
    extra = shard * (GPUS_PER_SWITCH / (h2d / 2 * 1e9) - GPUS_PER_SWITCH / (h2d * 1e9))
    print(f"restore: A {a['restore_s']:.6f} s, B {b['restore_s']:.6f} s, difference {b['restore_s'] - a['restore_s']:.6f}"
          f" s (expected {extra:.6f})")
    if abs((b["restore_s"] - a["restore_s"]) - extra) > 1e-6 * extra or b["restore_s"] <= a["restore_s"]:
        failures.append("restore time does not grow by shard x (1/h2d_B - 1/h2d_A)")
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
