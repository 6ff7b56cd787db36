"""What every config value may be, declared once, and the one check of a whole resolved config.

Each command checks its config here before it writes anything: a run (`check_run`, from
nhfair_jax.dispatch.run), a benchmark, the training-choice and counterfactual studies, the
overhead benchmark, an LVLM evaluation and image generation (`check_config(config, SCHEMA)`).
A bad value is one line naming the key, the value and what is allowed:

    bad config value train.batch_size=-4: allowed an integer >= 1

A schema is {dotted key pattern: rule}; a `*` segment matches any one key (a data set's label,
a method's name). Keys that no rule names (a hyperparameter of a method outside the package) are
checked against the type of the method's default only. Names that a module of its own already
checks when it is built (a method's `objective`, a data loader's options) are checked by
building it: `check_run` builds the method (nhfair_jax.methods.get_method).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from nhfair_jax.config_rules import (
    COUNT,
    NONNEG,
    NONNEG_INT,
    POSITIVE,
    PROB,
    ConfigError,
    Either,
    Flag,
    Int,
    Nothing,
    OneOf,
    Real,
    Seq,
    Text,
    is_num,
)
from nhfair_jax.data import known_datasets
from nhfair_jax.errors import UserError
from nhfair_jax.methods import get_method, registered, spec
from nhfair_jax.models import known_models


def _names(module: str, attr: str):
    """The names a module already defines (imported when a value is checked)."""

    def known():
        import importlib

        return importlib.import_module(f"nhfair_jax.{module}").__dict__[attr]

    return known


def _datasets():
    return known_datasets()


def _methods():
    return registered()


def _models():
    return (*known_models(), "clip", "blip2")  # the last two: zero-shot runs


DTYPES = ("auto", "float32", "bfloat16", "float16")
SEED = NONNEG_INT
NAME_OR_EMPTY = Text()  # free-form names a loader checks against its files (columns)

# --- a run (nhfair_jax/config.py; a zero-shot run's model keys: nhfair_jax/zeroshot/config.py)

DATA_OPTIONS = {  # the loaders' options (data.options.*)
    "skew": PROB, "alpha": PROB, "eval_skew": Either((PROB, Nothing())), "build_seed": SEED,
    "noise_std": NONNEG, "contrast": PROB, "noncurated": PROB,
    "noise_pattern": OneOf(_names("data.biased", "NOISE_PATTERNS")),
    "split": OneOf(_names("data.digitsb", "SPLITS_TEN_CLASS")),
    "val_fraction": Real(0.0, 1.0, lo_open=True, hi_open=True),
    "partition": OneOf(("random", "official")), "crop": Flag(), "include_bcc": Flag(),
    "image_col": Text(), "split_col": Text(),
    "roles": OneOf(_names("data.biased", "ROLES")),
}

RUN = {
    "seed": SEED,
    "data.name": OneOf(_datasets), "data.root": Text(), "data.split_seed": SEED,
    "data.image_size": COUNT, "data.mean": Seq(PROB, 1), "data.std": Seq(POSITIVE, 1),
    "data.target": NAME_OR_EMPTY, "data.sensitive": NAME_OR_EMPTY, "data.cache_dir": Text(),
    "data.on_bad_image": OneOf(_names("data.store", "BAD_IMAGE_MODES")),
    "data.counterfactuals": Text(),
    **{f"data.options.{k}": rule for k, rule in DATA_OPTIONS.items()},
    "model.name": OneOf(_models), "model.pretrained_path": Text(),
    "model.cnn_widths": Seq(COUNT, 1),
    "model.conv_impl": OneOf(_names("models.layers", "CONV_IMPLS")),
    "model.path": Text(), "model.batch_size": COUNT, "model.device": Text(),
    "model.dtype": OneOf(DTYPES), "model.embedding_cache": Text(),
    "model.logit_scale": NONNEG,  # 0: the checkpoint's own
    "optim.name": OneOf(_names("training.optim", "OPTIMIZERS")), "optim.lr": POSITIVE,
    "optim.momentum": Real(0.0, 1.0, hi_open=True), "optim.weight_decay": NONNEG,
    "optim.wd_mode": OneOf(_names("training.optim", "WEIGHT_DECAY_MODES")),
    "optim.schedule": OneOf(_names("training.optim", "SCHEDULES")),
    "optim.step_epochs": COUNT, "optim.gamma": Real(0.0, 1.0, lo_open=True),
    "train.epochs": COUNT, "train.batch_size": COUNT, "train.eval_batch_size": COUNT,
    "train.patience": COUNT, "train.monitor": OneOf(_names("training.loop", "MONITORS")),
    "train.flip": Flag(), "train.randaugment": Flag(),
    "train.augment_on": OneOf(("auto", "host", "device")), "train.prefetch": NONNEG_INT,
    "train.progress": Flag(), "train.sampling": OneOf(_names("methods.groups", "SAMPLINGS")),
    "method.name": OneOf(_methods),
    "eval.utility": OneOf(_names("metrics.report", "UTILITIES")), "eval.cf_pairs": Text(),
    "eval.gflip_pairs": Text(),
}

# A method's hyperparameters (config.method.*) by name, or by "method.name" where one name means
# different things in two methods. Names that the method checks when it is built (gapreg's
# objective is checked here, dfr's penalty by dfr) are left to it.
METHOD = {
    "lam": NONNEG, "mu": NONNEG, "coef": NONNEG, "eta": NONNEG, "rho": NONNEG,
    "temperature": POSITIVE, "cf_lambda": NONNEG,
    "cf": OneOf(("", "none", "aug", "cp")), "cf_rep": OneOf(("logits", "features")),
    "rep": OneOf(("logits", "features")), "ce_on": OneOf(("both", "original")),
    "teacher_config": Text(), "teacher_workdir": Text(), "base_config": Text(),
    "base_workdir": Text(), "prompt_file": Text(), "prompts": Seq(Text()),
    # mixup's Beta(alpha, alpha); GroupDRO-BTL's worst fraction and its EMA rate
    "mixup.alpha": POSITIVE, "groupdro.alpha": Real(0.0, 1.0, lo_open=True),
    "groupdro.gamma": Real(0.0, 1.0, lo_open=True),
    "step_size": POSITIVE, "adjustment": NONNEG, "balanced_sampling": Flag(),
    "groups": Text(), "variant": Text(),
    "bias_mimicking.mode": OneOf(("none", "us", "uw", "os")), "normalize_head": Flag(),
    "resampling.mode": OneOf(("group", "group_x_class")), "ss.mode": Text(),
    "gapreg.objective": OneOf(("dp", "eop", "eod")), "oxonfair.objective": Text(),
    "constraint": Text(), "tolerance": NONNEG,
    "label_ratio": Real(0.0, 1.0, lo_open=True), "warmup_epochs": NONNEG_INT,
    "budget": POSITIVE, "scan": POSITIVE, "round_every": COUNT, "max_rounds": NONNEG_INT,
    "scoring": Text(), "memory_mb": NONNEG, "pool_labels": Text(),
    "group_norm": Flag(), "contrastive_fraction": PROB, "proj_dim": COUNT,
    "num_ops": NONNEG_INT, "magnitude": Int(0, 10), "linear_features": Text(),
    "class_coef": NONNEG, "fair_coef": NONNEG, "adv_lr": POSITIVE, "adv_steps": COUNT,
    "adv_hidden": COUNT,
    "adv_weight": NONNEG, "cls_weight": NONNEG, "recon_weight": NONNEG, "lassi.eps": POSITIVE,
    "delta": NONNEG, "attack_samples": COUNT, "flow_fraction": Real(0.0, 1.0, hi_open=True),
    "flow_epochs": NONNEG_INT,
    "flow_levels": COUNT, "flow_steps": COUNT, "flow_hidden": COUNT, "flow_lr": POSITIVE,
    "dequant": NONNEG, "cert_sigmas": Seq(POSITIVE, 1),
    "cert_alpha": Real(0.0, 1.0, lo_open=True, hi_open=True), "cert_n": COUNT,
    "cert_n0": COUNT, "cert_skip": COUNT, "attr_from": Text(),
    "epochs_per_round": COUNT, "num_probes": COUNT, "sigma": POSITIVE,
    "sensei.eps": POSITIVE, "steps": COUNT, "fit_rows": COUNT, "fit_C": POSITIVE,
    "threshold": PROB, "n_pruned": NONNEG_INT, "n_estimators": COUNT,
    "labels": Text(), "iters": COUNT, "tau_i": NONNEG, "tau_z_i": NONNEG,
    "tau_t": NONNEG, "tau_z_t": NONNEG, "gamma_i": NONNEG, "gamma_t": NONNEG,
    "rff_dim": COUNT, "sigma_rows": COUNT, "dim_z": COUNT, "head": Text(),
    "penalty": Text(), "c_grid": Seq(POSITIVE, 1), "tune_class_weights": Flag(),
    "class_weight_grid": Seq(POSITIVE, 1), "add_train": Flag(), "retrains": COUNT,
    "balance": Text(), "workers": NONNEG_INT, "combination": Text(),
}


@dataclass(frozen=True)
class Hyper:
    """A method's hyperparameter inside a study config (grid: a tuple of its values). The
    method is the key's segment `segment`, or the value at `method_key` (its `{i}` filled with
    the key's segment i)."""

    segment: int | None = None
    method_key: str = ""
    grid: bool = False

    def rule(self, parts: list, flat: dict):
        method = parts[self.segment] if self.segment is not None else flat.get(
            self.method_key.format(*parts))
        rule = method_rule(method, parts[-1])
        return Seq(rule, 1) if rule is not None and self.grid else rule


