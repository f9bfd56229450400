"""Pinned wire output of the reference for each incident scenario.

Contracts check rules so they hold for any adapter; these snapshots pin the
reference's exact bytes so an unintended change to it shows up in review.
Update with ``pytest --snapshot-update`` after checking the diff.
"""

import json

from syrupy.filters import props

from harness.reference import adapter
from harness.testing.scripted import ScriptedModel, ScriptedTool


def test_deepseek_reasoning_400_assistant_with_reasoning_and_tool_calls(snapshot):
    message = {
        "role": "assistant",
        "content": None,
        "reasoning": "Need the invoice table first.",
        "tool_calls": [{"id": "call_1", "name": "sql_query", "arguments": '{"sql":"select * from invoice"}'}],
    }
    assert adapter.serialize_message(message) == snapshot


def test_sse_index_accumulation_twelve_parallel_calls(snapshot):
    chunks = []
    for n in range(12):
        args = json.dumps({"city": f"City {n}"})
        chunks.append({"index": n, "id": f"call_{n:02}", "type": "function", "function": {"name": "weather", "arguments": args[:5]}})
        chunks.append({"index": n, "function": {"arguments": args[5:]}})
    body = "".join(
        "data: " + json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [c]}}]}) + "\n\n" for c in chunks
    )
    body += 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n'
    assert adapter.parse_stream(body.encode()) == snapshot


def test_batch_path_pairing_batch_turn_persisted_and_rendered(snapshot):
    calls = [{"id": f"call_{n}", "name": "read_file", "arguments": json.dumps({"path": f"{n}.txt"})} for n in range(3)]
    model = ScriptedModel([{"reasoning": "Read all three.", "tool_calls": calls}, {"content": "Done."}])
    events = adapter.run_turn("Read the files", model, [ScriptedTool("read_file", parallel_safe=True)])["events"]
    assert events == snapshot(exclude=props("timestamp"))
    # Rendered for DeepSeek, the provider that wants the reasoning back; None would mean generic.
    assert adapter.render_history(events, base_url="https://api.deepseek.com") == snapshot
