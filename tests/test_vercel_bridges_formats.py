"""The Vercel AI SDK bridges of the OpenAI Responses and Gemini formats, on realistic streams.

Each bridge (examples/vercel-ai-responses, examples/vercel-ai-google) hands
the bytes to the SDK's own provider; these tests check the handshake, the
neutral turn a hand-checked stream maps to, and that each finding's
reproduction still prints BUG. They need the examples' pinned packages:
without ``node_modules`` the tests fail and say how to install them (never a
silent skip).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.bridge import load_bridge

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {"responses": ("vercel-ai-responses", "@ai-sdk/openai"), "google": ("vercel-ai-google", "@ai-sdk/google")}
REPRODUCTIONS = {
    "vercel-ai-responses-cut-stream-finishes.mjs": "responses",
    "vercel-ai-responses-delta-before-added.mjs": "responses",
    "vercel-ai-responses-function-call-id-dropped.mjs": "responses",
    "vercel-ai-responses-message-id-dropped.mjs": "responses",
    "vercel-ai-responses-items-ordered-by-arrival.mjs": "responses",
    "vercel-ai-responses-message-parts-joined.mjs": "responses",
    "vercel-ai-responses-empty-summary-part-dropped.mjs": "responses",
    "vercel-ai-google-cut-stream-finishes.mjs": "google",
    "vercel-ai-google-parts-joined-signature-moved.mjs": "google",
    "vercel-ai-google-call-ids-made-up.mjs": "google",
    "vercel-ai-google-results-and-text-split.mjs": "google",
}


def _missing(example: str) -> str | None:
    directory, provider = EXAMPLES[example]
    if shutil.which("node") is None:
        return "node is not installed: the Vercel AI SDK examples need Node.js 20 or newer"
    for package in ("ai", provider):
        if not (ROOT / "examples" / directory / "node_modules" / package / "package.json").is_file():
            return (f"examples/{directory}/node_modules has no {package}: run "
                    f"`npm ci --prefix examples/{directory}` (from the repository root)")
    return None


def _bridge(example: str):
    missing = _missing(example)
    if missing is not None:
        yield missing
        return
    loaded = load_bridge(f"node {shlex.quote(str(ROOT / 'examples' / EXAMPLES[example][0] / 'bridge.js'))}", timeout=60)
    try:
        yield loaded
    finally:
        loaded.obj.close()


@pytest.fixture(scope="module")
def responses():
    yield from _bridge("responses")


@pytest.fixture(scope="module")
def google():
    yield from _bridge("google")


def _loaded(bridge):
    """The loaded bridge; without the example's packages the test itself fails (no skip)."""
    if isinstance(bridge, str):
        pytest.fail(bridge, pytrace=False)
    return bridge


# ------------------------------------------------------------------ Responses

RESPONSE = {"id": "resp_0a1b", "object": "response", "created_at": 1767225600, "model": "gpt-5-2025-08-07",
            "output": [], "status": "in_progress", "usage": None}
ENCRYPTED = "gAAAAABpXq0v3Yl2k1c-Zt0r9Q==/+x"
REASONING_DONE = {"id": "rs_0a1b", "type": "reasoning", "encrypted_content": ENCRYPTED,
                  "summary": [{"type": "summary_text", "text": "**Two cities**\n\nLook both up at once."}]}


def _call(item_id: str, call_id: str, status: str, arguments: str) -> dict:
    return {"id": item_id, "type": "function_call", "status": status, "arguments": arguments, "call_id": call_id,
            "name": "get_weather"}


PARIS, OSLO = '{"city":"Paris"}', '{"city":"Oslo"}'
RESPONSES_USAGE = {"input_tokens": 312, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 188,
                   "output_tokens_details": {"reasoning_tokens": 128}, "total_tokens": 500}
# A reasoning item (summary and encrypted_content, as under store: false with the include), then two
# parallel calls whose argument deltas interleave.
RESPONSES_EVENTS = [
    {"type": "response.created", "response": RESPONSE},
    {"type": "response.in_progress", "response": RESPONSE},
    {"type": "response.output_item.added", "output_index": 0,
     "item": {"id": "rs_0a1b", "type": "reasoning", "encrypted_content": None, "summary": []}},
    {"type": "response.reasoning_summary_part.added", "item_id": "rs_0a1b", "output_index": 0, "summary_index": 0,
     "part": {"type": "summary_text", "text": ""}},
    {"type": "response.reasoning_summary_text.delta", "item_id": "rs_0a1b", "output_index": 0, "summary_index": 0,
     "delta": "**Two cities**\n\n"},
    {"type": "response.reasoning_summary_text.delta", "item_id": "rs_0a1b", "output_index": 0, "summary_index": 0,
     "delta": "Look both up at once."},
    {"type": "response.reasoning_summary_text.done", "item_id": "rs_0a1b", "output_index": 0, "summary_index": 0,
     "text": "**Two cities**\n\nLook both up at once."},
    {"type": "response.reasoning_summary_part.done", "item_id": "rs_0a1b", "output_index": 0, "summary_index": 0,
     "part": {"type": "summary_text", "text": "**Two cities**\n\nLook both up at once."}},
    {"type": "response.output_item.done", "output_index": 0, "item": REASONING_DONE},
    {"type": "response.output_item.added", "output_index": 1, "item": _call("fc_01", "call_paris", "in_progress", "")},
    {"type": "response.output_item.added", "output_index": 2, "item": _call("fc_02", "call_oslo", "in_progress", "")},
    {"type": "response.function_call_arguments.delta", "item_id": "fc_01", "output_index": 1, "delta": '{"city":'},
    {"type": "response.function_call_arguments.delta", "item_id": "fc_02", "output_index": 2, "delta": '{"city":'},
    {"type": "response.function_call_arguments.delta", "item_id": "fc_02", "output_index": 2, "delta": '"Oslo"}'},
    {"type": "response.function_call_arguments.delta", "item_id": "fc_01", "output_index": 1, "delta": '"Paris"}'},
    {"type": "response.function_call_arguments.done", "item_id": "fc_01", "output_index": 1, "arguments": PARIS},
    {"type": "response.output_item.done", "output_index": 1, "item": _call("fc_01", "call_paris", "completed", PARIS)},
    {"type": "response.function_call_arguments.done", "item_id": "fc_02", "output_index": 2, "arguments": OSLO},
    {"type": "response.output_item.done", "output_index": 2, "item": _call("fc_02", "call_oslo", "completed", OSLO)},
    {"type": "response.completed", "response": {**RESPONSE, "status": "completed", "usage": RESPONSES_USAGE, "output": [
        REASONING_DONE, _call("fc_01", "call_paris", "completed", PARIS),
        _call("fc_02", "call_oslo", "completed", OSLO)]}},
]
RESPONSES_BODY = "".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': n})}\n\n"
                         for n, e in enumerate(RESPONSES_EVENTS)).encode()


