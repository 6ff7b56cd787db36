"""Counterfactual images for your own data: edit the images of any data set the loaders read
with a local diffusion editor, and write a `pairs.csv` the pair loaders read.

    python -m nhfair_jax.generate --config configs/generate.py:celeba_ip2p --workdir runs/cf_celeba
    python -m nhfair_jax.generate --config configs/generate.py:celeba_ip2p,train ...  # training preset

The workdir then holds `originals/` (each selected image as the editor saw it, at
`data.image_size`), `counterfactuals/` (the edits, same names), `pairs.csv` (original,
counterfactual, target, sensitive, keep, index, split, seed, prompt, flagged; paths relative to
the workdir), `contact_sheet.html` (original / edit / prompt side by side, to review and mark
pairs to drop) and `generate.json` (counts and timings). Read the pairs back with
`get_source("celeba_cf", workdir, "test")` (or `lfw_cf`); rows with `keep` 0 are dropped.

Running the command again generates only what is missing: every image is written once, by temp
file + rename, so a killed run continues where it stopped and a finished one generates nothing.
"""

from __future__ import annotations

import html
import json
import os
import time
import warnings

import ml_collections
import numpy as np

from nhfair_jax import rundir
from nhfair_jax.bridge import diffusion
from nhfair_jax.bridge.diffusion import PRESETS
from nhfair_jax.config_schema import GENERATE, check_config
from nhfair_jax.data import get_sources
from nhfair_jax.errors import UserError

PAIRS_COLUMNS = ("original", "counterfactual", "target", "sensitive", "keep", "index", "split",
                 "seed", "prompt", "flagged")
# What an image depends on: a workdir holding edits refuses another value of these.
_IMAGE_KEYS = ("seed", "data", "model.path", "edit")
_FREE_KEYS = ("edit.batch_size", "edit.preset")


def default_config(editor: str = "ip2p", preset: str = "test") -> ml_collections.ConfigDict:
    """Defaults of the generate command: the paper's InstructPix2Pix settings (256 px, 50 steps,
    the guidance of `preset`), or an SDEdit edit with `editor="sdedit"`."""

    if preset not in PRESETS:
        raise UserError(f"unknown preset {preset!r}; choose from {sorted(PRESETS)}")
    c = ml_collections.ConfigDict()
    c.seed = 0  # each image's seed is derived from (seed, its index in the data set)
    c.data = ml_collections.ConfigDict()
    c.data.name = "celeba"
    c.data.root = ""
    c.data.split_seed = 0
    c.data.image_size = 256  # the editor's input and output resolution
    c.data.target = ""
    c.data.sensitive = ""
    c.data.cache_dir = ""
    c.data.on_bad_image = "error"
    c.data.options = ml_collections.ConfigDict()

    c.select = ml_collections.ConfigDict()
    c.select.split = "test"  # one split, or several as "train,val"
    c.select.balanced = False  # the same number of images in every (target, group) cell
    c.select.per_cell = 0  # balanced: images per cell; 0 = the smallest cell's size
    c.select.max_images = 0  # 0: no cap; else a seeded random subset of the selection
    c.select.seed = 0

    c.model = ml_collections.ConfigDict()
    c.model.path = ""  # local diffusers checkpoint folder
    c.model.device = "auto"
    c.model.dtype = "auto"  # float16 on CUDA, float32 on the CPU

    c.edit = ml_collections.ConfigDict()
    c.edit.editor = editor
    c.edit.preset = preset
    c.edit.steps = 50
    c.edit.image_guidance = PRESETS[preset]["image_guidance"]  # ip2p only
    c.edit.text_guidance = PRESETS[preset]["text_guidance"]
    c.edit.strength = 0.5  # sdedit only
    c.edit.negative_prompt = ""
    c.edit.prompt = ""  # for every group without its own entry in edit.prompts
    c.edit.prompts = ml_collections.ConfigDict()  # group name -> prompt
    c.edit.batch_size = 8

    c.output = ml_collections.ConfigDict()
    c.output.progress = True
    c.output.contact_sheet = True
    return c


