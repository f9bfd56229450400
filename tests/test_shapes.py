"""Stream shapes: framings read and write events back, every declared shape moves something, and only what it says."""

from __future__ import annotations

import json

import pytest

from harness.formats import spec_for
from harness.testing.formats import STRATEGIES, having
from harness.testing.shapes import Shape, shaped
from harness.wire.framing import NDJSON, SSE
from harness.wire.sse import Framing, sse_events

WITH_SHAPES = having("streamed_turns", "shapes")


def test_sse_events_read_back_with_their_names_and_write_back_to_the_same_body():
    body = sse_events([("message_start", '{"type": "message_start"}'), (None, "[DONE]")])
    assert SSE.read(body) == [("message_start", '{"type": "message_start"}'), (None, "[DONE]")]
    assert SSE.write(SSE.read(body)) == body


def test_an_sse_body_that_stops_after_its_last_data_line_still_reads_that_event():
    body = sse_events([(None, '{"a": 1}'), (None, '{"b": 2}')], Framing(terminated=False, line_end="\r\n"))
    assert [data for _, data in SSE.read(body)] == ['{"a": 1}', '{"b": 2}']


def test_ndjson_lines_read_back_without_names_and_write_back_one_a_line():
    assert NDJSON.read(b'{"a": 1}\r\n\n{"b": 2}') == [(None, '{"a": 1}'), (None, '{"b": 2}')]
    assert NDJSON.write([(None, '{"a": 1}'), (None, '{"b": 2}')]) == b'{"a": 1}\n{"b": 2}\n'


def test_a_shape_that_moves_nothing_gives_no_body_and_one_that_does_keeps_the_event_names():
    spec = spec_for("anthropic")
    turn, plan = STRATEGIES["anthropic"].streamed_turns.pinned[0]
    body = spec.codec.body(turn, plan)
    assert shaped(spec, body, Shape("nothing", "no one", lambda events: events)) is None
    pings = shaped(spec, body, Shape("a ping first", "Anthropic", lambda events: [{"type": "ping"}, *events]))
    assert SSE.read(pings) == [("ping", '{"type": "ping"}'), *SSE.read(body)]


@pytest.mark.parametrize("name", WITH_SHAPES)
def test_every_shape_moves_something_in_a_pinned_body_and_keeps_the_stream_readable(name):
    """A shape no pinned example gives anything to move would be judged only by chance draws."""
    spec, row = spec_for(name), STRATEGIES[name]
    bodies = [spec.codec.body(turn, cut) for turn, cut in row.streamed_turns.pinned]
    names = [shape.name for shape in row.shapes]
    assert len(set(names)) == len(names), f"{name} declares a shape name twice: {names}"
    for shape in row.shapes:
        varied = [b for b in (shaped(spec, body, shape) for body in bodies) if b is not None]
        assert varied, f"{name}'s shape {shape.name!r} changes none of the pinned bodies"
        for body in varied:
            for _, data in spec.framing.read(body):
                if data != "[DONE]":
                    json.loads(data)
