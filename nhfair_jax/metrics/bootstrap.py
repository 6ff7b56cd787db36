"""Bootstrap confidence intervals for every figure of a fairness report.

    from nhfair_jax import metrics
    ci = metrics.bootstrap(None, df.label, df.pred, df.group, n=1000, seed=0)
    ci["worst_acc"]      # {"value": 0.81, "lo": 0.78, "hi": 0.84}
    ci["group_acc"][2]   # the same for group 2

The resampling is stratified by group (each resample draws, with replacement, as many rows of a
group as the group holds), so a small group is never empty in a resample and group sizes are
fixed. Intervals are percentile intervals (Efron and Tibshirani 1993, ch. 13).

Three paths, all of the same stratified scheme:
- count-based metrics without scores (the default report without `y_score`): a resample's
  confusion counts of group a are Multinomial(n_a, counts[a] / n_a), exactly the distribution of
  the counts of n_a rows drawn with replacement, so the counts of all resamples are drawn at once
  without touching the rows again, and every figure is computed for all resamples at once
  (`count_figures`). After one bincount the cost does not grow with the number of rows;
- with `y_score` (AUC has no additive sufficient statistic): each resample draws row indices
  (one vectorised draw over all groups); its row multiplicities give the confusion counts and the
  overall and per-group ROC AUC (Mann-Whitney, ties one half) by bincounts over rows presorted
  by group and score. Linear in the rows: the slower path (see benchmarks/README.md);
- any other `report_fn`: the same index draws, and `report_fn` is called on every resample.

References:
  Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
"""

from __future__ import annotations

import inspect
import math
from numbers import Number

import numpy as np

from nhfair_jax.metrics.counts import confusion_counts, encode_inputs
from nhfair_jax.metrics.fairness import _gap, _ratio
from nhfair_jax.metrics.report import fairness_report
from nhfair_jax.metrics.scores import positive_scores


def _interval(value, draws: np.ndarray, confidence: float) -> dict:
    value = float(value) if value is not None else float("nan")
    draws = np.asarray(draws, np.float64)
    draws = draws[~np.isnan(draws)]
    if math.isnan(value) or draws.size == 0:
        return {"value": value, "lo": float("nan"), "hi": float("nan")}
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.percentile(draws, [100.0 * alpha, 100.0 * (1.0 - alpha)])
    return {"value": value, "lo": float(lo), "hi": float(hi)}


def _is_number(v) -> bool:
    return isinstance(v, (Number, np.number)) and not isinstance(v, (bool, np.bool_))


def _is_number_list(v) -> bool:
    return isinstance(v, (list, tuple, np.ndarray)) and all(
        _is_number(x) or x is None for x in v)


NAME_KEYS = ("class_names", "group_names")  # a report's labels, returned as they are


def summarise(point: dict, draws: dict, confidence: float) -> dict:
    """{"value", "lo", "hi"} for every numeric entry of `point`.

    Args:
      point: the report on the data (numbers and lists of numbers; other entries are skipped).
      draws: the same keys, each an array over resamples: [n] for a number, [n, L] for a list.
      confidence: coverage of the percentile interval.

    Returns:
      One dict per number and a list of dicts per list. An entry that is undefined (NaN) in the
      point report gets NaN bounds; resamples where it is undefined are left out.
    """
    out = {}
    for key, value in point.items():
        if key in NAME_KEYS:  # what each code stands for: no interval
            out[key] = value
            continue
        col = draws.get(key)
        if _is_number(value) or value is None:
            out[key] = _interval(value, np.full(1, np.nan) if col is None else col, confidence)
        elif _is_number_list(value):
            col = np.full((1, len(value)), np.nan) if col is None else np.asarray(col)
            out[key] = [_interval(v, col[:, i] if i < col.shape[1] else np.nan, confidence)
                        for i, v in enumerate(value)]
    return out


