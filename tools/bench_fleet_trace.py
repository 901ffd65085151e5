#!/usr/bin/env python3
"""Writes the fleet-year trace of `make bench` (configs/bench/fleet_year.yaml): one year of a 16,384-node
(131,072-GPU) cluster's jobs in AcmeTrace CSV, drawn from a fixed seed, so the bench measures the same
input on every machine.

The mix is an assumption shaped after Meta's RSC-1 (data/fleets/reliability_figures.csv): about 7,200 jobs
a day (meta_rsc1_jobs_per_day), most of them small, and pretraining jobs of 1,024 to 16,384 GPUs that hold
most of the GPU time. Offered load about 55-60% of the cluster's GPU time (RSC-1 ran at 83%; lower here so
the queue stays bounded under EASY backfilling, which the bench measures rather than queueing).

usage: bench_fleet_trace.py OUT.csv [DAYS]
"""
import math
import random
import sys

GPUS_PER_NODE = 8
NODES = 16384
JOBS_PER_DAY = 7200            # meta_rsc1_jobs_per_day
PRETRAIN_PER_DAY = 4.0         # assumption: pretraining jobs submitted a day
PRETRAIN_GPUS = [(1024, 0.35), (2048, 0.3), (4096, 0.2), (8192, 0.12), (16384, 0.03)]
PRETRAIN_MEDIAN_H = 84.0       # assumption: lognormal, sigma 0.8 (mean about 5 days)
SMALL_GPUS = [(1, 0.30), (2, 0.10), (4, 0.12), (8, 0.30), (16, 0.08), (32, 0.05), (64, 0.03), (128, 0.015),
              (256, 0.005)]
SMALL_MEDIAN_H = 2.0           # assumption: lognormal, sigma 1.5
SMALL_TYPES = [("Evaluation", 0.45), ("SFT", 0.25), ("Debug", 0.2), ("Other", 0.1)]
EPOCH = 1672531200             # 2023-01-01 00:00:00 UTC


def pick(rng, table):
    x = rng.random() * sum(w for _, w in table)
    for value, weight in table:
        x -= weight
        if x < 0:
            return value
    return table[-1][0]


def stamp(t):
    days, rest = divmod(int(t), 86400)
    # Civil date from days since 1970-01-01 (proleptic Gregorian).
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    return f"{y:04d}-{m:02d}-{d:02d} {rest // 3600:02d}:{rest % 3600 // 60:02d}:{rest % 60:02d}+00:00"


def main():
    out, days = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 365.0
    rng = random.Random(20241121)
    rate = (JOBS_PER_DAY + PRETRAIN_PER_DAY) / 86400.0
    share = PRETRAIN_PER_DAY / (JOBS_PER_DAY + PRETRAIN_PER_DAY)
    t, n = 0.0, 0
    with open(out, "w", encoding="utf-8") as f:
        f.write("job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                "queue,gpu_time\n")
        while True:
            t += rng.expovariate(rate)
            if t >= days * 86400.0:
                break
            if rng.random() < share:
                kind, gpus, median_h, sigma = "Pretrain", pick(rng, PRETRAIN_GPUS), PRETRAIN_MEDIAN_H, 0.8
            else:
                kind, gpus, median_h, sigma = pick(rng, SMALL_TYPES), pick(rng, SMALL_GPUS), SMALL_MEDIAN_H, 1.5
            duration = max(60, round(median_h * 3600 * math.exp(rng.gauss(0.0, sigma))))
            nodes = max(1, gpus // GPUS_PER_NODE)
            f.write(f"f{n},u{rng.randrange(400)},{nodes},{gpus},{gpus * 4},{kind},COMPLETED,"
                    f"{stamp(EPOCH + t)},,,{duration},,\n")
            n += 1
    print(f"{out}: {n} jobs over {days:g} days")


if __name__ == "__main__":
    main()
