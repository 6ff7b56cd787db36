"""Randomized smoothing's certificate (Cohen, Rosenfeld and Kolter): from the votes of a base
classifier under Gaussian noise, the radius within which the smoothed classifier's prediction
cannot change, with probability at least 1 - alpha over the sampling.

For the smoothed classifier g(u) = argmax_c P(f(u + s) = c), s ~ N(0, sigma^2 I): if the lower
(1 - alpha) Clopper-Pearson bound p of the top class's probability exceeds 1/2, g is constant
within the L2 radius sigma x Phi^-1(p) (Cohen et al.'s Theorem 1 with p_B = 1 - p); otherwise
the certificate abstains (radius -1 here). The top class is picked from `n0` separate votes and
counted in `n` others (their CERTIFY), so that the count is not selected on its own noise.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import beta, norm

ABSTAIN = -1.0


def lower_confidence_bound(successes, trials: int, alpha: float):
    """The one-sided (1 - alpha) Clopper-Pearson lower bound of a binomial proportion
    (0 for no successes), element-wise over `successes`."""
    k = np.asarray(successes, np.float64)
    out = np.zeros_like(k)
    some = k > 0
    out[some] = beta.ppf(alpha, k[some], trials - k[some] + 1)
    return out


def certified_radius(top_counts, trials: int, sigma: float, alpha: float):
    """Cohen et al.'s certified L2 radius per example (ABSTAIN where the bound is <= 1/2).

    Args:
      top_counts: [N] votes for the class picked from the first n0 votes, out of `trials`.
      trials: n; sigma: the noise's standard deviation; alpha: the failure probability.

    Returns: [N] float radii (ABSTAIN = -1 where it abstains).
    """
    p = lower_confidence_bound(top_counts, trials, alpha)
    radius = np.full(p.shape, ABSTAIN)
    ok = p > 0.5
    radius[ok] = sigma * norm.ppf(p[ok])
    return radius


def certify_votes(select_votes, count_votes, sigma: float, alpha: float):
    """(predicted class [N], radius [N]) from per-class vote counts [N, C]: the class with the
    most of the `select_votes` (n0 samples), its radius from `count_votes` (n samples)."""
    select_votes, count_votes = np.asarray(select_votes), np.asarray(count_votes)
    top = select_votes.argmax(1)
    trials = int(count_votes[0].sum())
    counts = count_votes[np.arange(len(top)), top]
    return top, certified_radius(counts, trials, sigma, alpha)
