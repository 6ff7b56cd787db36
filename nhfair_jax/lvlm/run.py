"""One LVLM evaluation: questions from a task's examples, answers from a backend (only those not
yet in the answer log), one status per answer, metrics and the report.

Checks run before the first question is asked: the task, prompt sets and backend name exist,
the data loads, the endpoint answers (and serves the model named) or the checkpoint is a
supported model. Afterwards every question ends in exactly one status; an unreadable image is
that question's `error`. At the end every answer is read again from its raw text with the
config's reader (`nhfair_jax.lvlm.reading`).

Generation budgets, when `decoding.max_new_tokens` is 0, are the benchmark's code's: a served
model gets 32 tokens for a closed question and 1,000 for an open-ended one (its gateway's
`max_output_tokens`), a local checkpoint 64 and 1,280 (its LLaVA-NeXT, Qwen, Gemma and Llama
runners). The study's direct and single-choice questions get the closed budget, its other
prompts the open-ended one (the study's code caps prompt and answer at 512 tokens together).
"""

from __future__ import annotations

import os
import sys
import zlib
from dataclasses import dataclass

import numpy as np

from nhfair_jax import rundir
from nhfair_jax.config_schema import LVLM, check_config
from nhfair_jax.errors import UserError
from nhfair_jax.lvlm import answers as A
from nhfair_jax.lvlm import metrics as M
from nhfair_jax.lvlm.backends import BACKENDS, STRUCTURED, Reply, Request, make_backend
from nhfair_jax.lvlm.data import Example, load_examples
from nhfair_jax.lvlm.metrics import _recall_attributes
from nhfair_jax.lvlm.parse import ERROR, REFUSED
from nhfair_jax.lvlm.reading import Reader, check_mapper
from nhfair_jax.lvlm.report import build_report
from nhfair_jax.lvlm.tasks import SINGLE_CHOICE_CLASSES, Task, get_task, prompt_text

# Config fields that make a workdir another run's (its answers would not be this run's).
IDENTITY = ("task", "data.root", "data.split", "data.split_seed", "data.limit", "data.persons",
            "backend.name", "backend.model")
# backend name -> prompt kind -> tokens (the benchmark's code; see the module docstring)
BUDGETS = {"openai": {"closed": 32, "open": 1000}, "transformers": {"closed": 64, "open": 1280}}


@dataclass
class Question:
    id: str
    example: Example
    prompt_set: str
    prompt: str
    label: int
    label_name: str
    asked: str | None = None


def prompt_sets(config, task: Task) -> list[str]:
    names = [p.strip() for p in str(config.prompts).split(",") if p.strip()]
    if not names:
        raise UserError(f"config prompts is empty; task {task.name} has "
                        f"{', '.join(task.prompt_sets)}")
    for name in names:
        task.check_prompt_set(name)
    return names


def _wrong_class(task: Task, example: Example, seed: int) -> str:
    """A deterministic wrong class for the single-choice question (seeded by the example id)."""
    true = task.classes.index(example.attrs[task.target])
    step = 1 + zlib.crc32(f"{seed}:{example.id}".encode()) % (len(task.classes) - 1)
    return task.classes[(true + step) % len(task.classes)]


def _class_order(task: Task, example: Example, seed: int, shuffle: bool):
    """The order the direct question lists the classes in: the study's, or seeded per
    question (the study's `random_prompt` option, which shuffles unseeded)."""
    if not shuffle:
        return None
    rng = np.random.default_rng(zlib.crc32(f"{seed}:order:{example.id}".encode()))
    return [int(i) for i in rng.permutation(len(task.classes))]


def build_questions(task: Task, examples: list[Example], names: list[str], seed: int = 0,
                    shuffle: bool = False):
    """Every question of the prompt sets `names` about `examples`, in a fixed order."""
    out = []
    for name in names:
        for ex in examples:
            truth = ex.attrs[task.target]
            if name == "single_choice":
                for asked, label in ((truth, 1), (_wrong_class(task, ex, seed), 0)):
                    out.append(Question(f"{ex.id}|ask={asked}", ex, name,
                                        prompt_text(task, name, asked), label,
                                        SINGLE_CHOICE_CLASSES[label], asked))
            else:
                order = _class_order(task, ex, seed, shuffle) if name == "direct" else None
                out.append(Question(ex.id, ex, name, prompt_text(task, name, order=order),
                                    task.classes.index(truth), truth))
    return out


