"""What the command-line entry points share: running one config with its summary printed at the
end, flag parsing, and turning exceptions into one-line messages."""

from __future__ import annotations

import ast
import os
import re
import sys

from absl import flags

from nhfair_jax.errors import UserError
from nhfair_jax.metrics.direction import LEGEND, marked
from nhfair_jax.rundir import RunDir

# The package's modules that load JAX (config, dispatch, runtime) are imported inside the
# functions that need them: every command imports this module first, and `--help` or a config
# error answers before JAX is loaded.

SUMMARY_KEYS = ("acc", "worst_acc", "gap_acc", "dp", "eqodd", "auc")


def summary_table(result: dict) -> str:
    keys = [k for k in SUMMARY_KEYS if k in result["test"]]
    lines = ["split  " + "  ".join(f"{marked(k):>9}" for k in keys)]
    for split in ("val", "test"):
        vals = [result[split].get(k) for k in keys]
        lines.append(f"{split:<5}  " + "  ".join(
            f"{v:9.4f}" if isinstance(v, (int, float)) else f"{'n/a':>9}" for v in vals))
    groups = result.get("group_names") or []
    per_group = result["test"]["group_acc"]
    lines.append("test accuracy by group: " + ", ".join(
        f"{groups[i] if i < len(groups) else i}={v:.4f}" if v is not None else f"{i}=n/a"
        for i, v in enumerate(per_group)))
    lines.append(LEGEND)
    return "\n".join(lines)


def run_config(config, workdir: str, *, overwrite: bool = False) -> dict:
    """`nhfair_jax.run`: runs the config through nhfair_jax.dispatch.run (`overwrite`: deleting
    what the run directory holds first) and prints what happened and the summary."""
    from nhfair_jax.dispatch import run

    rundir = RunDir(workdir)
    finished = not overwrite and rundir.finished  # only for the message below
    result = run(config, rundir, overwrite=overwrite)
    if finished:
        print(f"{workdir} is already finished (use --overwrite to run it again)", file=sys.stderr)
    if result.get("zeroshot"):
        what = f"{result['zeroshot']['model']}, zero-shot"
        print(f"{config.method.name} ({what}) on {config.data.name}: run directory {workdir}")
    elif result.get("base_run"):
        print(f"{config.method.name} on {config.data.name}, fitted on {result['base_run']}: "
              f"run directory {workdir}")
    else:
        print(f"{config.method.name} on {config.data.name}: best epoch {result['best_epoch']} of "
              f"{result['epochs_run']}, run directory {workdir}")
    print(summary_table(result))
    return result


# Errors that come from what the user gave (a path, a column, a value, a setting): one line.
USER_ERRORS = (UserError, FileNotFoundError, NotImplementedError, ValueError)


def is_user_error(e: BaseException) -> bool:
    return isinstance(e, USER_ERRORS)


def describe_error(e: BaseException) -> str:
    if isinstance(e, (UserError, FileNotFoundError, NotImplementedError)):
        return str(e)
    if isinstance(e, ValueError):
        return f"{type(e).__name__}: {e}"
    return f"{type(e).__name__}: {e} (a bug? please report it with the command you ran and " \
           "the traceback above)"


def fail_with(e: BaseException) -> None:
    """Exits on an exception: one line for the user's mistakes; an internal error prints its
    traceback first, so that it can be reported and fixed."""
    if not is_user_error(e):
        import traceback

        traceback.print_exception(e, file=sys.stderr)
    fail(describe_error(e))


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def with_method_argument(argv: list[str]) -> list[str]:
    """`--config.method.name=X` on a config whose get_config takes an argument becomes
    `--config path:X`, so that the method's own hyperparameters exist (with their defaults) and
    can be overridden too (`--config.method.coef=2`). Other configs are left as they are; the
    run then fills the named method's defaults (nhfair_jax.config.complete_method)."""
    import inspect

    from nhfair_jax.config import load_config_module

    argv = list(argv)
    method = None
    for i, arg in enumerate(argv):
        if arg.startswith("--config.method.name="):
            method = arg.split("=", 1)[1]
        elif arg == "--config.method.name" and i + 1 < len(argv):
            method = argv[i + 1]
    if not method:
        return argv
    for i, arg in enumerate(argv):
        if arg.startswith("--config="):
            position, path = i, arg.split("=", 1)[1]
        elif arg == "--config" and i + 1 < len(argv):
            position, path = i + 1, argv[i + 1]
        else:
            continue
        if ":" in path or not os.path.exists(path):
            return argv
        try:
            takes_argument = bool(inspect.signature(load_config_module(path).get_config).parameters)
        except Exception:  # noqa: BLE001 - a broken config is reported by the real parse
            return argv
        if takes_argument:
            argv[position] = (f"--config={path}:{method}" if position == i else f"{path}:{method}")
        return argv
    return argv


_PRINT_CONFIG = flags.DEFINE_bool(
    "print_config", False, "Print the resolved config (every key, its value, and the default "
    "where an override changed it) and exit without running.")
_COMPILE_CACHE = flags.DEFINE_string(
    "compile_cache", None, "Folder of JAX's persistent compilation cache, or 'off'; default "
    "$NHFAIR_COMPILE_CACHE or ~/.cache/nhfair-jax (nhfair_jax/compile_cache.py).")


