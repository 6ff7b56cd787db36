"""Metrics of an LVLM's answers: nothing is dropped, and nothing missing is scored.

- An answer that ended in `error` (the server failed, the image could not be read) is missing,
  not wrong: it is counted in the status figures and under `missing`, and every other figure
  is over the answers received; a warning says how many are missing.
- The full fairness report (`nhfair_jax.metrics.fairness_report`) twice: with abstentions
  (refused, unparseable, error) counted wrong, as one extra "abstained" prediction class, and
  conditioned on answered questions only.
- Per group: status counts, refusal / unparseable / error rates and their gaps (max - min).
- Truncated answers (generation stopped by the token budget, `finish_reason` "length"),
  counted apart: overall, per status and per group; their statuses stay what the reader made
  of the text they have.
- The demographic study's per-group recall R_g = correct / instances of g (abstentions count
  as wrong) and signed gaps GD_{a-b} = R_a - R_b, with percentile bootstrap confidence intervals
  and group sizes, and a warning for groups under `min_group` examples.
- Single-choice questions (asked with the true class and with a wrong one): recall is the "Yes"
  rate on true-class questions, `fpr` the "Yes" rate on wrong-class questions, so equalized odds
  exist too; the fairness report treats them as a binary task (asked class is true or not).

References:
  Wu et al. 2024, "Evaluating Fairness in Large Vision-Language Models Across Diverse
  Demographic Attributes and Prompts" (recall and GD; its scoring counts abstentions wrong).
  The bootstrap resamples each group's examples; since a recall is a mean of 0/1 outcomes, the
  resampled recall of a group of n with observed recall r is exactly Binomial(n, r) / n, which
  is what is drawn (groups independently, as a stratified bootstrap does).
"""

from __future__ import annotations

import numpy as np

from nhfair_jax import metrics as core
from nhfair_jax.lvlm.parse import ERROR, PARSED, REFUSED, STATUSES, UNPARSEABLE
from nhfair_jax.lvlm.tasks import SINGLE_CHOICE_CLASSES

REPORT_KEYS = ("acc", "worst_acc", "gap_acc", "dp", "eqodd", "group_acc", "group_size",
               "count", "eqopp", "deo")


def _rate_gap(rates: dict) -> float | None:
    values = [v for v in rates.values() if v is not None and np.isfinite(v)]
    return float(max(values) - min(values)) if len(values) >= 2 else None


def status_figures(records, group_of, primary) -> dict:
    """Status counts overall and per group, per-group rates, and their gaps (max - min) over
    the `primary` groups (those of the fairness report's sensitive attribute)."""
    counts = {s: 0 for s in STATUSES}
    by_group: dict[str, dict] = {}
    for r in records:
        counts[r["status"]] += 1
        for g in group_of(r):
            by_group.setdefault(g, {s: 0 for s in STATUSES})[r["status"]] += 1
    out = {"status_counts": counts, "status_by_group": by_group}
    for status, key in ((REFUSED, "refusal_rate"), (UNPARSEABLE, "unparseable_rate"),
                        (ERROR, "error_rate")):
        rates = {g: c[status] / max(1, sum(c.values())) for g, c in by_group.items()}
        out[key] = rates
        out[key.replace("_rate", "_gap")] = _rate_gap({g: rates[g] for g in primary
                                                       if g in rates})
    return out


def truncated_figures(records, group_of) -> dict:
    """Answers cut by the token budget: count, count per status, rate per group."""
    cut = [r for r in records if r.get("finish_reason") == "length"]
    by_status = {s: sum(r["status"] == s for r in cut) for s in STATUSES}
    totals, cuts = {}, {}
    for r in records:
        for g in group_of(r):
            totals[g] = totals.get(g, 0) + 1
            cuts[g] = cuts.get(g, 0) + (r.get("finish_reason") == "length")
    return {"count": len(cut), "by_status": by_status,
            "rate": {g: cuts[g] / totals[g] for g in totals}}


