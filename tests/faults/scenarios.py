#!/usr/bin/env python3
"""Fault-tolerance scenarios with known answers, each run by acme-sim in its own process.

One 64-GPU (8-node) pretraining job of 6 h of work on a 16-node cluster, synchronous checkpoints
every 30 min; a traced node failure at 11,400 s (3 h 10 min: 10 min after the 6th checkpoint
started, the last one persisted covers 3 h of work).

usage: scenarios.py ACME_SIM SCENARIO
"""
import csv
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TRACE = ("job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n"
         "p,u,8,64,128,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,,21600,,0\n")
BASE = """seed: 3
clusters:
  - name: seren
    nodes: {nodes}
    network: {{nodes_per_leaf: 4}}
workload: {{kind: trace, format: acme, path: trace.csv}}
failures: {{trace: failures.csv, categories: {{cuda: {{repair: 1h}}}}}}
checkpoint: {checkpoint}
recovery: {recovery}
"""


def run(binary, folder, nodes=16, recovery="{policy: {name: automatic, human_share: 0}}",
        failures="time,cluster,node,category\n11400,seren,0,cuda\n", extra="",
        checkpoint="{policy: {name: fixed, interval: 30min}, mode: sync}"):
    (folder / "trace.csv").write_text(TRACE)
    (folder / "failures.csv").write_text(failures)
    (folder / "config.yaml").write_text(BASE.format(nodes=nodes, recovery=recovery, checkpoint=checkpoint) + extra)
    proc = subprocess.run([binary, "run", "config.yaml", "-o", "out", "--quiet", "--check-invariants"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        sys.exit(f"acme-sim failed: {proc.stderr}")
    row = next(csv.DictReader(open(folder / "out" / "jobs.csv")))
    summary = json.load(open(folder / "out" / "summary.json"))["clusters"]["seren"]
    return row, summary


def expect(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)
    print("ok:", message)


def automatic(binary, folder):
    row, summary = run(binary, folder)
    expect(row["failures"] == "cuda:1", "the traced failure hit the job")
    expect(row["attempts"] == "2", "automatic recovery restarted it once, without queueing")
    lost = float(row["lost_work_s"])
    # Checkpoints start at 30-minute marks of work and take a few seconds each; the 6th (3 h of work)
    # persisted, so the failure loses the work since: a bit under 10 minutes.
    expect(500 < lost < 600, f"the rollback is the work since the last persisted checkpoint ({lost:.0f} s)")
    expect(row["state"] == "COMPLETED", "it completed")
    expect(float(row["work_s"]) == 21600, "all its work done")


def manual(binary, folder):
    row, _ = run(binary, folder, recovery="{policy: {name: manual}}")
    expect(row["attempts"] == "2", "manual recovery resubmitted it once")
    other = folder.parent / "automatic"
    other.mkdir()
    automatic_row, _ = run(binary, other)
    expect(float(row["duration"]) > float(automatic_row["duration"]) + 600,
           "manual recovery (human detection, diagnosis, isolation, re-queue) takes longer than automatic")


def not_recovered(binary, folder):
    row, _ = run(binary, folder, recovery="{policy: {name: automatic}, applies_to: [SFT]}")
    expect(row["state"] == "NODE_FAIL", "a job its recovery does not apply to ends as NODE_FAIL")
    expect(abs(float(row["duration"]) - 11400) < 1e-6, "at the failure")


def waits_for_node(binary, folder):
    # 8 nodes only: no healthy node to replace the failed one until it is repaired (1 h).
    row, _ = run(binary, folder, nodes=8)
    expect(row["attempts"] == "2", "it restarted once")
    gap = float(row["duration"]) - 21600 - float(row["ckpt_stall_s"]) - float(row["restore_s"])
    expect(gap > 3600, f"it waited for the repair, holding its healthy nodes ({gap:.0f} s lost)")


def spare_node(binary, folder):
    row, _ = run(binary, folder, nodes=9, recovery="{policy: {name: automatic, human_share: 0}, spare_nodes: 1}")
    gap = float(row["duration"]) - 21600 - float(row["ckpt_stall_s"]) - float(row["restore_s"])
    expect(row["attempts"] == "2" and gap < 3600, f"the spare node replaced the failed one at once ({gap:.0f} s lost)")


def leaf_switch(binary, folder):
    # Leaf switches failing twice a day each (10-minute repairs): every outage takes down all nodes
    # under the switch, and a job on them fails with category "switch".
    extra = "  leaf_switch: {{rate_per_1000_switch_days: 2000, repair: 10min}}\n"
    text = BASE.replace("failures: {{trace: failures.csv, categories: {{cuda: {{repair: 1h}}}}}}",
                        "failures:\n  trace: failures.csv\n  enabled: true\n"
                        "  categories: {{nvlink: {{rate_per_1000_node_days: 0}}, cuda: {{rate_per_1000_node_days: 0}},"
                        " node: {{rate_per_1000_node_days: 0}}, ecc: {{rate_per_1000_node_days: 0}},"
                        " network: {{rate_per_1000_node_days: 0}}, storage: {{rate_per_1000_node_days: 0}},"
                        " connection: {{rate_per_1000_node_days: 0}}}}\n" + extra)
    (folder / "trace.csv").write_text(TRACE)
    (folder / "failures.csv").write_text("time,cluster,node,category\n")
    (folder / "config.yaml").write_text(text.format(nodes=16, recovery="{policy: {name: automatic, human_share: 0}}",
                                                    checkpoint="{policy: {name: fixed, interval: 30min}, mode: sync}"))
    proc = subprocess.run([binary, "run", "config.yaml", "-o", "out", "--quiet", "--check-invariants"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    expect(proc.returncode == 0, "the run succeeds: " + proc.stderr)
    row = next(csv.DictReader(open(folder / "out" / "jobs.csv")))
    summary = json.load(open(folder / "out" / "summary.json"))["clusters"]["seren"]["fault_tolerance"]
    expect(row["failures"].startswith("switch:"), f"the job failed only from switch outages ({row['failures']})")
    expect(summary["failures_by_category"]["switch"] >= 1, "the summary counts switch failures")
    expect(row["state"] == "COMPLETED", "it completed anyway")


def async_cost(binary, folder):
    # Young/Daly with asynchronous checkpoints: C is the snapshot stall plus the slowdown the background
    # write causes (calibration async_compute_slowdown_fraction), so a costlier slowdown means longer
    # intervals and fewer checkpoints for the same work. Failures at the default rates give M.
    spec = (Path(__file__).resolve().parents[2] / "configs" / "calibration" / "a100-spec.yaml").read_text()
    text = BASE.replace("failures: {{trace: failures.csv, categories: {{cuda: {{repair: 1h}}}}}}",
                        "failures: {{enabled: true}}")
    counts = {}
    for slowdown in ("0.0123", "0.5"):
        sub = folder / slowdown
        sub.mkdir()
        (sub / "calibration.yaml").write_text(
            re.sub(r"async_compute_slowdown_fraction: [0-9.]+", "async_compute_slowdown_fraction: " + slowdown, spec))
        (sub / "trace.csv").write_text(TRACE)
        (sub / "config.yaml").write_text(
            text.format(nodes=16, recovery="{policy: {name: automatic, human_share: 0}}",
                        checkpoint="{policy: {name: young_daly}, mode: async}") + "calibration: {path: calibration.yaml}\n")
        proc = subprocess.run([binary, "run", "config.yaml", "-o", "out", "--quiet", "--check-invariants"], cwd=sub,
                              capture_output=True, text=True, timeout=300)
        expect(proc.returncode == 0, f"slowdown {slowdown}: the run succeeds " + proc.stderr)
        row = next(csv.DictReader(open(sub / "out" / "jobs.csv")))
        expect(row["state"] == "COMPLETED", f"slowdown {slowdown}: the job completed")
        counts[slowdown] = int(row["checkpoints"])
    expect(0 < counts["0.5"] < counts["0.0123"],
           f"a costlier background write gives fewer checkpoints ({counts['0.5']} < {counts['0.0123']})")


def repaired_while_recovering(binary, folder):
    # The spare replaced node 0 (cuda, 1 h repair: the pool is short until 15,000 s). Node 1 fails at 13,000 s
    # (node, 5 min repair) and is repaired before its recovery ends (20 min diagnosis, 14,354 s): it goes back
    # to the job, which restarts in place, not into the pool to be picked as its own replacement (was exit 3).
    text = BASE.replace("{{cuda: {{repair: 1h}}}}", "{{cuda: {{repair: 1h}}, node: {{repair: 5min}}}}")
    (folder / "trace.csv").write_text(TRACE)
    (folder / "failures.csv").write_text("time,cluster,node,category\n11400,seren,0,cuda\n13000,seren,1,node\n")
    (folder / "config.yaml").write_text(text.format(
        nodes=9, recovery="{policy: {name: automatic, human_share: 0, diagnose: 20min}, spare_nodes: 1}",
        checkpoint="{policy: {name: fixed, interval: 30min}, mode: sync}"))
    proc = subprocess.run([binary, "run", "config.yaml", "-o", "out", "--quiet", "--check-invariants"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    expect(proc.returncode == 0, "the run succeeds: " + proc.stderr)
    row = next(csv.DictReader(open(folder / "out" / "jobs.csv")))
    expect(row["failures"] == "cuda:1;node:1", f"both traced failures hit the job ({row['failures']})")
    expect(row["attempts"] == "3", f"it restarted after each, without waiting ({row['attempts']} attempts)")
    expect(row["state"] == "COMPLETED", "it completed")


def run_hbd(binary, folder, extra=()):
    repo = Path(__file__).resolve().parents[2]
    text = (repo / "configs/test/infinitehbd_faults.yaml").read_text()
    text = text.replace("../../data/traces/", str(repo / "data/traces") + "/")
    (folder / "config.yaml").write_text(text)
    (folder / "hbd_jobs.csv").write_text((repo / "configs/test/hbd_jobs.csv").read_text())
    out = "out" + str(len(extra))
    proc = subprocess.run([binary, "run", "config.yaml", "-o", out, "--quiet", "--check-invariants", *extra],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    expect(proc.returncode == 0, "the run succeeds: " + proc.stderr)
    ft = json.load(open(folder / out / "summary.json"))["clusters"]["hbd"]["fault_tolerance"]
    return ft, list(csv.DictReader(open(folder / out / "nodes.csv")))


def hbd_quarantine(binary, folder):
    # The same replay with the lemon-node rule (2 failures within 30 days: out for 60 days): quarantined
    # nodes meet the trace's later faults instead of the jobs.
    ft, nodes = run_hbd(binary, folder)
    qft, qnodes = run_hbd(binary, folder, ("--set", "recovery.quarantine={after_failures: 2, window: 30d, "
                                                     "release_after: 60d}"))
    expect(sum(int(n["quarantines"]) for n in nodes) == 0, "no rule, no quarantine")
    quarantines = sum(int(n["quarantines"]) for n in qnodes)
    avoided = sum(int(n["failures_avoided"]) for n in qnodes)
    expect(quarantines > 0 and avoided > 0, f"{quarantines} quarantines avoided {avoided} failures")
    expect(all(int(n["quarantines"]) == 0 or int(n["failures"]) >= 2 for n in qnodes),
           "only nodes that failed twice are quarantined")
    expect(qft["failures"] < ft["failures"], f"fewer failures hit jobs ({qft['failures']} < {ft['failures']})")


def hbd_trace(binary, folder):
    # The InfiniteHBD fault trace (584 faults of 400 servers over 348 days) replayed under six 64-node jobs
    # (configs/test/infinitehbd_faults.yaml): every fault is a traced failure of its mapped category, with
    # the trace's own repair time; the jobs recover automatically and complete.
    repo = Path(__file__).resolve().parents[2]
    text = (repo / "configs/test/infinitehbd_faults.yaml").read_text()
    text = text.replace("../../data/traces/", str(repo / "data/traces") + "/")
    (folder / "config.yaml").write_text(text)
    (folder / "hbd_jobs.csv").write_text((repo / "configs/test/hbd_jobs.csv").read_text())
    proc = subprocess.run([binary, "run", "config.yaml", "-o", "out", "--quiet", "--check-invariants"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    expect(proc.returncode == 0, "the run succeeds: " + proc.stderr)
    ft = json.load(open(folder / "out" / "summary.json"))["clusters"]["hbd"]["fault_tolerance"]
    nodes = list(csv.DictReader(open(folder / "out" / "nodes.csv")))
    expect(len(nodes) == 400, "nodes.csv has a row per node")
    # 584 faults; one strikes a server already down for another (dropped, as a down node cannot fail).
    expect(sum(int(n["failures"]) for n in nodes) == 583, "nodes.csv counts the trace's faults per node")
    by = ft["failures_by_category"]
    expect(sum(by.values()) == ft["failures"], f"the categories add up ({ft['failures']} failures)")
    expect(0 < ft["failures"] <= 584, "at most the trace's 584 faults hit the jobs")
    for name in ("cuda", "ecc", "network", "node", "software", "other"):
        expect(by[name] > 0, f"the trace's {name} faults reach the jobs ({by[name]})")
    rows = list(csv.DictReader(open(folder / "out" / "jobs.csv")))
    expect(all(r["state"] == "COMPLETED" for r in rows), "every job completed after its recoveries")


SCENARIOS = {f.__name__: f for f in (automatic, manual, not_recovered, waits_for_node, spare_node, leaf_switch,
                                     async_cost, repaired_while_recovering, hbd_trace, hbd_quarantine)}

if __name__ == "__main__":
    binary, name = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="acme-faults-") as tmp:
        folder = Path(tmp) / "run"
        folder.mkdir()
        SCENARIOS[name](binary, folder)
