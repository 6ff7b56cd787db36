"""python -m nhfair_jax.report --workdir runs/bench: rebuilds the report from run directories."""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m nhfair_jax.report", description=__doc__)
    p.add_argument("--workdir", required=True, help="the benchmark directory")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    a = p.parse_args(argv)
    from nhfair_jax.report import build_report

    try:
        out = build_report(a.workdir, plots=not a.no_plots)
    except (FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(out["markdown"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