def method_rule(method: str | None, key: str):
    """The rule of hyperparameter `key` of `method` (None: a method not known here)."""
    return METHOD.get(f"{method}.{key}") or METHOD.get(key)


def nested(prefix: str, schema: dict) -> dict:
    """`schema` under `prefix.` (a run config's keys inside a study's overrides)."""
    return {f"{prefix}.{k}": rule for k, rule in schema.items()}


RUN_WITH_METHOD = {**RUN, **{f"method.{k}": r for k, r in METHOD.items() if "." not in k}}

# --- sweeps and studies --------------------------------------------------------------------

_SEEDS = Seq(SEED, 1)
_DATASET_ENTRY = {"datasets.*.config": Text(), "datasets.*.skip_methods": Seq(OneOf(_methods)),
                  **nested("datasets.*.overrides", RUN_WITH_METHOD)}

BENCHMARK = {
    **_DATASET_ENTRY, "methods": Seq(OneOf(_methods), 1), "trials": COUNT,
    "trials_per_method.*": COUNT, "startup_trials": NONNEG_INT, "seeds": _SEEDS,
    "objective": OneOf(lambda: tuple(_names("sweep.runner", "OBJECTIVES")())),
    "prune": Either((OneOf(_names("sweep.runner", "PRUNERS")), OneOf(("",)))),
    "sampler_seed": SEED, "heartbeat_s": POSITIVE, "grace_s": POSITIVE, "progress": Flag(),
    "report_percent": Flag(), "splits": OneOf(("per_seed", "fixed")),
    **nested("overrides", RUN_WITH_METHOD), **nested("method_overrides.*", RUN_WITH_METHOD),
}

