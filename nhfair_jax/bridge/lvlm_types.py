"""What an LVLM backend is asked and what it answers, shared by the served backends (lvlm/) and
the local one (bridge/lvlm_hf.py): in the bridge's room, so that neither imports upward."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Request:
    """One question: an image (PIL, RGB), the instruction, the options to score, the budget,
    and the system message ("" sends none)."""

    key: str
    image: object
    prompt: str
    options: tuple | None
    max_new_tokens: int
    image_bytes: bytes | None = None  # the original file's bytes when no crop was applied
    mime: str = "image/jpeg"
    system: str = ""


@dataclass
class Reply:
    """The raw answer, or the error that prevented one; option log-likelihoods when scored;
    why generation stopped ("stop", "length" when the budget ran out, or as the server says);
    the endpoint that answered (a served backend's URL)."""

    text: str | None
    error: str | None = None
    refused: bool = False  # the endpoint itself declined (an OpenAI "refusal" / content filter)
    scores: list | None = None
    finish_reason: str | None = None
    endpoint: str | None = None
