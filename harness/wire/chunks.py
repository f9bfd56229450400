"""Streamed chat-completion chunks shaped like real ones: the one chunk builder of every stream contract.

Every chunk carries the envelope OpenAI sends on each chunk of a streamed chat
completion: ``id`` (the same on every chunk of one response), ``object:
"chat.completion.chunk"``, ``created`` (Unix seconds, an integer) and
``model``; each choice carries ``index``, ``delta``, ``logprobs`` and
``finish_reason``; the first delta of the response carries ``role:
"assistant"``; a usage chunk (``stream_options.include_usage``) has the same
envelope, ``choices: []`` and the ``usage`` object. Generated streams draw
the envelope (:data:`harness.testing.streams.envelopes`) instead of fixing it.

Shapes outside that (no role on the first delta, chunks without ``id`` or
``model``, a usage chunk without its envelope or without ``choices``) are
asked for explicitly, by the ``robust`` contracts that name the servers which
send them.

:func:`harness.wire.sse.sse` frames the chunks as a body.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

ENVELOPE_KEYS = ("id", "object", "created", "model")
CHUNK_OBJECT = "chat.completion.chunk"


@dataclass(frozen=True)
class Envelope:
    """What every chunk of one streamed response repeats; ``omit`` names keys a server leaves out."""

    id: str = "chatcmpl-BtQ4nM2v8kXwZr7LpJ0aYcD3eF5gH"
    model: str = "gpt-4o-mini-2024-07-18"
    created: int = 1767225600
    omit: frozenset[str] = field(default_factory=frozenset)

    def fields(self, omit: Iterable[str] = ()) -> dict:
        left_out = self.omit | set(omit)
        every = {"id": self.id, "object": CHUNK_OBJECT, "created": self.created, "model": self.model}
        return {key: value for key, value in every.items() if key not in left_out}


ENVELOPE = Envelope()


def choice_chunk(envelope: Envelope, delta: dict | None, finish_reason: str | None = None) -> dict:
    """A chunk of choice 0 with ``delta`` (``{}`` if None) and ``finish_reason``."""
    return {
        **envelope.fields(),
        "choices": [{"index": 0, "delta": delta or {}, "logprobs": None, "finish_reason": finish_reason}],
    }


def usage_chunk(envelope: Envelope, usage: dict, *, omit: Iterable[str] = (), choices: bool = True) -> dict:
    """The last chunk of a stream asked for ``include_usage``: ``choices: []`` (or none) and ``usage``."""
    chunk = envelope.fields(omit)
    if choices:
        chunk["choices"] = []
    chunk["usage"] = usage
    return chunk


def completion_chunks(
    deltas: Sequence[dict],
    finish_reason: str | None = None,
    *,
    envelope: Envelope = ENVELOPE,
    role: bool = True,
    usage: dict | None = None,
) -> list[dict]:
    """One chunk per delta, then a chunk with an empty delta and ``finish_reason`` (when given), then usage.

    ``role`` puts ``role: "assistant"`` on the first delta, as OpenAI does;
    with no deltas the finish chunk opens the response and carries it.
    """
    chunks = [choice_chunk(envelope, dict(delta)) for delta in deltas]
    if finish_reason is not None:
        chunks.append(choice_chunk(envelope, {}, finish_reason))
    if role and chunks:
        first = chunks[0]["choices"][0]
        first["delta"] = {"role": "assistant", **first["delta"]}
    if usage is not None:
        chunks.append(usage_chunk(envelope, usage))
    return chunks
