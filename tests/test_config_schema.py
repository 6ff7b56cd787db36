"""Every config value checked before anything is written (issue 52): each key of every config in
configs/ has a declared rule, every config there passes it, and every out-of-range value of
every key is a one-line error naming the key or the value, raised by the command's own entry
function before its workdir exists."""

from __future__ import annotations

import copy
import glob
import math
import os

import ml_collections
import pytest

from nhfair_jax import config_schema as S
from nhfair_jax.cli import describe_error, is_user_error
from nhfair_jax.config import load_config_file
from tests.helpers import REPO, run_cli

RUN_ARGS = ([f"digitsb.py:{m}" for m in
             __import__("nhfair_jax.methods", fromlist=["registered"]).registered()]
            + [f"dataset.py:{d}" for d in ("celeba", "utkface", "fairface", "facet", "ham10000",
                                           "fitz17k", "waterbirds", "cifar10b", "csv")]
            + [f"zeroshot.py:{d},{m}" for d in ("celeba", "digitsb") for m in ("clip", "blip2")]
            + [f"zeroshot.py:digitsb,clip,{v}" for v in ("fairerclip", "sfid")]
            + ["erm_digitsb.py", "fis_celeba.py"])


def _cf_args():
    from nhfair_jax.study.cf_tables import STUDIES

    out = []
    for dataset in ("digitsb", "digitsb_shared", "fashion_mnist_b", "cifar10b", "celeba", "lfw"):
        for study in STUDIES:
            out.append(f"cf_study.py:{dataset},{study},cpu")
    return out + ["cf_study.py:cifar10b,alpha,paper"]


def _lvlm_args():
    from nhfair_jax.lvlm.tasks import TASKS

    return [f"lvlm.py:{t}" for t in TASKS]


CATALOGUE_ALL = ([(a, "RUN") for a in RUN_ARGS]
             + [("benchmark_digitsb.py", "BENCHMARK"), ("benchmark_paper.py", "BENCHMARK"),
                ("choices_digitsb.py", "CHOICES"), ("choices_paper.py", "CHOICES"),
                ("overhead_digitsb.py", "OVERHEAD")]
             + [(a, "CF_STUDY") for a in _cf_args()]
             + [(f"generate.py:{r}", "GENERATE") for r in ("celeba_ip2p", "celeba_sdedit_hair",
                                                           "lfw_ip2p", "csv_ip2p")]
             + [(a, "LVLM") for a in _lvlm_args()])


def _load(arg):
    try:
        return load_config_file(os.path.join(REPO, "configs", arg))
    except ValueError:  # an argument combination the config file refuses (its own test)
        return None


CATALOGUE = [(a, k) for a, k in CATALOGUE_ALL if _load(a) is not None]


def test_the_catalogue_names_every_config_file():
    files = {os.path.basename(p) for p in glob.glob(os.path.join(REPO, "configs", "*.py"))}
    named = {arg.partition(":")[0] for arg, _ in CATALOGUE}
    assert files - {"digitsb.py"} <= named | {"dataset.py"}, files - named


@pytest.mark.parametrize("arg, kind", CATALOGUE)
def test_every_key_is_declared_and_every_config_passes(arg, kind):
    config = _load(arg)
    schema = getattr(S, kind)
    assert S.undeclared(config, schema) == []
    S.check_run(config) if kind == "RUN" else S.check_config(config, schema)


def _rule(kind, config, key):
    if kind == "RUN" and key.startswith("method.") and key != "method.name":
        return S.method_rule(config["method"]["name"], key[len("method."):])
    return S.rule_for(getattr(S, kind), key, S.flatten(config))


def _with(config, key, value):
    """A plain copy of `config` with `key` set to `value` (no ml_collections type check: a
    config file may hold any type)."""
    plain = copy.deepcopy(config.to_dict())
    node = plain
    *path, last = key.split(".")
    for part in path:
        node = node[part]
    node[last] = value
    return ml_collections.ConfigDict(plain)