def _stack(reports: list[dict]) -> dict:
    """A list of per-resample reports as {key: array over resamples} (NaN where missing)."""
    keys = {k for r in reports for k, v in r.items()
            if k not in NAME_KEYS and (_is_number(v) or _is_number_list(v))}
    out = {}
    for k in keys:
        values = [r.get(k) for r in reports]
        width = max((len(v) for v in values if _is_number_list(v)), default=None)
        if width is None:
            out[k] = np.array([np.nan if v is None else float(v) for v in values])
        else:
            col = np.full((len(values), width), np.nan)
            for i, v in enumerate(values):
                if _is_number_list(v):
                    col[i, :len(v)] = [np.nan if x is None else x for x in v]
            out[k] = col
    return out


def _nanmean_rows(values: np.ndarray) -> np.ndarray:
    flat = values.reshape(values.shape[0], -1)
    defined = ~np.isnan(flat)
    return _ratio(np.where(defined, flat, 0.0).sum(axis=1), defined.sum(axis=1))


def _nanmax_rows(values: np.ndarray) -> np.ndarray:
    return np.fmax.reduce(values.reshape(values.shape[0], -1), axis=1)  # fmax skips NaN


def count_figures(counts) -> dict:
    """Every count-based figure of `fairness_from_counts` for a stack of resamples at once.

    The same definitions (shared rates, gaps over the groups where a rate is defined, NaN when
    nothing is defined), computed along a leading resample axis; tests check it equals
    `fairness_from_counts` on every resample.

    Args:
      counts: [n, G, C, C] confusion counts (resample, group, true class, predicted class).

    Returns:
      {figure: [n] array} and group_acc / group_size as [n, G] arrays.
    """
    counts = np.asarray(counts, np.int64)
    n, _, c, _ = counts.shape
    size = counts.sum(axis=(2, 3))
    hits = np.diagonal(counts, axis1=2, axis2=3)  # [n, G, C]
    group_acc = _ratio(hits.sum(axis=2), size)
    per_class = counts.sum(axis=3)  # [n, G, C]: examples of true class y
    pred_gap = _gap(_ratio(counts.sum(axis=2), size[..., None]), axis=1)  # [n, C]
    cond = _ratio(counts, per_class[..., None])  # P(yhat | y, a)
    negatives = per_class.sum(axis=2, keepdims=True) - per_class
    fpr = _ratio(counts.sum(axis=2) - hits, negatives)
    tpr = _ratio(hits, per_class)
    out = {
        "acc": _ratio(hits.sum(axis=(1, 2)), size.sum(axis=1)),
        "worst_acc": np.fmin.reduce(group_acc, axis=1),
        "gap_acc": _gap(group_acc, axis=1),
        "dp": 1.0 - _nanmax_rows(pred_gap),
        "eqodd": 1.0 - _nanmean_rows(_gap(np.diagonal(cond, axis1=2, axis2=3), axis=1)),
        "dp_mean": _nanmean_rows(1.0 - pred_gap),
        "eqodd_ovr": _nanmean_rows(1.0 - (_gap(tpr, axis=1) + _gap(fpr, axis=1)) / 2.0),
        "group_acc": group_acc,
        "group_size": size,
        "count": size.sum(axis=1),
    }
    if c == 2:
        out["eqopp"] = 1.0 - _gap(cond[:, :, 1, 1], axis=1)
        out["deo"] = _nanmax_rows(_gap(cond, axis=1))
        out["deo_mean"] = _nanmean_rows(_gap(cond, axis=1))
    return out


