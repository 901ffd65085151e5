"""acme_sim.load: an acme-sim run folder, or a study folder of acme-sim sweep, as pandas DataFrames.

Columns are typed from what acme-sim writes (sim/metrics/job_columns.cpp for jobs.csv): numbers become
float64 (counts int64 when no row leaves them empty), text stays text with "" where the file has nothing,
and every ``X_unix_s`` column (whole Unix seconds, UTC) gains ``X_utc``, a ``datetime64[ns, UTC]`` column
(NaT where the job never started). The local date-times (``submit_time``, ``start_time``, ``end_time``, each
with its cluster's UTC offset, as in AcmeTrace) stay the text acme-sim wrote: clusters of a run may have
different offsets, which one pandas column cannot hold; ``pd.to_datetime(jobs.submit_time, utc=True)`` gives
them in UTC. timeseries.csv's ``time`` gains ``time_utc`` the same way.
"""

import csv
import json
from pathlib import Path

# Columns that hold text, whatever they look like (a job_id of digits is a name, not a number).
TEXT = {
    "jobs.csv": {"job_id", "user", "type", "state", "submit_time", "start_time", "end_time", "fail_time", "stop_time",
                 "cluster", "run_id", "reject_reason", "failures", "wait_reason"},
    "timeseries.csv": {"time", "cluster"},
    "nodes.csv": {"cluster"},
    "runs.csv": {"run_id", "cluster", "type", "failures_by_category"},
    "results.csv": {"point_id", "group_id", "status", "label", "error"},
}
# Counts: int64 when every row has one.
COUNTS = {
    "jobs.csv": {"node_num", "gpu_num", "cpu_num", "attempts", "leaf_switches", "checkpoints", "preemptions",
                 "tp", "pp", "dp"},
    "timeseries.csv": {"queued_jobs", "queued_gpus", "running_jobs", "up_nodes", "nodes_off"},
    "nodes.csv": {"node", "failures", "repairs", "manual_repairs", "unfixed_repairs", "quarantines",
                  "failures_avoided", "slow_periods"},
    "runs.csv": {"gpus", "jobs", "attempts", "failures"},
    "results.csv": {"seed"},
}
# Columns known to be numbers: float64 (or a count) even when every value happens to be an integer.
NUMBERS = {"jobs.csv": {"duration", "queue", "gpu_time", "recorded_queue", "work_s", "ckpt_stall_s", "restore_s",
                        "lost_work_s", "gpu_hours_lost", "energy_kWh", "mem_per_pod_GB", "shared_mem_per_pod",
                        "submit_unix_s", "start_unix_s", "end_unix_s"}}


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError("acme_sim.load needs pandas: apt-get install python3-pandas") from None
    return pandas


def _header(path):
    with open(path, newline="") as f:
        return next(csv.reader(f), [])


def _is_text(kind, name):
    return name in TEXT.get(kind, ()) or (kind == "results.csv" and name.startswith("set:"))


def read_table(path, kind=None):
    """One of acme-sim's CSV files as a typed DataFrame (see the module's docstring); None when it is absent."""
    path = Path(path)
    if not path.is_file():
        return None
    pd = _pandas()
    kind = kind or path.name
    columns = _header(path)
    text = [c for c in columns if _is_text(kind, c)]
    numbers = [c for c in columns if c in NUMBERS.get(kind, ()) or c in COUNTS.get(kind, ())]
    try:
        frame = pd.read_csv(path, dtype={**{c: str for c in text}, **{c: "float64" for c in numbers}},
                            keep_default_na=False, na_values={c: [""] for c in columns if c not in text},
                            float_precision="round_trip")
    except (ValueError, pd.errors.ParserError) as e:
        raise ValueError(f"{path}: cannot read ({e}); expected a CSV file written by acme-sim") from None
    for c in columns:
        if c not in text:
            frame[c] = _typed(pd, frame[c], c in COUNTS.get(kind, ()))
    return frame


def _typed(pd, column, count):
    """A column that is not text by name: int64 (a count every row has), float64, or words (text)."""
    if count and not column.isna().any():
        return column.astype("int64")
    if column.dtype == object:
        # No value at all: a number nobody had; words: a text column acme-sim added since.
        return column.astype("float64") if column.isna().all() else column.fillna("")
    return column.astype("float64") if pd.api.types.is_integer_dtype(column) else column


def _with_utc(frame):
    pd = _pandas()
    for c in [c for c in frame.columns if c.endswith("_unix_s")]:
        frame[c[:-len("_unix_s")] + "_utc"] = pd.to_datetime(frame[c], unit="s", utc=True)
    if "time" in frame.columns:
        frame["time_utc"] = pd.to_datetime(frame["time"], utc=True)
    return frame


class Run:
    """One run folder: ``jobs``, ``timeseries``, ``nodes``, ``runs`` (DataFrames, None when the run did not
    write the file), ``summary`` (summary.json as a dict), ``config`` (config.resolved.yaml's text, or None)."""

    def __init__(self, folder):
        self.path = Path(folder)
        try:
            self.summary = json.loads((self.path / "summary.json").read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"{self.path / 'summary.json'}: cannot read ({e}); expected a run's summary.json") \
                from None
        config = self.path / "config.resolved.yaml"
        self.config = config.read_text() if config.is_file() else None
        jobs, series = read_table(self.path / "jobs.csv"), read_table(self.path / "timeseries.csv")
        self.jobs = None if jobs is None else _with_utc(jobs)
        self.timeseries = None if series is None else _with_utc(series)
        self.nodes = read_table(self.path / "nodes.csv")
        self.runs = read_table(self.path / "runs.csv")

    def __repr__(self):
        jobs = "no jobs.csv" if self.jobs is None else f"{len(self.jobs)} jobs"
        return f"Run({str(self.path)!r}: {jobs})"


class Study:
    """A study folder: ``plan`` (study.json), ``results`` (results.csv: one row per point, its ``label``,
    overrides as ``set:KEY`` text columns and every number of its summary.json), ``aggregate`` and ``paired``
    (aggregate.csv, paired.csv; None when absent) and ``runs`` (point id -> Run of each finished point, read
    when first asked for)."""

    def __init__(self, folder):
        self.path = Path(folder)
        try:
            self.plan = json.loads((self.path / "study.json").read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"{self.path / 'study.json'}: cannot read ({e}); expected a study folder of acme-sim "
                             "sweep") from None
        self.results = read_table(self.path / "results.csv")
        self.aggregate = read_table(self.path / "aggregate.csv")
        self.paired = read_table(self.path / "paired.csv")
        self._runs = None

    @property
    def runs(self):
        if self._runs is None:
            points = [p["id"] for p in self.plan.get("points", [])]
            self._runs = {p: Run(self.path / "points" / p) for p in points
                          if (self.path / "points" / p / "summary.json").is_file()}
        return self._runs

    def __repr__(self):
        return f"Study({str(self.path)!r}: {len(self.plan.get('points', []))} points)"


def load(folder):
    """A Run for a run folder (summary.json), a Study for a study folder (study.json)."""
    _pandas()
    folder = Path(folder)
    if (folder / "study.json").is_file():
        return Study(folder)
    if (folder / "summary.json").is_file():
        return Run(folder)
    raise FileNotFoundError(f"{folder}: neither a run folder (summary.json) nor a study folder (study.json)")
