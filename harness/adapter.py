"""What an adapter under test is, and how the harness finds one.

An adapter is any object. It speaks one wire *format* and offers one or more
*capabilities*, each a small set of methods over plain-JSON neutral shapes, so
the same contract can talk to a Python object or to a bridge process.

Formats
-------
An adapter names the format it speaks in a ``format`` attribute, one of
:data:`FORMATS`; without one it speaks ``"chat"``. The capability methods keep
their names in every format; what their shapes are depends on the format
(below: ``chat`` first, then ``anthropic``, ``openai-responses`` and
``gemini``). A contract states the formats it holds for; against an adapter
of another format it is not run (counted in one line). A team whose code speaks two formats
hands the harness two adapter objects, one per run (``--adapter pkg.mod:chat_adapter``, ``--adapter pkg.mod:anthropic_adapter``).

``chat``: OpenAI chat completions (``POST {base_url}/chat/completions``)
-------------------------------------------------------------------------

``stream``
    ``parse_stream(body: bytes) -> dict``: a raw SSE response body to a neutral
    response ``{"content": str, "reasoning": str, "tool_calls": [{"id", "name",
    "arguments"}], "finish_reason": str | None, "usage": dict | None}``.
    ``content`` and ``reasoning`` are ``""`` when nothing was streamed;
    ``arguments`` is the raw string the provider streamed, joined in arrival
    order (``""`` when a call streamed none); ``usage`` is the object the
    provider sent, verbatim (``None`` without one); ``finish_reason`` is the
    last one sent. A stream that carries an ``error`` object raises.

``messages``
    ``serialize_message(message) -> dict``: a neutral message (below) to the
    OpenAI-compatible wire JSON of one chat message. It is not told the
    provider: it writes what the format needs (``role``, ``content``, typed
    ``tool_calls``, ``tool_call_id``) and keeps the message's reasoning as a
    top-level ``reasoning_content`` so that ``transform_request`` can decide
    who gets it (a ``provider``-level rule: DeepSeek wants it back).

``request``
    ``transform_request(body: dict, options: dict) -> dict``: a generic
    OpenAI-compatible chat-completions body, as ``serialize_message`` built
    it, to the body the provider at ``options["base_url"]`` must receive: the
    thinking switch and effort, adding ``reasoning_content: ""`` where the
    DeepSeek era requires a turn to carry it and has none, removing it for
    every host that is not to get reasoning back. A new dict; the input is
    left unchanged. ``options`` is plain JSON, every key optional::

        {"base_url": str | None,   # picks the provider profile by host; None: generic
         "effort": "off" | "low" | "medium" | "high" | "max" | None,  # None: not asked
         "role": "main" | "executor",       # executor: a sub-agent's rounds
         "era": "r1" | "v3.2" | "current"}  # DeepSeek's reasoning round-trip rule

``codec`` names ``stream``, ``messages`` and ``request`` together.

``kernel``
    ``run_turn(user_input, model, tools) -> dict``: run one agent turn in which
    ``model`` (a :class:`harness.testing.scripted.ScriptedModel`) plays the LLM and
    ``tools`` (:class:`harness.testing.scripted.ScriptedTool`) the tools. Returns
    ``{"events": [persisted event, ...]}``; the requests it sent are kept by
    the scripted model itself, so the adapter cannot misreport them.
    ``render_history(events, base_url=None) -> list[dict]``: persisted events
    back to the wire messages the next request to the provider at ``base_url``
    would carry (``None``: a generic OpenAI-compatible provider).

``memory``
    What the kernel keeps beyond the live context.
    ``store_blocks(events) -> dict``: persisted events to a cold store
    ``{"events": [record, ...], "blocks": [{"id", "role", "content"}, ...]}``;
    ``role`` is ``"input"``, ``"reasoning"``, ``"response"`` or
    ``"tool_output"``, one block per non-empty text; records are the adapter's
    own plain JSON, from which loading finds the blocks again by id.
    ``load_blocks(store) -> list[dict]``: a cold store back to persisted events.
    ``distill(event) -> str``: the text a distillation of the event reads.
    ``vector_text(event) -> str``: the text the event is indexed under for
    vector search.
    ``trim_history(messages, budget) -> list[dict]``: wire messages cut back
    on overflow; ``budget`` is an integer >= 1 in the adapter's own size unit.

``transport``
    ``run_http_turn(base_url, user_input, tools, options) -> dict``: run one
    agent turn whose LLM rounds go through the adapter's real HTTP client as
    streamed ``POST {base_url}/chat/completions`` requests; ``tools`` are
    :class:`harness.testing.scripted.ScriptedTool`; ``options`` as for
    ``transform_request`` without ``base_url``, plus an optional ``"model"``.
    Returns ``{"events": [persisted event, ...]}``. The harness answers from a
    recorded cassette and reads what was sent from the player, not from the
    adapter.

A neutral message is ``{"role", "content", "reasoning", "tool_calls",
"tool_call_id"}``: ``reasoning`` is ``None`` or a string; ``tool_calls`` is a
list of ``{"id", "name", "arguments"}`` with ``arguments`` a JSON string.

A persisted event is ``{"input", "response", "reasoning", "tool_calls",
"tool_results", "tools_used", "timestamp"}`` with ``tool_results`` a list of
``{"tool_call_id", "content"}``.

``anthropic``: Anthropic Messages (``POST {base_url}/v1/messages``)
-------------------------------------------------------------------
Shapes are built from a neutral *turn*: ``{"blocks": [block, ...],
"stop_reason": str | None, "usage": dict | None}``, its blocks in the order of
their identity on the wire (the stream's ``index``). A block is one of::

    {"type": "text", "text": str}
    {"type": "reasoning", "text": str, "signature": str}   # thinking; "" when no signature came
    {"type": "redacted_reasoning", "data": str}            # redacted_thinking, opaque
    {"type": "tool_call", "id": str, "name": str, "arguments": str}

``arguments`` is the raw text the provider streamed, joined in arrival order
(``""`` when only empty pieces came: a call with no arguments, which means
``{}``). Opaque values (``signature``, ``data``) are byte-identical to what was
streamed, pieces joined in arrival order.

``stream``
    ``parse_stream(body: bytes) -> turn``: a raw Messages SSE body to the turn
    it streamed. ``stop_reason`` is ``message_delta``'s; ``usage`` is
    ``message_start``'s usage updated key by key with each ``message_delta``'s
    (``None`` without any). ``ping`` events and unknown events are skipped. A
    body with an ``error`` event, or one that ends before ``message_stop``,
    raises: an incomplete turn is never returned as complete.

``messages``
    ``serialize_message(message) -> dict``: one neutral message to one wire
    message. A neutral message is ``{"role": "assistant", "blocks": [...]}``
    (wire ``content`` blocks in the same order: ``thinking`` with its
    ``signature``, ``redacted_thinking`` with its ``data``, ``text``, and
    ``tool_use`` with ``input`` the parsed arguments, ``{}`` for ``""``, an
    object holding the raw text for arguments cut off mid-stream (the
    reference: ``{"INVALID_JSON": raw}``); a text block with no text is left
    out, Anthropic refuses empty text) or
    ``{"role": "user", "content": str, "tool_results": [{"tool_call_id",
    "content"}]}`` (``tool_result`` blocks first, in order, then the text, if
    any).

``request``
    ``transform_request(body: dict, options: dict) -> dict``: a Messages
    request body (``model``, ``max_tokens``, ``messages``, optional ``system``,
    ``tools``, ``stream``) to the body to send; ``options`` as for ``chat``
    (``effort`` picks extended thinking: ``"off"`` sends none, any other level
    enables it). A new dict; the input is left unchanged.

``kernel``
    ``run_turn(user_input, model, tools) -> dict`` as for ``chat``, but the
    scripted model takes a Messages request body and answers with a turn; each
    round is persisted as ``{"input": str | None, "blocks": [...],
    "tool_results": [{"tool_call_id", "content"}], "timestamp": float}``
    (``input`` on the turn's first round). ``render_history(events,
    base_url=None) -> list[dict]``: persisted events back to the Messages
    ``messages`` of the next request.

``memory``
    ``trim_history(messages, budget) -> list[dict]`` over Messages wire
    messages, and ``store_blocks`` / ``load_blocks`` / ``distill`` /
    ``vector_text`` over the persisted events above, as for ``chat``.

``transport`` has no ``anthropic`` contracts yet: an unmodified agent of this
format is judged black-box by ``harness probe --format anthropic`` instead.

``openai-responses``: OpenAI Responses (``POST {base_url}/v1/responses``)
------------------------------------------------------------------------
The same neutral *turn* as ``anthropic``, one block per output item (per
content part of a ``message`` item), in ``output_index`` order. What the
format carries beyond it travels in optional keys; the existing keys keep
their meaning::

    {"type": "text", "text": str, "item_id": str}                    # an output_text part of message item msg_...
    {"type": "reasoning", "text": str, "signature": str,
     "item_id": str, "summary": [str, ...]}                          # reasoning item rs_...
    {"type": "tool_call", "id": str, "name": str, "arguments": str,
     "item_id": str}                                                 # function_call item fc_...

``signature`` is the reasoning item's ``encrypted_content``, byte for byte
(``""`` when none came); ``summary`` the texts of its summary parts in order
and ``text`` those texts joined; a call's ``id`` is its ``call_id``
(``call_...``) and ``item_id`` the item's own id. ``item_id`` may be absent in
a block an adapter builds itself; a decoded block carries it.

``stream``
    ``parse_stream(body: bytes) -> turn``: a Responses SSE body to the turn
    it streamed. A delta belongs to the item its ``item_id`` names (its
    ``output_index`` when it names none), also when it arrives before that
    item's ``response.output_item.added``. ``stop_reason`` is the
    ``status`` of ``response.completed`` (``"completed"``); ``usage`` is its
    response's ``usage``, verbatim (``None`` without one). A body with
    ``response.failed``, ``response.incomplete`` or ``error``, or one that ends
    before ``response.completed``, raises.

``messages``
    ``serialize_message(message) -> list[dict]``: one neutral message to the
    ``input`` items it becomes. ``{"role": "assistant", "blocks": [...]}``
    gives the output items back in order: ``reasoning`` with its ``id``, its
    ``summary`` (always present, ``[]`` when empty) and its
    ``encrypted_content`` byte for byte; ``message`` items (consecutive text
    blocks of one ``item_id`` as one item's parts); ``function_call`` with
    ``call_id``, ``name`` and ``arguments`` (``"{}"`` for ``""``).
    ``{"role": "user", "content": str, "tool_results": [{"tool_call_id",
    "content"}]}`` gives one ``function_call_output`` per result, in order,
    then the user message, if it has text.

``request``
    ``transform_request(body: dict, options: dict) -> dict``: a Responses
    request body (``model``, ``input``, optional ``tools``, ``store``,
    ``include``, ``reasoning``, ``stream``) to the body to send; ``effort``
    sets ``reasoning.effort``; under ``store: false`` the body asks for
    ``reasoning.encrypted_content``, without which reasoning cannot go back.
    A new dict; the input is left unchanged.

``kernel``
    ``run_turn(user_input, model, tools) -> dict`` as for ``anthropic``: the
    scripted model takes a Responses request body and answers with a turn;
    each round is persisted as for ``anthropic`` (a result also names its
    call: ``{"tool_call_id", "name", "content"}``). ``render_history(events,
    base_url=None) -> list[dict]``: persisted events back to the ``input``
    items of the next request under ``store: false``.

``memory``
    ``trim_history(items, budget) -> list[dict]`` over ``input`` items, and
    ``store_blocks`` / ``load_blocks`` / ``distill`` / ``vector_text`` over
    the persisted events, as for ``anthropic``.

``transport`` has no ``openai-responses`` contracts yet: an unmodified agent
is judged black-box by ``harness probe --format openai-responses`` instead.

``gemini``: Google Gemini (``POST {base_url}/v1beta/models/{model}:streamGenerateContent?alt=sse``)
----------------------------------------------------------------------------------------------------
Shapes are built from the same neutral *turn* as ``anthropic``'s, one block
per ``part`` of ``candidates[0].content``, in the order the parts arrived
(every SSE event is a whole ``GenerateContentResponse`` whose parts append to
the turn; parts are never merged). A part is one block::

    {"type": "text", "text": str}                          # a text part
    {"type": "reasoning", "text": str, "signature": str}   # a text part with thought: true; "" when unsigned
    {"type": "tool_call", "id": str, "name": str, "arguments": str}   # a functionCall part

Gemini carries more than Messages, in optional keys that keep what the
shared keys mean:

- ``signature`` on a ``text`` or ``tool_call`` block: the part's
  ``thoughtSignature``, byte-identical, present only when the part carried one
  (on ``reasoning`` it is always there, ``""`` for none). A signature belongs
  to the exact part it came on: for parallel calls only the first
  ``functionCall`` part carries one.
- ``arguments`` is the JSON text of the part's ``args`` object (any spacing;
  compared as a JSON value, never as text), ``""`` when the part had no
  ``args`` (which means ``{}``).
- ``id`` is the ``functionCall``'s ``id`` when the part had one (newer
  models), ``""`` when it had none; a call without an id is known by its
  position among the turn's parts, never by an id made up for it.

``stop_reason`` is the last ``finishReason`` sent, verbatim (``"STOP"`` also
ends a turn with calls: Gemini has no finish reason of its own for them);
``usage`` is the last ``usageMetadata`` sent, verbatim (each one counts the
whole response so far), ``None`` without any.

``stream``
    ``parse_stream(body: bytes) -> turn``: a raw ``alt=sse`` body to the turn
    it streamed. A body whose data carries an ``error`` object, or that ends
    before a chunk with a ``finishReason``, raises: an incomplete turn is
    never returned as complete.

``messages``
    ``serialize_message(message) -> dict``: one neutral message to one
    ``Content``. ``{"role": "assistant", "blocks": [...]}`` is ``{"role":
    "model", "parts": [...]}``, one part per block in the same order, each
    with its ``thoughtSignature`` exactly where the block has one (none added;
    the same bytes, in standard or URL-safe base64, as Gemini reads either):
    ``{"text"}``, ``{"text", "thought": true}``, ``{"functionCall": {"name",
    "args", "id"?}}`` (``args`` the parsed arguments, ``{}`` for ``""``;
    ``id`` only when the call had one). A text or reasoning block with empty
    text and no signature carries nothing and is left out. ``{"role": "user",
    "content": str, "tool_results": [{"tool_call_id", "name", "content"}]}``
    is ``{"role": "user", "parts": [...]}``: one ``functionResponse`` per
    result first, in order (``name``, ``response`` an object holding the
    content, ``id`` when the call had one), then the text, if not blank.

``request``
    ``transform_request(body: dict, options: dict) -> dict``: a
    ``generateContent`` body (``contents``, optional ``systemInstruction``,
    ``tools``, ``generationConfig``) to the body to send; ``options`` as for
    ``chat``: ``effort`` sets ``generationConfig.thinkingConfig`` (``"off"``
    a budget of 0, any other level a budget with thought summaries on). A new
    dict; the input is left unchanged.

``kernel``
    ``run_turn(user_input, model, tools) -> dict`` as for ``anthropic``: the
    scripted model takes a ``generateContent`` body and answers with a turn;
    each round is persisted as for ``anthropic``, each result naming its call
    (``{"tool_call_id", "name", "content"}``; ``tool_call_id`` ``""`` for a
    call without an id). ``render_history(events, base_url=None) ->
    list[dict]``: persisted events back to the ``contents`` of the next
    request.

``memory``
    ``trim_history(contents, budget) -> list[dict]`` over ``contents``, and
    ``store_blocks`` / ``load_blocks`` / ``distill`` / ``vector_text`` over
    the persisted events, as for ``anthropic``.

``transport`` has no ``gemini`` contracts yet: an unmodified agent is judged
black-box by ``harness probe --format gemini`` instead.

``bedrock``: AWS Bedrock Converse (``POST {base_url}/model/{modelId}/converse-stream``)
----------------------------------------------------------------------------------------
The stream is AWS's binary event-stream framing
(``application/vnd.amazon.eventstream``: CRC-checked messages with typed
headers), each event a JSON payload named by its ``:event-type``. The turn is
``anthropic``'s, one block per ``contentBlockIndex``, in index order (text,
reasoning with its own ``signature``, ``""`` when none came,
``redacted_reasoning`` with ``data`` the ``redactedContent`` bytes as base64,
and ``tool_call`` with ``id`` the ``toolUseId`` and ``arguments`` the
``toolUse.input`` pieces joined). A text block has no ``contentBlockStart``:
its identity is its index alone. ``stop_reason`` is ``messageStop``'s
``stopReason``; ``usage`` is the ``metadata`` event's ``usage``, verbatim.

``stream``
    ``parse_stream(body: bytes) -> turn``: a raw ConverseStream body to the
    turn it streamed. A body cut anywhere, a CRC that does not match, a header
    of a type AWS does not define, an ``exception`` message (raised naming its
    ``:exception-type`` and message), or a body that ends before its
    ``metadata`` event raises: an incomplete turn is never returned as complete.

``messages``
    ``serialize_message(message) -> dict``: ``{"role": "assistant",
    "blocks": [...]}`` is ``{"role": "assistant", "content": [...]}``, one
    content block per block in order: ``reasoningContent`` with
    ``reasoningText {text, signature}`` (left out when unsigned) or
    ``redactedContent``, ``text`` (left out when blank), ``toolUse
    {toolUseId, name, input}`` (``input`` the parsed arguments, ``{}`` for
    ``""``). ``{"role": "user", "content": "", "tool_results": [...]}`` is a
    user message of ``toolResult {toolUseId, content, status: "success"}``
    blocks alone, in order (``content`` a text block, none for an empty
    result); a question's text is a text block.

``request``
    ``transform_request(body: dict, options: dict) -> dict``: a Converse body
    (``messages``, optional ``system``, ``toolConfig``, ``inferenceConfig``,
    ``additionalModelRequestFields``) to the body to send; ``effort`` sets
    Anthropic's ``thinking`` inside ``additionalModelRequestFields`` (``"off"``
    none); a body whose messages hold tool blocks carries a ``toolConfig``.
    A new dict; the input is left unchanged.

``kernel`` and ``memory``
    As for ``gemini``, over Converse ``messages`` (each result names its
    call: ``{"tool_call_id", "name", "content"}``).

``transport`` has no ``bedrock`` contracts yet: an unmodified agent is judged
black-box by ``harness probe --format bedrock`` instead.

An adapter may have a ``close()`` method (the reference's closes its HTTP
client): the harness calls it when it is done with the adapter, at the end of
a pytest session or before loading it again. An adapter called after
``close()`` must work again (a later session in the same process may use it).

An adapter may name its capabilities in a ``capabilities`` attribute; without
one they are inferred method by method. Either way every named capability
must be fully implemented. A capability method that raises
``NotImplementedError`` makes the contracts that call it not applicable.
The rules each capability is held to, and their levels: ``docs/rules.md``.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

ENV_VAR = "HARNESS_ADAPTER"
# The wire formats an adapter may speak (its ``format`` attribute); the first is the default.
FORMATS: dict[str, str] = {
    "chat": "OpenAI chat completions",
    "anthropic": "Anthropic Messages",
    "openai-responses": "OpenAI Responses",
    "gemini": "Google Gemini generateContent",
    "bedrock": "AWS Bedrock Converse",
}
DEFAULT_FORMAT = "chat"
FORMAT_GROUP = "harness.formats"  # the entry points that bring a format shipped outside this package (harness.formats)
DEFAULT_SPEC = "harness.reference:adapter"


@runtime_checkable
class Stream(Protocol):
    def parse_stream(self, body: bytes) -> dict: ...


@runtime_checkable
class Messages(Protocol):
    def serialize_message(self, message: dict) -> dict: ...


@runtime_checkable
class Request(Protocol):
    def transform_request(self, body: dict, options: dict) -> dict: ...


@runtime_checkable
class Kernel(Protocol):
    def run_turn(self, user_input: str, model: Any, tools: list) -> dict: ...

    def render_history(self, events: list[dict], base_url: str | None = None) -> list[dict]: ...


@runtime_checkable
class Memory(Protocol):
    def store_blocks(self, events: list[dict]) -> dict: ...

    def load_blocks(self, store: dict) -> list[dict]: ...

    def distill(self, event: dict) -> str: ...

    def vector_text(self, event: dict) -> str: ...

    def trim_history(self, messages: list[dict], budget: int) -> list[dict]: ...


@runtime_checkable
class Transport(Protocol):
    def run_http_turn(self, base_url: str, user_input: str, tools: list, options: dict) -> dict: ...


CAPABILITIES: dict[str, type] = {
    "stream": Stream,
    "messages": Messages,
    "request": Request,
    "kernel": Kernel,
    "memory": Memory,
    "transport": Transport,
}
# The contracts' fixture for each capability is named after it, except where pytest
# already owns the name (its ``request`` fixture).
FIXTURE_NAMES: dict[str, str] = {cap: {"request": "transform"}.get(cap, cap) for cap in CAPABILITIES}
# A name that stands for several capabilities where an adapter declares them.
GROUPS: dict[str, frozenset[str]] = {"codec": frozenset({"stream", "messages", "request"})}

# The vocabulary of transform_request's options (see the module docstring).
EFFORTS = ("off", "low", "medium", "high", "max")
ROLES = ("main", "executor")
ERAS = ("r1", "v3.2", "current")

# Seconds one adapter call may take, in process or over the bridge (--adapter-timeout): here, so the
# pytest plugin can offer the option without importing the bridge.
DEFAULT_TIMEOUT = 10.0


class AdapterError(Exception):
    """The adapter spec cannot be loaded or the adapter misdeclares itself."""


@dataclass(frozen=True)
class LoadedAdapter:
    """The adapter under test, its name and the capabilities it offers."""

    spec: str
    obj: Any
    capabilities: frozenset[str]
    format: str = DEFAULT_FORMAT

    @property
    def name(self) -> str:
        return getattr(self.obj, "name", None) or self.spec

    def describe(self) -> str:
        caps = ", ".join(sorted(self.capabilities)) or "none"
        return f"{self.name} ({self.spec}) format: {self.format}; capabilities: {caps}"

    def close(self) -> None:
        """Close the adapter if it has a ``close()`` method (a bridge process, an HTTP client)."""
        close = getattr(self.obj, "close", None)
        if callable(close):
            close()


def capabilities_of(obj: Any) -> frozenset[str]:
    """What ``obj`` offers: its ``capabilities`` attribute if it has one, else one per method set it has."""
    declared = getattr(obj, "capabilities", None)
    if declared is None:
        return frozenset(c for c in CAPABILITIES if not missing_methods(obj, c))
    if isinstance(declared, str):
        raise AdapterError(f"adapter capabilities is the string {declared!r}; expected a set of names")
    expanded: set[str] = set()
    for name in declared:
        expanded |= GROUPS.get(name, {name})
    unknown = expanded - CAPABILITIES.keys()
    if unknown:
        raise AdapterError(
            f"adapter declares unknown capabilities {sorted(unknown)}; known: {known_capabilities()}"
        )
    for cap in sorted(expanded):
        missing = missing_methods(obj, cap)
        if missing:
            raise AdapterError(f"adapter declares capability {cap!r} but lacks {', '.join(missing)}")
    return frozenset(expanded)


def format_of(obj: Any) -> str:
    """The format ``obj`` speaks: its ``format`` attribute, else the default; an unknown name is an AdapterError."""
    declared = getattr(obj, "format", None)
    if declared is None:
        return DEFAULT_FORMAT
    if declared not in FORMATS and declared in plugged(FORMAT_GROUP):
        FORMATS[declared] = declared  # a format shipped outside this package; harness.formats holds its row
    if declared not in FORMATS:
        raise AdapterError(f"adapter format is {declared!r}; known formats: {', '.join(FORMATS)}")
    return declared


def plugged(group: str) -> dict[str, Any]:
    """The objects the installed distributions' entry points of ``group`` name, by entry point name.

    Formats shipped outside this package plug in this way, one group per
    floor that keeps a row of them (the format table, the loopback routes,
    the strategies), so every process a run starts finds them.
    """
    from importlib.metadata import entry_points

    return {point.name: point.load() for point in entry_points(group=group)}


def missing_methods(obj: Any, capability: str) -> list[str]:
    return [m for m in protocol_methods(CAPABILITIES[capability]) if not callable(getattr(obj, m, None))]


def protocol_methods(proto: type) -> list[str]:
    return [name for name in vars(proto) if not name.startswith("_")]


def known_capabilities() -> str:
    """Every capability with its methods, and the group names: for messages that say what is looked for."""
    caps = [f"{c} ({', '.join(protocol_methods(p))})" for c, p in CAPABILITIES.items()]
    groups = [f"{g} = {' + '.join(sorted(members))}" for g, members in GROUPS.items()]
    return "; ".join(caps + groups)


def public_methods(obj: Any) -> list[str]:
    """The public callables an adapter object has, for a message when none of them is a capability method."""
    return sorted(n for n in dir(obj) if not n.startswith("_") and callable(getattr(obj, n, None)))


def resolve_spec(cli_value: str | None) -> str:
    """The option wins over the environment; the reference is the default."""
    return cli_value or os.environ.get(ENV_VAR) or DEFAULT_SPEC


def load_adapter(spec: str) -> LoadedAdapter:
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise AdapterError(f"adapter spec {spec!r} must look like 'package.module:attribute'")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a syntax error in the user's module is just as fatal
        raise AdapterError(
            f"adapter spec {spec!r}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise AdapterError(f"adapter spec {spec!r}: {module_name!r} has no attribute {attr!r}") from None
    return LoadedAdapter(spec=spec, obj=obj, capabilities=capabilities_of(obj), format=format_of(obj))
