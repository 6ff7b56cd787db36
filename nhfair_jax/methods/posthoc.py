"""What post-fit methods (DFR, OxonFair) share: the ERM run they are fitted on.

A post-fit method reads the ERM run directory named in its config, training it first from the
ERM config it names when it does not exist yet, and returns {split: (rows, logits)} from its
`fit_after` hook; training/postfit.py writes the run directory with the usual contract.
"""

from __future__ import annotations

import importlib.util
import os

from nhfair_jax.methods.erm import ERM


def load_config_file(path: str):
    """get_config() of a configs/*.py file, or the config.json of a run directory."""
    if not os.path.exists(path):
        where = "" if os.path.isabs(path) else f" (relative to the current directory {os.getcwd()})"
        raise FileNotFoundError(f"config file not found: {path}{where}; run from the repository "
                                "root or give method.base_config as an absolute path")
    if path.endswith(".json"):  # a run directory's config.json (the benchmark's selection)
        import json

        import ml_collections

        with open(path) as f:
            return ml_collections.ConfigDict(json.load(f))
    spec = importlib.util.spec_from_file_location("base_config", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.get_config()


class PostFitMethod(ERM):
    """Base of post-fit methods: `method.base_config` and `method.base_workdir` name the ERM
    run; subclasses implement fit_after(run, state, seed) -> {split: (rows, logits)}."""

    post_fit = True
    base_defaults = {"base_config": "configs/erm_digitsb.py", "base_workdir": "runs/erm_digitsb"}
    tuned = None  # what the fit chose, recorded in result.json

    def base_run(self):
        """(base config, base run directory), training the ERM run first when it is missing."""
        from nhfair_jax.cli import prepare_workdir
        from nhfair_jax.training import train_and_evaluate

        base = load_config_file(self.cfg.base_config)
        if base.method.name != "erm":
            raise ValueError(f"method.base_config must be an ERM config, {self.cfg.base_config} "
                             f"trains {base.method.name!r}")
        prepare_workdir(self.cfg.base_workdir, base)
        train_and_evaluate(base, self.cfg.base_workdir)
        return base, self.cfg.base_workdir

    def fit_after(self, run, state, seed):
        raise NotImplementedError
