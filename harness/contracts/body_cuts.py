"""Where a pinned contract cuts a streamed body short: one cut for each kind of place, not one at every byte.

Decoding every prefix of a body costs its length squared; the prefixes that
differ in kind are far fewer. For each line of the body (up to and including
its ``\\n``) the cuts are: after its first byte (inside a field name or a
value's opening), in its middle (inside the value), before its line end (the
line whole but unterminated), inside a CRLF line end, after the line end
(between lines and, at a blank line, between SSE events), and inside its
first multi-byte UTF-8 sequence. Drawn examples still cut at any byte.
"""

from __future__ import annotations


def cut_points(body: bytes) -> list[int]:
    """The lengths of the prefixes of ``body`` to try, ascending; every one shorter than the body."""
    cuts = {0}
    start = 0
    while start < len(body):
        newline = body.find(b"\n", start)
        end = len(body) if newline < 0 else newline + 1  # the next line's start
        if newline < 0:
            text_end = len(body)
        else:
            text_end = newline - 1 if newline > start and body[newline - 1] == 0x0D else newline  # before \r\n or \n
        cuts.update((start + 1, (start + text_end) // 2, text_end, end - 1, end))
        lead = next((at for at in range(start, text_end) if body[at] >= 0xC0), None)  # a multi-byte sequence's lead
        if lead is not None:
            cuts.add(lead + 1)
        start = end
    return sorted(cut for cut in cuts if 0 <= cut < len(body))