def parse_flags(argv):
    """absl flag parsing, with bad config overrides reported as one line naming the flag; the
    process's runtime settings (XLA flags, the compilation cache or --compile_cache) are applied
    here, before anything compiles (nhfair_jax/runtime.py)."""
    missing = missing_config_file(argv)
    if missing:
        fail(missing)
    try:
        parsed = flags.FLAGS(argv)
        if _PRINT_CONFIG.value:
            print_config(argv)
            sys.exit(0)
        from nhfair_jax import runtime

        runtime.setup(_COMPILE_CACHE.value)
        return parsed
    except UserError as e:  # a config file's get_config refused its argument or a setting
        fail(str(e))
    except flags.Error as e:
        root, first = root_cause(e), str(e).strip().splitlines()[0]
        overridden = re.match(r"flag --[\w-]+\.[\w.-]+=", first)  # an override's bad value
        if root is not e and not overridden and isinstance(
                root, (UserError, ValueError, KeyError, OSError)):
            # the config file raised it (its get_config refused its argument): its message only
            fail(f"--config: {str(root).strip().splitlines()[0]}")
        fail(f"{first}; see --helpfull")
    except (AttributeError, KeyError) as e:  # ml_collections: no such key
        fail_unknown_key(e, argv)
    except (TypeError, ValueError) as e:  # ml_collections: wrong type for the key
        fail(f"bad config override: {e}")


def root_cause(e: BaseException) -> BaseException:
    """The innermost exception that `e` was raised from (ml_collections wraps a config file's
    own error, with its traceback as text, in absl's flag error)."""
    seen = {id(e)}
    while (e.__cause__ or e.__context__) is not None and id(e.__cause__ or e.__context__) \
            not in seen:
        e = e.__cause__ or e.__context__
        seen.add(id(e))
    return e


def _config_arguments(argv) -> list[tuple[str, str]]:
    """(flag, value) of each `--config`-like flag naming a config file: `--config` and, for the
    commands with two, `--bench` and the like are all `--<name>=path[:arg]` with a .py path."""
    out = []
    for i, arg in enumerate(argv):
        if not arg.startswith("--") or "." in arg.split("=", 1)[0]:
            continue
        name, eq, value = arg.partition("=")
        if not eq and i + 1 < len(argv) and name == "--config":
            value = argv[i + 1]
        if name == "--config" or value.split(":", 1)[0].endswith(".py"):
            out.append((name, value))
    return out


def missing_config_file(argv) -> str | None:
    """One line when a config flag names a file that does not exist, else None."""
    for name, value in _config_arguments(argv):
        path = value.split(":", 1)[0]
        if path and not os.path.exists(path):
            folder = os.path.dirname(path) or "."
            near = sorted(f for f in os.listdir(folder) if f.endswith(".py")) \
                if os.path.isdir(folder) else []
            hint = f"; {folder}/ has {', '.join(near)}" if near else ""
            return f"{name} {path}: no such file{hint}"
    return None


def print_config(argv) -> None:
    """Prints the resolved config of the command's --config: one `key = value` line per key,
    with `(default: ...)` where a --config.key override changed the file's value."""
    from nhfair_jax.config import load_config_file

    value = dict(_config_arguments(argv)).get("--config")
    config = flags.FLAGS["config"].value if "config" in flags.FLAGS else None
    if config is None or value is None:
        fail("--print_config needs --config")
    print("\n".join(config_lines(config, load_config_file(value))))


def config_lines(config, defaults) -> list[str]:
    """`key = value` per key of `config`, with `(default: ...)` where it differs from
    `defaults` (the config file's own values)."""
    defaults = _flatten(defaults.to_dict())
    out = []
    for key, v in _flatten(config.to_dict()).items():
        changed = key not in defaults or defaults[key] != v
        out.append(f"{key} = {v!r}" + (f"  (default: {defaults.get(key)!r})" if changed else ""))
    return out


def _flatten(tree: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in tree.items():
        if isinstance(v, dict) and v:
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def fail_unknown_key(e: BaseException, argv) -> None:
    """Exits with one line naming the `--x.key` flag whose key ml_collections does not know."""
    text = str(e)
    try:  # ml_collections nests the KeyError, so its message arrives quoted
        text = ast.literal_eval(text) if text[:1] in "'\"" else text
    except (ValueError, SyntaxError):
        pass
    key, _, hint = str(text).partition("\n")
    key = key.strip("'\"")
    flag = next((a.split("=")[0] for a in argv if a.startswith("--") and "." in a.split("=")[0]
                 and key in a.split("=")[0].split(".")[1:]), f"config key {key!r}")
    fail(f"{flag}: no such config key{'; ' + hint if hint else ''}")


def define_config_dict(name: str, config, help_text: str):
    """config_flags.DEFINE_config_dict, whose `--name.key` overrides ml_collections applies as
    the flag is defined: a key it does not know is the same one-line error as parse_flags'."""
    from ml_collections import config_flags

    try:
        return config_flags.DEFINE_config_dict(name, config, help_text)
    except (AttributeError, KeyError) as e:
        fail_unknown_key(e, sys.argv)