def load_image(example: Example):
    """(PIL RGB image, original bytes or None, mime); raises OSError/ValueError when unreadable."""
    from PIL import Image

    with open(example.path, "rb") as f:
        data = f.read()
    import io as _io

    with Image.open(_io.BytesIO(data)) as img:
        img.load()
        fmt = img.format
        img = img.convert("RGB")
    if example.crop is not None:
        x, y, w, h = (int(round(v)) for v in example.crop)
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + max(w, 1), img.width), min(y + max(h, 1), img.height)
        if x1 <= x0 or y1 <= y0:
            raise ValueError(f"bounding box {example.crop} lies outside the "
                             f"{img.width}x{img.height} image")
        return img.crop((x0, y0, x1, y1)), None, ""
    keep = fmt in ("JPEG", "PNG")
    return img, (data if keep else None), f"image/{fmt.lower()}" if keep else ""


def _check_workdir(workdir: str, config, overwrite: bool = False) -> None:
    """rundir.claim_workdir: answers of another evaluation (IDENTITY) are refused."""
    def get(d, key):
        for part in key.split("."):
            d = d.get(part, {}) if isinstance(d, dict) else {}
        return d

    rundir.claim_workdir(
        workdir, config, overwrite=overwrite,
        compare=lambda stored, resolved: [k for k in IDENTITY
                                          if get(stored, k) != get(resolved, k)],
        holds=lambda: os.path.exists(os.path.join(workdir, "answers.jsonl")),
        what="holds answers of another evaluation",
        remedy="use another --workdir or --overwrite", empty="held no answer")


def _record(q: Question, task: Task, config, model_id, decoding, phash, reply: Reply,
            reader: Reader) -> dict:
    if reply.error is not None:
        status, label, stage, parsed = ERROR, None, "error", None
    elif reply.refused:
        status, label, stage, parsed = REFUSED, None, "endpoint_refusal", None
    else:
        p = reader.read(reply.text, q.prompt_set, q.prompt, q.asked, reply.scores)
        status, label, stage, parsed = p.status, p.label, p.stage, p.text
    sensitive = config.data.sensitive or task.sensitive
    constrained = _options(task, task.kind(q.prompt_set)) is not None
    structured = str(config.decoding.structured) if constrained else "off"
    return {"key": A.record_key(q.id, model_id, phash, decoding), "id": q.id,
            "example": q.example.id, "prompt_set": q.prompt_set, "prompt_hash": phash,
            "model": model_id, "decoding": decoding, "asked": q.asked,
            "group": _group_name(q.example.attrs.get(sensitive)), "attrs": q.example.attrs,
            "label": q.label_name, "label_index": q.label, "raw": reply.text,
            "status": status, "parsed": parsed, "parsed_index": label, "stage": stage,
            "error": reply.error, "scores": reply.scores,
            "finish_reason": reply.finish_reason, "endpoint": reply.endpoint,
            "structured": structured}


def _group_name(value) -> str:
    return "unannotated" if value is None else str(value)


def max_new_tokens(config, task: Task, prompt_set: str) -> int:
    """The generation budget of a question of `prompt_set` (see the module docstring)."""
    if int(config.decoding.max_new_tokens):
        return int(config.decoding.max_new_tokens)
    kind = "open" if task.kind(prompt_set) == "open" else "closed"
    return BUDGETS[config.backend.name][kind]


def _options(task: Task, kind: str):
    if kind == "open":
        return None
    return SINGLE_CHOICE_CLASSES if kind == "single_choice" else task.options


def _prompt_hash(config, q: Question) -> str:
    system = str(config.decoding.system_prompt)
    return A.text_hash(f"{system}\n\n{q.prompt}" if system else q.prompt)


def _requests(batch, task: Task, config):
    """(Request or None, the Reply of an unreadable image or None) per question."""
    out = []
    for q in batch:
        try:
            image, data, mime = load_image(q.example)
        except (OSError, ValueError, SyntaxError) as e:
            out.append((None, Reply(None, error=f"cannot read image {q.example.path}: {e}")))
            continue
        out.append((Request(key=q.id, image=image, prompt=q.prompt,
                            options=_options(task, task.kind(q.prompt_set)),
                            max_new_tokens=max_new_tokens(config, task, q.prompt_set),
                            image_bytes=data, mime=mime or "image/jpeg",
                            system=str(config.decoding.system_prompt)), None))
    return out