class _Strata:
    """Rows laid out stratum after stratum, for one vectorised stratified draw.

    `order` lists the rows sorted by stratum (any order within a stratum; default stable).
    """

    def __init__(self, strata: np.ndarray, num_strata: int, order=None):
        self.order = np.argsort(strata, kind="stable") if order is None else order
        sizes = np.bincount(strata, minlength=num_strata)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        slot = strata[self.order]
        self.slot_start = starts[slot]
        self.slot_size = sizes[slot].astype(np.float64)

    def positions(self, rng: np.random.Generator) -> np.ndarray:
        """Positions in `order` of one resample: each stratum's size, drawn with replacement."""
        u = rng.random(self.slot_start.size)
        return self.slot_start + (u * self.slot_size).astype(np.int64)

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        """Row indices of one resample."""
        return self.order[self.positions(rng)]


def _strata(groups, g, stratify, score=None) -> _Strata:
    """Strata of the index draws: the groups (or one stratum); rows sorted by group, then by
    score when there is one, so every path with scores draws the same rows for a seed."""
    order = np.lexsort((score, groups)) if score is not None else None
    if not stratify:
        return _Strata(np.zeros_like(groups), 1, order=order)
    return _Strata(groups, g, order=order)


class _TieBlocks:
    """Rows in a fixed order (by segment, then score) turned into per-segment ROC AUC.

    A resample's AUC of segment a is the Mann-Whitney statistic (as `roc_auc` computes it from
    ranks): each positive row, weighted by its multiplicity m, beats the negatives of its segment
    with a lower score and ties (one half) with those of equal score. With the rows presorted that
    is one cumulative sum of the negative weights and per-segment sums: linear in the rows, no
    sort per resample.
    """

    def __init__(self, segment: np.ndarray, score: np.ndarray, y: np.ndarray, num_segments: int):
        n = score.size
        first = np.r_[True, (segment[1:] != segment[:-1]) | (score[1:] != score[:-1])]
        self.ties = None
        if first.sum() < n:  # tie blocks: each row's block start and end, in cumulative terms
            starts = np.flatnonzero(first)
            lengths = np.diff(np.r_[starts, n])
            self.ties = (np.repeat(starts, lengths), np.repeat(starts + lengths, lengths))
        seg_first = np.r_[True, segment[1:] != segment[:-1]] if n else np.zeros(0, bool)
        self.seg_starts = np.flatnonzero(seg_first)
        self.segments = segment[self.seg_starts]  # the non-empty segments, increasing
        self.num_segments = num_segments
        self.y = y

    def auc(self, m: np.ndarray) -> np.ndarray:
        pos = m * self.y
        neg = m - pos
        cum = np.empty(neg.size + 1)
        cum[0] = 0.0
        np.cumsum(neg, out=cum[1:])
        if self.ties is None:
            below, tied = cum[:-1], neg
        else:
            below = cum[self.ties[0]]
            tied = cum[self.ties[1]] - below
        seg_neg = np.add.reduceat(neg, self.seg_starts)
        seg_pos = np.add.reduceat(pos, self.seg_starts)
        # `below` counts the negatives of earlier segments too: remove them per segment.
        before = np.cumsum(seg_neg) - seg_neg
        wins = np.add.reduceat(pos * (below + 0.5 * tied), self.seg_starts) - before * seg_pos
        out = np.full(self.num_segments, np.nan)
        out[self.segments] = _ratio(wins, seg_pos * seg_neg)
        return out


