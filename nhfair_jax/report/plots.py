"""The report's figures: the paper's Figure 2 per data set, the gap-utility view of every
candidate, per-group utility of the selected models and critical-difference diagrams.

Each figure function returns a matplotlib Figure (tests inspect its artists); `save` writes it
under plots/. Titles live on the panels and the data set in the caption, so nothing overlaps.

References:
  "Benchmarking Bias Mitigation Toward Fairness Without Harm from Vision to LVLMs", Sec. 3.3
  and Figure 2 (DTO selection of ERM in the plane of the two groups' utilities; the four zones
  around the selected ERM). The paper draws two groups only; for more, the plane of the ERM
  baseline's worst and best groups is our choice. Demšar, JMLR 7 (2006), for the
  critical-difference diagram.
"""

from __future__ import annotations

import math
import os

import numpy as np

from nhfair_jax.methods.registry import BASELINE
from nhfair_jax.report.gather import plane
from nhfair_jax.report.stats import cliques
from nhfair_jax.rundir import write_png
from nhfair_jax.selection import fwh_zone

ZONE_COLOURS = {"optimal": "#2ca02c", "sub_optimal": "#1f77b4", "degradation": "#7f7f7f",
                "unwanted": "#d62728"}
ZONE_LABELS = {"optimal": "Optimal", "sub_optimal": "Sub-optimal", "degradation": "Degradation",
               "unwanted": "Unwanted"}
ERM_COLOUR = "#9467bd"  # ERM candidates (not a zone colour)
SHADE_ALPHA = 0.22
_FAR = 1e3  # zone rectangles reach past any utility; the axes clip them


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, workdir: str, name: str) -> str:
    """Writes plots/<name> (no timestamp metadata, so reruns give the same bytes); returns the
    path relative to the workdir."""
    plt = _plt()
    os.makedirs(os.path.join(workdir, "plots"), exist_ok=True)
    rel = os.path.join("plots", name)

    try:
        write_png(os.path.join(workdir, rel), fig)
    finally:
        plt.close(fig)
    return rel


# --- Figure 2 ----------------------------------------------------------------------------------

def zone_regions(erm_xy, worst_axis: int) -> dict:
    """{zone: [polygon, ...]} of the four fairness-without-harm zones in the plane of two groups
    around the ERM point `erm_xy`, when the group on axis `worst_axis` (0: x, 1: y) is ERM's
    worst: the quadrants, with the one where the disadvantaged group gains and the other loses
    cut by the line of ERM's gap mirrored across the diagonal: the triangle on ERM's side of it
    (a smaller gap) is Sub-optimal, the rest (the groups swapped, the gap as large or larger)
    Unwanted, as `selection.fwh_zone` places them."""
    ex, ey = erm_xy
    d, a = (ex, ey) if worst_axis == 0 else (ey, ex)  # (disadvantaged, advantaged) of ERM
    g = a - d
    f = _FAR
    # (u, v): u the disadvantaged group's axis, v the other's
    regions = {"optimal": [[(d, a), (d + f, a), (d + f, a + f), (d, a + f)]],
               "degradation": [[(d, a), (d - f, a), (d - f, a - f), (d, a - f)]],
               "unwanted": [[(d, a), (d - f, a), (d - f, a + f), (d, a + f)],
                            [(a + g, a), (d + f, a), (d + f, a - f), (d, a - f), (d, d - g)]],
               "sub_optimal": [[(d, a), (a + g, a), (d, d - g)]]}
    if worst_axis == 1:
        regions = {z: [[(v, u) for u, v in poly] for poly in polys]
                   for z, polys in regions.items()}
    return regions


