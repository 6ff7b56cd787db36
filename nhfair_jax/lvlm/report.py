"""The LVLM report from one or more run directories (each holding metrics.json).

    python -m nhfair_jax.lvlm.report --out runs/lvlm_report runs/lvlm_a runs/lvlm_b ...

Writes, per task, models x prompt sets:
  report.md, report.html  the benchmark's Table 3 / Table 18 layout (ACC, Worst, Gap, EqOdd, DP
                          in %, abstentions counted wrong and answered only), the demographic
                          study's Table 2 layout (recall per group and GD with 95% intervals),
                          answer statuses with per-group refusal rates and their gap, warnings
  results.csv             one row per (task, model, prompt set, view) with every figure
  plots/acc_vs_gap_<task>.png  accuracy against 100 - gap, one point per model and prompt set
"""

from __future__ import annotations

import html
import os
import sys

from nhfair_jax import rundir

TABLE3 = (("ACC", "acc"), ("Worst", "worst_acc"), ("Gap", "gap_acc"), ("EqOdd", "eqodd"),
          ("DP", "dp"))
VIEWS = (("abstentions counted wrong", "report_abstain_wrong"),
         ("answered questions only", "report_answered"))


def _pct(v) -> str:
    return "n/a" if v is None else f"{100 * v:.2f}"


def _num(v, digits=3) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def gather(run_dirs) -> list[dict]:
    """(task, model, prompt set) entries from the runs' metrics.json files."""
    entries = []
    for d in run_dirs:
        path = os.path.join(d, "metrics.json")
        if not os.path.exists(path):
            raise FileNotFoundError(f"no metrics.json in {d}; run `python -m nhfair_jax.lvlm` "
                                    "there first")
        m = rundir.read_json(path)
        for prompt, figures in m["by_prompt"].items():
            entries.append({"task": m["task"], "model": m["model"], "prompt": prompt,
                            "run": d, **figures})
    return entries


def _table3(entries, view) -> list[list[str]]:
    head = ["Metric"] + [f"{e['model']} / {e['prompt']}" for e in entries]
    rows = [head]
    for label, key in TABLE3:
        rows.append([label] + [_pct((e[view] or {}).get(key)) for e in entries])
    if any(e.get("scores") for e in entries):
        rows.append(["AUC"] + [_pct((e.get("scores") or {}).get("auc")) for e in entries])
    return rows


def _table2(entries) -> list[list[str]]:
    groups = sorted({g for e in entries for g in e["recall"]})
    pairs = sorted({p for e in entries for p in e["gd"]})
    rows = [["Model", "Prompt"] + [f"R {g}" for g in groups] + [f"GD {p}" for p in pairs]]
    for e in entries:
        cells = []
        for g in groups:
            v, ci = e["recall"].get(g), e["recall_ci"].get(g)
            cells.append("n/a" if v is None else
                         f"{v:.3f} [{ci[0]:.3f}, {ci[1]:.3f}] (n={e['group_size'][g]})")
        for p in pairs:
            v, ci = e["gd"].get(p), e["gd_ci"].get(p)
            cells.append("n/a" if v is None else f"{v:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}]")
        rows.append([e["model"], e["prompt"], *cells])
    return rows


def _status_table(entries) -> list[list[str]]:
    groups = sorted({g for e in entries for g in e["refusal_rate"]})
    rows = [["Model", "Prompt", "parsed", "refused", "unparseable", "error (missing)",
             "truncated"]
            + [f"refused {g}" for g in groups] + ["refusal gap", "unparseable gap"]]
    for e in entries:
        c = e["status_counts"]
        truncated = (e.get("truncated") or {}).get("count", 0)
        rows.append([e["model"], e["prompt"], *(str(c[s]) for s in
                                                ("parsed", "refused", "unparseable", "error")),
                     str(truncated),
                     *(_num(e["refusal_rate"].get(g)) for g in groups),
                     _num(e["refusal_gap"]), _num(e["unparseable_gap"])])
    return rows


def results_rows(entries) -> list[dict]:
    rows = []
    for e in entries:
        for view_name, view in VIEWS:
            row = {"task": e["task"], "model": e["model"], "prompt": e["prompt"],
                   "view": view, **{k: (e[view] or {}).get(k) for _, k in TABLE3},
                   "auc": (e.get("scores") or {}).get("auc"),
                   "answered_rate": e["answered_rate"]}
            row.update({f"recall_{g}": v for g, v in e["recall"].items()})
            row.update({f"gd_{p}": v for p, v in e["gd"].items()})
            row.update({f"refusal_rate_{g}": v for g, v in e["refusal_rate"].items()})
            row.update({f"status_{s}": n for s, n in e["status_counts"].items()})
            row["truncated"] = (e.get("truncated") or {}).get("count", 0)
            row["missing"] = (e.get("missing") or {}).get("count", 0)
            rows.append(row)
    return rows


def _md(rows) -> str:
    head, *body = rows
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                     + ["| " + " | ".join(r) + " |" for r in body])


