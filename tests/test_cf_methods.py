"""The counterfactual-aware methods' defining effects on DigitsB, read from paired differences
over three seeds (one-sided 95% t bounds), and the teacher left untouched by training (slow: each
trains small CNNs; the study's tables are in test_cf_study.py)."""

from __future__ import annotations

import json
import os

import jax
import numpy as np
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.rundir import RunDir, read_json
from nhfair_jax.dispatch import run
from nhfair_jax.training.checkpoint import Checkpoints
from nhfair_jax.training.loop import Run
from nhfair_jax.dispatch import build_run
from tests.helpers import REPO, tiny_config

pytestmark = pytest.mark.slow

ALPHA = 0.9
EPOCHS = 10


def _config(method, seed, alpha=ALPHA, **params):
    c = tiny_config(**{"train.epochs": EPOCHS, "train.patience": EPOCHS, "seed": seed,
                       "data.image_size": 16, "data.options.alpha": alpha})
    c.method = method_config(method, **params)
    return c


def _erm_file(tmp_path, seed) -> str:
    path = tmp_path / f"erm_{seed}.py"
    path.write_text("import sys\n"
                    f"sys.path.insert(0, {REPO!r})\n"
                    "from tests.test_cf_methods import _config\n"
                    f"def get_config():\n    return _config('erm', {seed})\n")
    return str(path)


SEEDS = (0, 1, 2)


@pytest.fixture(scope="module")
def alpha09(tmp_path_factory):
    """ERM, CP (lam 10) and CKD (mu 10, ERM teacher, CE on the originals) at alpha 0.9, and ERM
    and CP at alpha 0.5, seeds 0, 1 and 2. Seed 0's ERM is trained by its CKD run (the teacher is
    missing: trained first from teacher_config)."""
    tmp = tmp_path_factory.mktemp("alpha09")
    out = {}
    for seed in SEEDS:
        erm_dir = str(tmp / f"erm_{seed}")
        if seed:
            RunDir(erm_dir).prepare(_config("erm", seed))
            run(_config("erm", seed), erm_dir)
        ckd = _config("ckd", seed, mu=10.0, lam=1.0, teacher_config=_erm_file(tmp, seed),
                      teacher_workdir=erm_dir)
        RunDir(str(tmp / f"ckd_{seed}")).prepare(ckd)
        out[("ckd", seed)] = run(ckd, str(tmp / f"ckd_{seed}"))
        out[("erm", seed)] = read_json(os.path.join(erm_dir, "result.json"))
        cp = _config("cp", seed, lam=10.0)
        RunDir(str(tmp / f"cp_{seed}")).prepare(cp)
        out[("cp", seed)] = run(cp, str(tmp / f"cp_{seed}"))
        for method, params in (("erm", {}), ("cp", {"lam": 10.0})):  # A and G independent
            out[(f"{method}@0.5", seed)] = run(_config(method, seed, 0.5, **params),
                                               str(tmp / f"{method}_a05_{seed}"))
    return tmp, out


def _upper(out, a, b, split, metric):
    """The one-sided 95% t upper bound of the mean paired difference a - b over the seeds."""
    from nhfair_jax.study.cf_report import paired_upper_bound

    return paired_upper_bound([out[(a, s)][split][metric] - out[(b, s)][split][metric]
                               for s in SEEDS])[1]


def test_cp_lowers_cd_against_scratch_over_seeds(alpha09):
    """The paper's Figure 3: CP's CD below Scratch's at every alpha (here its ends)."""
    _, out = alpha09
    for split in ("val", "test"):
        assert _upper(out, "cp", "erm", split, "cd_balanced") < 0, split
        assert _upper(out, "cp@0.5", "erm@0.5", split, "cd_balanced") < 0, split


def test_ckd_deo_is_below_cps_over_seeds_at_alpha_09(alpha09):
    """The paper's Figure 3 at alpha 0.9: CP leans on the latent attribute G (its RFP above
    Scratch's), CKD keeps the teacher's robustness and a lower DEO."""
    _, out = alpha09
    assert _upper(out, "ckd", "cp", "test", "deo") < 0
    assert _upper(out, "ckd", "cp", "test", "rfp") < 0
    assert _upper(out, "erm", "cp", "test", "rfp") < 0


def test_cf_aug_hkd_cp_and_the_cp_modifier_lower_validation_cd(alpha09):
    """Each lowers Scratch's validation CD by more than three binomial standard deviations of
    Scratch's rate over the validation pairs."""
    tmp, out = alpha09
    erm = out[("erm", 0)]["val"]
    bound = erm["cd"] - 3 * np.sqrt(erm["cd"] * (1 - erm["cd"]) / erm["cf_pairs"])
    runs = {"cf_aug": _config("cf_aug", 0),
            "hkd_cp": _config("hkd_cp", 0, lam=10.0, teacher_config="",
                              teacher_workdir=str(tmp / "erm_0")),
            "groupdro+cp": _config("groupdro", 0)}
    runs["groupdro+cp"].method.cf = "cp"
    runs["groupdro+cp"].method.cf_lambda = 10.0
    plain = _config("groupdro", 0)
    for name, config in {**runs, "groupdro": plain}.items():
        RunDir(str(tmp / name)).prepare(config)
        out[name] = run(config, str(tmp / name))
    for name in runs:
        assert out[name]["val"]["cd"] < bound, (name, erm["cd"], out[name]["val"]["cd"])
    gdro = out["groupdro"]["val"]
    assert out["groupdro+cp"]["val"]["cd"] < gdro["cd"] - 3 * np.sqrt(
        gdro["cd"] * (1 - gdro["cd"]) / gdro["cf_pairs"])
    assert out["groupdro+cp"]["method"] == "groupdro"