def _entry(kind, config, workdir):
    """The command's own entry function (what its CLI calls) on `config`."""
    if kind == "RUN":
        from nhfair_jax.dispatch import run

        return run(config, workdir)
    if kind == "BENCHMARK":
        from nhfair_jax.benchmark import run_benchmark

        return run_benchmark(config, workdir)
    if kind == "CHOICES":
        from nhfair_jax.study.choices import run_study

        return run_study(config, workdir)
    if kind == "CF_STUDY":
        from nhfair_jax.study.counterfactual import run_study

        return run_study(config, workdir)
    if kind == "LVLM":
        from nhfair_jax.lvlm.run import run

        return run(config, workdir)
    if kind == "GENERATE":
        from nhfair_jax.generate import generate

        return generate(config, workdir)
    return S.check_config(config, S.OVERHEAD)  # benchmarks/overhead.py's check


def _cases():
    """(config arg, kind, key, bad value): every key of every config, each value its rule
    refuses; a key pattern met in several configs is walked in the first."""
    seen, out = set(), []
    for arg, kind in CATALOGUE:
        config = _load(arg)
        if config is None:
            continue
        for key in S.flatten(config):
            rule = _rule(kind, config, key)
            where = (kind, key if kind == "RUN" and key.startswith("method.") and
                     key != "method.name" else _pattern(kind, key), arg.split(":")[0]
                     if key.startswith("method.") else "")
            if rule is None or where in seen:
                continue
            seen.add(where)
            out += [(arg, kind, key, bad) for bad in rule.bad_values()]
    return out


def _pattern(kind, key):
    schema = getattr(S, kind)
    if key in schema:
        return key
    parts = key.split(".")
    return min((p for p in schema if "*" in p and S._match(p.split("."), parts)),
               key=lambda p: p.count("*"), default=key)


CASES = _cases()


def test_the_walk_covers_every_kind_of_config_and_many_keys():
    kinds = {kind for _, kind, _, _ in CASES}
    assert kinds == {"RUN", "BENCHMARK", "CHOICES", "CF_STUDY", "OVERHEAD", "GENERATE", "LVLM"}
    assert len({(k, key) for _, k, key, _ in CASES}) > 300


def _shown(value) -> str:
    return "nan" if isinstance(value, float) and math.isnan(value) else repr(value)


class Wrote(Exception):
    """What the guarded writers raise: the command went past its check (a bug, not a user error,
    so the test fails at once instead of training)."""


@pytest.fixture
def no_writes(monkeypatch):
    """The first thing each command writes raises Wrote."""
    from nhfair_jax import benchmark, generate, rundir
    from nhfair_jax.lvlm import run as lvlm_run

    def wrote(*args, **kwargs):
        raise Wrote(f"wrote before checking its config: {args[:2]}")

    monkeypatch.setattr(rundir.RunDir, "prepare", wrote)
    monkeypatch.setattr(rundir, "write_json", wrote)
    monkeypatch.setattr(benchmark, "check_workdir", wrote)
    monkeypatch.setattr(lvlm_run, "_check_workdir", wrote)
    monkeypatch.setattr(generate, "_load_sources", wrote)


@pytest.mark.parametrize("arg, kind, key, bad", CASES,
                         ids=[f"{a}-{k}={b!r}" for a, _, k, b in CASES])
def test_an_out_of_range_value_is_a_one_line_error_before_anything_is_written(
        arg, kind, key, bad, tmp_path, no_writes):
    config = _with(_load(arg), key, bad)
    workdir = str(tmp_path / "w")
    with pytest.raises(Exception) as info:
        _entry(kind, config, workdir)
    message = describe_error(info.value)
    assert is_user_error(info.value), message
    assert "\n" not in message
    shown = [_shown(bad)] + ([_shown(b) for b in bad] if isinstance(bad, tuple) else [])
    assert key in message or any(s in message for s in shown), message
    assert not os.path.exists(workdir)


