"""Contract: a user message carries its tool results first, one per result, in order, then its text if it has any.

Incident: the pairing of calls and results is what a history loses first
(incident `batch-path-pairing`); Anthropic reads only the ``tool_result``
blocks that open the user message after the calls, so a result written after
the text answers nothing, and an empty text beside the results is refused
(incident `anthropic-empty-text`).

Rule: ``serialize_message({"role": "user", "content": str, "tool_results":
[{"tool_call_id", "content"}]})`` writes ``role`` ``user`` and ``content``
as blocks: one ``tool_result`` per result, first, in the results' order,
each with ``tool_use_id`` the call id and the result's text as its
``content`` (a string, or text blocks joining to it); then one ``text``
block with the message's text when it is not blank; no blank text block
anywhere (Anthropic refuses empty and whitespace-only text blocks). Without
results the text may also be the string form. The neutral message is left as
it was. Strict form: beside results, a blank text writes nothing after them.

Level: per test. Wire (Anthropic answers a result that does not open the
message, and a blank text block, with 400). Robust for the strict form:
Anthropic accepts a placeholder text in place of the blank one (litellm
writes one), but it is text the user never sent, in every later request of
the conversation; a kernel that stores what it sent and compares it with its
own history needs none added.

Production fingerprint: HTTP 400 "messages.N: `tool_use` ids were found
without `tool_result` blocks immediately after: toolu_..." or "messages:
text content blocks must be non-empty" on the request after a tool round.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.testing import content_text
from harness.testing.anthropic_history import blank, content_blocks, texts
from harness.under_test.invoke import valid

pytestmark = pytest.mark.formats("anthropic")

_results = st.lists(st.builds(lambda n, c: {"tool_call_id": f"toolu_{n:02d}", "content": c},
                              st.integers(1, 99), texts), max_size=12, unique_by=lambda r: r["tool_call_id"])
_users = st.builds(lambda text, results: {"role": "user", "content": text, "tool_results": results},
                   texts | st.text(min_size=1, max_size=20), _results).filter(
    lambda m: not blank(m["content"]) or m["tool_results"])  # a user message with nothing to say is not one
_blank_beside_results = st.builds(lambda text, results: {"role": "user", "content": text, "tool_results": results},
                                  texts.filter(blank), _results.filter(bool))
PINNED = {"role": "user", "content": "And now the folder?", "tool_results": [
    {"tool_call_id": "toolu_02", "content": "12\u00b0C"}, {"tool_call_id": "toolu_01", "content": ""},
    {"tool_call_id": "toolu_03", "content": "a.txt\nb.txt"}]}


def _result_text(block: dict) -> str | None:
    content = block.get("content")
    return content if content == "" else content_text(content)


def _written(messages, message: dict) -> tuple[list, str]:
    """The blocks ``serialize_message`` writes for ``message`` and the input and output shown; the neutral message kept."""
    before = copy.deepcopy(message)
    wire = valid(messages).serialize_message(message)
    shown_io = f"\n  neutral: {clip_json(before, 1000)}\n  written: {clip_json(wire, 1000)}"
    assert message == before, f"serialize_message changed the neutral message it was given{shown_io}"
    blocks = content_blocks(wire) if isinstance(wire, dict) else None
    assert isinstance(wire, dict) and wire.get("role") == "user" and isinstance(blocks, list), (
        f"a user message with content blocks should come back{shown_io}")
    return blocks, shown_io


@pytest.mark.wire
@given(message=_users)
@example(message=PINNED)
@example(message={**PINNED, "content": ""})
@example(message={"role": "user", "content": "Hello?", "tool_results": []})
def test_results_open_the_message_then_its_text(messages, message):
    blocks, shown_io = _written(messages, message)
    results = message["tool_results"]
    opening = blocks[:len(results)]
    ids = [b.get("tool_use_id") if isinstance(b, dict) and b.get("type") == "tool_result" else b for b in opening]
    assert ids == [r["tool_call_id"] for r in results], (
        f"the message opens with {shown(ids)}, but should open with one tool_result per result, in order: "
        f"{[r['tool_call_id'] for r in results]}{shown_io}")
    contents = [_result_text(b) for b in opening if isinstance(b, dict)]
    assert contents == [r["content"] for r in results], (
        f"the results carry {shown(contents)}, but the tools returned {shown([r['content'] for r in results])}"
        f"{shown_io}")
    rest = blocks[len(results):]
    if not blank(message["content"]):
        want_rest = [{"type": "text", "text": message["content"]}]
        assert [b for b in rest if not _blank_text(b)] == want_rest, (
            f"after the results should come {shown(want_rest)}, came {shown(rest)}{shown_io}")
    assert not any(_blank_text(b) for b in blocks), (
        f"a blank text block (empty or only whitespace) was written: Anthropic refuses it{shown_io}")


@pytest.mark.robust
@given(message=_blank_beside_results)
@example(message={**PINNED, "content": " "})
def test_a_blank_text_beside_results_writes_nothing_after_them(messages, message):
    blocks, shown_io = _written(messages, message)
    rest = blocks[len(message["tool_results"]):]
    assert rest == [], (
        f"after the results came {shown(rest)}, but the message's text {message['content']!r} is blank, so nothing "
        f"should follow them{shown_io}")


def _blank_text(block: object) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str) \
        and blank(block["text"])
