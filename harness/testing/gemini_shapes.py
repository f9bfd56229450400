"""The shapes of a Gemini stream (:mod:`harness.testing.shapes`): where the finish, the usage and the metadata ride.

The codec writes the finish reason and the turn's usage on the last chunk
with parts, every candidate with its ``role`` and ``index``, and a signature
on an empty text part with its ``text``. Gemini itself also sends usage on
every chunk or on the last only, the finish in a chunk of its own, a
signature-only part without ``text``, and leaves out the optional ``role``
and ``index``; relays send a finishing content with only its role, usage in a
chunk without candidates, the proto default ``FINISH_REASON_UNSPECIFIED`` on
every unfinished chunk, and leave out the response's metadata.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.testing.shapes import Shape, relay

_METADATA = ("modelVersion", "responseId")


def _candidates(events: list) -> list[dict]:
    return [c for e in events for c in e.get("candidates") or ()]


def _finish_alone(content: dict | None) -> Callable[[list], list]:
    """The last chunk's finish reason and usage moved into a chunk of their own (its content: ``content``)."""
    def vary(events: list) -> list:
        last = events[-1]
        candidate = last["candidates"][0]
        if not (candidate.get("content") or {}).get("parts") or "finishReason" not in candidate:
            return events
        alone: dict = {"finishReason": candidate.pop("finishReason")}
        if content is not None:
            alone["content"] = dict(content)
        if "index" in candidate:
            alone["index"] = candidate["index"]
        chunk: dict = {"candidates": [alone]}
        if "usageMetadata" in last:
            chunk["usageMetadata"] = last.pop("usageMetadata")
        return [*events, {**chunk, **_metadata(last)}]
    return vary


def _metadata(chunk: dict) -> dict:
    return {key: chunk[key] for key in _METADATA if key in chunk}


def _usage_alone(events: list) -> list:
    last = events[-1]
    if "usageMetadata" in last:
        events.append({"usageMetadata": last.pop("usageMetadata"), **_metadata(last)})
    return events


def _usage_everywhere(events: list) -> list:
    usage = events[-1].get("usageMetadata")
    if usage is not None:
        for event in events:
            event["usageMetadata"] = dict(usage)
    return events


def _usage_last_only(events: list) -> list:
    for event in events[:-1]:
        event.pop("usageMetadata", None)
    return events


def _interim_unspecified(events: list) -> list:
    for candidate in _candidates(events[:-1]):
        candidate.setdefault("finishReason", "FINISH_REASON_UNSPECIFIED")
    return events


def _signature_alone(events: list) -> list:
    for candidate in _candidates(events):
        for part in (candidate.get("content") or {}).get("parts") or ():
            if part.keys() == {"text", "thoughtSignature"} and not part["text"]:
                del part["text"]
    return events


def _drop(where: Callable[[list], list], key: str) -> Callable[[list], list]:
    def vary(events: list) -> list:
        for holder in where(events):
            holder.pop(key, None)
        return events
    return vary


def _contents(events: list) -> list[dict]:
    return [c["content"] for c in _candidates(events) if "content" in c]


def _chunks(events: list) -> list[dict]:
    return events


SHAPES = (
    Shape("usage on every chunk", "Gemini", _usage_everywhere),
    Shape("usage on the last chunk only", "Gemini", _usage_last_only),
    Shape("finish in a chunk of its own", "Gemini", _finish_alone(None)),
    Shape("signature-only part without text", "Gemini", _signature_alone),
    Shape("content without role", "Gemini (role is optional)", _drop(_contents, "role")),
    Shape("candidate without index", "Gemini (index is optional)", _drop(_candidates, "index")),
    relay("finish in a chunk whose content has only its role", "relays", _finish_alone({"role": "model"})),
    relay("usage in a chunk without candidates", "relays", _usage_alone),
    relay("FINISH_REASON_UNSPECIFIED before the finish", "relays writing proto defaults", _interim_unspecified),
    relay("no modelVersion", "relays", _drop(_chunks, "modelVersion")),
    relay("no responseId", "relays", _drop(_chunks, "responseId")),
)