@pytest.mark.parametrize("key, value, allowed", [
    ("train.batch_size", -4, "an integer >= 1"),
    ("train.patience", -1, "an integer >= 1"),
    ("optim.lr", float("nan"), "a finite number > 0"),
    ("optim.lr", float("inf"), "a finite number > 0"),
    ("data.options.skew", 1.5, "a number in [0, 1]"),
    ("optim.name", "adamm", "one of 'sgd', 'adam', 'adamw', 'adagrad'"),
    ("method.coef", -1.0, "a finite number >= 0"),
])
def test_the_issues_examples_name_the_key_the_value_and_what_is_allowed(key, value, allowed,
                                                                      tmp_path, no_writes):
    from nhfair_jax.dispatch import run

    config = _with(load_config_file(os.path.join(REPO, "configs", "digitsb.py:gapreg")), key,
                   value)
    with pytest.raises(S.ConfigError) as info:
        run(config, str(tmp_path / "w"))
    assert str(info.value) == f"bad config value {key}={value!r}: allowed {allowed}"
    assert not os.path.exists(tmp_path / "w")


def test_a_hyperparameter_of_a_method_outside_the_schema_keeps_its_defaults_type():
    """A method of the user's own (not declared here): its values keep the default's type."""
    config = load_config_file(os.path.join(REPO, "configs", "digitsb.py:erm"))
    S.check_run(config)
    spec = __import__("nhfair_jax.methods", fromlist=["spec"]).spec("erm")
    assert spec.defaults == {}
    assert S._same_type(0.3, 0.1) and S._same_type(2, 0.1) and not S._same_type("x", 0.1)
    assert not S._same_type(True, 1) and not S._same_type(float("nan"), 0.1)


def test_rules_refuse_what_they_say_and_allow_the_edges():
    assert S.COUNT.ok(1) and not S.COUNT.ok(0) and not S.COUNT.ok(True) and not S.COUNT.ok(2.0)
    assert S.PROB.ok(0) and S.PROB.ok(1.0) and not S.PROB.ok(1.0000001)
    assert S.POSITIVE.ok(1e-30) and not S.POSITIVE.ok(0.0) and not S.POSITIVE.ok(math.inf)
    open_unit = S.Real(0.0, 1.0, lo_open=True, hi_open=True)
    assert open_unit.allowed == "a number in (0, 1)" and not open_unit.ok(1.0)
    assert S.Seq(S.COUNT, 1).ok((8, 16)) and not S.Seq(S.COUNT, 1).ok(())
    assert not S.Seq(S.COUNT).ok((8, 0))
    for rule in (S.COUNT, S.PROB, S.POSITIVE, S.Seq(S.PROB, 1), S.OneOf(("a",)), S.Flag()):
        assert not any(rule.ok(b) for b in rule.bad_values()), rule


@pytest.mark.slow
@pytest.mark.parametrize("flag, line", [
    ("--config.train.batch_size=-4", "error: bad config value train.batch_size=-4: allowed an "
     "integer >= 1"),
    ("--config.train.patience=-1", "error: bad config value train.patience=-1: allowed an "
     "integer >= 1"),
])
def test_the_command_line_says_it_in_one_line_and_writes_nothing(flag, line, tmp_path):
    proc = run_cli("--config", "configs/erm_digitsb.py", "--workdir", str(tmp_path / "w"), flag)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [line]
    assert not os.path.exists(tmp_path / "w")


def test_every_search_space_lies_inside_the_declared_ranges():
    """A sweep never draws a value the check refuses: each end of every method's search range
    (its conditional branches and the modifiers' too) and every option is allowed."""
    from nhfair_jax.methods import registered, spec
    from nhfair_jax.methods.registry import _MODIFIERS, _load
    from nhfair_jax.methods.space import Choice

    _load()
    spaces = [(m, spec(m).search_space) for m in registered()]
    spaces += [(m, branch) for m in registered() if spec(m).conditional
               for branch in spec(m).conditional[1].values()]
    spaces += [("erm", space) for mod in _MODIFIERS.values() for space in mod.space.values()]
    checked = 0
    for method, space in spaces:
        for key, dist in space.items():
            values = dist.options if isinstance(dist, Choice) else (dist.low, dist.high)
            rule = (S.method_rule(method, key[len("method."):]) if key.startswith("method.")
                    else S.RUN[key])
            assert rule is not None, (method, key)
            for value in values:
                assert rule.ok(value), (method, key, value, rule.allowed)
                checked += 1
    assert checked > 60
