"""One training run from a Python config.

    python -m nhfair_jax.run --config configs/erm_digitsb.py --workdir runs/erm_digitsb \
        [--config.optim.lr=3e-4 ...] [--overwrite]
    python -m nhfair_jax.run --config configs/digitsb.py:mixup --workdir runs/mixup
    python -m nhfair_jax.run --config configs/dataset.py:celeba --config.method.name=gapreg ...

Running the same command again resumes an interrupted run; a finished run is not re-trained.
"""

from __future__ import annotations

import os
import sys

from absl import app, flags, logging
from ml_collections import config_flags

from nhfair_jax.cli import fail_with, parse_flags, run_config, with_method_argument
from nhfair_jax.config import complete_method

_CONFIG = config_flags.DEFINE_config_file("config", None, "Path to a configs/*.py file.",
                                          lock_config=True)
_WORKDIR = flags.DEFINE_string("workdir", None, "Run directory (created if missing).")
_OVERWRITE = flags.DEFINE_bool("overwrite", False, "Delete the run directory and start afresh.")


def main(argv) -> None:
    del argv

    logging.set_verbosity(logging.WARNING)
    try:
        config = _CONFIG.value
        complete_method(config)  # --config.method.name=X on a config made for another method
        workdir = _WORKDIR.value
        if not workdir:
            workdir = os.path.join("runs", "run")
            print(f"note: no --workdir given: the run directory is {workdir}", file=sys.stderr)
        run_config(config, workdir, overwrite=_OVERWRITE.value)
    except Exception as e:  # noqa: BLE001 - a mistake is one line, a bug its traceback
        fail_with(e)


if __name__ == "__main__":
    flags.mark_flags_as_required(["config"])
    app.run(main, flags_parser=lambda argv: parse_flags(with_method_argument(argv)))
