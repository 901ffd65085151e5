"""Short, readable names for the points of a study: the study's own `labels:`, else the parts of the
varied values that differ (a scheduler's name and the parameters that tell two setups apart)."""
from dataclasses import dataclass, field

import yaml

MAX_LABEL = 36  # characters; longer names are cut with an ellipsis


@dataclass
class AxisGroup:
    """Keys that vary together (one zip group, or one grid axis) and the names of their value columns."""
    keys: list
    columns: list = field(default_factory=list)   # tuples of value texts, in the study's order
    names: dict = field(default_factory=dict)     # column -> short name

    @property
    def title(self):
        names = []
        for key in self.keys:
            names += [short_key(key)] if short_key(key) not in names else []
        return " + ".join(names)


def short_key(key):
    """clusters[0].policies.scheduler -> scheduler; policies.placement.name -> placement."""
    parts = [p for p in key.replace("[", ".[").split(".") if p and not p.startswith("[")]
    if len(parts) >= 2 and parts[-1] in ("name", "kind", "value"):
        return parts[-2]
    return parts[-1] if parts else key


def _parse(text):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return str(value)


def _cut(text):
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "\u2026"


def short_values(texts):
    """One short name per value text: maps keep their `name` plus the entries that differ between the
    maps of the same name; other values are shown as written."""
    values = [_parse(t) for t in texts]
    if not all(isinstance(v, dict) for v in values):
        return [_cut(_text(v)) for v in values]
    names = []
    for v in values:
        base = str(v.get("name", v.get("kind", "")))
        peers = [p for p in values if str(p.get("name", p.get("kind", ""))) == base]
        keys = [k for k in v if k not in ("name", "kind") and any(p.get(k) != v.get(k) for p in peers)]
        detail = ", ".join(f"{k}={_text(v[k])}" for k in keys)
        names.append(_cut(" ".join(filter(None, [base, detail])) or _text(v)))
    return names


def _covary(points, a, b):
    """Keys a and b vary together: each value of one goes with exactly one value of the other."""
    pairs = {(dict(p["overrides"]).get(a), dict(p["overrides"]).get(b)) for p in points}
    return len(pairs) == len({x for x, _ in pairs}) == len({y for _, y in pairs})


def axis_groups(plan):
    """The study's axes grouped into keys that vary together, each column named."""
    points, groups = plan.get("points", []), []
    for key in plan.get("axes", []):
        home = next((g for g in groups if _covary(points, g.keys[0], key)), None)
        if home:
            home.keys.append(key)
        else:
            groups.append(AxisGroup([key]))
    given, ordered = plan.get("labels", {}), plan.get("values", {})
    for g in groups:
        g.columns = study_columns(g, ordered)
        for p in points:  # study.json of earlier versions has no "values": the points' order (by id)
            values = dict(p["overrides"])
            column = tuple(values.get(k, "") for k in g.keys)
            if column not in g.columns:
                g.columns.append(column)
        # The study's labels name its zip columns (or grid values) in order, as the points list them.
        labelled = next((given[k] for k in g.keys if len(given.get(k, [])) == len(g.columns)), None)
        g.names = dict(zip(g.columns, labelled or short_values([c[0] for c in g.columns])))
    return groups


def study_columns(group, ordered):
    """The group's columns in the study's own order: its keys' value lists (study.json "values") side by side
    (a zip group) or one list (a grid axis)."""
    lists = [ordered.get(k) for k in group.keys]
    if not lists or any(v is None for v in lists) or len({len(v) for v in lists}) != 1:
        return []
    columns = []
    for column in zip(*lists):
        if column not in columns:
            columns.append(column)
    return columns


def column_of(group, values):
    return tuple(values.get(k, "") for k in group.keys)


def study_position(groups, values):
    """Where a setting stands in the study's order (grid axes as written, the first varying slowest)."""
    position = []
    for g in groups:
        column = column_of(g, values)
        position.append(g.columns.index(column) if column in g.columns else len(g.columns))
    return tuple(position)


def setting_label(groups, values):
    """A setting's name: its column's name in every axis group that has more than one column."""
    parts = [g.names.get(column_of(g, values), "?") for g in groups if len(g.columns) > 1]
    if not parts:
        parts = [g.names.get(column_of(g, values), "?") for g in groups]
    return " \u00b7 ".join(parts) if parts else "base"
