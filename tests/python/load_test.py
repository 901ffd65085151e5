#!/usr/bin/env python3
"""acme_sim.load reads what acme-sim wrote: a run of the tiny config (and of faults_small, which writes
nodes.csv) and a two-point study, compared value by value with the files read by the csv and json modules.

usage: load_test.py POLICIES_PYTHON_DIR ACME_SIM CONFIG_DIR   (a python3 with pandas: Debian's python3-pandas)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

POLICIES, ACME_SIM, CONFIGS = (Path(a).resolve() for a in sys.argv[1:4])
sys.path.insert(0, str(POLICIES))
import acme_sim  # noqa: E402

try:
    import pandas as pd
except ImportError:
    sys.exit(f"FAIL: {sys.executable} has no pandas; expected Debian's python3-pandas (tools/install_deps.sh)")


def acme(*args):
    run = subprocess.run([str(ACME_SIM), *map(str, args), "--quiet"], capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        sys.exit(f"FAIL: acme-sim {' '.join(map(str, args))}: exit {run.returncode}\n{run.stderr}")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Folders(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="acme-load-")
        cls.folder = Path(cls.tmp.name)
        acme("run", CONFIGS / "test" / "tiny.yaml", "-o", cls.folder / "tiny")
        acme("run", CONFIGS / "test" / "faults_small.yaml", "-o", cls.folder / "faults")
        study = cls.folder / "study.yaml"
        study.write_text(f"name: two\nconfig: {CONFIGS / 'test' / 'tiny.yaml'}\n"
                         "grid:\n  policies.placement.name: [pack, first_fit]\nseeds: 1\n")
        acme("sweep", study, "-j", "1", "-o", cls.folder / "study")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_jobs_typed_and_equal_to_the_csv(self):
        run = acme_sim.load(self.folder / "tiny")
        csv_rows = rows(self.folder / "tiny" / "jobs.csv")
        jobs = run.jobs
        self.assertEqual(len(jobs), len(csv_rows))
        self.assertEqual(int(jobs.gpu_num.sum()), sum(int(r["gpu_num"]) for r in csv_rows))
        self.assertEqual((str(jobs.gpu_num.dtype), str(jobs.queue.dtype), str(jobs.duration.dtype)),
                         ("int64", "float64", "float64"))
        self.assertEqual(list(jobs.queue), [float(r["queue"]) for r in csv_rows])
        self.assertEqual(list(jobs.energy_kWh), [float(r["energy_kWh"]) for r in csv_rows])  # every digit
        self.assertEqual(list(jobs.job_id), [r["job_id"] for r in csv_rows])  # names, not numbers
        self.assertEqual(list(jobs.submit_time), [r["submit_time"] for r in csv_rows])  # local text, as written
        self.assertEqual(list(jobs.reject_reason), [r["reject_reason"] for r in csv_rows])
        self.assertEqual(str(jobs.submit_utc.dtype), "datetime64[ns, UTC]")
        self.assertEqual([t.timestamp() for t in jobs.submit_utc], [float(r["submit_unix_s"]) for r in csv_rows])
        self.assertEqual(jobs.submit_utc.iloc[0], pd.Timestamp(csv_rows[0]["submit_time"]).tz_convert("UTC"))
        never = [r["start_unix_s"] == "" for r in csv_rows]
        self.assertTrue(any(never))
        self.assertEqual(list(jobs.start_utc.isna()), never)  # rejected jobs never start: NaT
        self.assertEqual(list(jobs.start_unix_s.isna()), never)

    def test_the_other_files_of_a_run(self):
        run = acme_sim.load(self.folder / "tiny")
        self.assertEqual(run.summary, json.loads((self.folder / "tiny" / "summary.json").read_text()))
        self.assertEqual(run.config, (self.folder / "tiny" / "config.resolved.yaml").read_text())
        self.assertIsNone(run.nodes)  # no failures: no nodes.csv
        self.assertEqual(len(run.runs), 0)  # no pretraining runs: only the header
        self.assertEqual(str(run.runs.gpu_hours_lost.dtype), "float64")
        series = rows(self.folder / "tiny" / "timeseries.csv")
        self.assertEqual(list(run.timeseries.busy_gpus), [float(r["busy_gpus"]) for r in series])
        self.assertEqual(str(run.timeseries.queued_jobs.dtype), "int64")
        self.assertEqual(list(run.timeseries.time_utc), [pd.Timestamp(r["time"]).tz_convert("UTC") for r in series])
        nodes = acme_sim.load(self.folder / "faults").nodes
        self.assertEqual(len(nodes), len(rows(self.folder / "faults" / "nodes.csv")))
        self.assertEqual((str(nodes.node.dtype), str(nodes.down_hours.dtype)), ("int64", "float64"))
        self.assertEqual(str(nodes.failure_factor.dtype), "float64")  # written "1": a number all the same

    def test_a_study(self):
        study = acme_sim.load(self.folder / "study")
        self.assertEqual(type(study).__name__, "Study")
        results = rows(self.folder / "study" / "results.csv")
        self.assertEqual(list(study.results.label), [r["label"] for r in results])
        self.assertEqual(sorted(study.results.label), ["first_fit", "pack"])
        self.assertEqual(str(study.results.seed.dtype), "int64")
        self.assertEqual(str(study.results.simulated_end_s.dtype), "float64")
        self.assertEqual(list(study.results.simulated_end_s), [float(r["simulated_end_s"]) for r in results])
        self.assertEqual(sorted(study.runs), sorted(r["point_id"] for r in results))
        for point, run in study.runs.items():
            self.assertEqual(len(run.jobs), len(rows(self.folder / "study" / "points" / point / "jobs.csv")))
        self.assertEqual(study.plan["name"], "two")

    def test_what_is_not_a_run_and_no_pandas(self):
        with self.assertRaises(FileNotFoundError) as caught:
            acme_sim.load(self.folder)
        self.assertIn("neither a run folder (summary.json) nor a study folder (study.json)", str(caught.exception))
        code = ("import sys\nsys.modules['pandas'] = None  # as if it were not installed\nimport acme_sim\n"
                f"acme_sim.load({str(self.folder / 'tiny')!r})")
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=str(POLICIES)))
        self.assertIn("ImportError: acme_sim.load needs pandas: apt-get install python3-pandas", run.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