def bootstrap_recall(correct_by_group: dict, pairs, *, n_boot: int, confidence: float,
                     seed: int) -> tuple[dict, dict]:
    """Per-group recall with CIs and sizes, and the signed gaps of the named pairs.

    Args:
      correct_by_group: group name -> 0/1 array of correct outcomes.
      pairs: (a, b) group-name pairs; a pair is skipped unless both groups have examples.
    Returns:
      (recall, gd): recall[g] = {"value", "ci", "n"}; gd["a-b"] = {"value", "ci", "n"}.
    """
    rng = np.random.default_rng(seed)
    lo, hi = 100 * (1 - confidence) / 2, 100 * (1 + confidence) / 2
    recall, draws = {}, {}
    for g, correct in correct_by_group.items():
        correct = np.asarray(correct, np.float64)
        n = int(correct.size)
        if n == 0:
            continue
        r = float(correct.mean())
        draws[g] = rng.binomial(n, r, size=n_boot) / n
        recall[g] = {"value": r, "ci": [float(np.percentile(draws[g], lo)),
                                        float(np.percentile(draws[g], hi))], "n": n}
    gd = {}
    for a, b in pairs:
        if a in recall and b in recall:
            diff = draws[a] - draws[b]
            gd[f"{a}-{b}"] = {"value": recall[a]["value"] - recall[b]["value"],
                              "ci": [float(np.percentile(diff, lo)),
                                     float(np.percentile(diff, hi))],
                              "n": [recall[a]["n"], recall[b]["n"]]}
    return recall, gd


def seed_recipe(predictions, gt_labels, groups=("Male", "Female", "White", "Black", "Asian",
                                                "Indian")):
    """The demographic study's scoring, as published, for comparison in tests and notebooks:
    recall of each group among the examples whose ground truth is that group; GDs default to 0
    for a missing group (our `bootstrap_recall` skips such a pair instead)."""
    recalls = {}
    for group in groups:
        mask = [gt == group for gt in gt_labels]
        if sum(mask) == 0:
            continue
        correct = sum(1 for p, m in zip(predictions, mask) if p == group and m)
        recalls[group] = correct / sum(mask)
    return (recalls, recalls.get("Male", 0) - recalls.get("Female", 0),
            recalls.get("White", 0) - recalls.get("Black", 0),
            recalls.get("Asian", 0) - recalls.get("Indian", 0))


def _report(y, pred, groups, num_classes, num_groups) -> dict | None:
    if len(y) == 0:
        return None
    rep = core.fairness_report(y, pred, groups, num_classes=num_classes, num_groups=num_groups)
    return {k: rep[k] for k in REPORT_KEYS if k in rep}


def _auc(records, group_index, num_groups) -> dict | None:
    rows = [r for r in records if r.get("scores") is not None and len(r["scores"]) == 2]
    if len(rows) != len(records) or not rows:
        return None
    s = np.asarray([r["scores"] for r in rows], np.float64)
    p1 = np.exp(s[:, 1] - np.logaddexp(s[:, 0], s[:, 1]))  # softmax over the two options
    y = np.asarray([r["label_index"] for r in rows])
    if len(set(y.tolist())) < 2:
        return None
    g = np.asarray([group_index[r["group"]] for r in rows])
    per_group = core.group_auc(y, p1, g, num_groups=num_groups)
    return core.auc_summary(core.roc_auc(y, p1), per_group)


