"""The embedding cache: encode each split once per checkpoint, reuse it memory-mapped.

Layout under the cache root (default `<data cache>/embeddings`):

  <checkpoint hash[:16]>/model.json                     what the checkpoint is (type, logit scale)
  <checkpoint hash[:16]>/images-<data set>-<split>-<key>.npy   [N, D] or [N, Q, D] float32
  <checkpoint hash[:16]>/images-...-<key>.json          the key's fields and the rows' ids
  <checkpoint hash[:16]>/texts-<key>.npy / .json        one prompt set's caption embeddings

The image key hashes everything that changes which images a split holds or how they are fed to
the model: data set, root, split seed, loader options, target, sensitive attribute, stored image
size, the processor's resize / crop / normalisation settings and the bridge version. The text key
hashes the captions themselves, so a changed prompt never reuses another's embeddings. The
checkpoint hash covers every file of the checkpoint directory. Files are written atomically
(temp file + rename), the array before its description, and an entry counts only when both exist
and the description matches: a killed or failed encode leaves nothing that could be reused.
"""

from __future__ import annotations

import hashlib
import json
import os

import numpy as np

from nhfair_jax import rundir
from nhfair_jax.bridge.clip import checkpoint_hash


def _key(payload) -> str:
    return hashlib.sha256(json.dumps(rundir.to_json_safe(payload), sort_keys=True).encode()) \
        .hexdigest()[:20]


def _save_npy(path: str, array: np.ndarray) -> None:
    rundir.atomic_write(path, lambda f: np.save(f, np.ascontiguousarray(array, np.float32)),
                        mode="wb")


def rows_digest(indices: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(indices, np.int64).tobytes()).hexdigest()


class EmbeddingCache:
    """Embeddings on disk, keyed by checkpoint content and by what was encoded.

    Args:
      root: the cache folder (created on first write).
    """

    def __init__(self, root: str):
        self.root = root
        self.hits, self.misses = 0, 0

    def checkpoint_id(self, path: str) -> str:
        """The content hash of a checkpoint directory, remembered per (path, file sizes and
        modification times) so that an unchanged checkpoint is not re-read on every run."""

        stamp = []
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(f for f in files if not f.startswith(".")):
                st = os.stat(os.path.join(folder, name))
                stamp.append([os.path.relpath(os.path.join(folder, name), path), st.st_size,
                              st.st_mtime_ns])
        memo_path = os.path.join(self.root, "checkpoints.json")
        memo = {}
        if os.path.exists(memo_path):
            try:
                memo = rundir.read_json(memo_path)
            except (OSError, json.JSONDecodeError):
                memo = {}
        entry = memo.get(os.path.abspath(path))
        if entry and entry.get("stamp") == stamp:
            return entry["hash"]
        digest = checkpoint_hash(path)
        os.makedirs(self.root, exist_ok=True)
        memo[os.path.abspath(path)] = {"stamp": stamp, "hash": digest}
        rundir.write_json(memo_path, memo)
        return digest

    def _folder(self, checkpoint: str) -> str:
        return os.path.join(self.root, checkpoint[:16])

    def _lookup(self, base: str, description: dict):
        npy, meta = base + ".npy", base + ".json"
        if os.path.exists(npy) and os.path.exists(meta):
            try:
                stored = rundir.read_json(meta)
            except (OSError, json.JSONDecodeError):
                stored = None
            if stored == rundir.to_json_safe(description):
                try:
                    array = np.load(npy, mmap_mode="r")
                except (OSError, ValueError):
                    array = None
                if array is not None:
                    self.hits += 1
                    return array
        return None

    def _store(self, base: str, description: dict, array: np.ndarray) -> np.ndarray:
        os.makedirs(os.path.dirname(base), exist_ok=True)
        _save_npy(base + ".npy", array)
        rundir.write_json(base + ".json", description)  # last: the entry is valid from here on
        self.misses += 1
        return np.load(base + ".npy", mmap_mode="r")

    def images(self, checkpoint: str, key_fields: dict, indices: np.ndarray, compute):
        """The image embeddings of one split, computed by `compute()` on a miss.

        Args:
          checkpoint: the checkpoint's content hash.
          key_fields: JSON-able fields that identify the split and the preprocessing (must
            include "dataset" and "split").
          indices: the split's example ids; a stored entry for other rows is never reused.
          compute: a function returning the float32 embeddings, one row per index.
        """
        key = _key({**key_fields, "checkpoint": checkpoint})
        base = os.path.join(self._folder(checkpoint),
                            f"images-{key_fields['dataset']}-{key_fields['split']}-{key}")
        description = {**key_fields, "checkpoint": checkpoint, "rows": len(indices),
                       "rows_sha256": rows_digest(indices)}
        cached = self._lookup(base, description)
        if cached is not None:
            return cached
        array = np.asarray(compute(), np.float32)
        if len(array) != len(indices):
            raise RuntimeError(f"encoded {len(array)} images for {len(indices)} rows")
        return self._store(base, description, array)

    def texts(self, checkpoint: str, texts, compute, extra: dict | None = None):
        """The embeddings of a list of captions, computed by `compute(texts)` on a miss."""
        texts = list(texts)
        fields = {"texts": texts, "checkpoint": checkpoint, **(extra or {})}
        base = os.path.join(self._folder(checkpoint), f"texts-{_key(fields)}")
        cached = self._lookup(base, fields)
        if cached is not None:
            return cached
        array = np.asarray(compute(texts), np.float32)
        if len(array) != len(texts):
            raise RuntimeError(f"encoded {len(array)} captions for {len(texts)}")
        return self._store(base, fields, array)

    def model_info(self, checkpoint: str, compute) -> dict:
        """Facts about the checkpoint that need the model (its logit scale), stored once."""
        path = os.path.join(self._folder(checkpoint), "model.json")
        if os.path.exists(path):
            try:
                return rundir.read_json(path)
            except (OSError, json.JSONDecodeError):
                pass
        info = compute()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        rundir.write_json(path, info)
        return info
