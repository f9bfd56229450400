"""Server-sent events: a response body in, the data of each event out."""

from __future__ import annotations

import re
from collections.abc import Iterator

LINE_END = re.compile(rb"\r\n|\r|\n")


def data_events(body: bytes) -> Iterator[str]:
    """The data of every event up to ``[DONE]``; CRLF, LF and CR line ends; an unterminated last event counts."""
    data: list[str] = []
    for raw in [*LINE_END.split(body.removeprefix(b"\xef\xbb\xbf")), b""]:
        line = raw.decode("utf-8")
        if line:
            name, _, value = line.partition(":")
            if name == "data":
                data.append(value[1:] if value.startswith(" ") else value)
            continue
        if data:
            text = "\n".join(data)
            data = []
            if text.strip() == "[DONE]":
                return
            yield text