def answer_batch(batch, backend, task: Task, config) -> list[Reply]:
    """One Reply per question of `batch`, asked together."""
    pairs = _requests(batch, task, config)
    asked = [r for r, _ in pairs if r is not None]
    got = iter(backend.answer(asked) if asked else [])
    replies = [next(got, None) if r is not None else failed for r, failed in pairs]
    if any(r is None for r in replies) or next(got, None) is not None:
        raise RuntimeError(f"backend returned a wrong number of replies for {len(asked)} "
                           "requests")
    return replies


def _key(q: Question, backend, task: Task, config) -> str:
    decoding = A.decoding_key(backend.decoding, max_new_tokens(config, task, q.prompt_set))
    return A.record_key(q.id, backend.model_id, _prompt_hash(config, q), decoding)


def ask(questions, backend, task: Task, config, log_path: str, *, progress: bool = True,
        reader: Reader | None = None):
    """Asks the questions missing from the log, appending each answered batch; returns all
    records of `questions` in order, how many were asked, and the log's records of another
    evaluation (another model, prompt, decoding or question set: never counted, and dropped
    when the log is rewritten)."""
    from tqdm.auto import tqdm

    reader = reader or Reader(task, config)
    done = A.read(log_path)
    model_id = backend.model_id
    todo, keys = [], []
    for q in questions:
        key = _key(q, backend, task, config)
        keys.append(key)
        old = done.get(key)
        if old is None or (old["status"] == ERROR and config.decoding.retry_errors):
            todo.append(q)
    wanted = set(keys)
    foreign = [r for k, r in done.items() if k not in wanted]
    chunk = int(config.backend.batch_size)
    if hasattr(backend, "capacity"):  # a served backend: keep every endpoint busy
        chunk = max(chunk, 4 * int(backend.capacity))
    bar = tqdm(total=len(todo), disable=not progress, desc=f"asking {model_id}", file=sys.stderr)
    # Questions of one prompt kind together: one budget and one option set per batch.
    todo.sort(key=lambda q: (q.prompt_set, q.id))
    for start in range(0, len(todo), chunk):
        batch = todo[start:start + chunk]
        replies = answer_batch(batch, backend, task, config)
        records = []
        for q, reply in zip(batch, replies):
            decoding = A.decoding_key(backend.decoding,
                                      max_new_tokens(config, task, q.prompt_set))
            records.append(_record(q, task, config, model_id, decoding, _prompt_hash(config, q),
                                   reply, reader))
        A.append(log_path, records)
        for r in records:
            done[r["key"]] = r
        bar.update(len(batch))
    bar.close()
    return [done[k] for k in keys], len(todo), foreign


def validate(config) -> tuple[Task, list[str]]:
    """The checks that need no data and no model."""

    task = get_task(config.task)
    names = prompt_sets(config, task)
    if config.backend.name not in BACKENDS:
        raise UserError(f"unknown backend {config.backend.name!r}; choose one of "
                        f"{', '.join(BACKENDS)} (config backend.name)")
    check_mapper(config.parse.mapper)
    if config.decoding.structured not in STRUCTURED:
        raise UserError(f"decoding.structured must be one of {', '.join(STRUCTURED)}, got "
                        f"{config.decoding.structured!r}")
    if config.decoding.structured != "off" and config.backend.name != "openai":
        raise UserError("decoding.structured constrains a served model's answers "
                        "(backend.name=openai); set it to off for backend.name="
                        f"{config.backend.name}")
    sensitive = config.data.sensitive
    if sensitive and task.dataset and sensitive not in _ATTRIBUTES[task.dataset]:
        raise UserError(f"data.sensitive {sensitive!r} is not an attribute of {task.dataset}; "
                        f"choose from {', '.join(_ATTRIBUTES[task.dataset])}")
    for attr in _recall_attributes(config, task):
        if attr not in _ATTRIBUTES[task.dataset]:
            raise UserError(f"metrics.recall_attributes names {attr!r}, not an attribute of "
                            f"{task.dataset}; choose from {', '.join(_ATTRIBUTES[task.dataset])}")
    check_config(config, LVLM, what="the LVLM config")  # every other value in its range
    return task, names


