#!/usr/bin/env python3
"""Runs tools/plot on a tiny study and on a single run (with failures and GPU time lost added to its
summary) and checks that every figure exists as a non-empty, valid PNG and PDF, and that no figure is
drawn for what the data lacks.

usage: plot_test.py ACME_SIM TOOLS_PLOT STUDY.yaml
"""
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PDF_MAGIC = b"%PDF-"
MIN_BYTES = 1000  # an empty figure is already larger; a truncated file is not
# The tiny config has one cluster, "seren"; the study varies the placement policy.
RUN_FIGURES = ["queue_delay_cdf_seren", "duration_cdf_seren", "jct_cdf_seren", "gpu_demand_seren", "timeseries_seren"]
STUDY_FIGURES = RUN_FIGURES + ["metrics_by_placement"]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        fail(f"{' '.join(map(str, cmd))}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
    return proc


def check_images(out, names):
    for name in names:
        for ext, magic in (("png", PNG_MAGIC), ("pdf", PDF_MAGIC)):
            path = Path(out) / f"{name}.{ext}"
            if not path.is_file():
                fail(f"missing {path}")
            data = path.read_bytes()
            if len(data) < MIN_BYTES or not data.startswith(magic):
                fail(f"{path}: {len(data)} bytes, header {data[:8]!r}; expected a valid {ext.upper()}")


def main():
    binary, plot, study = sys.argv[1], sys.argv[2], sys.argv[3]
    with tempfile.TemporaryDirectory(prefix="acme-plot-") as tmp_text:
        tmp = Path(tmp_text)
        proc = run([binary, "sweep", study, "-o", tmp / "study", "-j", "2"])
        if "plots: " not in proc.stdout or "tools/plot" not in proc.stdout:
            fail("acme-sim sweep does not print the plot command:\n" + proc.stdout)
        run([plot, tmp / "study", "-o", tmp / "study_plots"])
        check_images(tmp / "study_plots", STUDY_FIGURES)
        if (tmp / "study_plots" / "failures.png").exists():
            fail("a failures figure for a study without failures")

        # A single run whose summary records failures and the GPU time they cost.
        point = next(p for p in (tmp / "study" / "points").iterdir() if not p.name.startswith("."))
        run_dir = tmp / "run"
        shutil.copytree(point, run_dir)
        summary = json.loads((run_dir / "summary.json").read_text())
        cluster = next(iter(summary["clusters"].values()))
        faults = cluster.setdefault("fault_tolerance", {})
        faults["failures"] = 3
        faults.setdefault("failures_by_category", {}).update({"nvlink": 2, "cuda": 1})
        faults["gpu_hours_lost"] = 12.5
        (run_dir / "summary.json").write_text(json.dumps(summary))
        run([plot, run_dir])  # default output: RUN/plots
        check_images(run_dir / "plots", RUN_FIGURES + ["failures"])
        if (run_dir / "plots" / "metrics_by_placement.png").exists():
            fail("a study figure for a single run")

        bad = subprocess.run([plot, tmp], capture_output=True, text=True)
        if bad.returncode != 2 or "neither a run folder" not in bad.stderr:
            fail(f"plotting a folder that is no run: exit {bad.returncode}, expected 2\n{bad.stderr}")
    print("tools/plot: study and run figures written as PNG and PDF")


if __name__ == "__main__":
    main()
