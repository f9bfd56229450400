"""Inputs for the provider contracts: base URLs and a Hypothesis strategy for request bodies.

Generated histories are deliberately untidy: any role may carry
``reasoning_content`` or fields a rebuild would lose (``name``, ``prefix``,
a vendor key), so a transform that touches more than its rule shows up; an
assistant message's ``reasoning_content`` may be null (a record written for a
round that did not think).
"""

from __future__ import annotations

import copy
from urllib.parse import urlsplit

from hypothesis import strategies as st

DEEPSEEK_URL = "https://api.deepseek.com"
# The same host written the ways clients write it.
DEEPSEEK_URLS = (
    DEEPSEEK_URL,
    "https://api.deepseek.com/v1",
    "https://API.DeepSeek.com/beta",
    "https://api.deepseek.com:443/",
)
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


def host_of(base_url: str | None) -> str | None:
    """The host a base URL reaches, lower-cased (``None`` without one): what ``reasoning.hosts`` lists."""
    return urlsplit(base_url).hostname if base_url else None


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
    # null: a kernel that writes the field for a round without reasoning.
    {"reasoning_content": st.none() | st.just("") | _reasoning, "tool_calls": _calls},
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


def one_call(cid: str) -> list[dict]:
    """A ``tool_calls`` list of one wire call with id ``cid``."""
    return [{"id": cid, "type": "function", "function": {"name": "read_file", "arguments": "{}"}}]


# A hand-written member of request_bodies(tools=True), used as an @example: it
# fails fast (no shrinking) on the bugs the generated ones find.
UNTIDY_BODY = {
    "model": "deepseek-chat",
    "messages": [
        {"role": "system", "content": "Be brief.", "name": "ops"},
        {"role": "user", "content": "Compare a.txt with b.txt.", "reasoning_content": "stray"},
        {"role": "assistant", "content": None, "name": "agent", "tool_calls": one_call("call_0")},
        {"role": "tool", "tool_call_id": "call_0", "content": "text of a"},
        {"role": "assistant", "content": "", "reasoning_content": "Now b.txt.", "x_vendor": {"trace": "7"},
         "tool_calls": one_call("call_1")},
        {"role": "tool", "tool_call_id": "call_1", "content": "text of b"},
        {"role": "assistant", "content": "They differ in line 3.", "prefix": False},
        {"role": "user", "content": "Which line?"},
    ],
    "tools": TOOLS,
    "stream": True,
    "temperature": 0.2,
}


# A plain chat (no tools) whose history carries an earlier answer's reasoning, as a kernel that round-trips it
# writes it: the rules on sending the field back (R1 refuses it, strict schemas refuse it) do not wait for tools.
CHAT_BODY = {
    "model": "deepseek-reasoner",
    "messages": [
        {"role": "user", "content": "Is 1001 prime?"},
        {"role": "assistant", "content": "No: 7 × 11 × 13.", "reasoning_content": "Try 7: 7 × 143 = 1001."},
        {"role": "user", "content": "And 1003?"},
    ],
    "stream": True,
}


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

