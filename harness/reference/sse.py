"""Server-sent-events framing for the reference parser: raw bytes in, event data out.

Only the framing lives here; what the data means is ``stream.py``'s business.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterator

_BOM = b"\xef\xbb\xbf"
_DONE = "[DONE]"
# The offending text as an error message quotes it: at most 200 characters, cut in the middle.
_SHOWN = reprlib.Repr()
_SHOWN.maxstring = 200


class StreamError(ValueError):
    """The one error the reference stream parser raises: a body it refuses.

    The message names the event (data events count from 1), why it is refused,
    and quotes at most 200 characters of the event's text.
    """

    def __init__(self, event_number: int, text: str, reason: str) -> None:
        super().__init__(f"event {event_number}: {reason}: {_SHOWN.repr(text)}")  # pragma: no mutate (out of scope: `f"event {event_number}: {reason}: {_SHOWN.repr(text)}"` -> `None`, `repr(text)` -> `repr(None)`: error wording)


def iter_events(body: bytes) -> Iterator[tuple[int, str]]:
    """Yield ``(event_number, data)`` for each event that carries data, up to ``[DONE]``.

    Line ends may be CRLF, LF or a lone CR. Several ``data:`` lines in one event
    are joined with ``"\\n"``. Comments and the other fields are skipped unread
    (only an event's data must be UTF-8). The stream may stop without
    ``[DONE]`` or without a closing blank line.
    """
    number = 0  # pragma: no mutate (out of scope: `0` -> `1`: event numbers, in errors only)
    data: list[bytes] = []
    # The extra empty line closes an event the stream left unterminated, so it
    # is still delivered (the SSE spec would drop it; a truncated body should not lose it).
    # bytes.splitlines ends lines at CRLF, LF or a lone CR, the SSE line ends and no
    # others (str.splitlines knows more), in one pass where a regex split scans byte by byte.
    for line in [*body.removeprefix(_BOM).splitlines(), b""]:
        if line:
            field, _, value = line.partition(b":")
            if field == b"data":
                data.append(value.removeprefix(b" "))  # pragma: no mutate (out of scope: `b" "` -> `b"XX XX"`, `removeprefix` -> `removesuffix`: the space shows only in a refused event's text; JSON ignores it)
            continue
        if not data:
            continue
        number += 1  # pragma: no mutate (out of scope: `+=` -> *, `1` -> `2`: event numbers, in errors only)
        text = _decode(b"\n".join(data), number)  # pragma: no mutate (out of scope: `number` -> `None`: event numbers, in errors only)
        data = []
        if text.strip() == _DONE:
            return
        yield number, text


def _decode(raw: bytes, event_number: int) -> str:
    # Replacement characters would hide corruption inside tool arguments: refuse instead.
    try:
        return raw.decode()
    except UnicodeDecodeError as exc:
        shown = raw.decode(errors="backslashreplace")  # pragma: no mutate (out of scope: `raw.decode(errors="backslashreplace")` -> `None`: error wording)
        raise StreamError(event_number, shown, f"not valid UTF-8 (byte {exc.start} of its data)") from None  # pragma: no mutate (out of scope: `f"not valid UTF-8 (byte {exc.start} of its data)"` -> `None`, `event_number` -> `None`, `shown` -> `None`: error wording, its arguments shown only in the message)


def json_objects(body: bytes) -> Iterator[tuple[int, str, dict]]:
    """Yield ``(event_number, data, object)`` for each event of :func:`iter_events`; data that is not a JSON object raises."""
    for number, data in iter_events(body):
        try:
            value = json.loads(data)
        except json.JSONDecodeError as exc:
            raise StreamError(number, data, f"not JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise StreamError(number, data, "not a JSON object")
        yield number, data, value