CHOICES = {
    **_DATASET_ENTRY, "base_workdir": Text(), **nested("overrides", RUN_WITH_METHOD),
    **nested("base_params", RUN_WITH_METHOD), "seeds": Seq(SEED),  # empty: Study's message
    "choices.optimizer.*": Seq(POSITIVE), "choices.batch_size": Seq(COUNT),
    "choices.weight_decay.*": Seq(NONNEG), "choices.pretrained": Seq(Flag()),
    "choices.depth": Seq(Either((Seq(COUNT, 1), OneOf(_models)))),
    "choices.randaugment": Seq(Flag()), "methods": Seq(Text()),  # names: plan()'s message
    "method_datasets": Seq(Text()), "method_params.*.*": Hyper(segment=1),
    "pretrained_paths.*": Text(),
    "report_percent": Flag(),
}

CF_STUDY = {
    "name": Text(), "study": OneOf(_names("study.cf_tables", "STUDIES")),
    **nested("base", RUN_WITH_METHOD), "alphas": Seq(PROB), "seeds": _SEEDS,
    "rows": Seq(Text(), 1), "row.*.label": Text(), "row.*.method": OneOf(_methods),
    "row.*.cf": OneOf(("", "aug", "cp")), "row.*.select": OneOf(_names("study.cf_tables",
                                                                        "SELECT")),
    "row.*.teacher": Text(), "row.*.params_from": Text(),
    "row.*.params.*": Hyper(method_key="row.{1}.method"),
    "row.*.grid.*": Hyper(method_key="row.{1}.method", grid=True),
    **{f"row.*.data.{k}": rule for k, rule in DATA_OPTIONS.items()},  # a row's data.options
    **{f"row.*.{k}": rule for k, rule in RUN.items() if k.startswith("train.")},  # its train.*
    "reference": Text(), "acc_ratio": Real(0.0, 1.0, lo_open=True),
    "cd_metric": OneOf(("cd", "cd_balanced")), "table_alpha": PROB, "data_per_seed": Flag(),
}

