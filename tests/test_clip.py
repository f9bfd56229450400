"""Values cut for messages read exactly as their whole repr or JSON would, and cost only the part shown."""

import json
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

from harness import clip
from harness.testing import ScriptedModel

_TEXT = st.text(st.sampled_from(["a", "'", '"', "\\", "\n", "é", "\x00", "😀", "\udc80"]), max_size=12)
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), _TEXT,
                    st.binary(max_size=12))
VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_TEXT, inner, max_size=4),
        st.dictionaries(st.integers(), inner, max_size=3),
        st.frozensets(st.integers(), max_size=3),
        st.lists(inner, max_size=2).map(lambda rounds: ScriptedModel(rounds=rounds)),
    ),
    max_leaves=20,
)


def _small_pieces(patch: pytest.MonkeyPatch) -> None:
    """Pieces far smaller than the defaults, so short values cross every chunk and block boundary."""
    patch.setattr(clip, "_CHUNK", 3)
    patch.setattr(clip, "_BLOCK", 2)
    patch.setattr(clip, "_FLAT_TEXT", 2)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


@settings(max_examples=300)
@given(value=VALUES, limit=st.sampled_from([0, 7, 40, 10**6]))
def test_clip_repr_and_clip_json_read_as_the_whole_text_cut(value, limit):
    with pytest.MonkeyPatch.context() as patch:
        _small_pieces(patch)
        if not (isinstance(value, (str, bytes)) and len(value) > limit):  # those state their own length
            assert clip.clip_repr(value, limit) == _cut(repr(value), limit)
        try:
            whole = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError):
            return
        assert clip.clip_json(value, limit) == _cut(whole, limit)


def test_a_huge_value_costs_only_the_part_shown():
    huge = "x'\"" * 10_000_000  # 30 MB, both quotes: repr escapes as it goes
    model = ScriptedModel(rounds=[], requests=[{"messages": [{"role": "user", "content": huge}]}])
    tracemalloc.start()
    try:
        shown = [clip.clip_repr(model), clip.clip_json(model.requests), clip.shown_call((huge, model), {})]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000, f"cutting a 30 MB value allocated {peak:,} bytes at its peak"
    assert shown[0].endswith(f"... ({len(repr(model))} characters)"), shown[0][-60:]
    assert shown[1].endswith(f"... ({len(json.dumps(model.requests, ensure_ascii=False))} characters)")
