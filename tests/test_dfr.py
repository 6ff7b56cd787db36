"""DFR: group-balanced last-layer refitting, and the post-fit run-directory contract."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from nhfair_jax import metrics
from nhfair_jax.config import method_config
from nhfair_jax.methods.dfr import LastLayer, balanced_rows, class_weight_options, \
    penalty_arguments
from nhfair_jax.dispatch import run
from nhfair_jax.training import postfit
from tests.helpers import REPO, erm_config_file, tiny_config


def _spurious(n, agree, rng):
    """Features [core (noisy label), spurious (the group)]; the group equals the label with
    probability `agree`."""
    y = rng.integers(0, 2, n)
    g = np.where(rng.random(n) < agree, y, 1 - y)
    core = y + rng.normal(0, 0.6, n)
    spurious = g + rng.normal(0, 0.05, n)
    return np.stack([core, spurious], 1), y, g


def test_balanced_rows_equalise_the_groups_by_default_and_cells_on_request():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 500)
    groups = np.where(rng.random(500) < 0.9, labels, 1 - labels)
    groups[:150] = 0  # the groups differ in size
    rows = balanced_rows(labels, groups, rng)
    sizes = np.bincount(groups[rows], minlength=2)
    assert sizes[0] == sizes[1] == np.bincount(groups).min()
    cells = np.bincount(groups[rows] * 2 + labels[rows], minlength=4)
    assert len(set(cells.tolist())) > 1  # group balance leaves the classes as they come
    rows = balanced_rows(labels, groups, rng, "group_x_class")
    cells = np.bincount(groups[rows] * 2 + labels[rows], minlength=4)
    assert len(set(cells.tolist())) == 1 and cells[0] == np.bincount(groups * 2 + labels).min()
    with pytest.raises(ValueError, match="method.balance"):
        balanced_rows(labels, groups, rng, "class")


def test_group_balancing_lifts_an_underrepresented_group_with_its_own_cue():
    rng = np.random.default_rng(0)

    def sample(n, minority):
        g = (rng.random(n) < minority).astype(int)
        f = rng.normal(size=(n, 2))
        y = np.where(g == 0, f[:, 0] > 0, f[:, 1] > 0).astype(int)  # each group its own cue
        return f, y, g

    x, y, g = sample(4000, 0.05)
    x_test, y_test, g_test = sample(4000, 0.5)
    dfr = LastLayer(penalty="l2", c=1.0, class_weight=None, retrains=5, seed=0).fit(x, y, g)
    from sklearn.linear_model import LogisticRegression

    plain = LogisticRegression(C=1.0).fit(x, y)
    worst = {name: metrics.fairness_report(y_test, pred, g_test)["worst_acc"]
             for name, pred in (("dfr", dfr.logits(x_test).argmax(1)),
                                ("plain", plain.predict(x_test)))}
    assert worst["dfr"] > worst["plain"] + 0.1


def test_class_weights_are_searched_in_both_directions():
    options = class_weight_options((1.0, 2.0, 10.0), 2)
    assert options == [{0: 1.0, 1: 1.0}, {0: 2.0, 1: 1.0}, {0: 10.0, 1: 1.0},
                       {0: 1.0, 1: 2.0}, {0: 1.0, 1: 10.0}]
    assert len(class_weight_options((1.0, 2.0), 3)) == 4


def test_l1_stays_l1_whatever_the_scikit_learn_version():
    assert penalty_arguments("l1", "1.3.2") == {"penalty": "l1"}  # l1_ratio ignored there
    assert penalty_arguments("l2", "1.7.0") == {"penalty": "l2"}
    assert penalty_arguments("l1", "1.8.0") == {"l1_ratio": 1.0}
    assert penalty_arguments("l2", "1.10.1") == {"l1_ratio": 0.0}
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 20))
    y = (x[:, 0] > 0).astype(int)
    g = rng.integers(0, 2, 400)
    l1 = LastLayer(penalty="l1", c=0.05, class_weight=None, retrains=1, seed=0).fit(x, y, g)
    l2 = LastLayer(penalty="l2", c=0.05, class_weight=None, retrains=1, seed=0).fit(x, y, g)
    assert (l1.coef == 0).sum() >= 15 and (l2.coef == 0).sum() == 0


def test_balanced_last_layer_ignores_a_spurious_feature_and_lifts_the_worst_group():
    rng = np.random.default_rng(0)
    x, y, g = _spurious(2000, 0.95, rng)
    x_test, y_test, g_test = _spurious(2000, 0.5, rng)  # the shortcut no longer holds
    # A shortcut between label and group survives balancing the groups alone (each group stays
    # mostly one class); balancing group x class cells breaks it.
    dfr = LastLayer(penalty="l1", c=1.0, class_weight=None, retrains=5, seed=0,
                    balance="group_x_class").fit(x, y, g)

    from sklearn.linear_model import LogisticRegression

    plain = LogisticRegression(C=1.0).fit(x, y)
    worst = {name: metrics.fairness_report(y_test, pred, g_test)["worst_acc"]
             for name, pred in (("dfr", dfr.logits(x_test).argmax(1)),
                                ("plain", plain.predict(x_test)))}
    assert abs(dfr.coef[0, 0]) > abs(dfr.coef[0, 1])  # weight on the core feature
    assert worst["dfr"] > worst["plain"] + 0.15


@pytest.mark.slow
def test_a_finished_base_run_is_fitted_with_its_own_config(tiny_erm, tmp_path):
    """method.base_config names how to train a missing base run; a finished one is described by
    its own config.json (its data and network), as a teacher run is: a base_config that
    differs from it (here another data option) is neither refused nor used."""
    base_dir, base_result = tiny_erm
    other = tiny_config(**{"data.options.skew": 0.95})
    path = tmp_path / "other_erm.json"
    path.write_text(json.dumps(other.to_dict()))
    cfg = tiny_config()
    cfg.method = method_config("dfr", base_config=str(path), base_workdir=base_dir,
                               retrains=1, c_grid=(1.0,))
    result = run(cfg, str(tmp_path / "dfr"))
    assert result["base_test"]["acc"] == pytest.approx(base_result["test"]["acc"])


@pytest.mark.slow
def test_post_fit_trains_its_erm_run_first_and_writes_the_run_directory(tmp_path, monkeypatch):
    cfg = tiny_config()
    base_dir = str(tmp_path / "erm")
    cfg.method = method_config("dfr", base_config=erm_config_file(tmp_path),
                               base_workdir=base_dir, retrains=2, c_grid=(1.0, 0.1))
    result = run(cfg, str(tmp_path / "dfr"))
    assert os.path.exists(os.path.join(base_dir, "result.json"))  # trained on demand
    assert result["method"] == "dfr" and result["base_run"] == base_dir
    assert result["tuned"]["C"] in (1.0, 0.1)
    val = np.load(tmp_path / "dfr" / "predictions_val.npz")
    assert len(val["index"]) == result["split_sizes"]["val"] == 180  # all of validation
    rep = metrics.fairness_report(val["label"], val["score"].argmax(1), val["group"])
    assert rep["worst_acc"] == pytest.approx(result["val"]["worst_acc"])
    base_mtime = os.path.getmtime(os.path.join(base_dir, "result.json"))

    def no_trainer(*args, **kwargs):
        raise AssertionError("a trial on cached features built the trainer or a checkpoint")

    # the features are cached now: a second trial reads them and the labels, nothing else
    monkeypatch.setattr(postfit, "restore_best", no_trainer)
    again = run(cfg, str(tmp_path / "dfr2"))  # the ERM run is reused
    assert os.path.getmtime(os.path.join(base_dir, "result.json")) == base_mtime
    assert again["test"]["acc"] == result["test"]["acc"]  # deterministic
    assert json.load(open(tmp_path / "dfr" / "result.json"))["base_test"]["acc"] > 0


def test_post_fit_refuses_a_base_config_that_is_not_erm(tmp_path):
    path = tmp_path / "mixup.py"
    path.write_text("from nhfair_jax.config import digitsb_config\n"
                    "def get_config():\n    return digitsb_config('mixup')\n")
    cfg = tiny_config()
    cfg.method = method_config("dfr", base_config=str(path), base_workdir=str(tmp_path / "b"))
    with pytest.raises(ValueError, match="must be an ERM config"):
        run(cfg, str(tmp_path / "dfr"))


@pytest.mark.slow
def test_on_digitsb_with_a_shortcut_that_breaks_at_test_time_dfr_lifts_the_worst_group(tmp_path):
    """Where the effect is large: training data whose noise predicts the label 98% of the time,
    validation and test where it does not (eval_skew 0.5): ERM leans on the shortcut, and
    refitting its last layer on validation features balanced over group x class cells (a
    shortcut between label and group is broken only by balancing cells) lifts the group ERM
    serves worst. Over three seeds (about 88 test images in that group each), the lift must
    hold by a one-sided McNemar test at 5% on the pooled paired outcomes of those images:
    (images only DFR gets right - images only ERM gets right) / sqrt(their sum) > 1.645."""
    from scipy import stats

    only_dfr = only_erm = 0
    for seed in range(3):
        base_file = tmp_path / f"erm_shortcut_{seed}.py"
        base_file.write_text(
            "import sys\n"
            f"sys.path.insert(0, {REPO!r})\n"
            "from tests.helpers import tiny_config\n"
            "def get_config():\n"
            "    c = tiny_config(**{'train.epochs': 10, 'model.cnn_widths': (16, 32, 64, 128)})\n"
            "    c.data.options.skew = 0.98\n"
            "    c.data.options.eval_skew = 0.5\n"
            f"    c.seed = {seed}\n"
            "    return c\n")
        cfg = tiny_config(**{"train.epochs": 10, "model.cnn_widths": (16, 32, 64, 128)})
        cfg.data.options.skew, cfg.data.options.eval_skew = 0.98, 0.5
        cfg.seed = seed
        cfg.method = method_config("dfr", base_config=str(base_file),
                                   base_workdir=str(tmp_path / f"erm{seed}"),
                                   balance="group_x_class")
        run(cfg, str(tmp_path / f"dfr{seed}"))
        erm = json.load(open(tmp_path / f"erm{seed}" / "result.json"))
        worst = int(np.argmin(erm["test"]["group_acc"]))
        right = {}
        for name in (f"erm{seed}", f"dfr{seed}"):
            pred = np.load(tmp_path / name / "predictions_test.npz")
            order = np.argsort(pred["index"])
            correct = (pred["logits"].argmax(1) == pred["label"])[order]
            right[name[:3]] = correct[pred["group"][order] == worst]
        only_dfr += int((right["dfr"] & ~right["erm"]).sum())
        only_erm += int((right["erm"] & ~right["dfr"]).sum())
    z = (only_dfr - only_erm) / np.sqrt(max(only_dfr + only_erm, 1))
    assert z > stats.norm.ppf(0.95), (only_dfr, only_erm)


@pytest.mark.slow
def test_eval_skew_changes_only_the_evaluation_splits():
    from nhfair_jax.data import get_sources

    plain = get_sources("digitsb", None, skew=0.9)
    shifted = get_sources("digitsb", None, skew=0.9, eval_skew=0.5)
    assert np.array_equal(plain["train"].groups, shifted["train"].groups)
    for split in ("val", "test"):
        agree = (shifted[split].groups == shifted[split].labels).mean()
        assert 0.35 < agree < 0.65 and (plain[split].groups == plain[split].labels).mean() > 0.8
        assert np.array_equal(plain[split].labels, shifted[split].labels)


def test_a_finished_post_fit_run_is_not_fitted_again(tmp_path):
    from nhfair_jax import rundir

    workdir = tmp_path / "dfr"
    workdir.mkdir()
    rundir.write_json(str(workdir / "result.json"), {"method": "dfr", "test": {"acc": 0.5}})
    cfg = tiny_config()
    cfg.method = method_config("dfr", base_config=str(tmp_path / "absent.py"),
                               base_workdir=str(tmp_path / "erm"))
    assert run(cfg, str(workdir))["test"]["acc"] == 0.5  # read, not refitted
    assert not os.path.exists(tmp_path / "erm")


@pytest.mark.slow
def test_heads_are_the_same_whatever_the_workers_and_the_global_generator():
    from nhfair_jax.methods import get_method
    from nhfair_jax.methods.dfr import fit_workers

    rng = np.random.default_rng(3)
    x, y, g = _spurious(600, 0.9, rng)
    x = np.concatenate([x, rng.normal(size=(600, 3))], 1)
    val = type("Val", (), {"labels": y, "groups": g, "num_classes": 2, "num_groups": 2,
                           "__len__": lambda self: 600})()
    for penalty in ("l2", "l1"):  # l2 in threads, l1 in worker processes, each fit seeded
        out = {}
        for workers in (1, 2, 3, 2):
            dfr = get_method(method_config("dfr", tune_class_weights=True, workers=workers,
                                           penalty=penalty, c_grid=(1.0, 0.1, 0.01), retrains=2))
            np.random.seed(workers)  # liblinear's seed must not come from the global generator
            final, val_logits, tuned = dfr.fit_heads({"val": x}, {"val": val}, seed=0)
            out.setdefault(workers, []).append((final.coef, val_logits, tuned))
        runs = [r for rs in out.values() for r in rs]
        for coef, val_logits, tuned in runs[1:]:
            np.testing.assert_array_equal(coef, runs[0][0])
            np.testing.assert_array_equal(val_logits, runs[0][1])
            assert tuned == runs[0][2]
    assert fit_workers(0) >= 1 and fit_workers(2) == 2
    with pytest.raises(ValueError, match="method.workers"):
        get_method(method_config("dfr", workers=-1))


class _Split:
    def __init__(self, labels, groups):
        self.labels, self.groups = labels, groups
        self.num_classes, self.num_groups = int(labels.max()) + 1, int(groups.max()) + 1

    def __len__(self):
        return len(self.labels)


def test_more_than_two_classes_are_fitted_one_vs_rest():
    """Three classes (which scikit-learn 1.8 and later no longer fit with liblinear at once):
    one head per class against the rest, a class's weight raising its own recall, and DFR's
    grid on such a split."""
    from nhfair_jax.methods import get_method

    rng = np.random.default_rng(5)
    n = 600
    y, g = rng.integers(0, 3, n), rng.integers(0, 2, n)
    x = rng.normal(size=(n, 5))
    x[np.arange(n), y] += 1.5  # overlapping clusters
    plain = LastLayer(penalty="l2", c=1.0, class_weight=None, retrains=2, seed=0).fit(x, y, g)
    assert plain.coef.shape == (3, 5) and plain.intercept.shape == (3,)
    pred = plain.logits(x).argmax(1)
    assert (pred == y).mean() > 0.6  # chance is 1/3
    weighted = LastLayer(penalty="l2", c=1.0, class_weight={2: 10.0}, retrains=2,
                         seed=0).fit(x, y, g)
    recall = [(p[y == 2] == 2).mean() for p in (pred, weighted.logits(x).argmax(1))]
    assert recall[1] > recall[0]
    val = _Split(y, g)
    dfr = get_method(method_config("dfr", penalty="l1", c_grid=(1.0, 0.1), retrains=2,
                                   workers=1))
    _, val_logits, tuned = dfr.fit_heads({"val": x}, {"val": val}, seed=0)
    assert val_logits.shape == (n, 3) and tuned["C"] in (1.0, 0.1)


def test_add_train_draws_a_random_training_subset_the_size_of_the_balanced_rows():
    """The code's add_train: the balanced validation rows plus as many training rows, drawn at
    random (a subset, not the whole training split), different for another draw."""
    from nhfair_jax.methods.dfr import balanced_rows, fit_rows

    rng = np.random.default_rng(0)
    labels, groups = rng.integers(0, 2, 200), (rng.random(200) < 0.3).astype(int)
    n_balanced = len(balanced_rows(labels, groups, np.random.default_rng(1)))
    rows = fit_rows(labels, groups, 5000, np.random.default_rng(1))
    val_rows, train_rows = rows[rows < 200], rows[rows >= 200] - 200
    assert len(val_rows) == n_balanced and len(train_rows) == n_balanced
    assert len(set(train_rows.tolist())) == n_balanced and train_rows.max() < 5000
    again = fit_rows(labels, groups, 5000, np.random.default_rng(2))
    assert set((again[again >= 200] - 200).tolist()) != set(train_rows.tolist())
    assert len(fit_rows(labels, groups, 10, np.random.default_rng(1))) == n_balanced + 10


def test_a_post_fit_method_draws_from_the_runs_seed_not_the_split_seed(tmp_path, monkeypatch):
    """Issue 50: DFR's halves and balanced subsets (and any post-fit method's draws) follow
    config.seed, so that its seed re-runs differ by more than their base runs."""
    from types import SimpleNamespace

    seen = []

    class Stop(Exception):
        pass

    class Recorder:
        def fit(self, inputs, sources, seed, info):
            seen.append(seed)
            raise Stop

    monkeypatch.setattr(postfit, "get_method", lambda method: Recorder())
    train = SimpleNamespace(num_classes=2, num_groups=2)
    monkeypatch.setattr(postfit, "_inputs_and_sources",
                        lambda method, base_config, base_dir: ({}, {"train": train}))
    cfg = tiny_config()
    cfg.seed, cfg.data.split_seed = 3, 0
    with pytest.raises(Stop):
        postfit.post_fit(cfg, str(tmp_path / "run"), None, str(tmp_path / "base"))
    assert seen == [3]


def test_features_with_a_nan_are_refused_with_the_split_named(monkeypatch):
    """The heads skip scikit-learn's own finiteness check (fitted under assume_finite, where
    liblinear loops on a NaN instead of failing): fit_heads checks the features first, and a
    diverged base run's features are refused with the split named."""
    from nhfair_jax.methods import dfr as dfr_module
    from nhfair_jax.methods import get_method

    rng = np.random.default_rng(0)
    y, g = rng.integers(0, 2, 80), rng.integers(0, 2, 80)
    x = rng.normal(size=(80, 4))
    bad = {"val": x, "test": x.copy()}
    bad["test"][7, 2] = np.inf
    with pytest.raises(ValueError, match=r"test features hold NaN or infinite values in 1 of 80"):
        dfr_module.check_features(bad)
    checked = []
    monkeypatch.setattr(dfr_module, "check_features", lambda feats: checked.append(feats))
    dfr = get_method(method_config("dfr", penalty="l2", c_grid=(1.0,), retrains=1, workers=1))
    dfr.fit_heads({"val": x}, {"val": _Split(y, g)}, seed=0)
    assert checked and checked[0]["val"] is x  # fit_heads checked them
    # without scikit-learn's checks, the same solver on the same rows: the same head
    heads = [LastLayer(penalty=p, c=0.3, class_weight={1: 3.0}, retrains=2, seed=1)
             for p in ("l1", "l1", "l2", "l2")]
    fitted = [h.fit(x, y, g) if i % 2 else h._fit(x, y, g, None) for i, h in enumerate(heads)]
    for a, b in (fitted[:2], fitted[2:]):
        np.testing.assert_array_equal(a.coef, b.coef)
        np.testing.assert_array_equal(a.intercept, b.intercept)
