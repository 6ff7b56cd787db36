"""LVLM fairness evaluation from a Python config.

    python -m nhfair_jax.lvlm --config configs/lvlm.py:utkface_gender --workdir runs/utk_gender \
        --config.backend.name=openai --config.backend.url=http://127.0.0.1:8000/v1 \
        --config.backend.model=NAME --config.data.root=data/utkface

Running the same command again asks only the questions missing from the answer log. With
`--check`, up to `--check_n` questions already answered are asked again one at a time and the
answers that change are listed (check.json in the workdir). The command exits non-zero when
any question ended in error: it says how many, the figures leave them out (the report marks them
missing), and running the same command again asks only those. Ctrl-C stops the run with one
line saying what is kept.
"""

from __future__ import annotations

import os
import sys

from absl import app, flags, logging
from ml_collections import config_flags

from nhfair_jax.cli import fail, fail_with, parse_flags
from nhfair_jax.lvlm import answers as A
from nhfair_jax.lvlm.run import check, run

_CONFIG = config_flags.DEFINE_config_file("config", None,
                                          "configs/lvlm.py:TASK[,PROMPTS] (or another config "
                                          "file built with lvlm_config).", lock_config=True)
_WORKDIR = flags.DEFINE_string("workdir", None, "Run directory (created if missing).")
_OVERWRITE = flags.DEFINE_bool("overwrite", False, "Delete the run directory's answers first.")
_PROGRESS = flags.DEFINE_bool("progress", True, "Show a progress bar.")
_CHECK = flags.DEFINE_bool("check", False, "Ask answered questions again one at a time and "
                           "report the answers that change.")
_CHECK_N = flags.DEFINE_integer("check_n", 32, "How many answered questions --check asks.")


def _report_check(workdir: str, config) -> None:
    out = check(config, workdir, n=_CHECK_N.value)
    print(f"{len(out['changed'])} of {out['asked']} answer(s) changed when asked one at a time "
          f"(logged at batch size {out['batch_size']}, {out['model']})")
    for c in out["changed"]:
        print(f"  {c['id']}: {c['logged']!r} -> {c['now']!r}")
    print(f"wrote {os.path.join(workdir, 'check.json')}")


def main(argv) -> None:
    del argv

    logging.set_verbosity(logging.WARNING)
    workdir = ""
    try:
        config = _CONFIG.value
        workdir = _WORKDIR.value or os.path.join("runs", f"lvlm_{config.task}")
        if _CHECK.value:
            _report_check(workdir, config)
            return
        result = run(config, workdir, progress=_PROGRESS.value, overwrite=_OVERWRITE.value)
        counts = ", ".join(f"{k} {v}" for k, v in result["status_counts"].items())
        recall = ", ".join(f"{g} {v:.3f}" for g, v in result["recall"].items())
        gd = ", ".join(f"{p} {v:+.3f}" for p, v in result["gd"].items()) or "n/a"
        print(f"{result['task']} ({result['prompts'][0]}) with {result['model']}: "
              f"asked {result['asked_this_run']} question(s) this run; statuses: {counts}; "
              f"truncated {result['truncated']['count']}")
        print(f"recall: {recall}; GD: {gd}")
        for warning in result["warnings"]:
            print(f"warning: {warning}")
        print(f"wrote {os.path.join(workdir, 'metrics.json')} and report.md")
    except KeyboardInterrupt:
        print(f"error: {_interrupted(workdir)}", file=sys.stderr)
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - a mistake is one line, a bug its traceback
        fail_with(e)
    line = failure_line(result, config, workdir)
    if line:
        fail(line)


def failure_line(result: dict, config, workdir: str) -> str | None:
    """Why a finished run still fails (some answers ended in error), or None."""
    log = os.path.join(workdir, "answers.jsonl")
    if result["all_errors"]:
        return (f"every question ({result['questions']}) ended in error, the first with: "
                f"{result['first_error']}; the answers are kept in {log}")
    if result["errors"]:
        again = ("run the same command again" if config.decoding.retry_errors else
                 "run the same command again with --config.decoding.retry_errors=True")
        return (f"{result['errors']} of {result['questions']} question(s) ended in error (the "
                f"first with: {result['first_error']}); the metrics leave them out and the "
                f"report marks them missing; {again} to ask only those {result['errors']}")
    return None


def _interrupted(workdir: str) -> str:
    """The line Ctrl-C prints: what the answer log keeps and how to go on."""
    import warnings

    log = os.path.join(workdir, "answers.jsonl")
    if not workdir or not os.path.exists(log):
        return "interrupted before any answer was logged; nothing is kept"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept = len(A.read(log))
    return (f"interrupted: {kept} answer(s) are kept in {log} (the batch in flight is lost); "
            "run the same command again to ask only the questions still missing")


if __name__ == "__main__":
    flags.mark_flags_as_required(["config"])
    app.run(main, flags_parser=parse_flags)
