"""Who waited, and why: each wait reason's share of the waiting time per job type (summary.json wait_hours,
wait_reasons) and fairness between users (summary.json fairness; docs/policies.md, "Fairness between users")."""
from plot_lib.report_tables import TYPE_ORDER, num, table


def _number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _type_name(name):
    return "all GPU jobs" if name == "all_gpu" else name


def _types_with_jobs(by_type):
    names = [t for t in TYPE_ORDER if t in by_type] + [t for t in by_type if t not in TYPE_ORDER]
    return [t for t in names if isinstance(by_type[t], dict) and _number(by_type[t].get("jobs"))]


def wait_reasons_table(run, cluster):
    """Rows: job types; columns: the hours waited and each reason's share (%) of them. None when the summary
    has no wait reasons (written before acme-sim recorded them)."""
    by_type = run.summary.get("clusters", {}).get(cluster, {}).get("by_type", {})
    types = _types_with_jobs(by_type) if isinstance(by_type, dict) else []
    reasons = []
    for t in types:
        shares = by_type[t].get("wait_reasons")
        reasons += [r for r in shares if r not in reasons] if isinstance(shares, dict) else []
    if not any("wait_hours" in by_type[t] for t in types):
        return None
    rows = []
    for t in types:
        shares = by_type[t].get("wait_reasons")
        shares = shares if isinstance(shares, dict) else {}
        cells = [_number(shares.get(r)) for r in reasons]
        rows.append([_type_name(t), num(_number(by_type[t].get("wait_hours")))] +
                    ["-" if s is None else num(100.0 * s, 3) for s in cells])
    return table(["type", "hours waited"] + [f"{r} (%)" for r in reasons], rows,
                 f"{cluster}: why jobs waited: each reason's share of the waiting time per job type "
                 "(summary.json wait_hours, wait_reasons; Slurm's reason names, docs/policies.md)")


def _fairness_row(name, block):
    worst = block.get("worst_served")
    first = worst[0] if isinstance(worst, list) and worst and isinstance(worst[0], dict) else {}
    longest = (f"{first.get('user', '?')} ({num(_number(first.get('mean_wait_s')))} s)" if first else "nobody waited")
    return [name, num(_number(block.get("users"))), num(_number(block.get("mean_wait_jain")), 3),
            num(_number(block.get("gpu_hours_jain")), 3), longest]


def fairness_index_table(run, cluster):
    """Jain's indexes per class: the cluster's GPU jobs, then each job type with users. None without them."""
    c = run.summary.get("clusters", {}).get(cluster, {})
    if not isinstance(c.get("fairness"), dict):
        return None
    rows = [_fairness_row("all GPU jobs", c["fairness"])]
    by_type = c.get("by_type", {})
    for t in _types_with_jobs(by_type) if isinstance(by_type, dict) else []:
        block = by_type[t].get("fairness")
        if isinstance(block, dict) and _number(block.get("users")):
            rows.append(_fairness_row(t, block))
    return table(["GPU jobs", "users", "Jain index of mean waits", "Jain index of GPU hours",
                  "longest mean wait"], rows,
                 f"{cluster}: fairness between users (summary.json fairness): Jain's index (sum x)^2 / (n sum x^2) "
                 "of the users' mean queueing delays and of their GPU hours; 1 = all alike, 1/n = one user has it "
                 "all (1 when nobody waited)")


def worst_served_table(run, cluster):
    """The users of the cluster's GPU jobs with the longest mean wait; None when nobody waited."""
    block = run.summary.get("clusters", {}).get(cluster, {}).get("fairness")
    worst = block.get("worst_served") if isinstance(block, dict) else None
    if not isinstance(worst, list) or not worst:
        return None
    rows = []
    for rank, u in enumerate([u for u in worst if isinstance(u, dict)], start=1):
        share = _number(u.get("gpu_hour_share"))
        wait_s = _number(u.get("mean_wait_s"))
        rows.append([rank, u.get("user", "?"), num(_number(u.get("jobs"))), num(wait_s),
                     num(None if wait_s is None else wait_s / 3600.0, 3),
                     num(None if share is None else 100.0 * share, 3)])
    return table(["rank", "user", "GPU jobs", "mean wait (s)", "mean wait (h)", "share of GPU hours (%)"], rows,
                 f"{cluster}: the worst-served users of its GPU jobs (longest mean queueing delay; ties by name)",
                 numeric_from=2)


def fairness_html(run, cluster):
    parts = [t for t in (fairness_index_table(run, cluster), worst_served_table(run, cluster)) if t]
    if not parts:
        return '<p class="note">No fairness figures: this summary.json predates them.</p>'
    return "\n".join(parts)
