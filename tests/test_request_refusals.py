"""Each format's request validator (the rows' ``request_refusals``) accepts its own whole bodies and refuses the rest."""

from __future__ import annotations

import pytest

from harness.formats import SPECS

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}
USER = {"chat": {"role": "user", "content": "hi"}, "anthropic": {"role": "user", "content": "hi"},
        "openai-responses": {"role": "user", "content": "hi"}, "gemini": {"role": "user", "parts": [{"text": "hi"}]},
        "bedrock": {"role": "user", "content": [{"text": "hi"}]}}
# A whole body of each format, every optional part a kernel commonly sends in that format's own shape.
BODIES = {
    "chat": {"model": "m", "messages": [{"role": "system", "content": "be brief"}, USER["chat"]], "stream": True,
             "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMA}}],
             "tool_choice": {"type": "function", "function": {"name": "get_weather"}}, "max_tokens": 100},
    "anthropic": {"model": "m", "max_tokens": 4096, "messages": [USER["anthropic"]], "stream": True,
                  "system": [{"type": "text", "text": "be brief"}],
                  "tools": [{"name": "get_weather", "description": "Weather now", "input_schema": SCHEMA},
                            {"type": "web_search_20250305", "name": "web_search"}],
                  "tool_choice": {"type": "tool", "name": "get_weather"},
                  "thinking": {"type": "enabled", "budget_tokens": 2048}},
    "openai-responses": {"model": "m", "input": [USER["openai-responses"]], "instructions": "be brief",
                         "tools": [{"type": "function", "name": "get_weather", "parameters": SCHEMA},
                                   {"type": "web_search"}],
                         "tool_choice": "required", "store": False, "include": ["reasoning.encrypted_content"],
                         "reasoning": {"effort": "high", "summary": "auto"}, "stream": True},
    "gemini": {"contents": [USER["gemini"]], "systemInstruction": {"parts": [{"text": "be brief"}]},
               "tools": [{"functionDeclarations": [{"name": "get_weather", "parametersJsonSchema": SCHEMA}]}],
               "tool_config": {"function_calling_config": {"mode": "ANY"}},
               "generationConfig": {"thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": True}}},
    "bedrock": {"messages": [USER["bedrock"]], "system": [{"text": "be brief"}],
                "toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "description": "Weather now",
                                                       "inputSchema": {"json": SCHEMA}}}],
                               "toolChoice": {"tool": {"name": "get_weather"}}},
                "inferenceConfig": {"maxTokens": 4096},
                "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 2048}}},
}
# What each format's API requires, and values of other types (or out of range) for each.
REQUIRED = {"chat": ("model", "messages"), "anthropic": ("model", "max_tokens", "messages"),
            "openai-responses": ("model", "input"), "gemini": ("contents",), "bedrock": ("messages",)}
WRONG = {"model": (None, 7, ["m"], ""), "max_tokens": (None, "4096", 7.5, True, 0),
         "messages": (None, "hi", {"role": "user", "content": "hi"}), "input": (None, 7, {"role": "user"}),
         "contents": (None, "hi", {"role": "user", "parts": []})}
