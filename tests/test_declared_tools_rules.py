"""Each format reads the tools a request declares in its own shape only (the rows' ``declared_tools``)."""

from __future__ import annotations

import pytest

from harness.formats import SPECS

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}
WANT = {"get_weather": {"description": "Weather now", "parameters": SCHEMA}}
# A request declaring get_weather in each format's own shape; every format with a reader must have one here.
BODIES = {
    "chat": {"tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather now",
                                                         "parameters": SCHEMA}}]},
    "anthropic": {"tools": [{"name": "get_weather", "description": "Weather now", "input_schema": SCHEMA}]},
    "openai-responses": {"tools": [{"type": "function", "name": "get_weather", "description": "Weather now",
                                    "parameters": SCHEMA}]},
    "gemini": {"tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Weather now",
                                                    "parametersJsonSchema": SCHEMA}]}]},
    "bedrock": {"toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "description": "Weather now",
                                                       "inputSchema": {"json": SCHEMA}}}]}},
}
READERS = [name for name, spec in SPECS.items() if spec.declared_tools is not None]


def test_every_format_that_reads_declared_tools_has_a_body_here():
    assert set(READERS) <= set(BODIES), f"no request body for {sorted(set(READERS) - set(BODIES))}"


@pytest.mark.parametrize("name", READERS)
def test_a_format_reads_its_own_shape_and_no_other(name):
    read = SPECS[name].declared_tools
    assert read(BODIES[name]) == WANT, f"{name} read {read(BODIES[name])} from its own shape"
    for other, body in BODIES.items():
        if other != name:
            assert read(body) == {}, f"{name} read {read(body)} from {other}'s shape, which its API does not read"
    assert read({"tools": "nope"}) == {} and read({}) == {}, f"{name} read tools from a malformed body"
