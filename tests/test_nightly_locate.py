"""Locating a mutmut mutant in the original file from its diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.nightly.locate import function_range, locate, offset
from harness.outcomes.mutants import Position

SOURCE = '''\
import json


def decode(line):
    text = line.strip()
    if text == "":
        return None
    return json.loads(text)


class Frame:
    @staticmethod
    def label(x):
        return "x"

    def run(self, events):
        if not events:
            return "x"
        done = []
        for event in events:
            done.append(event)
        results = [
            event.upper()
            for event in done
        ]
        return "x"
'''


def _diff(first: int, lines: list[str]) -> str:
    return "\n".join(["--- f.py", "+++ f.py", f"@@ -{first},4 +{first},4 @@", *lines])


def _apply(source: str, change) -> str:
    return source[: offset(source, change.start)] + change.replacement + source[offset(source, change.end) :]


def test_function_range_includes_decorators() -> None:
    assert function_range(SOURCE, "decode") == (4, 8)
    assert function_range(SOURCE, "Frame.label") == (12, 14)
    with pytest.raises(LookupError):
        function_range(SOURCE, "Frame.missing")


def test_top_level_function_operator_narrowed_to_the_token() -> None:
    diff = _diff(2, ['     text = line.strip()', '-    if text == "":', '+    if text != "":', "         return None"])
    change = locate(diff, SOURCE, "decode")
    assert (change.start, change.end) == (Position(6, 13), Position(6, 15))
    assert (change.original, change.replacement) == ("==", "!=")
    assert 'if text != "":' in _apply(SOURCE, change)


def test_string_change_covers_the_whole_literal() -> None:
    diff = _diff(3, ['-    return "x"', '+    return "XXxXX"'])
    change = locate(diff, SOURCE, "Frame.label")
    assert (change.original, change.replacement) == ('"x"', '"XXxXX"')
    assert change.start.line == 14  # not 18 or 26, which hold the same text in another method


def test_method_lines_are_dedented_in_the_diff_and_repeated_text_picks_the_closest() -> None:
    # mutmut shows a method dedented one level; line 11 of Frame.run is its last line,
    # and line 3 holds the same text.
    diff = _diff(10, ["     ]", '-    return "x"', '+    return None'])
    change = locate(diff, SOURCE, "Frame.run")
    assert change.start == Position(26, 16)
    assert (change.original, change.replacement) == ('"x"', "None")


def test_multi_line_change_keeps_the_file_indentation() -> None:
    diff = _diff(
        6,
        [
            "         done.append(event)",
            "-    results = [",
            "-        event.upper()",
            "-        for event in done",
            "-    ]",
            "+    results = None",
            '     return "x"',
        ],
    )
    change = locate(diff, SOURCE, "Frame.run")
    assert (change.start, change.end) == (Position(22, 19), Position(25, 10))
    assert change.original == "[\n            event.upper()\n            for event in done\n        ]"
    assert change.replacement == "None"
    assert "        results = None\n        return" in _apply(SOURCE, change)


def test_a_diff_that_is_not_in_the_function_is_an_error() -> None:
    with pytest.raises(LookupError, match="not in 'decode'"):
        locate(_diff(1, ["-    nowhere()", "+    None"]), SOURCE, "decode")
