"""The top of a study report: the study's question, the metrics that answer it as paired differences
against the baseline setting (paired.csv: the same seeds at both settings) per cluster and job type, and
one comparison figure per metric. A study that names no `answer:` gets DEFAULT_ANSWER."""
import re

from plot_lib import svg_interval
from plot_lib.report_tables import esc, num
from plot_lib.runs import JOB_TYPES

DEFAULT_ANSWER = ["by_type.*.queue_s.mean", "gpu_utilisation"]
TYPE_ORDER = JOB_TYPES + ["CPU", "all_gpu"]


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def answer_rows(source, cluster, pattern):
    """(row name, metric name in paired.csv, what `*` stands for) for one answer metric of a cluster: a `*`
    segment expands to every name the runs have there (job types in the paper's order)."""
    prefix = f"clusters.{cluster}."
    if "*" not in pattern:
        return [(pattern, prefix + pattern, "")]
    regex = re.compile(re.escape(prefix + pattern).replace(r"\*", "([^.]+)") + "$")
    found = {}
    for (_, metric) in source.paired:
        m = regex.match(metric)
        if m:
            found[m.group(1)] = metric
    order = {t: i for i, t in enumerate(TYPE_ORDER)}
    names = sorted(found, key=lambda n: (order.get(n, len(order)), n))
    return [(pattern.replace("*", n), found[n], n) for n in names]


def baseline_setting(source):
    wanted = source.plan.get("baseline") or {k: v[0] for k, v in source.plan.get("values", {}).items() if v}
    for s in source.settings:
        if all(s.values.get(k) == v for k, v in wanted.items()):
            return s
    return source.settings[0] if source.settings else None


def value_text(value):
    """Thousands separated from 1,000 on, else 4 significant digits."""
    return f"{value:,.0f}" if abs(value) >= 1000 else num(value)


def diff_cell(row):
    """(text, css class) of one paired difference: the mean difference and its 95% interval."""
    if row is None:
        return "-", ""
    diff, low, high = (_number(row.get(k)) for k in ("diff_mean", "diff_ci95_low", "diff_ci95_high"))
    if diff is None:
        return "-", ""
    text = ("+" if diff > 0 else "") + value_text(diff)
    if low is not None and high is not None and high > low:
        text += f" [{value_text(low)}, {value_text(high)}]"
    return text, ("differs" if row.get("differs") == "yes" else "same")


def cluster_table(source, cluster, base, others):
    metrics = [r for pattern in answer_of(source) for r in answer_rows(source, cluster, pattern)]
    head = "".join(f"<th>{esc(s.label)} \u2212 baseline</th>" for s in others)
    body = []
    missing = [name for name, metric, _ in metrics if not any((s.group, metric) in source.paired for s in others)]
    for name, metric, _ in metrics:
        if name in missing:
            continue
        first = next(source.paired[(s.group, metric)] for s in others if (s.group, metric) in source.paired)
        cells = [f'<td class="num">{esc(num(_number(first.get("baseline_mean"))))}</td>']
        for s in others:
            text, cls = diff_cell(source.paired.get((s.group, metric)))
            cells.append(f'<td class="num {cls}">{esc(text)}</td>')
        body.append(f'<tr><th class="key">{esc(name)}</th>{"".join(cells)}</tr>')
    note = (f'<p class="note">{esc(cluster)}: not in paired.csv (no run\'s summary.json has it, or no seed ran at '
            f'both settings): {esc(", ".join(missing))}.</p>' if missing else "")
    if not body:
        return note or f'<p class="note">{esc(cluster)}: no metric of the answer in paired.csv.</p>'
    caption = (f"{cluster}: each setting minus the baseline ({base.label}), mean over the seeds both ran "
               "[95% paired Student t interval]; bold: the interval excludes 0")
    return (f'<div class="scroll"><table class="answer"><caption>{esc(caption)}</caption><thead><tr><th>metric</th>'
            f"<th>baseline: {esc(base.label)}</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>" + note)


def answer_of(source):
    return source.plan.get("answer") or DEFAULT_ANSWER


def answer_figure(source, pattern, others):
    """One figure per answer metric: per cluster, each setting's difference from the baseline with its
    interval (a `*` metric: one row per job type and setting)."""
    panels = []
    for cluster in source.clusters():
        rows = []
        for _, metric, part in answer_rows(source, cluster, pattern):
            for s in others:
                row = source.paired.get((s.group, metric))
                if row and _number(row.get("diff_mean")) is not None:
                    label = f"{part} \u00b7 {s.label}" if part else s.label
                    rows.append((label, _number(row["diff_mean"]), _number(row.get("diff_ci95_low")),
                                 _number(row.get("diff_ci95_high")), row.get("differs") == "yes"))
        if rows:
            panels.append(svg_interval.interval_svg(f"{cluster}: {pattern} (setting \u2212 baseline)", rows))
    if not panels:
        return ""
    return (f'<figure id="answer-{esc(re.sub(r"[^A-Za-z0-9_-]", "-", pattern))}">{"".join(panels)}<figcaption>'
            f"{esc(pattern)}: each setting minus the baseline; dot: the mean paired difference over seeds, "
            "whiskers: its 95% Student t interval (filled: excludes 0).</figcaption></figure>")


def question_html(source):
    """The section a study report opens with."""
    question = source.plan.get("question")
    out = [f'<p class="question">{esc(question)}</p>' if question else
           '<p class="note">The study names no question (add <code>question:</code> and <code>answer:</code> to '
           "the study file); shown: the default metrics.</p>"]
    base = baseline_setting(source)
    others = [s for s in source.settings if s is not base]
    if base is None or not others or not source.paired:
        out.append('<p class="note">No paired comparison: the study has one setting, or no paired.csv.</p>')
        return "".join(out)
    out.append(f'<p>Baseline: <b>{esc(base.label)}</b>; every other setting ran the same seeds, so each row '
               "below is the mean of per-seed differences.</p>")
    out += [cluster_table(source, cluster, base, others) for cluster in source.clusters()]
    out += [answer_figure(source, pattern, others) for pattern in answer_of(source)]
    return "".join(out)
