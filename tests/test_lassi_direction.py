"""benchmarks/lassi_direction.py: how much of a counterfactual edit LASSI's one attribute vector
reaches. Its measures on hand-built edits (quick), and the script on two short LASSI runs, the
authors' code's construction (A a contrast change, one direction) against the paper's text's
(A per-image noise) (slow)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from tests.helpers import REPO, tiny_config

sys.path.insert(0, os.path.join(REPO, "benchmarks"))
import lassi_direction  # noqa: E402


def test_edits_along_the_vector_are_all_reached():
    a = np.array([0.0, 2.0, 0.0, 0.0])
    d = np.outer([1.0, 2.0, 3.0], a / 2)  # lengths 1, 2, 3 along a
    m = lassi_direction.edit_alignment(d, a, eps=1.0)
    assert m["pairs"] == 3
    for key in ("along", "cos", "top1", "top10"):
        assert m[key] == pytest.approx(1.0), key
    assert m["coherent"] == pytest.approx(4.0 / (14.0 / 3))  # ||mean||^2 / mean ||d||^2
    assert m["reach"] == pytest.approx(2 / 3)  # |d . a| / |a| <= eps |a| = 2: lengths 1 and 2
    assert m["edit_over_radius"] == pytest.approx(1.0)  # median length 2 over the radius 2


def test_edits_of_their_own_directions_are_not():
    n = 20
    d = 3.0 * np.eye(n)  # each pair its own direction
    a = np.zeros(n)
    a[0] = 1.0
    m = lassi_direction.edit_alignment(d, a, eps=1.0)
    assert m["along"] == pytest.approx(1 / n)
    assert m["cos"] == pytest.approx(1 / n)
    assert m["coherent"] == pytest.approx(1 / n)
    assert m["top1"] == pytest.approx(1 / n) and m["top10"] == pytest.approx(10 / n)
    assert m["reach"] == pytest.approx((n - 1) / n)  # all but the first (3 along a > eps |a|)
    assert m["edit_over_radius"] == pytest.approx(3.0)


def test_edits_against_the_vector_have_a_negative_cosine_and_zero_ones_are_left_out():
    a = np.array([1.0, 1.0])
    d = np.array([[-1.0, -1.0], [0.0, 0.0], [-2.0, -2.0]])
    m = lassi_direction.edit_alignment(d, a, eps=1.0)
    assert m["pairs"] == 2 and m["cos"] == pytest.approx(-1.0) and m["along"] == pytest.approx(1)
    with pytest.raises(ValueError, match="attribute vector is zero"):
        lassi_direction.edit_alignment(d, np.zeros(2), eps=1.0)


@pytest.mark.slow
def test_the_codes_contrast_edit_is_more_one_direction_than_the_texts_noise(tmp_path):
    """Two 3-epoch LASSI runs (2 of them the flow's) at 16 px: under roles="code" the test pairs'
    edits share one direction far more than under roles="paper" (per-image noise), and the
    groups' mean difference points the way they go. At the defaults' full length we measured
    coherence 0.38 against 0.03 and cosines 0.35 against 0.15 (benchmarks/README.md)."""
    from nhfair_jax.config import method_config
    from nhfair_jax.dispatch import run

    out = {}
    for roles in ("paper", "code"):
        c = tiny_config(**{"train.epochs": 3, "train.patience": 3, "data.image_size": 16,
                           "data.options.roles": roles})
        c.method = method_config("lassi", flow_fraction=0.6, cert_n=20, cert_n0=5, cert_skip=20)
        workdir = str(tmp_path / roles)
        run(c, workdir)
        edits, attr, eps = lassi_direction.run_edits(workdir)
        assert edits.shape == (len(edits), 16 * 16 * 3) and eps == 1.0
        out[roles] = lassi_direction.edit_alignment(edits, attr, eps)
    assert out["code"]["coherent"] > 3 * out["paper"]["coherent"], out
    assert out["code"]["cos"] > 0.2 and out["code"]["along"] > out["paper"]["along"], out


def test_edits_are_signed_from_group_0_to_group_1_and_unpaired_rows_left_out():
    from nhfair_jax.methods.lassi import pair_edits

    z = np.array([[0.0, 0.0], [5.0, 5.0], [1.0, 1.0], [9.0, 9.0]])
    z_cf = np.array([[1.0, 2.0], [4.0, 3.0], [7.0, 7.0], [0.0, 0.0]])
    groups = np.array([0, 1, 0, 1])
    edits = pair_edits(z, z_cf, groups, cf_mask=np.array([1, 1, 1, 0]))
    # row 0 (group 0): z_cf - z; row 1 (group 1): z - z_cf; row 3 has no counterfactual
    np.testing.assert_array_equal(edits, [[1.0, 2.0], [1.0, 2.0], [6.0, 6.0]])
    assert len(pair_edits(z, z_cf, groups)) == 4


def test_a_directory_that_is_not_a_lassi_run_is_refused_in_one_line(tmp_path):
    with pytest.raises(SystemExit, match="not a run directory"):
        lassi_direction.run_edits(str(tmp_path))
    (tmp_path / "config.json").write_text('{"method": {"name": "erm"}}')
    with pytest.raises(SystemExit, match="run of 'erm'"):
        lassi_direction.run_edits(str(tmp_path))


def test_latents_are_a_sources_rows_in_order_padding_left_out_and_the_asked_view():
    # LASSI.latents, which the attribute vector and this script read, through a stand-in of the
    # evaluator's batches: two batches of 4 rows, the last padded by 2; the "flow" doubles.
    import jax.numpy as jnp

    from nhfair_jax.config import method_config
    from nhfair_jax.methods.registry import get_method

    method = get_method(method_config("lassi"))
    method.encode = lambda params, images: jnp.reshape(images, (images.shape[0], -1)) * params
    views = {"image": np.arange(6, dtype=np.float32), "image_cf": -np.arange(6, dtype=np.float32)}

    def eval_batches(source, keys, image_key="image"):
        assert source == "train" and keys == ("image", "mask")
        rows = np.concatenate([views[image_key], [99.0, 99.0]]).reshape(8, 1, 1, 1)
        for start in (0, 4):
            mask = np.arange(start, start + 4) < 6
            yield {"mask": mask}, {"image": jnp.asarray(rows[start:start + 4])}

    z = method.latents(eval_batches, 2.0, "train")
    np.testing.assert_array_equal(z[:, 0], 2.0 * np.arange(6))
    z_cf = method.latents(eval_batches, 2.0, "train", "image_cf")
    np.testing.assert_array_equal(z_cf[:, 0], -2.0 * np.arange(6))
