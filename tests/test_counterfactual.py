"""Counterfactual fairness: exact pairs on DigitsB / CIFAR-10B, paired metrics, training-time
counterfactuals for real data, the counterfactual-aware losses against a direct per-pair loop,
the +aug / +cp modifiers and the teacher checks (fast; training tests are in test_cf_methods.py).
"""

from __future__ import annotations

import os
import pickle
import warnings

import jax
import jax.numpy as jnp
import ml_collections
import numpy as np
import pytest

from nhfair_jax.config import method_config
from nhfair_jax.data import get_sources
from nhfair_jax.data.biased import CONTRAST, NOISE_STD, make_biased
from nhfair_jax.data.counterfactuals import attach_counterfactuals, read_pairs
from nhfair_jax.data.source import ArraySource
from nhfair_jax.dispatch import teacher_of
from nhfair_jax.errors import UserError
from nhfair_jax.methods import get_method, method_needs
from nhfair_jax.methods.base import LossOutput, Method
from nhfair_jax.methods.cf import with_cf_modifier
from nhfair_jax.metrics import counterfactual_disparity_balanced, paired_report
from nhfair_jax.training import teacher as teacher_lib
from tests.helpers import REPO, tiny_config
from tests.miniatures import PALETTE, identify_colour, make_csv, write_solid

# --- data --------------------------------------------------------------------------------------


def _expected(base, a, g, noise):
    """The construction written out independently: contrast toward the image mean when G = 1,
    Gaussian noise when A = 1, rounded to uint8."""
    x = base.astype(np.float64)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    x = np.where(g[:, None, None, None] == 1, mean + CONTRAST * (x - mean), x)
    x = x + noise * a[:, None, None, None]
    return np.clip(np.round(x * 255.0), 0, 255).astype(np.uint8)


def test_image_cf_flips_a_and_keeps_class_g_and_noise():
    rng = np.random.default_rng(3)
    base = rng.random((40, 6, 6, 3)).astype(np.float32)
    classes = rng.integers(0, 10, 40)
    out = make_biased(base, classes, skew=0.7, alpha=0.6, seed=11)
    # The draws of the construction, in its order: A, then G, then the noise.
    draws = np.random.default_rng(11)
    draws.random(40), draws.random(40)
    noise = draws.normal(0.0, NOISE_STD, size=base.shape).astype(np.float32)
    a, g = out["group"], out["attr_g"]
    assert 0 < a.sum() < 40 and 0 < g.sum() < 40  # both values occur: the test can fail
    np.testing.assert_array_equal(out["image"], _expected(base, a, g, noise))
    np.testing.assert_array_equal(out["image_cf"], _expected(base, 1 - a, g, noise))
    np.testing.assert_array_equal(out["image_gflip"], _expected(base, a, 1 - g, noise))
    assert not np.array_equal(out["image"], out["image_cf"])


def test_digitsb_has_pairs_on_every_split_and_meets_skew_and_alpha():
    for alpha in (0.5, 0.9):
        sources = get_sources("digitsb", None, image_size=16, alpha=alpha)
        for split, src in sources.items():
            assert {"image_cf", "image_gflip", "attr_g"} <= set(src.extras), split
        y = np.concatenate([s.labels for s in sources.values()])
        a = np.concatenate([s.groups for s in sources.values()])
        g = np.concatenate([s.extras["attr_g"] for s in sources.values()])
        tol = 3 * np.sqrt(0.25 / len(y))  # three standard errors at n = 1,797
        assert abs(np.mean(a == y) - 0.8) < tol
        assert abs(np.mean(g == a) - alpha) < tol


def test_cifar10b_paper_split_is_64_16_20_with_pairs(tmp_path):
    folder = tmp_path / "cifar-10-batches-py"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        with open(folder / name, "wb") as f:
            pickle.dump({b"data": rng.integers(0, 256, (50, 3072), dtype=np.uint8),
                         b"labels": list(rng.integers(0, 10, 50))}, f)
    sources = get_sources("cifar10b", str(tmp_path), image_size=32)
    assert {s: len(v) for s, v in sources.items()} == {"train": 192, "val": 48, "test": 60}
    ids = np.concatenate([v.indices for v in sources.values()])
    assert len(np.unique(ids)) == 300
    assert all("image_cf" in v.extras for v in sources.values())
    with pytest.raises(ValueError, match="data.options.split"):
        get_sources("cifar10b", str(tmp_path), split="random")


