"""What the benchmark's runs cost: per data set and method, the runs, their seconds by phase
and their compilations (XLA programs built, those the persistent compilation cache answered,
seconds spent), how many trained runs compiled nothing in their first epoch (every program
they needed came from an earlier run, in the process or the persistent cache), and the trials
a sweep's pruner stopped (the epochs they trained, and those epochs' seconds)."""

from __future__ import annotations

from nhfair_jax.rundir import RunDir

HEADER = ["data set", "method", "runs", "session s", "train s", "compile s", "programs built",
          "of which cached", "first epoch compiles nothing", "pruned trials"]


def _runs(entry: dict) -> list[dict]:
    """The trials and seed runs of one (data set, method), each once."""
    seen, out = set(), []
    for run in [*entry["selection"].get("candidates", []), *entry["runs"]]:
        if run["dir"] not in seen:
            seen.add(run["dir"])
            out.append(run)
    return out


def first_epoch_compiles_nothing(run_dir: str) -> bool | None:
    """Whether a trained run's first epoch compiled no program (each compile request answered
    by the persistent cache); None for a run without epochs (post-fit, zero-shot) or one whose
    log predates the cache counts."""
    log = RunDir(run_dir).log()
    if not log or "cache_hits" not in log[0]:
        return None
    return log[0]["compiles"] == log[0]["cache_hits"]


def compute_rows(info: dict) -> list[dict]:
    """One row per (data set, method) of `report.gather`'s info: the sums over its runs."""
    rows = []
    for dataset, per_method in info["data"].items():
        for method, entry in per_method.items():
            runs = _runs(entry)
            timings = [r["result"].get("timings_s", {}) for r in runs]
            compiled = [r["result"].get("compiles", {}) for r in runs]
            first = [first_epoch_compiles_nothing(r["dir"]) for r in runs]
            trained = [f for f in first if f is not None]
            rows.append({
                "dataset": dataset, "method": method, "runs": len(runs),
                # a post-fit or zero-shot run times its phases without a session total
                "session_s": sum(t.get("this_session", sum(t.values())) for t in timings),
                "train_s": sum(t.get("train", 0.0) for t in timings),
                "compile_s": sum(c.get("seconds", 0.0) for c in compiled),
                "requests": sum(c.get("requests", 0) for c in compiled),
                "cache_hits": sum(c.get("cache_hits", 0) for c in compiled),
                "trained": len(trained), "first_epoch_clean": sum(trained),
                # trials a sweep's pruner stopped (not among the runs: never candidates)
                "pruned": len(entry.get("pruned", ())),
                "pruned_epochs": sum(p["epochs"] for p in entry.get("pruned", ())),
                "pruned_s": sum(p["seconds"] for p in entry.get("pruned", ()))})
    return rows


def compute_table(info: dict) -> list[list[str]]:
    """`compute_rows` as a table, with a total row."""
    rows = compute_rows(info)
    out = [HEADER]
    total = {k: sum(r[k] for r in rows) for k in ("runs", "session_s", "train_s", "compile_s",
                                                  "requests", "cache_hits", "trained",
                                                  "first_epoch_clean", "pruned",
                                                  "pruned_epochs", "pruned_s")}
    for r in [*rows, {"dataset": "all", "method": "all", **total}]:
        clean = (f"{r['first_epoch_clean']} of {r['trained']} "
                 f"({100 * r['first_epoch_clean'] / r['trained']:.0f}%)" if r["trained"]
                 else "no trained run")
        out.append([r["dataset"], r["method"], str(r["runs"]), f"{r['session_s']:.1f}",
                    f"{r['train_s']:.1f}", f"{r['compile_s']:.1f}", str(r["requests"]),
                    str(r["cache_hits"]), clean,
                    f"{r['pruned']} ({r['pruned_epochs']} epochs, {r['pruned_s']:.1f} s)"
                    if r["pruned"] else "0"])
    return out
