"""The counterfactual study's outputs: results.csv (one line per alpha, row, seed and split of
the selected models), selection.json, the report (report.md / report.html: the table of the
study in the paper's layout, test mean ± std over seeds; for the alpha study every alpha and the
paper's Figure 3), and claims.json: every claim of the paper the study's rows can test, with its
one-sided bound over paired seeds and its verdict (nhfair_jax/study/cf_claims.py), rendered in
the report's claims block.
"""

from __future__ import annotations

import csv
import io
import json
import os

import numpy as np

from nhfair_jax import rundir
from nhfair_jax.report import to_markdown
from nhfair_jax.report.html import render
from nhfair_jax.report.plots import _plt, save
from nhfair_jax.report.tables import fmt, mean_std
from nhfair_jax.study.cf_claims import claims_blocks, one_sided, study_claims
from nhfair_jax.study.cf_tables import COLUMNS

METRICS = ("acc", "cd", "cd_balanced", "deo", "deo_mean", "rfp", "acc_cf", "deo_cf",
           "worst_acc", "certified")
CSV_COLUMNS = ("alpha", "row", "label", "method", "cf", "seed", "split", *METRICS,
               "rfp_teacher", "params", "run")
HEADERS = {"acc": "Acc ↑", "deo": "DEO ↓", "cd": "CD ↓", "cd_balanced": "CD (balanced) ↓",
           "rfp": "RFP ↓", "rfp_teacher": "RFP^T ↓", "acc_cf": "Acc-CTF ↑",
           "deo_cf": "DEO-CTF ↓", "certified": "Certified ↑"}


def _fmt(v):
    return "" if v is None else (f"{v:.6g}" if isinstance(v, float) else str(v))


def result_rows(runs, selected: dict) -> list[dict]:
    """One dict per alpha, row, seed and split of the selected models."""
    study = runs.study
    out = []
    for (alpha, name), sel in selected.items():
        row = study.row[name]
        for seed, run in sorted(sel["runs"].items()):
            teacher_dir = (selected[(alpha, row.teacher)]["runs"][seed]["dir"]
                           if row.teacher else None)
            rfp_t = runs.teacher_rfp(teacher_dir, alpha) if teacher_dir else None
            for split in ("val", "test"):
                rep = run["result"][split]
                out.append({"alpha": alpha, "row": name, "label": row.label,
                            "method": row.method, "cf": row.cf, "seed": seed, "split": split,
                            **{m: rep.get(m) for m in METRICS},
                            "rfp_teacher": rfp_t if split == "test" else None,
                            "params": json.dumps(sel["params"], sort_keys=True),
                            "run": os.path.relpath(run["dir"], runs.workdir)})
    return out


def csv_text(rows, columns=CSV_COLUMNS) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(columns), extrasaction="ignore")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: _fmt(r.get(k)) for k in columns})
    return buf.getvalue()


def _values(rows, alpha, name, metric, split="test") -> dict:
    return {r["seed"]: r[metric] for r in rows if r["alpha"] == alpha and r["row"] == name
            and r["split"] == split and r.get(metric) is not None}


def _cell(rows, alpha, name, metric) -> str:
    m, sd = mean_std(list(_values(rows, alpha, name, metric).values()))
    return "n/a" if m is None else f"{fmt(m)} ± {fmt(sd)}"


def paired_upper_bound(diffs) -> tuple[float | None, float | None]:
    """(mean, one-sided 95% t upper bound) of paired differences; bound None for one value."""

    mean, bound, _ = one_sided(diffs, -1)
    return mean, bound


def figure3(rows: list[dict], study, name: str):
    """CD, DEO and RFP (test, mean ± std over seeds) against alpha, one line per row."""

    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    alphas = sorted({r["alpha"] for r in rows})
    cd = study.cd_metric
    for ax, metric, title in zip(axes, (cd, "deo", "rfp"), ("CD ↓", "DEO ↓", "RFP ↓")):
        for row_name in study.rows:
            stats = [mean_std(list(_values(rows, a, row_name, metric).values())) for a in alphas]
            mean = np.array([np.nan if m is None else m for m, _ in stats])
            std = np.array([np.nan if sd is None else sd for _, sd in stats])
            ax.errorbar(alphas, mean, yerr=std, marker="o", capsize=3,
                        label=study.row[row_name].label)
        ax.set_title(f"{title} ({name}, test)")
        ax.set_xlabel("alpha = P(G = A)")
        ax.set_xticks(alphas)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def _selected_text(sel) -> str:
    params = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in sorted(sel["params"].items()))
    flag = " (none within bound)" if sel["rule"] == "no_candidate_within_bound" else ""
    return (params or "-") + flag


