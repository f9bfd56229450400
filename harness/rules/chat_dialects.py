"""Reasoning dialects of chat completions: opaque values an endpoint sends and must get back unchanged.

Gateways and compatible endpoints carry a model's reasoning on the chat format
in fields of their own; each is one row here, chosen by the endpoint's row of
the model table (:mod:`harness.rules.models`, ``dialect``):

``reasoning-details`` (OpenRouter)
    ``reasoning_details``, an array on the assistant message (and on stream
    deltas, whose pieces are joined by each entry's ``index``): typed entries
    (``reasoning.text`` with ``text`` and ``signature``, ``reasoning.summary``,
    ``reasoning.encrypted`` with ``data``) that go back on the next request's
    assistant message, unmodified and in order.
``extra-content`` (Google's OpenAI-compatible endpoint)
    ``extra_content`` on each tool call (``{"google": {"thought_signature":
    ...}}``), which goes back on that same call.

A value is judged as JSON, byte for byte in its strings: the provider checks
signatures, so a changed character, a reordered entry or a value moved to
another call is refused like a missing one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from harness.rules.models import ModelRow

MESSAGE, CALL = "message", "call"


@dataclass(frozen=True)
class Dialect:
    """Where an endpoint's opaque reasoning values travel, and how it refuses a request that lost them."""

    name: str
    field: str  # the key carrying the values
    place: str  # MESSAGE: an array on the assistant message; CALL: a value on each tool call
    missing: str  # the provider's 400 when a value it sent is not sent back ({name}, {n}: the call and message)
    changed: str  # ... and when it comes back changed
    sources: tuple[str, ...]  # public reports of the 400s and of the bugs behind them


DIALECTS = {d.name: d for d in (
    Dialect("reasoning-details", "reasoning_details", MESSAGE,
            "thinking is enabled but reasoning_content is missing in assistant tool call message",
            "Invalid signature in thinking block",
            ("github.com/earendil-works/pi/issues/989", "github.com/OpenRouterTeam/ai-sdk-provider/pull/395",
             "github.com/RooCodeInc/Roo-Code/issues/9125")),
    Dialect("extra-content", "extra_content", CALL,
            "Unable to submit request because function call `{name}` in the {n}. content block is missing a "
            "`thought_signature`.",
            "Corrupted thought signature.",
            ("github.com/8monkey-ai/hebo-gateway/issues/226", "github.com/OpenRouterTeam/ai-sdk-provider/pull/468",
             "github.com/langchain-ai/langchain/issues/37347")),
)}


@dataclass(frozen=True)
class Refused:
    """One value the endpoint wants back and did not get: where, and the endpoint's answer."""

    where: str
    answer: str

    def __str__(self) -> str:
        return f"{self.where}: {self.answer}"


def dialect_of(row: ModelRow) -> Dialect | None:
    """The dialect ``row``'s endpoint speaks, or None."""
    return DIALECTS[row.dialect] if row.dialect else None


def same(a: object, b: object) -> bool:
    """Whether two JSON values are the same value, types and every character of every string included."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def refusals(dialect: Dialect, sent: dict, message: object, n: int) -> list[Refused]:
    """The provider's refusals of ``message`` (a request's assistant message, number ``n``), which replays the
    response ``sent`` (the neutral turn the provider streamed: ``reasoning_details``, ``tool_calls`` with their
    ``extra_content``), each with what went wrong, in its words."""
    message = message if isinstance(message, dict) else {}
    if dialect.place == MESSAGE:
        expected = sent.get(dialect.field)
        if not expected:
            return []
        found = message.get(dialect.field)
        if found is None:
            return [Refused(f"message #{n} has no {dialect.field}", dialect.missing)]
        return [] if same(found, expected) else [Refused(f"message #{n} carries {dialect.field} changed",
                                                         dialect.changed)]
    # A value the endpoint did not send on that call (another call's, or made up) fails verification too.
    expected = {c.get("id"): c.get(dialect.field) for c in sent.get("tool_calls") or ()}
    names = {c.get("id"): c.get("name") for c in sent.get("tool_calls") or ()}
    found = {c.get("id"): c.get(dialect.field) for c in message.get("tool_calls") or () if isinstance(c, dict)}
    problems = []
    for cid in dict.fromkeys([*expected, *found]):
        want, got = expected.get(cid), found.get(cid)
        if want is not None and got is None:
            problems.append(Refused(f"call {cid!r} of message #{n} has no {dialect.field}",
                                    dialect.missing.format(name=names.get(cid), n=n + 1)))
        elif got is not None and (want is None or not same(got, want)):
            how = "changed" if want is not None else "the endpoint did not send on it"
            problems.append(Refused(f"call {cid!r} of message #{n} carries {dialect.field} {how}", dialect.changed))
    return problems
