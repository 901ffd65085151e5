"""The paper's statistics (data/README.md, "How the paper's plots were computed") and seed aggregation."""
import numpy as np

# The paper's CDF grids (Hu et al., NSDI'24, Fig. 4; data/README.md): queueing delay 2^0..2^15 s,
# job duration 2^0..2^21 s. JCT (queueing delay + duration) uses the duration grid.
QUEUE_GRID = [2.0**k for k in range(0, 16)]
DURATION_GRID = [2.0**k for k in range(0, 22)]


def grid_cdf(values, grid):
    """CDF(x) = count(value <= x) / N * 100 at every grid point; None without values."""
    values = np.sort(np.asarray(values, dtype=float))
    if values.size == 0:
        return None
    return np.searchsorted(values, np.asarray(grid), side="right") / values.size * 100.0


def across_seeds(rows):
    """Median, low and high (the range) over the seeds' rows of equal length; None when no row."""
    rows = [np.asarray(r, dtype=float) for r in rows if r is not None]
    if not rows:
        return None
    n = min(len(r) for r in rows)
    stacked = np.vstack([r[:n] for r in rows])
    return np.median(stacked, axis=0), stacked.min(axis=0), stacked.max(axis=0), len(rows)


def lookup(tree, path):
    """tree["a"]["b"]... for the dotted `path`; None when any step is missing or not a number."""
    node = tree
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, (int, float)) and not isinstance(node, bool) else None


def flatten(tree, prefix=""):
    """Numeric leaves of a JSON tree as (dotted key, value), in document order."""
    out = []
    for key, value in tree.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            out += flatten(value, name)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append((name, value))
    return out


def downsample(times, values, max_points):
    """At most `max_points` (time, mean) pairs: consecutive samples averaged in equal bins."""
    n = len(times)
    if n <= max_points:
        return list(times), np.asarray(values, dtype=float)
    edges = np.linspace(0, n, max_points + 1).astype(int)
    values = np.asarray(values, dtype=float)
    return ([times[(a + b - 1) // 2] for a, b in zip(edges[:-1], edges[1:])],
            np.array([np.nanmean(values[a:b]) for a, b in zip(edges[:-1], edges[1:])]))