class _ScoreResampler:
    """Stratified resamples of rows with scores: confusion counts and ROC AUC (overall and per
    group) from each resample's row multiplicities, by cumulative sums over presorted rows."""

    def __init__(self, y_true, y_pred, groups, score, c, g, stratify):
        if y_true.size and not np.isin(y_true, (0, 1)).all():
            raise ValueError("AUC needs a binary target with labels in {0, 1}")
        self.strata = _strata(groups, g, stratify, score)
        order = self.strata.order  # by group, then by score
        self.c, self.g = c, g
        y = y_true[order].astype(np.float64)
        gs, ss = groups[order], score[order]
        self.flat = (gs.astype(np.int64) * c + y_true[order]) * c + y_pred[order]
        self.within = _TieBlocks(gs, ss, y, g)
        self.by_score = np.argsort(ss, kind="stable")  # the same rows in overall score order
        self.overall = _TieBlocks(np.zeros(ss.size, np.int64), ss[self.by_score],
                                  y[self.by_score], 1)

    def draw(self, rng, n: int) -> dict:
        cells = self.g * self.c * self.c
        counts = np.empty((n, cells), np.int64)
        group_auc = np.empty((n, self.g))
        auc = np.empty(n)
        for r in range(n):
            m = np.bincount(self.strata.positions(rng), minlength=self.flat.size)
            counts[r] = np.bincount(self.flat, weights=m, minlength=cells).round()
            m = m.astype(np.float64)
            group_auc[r] = self.within.auc(m)
            auc[r] = self.overall.auc(m[self.by_score])[0]
        out = count_figures(counts.reshape(n, self.g, self.c, self.c))
        out.update(auc=auc, group_auc=group_auc, worst_auc=np.fmin.reduce(group_auc, axis=1),
                   gap_auc=_gap(group_auc, axis=1))
        return out


