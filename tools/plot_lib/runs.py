"""Reads acme-sim run folders and study folders: a Source holds Settings, each with the Runs of its seeds."""
import csv
import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from plot_lib import labels as point_labels

# Job types in the order of the paper's figures (Hu et al., NSDI'24, Fig. 4); "CPU" holds jobs without GPUs.
JOB_TYPES = ["Pretrain", "SFT", "MLLM", "Evaluation", "Debug", "Other"]
TYPE_SPELLINGS = {"Eval": "Evaluation"}  # AcmeTrace's spelling in jobs.csv -> summary.json's key
CPU_TYPE = "CPU"


class BadInput(Exception):
    """A folder that is neither a run nor a study, or a file that cannot be read."""


@dataclass
class Run:
    path: Path
    summary: dict
    seed: object = None
    jobs: dict = field(default_factory=dict)        # cluster -> type -> {"queue", "duration", "jct", "gpus"} arrays
    timeseries: dict = field(default_factory=dict)  # cluster -> {"time": [datetime], column: array}
    has_jobs_csv: bool = False


@dataclass
class Setting:
    label: str
    runs: list                                        # one Run per finished seed
    values: dict = field(default_factory=dict)        # axis key -> value text
    group: str = ""                                   # the study's group id
    failed: list = field(default_factory=list)        # (seed, error) of points that did not finish


@dataclass
class Source:
    kind: str                                         # "run" or "study"
    name: str
    path: Path
    settings: list
    plan: dict = field(default_factory=dict)          # study.json
    axis_groups: list = field(default_factory=list)   # labels.AxisGroup, for a study
    aggregate: dict = field(default_factory=dict)     # group id -> metric -> {n, mean, ci95_low, ci95_high}
    paired: dict = field(default_factory=dict)        # (group id, metric) -> paired.csv row

    def clusters(self):
        names = []
        for s in self.settings:
            for r in s.runs:
                names += [c for c in r.summary.get("clusters", {}) if c not in names]
        return names


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def read_jobs(path):
    """jobs.csv -> cluster -> type -> arrays of queueing delay, duration, JCT (s) and GPUs, of the jobs that
    started (rejected jobs never do). Jobs without GPUs get the type "CPU"."""
    columns = {}
    with path.open(newline="") as f:
        reader = csv.reader(f, strict=True)
        header = next(reader, None) or []
        at = {name: i for i, name in enumerate(header)}
        missing = [c for c in ("type", "gpu_num", "start_time", "duration", "queue") if c not in at]
        if missing:
            raise BadInput(f"{path}:1: missing column {missing[0]!r}; expected a jobs.csv written by acme-sim run")
        cluster_at = at.get("cluster")
        for row in reader:
            if len(row) != len(header) or not row[at["start_time"]]:
                continue
            gpus = _number(row[at["gpu_num"]]) or 0.0
            job_type = CPU_TYPE if gpus == 0 else TYPE_SPELLINGS.get(row[at["type"]], row[at["type"]])
            cluster = row[cluster_at] if cluster_at is not None else ""
            queue, duration = _number(row[at["queue"]]), _number(row[at["duration"]])
            if queue is None or duration is None:
                continue
            cols = columns.setdefault(cluster, {}).setdefault(job_type, ([], [], []))
            cols[0].append(queue)
            cols[1].append(duration)
            cols[2].append(gpus)
    jobs = {}
    for cluster, by_type in columns.items():
        for job_type, (queue, duration, gpus) in by_type.items():
            q, d = np.asarray(queue), np.asarray(duration)
            jobs.setdefault(cluster, {})[job_type] = {"queue": q, "duration": d, "jct": q + d, "gpus": np.asarray(gpus)}
    return jobs


def read_timeseries(path):
    """timeseries.csv -> cluster -> {"time": [datetime], COLUMN: array} for every numeric column the run wrote."""
    rows = {}
    with path.open(newline="") as f:
        reader = csv.DictReader(f, strict=True)
        names = [n for n in (reader.fieldnames or []) if n not in ("time", "cluster")]
        for row in reader:
            try:
                when = datetime.fromisoformat(row["time"])
            except (KeyError, TypeError, ValueError):
                continue
            series = rows.setdefault(row.get("cluster", ""), {"time": []} | {n: [] for n in names})
            series["time"].append(when)
            for n in names:
                value = _number(row.get(n))
                series[n].append(np.nan if value is None else value)
    return {c: {k: (v if k == "time" else np.asarray(v, dtype=float)) for k, v in s.items()} for c, s in rows.items()}


