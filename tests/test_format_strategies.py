"""The strategies rows: every format has one, every row is a format's, and each row's pinned examples are its own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from harness.adapter import FORMATS
from harness.formats import SPECS, spec_for
from harness.testing import formats
from harness.testing.formats import PINNED, STRATEGIES, Source, Strategies, having, register, wire_format_of


def test_every_format_has_a_strategies_row_and_every_row_a_format():
    assert list(STRATEGIES) == list(FORMATS), "harness.testing.formats.STRATEGIES and harness.adapter.FORMATS differ"


def test_a_row_for_an_unknown_format_is_refused(monkeypatch):
    monkeypatch.setattr(formats, "STRATEGIES", dict(STRATEGIES))
    with pytest.raises(ValueError, match="'toy' has no row in harness.formats"):
        register("toy", Strategies())


def test_a_registered_row_is_drawn_from_and_in_the_contracts_that_need_it(monkeypatch):
    monkeypatch.setattr(formats, "STRATEGIES", dict(STRATEGIES))
    monkeypatch.setitem(FORMATS, "toy", "Toy")
    monkeypatch.setitem(SPECS, "toy", replace(spec_for("chat"), name="toy", label="Toy"))
    register("toy", Strategies(persisted_rounds=Source(st.just([{"input": "hi"}]), ([{"input": "pinned"}],))))
    assert "toy" in having("persisted_rounds") and "toy" not in having("streamed_turns")
    toy = wire_format_of("toy")
    assert toy.cases(PINNED, "persisted_rounds") == [[{"input": "pinned"}]]
    with pytest.raises(ValueError, match="already has a strategies row"):
        register("toy", Strategies())
    with pytest.raises(LookupError, match="'toy' has no streamed_turns"):
        toy.cases(PINNED, "streamed_turns")


def test_having_names_only_fields_of_a_row():
    with pytest.raises(ValueError, match="no strategies field"):
        having("turnz")
    with pytest.raises(ValueError, match="no strategies field"):
        having("tool_rounds.resumd")


def test_a_part_of_a_row_is_drawn_from_and_in_the_contracts_that_need_it():
    with_loops = having("tool_rounds.loops")
    assert with_loops == having("tool_rounds"), "every format with a tool_rounds part draws tool loops from it"
    for name in with_loops:
        rounds = STRATEGIES[name].tool_rounds
        assert rounds.loops.pinned, f"{name}'s tool loops pin no incident example"
        assert wire_format_of(name).cases(PINNED, "tool_rounds.loops") == list(rounds.loops.pinned)
    for name in (name for name in STRATEGIES if name not in with_loops):
        with pytest.raises(LookupError, match=f"'{name}' has no tool_rounds.loops"):
            wire_format_of(name).cases(PINNED, "tool_rounds.loops")


@pytest.mark.parametrize("name", list(FORMATS))
def test_pinned_examples_are_what_the_row_draws_and_run_under_their_format(name):
    row = STRATEGIES[name]
    kinds = [kind for kind in ("streamed_turns", "persisted_rounds", "histories") if getattr(row, kind) is not None]
    assert kinds, f"{name}'s row gives the cross-format contracts nothing to draw"
    assert row.streamed_turns is not None, f"{name}'s row has no streamed turns: the stream rule skips it"
    assert row.shapes, f"{name}'s row streams turns but declares no shapes: the stream-shapes rule skips it"
    for kind in kinds:
        assert getattr(row, kind).pinned, f"{name}'s {kind} pin no incident example"
        assert wire_format_of(name).cases(PINNED, kind) == list(getattr(row, kind).pinned)


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_drawn_stream_sample_round_trips_through_the_formats_codec(name):
    """A streamed sample is a (turn, cut) its own codec writes, so the stream rule judges the adapter, not the row."""
    row, codec = STRATEGIES[name], wire_format_of(name).spec.codec

    @settings(max_examples=5, database=None, deadline=None)
    @given(st.data())
    def check(data):
        for turn, cut in wire_format_of(name).cases(data, "streamed_turns"):
            assert isinstance(cut, codec.cut_type) and codec.body(turn, cut)

    check()
    for turn, cut in row.streamed_turns.pinned:
        assert isinstance(cut, codec.cut_type) and codec.body(turn, cut)


def test_each_adapter_contracts_class_draws_from_its_own_adapters_format(tmp_path):
    """Two classes of two formats in one session: the stream rule runs under each class's own format."""
    # A class imports the contracts outside the harness profile: few examples, no timing checks on a busy machine.
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        from hypothesis import HealthCheck, settings
        settings.register_profile("few", max_examples=10, deadline=None, database=None,
                                  suppress_health_check=list(HealthCheck))
        settings.load_profile("few")
    """))
    (tmp_path / "test_mine.py").write_text(textwrap.dedent("""
        from harness.reference import adapter, gemini_adapter
        from harness.testing import AdapterContracts

        class TestChat(AdapterContracts):
            adapter = adapter

        class TestGemini(AdapterContracts):
            adapter = gemini_adapter
    """))
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--harness-profile", "ci", "-rA",
                          "-k", "StreamTurns and test_a_stream_decodes_to_its_turn"],
                         cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    out = run.stdout
    assert run.returncode == 0, out[-4000:] + run.stderr
    passed = sorted(re.findall(r"^PASSED \S+::(Test\w+)::TestStreamTurns::test_a_stream_decodes_to_its_turn", out, re.M))
    assert passed == ["TestChat", "TestGemini"], out[-3000:]