def _accepts(fn, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def bootstrap(report_fn, y_true, y_pred, groups, *, y_score=None, n: int = 1000, seed: int = 0,
              confidence: float = 0.95, stratify: bool = True, num_classes=None,
              num_groups=None) -> dict[str, dict]:
    """Point estimates and percentile bootstrap intervals of every figure of a report.

    Args:
      report_fn: a function called as report_fn(y_true, y_pred, groups, num_classes=C,
        num_groups=G[, y_score=...]) returning a dict of numbers and lists of numbers; None (or
        `metrics.fairness_report`) for the fairness report, which takes the fast count path.
      y_true, y_pred: labels and predictions, integers or strings, encoded over the sorted union
        of both (metrics.counts.encode_inputs), unless num_classes is given.
      groups: group of each row, integers or strings, encoded in sorted order unless
        num_groups is given.
      y_score: optional positive-class score (1-D or [N, 2]) for binary targets: adds AUC.
      n: number of resamples.
      seed: seed of the resampling; the same seed gives the same intervals.
      confidence: coverage of the two-sided percentile interval.
      stratify: resample within each group (default); False resamples all rows together.
      num_classes, num_groups: C and G when not inferred from the data.

    Returns:
      A dict with, for every scalar entry of the report, {"value": point estimate, "lo": ...,
      "hi": ...} and, for every per-group list entry, a list of such dicts. An undefined figure
      has value NaN and NaN bounds; resamples in which a figure is undefined (an empty cell) are
      left out of its percentiles. `class_names` and `group_names`: the value of each code.

    References:
      Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13
      (percentile intervals). Resampling each group separately: Davison, A. C. and Hinkley,
      D. V. (1997). Bootstrap Methods and their Application, sec. 3.2 (several samples).
    """
    if int(n) < 1:
        raise ValueError(f"n must be at least 1 resample, got {n}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    y_true, y_pred, groups = (np.asarray(a) for a in (y_true, y_pred, groups))
    y_true, y_pred, groups = (a.astype(np.int64) if a.size == 0 else a
                              for a in (y_true, y_pred, groups))
    y_true, y_pred, groups, c, g, class_names, group_names = encode_inputs(
        y_true, y_pred, groups, num_classes, num_groups)
    score = None if y_score is None else positive_scores(y_score)
    if score is not None and score.shape != y_true.shape:
        raise ValueError(f"lengths differ: y_true {len(y_true)}, y_score {len(score)}")
    default = report_fn is None or report_fn is fairness_report
    fn = fairness_report if default else report_fn
    kw = {}
    if default or _accepts(fn, "num_classes"):
        kw["num_classes"] = c
    if default or _accepts(fn, "num_groups"):
        kw["num_groups"] = g
    if score is not None:
        kw["y_score"] = score
    point = fn(y_true, y_pred, groups, **kw)
    rng = np.random.default_rng(seed)
    n = int(n)
    if y_true.size == 0:
        draws = {}
    elif default and score is None:
        draws = count_figures(_count_draws(y_true, y_pred, groups, c, g, n, rng, stratify))
    elif default:
        draws = _ScoreResampler(y_true, y_pred, groups, score, c, g, stratify).draw(rng, n)
    else:
        strata = _strata(groups, g, stratify, score)
        reports = []
        for _ in range(n):
            rows = strata.draw(rng)
            extra = {"y_score": score[rows]} if score is not None else {}
            reports.append(fn(y_true[rows], y_pred[rows], groups[rows], **{**kw, **extra}))
        draws = _stack(reports)
    out = summarise(point, draws, confidence)
    out["class_names"], out["group_names"] = class_names, group_names
    return out


def bootstrap_rate(hits, groups, *, n: int = 1000, seed: int = 0, confidence: float = 0.95,
                   stratify: bool = True, num_groups=None) -> dict:
    """Interval of a rate of 0/1 events (e.g. the flips behind CD and RFP), overall and per group.

    With stratified resampling the number of events of group a in a resample is
    Binomial(n_a, rate_a), exactly the count of events among n_a rows drawn with replacement, so
    all resamples are drawn at once without touching the rows.

    Args:
      hits: 0/1 (or bool) per row.
      groups: group index per row in [0, G).
      n, seed, confidence, stratify: as in `bootstrap`.
      num_groups: G; default max group + 1.

    Returns:
      {"rate": {"value", "lo", "hi"}, "group_rate": [one such dict per group]}.
    """
    hits = np.asarray(hits).astype(np.float64)
    groups = np.asarray(groups).astype(np.int64)
    if hits.shape != groups.shape or hits.ndim != 1:
        raise ValueError(f"hits and groups must be 1-D of equal length, got {hits.shape} and "
                         f"{groups.shape}")
    g = int(num_groups if num_groups is not None else groups.max(initial=-1) + 1)
    size = np.bincount(groups, minlength=g).astype(np.int64)
    events = np.bincount(groups, weights=hits, minlength=g)
    rng = np.random.default_rng(seed)
    total = int(size.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = events / size
        if stratify:
            drawn = rng.binomial(size, np.nan_to_num(rate), size=(int(n), g)).astype(np.float64)
        else:
            cells = np.concatenate([events, size - events])
            drawn = (rng.multinomial(total, cells / total, size=int(n)).astype(np.float64)
                     if total else np.zeros((int(n), 2 * g)))
            drawn, size_b = drawn[:, :g], drawn[:, :g] + drawn[:, g:]
        overall = drawn.sum(axis=1) / total if total else np.full(int(n), np.nan)
        per_group = drawn / (size if stratify else size_b)
    value = events.sum() / total if total else float("nan")
    return {"rate": _interval(value, overall, confidence),
            "group_rate": [_interval(rate[a], per_group[:, a], confidence) for a in range(g)]}


def _count_draws(y_true, y_pred, groups, c, g, n, rng, stratify) -> np.ndarray:
    """[n, G, C, C] confusion counts of n resamples, drawn as multinomials over the cells."""
    counts = confusion_counts(y_true, y_pred, groups, num_classes=c, num_groups=g)
    flat = counts.reshape(g, c * c).astype(np.float64)
    if stratify:
        sizes = flat.sum(axis=1)
        # An empty group (a G larger than the groups seen) draws nothing: any valid pvals do.
        pvals = np.where(sizes[:, None] > 0, flat / np.maximum(sizes, 1)[:, None], 1.0 / (c * c))
        sample = rng.multinomial(sizes.astype(np.int64), pvals, size=(n, g))
    else:
        total = flat.sum()
        sample = rng.multinomial(int(total), flat.ravel() / total, size=n)
    return sample.reshape(n, g, c, c)
