"""python -m nhfair_jax.report --workdir runs/bench: rebuilds the report from run directories."""

from __future__ import annotations

import argparse
import sys

from nhfair_jax import runtime
from nhfair_jax.errors import UserError
from nhfair_jax.report import build_report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m nhfair_jax.report", description=__doc__)
    p.add_argument("--workdir", required=True, help="the benchmark directory")
    p.add_argument("--no_plots", "--no-plots", action="store_true", help="tables only")
    p.add_argument("--percent", action="store_true", default=None,
                   help="tables in percent with one decimal (default: the benchmark config's "
                        "report_percent, else fractions); results.csv keeps fractions")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for the test intervals (0: none)")
    a = p.parse_args(argv)

    runtime.setup()
    if a.bootstrap < 0:
        p.error(f"--bootstrap must be 0 or more, got {a.bootstrap}")

    try:
        out = build_report(a.workdir, plots=not a.no_plots, percent=a.percent,
                           bootstrap=a.bootstrap)
    except (UserError, ValueError) as e:  # ValueError: unusable results (NaN group utilities)
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(out["markdown"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
