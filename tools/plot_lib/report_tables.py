"""The HTML tables of a report: provenance, the summary per cluster and job type, a study's points and
its metrics across them (mean and 95% interval over seeds)."""
import html

from plot_lib.figures_study import setting_value, study_metrics
from plot_lib.runs import JOB_TYPES

TYPE_ORDER = JOB_TYPES + ["CPU", "all_gpu"]
FAILED_STATES = ("FAILED", "TIMEOUT", "NODE_FAIL")


def esc(value):
    return html.escape(str(value), quote=True)


def num(value, digits=4):
    """Integers with thousands separators, other numbers with `digits` significant digits, "-" for none."""
    if value is None or isinstance(value, bool):
        return "-" if value is None else str(value).lower()
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 1e15):
        return f"{int(value):,}"
    if abs(value) >= 10**digits:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def table(headers, rows, caption=None, numeric_from=1, wrap=False):
    """A <table> in a horizontally scrolling box (a wide table scrolls inside it, never past the page);
    cells from column `numeric_from` on are right-aligned; `wrap`: long words (paths) may break anywhere."""
    out = ['<div class="scroll"><table class="wrap">' if wrap else '<div class="scroll"><table>']
    if caption:
        out.append(f"<caption>{esc(caption)}</caption>")
    if headers:
        out.append("<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in headers) + "</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        cells = [f'<{"th" if i == 0 and not headers else "td"} class="{"num" if i >= numeric_from else "key"}">'
                 f'{esc(c)}</{"th" if i == 0 and not headers else "td"}>' for i, c in enumerate(row)]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def provenance_rows(source):
    """What produced the results: config, seed(s), version, study file and axes."""
    runs = [r for s in source.settings for r in s.runs]
    first = runs[0].summary if runs else {}
    rows = []
    if source.kind == "study":
        rows += [("study", source.plan.get("name", "")), ("study file", source.plan.get("study_file", "")),
                 ("base config", source.plan.get("config", "")),
                 ("varied", "; ".join(source.plan.get("axes", [])) or "nothing")]
        seeds = sorted({r.seed for r in runs}, key=str)
        rows.append(("seeds", ", ".join(str(s) for s in seeds)))
    else:
        rows += [("config", first.get("config", "not recorded")), ("seed", first.get("seed", "not recorded"))]
    provenance = first.get("provenance", {}) if source.kind == "run" else {}
    if provenance:
        rows.append(("overrides", " ".join(provenance.get("overrides", [])) or "none"))
        for key, value in provenance.get("inputs", {}).items():
            rows.append((f"input {key}", f"{value.get('path', '')} (content hash {value.get('hash', '')})"))
    versions = sorted({str(r.summary.get("version", "not recorded (written before acme-sim recorded it)"))
                       for r in runs})
    rows.append(("version", ", ".join(versions)))
    for key, value in first.items() if source.kind == "run" else []:  # a study's points differ in these
        if key not in ("seed", "config", "version", "clusters", "provenance") and not isinstance(value, (dict, list)):
            rows.append((key, num(value) if isinstance(value, (int, float)) else value))
    rows.append(("folder", str(source.path)))
    return rows


def cluster_overview(source, cluster):
    rows = []
    for s in source.settings:
        for r in s.runs:
            c = r.summary.get("clusters", {}).get(cluster, {})
            util = c.get("gpu_utilisation")
            rows.append([s.label if source.kind == "study" else cluster, r.seed, num(c.get("nodes")),
                         num(c.get("gpus")), num(c.get("jobs")), num(c.get("rejected")),
                         num(util * 100 if isinstance(util, (int, float)) else None), num(c.get("busy_gpu_hours"))])
    return table(["point" if source.kind == "study" else "cluster", "seed", "nodes", "GPUs", "jobs", "rejected",
                  "GPU utilisation (%)", "busy GPU hours"], rows, f"{cluster}: overview")


def by_type_rows(by_type):
    rows = []
    for name in [t for t in TYPE_ORDER if t in by_type] + [t for t in by_type if t not in TYPE_ORDER]:
        t = by_type[name]
        if not t.get("jobs"):
            continue  # a type without jobs (Kalos has no SFT jobs): no row of zeros
        states = t.get("states", {})
        q, j, w = t.get("queue_s", {}), t.get("jct_s", {}), t.get("started_within", {})
        rows.append(["all GPU jobs" if name == "all_gpu" else name, num(t.get("jobs")), num(t.get("rejected")),
                     num(states.get("COMPLETED")), num(states.get("CANCELLED")),
                     num(sum(states.get(k, 0) for k in FAILED_STATES)), num(t.get("gpu_hours")),
                     num(q.get("mean")), num(q.get("p50")), num(q.get("p90")), num(q.get("p99")),
                     num(100 * w["60s"] if "60s" in w else None), num(j.get("mean")), num(j.get("p50")),
                     num(j.get("p90")), num(j.get("p99"))])
    return rows


BY_TYPE_HEADERS = ["type", "jobs", "rejected", "completed", "cancelled", "failed", "GPU hours", "queue mean (s)",
                   "queue p50", "queue p90", "queue p99", "started within 60 s (%)", "JCT mean (s)", "JCT p50",
                   "JCT p90", "JCT p99"]


def run_cluster_tables(run, cluster):
    """A run's cluster: jobs, queueing delay and JCT per job type."""
    c = run.summary.get("clusters", {}).get(cluster, {})
    return table(BY_TYPE_HEADERS, by_type_rows(c.get("by_type", {})),
                 f"{cluster}: jobs, queueing delay and JCT by type (summary.json)")


# Blocks of a cluster's summary that have tables of their own (report_waits) rather than key/value rows.
OWN_TABLES = ("by_type", "fairness")
QUANTILES = ("mean", "p50", "p90", "p99")
CDF_LEVELS = (0.5, 0.9, 0.99)
SHARE_TOLERANCE = 1e-9  # a CDF written as 0.9999999999 has reached 1


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_grid_point(key):
    try:
        float(key)
    except ValueError:
        return False
    return True


def is_cdf(tree):
    """A CDF on a grid: more than two keys that are numbers (the grid points), each with a share."""
    return len(tree) > 2 and all(_is_grid_point(k) and _is_number(v) for k, v in tree.items())


def cdf_text(cdf):
    """A CDF as the grid points where it first reaches 50%, 90% and 99% ("p50 <= 70")."""
    points = sorted((float(k), v) for k, v in cdf.items())
    parts = []
    for level in CDF_LEVELS:
        at = next((x for x, share in points if share >= level - SHARE_TOLERANCE), None)
        parts.append(f"p{level * 100:g} " + (f"<= {num(at)}" if at is not None else f"> {num(points[-1][0])}"))
    return ", ".join(parts) + f" ({len(points)}-point CDF)"


def block_rows(name, tree):
    """(key, text) rows of a summary block: one row per number at its top; the numbers of a nested object in
    one row ("nvlink 6, cuda 3, ..."); a CDF as three quantiles, or left out when its object already has them."""
    numbers = [(k, v) for k, v in tree.items() if _is_number(v)]
    if name:
        rows = [(name, ", ".join(f"{k} {num(v)}" for k, v in numbers))] if numbers else []
    else:
        rows = [(k, num(v)) for k, v in numbers]
    for key, value in tree.items():
        if not isinstance(value, dict):
            continue
        path = f"{name}.{key}" if name else key
        if not is_cdf(value):
            rows += block_rows(path, value)
        elif not any(q in tree for q in QUANTILES):
            rows.append((path, cdf_text(value)))
    return rows


def block_tables(run, cluster):
    """The other blocks of a cluster's summary (fault tolerance, storage, evaluation, power, ...)."""
    c = run.summary.get("clusters", {}).get(cluster, {})
    blocks = []
    for block, value in c.items():
        if isinstance(value, dict) and block not in OWN_TABLES:
            rows = block_rows("", value)
            if rows:
                blocks.append(table([block, "value"], rows, f"{cluster}: {block} (summary.json)", numeric_from=99))
    return '<div class="blocks">' + "\n".join(blocks) + "</div>"


def interval_text(value):
    if value is None:
        return "-"
    mean, low, high = value
    return num(mean) if high - low <= 0 else f"{num(mean)} \u00b1 {num((high - low) / 2, 3)}"


def study_points_table(source):
    axes = source.plan.get("axes", [])
    rows = []
    for s in source.settings:
        failed = "; ".join(f"seed {seed}: {why}" for seed, why in s.failed)
        rows.append([s.label] + [s.values.get(a, "") for a in axes] +
                    [", ".join(str(r.seed) for r in s.runs) or "-", failed or "-"])
    return table(["point"] + axes + ["seeds finished", "not finished"], rows,
                 "Points of the study (each an acme-sim run per seed)", numeric_from=99)


def study_metric_tables(source):
    """Per cluster: one row per metric, one column per point (a study has fewer points than metrics)."""
    parts = []
    for cluster in source.clusters():
        rows = [[name] + [interval_text(setting_value(source, s, cluster, path, scale)) for s in source.settings]
                for path, name, scale in study_metrics(source, cluster)]
        parts.append(table(["metric"] + [s.label for s in source.settings], rows,
                           f"{cluster}: mean over seeds \u00b1 half-width of the 95% Student t interval "
                           "(results.json)"))
        parts.append(study_by_type_table(source, cluster))
    return "\n".join(parts)


def study_by_type_table(source, cluster):
    """Mean queueing delay per job type and point (mean over seeds); types without jobs are left out."""
    types = [t for t in TYPE_ORDER if any(r.summary.get("clusters", {}).get(cluster, {}).get("by_type", {}).get(
        t, {}).get("jobs") for s in source.settings for r in s.runs)]
    rows = []
    for t in types:
        row = ["all GPU jobs" if t == "all_gpu" else t]
        for s in source.settings:
            row.append(interval_text(setting_value(source, s, cluster, f"by_type.{t}.queue_s.mean", 1.0)))
        rows.append(row)
    return table(["type"] + [s.label for s in source.settings], rows,
                 f"{cluster}: mean queueing delay (s) by job type and point")