def test_teacher_trained_first_and_left_bit_identical(alpha09):
    tmp, out = alpha09
    assert os.path.exists(tmp / "erm_0" / "result.json")  # trained by the CKD run
    teacher_cfg = _config("erm", 0)
    run = Run(teacher_cfg, None)
    ckpt = Checkpoints(str(tmp / "erm_0"))
    try:
        teacher_state, _ = ckpt.restore_best(run.state)
    finally:
        ckpt.close()
    student_cfg = _config("ckd", 0, mu=10.0, lam=1.0, teacher_config="",
                          teacher_workdir=str(tmp / "erm_0"))
    student = build_run(student_cfg)  # loads the (finished) teacher
    ckpt = Checkpoints(str(tmp / "ckd_0"))
    try:
        latest, meta = ckpt.restore_latest(student.state)
    finally:
        ckpt.close()
    assert meta["epoch"] == EPOCHS
    carried = jax.device_get(latest.method_state["teacher"])
    expected = {"params": jax.device_get(teacher_state.params),
                "batch_stats": jax.device_get(teacher_state.batch_stats)}
    leaves_a, tree_a = jax.tree.flatten(carried)
    leaves_b, tree_b = jax.tree.flatten(expected)
    assert tree_a == tree_b and len(leaves_a) > 4
    for a, b in zip(leaves_a, leaves_b):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    # ... and the student did move away from it.
    assert not np.array_equal(jax.tree.leaves(jax.device_get(latest.params))[0], leaves_b[0])
    preds = np.load(tmp / "ckd_0" / "predictions_test.npz")
    assert {"logits_cf", "logits_gflip"} <= set(preds.files)
    log = [json.loads(line) for line in open(tmp / "ckd_0" / "log.jsonl")]
    assert all("val_cd" in e for e in log)


def test_test_pairs_of_eval_cf_pairs_give_the_test_cd(tmp_path):
    """A run with `eval.cf_pairs` (a CelebA-CF-style folder) reports the test CD of those pairs:
    the flip rate of the logits it saves, balanced with the test split's cells as the paper's
    code weights them; accuracy and DEO on the counterfactual images beside it."""
    from nhfair_jax.metrics import counterfactual_disparity_balanced, disparity_of_equalized_odds
    from tests.miniatures import make_pairs

    make_pairs(str(tmp_path / "pairs"), n=16)
    c = tiny_config(**{"train.epochs": 1, "data.image_size": 8,
                       "data.cache_dir": str(tmp_path / "cache")})
    c.eval.cf_pairs = str(tmp_path / "pairs")
    result = run(c, str(tmp_path / "run"))
    pairs = np.load(tmp_path / "run" / "predictions_pairs.npz")
    test = np.load(tmp_path / "run" / "predictions_test.npz")
    assert len(pairs["label"]) == 16  # the pair set's numbers, not those of DigitsB's own pairs
    p, q = pairs["logits"].argmax(1), pairs["logits_cf"].argmax(1)
    cells = np.zeros((2, 2))
    np.add.at(cells, (test["group"], test["label"]), 1)
    rep = result["test"]
    assert rep["cf_pairs"] == 16 and rep["cd"] == pytest.approx(np.mean(p != q))
    assert rep["cd_balanced"] == pytest.approx(counterfactual_disparity_balanced(
        p, q, pairs["label"], pairs["group"], cell_sizes=cells))
    assert rep["acc_cf"] == pytest.approx(np.mean(q == pairs["label"]))
    assert rep["deo_cf"] == pytest.approx(disparity_of_equalized_odds(
        pairs["label"], q, 1 - pairs["group"], num_classes=2, num_groups=2))
    # G-edited pairs (eval.gflip_pairs, e.g. hair length): the RFP of their logits
    c.eval.gflip_pairs = str(tmp_path / "pairs")
    result = run(c, str(tmp_path / "run_g"))
    gflip = np.load(tmp_path / "run_g" / "predictions_gflip.npz")
    assert result["test"]["gflip_pairs"] == 16 and result["test"]["rfp"] == pytest.approx(
        np.mean(gflip["logits"].argmax(1) != gflip["logits_gflip"].argmax(1)))
    bad = tiny_config()
    bad.eval.cf_pairs = str(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="eval.cf_pairs: .*nowhere holds no pairs.csv"):
        run(bad, str(tmp_path / "bad"))
    assert not (tmp_path / "bad" / "log.jsonl").exists()  # refused before training
