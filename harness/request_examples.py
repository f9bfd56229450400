"""Inputs for the provider contracts: base URLs, and Hypothesis strategies for request bodies and histories.

Generated histories are deliberately untidy: any role may carry
``reasoning_content`` or fields a rebuild would lose (``name``, ``prefix``,
a vendor key), so a transform that touches more than its rule shows up.
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

DEEPSEEK_URL = "https://api.deepseek.com"
# The same host written the ways clients write it.
DEEPSEEK_URLS = (DEEPSEEK_URL, "https://api.deepseek.com/v1", "https://API.DeepSeek.com/beta", "https://api.deepseek.com:443/")
OPENAI_URL = "https://api.openai.com/v1"
GENERIC_URLS = (OPENAI_URL, "https://openrouter.ai/api/v1", "http://localhost:11434/v1", None)
# Hosts that merely look like DeepSeek's: each must get the generic profile.
LOOKALIKE_URLS = (
    "https://api.deepseek.com.evil.io/v1",
    "https://notdeepseek.com",
    "https://deepseek.example.com/v1",
    "https://api.deepseek.co",
    "https://api-deepseek.com",
    "https://evil.io/api.deepseek.com",
    "https://api.deepseek.com@evil.io/v1",
)

_text = st.text(max_size=12)
_reasoning = st.text(min_size=1, max_size=16)
_id = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=8).map("call_".__add__)
_calls = st.lists(
    st.builds(
        lambda cid, name, args: {"id": cid, "type": "function", "function": {"name": name, "arguments": args}},
        _id,
        st.sampled_from(["read_file", "sql_query", "get_weather"]),
        st.sampled_from(["{}", '{"path":"a.txt"}', '{"q":"x"}']),
    ),
    min_size=1,
    max_size=3,
)
# Fields a transform that rebuilds messages would drop; reasoning_content even where it does not belong.
_extras = {"name": _text, "prefix": st.booleans(), "x_vendor": st.dictionaries(_text, _text, max_size=2)}
_stray_reasoning = {"reasoning_content": st.text(max_size=8)}


def _message(role: str, required: dict, optional: dict) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({"role": st.just(role), **required}, optional={**_extras, **optional})


assistant_messages = _message(
    "assistant",
    {"content": st.none() | _text},
    {"reasoning_content": st.just("") | _reasoning, "tool_calls": _calls},
)
other_messages = st.one_of(
    _message("system", {"content": _text}, _stray_reasoning),
    _message("user", {"content": _text}, _stray_reasoning),
    _message("tool", {"content": _text, "tool_call_id": _id}, _stray_reasoning),
)
messages = st.lists(assistant_messages | other_messages, min_size=1, max_size=8)

TOOLS = [
    {"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {}}}}
    for n in ("read_file", "sql_query")
]


@st.composite
def request_bodies(draw, tools: bool | None = None) -> dict:
    """A generic chat-completions body; ``tools`` forces whether it carries tools."""
    body = {"model": "deepseek-chat", "messages": draw(messages), "stream": True}
    with_tools = draw(st.booleans()) if tools is None else tools
    if with_tools:
        body["tools"] = copy.deepcopy(TOOLS)
    optional = {"temperature": st.floats(0, 2), "stream_options": st.just({"include_usage": True}),
                "tool_choice": st.just("auto"), "max_tokens": st.integers(1, 4096)}
    body.update(draw(st.fixed_dictionaries({}, optional=optional)))
    return body


@st.composite
def persisted_events(draw) -> list[dict]:
    """Persisted rounds: reasoning None, empty or text; tool rounds with their results."""
    events = []
    for n in range(draw(st.integers(1, 5))):
        calls = draw(st.lists(st.sampled_from(["read_file", "sql_query"]), max_size=2))
        tool_calls = [{"id": f"call_{n}_{k}", "name": name, "arguments": "{}"} for k, name in enumerate(calls)]
        events.append(
            {
                "input": draw(st.just("") | _text) if n else draw(_text),
                "response": "" if tool_calls else draw(_text),
                "reasoning": draw(st.none() | st.just("") | _reasoning),
                "tool_calls": tool_calls,
                "tool_results": [{"tool_call_id": c["id"], "content": f"result {c['id']}"} for c in tool_calls],
                "tools_used": sorted(set(calls)),
                "timestamp": float(n + 1),
            }
        )
    return events
