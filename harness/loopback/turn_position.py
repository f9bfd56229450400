"""Where a request stands in a scripted conversation, for formats whose history is a list of typed entries.

As for chat and Messages, the round answering a request is read from the
request itself: the turn is the user prompt it ends on, the round the number
of model answers since that prompt. Each format names its entries
``"prompt"`` (a user's words), ``"model"`` (what the model sent: a run of
these is one answer, so parallel calls sent back as separate entries still
count once) or ``"other"`` (tool results, instructions).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence

PROMPT, MODEL, OTHER = "prompt", "model", "other"


def position(entries: Sequence[tuple[str, str]], prompts: tuple[str, ...] = ()) -> tuple[int, int]:
    """(turn, round) of a request whose history is ``entries``: (kind, text) pairs in order.

    With ``prompts`` (the probe's, in order) the turn is the one whose prompt
    the last prompt entry holds, so an agent that dropped a failed turn from
    its history is still placed right.
    """
    at = [n for n, (kind, _) in enumerate(entries) if kind == PROMPT]
    turn = max(len(at) - 1, 0)
    start = at[-1] if at else 0
    if at:
        turn = next((t for t, p in enumerate(prompts) if p and p in entries[start][1]), turn)
    kinds = [kind for kind, _ in entries[start:]]
    return turn, sum(1 for n, kind in enumerate(kinds) if kind == MODEL and (n == 0 or kinds[n - 1] != MODEL))


def opaque(seed: str) -> str:
    """A signature-like value: base64 of a digest, as providers' opaque tokens are (only its exact bytes matter)."""
    return base64.b64encode(hashlib.sha256(seed.encode()).digest() * 3).decode()


def short_id(seed: str, length: int = 24) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()[:length]
