"""Contract: persisted rounds survive the cold store byte for byte, in every neutral-turn format: every block, its order, its opaque values.

Incident: cold storage that kept only input and response blocks lost the
reasoning of every event (incident `deepseek-reasoning-400`); a store that
loses an opaque value or the order of the blocks makes the reloaded session
unreplayable: a thinking signature or redacted block on Anthropic (incidents
`anthropic-opaque-lost`, `anthropic-replay-regrouped`), a reasoning item's
``encrypted_content`` on OpenAI Responses (`responses-encrypted-content-dropped`),
a ``thoughtSignature`` on Gemini (`gemini-signature-aggregation`).

Rule: stated once over the neutral persisted round (:mod:`harness.adapter`),
for every format whose strategies row (``harness.testing.formats``) has
persisted rounds (Anthropic Messages, OpenAI Responses and Gemini share it):
``load_blocks(store_blocks(events))`` gives back the persisted rounds
exactly: as many events, in order; each event's blocks the same types in the
same order, each reasoning text and signature and each redacted block's data
byte for byte, each call's id, name and raw arguments, every text (empty
ones included: storage is not the wire), every key a format adds (Responses
item ids and summaries, Gemini signatures on any part); its tool results,
its input and its timestamp. The store is plain JSON: written out as JSON
text and read back, it loads the same. The events are left as they were.
The rounds are the ones the format under test persists.

Level: wire (what a later request replays must be what the provider sent).

Production fingerprint: a session resumed from storage answers on its first
request HTTP 400 "`thinking` or `redacted_thinking` blocks in the latest
assistant message cannot be modified" or "Invalid `signature` in `thinking`
block" (Anthropic), ``invalid_encrypted_content`` (Responses), or "Corrupted
thought signature." (Gemini).
"""

import copy
import json

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.testing.formats import PINNED, having, wire_format  # noqa: F401 (the fixture)
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats(*having("persisted_rounds"))]


def _kinds(event: dict) -> list:
    return [b.get("type") for b in event.get("blocks") or () if isinstance(b, dict)]


def _opaque(event: dict) -> list:
    return [(b.get("signature"), b.get("text")) if b.get("type") == "reasoning" else b.get("data")
            for b in event.get("blocks") or () if isinstance(b, dict)
            and b.get("type") in ("reasoning", "redacted_reasoning")]


@given(data=st.data())
@example(data=PINNED)
def test_stored_rounds_load_back_byte_for_byte(memory, wire_format, data):
    for events in wire_format.cases(data, "persisted_rounds"):
        _loads_back(memory, events)


def _loads_back(memory, events: list[dict]) -> None:
    memory = valid(memory)
    before = copy.deepcopy(events)
    store = memory.store_blocks(events)
    assert events == before, f"store_blocks changed the events it was given: {clip_json(events, 1000)}"
    try:
        text = json.dumps(store)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"the store is not plain JSON ({exc}): {clip_json(store, 800)}") from None
    for how, loaded in (("loaded", memory.load_blocks(store)),
                        ("loaded from its JSON text", memory.load_blocks(json.loads(text)))):
        assert isinstance(loaded, list) and len(loaded) == len(events), (
            f"{how}: {len(loaded) if isinstance(loaded, list) else shown(loaded)} events, but {len(events)} were "
            "stored")
        for n, (got, want) in enumerate(zip(loaded, events)):
            where = f"{how}, event #{n}: {clip_json(got, 1200)}"
            assert _kinds(got) == _kinds(want), f"the block types in order should be {_kinds(want)}; {where}"
            assert _opaque(got) == _opaque(want), (
                f"thinking (signature, text) and redacted data should be {shown(_opaque(want))} byte for byte; {where}")
            assert got.get("blocks") == want["blocks"], (
                f"the blocks should be {clip_json(want['blocks'], 800)}; {where}")
            assert got.get("tool_results") == want["tool_results"], (
                f"the tool results should be {shown(want['tool_results'])}; {where}")
            assert (got.get("input"), got.get("timestamp")) == (want["input"], want["timestamp"]), (
                f"input and timestamp should be {shown((want['input'], want['timestamp']))}; {where}")
