"""What every figure shares: the backend, sizes, one colour per setting, the legend under the panels."""
import math
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

PANEL_W, PANEL_H = 3.3, 2.5  # inches per panel
MAX_COLS = 3
REFERENCE_STYLE = {"color": "black", "linestyle": "--", "linewidth": 1.4}
BAND_ALPHA = 0.18
LEGEND_WRAP = 40  # characters per legend line

plt.rcParams.update({
    "font.size": 9, "axes.titlesize": 9.5, "axes.labelsize": 9, "legend.fontsize": 8.5,
    "xtick.labelsize": 8, "ytick.labelsize": 8, "figure.titlesize": 11, "axes.grid": True, "grid.alpha": 0.3,
    "figure.dpi": 100,
})


MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]


def plain(text):
    """`text` (a cluster name, a study label) drawn as written: a '$' would start matplotlib's mathtext."""
    return str(text).replace("$", r"\$")


def marker(index):
    """The marker of the index-th setting: curves that coincide stay distinguishable."""
    return MARKERS[index % len(MARKERS)]


def color(index):
    """The colour of the index-th setting: the same in every figure of a report."""
    cmap = plt.get_cmap("tab10" if index < 10 else "tab20")
    return cmap(index % cmap.N)


def panels(count, panel_w=PANEL_W, panel_h=PANEL_H, max_cols=MAX_COLS, **kwargs):
    """A figure with `count` panels in rows of at most `max_cols` (no empty panel is left visible)."""
    cols = min(max_cols, count)
    rows = math.ceil(count / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(panel_w * cols, panel_h * rows + 0.5), squeeze=False,
                             constrained_layout=True, **kwargs)
    flat = list(axes.flat)
    for ax in flat[count:]:
        ax.remove()
    return fig, flat[:count]


def left_column(axes, cols=MAX_COLS):
    """The panels that start a row (the only ones that need a y label when all share it)."""
    return [ax for i, ax in enumerate(axes) if i % cols == 0]


def legend_below(fig, handles, order=(), names=None):
    """One legend for the whole figure, centred under its panels (savefig with bbox_inches="tight" keeps it).
    `handles` maps labels to artists; labels in `order` come first in that order, the others (the paper's
    reference) after them; `names` renames labels in the legend."""
    if not handles:
        return
    position = {label: i for i, label in enumerate(order)}
    labels = sorted(handles, key=lambda label: position.get(label, len(position)))
    shown = [(names or {}).get(label, label) for label in labels]
    wrapped = [plain("\n".join(textwrap.wrap(label, LEGEND_WRAP)) or label) for label in shown]
    longest = max(len(w.split("\n")[0]) for w in wrapped)
    width_in = fig.get_figwidth()
    ncol = max(1, min(len(wrapped), int(width_in * 72 / (longest * 6.2 + 40))))
    fig.legend([handles[label] for label in labels], wrapped, loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=ncol, frameon=False)


def title(fig, text):
    fig.suptitle(plain(text), fontweight="bold")


def file_metadata(fmt):
    """No creation dates in the files: the same outputs give the same bytes."""
    return {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)
