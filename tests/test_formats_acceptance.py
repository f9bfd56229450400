"""Issue 23's acceptance on the OpenAI Responses and Gemini references: decode, replay, store, trim, all as received.

For each format, property-based over what the format streams (Responses:
reasoning items with ``encrypted_content`` of any character, messages and up
to four parallel calls in any order, their events interleaved and deltas
before their item's ``output_item.added``; Gemini: thought summaries, text,
parallel calls with or without ids, the first signed, any chunking): the
reference decodes the body to the turn streamed, opaque values byte-identical;
the kernel's follow-up request, the history rendered from its persisted
rounds, and the same after the cold store all carry the turn as received and
are refused nothing by the provider's rules. Every byte cut of the pinned
body is refused or whole. Then ``harness check`` passes both references, and
a kernel known bug of each format is killed by the contract that names it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings, strategies as st

from harness.contracts.block_checks import assert_same_turn
from harness.contracts.gemini_checks import assert_same_gemini_turn
from harness.testing.gemini_incident import PARALLEL, PARALLEL_PLAN
from harness.contracts.gemini_parts_kept import assert_parts_kept
from harness.contracts.responses_checks import assert_items_kept, assert_same_items
from harness.testing.responses_incident import EARLY, TURN
from harness.reference import gemini_adapter, responses_adapter
from harness.reference.sse import StreamError
from harness.rules import gemini_history as gemini_rules, responses_history as responses_rules
from harness.testing import ScriptedModel, ScriptedTool, gemini_history, responses_history
from harness.testing import gemini_streams, responses_streams
from harness.formats import spec_for

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "Weather in Zürich and Oslo?"


def _responses_kept(history: list, turns: list[dict], where: str) -> None:
    runs = responses_history.model_runs(history)
    assert len(runs) == len(turns), f"{where}: {len(runs)} runs of model items for {len(turns)} rounds"
    for run, turn in zip(runs, turns):
        assert_items_kept(run, turn, where)


def _gemini_kept(history: list, turns: list[dict], where: str) -> None:
    models = [c for c in history if c.get("role") == "model"]
    assert len(models) == len(turns), f"{where}: {len(models)} model contents for {len(turns)} rounds"
    for content, turn in zip(models, turns):
        assert_parts_kept(content["parts"], gemini_history.wire_content(turn)["parts"], where)


def _responses_decoded(got: dict, turn: dict, where: str) -> None:
    assert_same_turn(got, turn, where)
    assert_same_items(got, turn, where)


@dataclass(frozen=True)
class _Format:
    name: str
    adapter: Any
    streamed: st.SearchStrategy  # (turn, plan) as the provider streams a tool round
    answer: dict
    same_turn: Callable[[dict, dict, str], None]
    kept: Callable[[list, list[dict], str], None]
    refusals: Callable[[list, list[dict]], list]
    pinned: tuple[dict, Any]
    known_bug: tuple[str, str]  # (id in the format's mutants file, the contract that must kill it)


def _responses_round(draw) -> tuple[dict, Any]:
    turn = responses_history.as_sent(draw(responses_streams.turns(max_calls=4, max_others=3, min_calls=1)))
    return turn, draw(responses_streams.plans(turn, interleaved=True, early=True))


def _gemini_round(draw) -> tuple[dict, Any]:
    turn = draw(gemini_history.turns(min_calls=1))
    return turn, draw(gemini_streams.plans(turn))


FORMATS = {
    "openai-responses": _Format(
        "openai-responses", responses_adapter, st.composite(_responses_round)(),
        {"blocks": [{"type": "text", "text": "Zürich 12°C, Oslo 4°C.", "item_id": "msg_answer"}],
         "stop_reason": "completed", "usage": None},
        _responses_decoded, _responses_kept,
        lambda items, sent: responses_rules.refusals({"store": False, "input": items}, sent=sent),
        (TURN, EARLY), ("rounds-kernel-reasoning-dropped", "test_tool_rounds.py")),
    "gemini": _Format(
        "gemini", gemini_adapter, st.composite(_gemini_round)(),
        {"blocks": [{"type": "text", "text": "Zürich 12°C, Oslo 4°C.", "signature": "c2lnLWFuc3dlcg=="}],
         "stop_reason": "STOP", "usage": None},
        assert_same_gemini_turn, _gemini_kept,
        lambda contents, sent: gemini_rules.refusals({"contents": contents}, sent=sent),
        (PARALLEL, PARALLEL_PLAN), ("gemini-kernel-signatures-dropped", "test_tool_rounds.py")),
}
IDS = list(FORMATS)


def _tools(turn: dict) -> list[ScriptedTool]:
    return [ScriptedTool(name) for name in sorted({b["name"] for b in turn["blocks"] if b["type"] == "tool_call"})]


def _opaque(turn: dict) -> list:
    return [(b["type"], b.get("signature")) for b in turn["blocks"]]


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_round_decodes_and_replays_as_received_everywhere(name, data):
    fmt = FORMATS[name]
    ref = fmt.adapter
    turn, plan = data.draw(fmt.streamed)
    codec = spec_for(name).codec
    body = codec.body(turn, plan)
    decoded = ref.parse_stream(body)
    fmt.same_turn(codec.decode(decoded), turn, f"decoded from {body[:400]!r}")
    assert _opaque(codec.decode(decoded)) == _opaque(turn), "opaque values are not byte-identical after decoding"

    loop = [decoded, fmt.answer]
    model = ScriptedModel(loop, format=name)
    events = ref.run_turn(QUESTION, model, _tools(turn))["events"]
    assert len(model.requests) == 2, f"{len(model.requests)} requests for one tool round and an answer"
    follow_up = model.requests[1]["input" if name == "openai-responses" else "contents"]
    fmt.kept(follow_up, [turn], "the kernel's follow-up request")
    assert not fmt.refusals(follow_up, [turn]), "the provider would refuse the kernel's follow-up request"

    for rounds in (1, 2):  # resumed inside the tool loop, and after the answer
        loaded = ref.load_blocks(json.loads(json.dumps(ref.store_blocks(events[:rounds]))))
        assert loaded == events[:rounds], "the cold store did not give back the persisted rounds"
        for how, history in (("rendered", ref.render_history(events[:rounds])),
                             ("stored, loaded and rendered", ref.render_history(loaded))):
            fmt.kept(history, loop[:rounds], how)
            assert not fmt.refusals(history, loop[:rounds]), f"{how}: the provider would refuse the history"
            assert ref.trim_history(history, 10**9) == history, f"{how}: a history under budget was trimmed"


@pytest.mark.parametrize("name", IDS)
def test_every_byte_cut_of_the_pinned_body_is_refused_or_whole(name):
    fmt = FORMATS[name]
    turn, plan = fmt.pinned
    codec = spec_for(name).codec
    body = codec.body(turn, plan)
    returned, crashed = [], []
    for n in range(len(body) + 1):
        try:
            got = fmt.adapter.parse_stream(body[:n])
        except StreamError:
            continue
        except Exception as exc:  # noqa: BLE001 - a crash is not a refusal: it is reported with the cut
            crashed.append((n, type(exc).__name__))
            continue
        if codec.decode(got) != codec.decode(fmt.adapter.parse_stream(body)):
            returned.append(n)
    assert not crashed, f"{len(crashed)} cuts crashed instead of raising StreamError: {crashed[:5]}"
    assert not returned, f"{len(returned)} cuts of {len(body)} bytes came back as another turn, first at {returned[:5]}"
    fmt.same_turn(codec.decode(fmt.adapter.parse_stream(body)), turn, "the whole pinned body")


def _harness(name: str, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    spec = {"openai-responses": "harness.reference:responses_adapter", "gemini": "harness.reference:gemini_adapter"}
    return subprocess.run([sys.executable, "-m", "harness", *args, "--adapter", spec[name]],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)


@pytest.mark.parametrize("name", IDS)
def test_check_passes_the_reference_and_a_kernel_known_bug_fails_its_contract(name, tmp_path, reference_check):
    check = reference_check(name).run  # `harness check --hypothesis-profile ci --adapter` the reference
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr
    lines = check.stdout.splitlines()
    assert " 0 failed" in lines[-1], lines[-1]
    bug_id, contract = FORMATS[name].known_bug
    named = [line for line in lines if contract in line]
    assert named and all(line.strip().startswith("PASSED") for line in named), "\n".join(named)

    # Responses' kernel bug is one the formats share (mutants-rounds.toml); Gemini's is its own.
    config = ROOT / {"openai-responses": "mutants-rounds.toml", "gemini": "mutants-gemini.toml"}[name]
    _harness(name, "mutate", "--config", str(config), "--only", bug_id, "--jobs", "1", "--report-dir", str(tmp_path))
    written = tmp_path / "mutation-report.json"
    assert written.exists(), "harness mutate wrote no report"
    bug = {m["id"]: m for f in json.loads(written.read_text())["files"].values() for m in f["mutants"]}[bug_id]
    assert bug["status"] == "Killed", f"{bug_id}: {bug['status']}: {bug['statusReason']}"
    assert contract in [k.split("::")[0] for k in bug["killedBy"]], f"{bug_id} was killed by {bug['killedBy']}"
