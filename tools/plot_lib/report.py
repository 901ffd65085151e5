"""One self-contained HTML page of a run or a study: tables from summary.json (and results.json), the
figures as inline SVG. No script, no external file: it opens offline and prints as it shows."""
import html
import multiprocessing
import os
import tempfile
from pathlib import Path

from plot_lib import figures, figures_time, report_paper, report_question, report_tables, report_waits, style, svg
from plot_lib.report_tables import esc, num

CSS = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 0 auto; max-width: 1180px;
       padding: 1em 1.5em 3em; color: #1a1a1a; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ddd; padding-bottom: 0.2em;
     margin-top: 2em; } h3 { margin-top: 1.5em; }
p.lead { color: #444; margin-top: 0; }
nav ul { columns: 3; padding-left: 1.2em; font-size: 0.92em; }
table { border-collapse: collapse; margin: 0.8em 0 1.4em; font-size: 0.8em; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
th, td { border: 1px solid #d8d8d8; padding: 0.25em 0.45em; }
th { background: #f3f3f3; text-align: left; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fafafa; }
.scroll { overflow-x: auto; max-width: 100%; }
table.wrap td { overflow-wrap: anywhere; }
figure { margin: 1em 0 2em; } figure svg { height: auto; display: block; }
figcaption { font-size: 0.88em; color: #444; margin-top: 0.3em; }
.note { font-size: 0.88em; color: #555; }
.blocks { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
.blocks > .scroll { min-width: 0; }
p.question { font-size: 1.15em; font-weight: bold; }
td.differs { font-weight: bold; }
details > summary { cursor: pointer; } details > summary > h2 { display: inline; border: none; }
details { margin-top: 2em; border-bottom: 2px solid #ddd; }
"""

CAPTIONS = {
    "queue_delay_cdf": "Queueing delay (start - submit) of GPU jobs per type: CDF(x) = share of jobs waiting at "
                       "most x, on the paper's grid 2^0..2^15 s. Dashed black: the paper's curve for the same "
                       "cluster and type where data/acme has one.",
    "duration_cdf": "Job duration (end - first start) per type on the paper's grid 2^0..2^21 s; dashed: the "
                    "paper's Fig. 4 curve.",
    "jct_cdf": "Job completion time (end - submit) per type on the grid 2^0..2^21 s.",
    "gpu_demand": "GPUs per job: share of GPU jobs and of GPU time (paper Fig. 3; dashed: the paper).",
    "timeseries": "Every column of timeseries.csv that changes over the run (busy GPUs as a share of the "
                  "cluster's GPUs; constant columns are named below); long runs are averaged into at most 1,500 "
                  "bins.",
    "failures": "Failures by category and the GPU hours lost, rolled back, stalled for checkpoints and spent "
                "restoring after failures and preemptions (summary.json fault_tolerance).",
    "lost_by_cause": "GPU hours failures cost, by cause: work rolled back to the last checkpoint, GPUs held "
                     "while the failure was detected and diagnosed, from then until the job computes again "
                     "(host selection, queue, restore), slow nodes pacing synchronous jobs, and other jobs' "
                     "work lost when a restart preempted them (summary.json lost_by_cause_gpu_hours).",
    "ettr": "Effective training time ratio of each pretraining run (runs.csv: productive time over wall time "
            "from its first start to its last end), as a CDF over runs; a study pools a point's seeds.",
}
SEED_NOTE = "Lines: the median over a point's seeds; bands: their range."


def caption_for(name, source):
    key = next((k for k in CAPTIONS if name.startswith(k)), None)
    text = CAPTIONS.get(key, "")
    multi_seed = any(len(s.runs) > 1 for s in source.settings)
    if multi_seed and key in ("queue_delay_cdf", "duration_cdf", "jct_cdf", "gpu_demand", "timeseries"):
        text += " " + SEED_NOTE
    return text


def figure_html(name, fig, source):
    markup = svg.inline_svg(fig, file_name_id(name))
    style.plt.close(fig)
    return (f'<figure id="fig-{file_name_id(name)}">{markup}'
            f"<figcaption>{esc(caption_for(name, source))}</figcaption></figure>")


def file_name_id(name):
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


_SPECS = []  # the figures being drawn: worker processes forked from this one find them here


def _draw(index):
    name, section, build = _SPECS[index]
    fig = build()
    if fig is None:
        return section, ""
    html_text = figure_html(name, fig, _SPECS_SOURCE[0])
    style.plt.close(fig)
    return section, html_text


_SPECS_SOURCE = [None]


def draw_figures(source, specs):
    """{section: [figure html]} in the order of `specs`, drawn by as many forked processes as this
    process may use CPUs (each figure is drawn alone: the page's bytes do not depend on the count)."""
    _SPECS[:] = specs
    _SPECS_SOURCE[0] = source
    workers = min(len(specs), len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            drawn = pool.map(_draw, range(len(specs)), chunksize=1)
    else:
        drawn = [_draw(i) for i in range(len(specs))]
    out = {}
    for section, html_text in drawn:
        if html_text:
            out.setdefault(section, []).append(html_text)
    return out


def build_sections(source):
    """(id, heading, html) in reading order. A study's figures per axis stay in tools/plot: its report
    compares the points in the answer's figures and tables."""
    specs = [spec for spec in figures.figure_specs(source) if spec[1] != "study"]
    drawn = draw_figures(source, specs)
    sections = []
    if source.kind == "study":
        sections.append(("question", "The question and its answer", report_question.question_html(source)))
    sections += [("provenance", "What produced this", report_tables.table(
        None, report_tables.provenance_rows(source), None, numeric_from=99, wrap=True))]
    if source.kind == "study":
        body = report_tables.study_points_table(source) + report_tables.study_metric_tables(source)
        sections.append(("study", "Metrics across the points", body))
    for cluster in source.clusters():
        body = report_tables.cluster_overview(source, cluster)
        body += "".join(drawn.get(cluster, [])) or '<p class="note">No figure: no jobs.csv or timeseries.csv rows for this cluster.</p>'
        body += constant_series_note(source, cluster)
        if source.kind == "run":
            body += run_cluster_html(source.settings[0].runs[0], cluster)
        sections.append((f"cluster-{file_name_id(cluster)}", f"Cluster {cluster}", body))
    failures = drawn.get("failures")
    sections.append(("failures", "Failures, preemptions and GPU time lost",
                     "".join(failures) if failures else '<p class="note">No failure, preemption or lost GPU time in any run.</p>'))
    return sections


def constant_series_note(source, cluster):
    """Names the timeseries.csv columns left out of the figure because they never change."""
    flat = figures_time.constant_columns(source, cluster)
    if not flat:
        return ""
    titled = {c: figures_time.COLUMN_TITLES.get(c, c) for c in flat}
    named = "; ".join(f"{titled[c]}{'' if titled[c] == c else f' ({c})'} constant at {num(v)}" for c, v in flat.items())
    return f'<p class="note" id="constant-{file_name_id(cluster)}">Not drawn over time: {esc(named)}.</p>'


def subsection(cluster, kind, heading, content):
    return f'<h3 id="{kind}-{file_name_id(cluster)}">{esc(cluster)}: {esc(heading)}</h3>{content}'


def run_cluster_html(run, cluster):
    """A run's cluster in numbers: its job types, why they waited, fairness between users, the paper's Table 2
    where the paper has the cluster, then the other blocks of summary.json."""
    out = subsection(cluster, "numbers", "the summary in numbers", report_tables.run_cluster_tables(run, cluster))
    waits = report_waits.wait_reasons_table(run, cluster)
    out += subsection(cluster, "waits", "why jobs waited", waits or
                      '<p class="note">No wait reasons: this summary.json predates them.</p>')
    out += subsection(cluster, "fairness", "fairness between users", report_waits.fairness_html(run, cluster))
    paper = report_paper.table2_html(run, cluster)
    if paper:
        out += subsection(cluster, "paper", "the paper's Table 2 next to this run", paper)
    return out + subsection(cluster, "blocks", "other figures of summary.json", report_tables.block_tables(run, cluster))


def page(source, title):
    sections = build_sections(source)
    what = "study" if source.kind == "study" else "run"
    settings = len(source.settings)
    runs = sum(len(s.runs) for s in source.settings)
    lead = (f"acme-sim {what} report: {settings} point(s), {runs} finished run(s)" if what == "study"
            else "acme-sim run report")
    toc = "".join(f'<li><a href="#{sid}">{esc(heading)}</a></li>' for sid, heading, _ in sections)
    body = "".join(section_html(source, i, *parts) for i, parts in enumerate(sections))
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"<h1>{esc(title)}</h1>\n<p class=\"lead\">{esc(lead)}</p>\n<nav><ul>{toc}</ul></nav>\n{body}\n"
            "</body>\n</html>\n")


def section_html(source, index, sid, heading, content):
    """A study opens with its answer; everything after it is folded (a click opens it)."""
    if source.kind == "study" and index > 0:
        return f'<details id="{sid}"><summary><h2>{esc(heading)}</h2></summary>{content}</details>'
    return f'<section id="{sid}"><h2>{esc(heading)}</h2>{content}</section>'


def write_atomically(path, text):
    """Writes under a temporary name in the same folder, then renames: no half-written page."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_report(source, out_path, title=None):
    write_atomically(out_path, page(source, title or html.unescape(source.name)))