# --- paired metrics ----------------------------------------------------------------------------


def test_cd_balanced_averages_class_group_cells():
    y = np.array([0, 0, 0, 0, 1, 1])
    a = np.array([0, 0, 0, 1, 1, 1])
    p = np.array([0, 0, 0, 0, 1, 1])
    q = np.array([1, 0, 0, 0, 1, 0])  # cell (0,0): 1/3; (0,1): 0; (1,1): 1/2
    assert counterfactual_disparity_balanced(p, q, y, a) == pytest.approx((1 / 3 + 0 + 0.5) / 3)
    logits = np.eye(2)[p]
    rep = paired_report(y, a, logits, logits_cf=np.eye(2)[q], logits_gflip=np.eye(2)[p],
                        cf_mask=np.array([0, 1, 1, 1, 1, 1]))
    assert rep["cd"] == pytest.approx(1 / 5) and rep["cf_pairs"] == 5  # row 0 has no pair
    assert rep["rfp"] == 0.0
    assert "cd" not in paired_report(y, a, logits)


# --- training-time counterfactuals for real data ----------------------------------------------


def _source(n=6):
    images = np.stack([np.full((4, 4, 3), 10 * i, np.uint8) for i in range(n)])
    return ArraySource(images=images, labels=np.arange(n) % 2, groups=(np.arange(n) // 2) % 2,
                       indices=np.arange(100, 100 + n), class_names=["a", "b"],
                       group_names=["f", "m"], name="toy", split="train")


def test_pairs_csv_of_generate_index_keep_split(tmp_path):
    (tmp_path / "counterfactuals").mkdir()
    for i, ix in enumerate((100, 102, 103, 999)):
        write_solid(str(tmp_path / "counterfactuals" / f"{ix}.png"), PALETTE[i], size=(4, 4))
    (tmp_path / "pairs.csv").write_text(
        "original,counterfactual,target,sensitive,keep,index,split\n"
        "o.png,counterfactuals/100.png,0,0,1,100,train\n"
        "o.png,counterfactuals/102.png,0,1,1,102,train\n"
        "o.png,counterfactuals/103.png,1,1,0,103,train\n"  # a reviewer dropped it
        "o.png,counterfactuals/999.png,1,1,1,999,test\n")  # another split
    with pytest.warns(UserWarning, match="without a counterfactual, trained unpaired: 4"):
        src = attach_counterfactuals(_source(), str(tmp_path), image_size=4)
    np.testing.assert_array_equal(src.extras["cf_mask"], [1, 0, 1, 0, 0, 0])
    assert identify_colour(src.extras["image_cf"][0]) == PALETTE[0]
    assert identify_colour(src.extras["image_cf"][2]) == PALETTE[1]
    np.testing.assert_array_equal(src.extras["image_cf"][1], src.images[1])  # unpaired: itself
    assert src.cf_notes["pairs marked keep=0, dropped"] == 1
    assert src.cf_notes["pairs of other splits, ignored"] == 1


def test_counterfactual_folder_errors_are_one_line(tmp_path):
    with pytest.raises(UserError, match="pairs.csv not found"):
        read_pairs(str(tmp_path))
    (tmp_path / "pairs.csv").write_text("original,counterfactual\na.png,gone.png\n")
    with pytest.raises(UserError, match="1 counterfactual image.*missing, first .*gone.png"):
        read_pairs(str(tmp_path))
    (tmp_path / "pairs.csv").write_text("original,edit\na.png,b.png\n")
    with pytest.raises(UserError, match="needs the columns counterfactual"):
        read_pairs(str(tmp_path))


def test_original_paths_are_matched_through_the_loader(tmp_path):
    mini = make_csv(str(tmp_path / "data"))
    config = tiny_config()
    config.data.name, config.data.root = "csv", mini.root
    config.data.options = ml_collections.ConfigDict({"split_col": "fold"})
    sources = get_sources("csv", mini.root, image_size=8, split_col="fold",
                          cache_dir=str(tmp_path / "cache"))
    train = sources["train"]
    originals = [e for e in mini.examples if e.split == "train"][:2]
    cf_dir = tmp_path / "cf"
    cf_dir.mkdir()
    lines = ["original,counterfactual"]
    for k, e in enumerate(originals):
        write_solid(str(cf_dir / f"{k}.png"), PALETTE[-1 - k])
        lines.append(f"{e.file},{k}.png")
    (cf_dir / "pairs.csv").write_text("\n".join(lines) + "\n")
    with pytest.warns(UserWarning, match="trained unpaired"):
        src = attach_counterfactuals(train, str(cf_dir), image_size=8, config=config)
    for k, e in enumerate(originals):
        row = [identify_colour(im) for im in np.asarray(train.images[np.arange(len(train))])
               ].index(e.colour)
        assert src.extras["cf_mask"][row] == 1
        assert identify_colour(src.extras["image_cf"][row]) == PALETTE[-1 - k]
    assert src.extras["cf_mask"].sum() == 2
    (cf_dir / "pairs.csv").write_text("original,counterfactual\nimgs/nope.png,0.png\n")
    with pytest.raises(UserError, match="original imgs/nope.png .* is not an image of csv"):
        attach_counterfactuals(train, str(cf_dir), image_size=8, config=config)


def test_a_method_needing_pairs_on_data_without_them_fails_before_training(tmp_path):
    from nhfair_jax.training.loop import Run

    mini = make_csv(str(tmp_path / "data"))
    for method, cf in (("cp", "none"), ("erm", "cp")):
        config = tiny_config()
        config.data.name, config.data.root = "csv", mini.root
        config.data.image_size = 8
        config.data.cache_dir = str(tmp_path / "cache")
        config.data.options = ml_collections.ConfigDict({"split_col": "fold"})
        config.train.batch_size = config.train.eval_batch_size = 4
        config.method = method_config(method)
        config.method.cf = cf
        with pytest.raises(UserError, match="needs counterfactual pairs; csv has none"):
            Run(config, None)


# --- losses against a direct per-pair loop ----------------------------------------------------


def _toy_apply(variables, x, train=False, features=False, mutable=None):
    """A linear 'network' without BatchNorm: features = tanh(x W1), logits = features W2."""
    p = variables["params"]
    feats = jnp.tanh(x.reshape(x.shape[0], -1) @ p["w1"])
    logits = feats @ p["w2"]
    out = (logits, feats) if features else logits
    return (out, {"batch_stats": {}}) if mutable else out


def _toy(seed=0, b=5):
    k = jax.random.split(jax.random.key(seed), 6)
    params = {"w1": jax.random.normal(k[0], (12, 4)), "w2": jax.random.normal(k[1], (4, 3))}
    teacher = {"params": {"w1": jax.random.normal(k[2], (12, 4)),
                          "w2": jax.random.normal(k[3], (4, 3))}, "batch_stats": {}}
    batch = {"image": jax.random.normal(k[4], (b, 2, 2, 3)),
             "image_cf": jax.random.normal(k[5], (b, 2, 2, 3)),
             "label": jnp.arange(b) % 3, "group": jnp.arange(b) % 2}
    return params, teacher, batch


def _np_views(p, x):
    feats = np.tanh(np.asarray(x).reshape(-1) @ np.asarray(p["w1"]))
    return feats @ np.asarray(p["w2"]), feats


def _ce(logits, label):
    z = logits - logits.max()
    return -(z[label] - np.log(np.exp(z).sum()))


def _sq(a, b):
    return float(np.mean((np.asarray(a) - np.asarray(b)) ** 2))


def _method(name, **kw):
    m = get_method(method_config(name, **kw))
    m.setup({"num_classes": 3, "num_groups": 2})
    return m


@pytest.mark.parametrize("rep", ["logits", "features"])
@pytest.mark.parametrize("ce_on", ["both", "original"])
def test_ckd_and_cp_losses_equal_a_per_pair_loop(rep, ce_on):
    params, teacher, batch = _toy()
    n = batch["label"].shape[0]
    pick = 0 if rep == "logits" else 1
    ce, ckd, cp, cp_rep = [], [], [], []
    for i in range(n):
        x, xc, y = batch["image"][i], batch["image_cf"][i], int(batch["label"][i])
        sx, scf = _np_views(params, x), _np_views(params, xc)
        tx, tcf = _np_views(teacher["params"], x), _np_views(teacher["params"], xc)
        target = (tx[pick] + tcf[pick]) / 2
        ce.append([_ce(sx[0], y)] + ([_ce(scf[0], y)] if ce_on == "both" else []))
        ckd.append((_sq(sx[pick], target) + _sq(scf[pick], target)) / 2)
        cp.append(_sq(sx[0], scf[0]))
        cp_rep.append(_sq(sx[pick], scf[pick]))
    ce_mean = np.mean([v for row in ce for v in row])
    m = _method("ckd", mu=0.7, lam=1.9, rep=rep, ce_on=ce_on)
    out = m.loss(_toy_apply, params, {}, {"teacher": teacher}, batch, None)
    expected = ce_mean + 0.7 * np.mean(ckd) + 1.9 * np.mean(cp)
    assert float(out.loss) == pytest.approx(expected, rel=1e-5)
    assert float(out.metrics["ckd"]) == pytest.approx(np.mean(ckd), rel=1e-5)
    cp_method = _method("cp", lam=2.5, rep=rep, ce_on=ce_on)
    out = cp_method.loss(_toy_apply, params, {}, {}, batch, None)
    assert float(out.loss) == pytest.approx(ce_mean + 2.5 * np.mean(cp_rep), rel=1e-5)


def test_hkd_cp_and_cf_aug_losses_equal_a_per_pair_loop():
    params, teacher, batch = _toy(seed=1)
    n, temp = batch["label"].shape[0], 2.0
    ce, kd, cp, ce_both = [], [], [], []
    for i in range(n):
        y = int(batch["label"][i])
        sx, scf = _np_views(params, batch["image"][i]), _np_views(params, batch["image_cf"][i])
        tx = _np_views(teacher["params"], batch["image"][i])[0]
        pt = np.exp(tx / temp) / np.exp(tx / temp).sum()
        log_ps = sx[0] / temp - np.log(np.exp(sx[0] / temp).sum())
        kd.append(temp ** 2 * np.sum(pt * (np.log(pt) - log_ps)))
        ce.append(_ce(sx[0], y))
        ce_both += [_ce(sx[0], y), _ce(scf[0], y)]
        cp.append(_sq(sx[0], scf[0]))
    m = _method("hkd_cp", mu=0.5, lam=3.0, temperature=temp)
    out = m.loss(_toy_apply, params, {}, {"teacher": teacher}, batch, None)
    assert float(out.loss) == pytest.approx(np.mean(ce) + 0.5 * np.mean(kd) + 3.0 * np.mean(cp),
                                            rel=1e-5)
    out = _method("cf_aug").loss(_toy_apply, params, {}, {}, batch, None)
    assert float(out.loss) == pytest.approx(np.mean(ce_both), rel=1e-5)
    # A row without a counterfactual leaves the pair terms (cf_mask 0).
    masked = {**batch, "cf_mask": jnp.array([1.0, 1.0, 1.0, 1.0, 0.0])}
    out = _method("cp", lam=1.0).loss(_toy_apply, params, {}, {}, masked, None)
    assert float(out.metrics["cp"]) == pytest.approx(np.mean(cp[:4]), rel=1e-5)


# --- the +aug / +cp modifiers ------------------------------------------------------------------


class _Recorder(Method):
    """Records the batch its loss receives; its loss is the mean of the labels."""

    name = "recorder"
    seen: dict = {}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng):
        _Recorder.seen = dict(batch)
        logits = apply_fn({"params": params}, batch["image"])
        return LossOutput(jnp.mean(batch["label"]) * 0.0 + 1.0, logits, batch_stats,
                          method_state, {"own": jnp.float32(2.0)})


