"""Applying known-bug patches: exact anchors, drops, and the ranges reach is measured on."""

import pytest

from harness.mutation.patch import StalePatch, apply_patch

SOURCE = "def f(x):\n    if x:\n        record(x)\n        keep(x)\n    return x\n"


def test_replace_reports_original_and_patched_ranges():
    patch = apply_patch(SOURCE, "        record(x)\n", "        record(x)\n        record(x)\n")
    assert patch.text.count("record(x)") == 2
    assert (patch.start.line, patch.start.column) == (3, 1)
    assert (patch.first_line, patch.last_line) == (3, 4)


def test_dropping_whole_lines_leaves_pass_at_their_indentation():
    patch = apply_patch(SOURCE, "        record(x)\n        keep(x)\n", "")
    assert "        pass\n" in patch.text and "record" not in patch.text
    assert (patch.first_line, patch.last_line) == (3, 3)
    compile(patch.text, "<patched>", "exec")


def test_dropping_lines_inside_an_expression_deletes_them():
    source = 'def f():\n    return {\n        "type": "function",\n        "name": "f",\n    }\n'
    patch = apply_patch(source, '        "type": "function",\n', "")
    assert patch.text == 'def f():\n    return {\n        "name": "f",\n    }\n'
    compile(patch.text, "<patched>", "exec")


def test_dropping_lines_of_another_language_leaves_no_stand_in():
    source = "function f(x) {\n  record(x);\n  return x;\n}\n"
    patch = apply_patch(source, "  record(x);\n", "", python=False)
    assert patch.text == "function f(x) {\n  return x;\n}\n"


def test_dropping_part_of_a_line_deletes_just_that_text():
    patch = apply_patch(SOURCE, "    return x", "    return")
    assert "    return\n" in patch.text
    patch = apply_patch(SOURCE, "(x):", "")
    assert patch.text.startswith("def f\n")


@pytest.mark.parametrize(
    "find, expected",
    [("not in the file", "does not occur"), ("(x)", "occurs 3 times")],
)
def test_missing_or_ambiguous_anchor_is_stale(find, expected):
    with pytest.raises(StalePatch, match=expected):
        apply_patch(SOURCE, find, "y")