def _html(rows) -> str:
    head, *body = rows
    cell = lambda t, tag: f"<{tag}>{html.escape(t)}</{tag}>"  # noqa: E731
    return ("<table>\n<tr>" + "".join(cell(h, "th") for h in head) + "</tr>\n"
            + "\n".join("<tr>" + "".join(cell(c, "td") for c in r) + "</tr>" for r in body)
            + "\n</table>")


def _plot(entries, out_dir, task) -> str | None:
    points = [(e["model"], e["prompt"], (e["report_abstain_wrong"] or {}).get("acc"),
               (e["report_abstain_wrong"] or {}).get("gap_acc")) for e in entries]
    points = [p for p in points if p[2] is not None and p[3] is not None]
    if not points:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4))
    models = sorted({p[0] for p in points})
    markers = "osD^v<>P*X"
    prompts = sorted({p[1] for p in points})
    for m_i, model in enumerate(models):
        for prompt, acc, gap in [(p[1], p[2], p[3]) for p in points if p[0] == model]:
            ax.scatter(100 - 100 * gap, 100 * acc, color=f"C{m_i % 10}",
                       marker=markers[prompts.index(prompt) % len(markers)],
                       label=f"{model} / {prompt}")
    ax.set_xlabel("100 - Gap (%)")
    ax.set_ylabel("ACC (%)")
    ax.set_title(f"{task}: accuracy against 100 - gap (abstentions wrong)")
    ax.legend(fontsize=7)
    os.makedirs(os.path.join(out_dir, "plots"), exist_ok=True)
    rel = os.path.join("plots", f"acc_vs_gap_{task}.png")
    try:
        rundir.write_png(os.path.join(out_dir, rel), fig)
    finally:
        plt.close(fig)
    return rel


def _write(path, text):
    rundir.write_text(path, text)


def build_report(run_dirs, out_dir: str, *, plots: bool = True) -> str:
    """Writes report.md, report.html, results.csv and plots/ into out_dir; returns the markdown."""
    import pandas as pd

    entries = gather(run_dirs)
    os.makedirs(out_dir, exist_ok=True)
    md_parts, html_parts = ["# LVLM fairness report"], []
    for task in sorted({e["task"] for e in entries}):
        rows = [e for e in entries if e["task"] == task]
        sections = [(f"{task}: {name} (%, Table 3 / Table 18 layout)", _table3(rows, view))
                    for name, view in VIEWS]
        sections.append((f"{task}: recall per group and GD, 95% bootstrap intervals (Table 2 "
                         "layout; abstentions counted wrong)", _table2(rows)))
        sections.append((f"{task}: answer statuses and per-group refusal rates",
                         _status_table(rows)))
        warnings = sorted({w for e in rows for w in e["warnings"]})
        figure = _plot(rows, out_dir, task) if plots else None
        incomplete = [f"{e['model']} / {e['prompt']}: {e['missing']['count']} of "
                      f"{e['missing']['of']} answers missing (ended in error)"
                      for e in rows if (e.get("missing") or {}).get("count")]
        if incomplete:
            note = ("INCOMPLETE: the figures below leave out the missing answers (they are not "
                    "counted wrong); run the evaluation again to ask them")
            md_parts.append(f"**{note}.**\n\n" + "\n".join(f"- {x}" for x in incomplete))
            html_parts.append(f"<p><b>{html.escape(note)}.</b></p><ul>"
                              + "".join(f"<li>{html.escape(x)}</li>" for x in incomplete)
                              + "</ul>")
        for title, table in sections:
            md_parts.append(f"## {title}\n\n{_md(table)}")
            html_parts.append(f"<h2>{html.escape(title)}</h2>\n{_html(table)}")
        if warnings:
            md_parts.append("Warnings:\n\n" + "\n".join(f"- {w}" for w in warnings))
            html_parts.append("<ul>" + "".join(f"<li>{html.escape(w)}</li>" for w in warnings)
                              + "</ul>")
        if figure:
            md_parts.append(f"![{figure}]({figure})")
            html_parts.append(f"<p><img src='{figure}' style='max-width:100%'></p>")
    md = "\n\n".join(md_parts) + "\n"
    doc = ("<!doctype html><meta charset='utf-8'><title>LVLM fairness report</title><style>"
           "body{font-family:sans-serif;max-width:80em;margin:auto}table{border-collapse:"
           "collapse}td,th{border:1px solid #ccc;padding:2px 6px}</style>\n"
           "<h1>LVLM fairness report</h1>\n" + "\n".join(html_parts))
    _write(os.path.join(out_dir, "report.md"), md)
    _write(os.path.join(out_dir, "report.html"), doc)
    rundir.write_csv(os.path.join(out_dir, "results.csv"), pd.DataFrame(results_rows(entries)))
    return md


def main(argv=None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m nhfair_jax.lvlm.report",
                                     description="LVLM report from run directories")
    parser.add_argument("--out", required=True, help="folder for report.md / .html / csv")
    parser.add_argument("runs", nargs="+", help="run directories (each with metrics.json)")
    args = parser.parse_args(argv)
    try:
        build_report(args.runs, args.out)
    except (FileNotFoundError, KeyError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"wrote {os.path.join(args.out, 'report.md')}")


if __name__ == "__main__":
    main()
