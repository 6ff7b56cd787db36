"""A run's test pairs from folders of their own, evaluated with the best checkpoint: the real
data sets' counterfactual test sets (`eval.cf_pairs`: CelebA-CF, LFW-CF; the test split's CD,
balanced CD and accuracy / DEO on the counterfactual images come from them) and pairs with the
latent attribute edited (`eval.gflip_pairs`: RFP). The trainer's Run reads both before any
training (nhfair_jax.data.test_pairs), so a missing folder fails first."""

from __future__ import annotations

import numpy as np

from nhfair_jax import metrics as metrics_lib


def evaluate_test_pairs(run, state):  # run: the Evaluator of the run
    """(report, views) of `eval.cf_pairs`: cd, cd_balanced (weighted by the test split's
    group x class cells, as the paper's code), acc_cf, deo_cf and cf_pairs; views hold the
    pairs' index, label, group, logits and logits_cf. None without test pairs."""
    pairs = run.test_pairs
    if pairs is None:
        return None
    logits = run.predict(state, "test", source=pairs)
    logits_cf = run.predict(state, "test", image_key="image_cf", source=pairs)
    test = run.sources["test"]
    cells = np.zeros((run.num_groups, run.num_classes), np.int64)
    np.add.at(cells, (test.groups, test.labels), 1)
    report = metrics_lib.paired_report(pairs.labels, pairs.groups, logits, logits_cf=logits_cf,
                                       cell_sizes=cells)
    return report, {"index": pairs.indices, "label": pairs.labels, "group": pairs.groups,
                    "logits": logits, "logits_cf": logits_cf}


def evaluate_gflip_pairs(run, state):
    """(report, views) of `eval.gflip_pairs`: `rfp` (the flip rate when G is edited) and
    `gflip_pairs`; None without them."""
    pairs = run.test_gflip
    if pairs is None:
        return None
    logits = run.predict(state, "test", source=pairs)
    logits_edit = run.predict(state, "test", image_key="image_cf", source=pairs)
    rfp = metrics_lib.rate_of_flipped_predictions(logits.argmax(1), logits_edit.argmax(1))
    return {"rfp": rfp, "gflip_pairs": len(pairs)}, {
        "index": pairs.indices, "label": pairs.labels, "group": pairs.groups, "logits": logits,
        "logits_gflip": logits_edit}
