#!/usr/bin/env python3
"""A run stopped by SIGTERM, SIGINT or SIGKILL leaves its output folder as it was; a later run in the folder
removes what a killed run left. Usage: interrupted_runs.py ACME_SIM REPO."""
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The Acme workload over 60 days: seconds of simulation, long enough to be stopped in the middle.
LONG_RUN = ["run", "configs/acme.yaml", "--quiet", "--set", "workload.days=60"]
TINY_RUN = ["run", "configs/test/tiny.yaml", "--quiet"]
EARLIER = {"summary.json": b'{"earlier": true}\n', "jobs.csv": b"job_id\nearlier\n"}
WAIT_S = 60.0  # the harness's limit for the run to reach its output stage, or to end after the signal


def fail(what):
    print("FAIL:", what)
    sys.exit(1)


def staging(out):
    return glob.glob(os.path.join(out, ".acme-staging.*"))


def wait_for(predicate, what):
    deadline = time.monotonic() + WAIT_S
    while not predicate():
        if time.monotonic() > deadline:
            fail(f"no {what} within {WAIT_S} s")
        time.sleep(0.01)


def start_and_stop(binary, repo, out, sig):
    proc = subprocess.Popen([binary] + LONG_RUN + ["-o", out], cwd=repo, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    wait_for(lambda: staging(out) or proc.poll() is not None, "staging folder")
    if proc.poll() is not None:
        fail(f"the run ended (exit {proc.returncode}) before it could be stopped: {proc.stderr.read()!r}")
    proc.send_signal(sig)
    try:
        proc.wait(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail(f"the run did not stop on {sig.name}")
    if proc.returncode != -sig:
        fail(f"{sig.name}: exit {proc.returncode}, expected death by the signal")


def check_earlier_outputs(out, context):
    for name, text in EARLIER.items():
        if Path(out, name).read_bytes() != text:
            fail(f"{context}: {name} of the earlier run changed")
    extra = sorted(set(os.listdir(out)) - set(EARLIER) - {os.path.basename(p) for p in staging(out)})
    if extra:
        fail(f"{context}: files appeared: {extra}")


def main():
    binary, repo = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="acme-interrupt-") as tmp:
        for sig in (signal.SIGTERM, signal.SIGINT):
            out = os.path.join(tmp, sig.name)
            os.makedirs(out)
            for name, text in EARLIER.items():
                Path(out, name).write_bytes(text)
            start_and_stop(binary, repo, out, sig)
            if staging(out):
                fail(f"{sig.name}: the staging folder stayed: {staging(out)}")
            check_earlier_outputs(out, sig.name)
        out = os.path.join(tmp, "SIGKILL")
        os.makedirs(out)
        for name, text in EARLIER.items():
            Path(out, name).write_bytes(text)
        start_and_stop(binary, repo, out, signal.SIGKILL)
        check_earlier_outputs(out, "SIGKILL")  # the staging folder may stay: nothing can run on SIGKILL
        done = subprocess.run([binary] + TINY_RUN + ["-o", out], cwd=repo, capture_output=True, text=True,
                              timeout=WAIT_S)
        if done.returncode != 0:
            fail(f"the run after SIGKILL failed: {done.stderr}")
        if staging(out):
            fail(f"the next run left the killed run's staging folder: {staging(out)}")
        if Path(out, "summary.json").read_bytes() == EARLIER["summary.json"]:
            fail("the next run's summary.json is not in the folder")


if __name__ == "__main__":
    main()