OVERHEAD = {"config": Text(), "erm_every": COUNT, "methods": Seq(OneOf(_methods)),
            "repeats": COUNT, "seed": SEED, **nested("overrides", RUN_WITH_METHOD),
            **nested("method_overrides.*", RUN_WITH_METHOD)}

# --- LVLM evaluation (nhfair_jax/lvlm/config.py) and image generation (nhfair_jax/generate/)

LVLM = {
    "seed": SEED, "task": OneOf(lambda: tuple(_names("lvlm.tasks", "TASKS")())),
    "prompts": Text(), "shuffle_classes": Flag(),
    "data.root": Text(), "data.split": OneOf(("train", "val", "test", "all")),
    "data.split_seed": SEED, "data.limit": NONNEG_INT, "data.sensitive": NAME_OR_EMPTY,
    "data.persons": OneOf(_names("lvlm.data", "PERSONS")),
    **{f"data.options.{k}": rule for k, rule in DATA_OPTIONS.items()},
    "backend.name": OneOf(_names("lvlm.backends", "BACKENDS")), "backend.url": Text(),
    "backend.model": Text(), "backend.api_key_env": Text(), "backend.concurrency": COUNT,
    "backend.timeout_s": POSITIVE, "backend.retries": NONNEG_INT, "backend.backoff_s": NONNEG,
    "backend.max_retry_after_s": NONNEG,
    "backend.token_param": OneOf(("auto", "max_tokens", "max_completion_tokens")),
    "backend.batch_size": COUNT, "backend.device": Text(), "backend.dtype": OneOf(DTYPES),
    "backend.score_options": Flag(),
    "decoding.max_new_tokens": NONNEG_INT, "decoding.system_prompt": Text(),
    "decoding.retry_errors": Flag(), "decoding.structured": OneOf(("off", "json_schema", "choice")),
    "parse.prefer_scores": Flag(), "parse.mapper": OneOf(_names("lvlm.reading", "MAPPERS")),
    "parse.encoder": Text(), "parse.encoder_device": Text(), "parse.abstain_margin": NONNEG,
    "metrics.recall_attributes": Text(), "metrics.gd_pairs": Text(),
    "metrics.bootstrap": NONNEG_INT, "metrics.confidence": Real(0.0, 1.0, True, True),
    "metrics.min_group": NONNEG_INT,
}