def test_aug_modifier_doubles_the_batch_with_flipped_groups():
    params, _, batch = _toy()
    batch = {**batch, "row": jnp.arange(5), "cf_mask": jnp.array([1.0, 1, 1, 1, 0])}
    cfg = ml_collections.ConfigDict({"name": "recorder", "cf": "aug"})
    m = with_cf_modifier(_Recorder(cfg), cfg)
    m.setup({"num_classes": 3, "num_groups": 2})
    out = m.loss(_toy_apply, params, {}, {}, batch, None)
    seen = _Recorder.seen
    assert seen["image"].shape[0] == 10 and out.logits.shape[0] == 5
    np.testing.assert_array_equal(seen["image"][5:], batch["image_cf"])
    np.testing.assert_array_equal(seen["group"][5:9], 1 - batch["group"][:4])
    assert int(seen["group"][9]) == int(batch["group"][4])  # unpaired row: itself
    np.testing.assert_array_equal(seen["label"][5:], batch["label"])
    assert "image_cf" not in seen and "cf_mask" not in seen


def test_cp_modifier_adds_the_pair_term_to_any_method():
    params, _, batch = _toy()
    cfg = ml_collections.ConfigDict({"name": "recorder", "cf": "cp", "cf_lambda": 4.0})
    m = with_cf_modifier(_Recorder(cfg), cfg)
    out = m.loss(_toy_apply, params, {}, {}, batch, None)
    cp = np.mean([_sq(_np_views(params, batch["image"][i])[0],
                      _np_views(params, batch["image_cf"][i])[0]) for i in range(5)])
    assert float(out.loss) == pytest.approx(1.0 + 4.0 * cp, rel=1e-5)
    assert float(out.metrics["own"]) == 2.0 and "image_cf" not in _Recorder.seen
    assert "image_cf" in m.batch_keys and isinstance(m, _Recorder)


