"""One training run from a Python config.

    python -m nhfair_jax.run --config configs/erm_digitsb.py --workdir runs/erm_digitsb \
        [--config.optim.lr=3e-4 ...] [--overwrite]

Running the same command again resumes an interrupted run; a finished run is not re-trained.
"""

from __future__ import annotations

import os

from absl import app, flags, logging
from ml_collections import config_flags

from nhfair_jax.cli import fail as _fail, parse_flags

_CONFIG = config_flags.DEFINE_config_file("config", None, "Path to a configs/*.py file.",
                                          lock_config=True)
_WORKDIR = flags.DEFINE_string("workdir", None, "Run directory (created if missing).")
_OVERWRITE = flags.DEFINE_bool("overwrite", False, "Delete the run directory and start afresh.")


def main(argv) -> None:
    del argv
    from nhfair_jax.cli import prepare_workdir, run_config

    logging.set_verbosity(logging.WARNING)
    try:
        config = _CONFIG.value
        workdir = _WORKDIR.value or os.path.join("runs", "run")
        prepare_workdir(workdir, config, overwrite=_OVERWRITE.value)
        run_config(config, workdir)
    except Exception as e:  # noqa: BLE001 - every failure reaches the user as one line
        from nhfair_jax.cli import describe_error

        _fail(describe_error(e))


if __name__ == "__main__":
    flags.mark_flags_as_required(["config"])
    app.run(main, flags_parser=parse_flags)