def draw_zones(ax, erm_xy, worst_axis: int) -> None:
    """Shades the four fairness-without-harm zones around `erm_xy` (`zone_regions`)."""
    from matplotlib.patches import Polygon

    for zone, polygons in zone_regions(erm_xy, worst_axis).items():
        for poly in polygons:
            ax.add_patch(Polygon(poly, closed=True, facecolor=ZONE_COLOURS[zone],
                                 alpha=SHADE_ALPHA, lw=0, zorder=0, gid=f"zone_{zone}"))
    ax.axvline(erm_xy[0], color="k", lw=0.6, ls=":", zorder=1)
    ax.axhline(erm_xy[1], color="k", lw=0.6, ls=":", zorder=1)


def label_zones(ax, erm_xy, worst_axis: int) -> None:
    """Names each zone: Optimal, Degradation and Unwanted in the corners of the axes that lie
    in them (the limits hold the ERM point, so the corners of the unmixed quadrants do),
    Sub-optimal at the centre of its triangle."""

    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    ex, ey = erm_xy
    erm = (ex, ey)
    for sx, sy in ((1, 1), (-1, -1), (1, -1), (-1, 1)):
        corner = (x1 if sx > 0 else x0, y1 if sy > 0 else y0)
        zone = fwh_zone(erm, corner)
        ax.text(0.98 if sx > 0 else 0.02, 0.98 if sy > 0 else 0.02, ZONE_LABELS[zone],
                transform=ax.transAxes, ha="right" if sx > 0 else "left",
                va="top" if sy > 0 else "bottom", fontsize=7, color=ZONE_COLOURS[zone],
                fontweight="bold", zorder=6)
    (triangle,) = zone_regions(erm, worst_axis)["sub_optimal"]
    cx, cy = np.mean(triangle, axis=0)
    cx = min(max(cx, x0 + 0.15 * (x1 - x0)), x1 - 0.15 * (x1 - x0))  # the whole word inside
    cy = min(max(cy, y0 + 0.05 * (y1 - y0)), y1 - 0.05 * (y1 - y0))
    if fwh_zone(erm, (cx, cy)) == "sub_optimal":
        ax.text(cx, cy, ZONE_LABELS["sub_optimal"], ha="center", va="center", fontsize=6,
                color=ZONE_COLOURS["sub_optimal"], fontweight="bold", zorder=6, clip_on=True)


def _xy(vector, axes):
    return float(vector[axes[0]]), float(vector[axes[1]])


def dto_panel(ax, info: dict, dataset: str, pl: dict) -> None:
    """(a): ERM candidates, the utopia point, the DTO choice and its distance to the utopia."""
    sel = info["data"][dataset][BASELINE]["selection"]
    perf = np.stack([r["group"]["val"] for r in sel["candidates"]])
    utopia = perf.max(axis=0)
    chosen = sel["selected"]["group"]["val"]
    pts = np.array([_xy(p, pl["axes"]) for p in perf])
    ax.scatter(pts[:, 0], pts[:, 1], s=22, color=ERM_COLOUR, alpha=0.85, zorder=2,
               label="ERM candidate", gid="erm_candidates")
    ux, uy = _xy(utopia, pl["axes"])
    cx, cy = _xy(chosen, pl["axes"])
    ax.plot([cx, ux], [cy, uy], color="k", lw=1.0, ls="--", zorder=3, gid="dto_segment",
            label="distance to utopia")
    ax.scatter([cx], [cy], s=110, facecolors="none", edgecolors="#ff7f0e", linewidths=2.2,
               zorder=4, label="DTO choice (ERM baseline)", gid="dto_choice")
    ax.scatter([ux], [uy], marker="*", s=180, color="#d62728", edgecolor="k", lw=0.5, zorder=5,
               label="utopia point", gid="utopia")
    dto = float(np.linalg.norm(chosen - utopia))
    label = f"DTO = {dto:.3f}" + (" (all groups)" if pl["num_groups"] > 2 else "")
    ax.text(0.03, 0.97, label, transform=ax.transAxes, ha="left", va="top", fontsize=7)
    ax.set_title("(a) ERM: DTO selection", fontsize=9)


