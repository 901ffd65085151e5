"""Reads acme-sim run folders and study folders into curves (one per run or study point)."""
import csv
import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path


class BadInput(Exception):
    """A folder that is neither a run nor a study, or a file that cannot be read."""


@dataclass
class Curve:
    label: str
    run_dir: Path
    summary: dict
    jobs: list = field(default_factory=list)        # dicts: type, queue_s, duration_s, gpus, lost_gpu_h, failures
    timeseries: list = field(default_factory=list)  # dicts: time, cluster, busy_gpus, queued_jobs
    source: str = ""                                # the folder given on the command line


def _number(text, default=None):
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def read_jobs(path):
    """jobs.csv rows of jobs that were not rejected; CPU jobs (no GPU) get the type "CPU"."""
    if not path.is_file():
        return []
    jobs = []
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row.get("reject_reason"):
                continue
            gpus = _number(row.get("gpu_num"), 0.0)
            jobs.append({
                "type": "CPU" if gpus == 0 else row.get("type", "Other"),
                "queue_s": _number(row.get("queue")),
                "duration_s": _number(row.get("duration")),
                "gpus": gpus,
                "lost_gpu_h": _number(row.get("gpu_hours_lost"), 0.0),
                "failures": row.get("failures", ""),
            })
    return jobs


def read_timeseries(path):
    if not path.is_file():
        return []
    rows = []
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            try:
                when = datetime.fromisoformat(row["time"])
            except (KeyError, ValueError):
                continue
            rows.append({"time": when, "cluster": row.get("cluster", ""),
                         "busy_gpus": _number(row.get("busy_gpus"), 0.0),
                         "queued_jobs": _number(row.get("queued_jobs"), 0.0)})
    return rows


def read_run(run_dir, label):
    summary_path = run_dir / "summary.json"
    try:
        summary = json.loads(summary_path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise BadInput(f"{summary_path}: cannot read ({e}); expected a run's summary.json") from e
    return Curve(label, run_dir, summary, read_jobs(run_dir / "jobs.csv"), read_timeseries(run_dir / "timeseries.csv"))


def short_key(key):
    """policies.placement.name -> placement; clusters[0].nodes -> nodes."""
    parts = key.replace("[", ".[").split(".")
    parts = [p for p in parts if p and not p.startswith("[")]
    if len(parts) >= 2 and parts[-1] in ("name", "kind", "value"):
        return parts[-2]
    return parts[-1] if parts else key


def study_curves(study_dir, one_seed):
    plan = json.loads((study_dir / "study.json").read_text())
    axes = plan.get("axes", [])
    curves, seen_groups = [], set()
    for point in plan.get("points", []):
        point_dir = study_dir / "points" / point["id"]
        try:
            status = json.loads((point_dir / "point.json").read_text()).get("status")
        except (OSError, json.JSONDecodeError):
            continue
        if status != "ok" or (one_seed and point["group"] in seen_groups):
            continue
        seen_groups.add(point["group"])
        values = dict(point["overrides"])
        label = " ".join(f"{short_key(a)}={values.get(a, '')}" for a in axes)
        label = (label + f" s{point['seed']}").strip() if not one_seed else (label or point["group"])
        curves.append(read_run(point_dir, label))
    return curves


def discover(dirs, one_seed=False):
    curves = []
    for text in dirs:
        d = Path(text)
        if (d / "study.json").is_file():
            found = study_curves(d, one_seed)
        elif (d / "summary.json").is_file():
            found = [read_run(d, d.resolve().name)]
        else:
            raise BadInput(f"{d}: neither a run folder (summary.json) nor a study folder (study.json)")
        for c in found:
            c.source = d.resolve().name
        curves.extend(found)
    if len(dirs) > 1:  # several sources: make labels unique by prefixing the folder
        names = [c.label for c in curves]
        for c in curves:
            if names.count(c.label) > 1:
                c.label = f"{c.source}/{c.label}"
    return curves