def test_modifiers_come_from_the_registry_and_wrap_only_the_loss():
    from nhfair_jax.methods.groupdro import GroupDRO

    base = get_method(method_config("groupdro"))
    assert type(base) is GroupDRO and "pairs" not in method_needs(method_config("groupdro"))
    bad = method_config("groupdro")
    bad.cf = "mixup"
    with pytest.raises(UserError, match="method.cf must be one of"):
        get_method(bad)
    dfr = method_config("dfr")
    dfr.cf = "cp"
    with pytest.raises(UserError, match="needs a method trained by gradient steps"):
        get_method(dfr)
    wrapped = method_config("groupdro")
    wrapped.cf = "aug"
    m = get_method(wrapped)
    assert isinstance(m, GroupDRO) and m.name == "groupdro" and "pairs" in method_needs(wrapped)
    assert m.defaults == base.defaults  # the method's own class attributes
    # every hook but the loss (and setup's pair check) is the method's own, not a forwarder
    for hook in ("init_state", "sample_indices", "on_epoch_start", "predict", "artifacts"):
        assert getattr(type(m), hook) is getattr(GroupDRO, hook), hook
    assert type(m).loss is not GroupDRO.loss


# --- teacher checks ------------------------------------------------------------------------------


def _teacher_cfg(tmp_path, **kw):
    cfg = method_config("ckd", teacher_workdir=str(tmp_path / "teacher"), **kw)
    return cfg


