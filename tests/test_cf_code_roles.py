"""Issue 49: the counterfactual study as its authors ran it.

The code's construction of CIFAR-10B (roles="code") rebuilt here from the arithmetic of the
authors' data_handler (cifar_10b.py, corrupted_cifar10_protocol.py): A is the contrast change
`clip((x - m) * 0.75 + m, 0, 1) * 255` truncated to uint8, G the Gaussian noise drawn after
`np.random.seed(seed)` for every image (one pattern per seed), `clip(x / 255 + n, 0, 1) * 255`
truncated; A and G by exact counts in the seeded shuffle. Then the claims' arithmetic on
hand-built numbers, the group x class balanced sampler's cell balance, and the study's data per
seed and sampling variant.
"""

from __future__ import annotations

import numpy as np
import pytest

from nhfair_jax.data.biased import make_biased

SEED, SKEW, ALPHA = 3, 0.8, 0.75


def _base(n_per_class=8, size=6):
    rng = np.random.default_rng(0)
    base_u8 = rng.integers(0, 256, size=(10 * n_per_class, size, size, 3), dtype=np.uint8)
    classes = np.repeat(np.arange(10), n_per_class)
    return base_u8, classes


def _code_contrast(x_u8):
    """corrupted_cifar10_protocol.contrast at severity 1, stored into a uint8 array."""
    x = np.array(x_u8) / 255.0
    means = np.mean(x, axis=(0, 1), keepdims=True)
    return (np.clip((x - means) * 0.75 + means, 0, 1) * 255).astype(np.uint8)


def _code_noise(x_u8, seed):
    """corrupted_cifar10_protocol.gaussian_noise at severity 1 (it re-seeds NumPy's generator
    before every image), stored into a uint8 array."""
    x = np.array(x_u8) / 255.0
    np.random.seed(seed)
    return (np.clip(x + np.random.normal(size=x.shape, scale=0.04), 0, 1) * 255).astype(np.uint8)


def _code_image(x_u8, a, g, seed):
    img = _code_contrast(x_u8) if a else np.array(x_u8)
    return _code_noise(img, seed) if g else img


def test_code_roles_build_every_view_with_the_codes_arithmetic():
    base_u8, classes = _base()
    built = make_biased(base_u8 / 255.0, classes, skew=SKEW, alpha=ALPHA, seed=SEED,
                        roles="code")
    for i in range(len(base_u8)):
        a, g = int(built["group"][i]), int(built["attr_g"][i])
        np.testing.assert_array_equal(built["image"][i], _code_image(base_u8[i], a, g, SEED))
        np.testing.assert_array_equal(built["image_cf"][i],  # the code's inv_image
                                      _code_image(base_u8[i], 1 - a, g, SEED))
        np.testing.assert_array_equal(built["image_gflip"][i],
                                      _code_image(base_u8[i], a, 1 - g, SEED))
    assert np.array_equal(built["label"], (classes >= 5).astype(int))


def test_code_roles_draw_one_noise_pattern_per_seed():
    """Every image with G = 1 carries the same pattern: on a flat grey base (no clipping, no
    contrast effect on a constant image) the noised images are all identical, and another
    seed gives another pattern."""
    base = np.full((40, 6, 6, 3), 0.5, np.float32)
    classes = np.repeat(np.arange(10), 4)
    patterns = []
    for seed in (SEED, SEED + 1):
        built = make_biased(base, classes, skew=SKEW, alpha=ALPHA, seed=seed, roles="code")
        noised = built["image"][built["attr_g"] == 1]
        assert len(noised) >= 2 and (noised == noised[0]).all()
        assert not (noised[0] == 127).all()  # the noise is there
        patterns.append(noised[0])
    assert not np.array_equal(*patterns)


def test_code_roles_assign_a_and_g_by_exact_counts():
    """In each class of n images exactly int(n * skew) have A = Y; in each (A, class) cell of
    tot images exactly #{k <= tot * alpha} have G = A."""
    base_u8, classes = _base(n_per_class=20)
    built = make_biased(base_u8 / 255.0, classes, skew=SKEW, alpha=ALPHA, seed=SEED,
                        roles="code")
    a, g, y = built["group"], built["attr_g"], built["label"]
    for c in range(10):
        rows = classes == c
        assert (a[rows] == y[rows]).sum() == int(20 * SKEW)
        for value in (0, 1):
            cell = rows & (a == value)
            tot = int(cell.sum())
            assert (g[cell] == value).sum() == int((np.arange(1, tot + 1) <= tot * ALPHA).sum())