def test_the_responses_bridge_speaks_openai_responses(responses):
    loaded = _loaded(responses)
    assert (loaded.format, loaded.capabilities) == ("openai-responses", {"stream", "messages"})


def test_a_reasoning_round_with_parallel_calls_maps_to_the_neutral_turn(responses):
    got = _loaded(responses).obj.parse_stream(RESPONSES_BODY)
    assert got == {
        "blocks": [
            {"type": "reasoning", "text": "**Two cities**\n\nLook both up at once.", "signature": ENCRYPTED,
             "item_id": "rs_0a1b", "summary": ["**Two cities**\n\nLook both up at once."]},
            {"type": "tool_call", "id": "call_paris", "name": "get_weather", "arguments": PARIS, "item_id": "fc_01"},
            {"type": "tool_call", "id": "call_oslo", "name": "get_weather", "arguments": OSLO, "item_id": "fc_02"},
        ],
        "stop_reason": "completed",
        "usage": RESPONSES_USAGE,
    }, f"the SDK's stream parts mapped to {got}"


# --------------------------------------------------------------------- Gemini

SIGNATURE = "CiQBcsjafL3k7Zq0YF0bXGgq2w8ngPM1+tq3H7QkgrqfnHRIbE4="
GEMINI_USAGE = {"promptTokenCount": 96, "candidatesTokenCount": 41, "totalTokenCount": 331, "thoughtsTokenCount": 194}


def _chunk(parts: list[dict], **candidate) -> dict:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0, **candidate}],
            "usageMetadata": GEMINI_USAGE, "modelVersion": "gemini-3-pro-preview", "responseId": "Xk3aZ"}


# Text, then two parallel calls in one chunk: only the first carries the thought signature.
GEMINI_CHUNKS = [
    _chunk([{"text": "Checking Paris "}]),
    _chunk([{"text": "and Oslo."}]),
    _chunk([{"functionCall": {"id": "fc_paris", "name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": SIGNATURE},
            {"functionCall": {"id": "fc_oslo", "name": "get_weather", "args": {"city": "Oslo", "unit": "celsius"}}}]),
    _chunk([], finishReason="STOP"),
]
GEMINI_BODY = "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in GEMINI_CHUNKS).encode()


def test_the_google_bridge_speaks_gemini(google):
    loaded = _loaded(google)
    assert (loaded.format, loaded.capabilities) == ("gemini", {"stream", "messages"})


def test_a_signed_parallel_call_round_maps_to_the_neutral_turn(google):
    got = _loaded(google).obj.parse_stream(GEMINI_BODY)
    assert got == {
        # The SDK joins consecutive text parts into one text.
        "blocks": [
            {"type": "text", "text": "Checking Paris and Oslo."},
            {"type": "tool_call", "id": "fc_paris", "name": "get_weather", "arguments": '{"city":"Paris"}',
             "signature": SIGNATURE},
            {"type": "tool_call", "id": "fc_oslo", "name": "get_weather", "arguments": '{"city":"Oslo","unit":"celsius"}'},
        ],
        "stop_reason": "STOP",
        "usage": GEMINI_USAGE,
    }, f"the SDK's stream parts mapped to {got}"


# ------------------------------------------------------------- reproductions

@pytest.mark.parametrize("script", sorted(REPRODUCTIONS))
def test_each_finding_reproduces_today(script):
    """Each reproduction, run from the repository, prints BUG (exit 1); ok means the SDK fixed it."""
    missing = _missing(REPRODUCTIONS[script])
    if missing is not None:
        pytest.fail(missing, pytrace=False)
    run = subprocess.run(["node", str(ROOT / "docs" / "findings" / script)], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    lines = run.stdout.strip().splitlines()
    assert lines and lines[-1] == "BUG" and run.returncode == 1, (
        f"{script} exited {run.returncode} with:\n{run.stdout}\n{run.stderr}\n"
        "if it prints ok, the SDK fixed the bug: update docs/findings and this test")
