"""What the command-line entry points share: the run directory's config guard, the summary
printed at the end, and turning exceptions into one-line messages."""

from __future__ import annotations

import ast
import json
import os
import shutil
import sys

from absl import flags

from nhfair_jax.errors import UserError
from nhfair_jax.training import io

SUMMARY_KEYS = ("acc", "worst_acc", "gap_acc", "dp", "eqodd", "auc")
# Settings that do not change a run's numbers: resuming with another value is fine.
PRESENTATION_KEYS = ("train.progress", "train.prefetch")


def config_to_json(config) -> dict:
    return json.loads(json.dumps(io.to_json_safe(config.to_dict())))


def _diff(old: dict, new: dict, prefix: str = "") -> list[str]:
    keys = sorted(set(old) | set(new))
    out = []
    for k in keys:
        a, b = old.get(k), new.get(k)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _diff(a, b, f"{prefix}{k}.")
        elif a != b:
            out.append(f"{prefix}{k}")
    return out


def prepare_workdir(workdir: str, config, *, overwrite: bool = False) -> None:
    """Creates the run directory, or checks that it belongs to this config; writes config.json.

    Raises:
      UserError: the directory cannot be written, or holds a run of another config.
    """
    config_path = os.path.join(workdir, "config.json")
    if overwrite and os.path.isdir(workdir):
        if os.listdir(workdir) and not os.path.exists(config_path):
            raise UserError(f"--overwrite refuses to delete {workdir}: it is not a run directory "
                            "(no config.json)")
        shutil.rmtree(workdir)
    try:
        os.makedirs(workdir, exist_ok=True)
        # A name of its own: workers preparing the same directory must not remove each other's.
        probe = os.path.join(workdir, f".write_probe.{os.getpid()}.{os.urandom(4).hex()}")
        with open(probe, "w") as f:
            f.write("ok")
        test_pause("write_probe")
        os.remove(probe)
    except OSError as e:
        raise UserError(f"cannot write to workdir {workdir}: {e.strerror or e}; choose another "
                        "--workdir") from e
    resolved = config_to_json(config)
    if os.path.exists(config_path):
        stored = io.read_json(config_path)
        changed = [k for k in _diff(stored, resolved) if k not in PRESENTATION_KEYS]
        if not changed:
            return
        if has_started(workdir):
            raise UserError(f"{workdir} holds a run of a different config (differs in: "
                            f"{', '.join(changed[:6])}); use --overwrite or another --workdir")
        # Only the config of a start that failed (bad data path, wrong column): nothing to lose.
        print(f"note: {workdir} held no trained epoch; it now belongs to this config (changed: "
              f"{', '.join(changed[:6])})", file=sys.stderr)
    io.write_json(config_path, resolved)


# What a run directory holds once training has produced something worth protecting.
_STARTED_MARKERS = ("result.json", "predictions_val.npz", "predictions_test.npz")


def has_started(workdir: str) -> bool:
    """Whether a run directory holds a finished epoch, a checkpoint or a result.

    A directory with only config.json (a start that failed before the first epoch ended) has not
    started, and a corrected config may take it over.
    """
    if any(os.path.exists(os.path.join(workdir, name)) for name in _STARTED_MARKERS):
        return True
    log = os.path.join(workdir, "log.jsonl")
    if os.path.exists(log) and os.path.getsize(log) > 0:
        return True
    checkpoints = os.path.join(workdir, "checkpoints")
    return os.path.isdir(checkpoints) and bool(os.listdir(checkpoints))


def summary_table(result: dict) -> str:
    keys = [k for k in SUMMARY_KEYS if k in result["test"]]
    lines = ["split  " + "  ".join(f"{k:>9}" for k in keys)]
    for split in ("val", "test"):
        vals = [result[split].get(k) for k in keys]
        lines.append(f"{split:<5}  " + "  ".join(
            f"{v:9.4f}" if isinstance(v, (int, float)) else f"{'n/a':>9}" for v in vals))
    groups = result.get("group_names") or []
    per_group = result["test"]["group_acc"]
    lines.append("test accuracy by group: " + ", ".join(
        f"{groups[i] if i < len(groups) else i}={v:.4f}" if v is not None else f"{i}=n/a"
        for i, v in enumerate(per_group)))
    return "\n".join(lines)


def run_config(config, workdir: str) -> dict:
    from nhfair_jax.training import train_and_evaluate
    from nhfair_jax.zeroshot import is_zeroshot

    finished = os.path.exists(os.path.join(workdir, "result.json"))
    if is_zeroshot(config):  # evaluated, not trained (CLIP, BLIP-2, FairerCLIP, SFID)
        from nhfair_jax.zeroshot.evaluate import evaluate_zeroshot

        result = evaluate_zeroshot(config, workdir)
        print(f"{config.method.name} ({config.model.name}, zero-shot) on {config.data.name}"
              f"{' (already finished)' if finished else ''}: run directory {workdir}")
        print(summary_table(result))
        return result
    result = train_and_evaluate(config, workdir)
    if finished:
        print(f"{workdir} is already finished (use --overwrite to train again)", file=sys.stderr)
    print(f"{config.method.name} on {config.data.name}: best epoch {result['best_epoch']} of "
          f"{result['epochs_run']}, run directory {workdir}")
    print(summary_table(result))
    return result


def test_pause(point: str) -> None:
    """Test hook: sleeps at a named point where concurrent workers could race.

    NHFAIR_TEST_PAUSE="point=seconds,..." (unset in normal use) widens those windows so that the
    tests of several benchmark workers would show a race there; see tests/test_workers.py.
    """
    spec = os.environ.get("NHFAIR_TEST_PAUSE")
    if not spec:
        return
    for item in spec.split(","):
        name, _, seconds = item.partition("=")
        if name.strip() == point:
            import time

            time.sleep(float(seconds))


def describe_error(e: BaseException) -> str:
    if isinstance(e, (UserError, FileNotFoundError, NotImplementedError)):
        return str(e)
    if isinstance(e, (ValueError, KeyError, TypeError, AttributeError)):
        return f"{type(e).__name__}: {e}"
    return f"{type(e).__name__}: {e} (a bug? please report it with the command you ran)"


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def parse_flags(argv):
    """absl flag parsing, with bad config overrides reported as one line naming the flag."""
    try:
        return flags.FLAGS(argv)
    except flags.Error as e:
        fail(f"{e}; see --helpfull")
    except (AttributeError, KeyError) as e:  # ml_collections: no such key
        text = str(e)
        try:  # ml_collections nests the KeyError, so its message arrives quoted
            text = ast.literal_eval(text) if text[:1] in "'\"" else text
        except (ValueError, SyntaxError):
            pass
        key, _, hint = str(text).partition("\n")
        key = key.strip("'\"")
        flag = next((a.split("=")[0] for a in argv if a.startswith("--config.")
                     and key in a.split("=")[0].split(".")[1:]), f"config key {key!r}")
        fail(f"{flag}: no such config key{'; ' + hint if hint else ''}")
    except (TypeError, ValueError) as e:  # ml_collections: wrong type for the key
        fail(f"bad config override: {e}")