def test_the_codes_contrast_edit_depends_on_the_image():
    """The counterfactual edit of A (image_cf - image) is the contrast change (0.75 - 1)(x - m):
    no one direction: two images' edits (G = 0, no noise) are far from parallel and each
    follows its own image."""
    base_u8, classes = _base()
    built = make_biased(base_u8 / 255.0, classes, skew=SKEW, alpha=ALPHA, seed=SEED,
                        roles="code")
    rows = np.flatnonzero((built["group"] == 0) & (built["attr_g"] == 0))[:2]
    edits = [built["image_cf"][r].astype(float) - built["image"][r] for r in rows]
    cos = float(np.dot(edits[0].ravel(), edits[1].ravel())
                / np.linalg.norm(edits[0]) / np.linalg.norm(edits[1]))
    assert abs(cos) < 0.5
    for r, edit in zip(rows, edits):
        x = base_u8[r] / 255.0
        expected = -0.25 * (x - x.mean(axis=(0, 1), keepdims=True)) * 255
        assert np.abs(edit - expected).max() <= 1.0  # the code's uint8 truncation


def test_roles_options_and_strengths():
    from nhfair_jax.data.digitsb import digitsb_sources, strengths

    assert strengths("code", None, None, 0.2, 0.45) == (0.04, 0.75)  # the code's severity 1
    assert strengths("paper", None, None, 0.2, 0.45) == (0.2, 0.45)  # DigitsB's own
    assert strengths("code", 0.1, None, 0.2, 0.45) == (0.1, 0.75)
    src = digitsb_sources(image_size=8, roles="code")["train"]
    assert tuple(src.group_names) == ("full_contrast", "low_contrast")
    with pytest.raises(ValueError, match="roles must be one of"):
        digitsb_sources(image_size=8, roles="text")
    with pytest.raises(ValueError, match="noise_pattern applies to roles='paper'"):
        make_biased(np.zeros((10, 4, 4, 3)), np.arange(10), skew=0.8, alpha=0.8, seed=0,
                    roles="code", noise_pattern="shared")


# ---- the claims' arithmetic, on hand-built numbers ------------------------------------------

def _rows(alpha, name, metric, values):
    return [{"alpha": alpha, "row": name, "split": "test", "seed": s, metric: v}
            for s, v in enumerate(values)]


def test_claims_bounds_verdicts_and_slope_on_hand_built_numbers():
    """t(0.95, 2) = 2.919986: a claim of a negative difference holds when
    mean + t s / sqrt(n) < 0, of a positive one when mean - t s / sqrt(n) > 0; the slope claim
    takes each seed's least-squares slope."""
    from nhfair_jax.study.cf_claims import NAMES, study_claims

    t = 2.919986
    table = []
    for alpha, shift in ((0.5, 0.0), (0.7, 0.1), (0.9, 0.2)):
        table += _rows(alpha, "scratch", "cd", [0.3, 0.35, 0.4])
        table += _rows(alpha, "cp", "cd", [0.1, 0.12, 0.11])  # -0.2, -0.23, -0.29: holds
        table += _rows(alpha, "ckd", "cd", [0.1, 0.5, 0.2])  # -0.2, +0.15, -0.2: no bound
        table += _rows(alpha, "scratch", "deo", [0.2, 0.2, 0.2])
        # CP's DEO: per seed slopes 0.5, 1.0, 1.5 over alpha 0.5..0.9
        table += _rows(alpha, "cp", "deo", [0.1 + 0.5 * (alpha - 0.5), 0.1 + 1.0 * (alpha - 0.5),
                                            0.1 + 1.5 * (alpha - 0.5)])
        table += _rows(alpha, "ckd", "deo", [0.05, 0.05, 0.05])
        table += _rows(alpha, "scratch", "rfp", [0.1, 0.1, 0.1])
        table += _rows(alpha, "cp", "rfp", [0.1 + shift, 0.1 + shift, 0.12 + shift])
    claims = study_claims(table, "cd")
    by = {(c["claim"], c["alpha"]): c for c in claims}
    assert {c["claim"] for c in claims} == set(NAMES)

    holds = by[("cp_cd_below_scratch", 0.5)]
    d = np.array([-0.2, -0.23, -0.29])
    assert holds["estimate"] == pytest.approx(d.mean())
    assert holds["bound"] == pytest.approx(d.mean() + t * d.std(ddof=1) / np.sqrt(3), abs=1e-6)
    assert holds["holds"] is True and holds["direction"] == "< 0"

    fails = by[("ckd_cd_below_scratch", 0.9)]
    d = np.array([-0.2, 0.15, -0.2])
    assert fails["bound"] == pytest.approx(d.mean() + t * d.std(ddof=1) / np.sqrt(3), abs=1e-6)
    assert fails["holds"] is False  # reported, not left out

    # CP's DEO at 0.5 is 0.1 against Scratch's 0.2: "above" fails; at 0.9 it is 0.3..0.7
    assert ("cp_deo_above_scratch", 0.5) not in by  # the tables' alpha 0.8 and above
    above = by[("cp_deo_above_scratch", 0.9)]
    d = np.array([0.1, 0.3, 0.5])
    assert above["bound"] == pytest.approx(d.mean() - t * d.std(ddof=1) / np.sqrt(3), abs=1e-6)
    assert above["holds"] is False and above["direction"] == "> 0"  # -0.037: not above 0

    slope = by[("cp_deo_rises_with_alpha", None)]
    s = np.array([0.5, 1.0, 1.5])
    assert slope["estimate"] == pytest.approx(1.0)
    assert slope["bound"] == pytest.approx(s.mean() - t * s.std(ddof=1) / np.sqrt(3), abs=1e-6)
    assert slope["holds"] is True

    assert ("cp_rfp_above_scratch", 0.7) not in by  # alpha > 0.7 only
    rfp = by[("cp_rfp_above_scratch", 0.9)]
    d = np.array([0.2, 0.2, 0.22])
    assert rfp["bound"] == pytest.approx(d.mean() - t * d.std(ddof=1) / np.sqrt(3), abs=1e-6)
    assert rfp["holds"] is True
    for c in claims:
        assert {"claim", "statement", "alpha", "estimate", "bound", "holds"} <= set(c)
        assert "Sec." in c["statement"]


