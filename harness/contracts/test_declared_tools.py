"""Contract: every request the kernel sends declares the tools it was given, in its format's own shape.

Incident: no catalogued incident is this bug alone; it is the evidence rule of
`batch-path-pairing` (only the request shows what the provider was told)
applied to the part of a request every turn sends first. The bug is the one
a kernel ported between formats carries: tools declared in another format's
shape (chat's ``{"type": "function", "function": {...}}`` where Messages
wants ``{"name", "description", "input_schema"}``, Responses wants the same
fields flat beside ``"type": "function"``, and Gemini wants them in
``functionDeclarations``). A provider refuses such a request, or ignores what
it cannot read, and then the model never sees the tool.

Rule: stated once for every format whose row says how its requests declare
tools (``declared_tools`` in :mod:`harness.formats`). The kernel runs a turn
with scripted tools; each request it sent declares every one of those tools,
read the way the format's API reads a declaration, with the tool's name, its
description and its parameters as given, and no tool it was not given.

Level: wire (each format's request schema).

Production fingerprint: a 400 on the first request of every turn after a
switch of provider, naming a tools field; or an agent that stops calling
tools it used to call, with no error at all.
"""

import pytest

from harness.clip import clip_json
from harness.formats import SPECS
from harness.testing import ScriptedModel, ScriptedTool
from harness.testing.formats import wire_format  # noqa: F401 (the fixture)
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire,
              pytest.mark.formats(*(name for name, spec in SPECS.items() if spec.declared_tools is not None))]

QUESTION = "What is the weather in Lisbon, and what is in the notes folder?"


def test_every_request_declares_the_tools_given(kernel, wire_format):
    tools = [ScriptedTool("get_weather"), ScriptedTool("list_dir")]
    model = ScriptedModel([{}], format=wire_format.name)  # one blank answer: the turn ends on its first request
    valid(kernel).run_turn(QUESTION, model, tools)
    want = {t.schema["function"]["name"]: {"description": t.schema["function"]["description"],
                                           "parameters": t.schema["function"]["parameters"]} for t in tools}
    assert model.requests, "the kernel finished the turn without sending the model a request"
    for number, request in enumerate(model.requests, 1):
        got = wire_format.spec.declared_tools(request)
        where = (f"request {number} of the turn, read as {wire_format.spec.label} reads its tools; its tools field: "
                 f"{clip_json(request.get('tools'), 800)}")
        assert sorted(got) == sorted(want), f"declares the tools {sorted(got)}; expected {sorted(want)}; {where}"
        for key in ("description", "parameters"):
            differs = [(name, got[name][key], want[name][key]) for name in want if got[name][key] != want[name][key]]
            assert not differs, f"tools' {key} (name, got, expected) differ from the tools given: {differs}; {where}"
