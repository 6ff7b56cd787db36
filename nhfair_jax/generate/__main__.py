"""Counterfactual images for your own data, edited by a local diffusion editor:

    python -m nhfair_jax.generate --config configs/generate.py:celeba_ip2p --workdir runs/cf_celeba

The command over `nhfair_jax.generate.generate` (the library: importing it defines no flags).
A rerun generates only what is missing."""

from __future__ import annotations

import sys

from absl import app, flags
from ml_collections import config_flags

from nhfair_jax.cli import fail_with, parse_flags
from nhfair_jax.generate import generate

_CONFIG = config_flags.DEFINE_config_file("config", None, "A configs/generate.py file.",
                                          lock_config=True)
_WORKDIR = flags.DEFINE_string("workdir", None, "Output folder (created if missing).")
_OVERWRITE = flags.DEFINE_bool("overwrite", False, "Delete the folder's images first.")


def main(argv) -> None:
    del argv
    try:
        s = generate(_CONFIG.value, _WORKDIR.value, overwrite=_OVERWRITE.value)
    except KeyboardInterrupt:
        print("interrupted; the same command continues where it stopped", file=sys.stderr)
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - a mistake is one line, a bug its traceback
        fail_with(e)
    rate = f", {s['images_per_second']} images/s" if s["images_per_second"] else ""
    print(f"{s['generated']} edited, {s['already_there']} already there{rate}; "
          f"{_WORKDIR.value}/pairs.csv has {s['pairs']} pairs ({s['kept']} kept); review "
          f"{_WORKDIR.value}/contact_sheet.html")


if __name__ == "__main__":
    flags.mark_flags_as_required(["config", "workdir"])
    app.run(main, flags_parser=parse_flags)
