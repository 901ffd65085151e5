#!/usr/bin/env python3
"""Clusters are independent: runs acme-sim on CONFIG as is and with CHANGE (--set arguments that touch one
cluster only), and checks that the other cluster's outputs are the same bytes (its rows of jobs.csv,
events.csv, runs.csv and nodes.csv, its timeseries rows, and its block of summary.json) while the changed
cluster's are not (else the change tested nothing).

The run ends when the last job of any cluster ends, so a change that makes one cluster finish later
lengthens the window every cluster is observed over: the kept cluster's timeseries is compared over the
window both runs share (its last, partial sample left out), its events up to the earlier end, and the
figures that run to the end of the window are left out: of nodes.csv the hours and the repair of a
node out at the end, of its summary block gpu_utilisation, the energy of `power`, the storage utilisation
the count of repairs done, the faults by detection path and the node availability. Everything
its jobs and nodes did must be the same bytes.

usage: independence.py ACME_SIM CONFIG KEPT_CLUSTER CHANGED_CLUSTER [run arguments...] -- [change arguments...]
"""
import csv
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

FILES = ("jobs.csv", "events.csv", "timeseries.csv", "runs.csv", "nodes.csv")
WINDOW_FIGURES = ("gpu_utilisation", "power")


def rows_of(folder, cluster):
    """Per output file, the cluster's rows (the header and other clusters' rows left out)."""
    out = {}
    for name in FILES:
        path = Path(folder) / name
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        reader = csv.reader(io.StringIO(text))
        header = next(reader)
        column = header.index("cluster")
        rows = [row for row in reader if row[column] == cluster]
        if name == "nodes.csv":  # a node down at the end: its hours run to the end, its repair comes after
            drop = {header.index("down_hours"), header.index("quarantine_hours"), header.index("repairs")}
            rows = [[v for i, v in enumerate(row) if i not in drop] for row in rows]
        out[name] = rows
    summary = json.loads((Path(folder) / "summary.json").read_text(encoding="utf-8"))
    block = summary["clusters"][cluster]
    for key in WINDOW_FIGURES:
        block.pop(key, None)
    block.get("storage", {}).pop("write_utilisation", None)
    block.get("storage", {}).pop("read_utilisation", None)
    block.get("fault_tolerance", {}).get("repairs", {}).pop("done", None)
    # Faults go on striking idle nodes until the run ends, and node time is counted to the end.
    block.get("fault_tolerance", {}).pop("faults_by_detection", None)
    block.get("fault_tolerance", {}).pop("node_availability", None)
    out["summary.json"] = json.dumps(block, sort_keys=True)
    return out


def same_window(before, after):
    """The timeseries rows both runs hold, the last (partial) sample of the shorter left out."""
    shared = min(len(before), len(after)) - 1
    return before[:shared] == after[:shared]


def main():
    binary, config, kept, changed = sys.argv[1:5]
    rest = sys.argv[5:]
    split = rest.index("--")
    common, change = rest[:split], rest[split + 1:]
    with tempfile.TemporaryDirectory(prefix="acme-ind-") as a, tempfile.TemporaryDirectory(prefix="acme-ind-") as b:
        for out, extra in ((a, []), (b, change)):
            cmd = [binary, "run", config, "-o", out, "--quiet"] + common + extra
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
            if proc.returncode != 0:
                sys.exit(f"acme-sim failed ({proc.returncode}): {proc.stderr}")
        if rows_of(a, changed) == rows_of(b, changed):
            sys.exit(f"the change {change} left {changed}'s outputs as they were: it tests nothing")
        before, after = rows_of(a, kept), rows_of(b, kept)
        for name in before:
            if name == "timeseries.csv":
                same = same_window(before[name], after[name])
            elif name == "events.csv":
                end = min(float(before[name][-1][0]), float(after[name][-1][0]))
                same = [r for r in before[name] if float(r[0]) <= end] == [r for r in after[name] if float(r[0]) <= end]
            else:
                same = before[name] == after.get(name)
            if not same:
                sys.exit(f"{name}: {kept}'s outputs moved when only {changed} changed ({change})")
        print(f"{kept} identical in", ", ".join(sorted(before)), f"while {changed} changed")


if __name__ == "__main__":
    main()
