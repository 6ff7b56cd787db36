"""How much of a data set's counterfactual edit LASSI's one attribute vector can reach, measured
in the flow of finished LASSI runs.

    python benchmarks/lassi_direction.py --run paper=runs/if_defaults/lassi_0 \
        --run code=runs/if_defaults_code/lassi_0 --json benchmarks/results/lassi_direction.json

LASSI smooths its classifier along one vector a of its flow's latent space (the groups' mean
difference): the similar individuals of x are G(E(x) + t a), |t| <= eps. A counterfactual pair
(x, x') of the test split moves the latent by d = E(x') - E(x) (signed from group 0 to group 1).
For each run (its best checkpoint's flow and attribute vector), over the test split's pairs:

- along: the mean share of an edit's squared length that lies along a, mean cos^2(d, a); the
  part of the edit the attack can reach at all;
- cos: the mean signed cosine of d and a (positive: a points the way the edits go);
- coherent: ||mean d||^2 / mean ||d||^2, how much the edits share one direction (1: every pair
  moves the same way; about 1/pairs: directions of their own);
- top1, top10: the share of the edits' energy in their first 1 and 10 singular directions (the
  most any 1 or 10 fixed directions could reach);
- reach: the share of pairs whose move along a, |d . a| / ||a||, is within the attack's radius
  eps ||a||; and |d| / (eps |a|), the edit's length over that radius (median).
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import print_table, write_json  # noqa: E402


def edit_alignment(d: np.ndarray, attr: np.ndarray, eps: float) -> dict:
    """The measures of the module docstring for edits d [N, D] (signed group 0 -> 1) and the
    attribute vector attr [D] at the attack's eps."""
    d = np.asarray(d, np.float64)
    attr = np.asarray(attr, np.float64)
    norm_a = float(np.linalg.norm(attr))
    if norm_a == 0:
        raise ValueError("the attribute vector is zero (a run stopped before its flow's epochs "
                         "ended has none)")
    unit = attr / norm_a
    lengths = np.linalg.norm(d, axis=1)
    keep = lengths > 0
    d, lengths = d[keep], lengths[keep]
    proj = d @ unit
    cos = proj / lengths
    energy = (lengths ** 2).sum()
    sv = np.linalg.svd(d, compute_uv=False) ** 2
    return {"pairs": int(len(d)), "along": float((cos ** 2).mean()), "cos": float(cos.mean()),
            "coherent": float((np.linalg.norm(d.mean(0)) ** 2) / (lengths ** 2).mean()),
            "top1": float(sv[:1].sum() / energy), "top10": float(sv[:10].sum() / energy),
            "reach": float((np.abs(proj) <= eps * norm_a).mean()),
            "edit_over_radius": float(np.median(lengths / (eps * norm_a)))}


def run_edits(run_dir: str):
    """(edits [N, D] signed group 0 -> 1, attribute vector [D], eps) of the test split's
    counterfactual pairs in the flow of the LASSI run `run_dir`'s best checkpoint."""
    import jax

    from nhfair_jax.config import load_config_file
    from nhfair_jax.methods.lassi import pair_edits
    from nhfair_jax.training.setup import restore_best

    if not os.path.isfile(os.path.join(run_dir, "config.json")):
        raise SystemExit(f"{run_dir} is not a run directory (no config.json); give a finished "
                         "LASSI run's workdir")
    config = load_config_file(os.path.join(run_dir, "config.json"))
    if config.method.name != "lassi":
        raise SystemExit(f"{run_dir} is a run of {config.method.name!r}; this measures LASSI's "
                         "flow: give a LASSI run's workdir")
    evaluator, state = restore_best(config, run_dir)
    method, source = evaluator.method, evaluator.sources["test"]
    if "image_cf" not in source.extras:
        raise SystemExit(f"{run_dir}: the test split has no counterfactual images (image_cf)")
    state = jax.device_get(state)
    z, z_cf = (method.latents(evaluator.eval_batches, state.params["flow"], source, key)
               for key in ("image", "image_cf"))
    edits = pair_edits(np.asarray(z, np.float64), np.asarray(z_cf, np.float64), source.groups,
                       source.extras.get("cf_mask"))  # signed group 0 -> 1, paired rows
    return edits, np.asarray(state.method_state["attr"]), float(config.method.eps)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", action="append", required=True, metavar="LABEL=RUN_DIR",
                   help="a finished LASSI run directory, under a label (repeatable)")
    p.add_argument("--json")
    args = p.parse_args(argv)
    rows = []
    for item in args.run:
        label, _, run_dir = item.partition("=")
        if not run_dir:
            raise SystemExit(f"--run takes LABEL=RUN_DIR, got {item!r}")
        edits, attr, eps = run_edits(run_dir)
        rows.append({"run": label, **edit_alignment(edits, attr, eps)})
    print_table(rows, ["run", "pairs", "along", "cos", "coherent", "top1", "top10", "reach",
                       "edit_over_radius"])
    write_json(args.json, {"runs": rows})


if __name__ == "__main__":
    main()
