"""Streamed chat completions shaped like real ones: the one SSE builder of every stream contract.

Every chunk carries the envelope OpenAI sends on each chunk of a streamed chat
completion: ``id`` (the same on every chunk of one response), ``object:
"chat.completion.chunk"``, ``created`` (Unix seconds, an integer) and
``model``; each choice carries ``index``, ``delta``, ``logprobs`` and
``finish_reason``; the first delta of the response carries ``role:
"assistant"``; a usage chunk (``stream_options.include_usage``) has the same
envelope, ``choices: []`` and the ``usage`` object. Generated streams draw
the envelope (:data:`envelopes`) instead of fixing it.

Shapes outside that (no role on the first delta, chunks without ``id`` or
``model``, a usage chunk without its envelope or without ``choices``) are
asked for explicitly, by the ``robust`` contracts that name the servers which
send them.

:func:`sse` frames the chunks as a body; :class:`Framing` says how (space
after ``data:``, line ends, keep-alive comments, ``[DONE]``, the closing blank
line of the last event).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hypothesis import strategies as st

__all__ = [
    "ENVELOPE",
    "ENVELOPE_KEYS",
    "PLAIN",
    "Envelope",
    "Framing",
    "choice_chunk",
    "completion_chunks",
    "envelopes",
    "shown",
    "sse",
    "usage_chunk",
]

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

# Model names as servers report them in chunks: OpenAI's dated snapshots, DeepSeek's, and gateway ones.
MODELS = (
    "gpt-4o-mini-2024-07-18",
    "gpt-4.1-2025-04-14",
    "o4-mini-2025-04-16",
    "deepseek-chat",
    "deepseek-reasoner",
    "qwen3-32b",
    "llama3.1:8b",
    "gemini-2.5-flash",
    "mistral-small-latest",
)
_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

envelopes = st.builds(
    Envelope,
    id=st.one_of(
        st.text(_ID_ALPHABET, min_size=29, max_size=29).map("chatcmpl-".__add__),  # OpenAI
        st.uuids().map(str),  # DeepSeek
        st.uuids().map(lambda u: f"chatcmpl-{u.hex}"),  # vLLM
    ),
    model=st.sampled_from(MODELS),
    created=st.integers(min_value=1_600_000_000, max_value=2_000_000_000),
)


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


@dataclass(frozen=True)
class Framing:
    """How the events of a body are written.

    ``space``: ``data: `` rather than ``data:``; ``line_end``: ``"\\n"``,
    ``"\\r\\n"`` or ``"\\r"``; ``keep_alive``: a ``: keep-alive`` comment event
    before the first event and after each; ``done``: a closing ``data: [DONE]``
    event; ``terminated``: the last event ends with its blank line (without
    one, WHATWG SSE discards that event).
    """

    space: bool = True
    line_end: str = "\n"
    keep_alive: bool = False
    done: bool = True
    terminated: bool = True


PLAIN = Framing()


def sse(chunks: Iterable[dict], framing: Framing = PLAIN) -> bytes:
    """``chunks`` as an SSE body, one ``data:`` event each, framed by ``framing``."""
    prefix = "data: " if framing.space else "data:"
    payloads = [json.dumps(chunk, ensure_ascii=False) for chunk in chunks]
    if framing.done:
        payloads.append("[DONE]")
    end = framing.line_end
    comment = f": keep-alive{end}{end}" if framing.keep_alive else ""
    events = [f"{prefix}{payload}{end}{end}{comment}" for payload in payloads]
    body = comment + "".join(events)
    if not framing.terminated and events:
        # The last event stops right after its data line: no line end, no blank line.
        body = body[: len(body) - len(comment) - 2 * len(end)]
    return body.encode()


def shown(value, limit: int = 1500) -> str:
    """``value`` for an assertion message: bytes decoded, cut to ``limit`` characters."""
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
