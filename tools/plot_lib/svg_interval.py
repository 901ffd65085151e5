"""A horizontal interval plot drawn as SVG text, without matplotlib: one row per (label, mean, low,
high), a dot at the mean, whiskers to the interval ends, a line at zero. Used where a report needs many
small comparison figures fast; the same rows give the same bytes."""
import html
import math

WIDTH = 720
CHAR_W = 6.6  # px per character of DejaVu Sans at 11 px, a little generous
MAX_LABEL_CHARS = 48
RIGHT = 36
ROW_H = 20
TOP = 34
BOTTOM = 34
COLOR = "#1f77b4"


def nice_ticks(low, high, count=5):
    """Round tick values covering [low, high] (steps of 1, 2 or 5 times a power of ten)."""
    if high <= low:
        high = low + 1.0
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(0.0 if abs(value) < step * 1e-9 else value)
        value += step
    return ticks


def tick_text(value):
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.3g}"


def _range(rows):
    ends = [0.0] + [v for _, mean, low, high, _ in rows for v in (mean, low, high) if v is not None]
    low, high = min(ends), max(ends)
    pad = (high - low) * 0.05 or 1.0
    ticks = nice_ticks(low - pad, high + pad)
    return ticks[0], ticks[-1], ticks


def interval_svg(title, rows):
    """rows: (label, mean, low or None, high or None, filled). Returns an <svg> element."""
    lo, hi, ticks = _range(rows)
    labels = [label if len(label) <= MAX_LABEL_CHARS else label[:MAX_LABEL_CHARS - 1] + "\u2026" for label, *_ in rows]
    label_w = round(16 + CHAR_W * max(len(label) for label in labels))
    plot_w = WIDTH - label_w - RIGHT
    height = TOP + ROW_H * len(rows) + BOTTOM

    def x(v):
        return label_w + (v - lo) / (hi - lo) * plot_w

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
           f'style="max-width: {WIDTH}px" font-family="DejaVu Sans, sans-serif" font-size="11" role="img">',
           f'<text x="8" y="16" font-weight="bold">{html.escape(title)}</text>']
    bottom = TOP + ROW_H * len(rows)
    for t in ticks:
        out.append(f'<line x1="{x(t):.1f}" y1="{TOP - 6}" x2="{x(t):.1f}" y2="{bottom}" stroke="#e3e3e3"/>'
                   f'<text x="{x(t):.1f}" y="{bottom + 15}" text-anchor="middle">{tick_text(t)}</text>')
    out.append(f'<line x1="{x(0):.1f}" y1="{TOP - 6}" x2="{x(0):.1f}" y2="{bottom}" stroke="#444" '
               'stroke-dasharray="3,2"/>')
    for i, (label, (_, mean, low, high, filled)) in enumerate(zip(labels, rows)):
        y = TOP + ROW_H * i + ROW_H / 2
        out.append(f'<text x="{label_w - 8}" y="{y + 4:.1f}" text-anchor="end">{html.escape(label)}</text>')
        if low is not None and high is not None:
            out.append(f'<line x1="{x(low):.1f}" y1="{y:.1f}" x2="{x(high):.1f}" y2="{y:.1f}" stroke="{COLOR}" '
                       'stroke-width="1.6"/>')
            out += [f'<line x1="{x(v):.1f}" y1="{y - 4:.1f}" x2="{x(v):.1f}" y2="{y + 4:.1f}" stroke="{COLOR}"/>'
                    for v in (low, high)]
        fill = COLOR if filled else "white"
        out.append(f'<circle cx="{x(mean):.1f}" cy="{y:.1f}" r="4" fill="{fill}" stroke="{COLOR}" stroke-width="1.5"/>')
    out.append("</svg>")
    return "".join(out)
