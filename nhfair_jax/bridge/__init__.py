"""The torch bridge: the only modules of the package that import torch, transformers or
diffusers. Everything after embeddings, answers or edited images is JAX / NumPy.

Each submodule serves one study (image-text embeddings, LVLM answers, image editing) and imports
its heavy dependencies lazily through `require`, so that `import nhfair_jax` never needs torch.
"""

from __future__ import annotations

import importlib

from nhfair_jax.errors import UserError

# The extra that brings each optional dependency, for the error message.
_EXTRA = {"torch": "zeroshot", "transformers": "zeroshot", "diffusers": "generate",
          "PIL": "zeroshot"}


def require(module: str, *, extra: str | None = None):
    """Imports an optional dependency, or raises a one-line UserError saying how to install it.

    Args:
      module: the module to import, e.g. "torch" or "transformers".
      extra: the package extra that provides it; defaults to the one this bridge knows.
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        extra = extra or _EXTRA.get(module.split(".")[0], "zeroshot")
        hint = ('pip install "torch==2.13.0" first for the CPU build, then ' if module != "torch"
                else 'pip install "torch==2.13.0" (the CPU build; a CUDA build on GPUs), then ')
        raise UserError(f"{module} is not installed ({e}); {hint}pip install -e \".[{extra}]\"") \
            from e


def torch_device(name: str = "auto") -> str:
    """"cuda" when asked for or when available under "auto", else "cpu"."""
    torch = require("torch")
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return name
