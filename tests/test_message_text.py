"""The text a wire content carries: every form the format allows reads as its text, nothing else does."""

import pytest

from harness.rules.text import content_text

PARTS = [{"type": "text", "text": "Do"}, {"type": "text", "text": "ne."}]


@pytest.mark.parametrize("content, text", [
    ("Done.", "Done."),
    ("", ""),
    (PARTS, "Done."),
    ([{"type": "text", "text": ""}], ""),
])
def test_each_form_of_text_reads_as_its_text(content, text):
    assert content_text(content) == text


@pytest.mark.parametrize("content", [
    None,
    [],  # OpenAI refuses an empty array
    [{"type": "refusal", "refusal": "No."}],
    [{"type": "text", "text": None}],
    [*PARTS, {"type": "image_url", "image_url": {"url": "https://example.invalid/a.png"}}],
    ["Done."],
    {"type": "text", "text": "Done."},
    42,
], ids=["null", "empty-array", "refusal-part", "text-null", "image-part", "bare-string-part", "one-part", "number"])
def test_anything_else_is_no_text(content):
    assert content_text(content) is None