def method_panel(ax, info: dict, dataset: str, method: str, pl: dict) -> None:
    """(b): a method's candidates over the zones around the selected ERM; its choice ringed."""
    per_method = info["data"][dataset]
    base = per_method[BASELINE]["selection"]["selected"]["group"]["val"]
    bx, by = _xy(base, pl["axes"])
    draw_zones(ax, (bx, by), pl["worst_axis"])
    sel = per_method[method]["selection"]
    for r in sel["candidates"]:
        x, y = _xy(r["group"]["val"], pl["axes"])
        ax.scatter([x], [y], s=22, color=ZONE_COLOURS[r["zone"]], edgecolor="k", lw=0.3,
                   zorder=2)
    ax.scatter([bx], [by], marker="X", s=70, color="k", zorder=4, label="ERM baseline",
               gid="erm_baseline")
    if sel["selected"] is not None:
        x, y = _xy(sel["selected"]["group"]["val"], pl["axes"])
        ax.scatter([x], [y], s=130, facecolors="none", edgecolors="k", linewidths=1.6, zorder=5,
                   label="selected", gid="selected")
        zone = ZONE_LABELS[sel["zone"]]
    else:
        zone = "no selection" if sel["candidates"] else "not run"
    ax.set_title(f"(b) {method}: {zone}", fontsize=9)


def _limits(info: dict, dataset: str, pl: dict):
    pts = []
    for entry in info["data"][dataset].values():
        pts += [_xy(r["group"]["val"], pl["axes"]) for r in entry["selection"]["candidates"]]
    erm = info["data"][dataset][BASELINE]["selection"]["candidates"]
    pts.append(_xy(np.stack([r["group"]["val"] for r in erm]).max(axis=0), pl["axes"]))
    pts = np.asarray(pts, float)
    lo, hi = np.nanmin(pts, axis=0), np.nanmax(pts, axis=0)
    pad = np.maximum((hi - lo) * 0.12, 0.01)
    lo, hi = lo - pad, hi + pad
    # keep the ERM baseline off the edges, so that each zone shows (and holds its name)
    base = np.asarray(_xy(info["data"][dataset][BASELINE]["selection"]["selected"]["group"]["val"],
                          pl["axes"]))
    span = hi - lo
    lo, hi = np.minimum(lo, base - 0.2 * span), np.maximum(hi, base + 0.2 * span)
    return (lo[0], hi[0]), (lo[1], hi[1])


