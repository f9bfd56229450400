"""The pinned cut contracts cut a body at every kind of place, far fewer times than at every byte."""

from harness.contracts.body_cuts import cut_points

BODY = "event: a\r\ndata: {\"t\": \"h\u00e9llo\"}\r\n\r\n: keep-alive\r\n\r\nevent: b\r\ndata: {}\r\n\r\n".encode()


def test_every_kind_of_place_is_cut_and_only_short_of_the_whole_body():
    cuts = cut_points(BODY)
    first_event_end = BODY.index(b"\r\n\r\n") + 4
    data_start = BODY.index(b"data:")
    places = {
        "the empty body": 0,
        "inside the first field name": 1,
        "before a line end": BODY.index(b"\r\n"),
        "inside a CRLF line end": BODY.index(b"\r\n") + 1,
        "between lines": data_start,
        "inside a UTF-8 sequence": BODY.index("\u00e9".encode()) + 1,
        "between events": first_event_end,
        "inside a blank line's line end": first_event_end - 1,
        "between a comment and an event": BODY.index(b"event: b"),
    }
    missing = {name: at for name, at in places.items() if at not in cuts}
    value = range(BODY.index(b"{") + 1, BODY.index(b"}"))
    if not any(cut in value for cut in cuts):
        missing["inside a value"] = value
    assert not missing, f"cut_points left out {missing} of a {len(BODY)}-byte body; it cut at {cuts}"
    assert cuts == sorted(set(cuts)) and all(0 <= cut < len(BODY) for cut in cuts), cuts


def test_a_long_line_is_cut_a_few_times_not_at_every_byte():
    body = b"data: " + b"x" * 10_000 + b"\n\n"
    cuts = cut_points(body)
    assert len(cuts) <= 10, f"{len(cuts)} cuts of a two-line body: {cuts[:20]}"
