"""Cleaning an answer before it is read: chat residue (role markers and special tokens before
it, a next turn after it) and echoes of the prompt are removed."""

from __future__ import annotations

import re

_ROLE = re.compile(r"(?:\bASSISTANT\s*:|<\|?assistant\|?>|\[/INST\]|<start_of_turn>\s*model|"
                   r"<\|im_start\|>\s*assistant|<\|start_header_id\|>\s*assistant\s*"
                   r"<\|end_header_id\|>|^\s*(?:assistant|model)\s*$|###\s*Assistant\s*:|"
                   r"\bGPT\s*:)", re.IGNORECASE | re.MULTILINE)
_NEXT_TURN = re.compile(r"(?:^\s*(?:USER|Human|HUMAN|User)\s*:|<\|im_start\|>\s*user|"
                        r"<start_of_turn>\s*user|<\|start_header_id\|>\s*user|"
                        r"###\s*(?:Human|User)\s*:|\[INST\]|<\|user\|>)", re.MULTILINE)
_SPECIAL = re.compile(r"<\|[^|<>\s]{1,40}\|>|</?s>|<(?:end_of_turn|start_of_turn|eos|bos|pad|"
                      r"unk|image|end_of_image|start_of_image|eot_id)>", re.IGNORECASE)
_TRANSLATE = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                            "\u2013": " - ", "\u2014": " - ", "\u00a0": " "})


def _echo_pieces(prompt: str) -> list[str]:
    # Sentences end after a word, not after an option letter ("A. Yes, B. No").
    pieces = [prompt] + [s for s in re.split(r"(?<=[a-z0-9'][.?!])\s+", prompt) if len(s) >= 12]
    # a sentence echoed without its first word or two ("Only answer 'Yes' for ..." echoed as
    # "Answer 'Yes' for ..."), where six words or more remain
    pieces += [" ".join(piece.split()[k:]) for piece in list(pieces) for k in (1, 2)
               if len(piece.split()) - k >= 6]
    pieces += re.findall(r"\[[^\]]{3,}\]", prompt)  # the class list
    pieces += re.findall(r"A\. Yes, B\. No, C\. Unknown\.?", prompt)
    return sorted({p.strip() for p in pieces if p.strip()}, key=len, reverse=True)


def strip_echo(answer: str, prompt: str = "") -> str:
    """The answer without chat residue (role markers and special tokens before it, a next
    turn after it) and without echoes of the prompt."""
    answer = answer.translate(_TRANSLATE)
    # the answer starts after the last role marker before the first next turn that follows
    # some text: a model that goes on to write a user's turn and its own reply ('"male"
    # USER: And the person behind? ASSISTANT: "female"') answered with what came first
    start = 0
    for nxt in _NEXT_TURN.finditer(answer):
        markers = list(_ROLE.finditer(answer, start, nxt.start()))
        begin = markers[-1].end() if markers else start
        if answer[begin:nxt.start()].strip():
            answer = answer[:nxt.start()]
            break
        start = nxt.end()
    markers = list(_ROLE.finditer(answer))
    if markers:
        answer = answer[markers[-1].end():]
    answer = _SPECIAL.sub(" ", answer)
    if prompt:
        for piece in _echo_pieces(prompt.translate(_TRANSLATE)):
            words = [re.escape(w) for w in piece.split()]
            answer = re.sub(r"\s+".join(words), " ", answer, flags=re.IGNORECASE)
    return answer.strip()