_ATTRIBUTES = {"celeba": ("wavy", "gender"), "utkface": ("gender", "race", "race_binary", "age"),
               "fairface": ("race", "gender"),
               "facet": ("visible_face", "gender", "occupation", "age", "skin_tone"),
               "waterbirds": ("bird", "place")}


def prepare(config):
    """(task, prompt set names, questions, data notes) of a config, before any backend."""
    task, names = validate(config)
    examples, notes = load_examples(task, config.data.root, split=config.data.split,
                                    split_seed=config.data.split_seed, limit=config.data.limit,
                                    options=config.data.options.to_dict(),
                                    persons=config.data.persons)
    questions = build_questions(task, examples, names, seed=config.seed,
                                shuffle=bool(config.shuffle_classes))
    return task, names, questions, notes


def run(config, workdir: str, *, backend=None, progress: bool = True, report: bool = True,
        mapper=None, overwrite: bool = False):
    """Runs (or resumes) an evaluation; returns the metrics written to metrics.json.

    Args:
      config: an lvlm config (nhfair_jax.lvlm.config.lvlm_config).
      workdir: where answers.jsonl, metrics.json and the report go.
      backend: a ready backend (tests pass one); default: the one the config names.
      mapper: a ready embedding mapper (tests pass one); default: from `parse.encoder`.
      overwrite: delete the workdir's earlier answers first.
    """

    task, names, questions, notes = prepare(config)
    _check_workdir(workdir, config, overwrite)
    reader = Reader(task, config, mapper=mapper)
    own = backend is None
    backend = backend or make_backend(config)
    log_path = os.path.join(workdir, "answers.jsonl")
    try:
        records, asked, foreign = ask(questions, backend, task, config, log_path,
                                      progress=progress, reader=reader)
    finally:
        if own:
            backend.close()
    records = reader.reread(records, questions)
    A.rewrite(log_path, records)
    result = M.evaluate_run(records, task, names, config, notes=notes)
    result["asked_this_run"] = asked
    if foreign:  # e.g. a line pasted from another run's answers.jsonl
        first = foreign[0]
        result["warnings"].append(
            f"answers.jsonl held {len(foreign)} answer(s) of another evaluation (first: "
            f"question {first.get('id')!r} of model {first.get('model')!r}); they were left "
            "out of every figure and of the rewritten log")
    errors = [r["error"] for r in records if r["status"] == ERROR]
    result["all_errors"] = bool(records) and len(errors) == len(records)
    result["first_error"] = errors[0] if errors else None
    result["errors"] = len(errors)
    result["questions"] = len(records)
    rundir.write_json(os.path.join(workdir, "metrics.json"), result)
    if report:
        build_report([workdir], workdir)
    return result


def check(config, workdir: str, *, n: int = 32, backend=None) -> dict:
    """Asks again, one question at a time, up to `n` questions already answered in `workdir`
    and reports the answers that change (under greedy decoding none should: batch
    composition, padding and server-side batching may still change them). Writes check.json.

    Returns:
      {"asked", "changed": [{"id", "logged", "now"}], "batch_size", "model"}.
    """
    task, _, questions, _ = prepare(config)
    log_path = os.path.join(workdir, "answers.jsonl")
    if not os.path.exists(log_path):
        raise UserError(f"--check needs answers in {workdir}; run the evaluation there first")
    own = backend is None
    backend = backend or make_backend(config)
    done = A.read(log_path)
    try:
        picked = [(q, done[k]) for q in questions
                  if (k := _key(q, backend, task, config)) in done
                  and done[k]["status"] != ERROR][:max(0, int(n))]
        if hasattr(backend, "batch_size"):
            backend.batch_size = 1
        if hasattr(backend, "concurrency"):
            backend.concurrency = 1
        changed = []
        for q, logged in picked:
            now = answer_batch([q], backend, task, config)[0]
            if now.error is None and now.text != logged["raw"]:
                changed.append({"id": q.id, "logged": logged["raw"], "now": now.text})
    finally:
        if own:
            backend.close()
    out = {"asked": len(picked), "changed": changed, "model": backend.model_id,
           "batch_size": int(config.backend.batch_size)}
    rundir.write_json(os.path.join(workdir, "check.json"), out)
    return out
