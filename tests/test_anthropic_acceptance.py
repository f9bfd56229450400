"""Issue 22's acceptance on the Anthropic reference: the issue's stream decodes, replays and is accepted.

The stream is the incidents' own (``harness.testing.anthropic_incident``):
interleaved thinking and text, three tool_use blocks, a signature split over
three ``signature_delta`` events, a redacted_thinking block between two
calls, a zero-argument call that streams only ``""``, pings, usage split.
A signature in several deltas is a relay's shape, not Anthropic's, so what is
asserted here is the reference's behaviour under the robust contracts
(``test_anthropic_stream_signature_pieces.py``, ``..._interleaved.py``,
``..._data_only.py``) as well as the wire ones. Every link of the way back
(serializer, kernel rounds, render, cold store) is held to the blocks as
received and judged by ``harness.rules.anthropic_history``; then
``harness check`` passes the reference, and a known bug from
``mutants-anthropic.toml`` makes the contract it names fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from harness.clip import shown
from harness.contracts.anthropic_blocks_kept import assert_blocks_kept
from harness.testing.anthropic_incident import SPLIT_PLAN, TURN
from harness.contracts.anthropic_rounds import as_sent
from harness.contracts.block_checks import assert_same_turn
from harness.reference import anthropic_adapter as ref
from harness.reference.sse import StreamError
from harness.rules.anthropic_history import refusals
from harness.testing import ScriptedModel, ScriptedTool, anthropic_wire_message
from harness.testing.anthropic_history import content_blocks
from harness.testing.anthropic_streams import plans
from harness.wire.anthropic_events import turn_body

ROOT = Path(__file__).resolve().parents[1]
BODY = turn_body(TURN, SPLIT_PLAN)  # the issue's stream: signatures split, as relays send them
ANSWER = {"blocks": [{"type": "reasoning", "text": "Both cities and the clock are in.", "signature": "c2lnLTM="},
                     {"type": "text", "text": "Z\u00fcrich 12\u00b0C, Oslo 4\u00b0C; it is 09:30."}],
          "stop_reason": "end_turn", "usage": None}
LOOP = [TURN, ANSWER]
QUESTION = "Weather in Z\u00fcrich and Oslo, and the time?"
STOP = b'{"type": "message_stop"}'
KNOWN_BUG = "anthropic-stream-signature-assigned"
ITS_CONTRACT = "test_anthropic_stream_signature_pieces.py"


def _events_of(body: bytes) -> list[dict]:
    return [json.loads(line[len(b"data: "):]) for line in body.splitlines() if line.startswith(b"data: ")]


def test_the_stream_is_the_issues():
    events = _events_of(BODY)
    starts = [e["content_block"]["type"] for e in events if e["type"] == "content_block_start"]
    assert starts == ["thinking", "text", "tool_use", "redacted_thinking", "tool_use", "thinking", "tool_use"], starts
    signatures = [e["delta"]["signature"] for e in events
                  if e["type"] == "content_block_delta" and e["delta"]["type"] == "signature_delta" and e["index"] == 0]
    assert len(signatures) > 1 and "".join(signatures) == TURN["blocks"][0]["signature"], signatures
    zero = [e["delta"]["partial_json"] for e in events
            if e["type"] == "content_block_delta" and e["index"] == 6]
    assert zero == [""], zero


def test_the_stream_decodes_to_its_blocks_in_order_opaque_values_byte_identical():
    got = ref.parse_stream(BODY)
    assert_same_turn(got, TURN, "the issue's stream")
    assert got["blocks"] == TURN["blocks"], f"decoded {got['blocks']!r}, expected {TURN['blocks']!r}"


@pytest.mark.parametrize("relay", [{}, {"interleaved": True}, {"named": False}],
                         ids=["split-signatures", "interleaved", "data-only"])
@given(data=st.data())
def test_any_robust_cut_of_the_stream_decodes_to_the_same_turn(relay, data):
    plan = data.draw(plans(TURN, split_signatures=True, **relay))
    body = turn_body(TURN, plan)
    assert_same_turn(ref.parse_stream(body), TURN, f"the issue's stream as {plan}: {shown(body)}")


def test_every_byte_cut_of_the_stream_is_refused():
    # As test_anthropic_stream_refused.py counts it: a cut is incomplete until message_stop's data is whole; the
    # cuts after it (inside the final line ends) lose nothing and give the whole turn.
    complete = BODY.rindex(STOP) + len(STOP)
    returned, crashed = [], []
    for n in range(complete):
        try:
            ref.parse_stream(BODY[:n])
        except StreamError:
            continue
        except Exception as exc:  # noqa: BLE001 - a crash is not a refusal: it is reported with the cut
            crashed.append((n, type(exc).__name__))
        else:
            returned.append(n)
    assert not returned, f"{len(returned)} cuts of {len(BODY)} bytes were returned as a turn, first at {returned[:5]}"
    assert not crashed, f"{len(crashed)} cuts crashed instead of raising StreamError: {crashed[:5]}"
    for n in range(complete, len(BODY) + 1):
        assert ref.parse_stream(BODY[:n]) == TURN, f"the body cut after {n} of {len(BODY)} bytes, message_stop whole"


def _kept(messages: list[dict], turns: list[dict], where: str) -> None:
    assistants = [m for m in messages if m.get("role") == "assistant"]
    assert len(assistants) == len(turns), f"{where}: {len(assistants)} assistant messages for {len(turns)} rounds"
    for n, (message, turn) in enumerate(zip(assistants, turns), 1):
        assert_blocks_kept(content_blocks(message), anthropic_wire_message(turn)["content"], f"{where}, round {n}")


def _accepted(messages: list[dict], turns: list[dict], where: str) -> None:
    refused = refusals(as_sent({"model": "claude", "max_tokens": 4096, "messages": messages}, turns), sent=turns)
    assert not refused, f"{where}: Anthropic would refuse it: {[r.message for r in refused]}"


@pytest.fixture(scope="module")
def loop_run():
    decoded = ref.parse_stream(BODY)
    model = ScriptedModel([decoded, ANSWER], format="anthropic")
    tools = [ScriptedTool(name) for name in ("get_weather", "get_time")]
    return model, ref.run_turn(QUESTION, model, tools)["events"]


def test_the_serializer_writes_the_turn_as_received():
    wire = ref.serialize_message({"role": "assistant", "blocks": ref.parse_stream(BODY)["blocks"]})
    assert_blocks_kept(wire["content"], anthropic_wire_message(TURN)["content"], "serialized")
    history = [{"role": "user", "content": QUESTION}, wire,
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": c["id"], "content": "ok"}
                                            for c in TURN["blocks"] if c["type"] == "tool_call"]}]
    _accepted(history, LOOP[:1], "the serialized tool turn answered")


def test_the_kernels_follow_up_request_replays_the_turn(loop_run):
    model, events = loop_run
    assert len(model.requests) == 2, f"{len(model.requests)} requests for one tool round and an answer"
    follow_up = model.requests[1]["messages"]
    _kept(follow_up, LOOP[:1], "the kernel's follow-up request")
    _accepted(follow_up, LOOP[:1], "the kernel's follow-up request")
    assert [e["blocks"] for e in events] == [TURN["blocks"], ANSWER["blocks"]], "the rounds persisted other blocks"


@pytest.mark.parametrize("rounds", [1, 2], ids=["open-tool-turn", "finished-turn"])
def test_the_rendered_history_replays_every_round(loop_run, rounds):
    _, events = loop_run
    messages = ref.render_history(events[:rounds])
    _kept(messages, LOOP[:rounds], "rendered")
    _accepted(messages, LOOP[:rounds], "rendered")


@pytest.mark.parametrize("rounds", [1, 2], ids=["open-tool-turn", "finished-turn"])
def test_the_cold_store_gives_back_what_replays(loop_run, rounds):
    _, events = loop_run
    loaded = ref.load_blocks(ref.store_blocks(events[:rounds]))
    assert loaded == events[:rounds], f"loaded {loaded!r}, stored {events[:rounds]!r}"
    messages = ref.render_history(loaded)
    _kept(messages, LOOP[:rounds], "stored, loaded and rendered")
    _accepted(messages, LOOP[:rounds], "stored, loaded and rendered")


def _harness(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    return subprocess.run([sys.executable, "-m", "harness", *args, "--adapter", "harness.reference:anthropic_adapter"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout)


def test_check_passes_the_reference_and_the_known_bug_fails_its_contract(tmp_path, reference_check):
    check = reference_check("anthropic").run  # `harness check --hypothesis-profile ci --adapter` the reference
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr
    lines = check.stdout.splitlines()
    assert " 0 failed" in lines[-1], lines[-1]
    named = [line for line in lines if ITS_CONTRACT in line]
    assert named and all(line.strip().startswith("PASSED") for line in named), "\n".join(named)

    mutate = _harness("mutate", "--config", str(ROOT / "mutants-anthropic.toml"), "--only", KNOWN_BUG,
                      "--jobs", "1", "--report-dir", str(tmp_path))
    written = tmp_path / "mutation-report.json"
    assert written.exists(), f"harness mutate wrote no report: {mutate.stdout[-3000:]}{mutate.stderr}"
    bug = {m["id"]: m for f in json.loads(written.read_text())["files"].values() for m in f["mutants"]}[KNOWN_BUG]
    # Killed is the verdict with reach: a named contract failed after the patched lines ran (harness.mutation.verdict).
    assert bug["status"] == "Killed", f"{KNOWN_BUG}: {bug['status']}: {bug['statusReason']}"
    killers = [k.split("::")[0] for k in bug["killedBy"]]
    assert ITS_CONTRACT in killers, f"{KNOWN_BUG} was killed by {bug['killedBy']}, expected {ITS_CONTRACT} among them"
