"""Final states of GPU jobs given (GPUs, duration) (see fit_acme_workload.py).

Fitted to bar_job_state.csv (shares by count and by GPU time) and data/README.md's infrastructure
shares of failed jobs.
"""

import math

from fit_acme_gpus import EXACT_BIN_EDGE_S, bin_points

INFRA_SHARE_FAILED_COUNT = 0.11  # data/README.md: infrastructure ~11% of failed jobs
INFRA_SHARE_FAILED_GPU_TIME = 0.82  # data/README.md: >82% of the GPU time of failed jobs
STATE_FIT_BIN_PARTS = 2  # sub-bins per duration bin in the state fit (a smooth model: coarse is enough)
STATE_FIT_ITERATIONS = 600  # Nelder-Mead iterations per restart (two restarts)


# ---------------------------------------------------------------------------------------------
# Final states: P(state | GPUs g, duration d)
#   infrastructure failure: 1 - exp(-base - lam * g * d) (a chance per job, e.g. storage or connection
#   errors, plus a hazard per GPU-second: mid-run, in large jobs)
#   else multinomial logit in ln d: completed 1, cancelled exp(ac + bc ln d), failed early exp(af + bf ln d)


def state_probs(params, g, d):
    ac, bc, af, bf, log_lam, log_base = params
    infra = 1.0 - math.exp(-math.exp(log_base) - math.exp(log_lam) * g * d)
    ln_d = math.log(d)
    wc = math.exp(max(-50.0, min(50.0, ac + bc * ln_d)))
    wf = math.exp(max(-50.0, min(50.0, af + bf * ln_d)))
    z = 1.0 + wc + wf
    rest = 1.0 - infra
    return rest / z, rest * wc / z, rest * wf / z, infra  # completed, cancelled, failed early, infra


def state_shares(params, points):
    """Expected shares (completed, cancelled, failed early, infrastructure) by count and by GPU time."""
    ac, bc, af, bf, log_lam, log_base = params
    lam, base = math.exp(log_lam), math.exp(log_base)
    count = [0.0] * 4
    gt = [0.0] * 4
    for gd, ln_d, w, wgd in points:
        infra = 1.0 - math.exp(-base - lam * gd)
        wc = math.exp(max(-50.0, min(50.0, ac + bc * ln_d)))
        wf = math.exp(max(-50.0, min(50.0, af + bf * ln_d)))
        rest = (1.0 - infra) / (1.0 + wc + wf)
        probs = (rest, rest * wc, rest * wf, infra)
        for s in range(4):
            count[s] += w * probs[s]
            gt[s] += wgd * probs[s]
    return count, gt


def state_error(params, points, target):
    count, gt = state_shares(params, points)
    n, t = sum(count), sum(gt)
    fail_n, fail_t = count[2] + count[3], gt[2] + gt[3]
    got = [count[1] / n, fail_n / n, gt[1] / t, fail_t / t, count[3] / fail_n, gt[3] / fail_t]
    return sum((a - b) ** 2 for a, b in zip(got, target))


def nelder_mead(f, x0, step, iters=3000):
    pts = [list(x0)] + [[x + (step if j == i else 0.0) for j, x in enumerate(x0)] for i in range(len(x0))]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(len(pts)), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        centre = [sum(p[j] for p in pts[:-1]) / (len(pts) - 1) for j in range(len(x0))]
        refl = [c + (c - w) for c, w in zip(centre, pts[-1])]
        fr = f(refl)
        if fr < vals[0]:
            exp_ = [c + 2 * (c - w) for c, w in zip(centre, pts[-1])]
            fe = f(exp_)
            pts[-1], vals[-1] = (exp_, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [c + 0.5 * (w - c) for c, w in zip(centre, pts[-1])]
            fc = f(con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                pts = [pts[0]] + [[b + 0.5 * (p - b) for b, p in zip(pts[0], q)] for q in pts[1:]]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
    best = min(range(len(pts)), key=lambda i: vals[i])
    return pts[best], vals[best]


def joint_points(models):
    """(g, d, weight) over every type, bin and representative duration."""
    acc = {}
    for m in models.values():
        for i, g in enumerate(m.gpus):
            for k, (a, b, _) in enumerate(m.bins):
                cell = m.share * m.gpu_pmf[i] * m.cond[i][k]
                if cell <= 0:
                    continue
                points = [(math.ceil(b), 1.0)] if a <= 0 else bin_points(max(a, 1.0), b, STATE_FIT_BIN_PARTS)
                if 0 < a and b <= EXACT_BIN_EDGE_S:
                    points = [(sum(d * w for d, w in bin_points(a, b)), 1.0)]
                for d, w in points:
                    acc[(g, d)] = acc.get((g, d), 0.0) + cell * w
    return [(g * d, math.log(d), w, w * g * d) for (g, d), w in sorted(acc.items())]


def fit_states(points, state_row_count, state_row_gt):
    target = [state_row_count["cancelled"], state_row_count["failed"], state_row_gt["cancelled"],
              state_row_gt["failed"], INFRA_SHARE_FAILED_COUNT, INFRA_SHARE_FAILED_GPU_TIME]
    start = [-3.0, 0.3, 0.5, -0.2, math.log(1e-9), math.log(0.01)]
    best, err = nelder_mead(lambda p: state_error(p, points, target), start, 0.5, STATE_FIT_ITERATIONS)
    best, err = nelder_mead(lambda p: state_error(p, points, target), best, 0.1, STATE_FIT_ITERATIONS)
    return best, target