# --- pure helpers --------------------------------------------------------------------------


def select_rows(labels, groups, *, balanced: bool = False, per_cell: int = 0,
                seed: int = 0) -> np.ndarray:
    """Rows to edit, sorted.

    Balanced: the first `per_cell` rows of a seeded permutation of each (label, group) cell, so a
    smaller `per_cell` with the same seed picks a subset of a larger one's rows (the paper's test
    pairs: balanced over target and sensitive attribute). A cell with fewer rows gives all it has.

    Args:
      labels, groups: per-row target and group indices.
      balanced: draw per (label, group) cell; else every row.
      per_cell: rows per cell; 0 takes the smallest non-empty cell's size.
      seed: the selection's seed (a local generator; global state is never used).
    """
    labels, groups = np.asarray(labels), np.asarray(groups)
    rows = np.arange(len(labels))
    if balanced:
        cells = {}
        for r in rows:
            cells.setdefault((int(labels[r]), int(groups[r])), []).append(r)
        k = per_cell or min(len(v) for v in cells.values())
        short = [f"{cell}: {len(cells[cell])}" for cell in sorted(cells) if len(cells[cell]) < k]
        if short or len(cells) < len(np.unique(labels)) * len(np.unique(groups)):
            warnings.warn(f"balanced selection: (label, group) cells with fewer than {k} rows "
                          f"give all they have ({', '.join(short) or 'none'}); "
                          f"{len(cells)} cells are present", UserWarning, stacklevel=2)
        picked = []
        for i, cell in enumerate(sorted(cells)):
            members = np.asarray(cells[cell])
            perm = np.random.default_rng([seed, i, *cell]).permutation(len(members))
            picked.append(members[perm[:k]])
        rows = np.sort(np.concatenate(picked))
    return rows


def image_seed(seed: int, index: int) -> int:
    """The seed of one image: a function of (config seed, the image's index) only."""
    return int(np.random.SeedSequence([int(seed), int(index)]).generate_state(1)[0])


def prompts_by_group(group_names, prompts: dict, default: str = "") -> list[str]:
    """The prompt of each group, from {group name: prompt} and a default for the others.

    Raises:
      UserError: a group without a prompt, or a prompt for a group the data set does not have.
    """
    unknown = sorted(set(prompts) - set(group_names))
    if unknown:
        raise UserError(f"edit.prompts names {unknown}, not groups of this data set; its groups "
                        f"are {list(group_names)}")
    out = [prompts.get(g) or default for g in group_names]
    missing = [g for g, p in zip(group_names, out) if not p]
    if missing:
        raise UserError(f"no prompt for group(s) {missing}: set edit.prompts['<group>'] in the "
                        f"config (groups: {list(group_names)}) or edit.prompt for all of them")
    return out


# --- files ---------------------------------------------------------------------------------


def write_png(path: str, image: np.ndarray) -> None:
    """A PNG written atomically (temp file + rename): never half an image."""
    from PIL import Image

    rundir.atomic_write(path, lambda f: Image.fromarray(np.asarray(image, np.uint8)).save(f, "PNG"),
               mode="wb")


def read_png(path: str) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"), np.uint8)


def read_keep(path: str) -> dict:
    """{counterfactual: keep} from an existing pairs.csv (the marks a person made)."""
    import pandas as pd

    if not os.path.exists(path):
        return {}
    try:
        frame = pd.read_csv(path)
        return {str(c): int(k) for c, k in zip(frame["counterfactual"], frame["keep"])}
    except (ValueError, KeyError, OSError) as e:
        raise UserError(f"cannot read the keep marks of {path}: {e}; repair it (keep is 0 or 1) "
                        "or delete it to mark every pair kept") from e


