"""The layout of a Gemini ``streamGenerateContent`` stream as the API emits it.

Every chunk is a ``GenerateContentResponse`` with its ``responseId`` (one for
the stream) and ``modelVersion`` and a ``candidates`` list; a candidate's
``content``, when it has one, holds parts; the finish reason comes once, on
the last chunk (never the proto default ``FINISH_REASON_UNSPECIFIED``), and
the last chunk carries the turn's ``usageMetadata``.
"""

from __future__ import annotations

from harness.rules.stream_faults import StreamFault, StreamRules, not_objects

CHUNKS = "gemini-stream-chunks"
CONTENT = "gemini-stream-content"
FINISH = "gemini-stream-finish"
USAGE = "gemini-stream-usage"
RULES = (CHUNKS, CONTENT, FINISH, USAGE)

UNSPECIFIED = "FINISH_REASON_UNSPECIFIED"


def stream_faults(values: list) -> list[StreamFault]:
    """Every fault of a Gemini stream's event values."""
    chunks = [(n, v) for n, v in enumerate(values) if isinstance(v, dict)]
    faults = not_objects(CHUNKS, values)
    ids = {c.get("responseId") for _, c in chunks}
    if len(ids) > 1 or any(not isinstance(i, str) for i in ids):
        faults.append(StreamFault(CHUNKS, None, f"the chunks carry responseId {sorted(map(repr, ids))}; one id names "
                                  "them all"))
    for n, chunk in chunks:
        candidates = chunk.get("candidates")
        if not isinstance(chunk.get("modelVersion"), str) or not (isinstance(candidates, list) and candidates):
            faults.append(StreamFault(CHUNKS, n, f"a chunk without modelVersion or candidates: {sorted(chunk)}"))
        for candidate in candidates if isinstance(candidates, list) else ():
            faults += _candidate(n, candidate, n == len(values) - 1)
    if not chunks or not any(c.get("finishReason") for c in _candidates(chunks[-1][1])):
        faults.append(StreamFault(FINISH, chunks[-1][0] if chunks else None, "the last chunk has no finishReason"))
    if not chunks or not isinstance(chunks[-1][1].get("usageMetadata"), dict):
        faults.append(StreamFault(USAGE, chunks[-1][0] if chunks else None, "the last chunk has no usageMetadata"))
    return faults


def _candidates(chunk: dict) -> list[dict]:
    found = chunk.get("candidates")
    return [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []


def _candidate(n: int, candidate: object, last: bool) -> list[StreamFault]:
    if not isinstance(candidate, dict):
        return [StreamFault(CHUNKS, n, f"a candidate that is {candidate!r}")]
    faults = []
    content = candidate.get("content")
    if content is not None and not (isinstance(content, dict) and isinstance(content.get("parts"), list)
                                    and content["parts"]):
        faults.append(StreamFault(CONTENT, n, f"a candidate content without parts: {content!r}"))
    reason = candidate.get("finishReason")
    if reason == UNSPECIFIED or (reason is not None and not last):
        faults.append(StreamFault(FINISH, n, f"finishReason {reason!r} on a chunk before the last" if not last else
                                  f"finishReason {reason!r}"))
    return faults


STREAM_RULES = StreamRules(RULES, stream_faults)