def test_one_seed_gives_no_bound_and_no_verdict():
    from nhfair_jax.study.cf_claims import one_sided

    assert one_sided([0.3], -1) == (0.3, None, None)
    assert one_sided([], +1) == (None, None, None)


# ---- the group x class balanced sampler ------------------------------------------------------

class _Source:
    def __init__(self, labels, groups):
        self.labels, self.groups, self.num_classes = labels, groups, 2

    def __len__(self):
        return len(self.labels)


def test_balanced_sampler_fills_every_group_x_class_cell_equally():
    """Cells of 2,800 / 800 / 300 / 100 rows: an epoch of 4,000 draws holds about 1,000 of each
    (binomial sd 27; 5 sd allowed), where uniform sampling would hold 2,800 of the first."""
    from nhfair_jax.methods.groups import balanced_indices

    groups = np.repeat([0, 0, 1, 1], [2800, 800, 300, 100])
    labels = np.repeat([0, 1, 0, 1], [2800, 800, 300, 100])
    src = _Source(labels, groups)
    rows = balanced_indices("group_x_class", src, 7, 1, None, "erm")
    assert len(rows) == len(src)
    counts = np.bincount(groups[rows] * 2 + labels[rows], minlength=4)
    sd = np.sqrt(4000 * 0.25 * 0.75)
    assert np.abs(counts - 1000).max() < 5 * sd, counts
    assert balanced_indices("uniform", src, 7, 1, None, "erm") is None
    with pytest.raises(Exception, match="draws its own training rows"):
        balanced_indices("group_x_class", src, 7, 1, np.arange(10), "groupdro")
    with pytest.raises(Exception, match="train.sampling must be one of"):
        balanced_indices("gcBal", src, 7, 1, None, "erm")


# ---- the study: data per seed, overrides, the sampling variant -------------------------------

def _study(arg="digitsb,alpha"):
    from nhfair_jax.config import load_config_file

    return load_config_file(f"configs/cf_study.py:{arg}")


def test_the_study_builds_each_runs_data_from_its_seed(tmp_path):
    from nhfair_jax.study.cf_runs import StudyRuns

    study = _study()
    assert study.data_per_seed and study.base.data.options.roles == "paper"
    runs = StudyRuns(study, str(tmp_path))
    c = runs.run_config(study.row.cp, 0.8, 2, {"lam": 1.0})
    assert (c.data.split_seed, c.data.options.build_seed, c.seed) == (2, 2, 2)
    study.data_per_seed = False
    c = StudyRuns(study, str(tmp_path)).run_config(study.row.cp, 0.8, 2, {"lam": 1.0})
    assert (c.data.split_seed, c.data.options.build_seed) == (0, 0)


def test_study_overrides_set_existing_fields_only():
    from nhfair_jax.errors import UserError
    from nhfair_jax.study.counterfactual import apply_overrides

    study = _study()
    apply_overrides(study, ["--config.base.data.options.roles=code", "--config.seeds=(0, 1)",
                            "--config.acc_ratio=1"])
    assert study.base.data.options.roles == "code" and tuple(study.seeds) == (0, 1)
    assert study.acc_ratio == 1.0
    with pytest.raises(UserError, match="no such config key 'rolez'"):
        apply_overrides(study, ["--config.base.data.options.rolez=code"])
    with pytest.raises(UserError, match="expected True or False"):
        apply_overrides(study, ["--config.data_per_seed=3"])


def test_the_sampling_study_runs_cp_and_ckd_with_and_without_the_sampler(tmp_path):
    from nhfair_jax.study.cf_runs import StudyRuns
    from nhfair_jax.study.counterfactual import validate

    study = _study("digitsb,sampling")
    validate(study)
    assert tuple(study.rows) == ("scratch", "cp", "ckd", "cp_gcbal", "ckd_gcbal")
    assert study.row.ckd_gcbal.teacher == study.row.ckd.teacher == "scratch"
    runs = StudyRuns(study, str(tmp_path))
    assert runs.run_config(study.row.ckd_gcbal, 0.8, 0, {}, teacher=str(tmp_path)
                           ).train.sampling == "group_x_class"
    assert runs.run_config(study.row.ckd, 0.8, 0, {}, teacher=str(tmp_path)
                           ).train.sampling == "uniform"