GENERATE = {
    "seed": SEED, **{k: RUN[k] for k in RUN if k.startswith("data.")},
    "edit.batch_size": COUNT, "edit.editor": OneOf(("ip2p", "sdedit")),
    "edit.image_guidance": NONNEG, "edit.text_guidance": NONNEG, "edit.steps": COUNT,
    "edit.strength": Real(0.0, 1.0, lo_open=True), "edit.negative_prompt": Text(),
    "edit.preset": OneOf(("test", "train")), "edit.prompt": Text(), "edit.prompts.*": Text(),
    "model.device": Text(), "model.dtype": OneOf(DTYPES), "model.path": Text(),
    "output.contact_sheet": Flag(), "output.progress": Flag(),
    "select.balanced": Flag(), "select.max_images": NONNEG_INT,
    "select.per_cell": NONNEG_INT,  # 0: the smallest cell's size
    "select.seed": SEED, "select.split": OneOf(_names("data.source", "SPLITS")),
}

# --- the check -----------------------------------------------------------------------------


def flatten(config, prefix: str = "") -> dict:
    """{dotted key: value} of a ConfigDict or dict (its leaves; an empty dict has none)."""
    items = config.items() if hasattr(config, "items") else ()
    out = {}
    for key, value in items:
        if hasattr(value, "items") and not isinstance(value, (str, bytes)):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _match(pattern: list, parts: list) -> bool:
    return len(pattern) == len(parts) and all(p in ("*", k) for p, k in zip(pattern, parts))


def rule_for(schema: dict, key: str, flat: dict | None = None):
    """The rule of `key` in `schema` (the exact key first, then the pattern with the fewest
    `*`), or None when the schema does not name it."""
    parts = key.split(".")
    rule = schema.get(key)
    if rule is None:
        found = sorted((p.count("*"), p) for p in schema if "*" in p
                       and _match(p.split("."), parts))
        rule = schema[found[0][1]] if found else None
    if isinstance(rule, Hyper):
        rule = rule.rule(parts, flat or {})
    return rule


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _fail(key: str, value, allowed: str, what: str = "") -> None:
    where = f" ({what})" if what else ""
    raise ConfigError(f"bad config value {key}={_describe(value)}{where}: allowed {allowed}")


def _same_type(value, default) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if is_num(default):
        return is_num(value) and (not isinstance(value, float) or math.isfinite(value))
    if isinstance(default, (tuple, list)):
        return isinstance(value, (tuple, list))
    return isinstance(value, type(default))


def check_config(config, schema: dict, *, what: str = "") -> None:
    """Every value of `config` that `schema` names within its range; the first that is not is
    a ConfigError naming the key, the value and what is allowed (`what`: the config's name, for
    the message)."""
    flat = flatten(config)
    for key, value in flat.items():
        rule = rule_for(schema, key, flat)
        if rule is not None and not rule.ok(value):
            _fail(key, value, rule.allowed, what)


def check_run(config) -> None:
    """A run config (trained, post-fit or zero-shot): every value in range, the method's
    hyperparameters too (their declared ranges, else the type of the method's default), and
    the method built, which checks the names it knows (nhfair_jax.methods.get_method)."""

    flat = flatten(config)
    record = spec(config.method.name)  # an unknown method: the registry's own message
    defaults = record.defaults
    for key, value in flat.items():
        if key.startswith("method.") and key != "method.name":
            name = key[len("method."):]
            rule = method_rule(config.method.name, name)
            if rule is None and name in defaults and not _same_type(value, defaults[name]):
                _fail(key, value, f"a {type(defaults[name]).__name__} like its default "
                      f"{defaults[name]!r}")
        else:
            rule = rule_for(RUN, key, flat)
        if rule is not None and not rule.ok(value):
            _fail(key, value, rule.allowed)
    try:
        get_method(config.method)
    except ConfigError:
        raise
    except (UserError, ValueError) as e:  # a name the method knows, in its own words
        raise ConfigError(str(e)) from e


def undeclared(config, schema: dict) -> list[str]:
    """The keys of `config` that no rule of `schema` names (for the test that every key of every
    config in configs/ is declared)."""
    flat = flatten(config)
    out = []
    for key in flat:
        if schema is RUN and key.startswith("method.") and key != "method.name":
            if method_rule(config["method"]["name"], key[len("method."):]) is None:
                out.append(key)
        elif rule_for(schema, key, flat) is None:
            out.append(key)
    return out
