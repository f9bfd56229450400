"""The harness's SSE reader reads back every framing its writer produces, by the WHATWG event-stream rules."""

from __future__ import annotations

import itertools

import pytest

from harness.wire.sse import DONE, Framing, chunks, events, sse

CHUNKS = [{"choices": [{"index": 0, "delta": {"content": "caf\u00e9\ndata: [DONE]"}}]}, {"choices": []}]


@pytest.mark.parametrize(("space", "line_end", "keep_alive", "done"),
                         list(itertools.product((True, False), ("\n", "\r\n", "\r"), (True, False), (True, False))))
def test_every_framing_of_the_writer_reads_back(space: bool, line_end: str, keep_alive: bool, done: bool) -> None:
    body = sse(CHUNKS, Framing(space=space, line_end=line_end, keep_alive=keep_alive, done=done))
    assert chunks(body) == CHUNKS
    assert events(body)[-1] == DONE if done else events(body)[-1] != DONE


def test_an_event_the_body_stops_inside_is_discarded() -> None:
    assert chunks(sse(CHUNKS, Framing(done=False, terminated=False))) == CHUNKS[:1]
    assert events(b"data: 1\n\ndata: 2\n") == ["1"]


def test_fields_other_than_data_and_comments_carry_no_data() -> None:
    body = b'\xef\xbb\xbf: hello\nevent: message\nid: 7\nretry: 10\ndata2: 2\ndata:{"a":\ndata:  1}\n\n\n\nevent: empty\n\n'
    assert events(body) == ['{"a":\n 1}']
    assert chunks(body) == [{"a": 1}]


def test_a_bare_data_line_is_an_empty_value() -> None:
    assert events("data\ndata: x\n\n") == ["\nx"]