def write_pairs(path: str, rows: list[dict]) -> None:
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(PAIRS_COLUMNS))
    rundir.atomic_write(path, lambda f: frame.to_csv(f, index=False))


def contact_sheet(rows: list[dict], class_names, group_names, title: str) -> str:
    """An offline HTML page: original, edit and prompt per pair, a keep box per pair, and a
    button that saves pairs.csv with the boxes as its keep column (images by relative path)."""
    cells = []
    for i, r in enumerate(rows):
        checked = " checked" if r["keep"] else ""
        cells.append(
            f'<tr><td>{r["index"]}<br>{html.escape(str(class_names[r["target"]]))}<br>'
            f'{html.escape(str(group_names[r["sensitive"]]))}</td>'
            f'<td><img loading="lazy" src="{html.escape(r["original"])}"></td>'
            f'<td><img loading="lazy" src="{html.escape(r["counterfactual"])}"></td>'
            f'<td>{html.escape(r["prompt"])}{" (flagged by the safety checker)" if r["flagged"] else ""}'
            f'</td><td><input type="checkbox" data-row="{i}"{checked}></td></tr>')
    data = json.dumps([[r[c] for c in PAIRS_COLUMNS] for r in rows]).replace("</", "<\\/")
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif}} img{{width:160px;image-rendering:auto}}
td{{padding:4px;vertical-align:middle;border-bottom:1px solid #ddd}}</style></head><body>
<h1>{html.escape(title)}</h1>
<p>{len(rows)} pairs. Untick the pairs to drop, then <button id="save">save pairs.csv</button>
and put the file in place of this folder's pairs.csv (or edit its keep column by hand): loaders
drop rows with keep 0.</p>
<table><tr><th>index<br>target<br>group</th><th>original</th><th>edited</th><th>prompt</th>
<th>keep</th></tr>
{chr(10).join(cells)}
</table>
<script>
const columns = {json.dumps(list(PAIRS_COLUMNS))};
const rows = {data};
const quote = v => {{ const s = String(v); return /[",\\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s; }};
document.getElementById("save").onclick = () => {{
  document.querySelectorAll("input[data-row]").forEach(b => {{
    rows[+b.dataset.row][columns.indexOf("keep")] = b.checked ? 1 : 0; }});
  const text = [columns.join(",")].concat(rows.map(r => r.map(quote).join(","))).join("\\n") + "\\n";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {{type: "text/csv"}}));
  a.download = "pairs.csv"; a.click();
}};
</script></body></html>
"""


# --- the command ---------------------------------------------------------------------------


def _image_settings(config_json: dict) -> dict:
    flat = {}

    def walk(node, prefix):
        for k, v in node.items():
            key = f"{prefix}{k}"
            if isinstance(v, dict) and key != "edit.prompts":
                walk(v, key + ".")
            elif key.startswith(_IMAGE_KEYS) and key not in _FREE_KEYS:
                flat[key] = v
    walk(config_json, "")
    return flat


def _prepare_workdir(workdir: str, config, overwrite: bool) -> None:
    """rundir.claim_workdir: images made with other settings are refused; a killed write's
    temp files are cleared."""
    def images() -> bool:
        folder = os.path.join(workdir, "counterfactuals")
        return os.path.isdir(folder) and bool(os.listdir(folder))

    def settings(stored, resolved):
        old, new = _image_settings(stored), _image_settings(resolved)
        return sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))

    rundir.claim_workdir(workdir, config, overwrite=overwrite, compare=settings, holds=images,
                         what="holds images made with other settings",
                         remedy="use another --workdir, or --overwrite to delete them",
                         empty="held no image")
    try:
        for sub in ("originals", "counterfactuals"):
            os.makedirs(os.path.join(workdir, sub), exist_ok=True)
            for name in os.listdir(os.path.join(workdir, sub)):  # left by a killed write
                if name.startswith(".") and name.endswith(".tmp"):
                    os.remove(os.path.join(workdir, sub, name))
    except OSError as e:
        raise UserError(f"cannot write to workdir {workdir}: {e.strerror or e}") from e


def _load_sources(config):
    d = config.data
    sources = get_sources(d.name, d.root or None, split_seed=d.split_seed,
                          image_size=d.image_size, cache_dir=d.cache_dir or None,
                          on_bad_image=d.on_bad_image, target=d.target or None,
                          sensitive=d.sensitive or None, progress=config.output.progress,
                          **d.options.to_dict())
    splits = [s.strip() for s in config.select.split.split(",") if s.strip()]
    missing = [s for s in splits if s not in sources]
    if not splits or missing:
        raise UserError(f"select.split {config.select.split!r}: {d.name} has the split(s) "
                        f"{list(sources)}")
    return [sources[s] for s in splits]


def _select(config, sources) -> list:
    """(source, row) of every image to edit, in a stable order."""
    records = []
    for source in sources:
        rows = select_rows(source.labels, source.groups, balanced=config.select.balanced,
                           per_cell=config.select.per_cell, seed=config.select.seed)
        records += [(source, int(r)) for r in rows]
    cap = config.select.max_images
    if cap and len(records) > cap:
        picked = np.random.default_rng([config.select.seed, 1]).choice(len(records), cap,
                                                                       replace=False)
        records = [records[i] for i in np.sort(picked)]
    if not records:
        raise UserError(f"select picked no image of {config.data.name} ({config.select.split})")
    return records


def _pair_row(config, prompts, source, r) -> dict:
    index = int(source.indices[r])
    name = f"{index:08d}.png"
    return {"original": f"originals/{name}", "counterfactual": f"counterfactuals/{name}",
            "target": int(source.labels[r]), "sensitive": int(source.groups[r]), "index": index,
            "split": source.split, "seed": image_seed(config.seed, index),
            "prompt": prompts[int(source.groups[r])]}


def _write_listing(workdir, config, table, flagged, class_names, group_names) -> list[dict]:
    """pairs.csv (keeping a reviewer's marks) and the contact sheet, for the pairs on disk."""
    path = os.path.join(workdir, "pairs.csv")
    marks = read_keep(path)
    rows = []
    for _, _, row in table:
        if os.path.exists(os.path.join(workdir, row["counterfactual"])):
            row["flagged"] = int(row["counterfactual"] in flagged)
            row["keep"] = marks.get(row["counterfactual"], 0 if row["flagged"] else 1)
            rows.append(row)
    write_pairs(path, rows)
    if config.output.contact_sheet:
        title = f"{config.edit.editor} edits of {config.data.name} ({config.select.split})"
        page = contact_sheet(rows, class_names, group_names, title)
        rundir.atomic_write(os.path.join(workdir, "contact_sheet.html"), lambda f: f.write(page))
    return rows


def _load_editor(config):
    e = config.edit
    return diffusion.load_editor(e.editor, config.model.path, steps=e.steps,
                                 image_guidance=e.image_guidance, text_guidance=e.text_guidance,
                                 strength=e.strength, negative_prompt=e.negative_prompt,
                                 device=config.model.device, dtype=config.model.dtype)


def generate(config, workdir: str, *, overwrite: bool = False, editor=None) -> dict:
    """Edits the selected images of a data set into `workdir` (resumable); returns a summary.

    Args:
      config: a generate config (`default_config()` and configs/generate.py).
      workdir: the output folder.
      overwrite: delete the folder's earlier images first.
      editor: an already loaded `diffusion.Editor`; default: loaded from `model.path` when
        something is left to edit.

    Raises:
      UserError: bad data, a checkpoint of the wrong kind, a group without a prompt, a workdir
        made with other settings; each as one line that says what to do.
    """
    from tqdm.auto import tqdm

    check_config(config, GENERATE, what="the generate config")
    if editor is None:  # before reading any data: a wrong checkpoint fails at once
        diffusion.check_checkpoint(config.model.path, config.edit.editor)
    sources = _load_sources(config)
    class_names, group_names = sources[0].class_names, sources[0].group_names
    prompts = prompts_by_group(group_names, config.edit.prompts.to_dict(), config.edit.prompt)
    records = _select(config, sources)
    if len(class_names) != 2 or len(group_names) != 2:
        warnings.warn(f"{len(class_names)} classes and {len(group_names)} groups: the pair loaders "
                      "(celeba_cf, lfw_cf) read a binary target and a binary sensitive attribute",
                      UserWarning, stacklevel=2)
    _prepare_workdir(workdir, config, overwrite)
    table = [(src, r, _pair_row(config, prompts, src, r)) for src, r in records]
    exists = [os.path.exists(os.path.join(workdir, row["counterfactual"])) for *_, row in table]
    done = [t for t, e in zip(table, exists) if e]
    todo = [t for t, e in zip(table, exists) if not e]
    for src, r, row in done[:16]:  # the same data as before (a sample keeps a rerun fast)
        original = os.path.join(workdir, row["original"])
        if os.path.exists(original) and not np.array_equal(read_png(original), src.images[r]):
            raise UserError(f"{original} differs from example {row['index']} of "
                            f"{config.data.name}: the data changed since these images were made; "
                            "use another --workdir, or --overwrite")
    flagged_path = os.path.join(workdir, "flagged.txt")
    flagged = set()
    if os.path.exists(flagged_path):
        with open(flagged_path) as f:
            flagged = set(f.read().split())
    generated, seconds = 0, 0.0
    try:
        if todo:
            editor = editor or _load_editor(config)
            bar = tqdm(total=len(table), initial=len(done), unit="img",
                       desc=f"editing ({config.edit.editor})", disable=not config.output.progress)
            for start in range(0, len(todo), config.edit.batch_size):
                chunk = todo[start:start + config.edit.batch_size]
                batch = [row for *_, row in chunk]
                images = np.stack([src.images[r] for src, r, _ in chunk])
                for row, image in zip(batch, images):
                    write_png(os.path.join(workdir, row["original"]), image)
                t0 = time.perf_counter()
                edited, flags = editor.edit(images, [row["prompt"] for row in batch],
                                            [row["seed"] for row in batch])
                seconds += time.perf_counter() - t0
                for row, image, flag in zip(batch, edited, flags):
                    if flag:  # listed before the image lands, so a kill cannot lose the flag
                        with open(flagged_path, "a") as f:
                            f.write(row["counterfactual"] + "\n")
                        flagged.add(row["counterfactual"])
                    write_png(os.path.join(workdir, row["counterfactual"]), image)
                generated += len(batch)
                bar.update(len(batch))
            bar.close()
    finally:  # also after Ctrl-C: the pairs written so far are listed
        rows = _write_listing(workdir, config, table, flagged, class_names, group_names)
    info_path = os.path.join(workdir, "generate.json")
    sessions = rundir.read_json(info_path).get("sessions", []) if os.path.exists(info_path) else []
    if generated:  # each command that edited something, with its throughput
        sessions.append({"generated": generated, "edit_seconds": round(seconds, 3),
                         "images_per_second": round(generated / seconds, 3),
                         "device": editor.device, "batch_size": config.edit.batch_size,
                         "finished": time.strftime("%Y-%m-%dT%H:%M:%S")})
    summary = {"selected": len(table), "generated": generated, "already_there": len(done),
               "pairs": len(rows), "kept": sum(r["keep"] for r in rows),
               "flagged": sum(r["flagged"] for r in rows),
               "images_per_second": sessions[-1]["images_per_second"] if generated else None,
               "data": config.data.name, "class_names": class_names,
               "group_names": group_names, "sessions": sessions}
    rundir.write_json(info_path, summary)
    return summary
