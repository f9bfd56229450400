"""Provider profiles: what a generic chat-completions body becomes for one provider.

The kernel builds one generic OpenAI-compatible body; the profile chosen by the
base URL's host then adjusts it. Only the exact host ``api.deepseek.com`` gets
the DeepSeek profile (a look-alike such as ``api.deepseek.com.evil.io`` must
not); every other host gets the generic profile.

Wire rules kept here (each one took a production agent down when broken):

- DeepSeek's thinking switch is ``"thinking": {"type": ...}`` at the TOP LEVEL of
  the raw JSON body. ``extra_body`` is an OpenAI-SDK argument the SDK flattens;
  sent raw, the server ignores it and thinking silently stays on.
- No ``thinking`` key when the caller did not ask; ``off`` sends ``disabled``.
  DeepSeek's effort ladder is low/high/max and the server reads ``medium`` as
  high, so medium is sent as low to keep the settings distinguishable.
- A sub-agent (``role: "executor"``) does not inherit the caller's setting: its
  rounds default to thinking disabled.
- With ``tools``, DeepSeek requires earlier assistant turns to carry
  ``reasoning_content``; which turns depends on the rule era. Turns persisted
  before reasoning was stored get ``""`` (by community reports the server
  checks presence, not content), and a real value is never overwritten. What
  DeepSeek gets in ``reasoning_content`` is always a string: a null is dropped,
  or backfilled where the rule asks for the field.
- The generic profile never sends ``reasoning_content`` or ``thinking``: strict
  endpoints reject unknown message fields.
- OpenAI's newest chat models refuse function tools beside a reasoning effort;
  to them, with function tools, the effort goes as ``"none"`` (the word they
  take), and a warning says the asked one was not sent.
- Mistral's models take tool call ids of 9 letters and digits only: to them,
  every other id is renamed, the same way in the call and in its result, two
  ids never to one.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from harness.adapter import EFFORTS, ERAS, ROLES

DEEPSEEK_HOST = "api.deepseek.com"
# Chat model families that refuse function tools beside reasoning_effort (other than "none").
NO_TOOLS_BESIDE_EFFORT = ("gpt-5.6", "gpt-6")
_log = logging.getLogger(__name__)
_NO_EFFORT_BESIDE_TOOLS = "%s takes no reasoning_effort beside function tools: sent 'none' instead of %r"
# Chat model families whose tokenizer takes 9-character alphanumeric tool call ids only.
MISTRAL_FAMILIES = ("mistral-", "magistral-", "codestral-", "devstral-", "ministral-", "pixtral-", "open-mistral-",
                    "open-mixtral-")
_MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")
_ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class RequestOptions:
    """The plain-JSON ``options`` of ``transform_request``, checked."""

    base_url: str | None = None
    effort: str | None = None
    role: str = "main"
    era: str = "current"

    @classmethod
    def from_json(cls, options: Mapping[str, Any]) -> RequestOptions:
        parsed = cls(
            base_url=options.get("base_url"),
            effort=options.get("effort"),
            role=options.get("role") or "main",
            era=options.get("era") or "current",
        )
        for name, allowed in (("effort", (None, *EFFORTS)), ("role", ROLES), ("era", ERAS)):
            if getattr(parsed, name) not in allowed:
                raise ValueError(f"option {name}={getattr(parsed, name)!r}; expected one of {allowed}")  # pragma: no mutate (out of scope: `f"option {name}={getattr(parsed, name)!r}; expected one of {allowed}"` -> `None`: error wording)
        return parsed


class Profile(Protocol):
    replays_reasoning: bool  # persisted reasoning goes back into rendered history

    def transform(self, body: dict, options: RequestOptions) -> dict: ...


class GenericProfile:
    """Any OpenAI-compatible endpoint: effort passes through, reasoning is never sent back."""

    replays_reasoning = False

    def transform(self, body: dict, options: RequestOptions) -> dict:
        body["messages"] = [_without_reasoning(m) for m in body["messages"]]
        if str(body.get("model") or "").lower().startswith(MISTRAL_FAMILIES):  # pragma: no mutate (equivalent: `or ""` -> `or "XXXX"`: no family's name starts with "xxxx", so a model left out still reads as none)
            body["messages"] = _mistral_ids(body["messages"])
        # No portable word for "off" exists here, so it sends nothing.
        if options.effort in (None, "off"):
            return body
        if _function_tools(body) and str(body.get("model") or "").lower().startswith(NO_TOOLS_BESIDE_EFFORT):  # pragma: no mutate (equivalent: `or ""` -> `or "XXXX"`: no family's name starts with "xxxx", so a model left out still reads as none)
            _log.warning(_NO_EFFORT_BESIDE_TOOLS, body.get("model"), options.effort)  # pragma: no mutate (out of scope: `body.get("model")` -> `None`, `"model"` -> *, `options.effort` -> `None`: the warning's wording)
            body["reasoning_effort"] = "none"  # pragma: no mutate (out of scope: `"none"` -> `None`: null, "none" and no reasoning_effort all send no effort, and the model takes each)
            return body
        body["reasoning_effort"] = options.effort
        return body


class DeepSeekProfile:
    """``api.deepseek.com``: the thinking switch, the effort ladder, the reasoning rule of an era."""

    replays_reasoning = True

    def transform(self, body: dict, options: RequestOptions) -> dict:
        _switch_thinking(body, options)
        carried = _carry_reasoning(body["messages"], options.era, bool(body.get("tools")))
        # The field goes as a string or not at all: a null (an old record's) is no reasoning.
        body["messages"] = [_without_null_reasoning(m) for m in carried]
        return body


GENERIC = GenericProfile()
DEEPSEEK = DeepSeekProfile()


def profile_for(base_url: str | None) -> Profile:
    """The profile of the provider at ``base_url``; ``None`` means generic."""
    if not base_url:
        return GENERIC
    return DEEPSEEK if urlsplit(base_url).hostname == DEEPSEEK_HOST else GENERIC


def transform_request(body: dict, options: Mapping[str, Any]) -> dict:
    """A new body for the provider ``options["base_url"]`` names; ``body`` is left as it was."""
    parsed = RequestOptions.from_json(options)
    return profile_for(parsed.base_url).transform(copy.deepcopy(body), parsed)


def _mistral_ids(messages: list[dict]) -> list[dict]:
    """``messages`` with every call id Mistral would refuse renamed, calls and results alike."""
    renamed: dict[str, str] = {}
    taken = {m.get("tool_call_id") for m in messages} | {c.get("id") for m in messages for c in m.get("tool_calls") or ()}  # pragma: no mutate (out of scope: `|` -> `&`, `"tool_call_id"` -> *, `"id"` -> *, `"tool_calls"` -> *: the ids of calls and of results are one set in every history a provider takes (each call answered, each result answering a call))

    def new_id(old: object) -> object:
        if not isinstance(old, str) or _MISTRAL_ID.fullmatch(old):
            return old
        if old not in renamed:
            salt = 0  # pragma: no mutate (out of scope: `0` -> `1`: which nine characters a renamed id gets is the adapter's own)
            while True:  # a renamed id never meets another id of the conversation
                digest = int.from_bytes(hashlib.sha256(f"{salt}:{old}".encode()).digest()[:8], "big")  # pragma: no mutate (out of scope: `"big"` -> ``, `[:8]` -> `[:9]`: which nine characters a renamed id gets is the adapter's own)
                candidate = "".join(_ALPHANUMERIC[(digest >> (6 * k)) % 62] for k in range(9))  # pragma: no mutate (out of scope: `6 * k` -> `7 * k`: which nine characters a renamed id gets is the adapter's own)
                if candidate not in taken:
                    break
                salt += 1
            renamed[old] = candidate
            taken.add(candidate)  # pragma: no mutate (out of scope: `candidate` -> `None`: a renamed id meets another renamed one only where two ids' sha256 digests give one nine-character name, an input no contract can find)
        return renamed[old]

    out = []
    for message in messages:
        if message.get("tool_calls"):
            message = {**message, "tool_calls": [{**c, "id": new_id(c.get("id"))} for c in message["tool_calls"]]}
        if message.get("role") == "tool" and "tool_call_id" in message:  # pragma: no mutate (out of scope: `and` -> `or`: it differs only for a tool message without tool_call_id or another role's message with one, which the format refuses)
            message = {**message, "tool_call_id": new_id(message["tool_call_id"])}
        out.append(message)
    return out


def _function_tools(body: dict) -> bool:
    return any(isinstance(t, dict) and t.get("type") == "function" for t in body.get("tools") or ())


def _switch_thinking(body: dict, options: RequestOptions) -> None:
    effort = options.effort
    if effort is None and options.role == "executor":
        # A sub-agent executes a task; the default high-effort thinking only slows it.
        effort = "off"
    if effort is None:
        return  # the caller did not ask: the server default stands
    if effort == "off":
        _set_thinking(body, "disabled")
        return
    _set_thinking(body, "enabled")
    body["reasoning_effort"] = _deepseek_effort(effort)


def _deepseek_effort(effort: str) -> str:
    # The server reads medium as high; sent as low, the slider's settings stay distinct.
    return {"low": "low", "medium": "low", "high": "high", "max": "max"}[effort]


def _set_thinking(body: dict, state: str) -> None:
    # Top level of the raw body: the server never looks inside an "extra_body".
    body["thinking"] = {"type": state}


def _carry_reasoning(messages: list[dict], era: str, has_tools: bool) -> list[dict]:
    if era == "r1":
        # R1 rejects reasoning sent back as an intermediate result.
        return [_without_reasoning(m) for m in messages]
    if not has_tools:
        return messages  # without tools the server ignores the field either way
    return [_backfilled(m) if _must_carry(m, era) else m for m in messages]


def _must_carry(message: dict, era: str) -> bool:
    if message.get("role") != "assistant":
        return False
    # V3.2 asks it of tool-call turns; the current rule of every earlier assistant turn.
    return era == "current" or bool(message.get("tool_calls"))


def _backfilled(message: dict) -> dict:
    if message.get("reasoning_content") is not None:
        return message  # real reasoning (or an explicit "") is never overwritten
    return {**message, "reasoning_content": ""}


def _without_null_reasoning(message: dict) -> dict:
    return _without_reasoning(message) if message.get("reasoning_content") is None else message


def _without_reasoning(message: dict) -> dict:
    return {key: value for key, value in message.items() if key != "reasoning_content"}
