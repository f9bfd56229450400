"""Contract: every request the kernel sends is a whole, valid request of its format, declaring the tools it was given.

Incident: no catalogued incident is this bug alone; it is the evidence rule of
`batch-path-pairing` (only the request shows what the provider was told)
applied to the part of a request every turn sends first. The bug is the one
a kernel ported between formats carries: tools declared in another format's
shape (chat's ``{"type": "function", "function": {...}}`` where Messages
wants ``{"name", "description", "input_schema"}``, Responses wants the same
fields flat beside ``"type": "function"``, and Gemini wants them in
``functionDeclarations``). A provider refuses such a request, or ignores what
it cannot read, and then the model never sees the tool.

The same port leaves the rest of the body behind too: a Messages request
without ``max_tokens``, a Responses ``input`` sent as one message object, a
Gemini system prompt as a ``system`` content, chat's ``tool_choice`` words
in a format that spells them otherwise. The newer formats' tool-round
contracts read only the history part of a request, so such a kernel passed.

Rule: stated once for every format whose row says how its requests declare
tools (``declared_tools`` in :mod:`harness.formats`) and how its API
validates a body (``request_refusals``). The kernel runs a turn of one tool
round (two calls) and an answer, with scripted tools; every request it sent:

- is refused nothing by the format's request validator: its required keys
  present with their types, no top-level key the API does not have, each one
  it has in its documented shape (tools, tool choice, system prompt,
  generation settings), the provider's 400 text where it is documented;
- declares every one of the tools given, read the way the format's API reads
  a declaration, with the tool's name, its description and its parameters as
  given, and no tool it was not given. A tool given by its name alone (no
  description, no parameters) is declared with no description of the
  kernel's making (none, ``""``, or its name where the format requires one)
  and an object schema with no properties.

Level: wire (each format's request schema).

Production fingerprint: a 400 on the first request of every turn after a
switch of provider, naming a field of the body (``max_tokens: Field
required``) or its tools; or an agent that stops calling tools it used to
call, with no error at all; or a 400 on every turn once a tool without
parameters is registered (``input_schema.type: Field required``).
"""

from dataclasses import dataclass

import pytest

from harness.clip import clip_json
from harness.formats import SPECS, FormatSpec
from harness.testing import ScriptedModel, ScriptedTool
from harness.testing.formats import wire_format  # noqa: F401 (the fixture)
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats(*(
    name for name, spec in SPECS.items() if spec.declared_tools is not None and spec.request_refusals is not None))]

QUESTION = "What is the weather in Lisbon, and what is in the notes folder?"
CALLS = [{"id": "call_weather", "name": "get_weather", "arguments": '{"city": "Lisbon"}'},
         {"id": "call_notes", "name": "list_dir", "arguments": '{"path": "notes"}'}]
ANSWER = "Sunny, 24 C; the folder holds two files."
_HISTORY = ("messages", "input", "contents")  # left out of a failure's view: the history rules judge it


def _script(spec: FormatSpec) -> list[dict]:
    """One round calling both tools, ended with the provider's own reason (its row's first), then the answer."""
    own = spec.tool_round_ends[0]
    if "finish_reason" in spec.blank_turn:  # the format's scripted rounds are chat responses
        return [{"tool_calls": CALLS, "finish_reason": own}, {"content": ANSWER}]
    return [{"blocks": [{"type": "tool_call", **call} for call in CALLS], "stop_reason": own},
            {"blocks": [{"type": "text", "text": ANSWER}]}]


@dataclass
class _NameOnlyTool(ScriptedTool):
    """A tool given by its name alone, as agents register a tool that takes nothing and needs no words."""

    @property
    def schema(self) -> dict:
        return {"type": "function", "function": {"name": self.name}}


def _conversation(kernel, wire_format) -> tuple[list[ScriptedTool], list[dict]]:
    tools = [ScriptedTool("get_weather"), ScriptedTool("list_dir"), _NameOnlyTool("current_time")]
    model = ScriptedModel(_script(wire_format.spec), format=wire_format.name)
    valid(kernel).run_turn(QUESTION, model, tools)
    assert len(model.requests) == 2, (
        f"the kernel sent {len(model.requests)} request(s) for a turn of one tool round and an answer; expected 2")
    return tools, model.requests


def test_every_request_is_one_the_provider_accepts(kernel, wire_format):
    _, requests = _conversation(kernel, wire_format)
    for number, request in enumerate(requests, 1):
        refused = wire_format.spec.request_refusals(request)
        assert not refused, (
            f"request {number} of a tool-round turn would be refused by {wire_format.spec.label}'s request "
            f"validator:\n  " + "\n  ".join(r.message + ("" if r.provider_text else " (our words: the provider's "
                                                                                     "text is not documented)")
                                          for r in refused)
            + f"\nthe request's top level: {clip_json(_top_level(request), 800)}")


def _top_level(request: object) -> object:
    return {k: v for k, v in request.items() if k not in _HISTORY} if isinstance(request, dict) else request


def test_every_request_declares_the_tools_given(kernel, wire_format):
    tools, requests = _conversation(kernel, wire_format)
    want = {t.schema["function"]["name"]: {"description": t.schema["function"].get("description"),
                                           "parameters": t.schema["function"].get("parameters")} for t in tools}
    for number, request in enumerate(requests, 1):
        assert isinstance(request, dict), f"request {number} of the turn is {clip_json(request, 300)}, not an object"
        where = (f"request {number} of the turn, read as {wire_format.spec.label} reads its tools; its tools field: "
                 f"{clip_json(request.get('tools'), 800)}")
        unread = [r.message for r in wire_format.spec.request_refusals(request) if r.path.split(".")[0] == "tools"]
        assert not unread, f"the tools field is not one the API reads: {unread}; {where}"
        got = wire_format.spec.declared_tools(request)
        assert sorted(got) == sorted(want), f"declares the tools {sorted(got)}; expected {sorted(want)}; {where}"
        for key, same in (("description", _same_description), ("parameters", _same_parameters)):
            differs = [(name, got[name][key], want[name][key]) for name in want
                       if not same(name, got[name][key], want[name][key])]
            assert not differs, f"tools' {key} (name, got, expected) differ from the tools given: {differs}; {where}"


def _same_description(name: str, got: object, given: object) -> bool:
    """As given; a tool given none may go without one, or with its own name where the format requires one."""
    return got == given if given is not None else got in (None, "", name)


def _same_parameters(name: str, got: object, given: object) -> bool:
    """As given; a tool given none takes an object with no properties (the form every format reads)."""
    if given is not None:
        return got == given
    return got is None or (isinstance(got, dict) and got.get("type") == "object" and not got.get("properties")
                           and not got.get("required"))
