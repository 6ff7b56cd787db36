"""The answer log: one JSON line per question, keyed by (question id, model id, prompt hash,
decoding config), appended batch by batch so that a killed run loses at most the batch in flight.

Reading skips a torn last line (the write the kill interrupted); the finished run rewrites the
file atomically with exactly one line per question of its config, in question order.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings

from nhfair_jax import rundir


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def decoding_key(decoding: dict, max_new_tokens: int) -> str:
    """A canonical string of everything about decoding that changes an answer."""
    return json.dumps({**decoding, "max_new_tokens": int(max_new_tokens)}, sort_keys=True)


def record_key(question_id: str, model_id: str, prompt_hash: str, decoding: str) -> str:
    return json.dumps([question_id, model_id, prompt_hash, decoding])


def read(path: str) -> dict[str, dict]:
    """Records by key; the last record of a key wins; unreadable lines are skipped and counted."""
    out, bad = {}, 0
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
                out[record["key"]] = record
            except (ValueError, KeyError, TypeError):
                bad += 1
    if bad:
        warnings.warn(f"{path}: {bad} unreadable line(s) skipped (a run killed mid-write); "
                      "their questions are asked again", UserWarning, stacklevel=2)
    return out


def append(path: str, records: list[dict]) -> None:
    """Appends records and forces them to disk before returning.

    Raises:
      rundir.WriteFailed: the disk is full (or another write error): the file is named; a line
        the failed write cut short is skipped when the log is read, and its question asked
        again by the same command.
    """
    if not records:
        return
    text = "".join(json.dumps(rundir.to_json_safe(r), allow_nan=False) + "\n" for r in records)
    needs_newline = os.path.exists(path) and os.path.getsize(path) > 0 and not _ends_in_newline(
        path)
    try:
        with open(path, "a", encoding="utf-8") as f:
            if needs_newline:  # a torn line from a killed run stays on its own line
                f.write("\n")
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise rundir.WriteFailed(e.errno, f"cannot write {path}: {e.strerror or e}; the answers "
                                 "before this batch are kept (free some space, then run the "
                                 "same command again)") from e


def _ends_in_newline(path: str) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def rewrite(path: str, records: list[dict]) -> None:
    rundir.write_jsonl(path, records)