def read_run(run_dir, with_jobs=True):
    summary_path = run_dir / "summary.json"
    try:
        summary = json.loads(summary_path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise BadInput(f"{summary_path}: cannot read ({e}); expected a run's summary.json") from e
    run = Run(run_dir, summary, summary.get("seed"))
    jobs_path, series_path = run_dir / "jobs.csv", run_dir / "timeseries.csv"
    if with_jobs and jobs_path.is_file():
        run.jobs, run.has_jobs_csv = _read_csv(read_jobs, jobs_path), True
    if series_path.is_file():
        run.timeseries = _read_csv(read_timeseries, series_path)
    return run


def _read_csv(reader, path):
    """A damaged CSV (a field over the csv module's 128 KiB, an unclosed quote, bytes that are not UTF-8)
    becomes one located line, not a traceback."""
    try:
        return reader(path)
    except (csv.Error, UnicodeDecodeError) as e:
        kind = "csv.Error" if isinstance(e, csv.Error) else type(e).__name__
        raise BadInput(f"{path}: cannot read ({kind}: {str(e)[:200]}); expected a CSV file written "
                       "by acme-sim run (UTF-8, fields under 128 KiB)") from e


def _point_status(point_dir):
    try:
        record = json.loads((point_dir / "point.json").read_text())
    except (OSError, json.JSONDecodeError):
        return "not run", ""
    return record.get("status", "?"), record.get("error", "")


def read_study(study_dir, with_jobs=True):
    try:
        plan = json.loads((study_dir / "study.json").read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise BadInput(f"{study_dir / 'study.json'}: cannot read ({e}); expected a study folder of acme-sim sweep") from e
    groups = point_labels.axis_groups(plan)
    settings = {}
    for point in plan.get("points", []):
        values = dict(point["overrides"])
        setting = settings.setdefault(point["group"], Setting(point_labels.setting_label(groups, values), [],
                                                              {k: values.get(k, "") for k in plan.get("axes", [])},
                                                              point["group"]))
        point_dir = study_dir / "points" / point["id"]
        status, error = _point_status(point_dir)
        if status == "ok":
            setting.runs.append(read_run(point_dir, with_jobs))
        else:
            setting.failed.append((point["seed"], status + (f": {error}" if error else "")))
    ordered = sorted(settings.values(), key=lambda s: point_labels.study_position(groups, s.values))
    source = Source("study", plan.get("name") or study_dir.resolve().name, study_dir, ordered, plan, groups)
    source.aggregate = read_aggregate(study_dir / "results.json")
    source.paired = read_paired(study_dir / "paired.csv")
    return source


def read_paired(path):
    """paired.csv as {(group id, metric): row}; {} when the study has none (one setting, earlier versions)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return {(r["group_id"], r["metric"]): r for r in csv.DictReader(f)}
    except OSError:
        return {}


def read_aggregate(path):
    """results.json's mean and 95% Student t interval of every metric across the seeds of each setting."""
    try:
        results = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return {}
    return {g["group"]: g.get("metrics", {}) for g in results.get("aggregate", []) if "group" in g}


def read_source(path, with_jobs=True):
    """A run folder (summary.json) or a study folder (study.json)."""
    path = Path(path)
    if (path / "study.json").is_file():
        return read_study(path, with_jobs)
    if (path / "summary.json").is_file():
        run = read_run(path, with_jobs)
        return Source("run", path.resolve().name, path, [Setting(path.resolve().name, [run])])
    raise BadInput(f"{path}: neither a run folder (summary.json) nor a study folder (study.json)")


def combine(sources):
    """Several run or study folders drawn together: every setting of each, named by its folder when the
    names would clash."""
    if len(sources) == 1:
        return sources[0]
    settings = [s for src in sources for s in src.settings]
    names = [s.label for s in settings]
    for src in sources:
        for s in src.settings:
            if names.count(s.label) > 1 or src.kind == "run":
                s.label = src.name if src.kind == "run" else f"{src.name}/{s.label}"
    return Source("runs", " + ".join(src.name for src in sources), Path("."), settings)