# Bugs of a kernel ported between formats: (what it did, the body, the path refused).
PORTED = {
    "chat": [("Anthropic's tool_choice word", {"tool_choice": "any"}, "tool_choice"),
             ("DeepSeek's switch under the SDK-only extra_body", {"extra_body": {"thinking": {}}}, "(body)")],
    "anthropic": [("the system prompt as a message", {"messages": [{"role": "system", "content": "x"}]},
                   "messages.0.role"),
                  ("chat's tool shape", {"tools": [{"type": "function", "function": {"name": "a"}}]}, "tools.0"),
                  ("the system prompt as an object", {"system": {"text": "x"}}, "system"),
                  ("a thinking budget under 1024", {"thinking": {"type": "enabled", "budget_tokens": 512}},
                   "thinking")],
    "openai-responses": [("input as one message object", {"input": {"role": "user", "content": "hi"}}, "input"),
                         ("chat's tool shape", {"tools": [{"type": "function", "function": {"name": "a"}}]},
                          "tools.0"),
                         ("chat's reasoning_effort", {"reasoning_effort": "high"}, "(body)")],
    "gemini": [("the system prompt as a content", {"contents": [{"role": "system", "parts": [{"text": "x"}]}]},
                "contents.0.role"),
               ("the system prompt as a string", {"systemInstruction": "be brief"}, "systemInstruction"),
               ("chat's tool shape", {"tools": [{"type": "function", "function": {"name": "a"}}]}, "tools.0"),
               ("thinkingConfig at the top level", {"thinkingConfig": {"thinkingBudget": 0}}, "(body)")],
    "bedrock": [("Anthropic's thinking at the top level", {"thinking": {"type": "enabled"}}, "(body)"),
                ("the system prompt as a string", {"system": "be brief"}, "system"),
                ("a message's content as a string", {"messages": [{"role": "user", "content": "hi"}]},
                 "messages.0.content"),
                ("chat's tool shape in toolConfig", {"toolConfig": {"tools": [{"type": "function",
                                                                             "function": {"name": "a"}}]}},
                 "toolConfig.tools.0")],
}
JUDGED = [name for name, spec in SPECS.items() if spec.request_refusals is not None]


def test_every_judged_format_has_bodies_here():
    assert set(JUDGED) <= set(BODIES) & set(PORTED), f"no bodies for {sorted(set(JUDGED) - set(BODIES))}"


@pytest.mark.parametrize("name", JUDGED)
def test_a_format_accepts_its_own_whole_body_and_refuses_the_others(name):
    judge = SPECS[name].request_refusals
    assert judge(BODIES[name]) == [], f"{name} refused its own body: {judge(BODIES[name])}"
    minimal = {key: BODIES[name][key] for key in REQUIRED[name]}
    assert judge(minimal) == [], f"{name} refused a body of only its required keys: {judge(minimal)}"
    for other, body in BODIES.items():
        if other != name:
            assert judge(body), f"{name} accepted {other}'s body, whose keys and shapes it does not have"


@pytest.mark.parametrize("name", JUDGED)
def test_each_required_key_missing_or_of_another_type_is_refused_by_name(name):
    judge = SPECS[name].request_refusals
    for key in REQUIRED[name]:
        missing = {k: v for k, v in BODIES[name].items() if k != key}
        assert [r.path for r in judge(missing)] == [key], f"{name} without {key}: {judge(missing)}"
        for wrong in WRONG[key]:
            refused = judge({**BODIES[name], key: wrong})
            assert [r.path for r in refused] == [key], f"{name} with {key}={wrong!r}: {refused}"


@pytest.mark.parametrize("name", JUDGED)
def test_a_ported_kernels_bugs_are_refused_where_they_are(name):
    judge = SPECS[name].request_refusals
    for what, change, path in PORTED[name]:
        refused = judge({**BODIES[name], **change})
        assert path in [r.path for r in refused], f"{name} with {what}: refused {refused}, expected one at {path}"


@pytest.mark.parametrize("name", JUDGED)
@pytest.mark.parametrize("body", [None, [], "body", 3, {"tools": {"a": 1}}])
def test_a_body_of_any_type_is_refused_never_raised_on(name, body):
    assert SPECS[name].request_refusals(body), f"{name} accepted {body!r} as a request"


def test_messages_say_whether_they_are_the_providers_words():
    (refusal,) = SPECS["anthropic"].request_refusals({"model": "m", "messages": [USER["anthropic"]]})
    assert (refusal.message, refusal.provider_text) == ("max_tokens: Field required", True)
    (ours,) = SPECS["gemini"].request_refusals({"contents": [{"role": "system", "parts": []}]})
    assert not ours.provider_text and "contents.0.role" in ours.message, ours