def test_teacher_of_another_data_set_or_architecture_is_refused(tmp_path):
    student = tiny_config()
    other = tiny_config()
    other.data.name = "cifar10b"
    wider = tiny_config(**{"model.cnn_widths": (16, 32, 64)})
    debiased = tiny_config(**{"data.options.alpha": 0.5})
    teacher_lib.check_teacher(debiased, student, "t")  # alpha may differ
    with pytest.raises(UserError, match="teacher t has data.name='cifar10b'"):
        teacher_lib.check_teacher(other, student, "t")
    with pytest.raises(UserError, match="model.cnn_widths"):
        teacher_lib.check_teacher(wider, student, "t")
    dfr_file = tmp_path / "dfr_teacher.py"
    dfr_file.write_text("import sys\n"
                        f"sys.path.insert(0, {REPO!r})\n"
                        "from tests.helpers import tiny_config\n"
                        "from nhfair_jax.config import method_config\n"
                        "def get_config():\n"
                        "    c = tiny_config()\n"
                        "    c.method = method_config('dfr')\n"
                        "    return c\n")
    cfg = tiny_config()
    cfg.method = _teacher_cfg(tmp_path, teacher_config=str(dfr_file))
    with pytest.raises(UserError, match="must be a trained network"):
        teacher_of(cfg)


def test_teacher_dir_without_a_finished_run_is_refused(tmp_path):
    (tmp_path / "teacher").mkdir()
    cfg = _teacher_cfg(tmp_path, teacher_config="")
    with pytest.raises(UserError, match="holds no finished run .*teacher_config is empty"):
        teacher_lib.teacher_config_of(cfg)
    cfg = _teacher_cfg(tmp_path, teacher_config=str(tmp_path / "nope.py"))
    with pytest.raises(UserError, match="method.teacher_config: config file not found"):
        teacher_lib.teacher_config_of(cfg)
    cfg = method_config("ckd", teacher_workdir="")
    with pytest.raises(UserError, match="needs method.teacher_workdir"):
        teacher_lib.teacher_config_of(cfg)


