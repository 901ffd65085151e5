#!/usr/bin/env python3
"""End-to-end test of `acme-sim sweep` on a 2-axis x 3-seed study (tests/sweep/study.yaml, 12 points):
a parallel run; a run killed (SIGKILL to its process group) after its first points finished, then
resumed without redoing them; -j1 and -j2 and shards 1/3..3/3 merged all give byte-identical results;
a study whose base config changed runs its finished points again.

usage: sweep_resume_test.py ACME_SIM STUDY.yaml
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULT_FILES = ("results.csv", "results.json", "aggregate.csv")
POINTS = 12
KILL_AFTER = 2          # finished points before the kill
KILL_TIMEOUT_S = 120    # the killed run must have finished KILL_AFTER points by then


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def sweep(binary, args, expect=0):
    start = time.monotonic()
    proc = subprocess.run([binary, "sweep"] + args, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - start
    if proc.returncode != expect:
        fail(f"acme-sim sweep {' '.join(args)}: exit {proc.returncode}, expected {expect}\n{proc.stdout}{proc.stderr}")
    return proc, wall


def finished_points(study_dir):
    points = Path(study_dir) / "points"
    if not points.is_dir():
        return []
    return sorted(p.name for p in points.iterdir() if not p.name.startswith(".") and (p / "point.json").is_file())


def same_results(a, b, what):
    for name in RESULT_FILES:
        if (Path(a) / name).read_bytes() != (Path(b) / name).read_bytes():
            fail(f"{what}: {name} differs between {a} and {b}")


def kill_midway(binary, study, out):
    proc = subprocess.Popen([binary, "sweep", study, "-o", out, "-j", "1", "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + KILL_TIMEOUT_S
    while len(finished_points(out)) < KILL_AFTER and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its worker processes
    proc.wait()
    return finished_points(out)


def check_resume(binary, study, tmp, full):
    out = str(tmp / "killed")
    done = kill_midway(binary, study, out)
    if not KILL_AFTER <= len(done) < POINTS:
        fail(f"the kill came at {len(done)} finished points; expected between {KILL_AFTER} and {POINTS - 1}")
    if (Path(out) / "results.csv").exists():
        fail("a killed sweep wrote results.csv")
    before = {p: os.stat(Path(out) / "points" / p / "point.json") for p in done}
    proc, _ = sweep(binary, [study, "-o", out, "-j", "2"])
    if f"{POINTS - len(done)} ran, {len(done)} already done" not in proc.stdout:
        fail(f"the resumed sweep did not skip the {len(done)} finished points:\n{proc.stdout}")
    for p, st in before.items():
        now = os.stat(Path(out) / "points" / p / "point.json")
        if (now.st_ino, now.st_mtime_ns) != (st.st_ino, st.st_mtime_ns):
            fail(f"finished point {p} was run again")
    leftovers = [p.name for p in (Path(out) / "points").iterdir() if p.name.startswith(".")]
    if leftovers:
        fail(f"temporary folders left behind: {leftovers}")
    same_results(out, full, "killed and resumed vs uninterrupted")
    print(f"killed after {len(done)} points, resumed the other {POINTS - len(done)}: results identical")


def check_shards(binary, study, tmp, full):
    shards = []
    for k in (1, 2, 3):
        shard = str(tmp / f"shard-{k}")
        sweep(binary, [study, "-o", shard, "--shard", f"{k}/3", "-j", "2", "--quiet"])
        shards.append(shard)
    merged = str(tmp / "merged")
    proc = subprocess.run([binary, "merge"] + shards + ["-o", merged], capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"merge: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
    same_results(merged, full, "3 shards merged vs one machine")
    if len(finished_points(merged)) != POINTS:
        fail("the merged folder lacks point folders")
    proc = subprocess.run([binary, "merge"] + shards[:2] + ["-o", str(tmp / "partial")], capture_output=True, text=True)
    if proc.returncode != 1 or "missing" not in proc.stderr:
        fail(f"merging 2 of 3 shards: exit {proc.returncode}, expected 1 naming the missing points\n{proc.stderr}")
    print("shards 1/3, 2/3, 3/3 merged: results identical; a missing shard is reported")


def check_config_change(binary, study, tmp):
    """Finished points count only while the base config is the one they ran with."""
    configs = Path(study).parent.parent.parent / "configs" / "test"
    work = tmp / "edited"
    work.mkdir()
    for name in ("tiny.yaml", "tiny_trace.csv"):
        shutil.copy(configs / name, work / name)
    (work / "study.yaml").write_text("name: edited\nconfig: tiny.yaml\ngrid:\n  policies.placement.name: [pack, first_fit]\n")
    out = str(work / "out")
    args = [str(work / "study.yaml"), "-o", out, "-j", "2"]
    proc, _ = sweep(binary, args)
    if "2 ran, 0 already done" not in proc.stdout:
        fail("the first sweep of the edited study:\n" + proc.stdout)
    proc, _ = sweep(binary, args)
    if "0 ran, 2 already done" not in proc.stdout:
        fail("re-running the unchanged study ran points again:\n" + proc.stdout)
    config = work / "tiny.yaml"
    config.write_text(config.read_text().replace("timeseries_interval: 30min", "timeseries_interval: 20min"))
    proc, _ = sweep(binary, args)
    if "2 ran, 0 already done" not in proc.stdout or "(first: config)" not in proc.stdout:
        fail("after the base config changed, the finished points were kept:\n" + proc.stdout)
    proc, _ = sweep(binary, args)
    if "0 ran, 2 already done" not in proc.stdout:
        fail("re-running after the rerun ran points again:\n" + proc.stdout)
    trace = work / "tiny_trace.csv"
    trace.write_text(trace.read_text() + "\n")
    proc, _ = sweep(binary, args)
    if "2 ran, 0 already done" not in proc.stdout or "(first: workload.path)" not in proc.stdout:
        fail("after the trace changed, the finished points were kept:\n" + proc.stdout)
    print("a changed base config or trace runs the finished points again, naming the input")


def main():
    binary, study = sys.argv[1], str(Path(sys.argv[2]).resolve())
    with tempfile.TemporaryDirectory(prefix="acme-sweep-") as tmp_text:
        tmp = Path(tmp_text)
        full = str(tmp / "full")
        proc, wall_j2 = sweep(binary, [study, "-o", full, "-j", "2"])
        rows = (Path(full) / "results.csv").read_text().splitlines()[1:]
        if len(rows) != POINTS or any(",ok," not in r for r in rows):
            fail(f"expected {POINTS} ok rows in results.csv, got:\n" + "\n".join(rows))
        _, wall_j1 = sweep(binary, [study, "-o", str(tmp / "j1"), "-j", "1", "--quiet"])
        same_results(tmp / "j1", full, "-j1 vs -j2")
        print(f"{POINTS} points: -j1 {wall_j1:.2f} s, -j2 {wall_j2:.2f} s; results identical")
        proc, _ = sweep(binary, [study, "-o", full, "-j", "2"])
        if f"0 ran, {POINTS} already done" not in proc.stdout:
            fail("re-running a finished study ran points again:\n" + proc.stdout)
        check_resume(binary, study, tmp, full)
        check_shards(binary, study, tmp, full)
        check_config_change(binary, study, tmp)


if __name__ == "__main__":
    main()
