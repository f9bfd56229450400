"""Contract: the persisted event pairs every tool call with its result, on both tool paths.

Incident: an agent frame had a serial tool path that recorded each call
(``append_tool_call_record``) and a concurrent batch path that recorded only
the results (incident `batch-path-pairing`). The in-memory messages looked paired, so the existing
test on them stayed green; the event written to disk held more results than
calls, the next request rendered tool messages with no matching call, and
every provider refused the conversation for good. The first regression test
went down the serial path (its tools were not parallel-safe) and never reached
the bug: this contract proves which path it took with what the scripted tools
count themselves (on the batch path all three calls are held until they are
inside at once, on the serial path never more than one is), and fails when
that evidence is missing.

Rule: for each persisted round, the ids of ``tool_calls`` and of
``tool_results`` are the same set, each result has its call and each call its
result, ``tools_used`` names every tool that ran, and the history rendered from
the events passes the provider's pairing rule.

Level: wire (the pairing rule every provider enforces with HTTP 400).

Production fingerprint: HTTP 400 "An assistant message with 'tool_calls' must
be followed by tool messages responding to each 'tool_call_id'. (insufficient
tool messages following tool_calls message)" on every provider; persisted
events with ``calls=18 results=20``.
"""

import pytest

from harness.clip import clip_json, shown
from harness.testing import OverlapProbe, Rendezvous, ScriptedModel, ScriptedTool, pairing_violations
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire

CALLS = [
    {"id": "call_read_a", "name": "read_file", "arguments": '{"path":"a.txt"}'},
    {"id": "call_read_b", "name": "read_file", "arguments": '{"path":"b.txt"}'},
    {"id": "call_list", "name": "list_dir", "arguments": '{"path":"."}'},
]


# The batch: all three calls must be inside at once before any may finish. The same calls to tools that are not
# parallel-safe are held only when the kernel runs them on a pool, so running them at once always shows.
BATCH = Rendezvous(tuple(c["arguments"] for c in CALLS))
POOLED = Rendezvous(BATCH.calls, pooled_only=True)


def _run(kernel, parallel_safe: bool):
    probe = OverlapProbe(BATCH if parallel_safe else POOLED)
    tools = [ScriptedTool(name, parallel_safe=parallel_safe, probe=probe) for name in ("read_file", "list_dir")]
    model = ScriptedModel(
        [
            {"reasoning": "Read both files and list the folder.", "tool_calls": CALLS, "finish_reason": "tool_calls"},
            {"content": "Both files are here.", "reasoning": "All three results came back."},
        ]
    )
    result = kernel.run_turn("Compare a.txt and b.txt", model, tools)
    runs = sum(len(t.runs) for t in tools)
    assert runs == len(CALLS), f"the kernel ran {shown(runs)} tool executions, expected {len(CALLS)} for calls {CALLS}"
    return result["events"], probe


def _check_pairing(kernel, events):
    assert events, f"the kernel persisted no events, but a turn with a tool round of calls {CALLS} should persist them"
    for n, event in enumerate(events):
        calls = [c["id"] for c in event.get("tool_calls") or []]
        results = [r["tool_call_id"] for r in event.get("tool_results") or []]
        orphan_results = sorted(set(results) - set(calls))
        assert not orphan_results, (
            f"persisted event #{n}: results {shown(orphan_results)} have no recorded call "
            f"(calls={len(calls)} results={len(results)}; recorded call ids {calls})"
        )
        unanswered = sorted(set(calls) - set(results))
        assert not unanswered, (
            f"persisted event #{n}: calls {shown(unanswered)} have no recorded result (results {shown(results)})"
        )
    persisted_calls = sorted(c["id"] for e in events for c in e.get("tool_calls") or [])
    expected = sorted(c["id"] for c in CALLS)
    assert persisted_calls == expected, (
        f"persisted call ids {shown(persisted_calls)}, expected {expected} (calls {CALLS})"
    )
    used = {name for e in events for name in e.get("tools_used") or []}
    missing = sorted({c["name"] for c in CALLS} - used)
    assert not missing, (
        f"persisted tools_used {shown(sorted(used))} lacks {shown(missing)}, but should name every tool of {CALLS}"
    )
    history = kernel.render_history(events)
    problems = pairing_violations(history)
    assert not problems, "history rendered from the persisted events breaks the pairing rule:\n" + "\n".join(
        problems
    ) + "\nhistory: " + clip_json(history, 1500)


def test_batch_path_pairs_calls_and_results(kernel):
    kernel = valid(kernel)
    events, probe = _run(kernel, parallel_safe=True)
    shortfall = probe.never_all_inside(BATCH)
    assert shortfall is None, (
        f"the parallel-safe calls {shown([c['id'] for c in CALLS])} should all run at once, but {shown(shortfall)}: "
        "the kernel did not take its concurrent batch path, so this contract did not reach the code it guards"
    )
    _check_pairing(kernel, events)


def test_serial_path_pairs_calls_and_results(kernel):
    kernel = valid(kernel)
    events, probe = _run(kernel, parallel_safe=False)
    assert probe.max_in_flight == 1, (
        f"{probe.max_in_flight} tools that are not parallel-safe ran at once, but they should run one at a time "
        f"(the serial path) for calls {CALLS}"
    )
    _check_pairing(kernel, events)
