"""The shapes of a chat-completions stream (:mod:`harness.testing.shapes`): where servers put each field and value.

OpenAI puts ``role`` on the first delta only, a call's ``id``, ``type`` and
``function.name`` on its first fragment only, the finish reason in a chunk of
its own and usage in a last chunk with ``choices: []``. OpenAI-compatible
servers and gateways move each of these: role on every delta or none, the
call's identity repeated (or ``null``) on every fragment, the finish reason on
the last delta, usage on the finish chunk or without ``choices``, every call
at ``index`` 0 told apart by a new ``id``, or no ``index`` at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from harness.testing.shapes import Shape, relay


def _choices(events: list) -> Iterator[dict]:
    """Choice 0 of every chunk that has one."""
    for event in events:
        if isinstance(event, dict) and event.get("choices"):
            yield event["choices"][0]


def _fragments(events: list) -> Iterator[dict]:
    for choice in _choices(events):
        yield from (choice.get("delta") or {}).get("tool_calls") or ()


def _deltas(change: Callable[[dict], None]) -> Callable[[list], list]:
    def vary(events: list) -> list:
        for choice in _choices(events):
            change(choice.setdefault("delta", {}))
        return events
    return vary


def _role_everywhere(delta: dict) -> None:
    delta["role"] = "assistant"


def _no_role(delta: dict) -> None:
    delta.pop("role", None)


def _content_null_beside_calls(delta: dict) -> None:
    if delta.get("tool_calls") and "content" not in delta:
        delta["content"] = None


def _heads(events: list) -> dict[int, dict]:
    """Each call's opening fragment, by its index."""
    heads: dict[int, dict] = {}
    for fragment in _fragments(events):
        heads.setdefault(fragment["index"], fragment)
    return heads


def _head_repeated(events: list) -> list:
    heads = _heads(events)
    for fragment in _fragments(events):
        head = heads[fragment["index"]]
        fragment.update(id=head["id"], type=head["type"])
        fragment["function"]["name"] = head["function"]["name"]
    return events


def _head_null(events: list) -> list:
    heads = _heads(events)
    for fragment in _fragments(events):
        if fragment is not heads[fragment["index"]]:
            fragment.update(id=None, type=None)
            fragment["function"]["name"] = None
    return events


def _no_type(events: list) -> list:
    for fragment in _fragments(events):
        fragment.pop("type", None)
    return events


def _one_after_another(events: list) -> bool:
    """Whether every call's fragments come together, the calls in index order (what an index-less server can send)."""
    order = [fragment["index"] for fragment in _fragments(events)]
    return bool(order) and order == sorted(order)


def _renumbered(index: Callable[[dict], None]) -> Callable[[list], list]:
    def vary(events: list) -> list:
        if _one_after_another(events):
            for fragment in _fragments(events):
                index(fragment)
        return events
    return vary


def _at_zero(fragment: dict) -> None:
    fragment["index"] = 0


def _no_index(fragment: dict) -> None:
    del fragment["index"]


def _finish_chunk(events: list) -> int | None:
    """The position of the finish chunk the codec writes (an empty delta and a finish reason)."""
    return next((n for n, e in enumerate(events) if isinstance(e, dict) and e.get("choices")
                 and e["choices"][0].get("finish_reason") is not None and not _carried(e["choices"][0])), None)


def _carried(choice: dict) -> dict:
    return {k: v for k, v in (choice.get("delta") or {}).items() if k != "role"}


def _usage_chunk(events: list) -> int | None:
    return next((n for n, e in enumerate(events) if isinstance(e, dict) and e.get("usage") is not None), None)


def _finish_on_last_delta(events: list) -> list:
    at = _finish_chunk(events)
    if at and events[at - 1].get("choices"):
        finish = events.pop(at)["choices"][0]["finish_reason"]
        events[at - 1]["choices"][0]["finish_reason"] = finish
    return events


def _usage_on_finish(events: list) -> list:
    at, finish = _usage_chunk(events), _finish_chunk(events)
    if at is not None and finish is not None:
        events[finish]["usage"] = events.pop(at)["usage"]
    return events


def _usage_without_choices(events: list) -> list:
    at = _usage_chunk(events)
    if at is not None:
        events[at].pop("choices", None)
    return events


def _usage_null_before(events: list) -> list:
    for event in events:
        if isinstance(event, dict):
            event.setdefault("usage", None)
    return events


SHAPES = (
    Shape("role on every delta", "servers that write each delta whole", _deltas(_role_everywhere)),
    Shape("content null beside calls", "OpenAI", _deltas(_content_null_beside_calls)),
    Shape("finish on the last delta", "vLLM and most compatible servers", _finish_on_last_delta),
    Shape("usage on the finish chunk", "DeepSeek and compatible servers", _usage_on_finish),
    Shape("usage null on every other chunk", "OpenAI with include_usage", _usage_null_before),
    relay("no role", "servers that leave the role out", _deltas(_no_role)),
    relay("call identity on every fragment", "gateways translating whole calls", _head_repeated),
    relay("call identity null after the first fragment", "proxies replaying SDK dumps", _head_null),
    relay("no call type", "servers that leave type out", _no_type),
    relay("every call at index 0", "Gemini, Ollama and translating gateways", _renumbered(_at_zero)),
    relay("calls without index", "servers that omit index", _renumbered(_no_index)),
    relay("usage chunk without choices", "compatible servers", _usage_without_choices),
)
