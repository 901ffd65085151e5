#!/usr/bin/env python3
"""`sweep --emit-slurm` under hostile names: the generated scripts run as written, nothing injected.

Usage: hostile_script_test.py ACME_SIM REPO

1. A study file and an output folder whose paths hold shell syntax ($(...), `...`, quotes, ';', spaces and a
   newline) are emitted; every #SBATCH line carries one word; the array task (bash, as slurmd runs it, with
   SLURM_ARRAY_TASK_ID set) and the merge run; the results land in the hostile folder and no command
   hidden in a path ran.
2. Values that would have to go into #SBATCH lines (study name, partition, script folder) with a newline,
   a space or a '%' are refused with exit 2, and no script is written.
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

MARK = "PWNED"
HOSTILE = "st'u\"dy $(touch " + MARK + "1) `touch " + MARK + "2`; touch " + MARK + "3 &&\nx"


def study_text(repo, name):
    return (f"name: {name}\n"
            f"config: {repo / 'configs/test/tiny.yaml'}\n"
            "grid:\n  policies.placement.name: [pack, first_fit]\n")


def emit(acme, study, scripts, out, *extra):
    return subprocess.run([acme, "sweep", str(study), "--emit-slurm", str(scripts), "-o", str(out), "--shards", "2",
                           "--quiet", *extra], capture_output=True, text=True, timeout=120)


def check_sbatch_lines(path):
    for line in path.read_text().splitlines():
        if line.startswith("#SBATCH"):
            words = line.split()
            assert len(words) == 2, f"{path.name}: an #SBATCH line of {len(words) - 1} words: {line!r}"


def run_script(path, env_extra, cwd):
    env = dict(os.environ, SLURM_CPUS_PER_TASK="1", **env_extra)
    proc = subprocess.run(["bash", str(path)], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{path.name} exited {proc.returncode}: {proc.stderr[-2000:]}"


def no_marks(root):
    found = [str(p) for p in root.rglob(MARK + "*")]
    assert not found, f"an injected command ran: {found}"


def hostile_paths(acme, repo, tmp):
    folder = tmp / HOSTILE
    folder.mkdir()
    study = folder / "study.yaml"
    study.write_text(study_text(repo, "hostile_paths"))
    out = folder / ("out " + HOSTILE)
    scripts = tmp / "scripts"
    proc = emit(acme, study, scripts, out)
    assert proc.returncode == 0, f"emit exited {proc.returncode}: {proc.stderr}"
    for name in ("sweep.sbatch", "merge.sbatch"):
        check_sbatch_lines(scripts / name)
    for task in ("1", "2"):
        run_script(scripts / "sweep.sbatch", {"SLURM_ARRAY_TASK_ID": task}, tmp)
    run_script(scripts / "merge.sbatch", {}, tmp)
    assert (out / "results.csv").is_file(), "the merge wrote no results.csv into the hostile folder"
    no_marks(tmp)


def refused(acme, repo, tmp):
    cases = [
        ("name", "'x\\ntouch PWNED'", []),
        ("space", "'x --wrap=id'", []),
        ("partition", "plain", ["--slurm-partition", "gpu --wrap=touch PWNED"]),
        ("partition_nl", "plain", ["--slurm-partition", "gpu\ntouch PWNED"]),
    ]
    for label, name, extra in cases:
        study = tmp / f"{label}.yaml"
        study.write_text(study_text(repo, name))
        scripts = tmp / f"scripts_{label}"
        proc = emit(acme, study, scripts, tmp / f"out_{label}", *extra)
        assert proc.returncode == 2, f"{label}: exit {proc.returncode}, expected 2: {proc.stderr}"
        assert len(proc.stderr.strip().splitlines()) == 1, f"{label}: not one line: {proc.stderr}"
        assert not (scripts / "sweep.sbatch").exists(), f"{label}: a script was written"
    proc = emit(acme, tmp / "plain.yaml", tmp / "a%jb", tmp / "out_pct")
    assert proc.returncode == 2 and "cannot go into an #SBATCH line" in proc.stderr, proc.stderr
    no_marks(tmp)


def main():
    acme, repo = sys.argv[1], Path(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="acme-slurm-hostile-") as tmp:
        hostile_paths(acme, repo, Path(tmp))
    with tempfile.TemporaryDirectory(prefix="acme-slurm-refused-") as tmp:
        (Path(tmp) / "plain.yaml").write_text(study_text(repo, "plain"))
        refused(acme, repo, Path(tmp))
    print("slurm scripts: hostile paths quoted, hostile #SBATCH values refused")


if __name__ == "__main__":
    main()