def figure2(info: dict, dataset: str):
    """The paper's Figure 2 for one data set: (a) and one (b) panel per method.

    Returns:
      (figure, caption).
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    plt = _plt()
    pl = plane(info, dataset)
    methods = info["methods"][1:]
    n = 1 + len(methods)
    cols = min(n, 4)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.1 * cols, 3.1 * rows + 0.6), squeeze=False,
                             layout="constrained")
    flat = axes.ravel()
    dto_panel(flat[0], info, dataset, pl)
    for ax, method in zip(flat[1:], methods):
        method_panel(ax, info, dataset, method, pl)
    xlim, ylim = _limits(info, dataset, pl)
    unit = pl["utility"]
    for ax in flat[:n]:
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_xlabel(f"{pl['names'][0]}: validation {unit}", fontsize=8)
        ax.set_ylabel(f"{pl['names'][1]}: validation {unit}", fontsize=8)
        ax.tick_params(labelsize=7)
    base = info["data"][dataset][BASELINE]["selection"]["selected"]["group"]["val"]
    for ax in flat[1:n]:
        label_zones(ax, _xy(base, pl["axes"]), pl["worst_axis"])
    for ax in flat[n:]:
        ax.set_visible(False)
    handles = [Patch(facecolor=ZONE_COLOURS[z], alpha=0.5, label=ZONE_LABELS[z])
               for z in ZONE_COLOURS]
    handles += [Line2D([], [], marker="o", ls="", color=ERM_COLOUR, label="ERM candidate"),
                Line2D([], [], marker="*", ls="", color="#d62728", markersize=11,
                       label="utopia point"),
                Line2D([], [], marker="o", ls="", mfc="none", mec="#ff7f0e", mew=2,
                       markersize=9, label="DTO choice"),
                Line2D([], [], marker="X", ls="", color="k", label="ERM baseline"),
                Line2D([], [], marker="o", ls="", mfc="none", mec="k", markersize=10,
                       label="selected")]
    fig.legend(handles=handles, loc="outside lower center", ncol=5, fontsize=7, frameon=False)
    return fig, figure2_caption(info, dataset, pl)


def figure2_caption(info: dict, dataset: str, pl: dict) -> str:
    x, y = pl["names"]
    dis = pl["names"][pl["worst_axis"]]
    text = (f"Figure 2, {dataset} (validation {pl['utility']}). (a) ERM candidates in the plane "
            f"of the utilities of {x} and {y}; the red star is the utopia point (each group at its "
            "best), the orange ring the DTO choice and the dashed line its distance to the utopia "
            "point. (b) Each method's candidates over the four zones around the selected ERM "
            "(black cross): Optimal up-right, Degradation down-left, Sub-optimal where the "
            f"disadvantaged group ({dis}) gains, the other loses and the gap shrinks (the "
            "triangle up to the line through ERM's point mirrored across the diagonal), "
            "Unwanted where the disadvantaged group loses while the other gains, or where it "
            "overtakes the other by ERM's gap or more; the ringed point is the method's "
            "selection.")
    if pl["num_groups"] > 2:
        text += (f" The data set has {pl['num_groups']} groups: the plane shows the "
                 f"disadvantaged group ({x}) against the best-off group ({y}) of the ERM "
                 "baseline; the shading follows these two groups, the colour of each point its "
                 "zone over all groups.")
    return text


# --- second views ------------------------------------------------------------------------------

def candidates_scatter(info: dict, dataset: str):
    """Validation utility against gap of every candidate, one panel per method; the ERM baseline
    marked, each method's candidates coloured by zone. Returns (figure, caption)."""
    from matplotlib.lines import Line2D

    plt = _plt()
    per_method = info["data"][dataset]
    methods = info["methods"]
    cols = min(len(methods), 4)
    rows = math.ceil(len(methods) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.1 * cols, 3.0 * rows + 0.5), squeeze=False,
                             sharex=True, sharey=True, layout="constrained")
    flat = axes.ravel()
    base = per_method[BASELINE]["selection"]["selected"]["result"]["val"]
    for ax, method in zip(flat, methods):
        sel = per_method[method]["selection"]
        for r in sel["candidates"]:
            colour = ERM_COLOUR if method == BASELINE else ZONE_COLOURS[r["zone"]]
            ax.scatter(r["result"]["val"]["gap"], r["result"]["val"]["utility"], s=18,
                       color=colour, alpha=0.85)
        ax.scatter(base["gap"], base["utility"], marker="X", s=60, color="k")
        if method != BASELINE and sel["selected"] is not None:
            v = sel["selected"]["result"]["val"]
            ax.scatter(v["gap"], v["utility"], s=110, facecolors="none", edgecolors="k")
        ax.set_title(method, fontsize=9)
        ax.set_xlabel("validation gap", fontsize=8)
        ax.set_ylabel("validation utility", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in flat[len(methods):]:
        ax.set_visible(False)
    handles = [Line2D([], [], marker="o", ls="", color=c, label=ZONE_LABELS[z])
               for z, c in ZONE_COLOURS.items()]
    handles += [Line2D([], [], marker="o", ls="", color=ERM_COLOUR, label="ERM candidate"),
                Line2D([], [], marker="X", ls="", color="k", label="ERM baseline (DTO)"),
                Line2D([], [], marker="o", ls="", mfc="none", mec="k", label="selected")]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, fontsize=7, frameon=False)
    caption = (f"{dataset}: validation utility against validation gap of every candidate (a "
               "second view of Figure 2; the utopia point lives in the plane of group utilities "
               "and has no place here).")
    return fig, caption


