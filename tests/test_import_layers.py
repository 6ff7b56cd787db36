"""The package's layering: every module imports only its own layer or those below it, and no
modules import each other in a cycle (function-level imports count too).

Layers, lowest first (README, "Layout"):
  0 the package root, errors, rundir          run directories: plain files
  1 data, models, metrics, selection, per_example
  2 methods                                    pure: losses, samplers, fits, the registry
  3 config, config_rules, config_schema         shared config defaults, config files; every
                                               config value's type and range
  4 training, bridge                           step, loop, checkpoints, post-fit, teachers;
                                               the torch bridge
  5 zeroshot, lvlm                             zero-shot and LVLM evaluation
  6 dispatch                                   `run`: the one entry for every run
  7 sweep                                      Optuna sweeps, selection from run directories
  8 report
  9 study, cli, run, benchmark, evaluate, generate, the __main__ modules   commands
"""

from __future__ import annotations

import ast
import os

from tests.helpers import REPO

PACKAGE = os.path.join(REPO, "nhfair_jax")
LAYERS = (
    ("nhfair_jax", "nhfair_jax.errors", "nhfair_jax.rundir"),
    ("nhfair_jax.data", "nhfair_jax.models", "nhfair_jax.metrics", "nhfair_jax.selection",
     "nhfair_jax.per_example"),
    ("nhfair_jax.methods",),
    ("nhfair_jax.config", "nhfair_jax.config_rules", "nhfair_jax.config_schema"),
    ("nhfair_jax.training", "nhfair_jax.bridge"),
    ("nhfair_jax.zeroshot", "nhfair_jax.lvlm"),
    ("nhfair_jax.dispatch",),
    ("nhfair_jax.sweep",),
    ("nhfair_jax.report",),
    ("nhfair_jax.study", "nhfair_jax.cli", "nhfair_jax.run", "nhfair_jax.benchmark",
     "nhfair_jax.evaluate", "nhfair_jax.generate", "nhfair_jax.report.__main__",
     "nhfair_jax.lvlm.__main__"),
)


def _modules() -> dict:
    out = {}
    for folder, _, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                module = os.path.relpath(path, REPO)[:-3].replace(os.sep, ".")
                out[module[:-len(".__init__")] if module.endswith(".__init__") else module] = path
    return out


def _imports(path: str, module: str, modules: dict) -> set:
    package = module if path.endswith("__init__.py") else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(open(path).read())):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                     for a in node.names]
        for name in names:
            while name and name not in modules:  # `import a.b.c` of a module, or a name in it
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def _layer(module: str) -> int:
    best = None
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (i, len(prefix))
    assert best is not None, f"{module} belongs to no layer; add it to LAYERS and the README"
    return best[0]


def _graph() -> dict:
    modules = _modules()
    return {m: _imports(p, m, modules) for m, p in modules.items()}


def test_no_module_imports_a_higher_layer():
    upward = [f"{m} -> {d}" for m, deps in sorted(_graph().items()) for d in sorted(deps)
              if _layer(d) > _layer(m)]
    assert not upward, "imports of a higher layer:\n" + "\n".join(upward)


def test_no_import_cycles():
    graph = _graph()
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


def test_the_checks_see_a_violation(tmp_path, monkeypatch):
    """The scanner finds a function-level upward import and a cycle in a small fake package."""
    pkg = tmp_path / "nhfair_jax"
    (pkg / "methods").mkdir(parents=True)
    (pkg / "training").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "methods" / "__init__.py").write_text("")
    (pkg / "training" / "__init__.py").write_text("")
    (pkg / "methods" / "m.py").write_text("def f():\n    from nhfair_jax.training import t\n")
    (pkg / "training" / "t.py").write_text("from nhfair_jax.methods.m import f\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "PACKAGE", str(pkg))
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "REPO", str(tmp_path))
    graph = _graph()
    assert graph["nhfair_jax.methods.m"] == {"nhfair_jax.training.t"}
    assert graph["nhfair_jax.training.t"] == {"nhfair_jax.methods.m"}
    assert _layer("nhfair_jax.training.t") > _layer("nhfair_jax.methods.m")