def evaluate(records, task, prompt_set: str, *, recall_attributes, gd_pairs, n_boot=1000,
             confidence=0.95, seed=0, min_group=30) -> dict:
    """Every figure of one (task, model, prompt set) from its records."""
    single = prompt_set == "single_choice"
    classes = SINGLE_CHOICE_CLASSES if single else task.classes
    c = len(classes)
    names = sorted({str(r["group"]) for r in records})
    every = records
    records = [r for r in records if r["status"] != ERROR]  # missing answers are not scored
    index = {n: i for i, n in enumerate(names)}
    y = np.asarray([r["label_index"] for r in records], np.int64)
    answered = np.asarray([r["status"] == PARSED and r["parsed_index"] is not None
                           for r in records], bool)
    pred = np.asarray([r["parsed_index"] if a else c for r, a in zip(records, answered)],
                      np.int64)
    g = np.asarray([index[str(r["group"])] for r in records], np.int64)
    correct = (pred == y).astype(np.float64)
    out = {"prompt_set": prompt_set, "classes": list(classes), "group_names": names,
           "report_abstain_wrong": _report(y, pred, g, c + 1, len(names)),
           "report_answered": _report(y[answered], pred[answered], g[answered], c, len(names)),
           "answered_rate": float(answered.mean()) if len(records) else None,
           "scores": _auc(records, {n: i for i, n in enumerate(names)}, len(names))}

    def groups_of(r):
        return [str(r["group"])] + [str(r["attrs"][a]) for a in recall_attributes
                                    if r["attrs"].get(a) is not None
                                    and str(r["attrs"][a]) != str(r["group"])]

    out.update(status_figures(every, groups_of, names))
    out["truncated"] = truncated_figures(every, groups_of)
    out["missing"] = missing_figures(every, groups_of)
    positives = (y == 1) if single else np.ones(len(records), bool)
    by_group = {}
    for attr in recall_attributes:
        values = [r["attrs"].get(attr) for r in records]
        for v in sorted({str(v) for v in values if v is not None}):
            mask = np.asarray([str(x) == v for x in values]) & positives
            by_group[v] = correct[mask]
    recall, gd = bootstrap_recall(by_group, gd_pairs, n_boot=n_boot, confidence=confidence,
                                  seed=seed)
    out["recall"] = {k: v["value"] for k, v in recall.items()}
    out["recall_ci"] = {k: v["ci"] for k, v in recall.items()}
    out["group_size"] = {k: v["n"] for k, v in recall.items()}
    out["gd"] = {k: v["value"] for k, v in gd.items()}
    out["gd_ci"] = {k: v["ci"] for k, v in gd.items()}
    if single:
        fpr = {}
        for attr in recall_attributes:
            values = [r["attrs"].get(attr) for r in records]
            for v in sorted({str(v) for v in values if v is not None}):
                mask = np.asarray([str(x) == v for x in values]) & (y == 0)
                if mask.any():
                    fpr[v] = float((pred[mask] == 1).mean())
        out["fpr"] = fpr
    sizes = {n: int((g == i).sum()) for n, i in index.items()}
    small = sorted({k for k, n in {**sizes, **out["group_size"]}.items() if n < min_group})
    out["warnings"] = [f"group {k} has {({**sizes, **out['group_size']})[k]} examples (< "
                       f"{min_group}); its figures are unreliable" for k in small]
    missing = out["missing"]["count"]
    if missing:
        out["warnings"].insert(0, f"INCOMPLETE: {missing} of {len(every)} answers are missing "
                               f"(ended in error); the figures are over the "
                               f"{len(every) - missing} received, the missing ones are not "
                               "counted wrong; run the same command again to ask them")
    return out


def missing_figures(records, group_of) -> dict:
    """Answers that ended in `error`: how many, of how many, and how many per group."""
    by_group = {}
    for r in records:
        if r["status"] == ERROR:
            for g in group_of(r):
                by_group[g] = by_group.get(g, 0) + 1
    count = sum(r["status"] == ERROR for r in records)
    return {"count": count, "of": len(records), "by_group": by_group}


def _pairs(text: str):
    pairs = []
    for item in str(text).split(","):
        if item.strip():
            a, _, b = item.strip().partition("-")
            pairs.append((a.strip(), b.strip()))
    return pairs


def evaluate_run(records, task, prompt_sets, config, *, notes=None) -> dict:
    """metrics.json of a run: the first prompt set's figures at the top level (the keys every
    task shares: recall, gd, status_counts, refusal_rate, ...) and every prompt set's under
    `by_prompt`."""
    attrs = _recall_attributes(config, task)
    by_prompt = {}
    for name in prompt_sets:
        rows = [r for r in records if r["prompt_set"] == name]
        by_prompt[name] = evaluate(rows, task, name, recall_attributes=attrs,
                                   gd_pairs=_pairs(config.metrics.gd_pairs),
                                   n_boot=int(config.metrics.bootstrap),
                                   confidence=float(config.metrics.confidence),
                                   seed=int(config.seed), min_group=int(config.metrics.min_group))
    first = by_prompt[prompt_sets[0]]
    model = records[0]["model"] if records else None
    return {"task": task.name, "dataset": task.dataset, "model": model,
            "prompts": list(prompt_sets), "split": config.data.split,
            "sensitive": config.data.sensitive or task.sensitive,
            "recall_attributes": list(attrs), "notes": dict(notes or {}),
            **first, "by_prompt": by_prompt}


def _recall_attributes(config, task) -> tuple:
    text = str(config.metrics.recall_attributes)
    return tuple(a.strip() for a in text.split(",") if a.strip()) or task.recall_attributes