def group_plot(info: dict, dataset: str):
    """Per-group test utility (seed mean) of each selected model. Returns (figure, caption)."""
    plt = _plt()
    per_method = info["data"][dataset]
    methods = [m for m in info["methods"] if per_method[m]["runs"]]
    erm = per_method[BASELINE]["runs"][0]
    groups = len(per_method[BASELINE]["test_group"])
    names = list(erm["result"].get("group_names") or [])
    names += [f"group {g}" for g in range(len(names), groups)]
    fig, ax = plt.subplots(figsize=(1.6 + 1.1 * len(methods), 3.2), layout="constrained")
    width = 0.8 / groups
    for g in range(groups):
        values = [per_method[m]["test_group"][g] for m in methods]
        ax.bar(np.arange(len(methods)) + g * width, values, width, label=names[g])
    ax.set_xticks(np.arange(len(methods)) + 0.4 - width / 2, methods, rotation=30)
    ax.set_ylabel(f"test {erm['utility']} (seed mean)")
    ax.set_ylim(0, 1)
    fig.legend(fontsize=7, loc="outside right upper", frameon=False)
    caption = f"{dataset}: per-group test utility of the selected models (mean over seeds)."
    return fig, caption


def cd_diagram(result: dict, metric: str):
    """Critical-difference diagram on the rank axis 1..k (1 = best): each method at its average
    rank, the critical difference as a bar, methods the Nemenyi test cannot tell apart joined.
    Returns (figure, caption)."""
    plt = _plt()
    ranks = result["ranks"].sort_values()
    k = len(ranks)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.0 + 0.8 * k), 1.4 + 0.25 * k),
                           layout="constrained")
    ax.set_xlim(0.7, k + 0.3)
    ax.set_xticks(np.arange(1, k + 1))
    ax.spines[["left", "right", "top"]].set_visible(False)
    ax.spines["bottom"].set_bounds(1, k)
    ax.set_yticks([])
    ax.set_xlabel("average rank (1 = best)", fontsize=8)
    half = math.ceil(k / 2)
    for i, (method, r) in enumerate(ranks.items()):
        level = (i + 1) if i < half else (k - i)
        y = 0.6 + 0.5 * level
        side_x = 0.75 if i < half else k + 0.25
        ax.plot([r, r, side_x], [0, y, y], color="k", lw=0.8, clip_on=False)
        ax.text(side_x, y + 0.08, f"{method} ({r:.2f})", fontsize=8,
                ha="left" if i < half else "right", va="bottom")
    for j, group in enumerate(cliques(result["ranks"], result["nemenyi"])):
        lo, hi = ranks[group[0]], ranks[group[-1]]
        ax.plot([lo - 0.03, hi + 0.03], [0.25 + 0.18 * j] * 2, color="k", lw=3,
                solid_capstyle="butt", gid="clique")
    cd = result["cd"]
    top = 0.6 + 0.5 * (half + 1)
    end = min(1 + cd, k)  # a CD longer than the axis: nothing can differ significantly
    ax.plot([1, end], [top, top], color="#d62728", lw=1.5, gid="cd_bar")
    ax.text((1 + end) / 2, top + 0.08, f"CD = {cd:.2f}" + (
        " (longer than the rank axis: no pair can differ significantly)" if end < 1 + cd
        else ""), ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, top + 0.5)
    ax.set_title(f"test {metric}: Nemenyi at alpha = 0.05 over {result['n']} data sets",
                 fontsize=9)
    caption = (f"Critical-difference diagram, test {metric}: average ranks over data sets; bars "
               "join methods whose difference the Nemenyi test does not find significant.")
    return fig, caption