def test_teacher_variables_missing_is_an_error():
    m = get_method(method_config("ckd"))
    with pytest.raises(RuntimeError, match="has no teacher"):
        m.init_state({})


def test_warnings_module_is_quiet_on_a_fully_paired_source(tmp_path):
    (tmp_path / "cf").mkdir()
    lines = ["index,counterfactual"]
    for i in range(6):
        write_solid(str(tmp_path / "cf" / f"{i}.png"), PALETTE[i], size=(4, 4))
        lines.append(f"{100 + i},cf/{i}.png")
    (tmp_path / "pairs.csv").write_text("\n".join(lines) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        src = attach_counterfactuals(_source(), str(tmp_path / "pairs.csv"), image_size=4)
    assert src.extras["cf_mask"].sum() == 6 and os.path.exists(tmp_path / "pairs.csv")


# --- the study's selection rule, config checks and search spaces ------------------------------


def _run(acc, cd, name):
    return {"dir": name, "params": {"lam": name}, "result": {"val": {"acc": acc, "cd": cd}}}


def test_study_selection_is_the_papers_rule():
    from nhfair_jax.study.counterfactual import select

    runs = [_run(0.80, 0.01, "a"), _run(0.85, 0.20, "b"), _run(0.845, 0.05, "c")]
    chosen = select(runs, erm_val_acc=0.85, tolerance=0.01)  # bound 0.84: b and c qualify
    assert chosen["dir"] == "c" and chosen["rule"] == "cd_within_bound"
    chosen = select(runs, erm_val_acc=0.95, tolerance=0.01)  # none qualifies: most accurate
    assert chosen["dir"] == "b" and chosen["rule"] == "no_candidate_within_bound"


def test_study_config_errors_are_one_line(tmp_path):
    import sys

    from nhfair_jax.study.counterfactual import candidates, main, validate

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "configs"))
    from cf_study_digitsb import get_config

    study = get_config()
    assert len(candidates(study, "ckd")) == 2 and candidates(study, "erm") == [{}]
    validate(study)
    bad = get_config()
    bad.methods = ("cp", "ckd")
    with pytest.raises(UserError, match="must include 'erm'"):
        validate(bad)
    bad = get_config()
    bad.grid.cp.mu = (1.0,)
    with pytest.raises(UserError, match="grid.cp.mu: cp has no hyperparameter 'mu'"):
        validate(bad)
    bad = get_config()
    bad.teacher_study.alpha = 0.55
    with pytest.raises(UserError, match="teacher_study.alpha 0.55 must be one of"):
        validate(bad)
    assert main(["--config", str(tmp_path / "none.py"), "--workdir", str(tmp_path / "w")]) == 1
    # A workdir of another study config is refused before anything trains.
    from nhfair_jax.study.counterfactual import check_workdir

    check_workdir(str(tmp_path / "w"), get_config(), force=False)
    other = get_config()
    other.seeds = (0, 1, 2)
    with pytest.raises(UserError, match="holds a study of another config .*seeds"):
        check_workdir(str(tmp_path / "w"), other, force=False)


def test_search_spaces_of_the_counterfactual_methods_and_modifiers():
    import optuna

    from nhfair_jax.methods import search_space, suggest
    from nhfair_jax.methods.space import LogUniform

    assert search_space("ckd")["method.mu"] == LogUniform(1e-2, 1e2)
    assert search_space("hkd_cp")["method.temperature"].options == (1.0, 2.0, 4.0)
    trial = optuna.trial.FixedTrial({"optim.lr": 1e-3, "optim.weight_decay": 0.0,
                                     "optim.name": "adam", "method.variant": "btl",
                                     "method.adjustment": 0.0, "method.alpha": 0.2,
                                     "method.gamma": 0.1, "method.cf_lambda": 3.0})
    drawn = suggest(trial, "groupdro", cf="cp")
    assert drawn["method.cf_lambda"] == 3.0
    assert "method.cf_lambda" not in suggest(trial, "groupdro")
