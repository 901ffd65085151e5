#!/usr/bin/env python3
"""Fits the busy draw of training jobs (power.gpu.busy in sim/config/schema_power.cpp) to the paper's
per-GPU power CDF (data/acme/pkl_<cluster>_gpu_power_W.csv, the authors' DCGM samples).

A simulated GPU is idle (its node's idle draw: gpu.idle_power +- idle_spread / 2, uniform over the nodes)
unless a job holds it; a held GPU draws its job's busy power, drawn once per job from its type's table.
Given a run of the default config (its GPU utilisation u and each type's share of the GPU time), the
paper's CDF F splits as F(x) = (1 - u) F_idle(x) + u sum_t w_t F_t(x). With the Eval and Debug tables
fixed (assumptions: inference and debugging draw less), the training table (Pretrain, SFT, MLLM, Other)
is what remains:
    F_train(x) = ((F(x) - (1 - u) F_idle(x)) / u - w_eval F_eval(x) - w_debug F_debug(x)) / w_train
made monotone and read at 0, 10, ..., 100%.

usage: tools/fit_power.py RUN_DIR [--cluster seren] [--data data/acme]
RUN_DIR holds the summary.json of a run at the load of the paper's samples, as `acme-sim validate power`
makes it (the DCGM samples are of August, busier than the trace's average):
  acme-sim run configs/acme.yaml -o RUN_DIR --set workload.preset=seren --set workload.scale=1.218
"""

import argparse
import csv
import json
import os

IDLE_W = 64.0  # configs/acme.yaml gpu.idle_power
IDLE_SPREAD_W = 8.0  # power.gpu.idle_spread
# Assumptions (sim/config/schema_power.cpp): inference and debugging jobs draw less than training.
EVAL_W = [70, 80, 90, 96, 102, 115, 140, 180, 240, 300, 380]
DEBUG_W = [66, 72, 80, 88, 95, 100, 110, 130, 170, 250, 350]
TRAINING = ("Pretrain", "SFT", "MLLM", "Other")
GRID_STEP_W = 0.5
GRID_TO_W = 620.0
QUANTILES = 10


def paper_cdf(path):
    with open(path, newline="") as f:
        points = [(float(r["x"]), float(r["y"]) / 100.0) for r in csv.DictReader(f)]

    def cdf(x):
        if x < points[0][0]:
            return 0.0
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            if x1 >= x:
                return y0 + (y1 - y0) * ((x - x0) / (x1 - x0) if x1 > x0 else 1.0)
        return points[-1][1]

    return cdf


def table_cdf(table, x):
    """CDF of a quantile table (linear between quantiles at equal steps)."""
    if x < table[0]:
        return 0.0
    if x >= table[-1]:
        return 1.0
    n = len(table) - 1
    for i in range(n):
        if table[i] <= x < table[i + 1]:
            return (i + (x - table[i]) / (table[i + 1] - table[i])) / n
    return 1.0


def idle_cdf(x):
    low = IDLE_W - IDLE_SPREAD_W / 2
    return min(1.0, max(0.0, (x - low) / IDLE_SPREAD_W))


def fit(summary, cluster, data_dir):
    c = summary["clusters"][cluster]
    u = c["gpu_utilisation"]
    hours = {t: c["by_type"][t]["gpu_hours"] for t in ("Pretrain", "SFT", "MLLM", "Evaluation", "Debug", "Other")}
    total = sum(hours.values())
    w_train = sum(hours[t] for t in TRAINING) / total
    w_eval, w_debug = hours["Evaluation"] / total, hours["Debug"] / total
    paper = paper_cdf(os.path.join(data_dir, f"pkl_{cluster}_gpu_power_W.csv"))
    grid, train = [], []
    x = IDLE_W - IDLE_SPREAD_W / 2
    while x <= GRID_TO_W:
        held = (paper(x) - (1.0 - u) * idle_cdf(x)) / u
        value = (held - w_eval * table_cdf(EVAL_W, x) - w_debug * table_cdf(DEBUG_W, x)) / w_train
        train.append(min(1.0, max(value, train[-1] if train else 0.0)))
        grid.append(x)
        x += GRID_STEP_W
    table = []
    for k in range(QUANTILES + 1):
        q = k / QUANTILES
        table.append(next((g for g, t in zip(grid, train) if t >= q - 1e-9), grid[-1]))
    return u, (w_train, w_eval, w_debug), [round(v) for v in table]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir")
    parser.add_argument("--cluster", default="seren")
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "data", "acme"))
    args = parser.parse_args()
    with open(os.path.join(args.run_dir, "summary.json")) as f:
        summary = json.load(f)
    u, (w_train, w_eval, w_debug), table = fit(summary, args.cluster, args.data)
    print(f"# {args.cluster}: GPU utilisation {u:.3f}; GPU time training {w_train:.3f}, Eval {w_eval:.3f}, "
          f"Debug {w_debug:.3f}")
    print("TRAIN_W = {" + ", ".join(str(v) for v in table) + "}")


if __name__ == "__main__":
    main()