def _selected_by(sel, measure: dict) -> str:
    if sel["rule"] == "single configuration":
        return "-"
    return measure.get("cd" if sel["measure"] != "deo" else "deo", sel["measure"])


def write_outputs(runs, selected: dict, *, plots: bool) -> dict:
    """Writes results.csv, selection.json, claims.json and the report; returns {"rows",
    "selection", "claims"}."""

    study, workdir, name = runs.study, runs.workdir, str(runs.study.name)
    rows = result_rows(runs, selected)
    rundir.write_text(os.path.join(workdir, "results.csv"), csv_text(rows))
    selection = [{"alpha": a, "row": r, "label": study.row[r].label, "params": s["params"],
                  "rule": s["rule"], "bound": s["bound"], "measure": s["measure"],
                  "candidates": [{"params": c["params"], "val_acc": c["result"]["val"]["acc"],
                                  **({s["measure"]: c["result"]["val"].get(s["measure"])}
                                     if s["measure"] else {}),
                                  "run": os.path.relpath(c["dir"], workdir)}
                                 for c in s["candidates"]]}
                 for (a, r), s in selected.items()]
    rundir.write_json(os.path.join(workdir, "selection.json"), selection)
    alphas = sorted({a for a, _ in selected}, key=lambda a: -1 if a is None else a)
    table_alpha = study.get("table_alpha", None)
    table_alpha = table_alpha if table_alpha in alphas else alphas[-1]
    columns = [study.cd_metric if c == "cd" else c for c in COLUMNS[study.study]]
    measure = {"cd": f"validation {study.cd_metric}", "deo": "validation DEO"}
    where = "" if table_alpha is None else f" at alpha {table_alpha:g}"
    blocks = [("h1", f"Counterfactual vs group fairness: {name}, study '{study.study}'"),
              ("p", f"Seeds {', '.join(str(s) for s in study.seeds)}. Each row's "
                    "hyperparameters are chosen on the first seed by the paper's rule: the "
                    "lowest validation fairness measure (CD for counterfactual-aware rows and "
                    "the combinations, DEO for group-fairness methods alone) among the "
                    f"candidates whose validation accuracy is at least {float(study.acc_ratio):g}"
                    f" x Scratch's; then re-run with every seed. Figures are test mean ± std "
                    f"over seeds; {study.cd_metric} is the CD reported."),
              ("h2", f"{name}{where}"),
              ("table", [["Method", *(HEADERS.get(c, c) for c in columns), "selected",
                          "selected by"]]
               + [[study.row[r].label, *(_cell(rows, table_alpha, r, c) for c in columns),
                   _selected_text(selected[(table_alpha, r)]),
                   _selected_by(selected[(table_alpha, r)], measure)] for r in study.rows])]
    if study.study == "alpha":
        blocks += [("h2", "Every alpha (the numbers behind Figure 3)"),
                   ("table", [["alpha", "Method", *(HEADERS.get(c, c) for c in columns),
                               "selected"]]
                    + [[f"{a:g}", study.row[r].label, *(_cell(rows, a, r, c) for c in columns),
                        _selected_text(selected[(a, r)])] for a in alphas for r in study.rows])]
        if plots:
            path = save(figure3(rows, study, name), workdir, f"figure3_{name}.png")
            blocks.append(("figure", path, f"CD, DEO and RFP against alpha on {name} (test, "
                                           "mean ± std over seeds): the paper's Figure 3."))
    claims = study_claims(rows, study.cd_metric)
    rundir.write_json(os.path.join(workdir, "claims.json"), claims)
    if claims:
        blocks += claims_blocks(claims)

    rundir.write_text(os.path.join(workdir, "report.md"), to_markdown(blocks) + "\n")
    rundir.write_text(os.path.join(workdir, "report.html"), render(blocks, workdir))
    return {"rows": rows, "selection": selection, "claims": claims}
