#!/usr/bin/env python3
"""Storage reads share each node's storage NIC: 8 concurrent 14 GB model loads on each of 3 nodes
(25 Gb/s storage NIC per node, 100 GB/s storage) all finish together after 8 x 14 GB / 3.125 GB/s =
35.84 s, on every node (a regression test for flows that skipped sharing on all but the first node).

usage: nic_sharing.py ACME_SIM
"""
import csv
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

CONFIG = """seed: 1
clusters:
  - name: seren
    nodes: 3
    gpus_per_node: 8
    network: {nics_per_node: 1, nic_bandwidth: 200Gbps, storage_nics_per_node: 1, storage_nic_bandwidth: 25Gbps}
    storage: {bandwidth: 100GBps}
policies: {scheduler: {name: fifo}, placement: {name: pack}}
workload: {kind: eval_request, model_params: 7e9, catalogue: catalogue.csv, datasets: all, at: 0s,
           dispatch: {name: coupled}}
"""
TRIALS = 24
EXPECTED_S = 8 * 14e9 / 3.125e9  # 7e9 parameters x 2 bytes (bf16) per load, 8 loads per NIC


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "config.yaml").write_text(CONFIG)
        rows = ["name,samples,preprocess_s,inference_s,metric_s"] + [f"load.{i},1,0,0,0" for i in range(TRIALS)]
        (folder / "catalogue.csv").write_text("\n".join(rows) + "\n")
        proc = subprocess.run([binary, "run", "config.yaml", "-o", "out", "--quiet"], cwd=folder,
                              capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            sys.exit(f"acme-sim failed: {proc.stderr}")
        jobs = list(csv.DictReader(open(folder / "out" / "jobs.csv")))
    if len(jobs) != TRIALS:
        sys.exit(f"FAIL: expected {TRIALS} trial jobs, got {len(jobs)}")
    fmt = "%Y-%m-%d %H:%M:%S%z"
    walls = sorted((datetime.strptime(j["end_time"], fmt) - datetime.strptime(j["start_time"], fmt)).total_seconds()
                   for j in jobs)
    # end times are written to the second
    bad = [w for w in walls if abs(w - EXPECTED_S) > 1.0]
    if bad:
        sys.exit(f"FAIL: {len(bad)} of {TRIALS} loads did not share their node's NIC: walls {walls[0]}..{walls[-1]} s, "
                 f"expected {EXPECTED_S:.2f} s each")
    print(f"ok: all {TRIALS} loads took {walls[0]:.0f}..{walls[-1]:.0f} s (expected {EXPECTED_S:.2f} s)")


if __name__ == "__main__":
    main()
