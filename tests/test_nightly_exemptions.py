"""The reference's mutation exemptions: mutmut's own pragma with a kind and a reason, never stale.

A stale exemption (its pragma keeps mutmut from making no mutant at all: the
code changed under it) fails here, so the list cannot rot the way a list kept
apart from the code did. The counting is mutmut's own mutant generation
(mutmut is pinned in ``pyproject.toml``; this test is the integration check).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.nightly.equivalents import (
    EQUIVALENT,
    KINDS,
    OUT_OF_SCOPE,
    Exemption,
    ExemptionError,
    load_exemptions,
    parse_exemptions,
    snippet,
    stale_exemptions,
    strip,
)
from harness.nightly.mutmut_run import count_suppressed


def test_every_exemption_of_the_reference_has_a_kind_and_a_reason() -> None:
    exemptions = load_exemptions()
    assert all(e.kind in KINDS and e.reason and e.code for e in exemptions), exemptions


def test_no_exemption_of_the_reference_is_stale() -> None:
    exemptions = load_exemptions()
    counts = count_suppressed(exemptions)
    stale = stale_exemptions(exemptions, counts)
    assert not stale, "exemptions whose pragma keeps mutmut from making no mutant (remove them):\n" + "\n".join(
        f"  {e.file}:{e.line} ({e.kind}: {e.reason}): {e.code}" for e in stale
    )


SOURCE = '''\
def decode(line, codec="utf-8"):
    text = line.decode("UTF-8")  # pragma: no mutate (equivalent: codec names are case-insensitive)
    if not text:
        raise ValueError("empty line")  # pragma: no mutate (out of scope: error wording)
    return text


def nothing():
    pass  # pragma: no mutate (equivalent: there is nothing here to mutate)
'''


def test_pragmas_parse_with_their_kind_reason_and_place() -> None:
    exemptions = parse_exemptions(SOURCE, "harness/reference/demo.py")
    assert [(e.line, e.kind, e.reason, e.code) for e in exemptions] == [
        (2, EQUIVALENT, "codec names are case-insensitive", 'text = line.decode("UTF-8")'),
        (4, OUT_OF_SCOPE, "error wording", 'raise ValueError("empty line")'),
        (9, EQUIVALENT, "there is nothing here to mutate", "pass"),
    ]


@pytest.mark.parametrize(
    ("comment", "problem"),
    [
        ("# pragma: no mutate", "needs its kind and reason"),
        ("# pragma: no mutate (equivalent)", "needs its kind and reason"),
        ("# pragma: no mutate (harmless: it is fine)", "exemption kind 'harmless'"),
        ("# pragma: no mutate (out of scope: )", "needs its kind and reason"),
    ],
)
def test_a_pragma_without_a_kind_and_reason_is_refused(comment: str, problem: str) -> None:
    with pytest.raises(ExemptionError, match=problem):
        parse_exemptions(f"def f():\n    return 1  {comment}\n", "harness/reference/demo.py")


def test_a_pragma_on_a_line_of_its_own_is_refused() -> None:
    with pytest.raises(ExemptionError, match="exempts nothing"):
        parse_exemptions("def f():\n    # pragma: no mutate (equivalent: x)\n    return 1\n", "demo.py")


def test_strip_removes_only_the_given_pragmas_and_keeps_every_line() -> None:
    exemptions = parse_exemptions(SOURCE, "demo.py")
    out_of_scope = [e for e in exemptions if e.kind == OUT_OF_SCOPE]
    stripped = strip(SOURCE, out_of_scope)
    assert stripped.count("\n") == SOURCE.count("\n")
    assert '    raise ValueError("empty line")\n' in stripped and "out of scope" not in stripped
    assert "equivalent: codec names" in stripped


def test_a_snippet_keeps_the_line_numbers_of_its_function() -> None:
    part = snippet(SOURCE, 4)
    assert part.splitlines()[3] == SOURCE.splitlines()[3] and "def nothing" not in part


def test_mutmut_counts_what_each_pragma_suppresses_and_finds_the_stale_one(tmp_path: Path) -> None:
    (tmp_path / "harness" / "reference").mkdir(parents=True)
    (tmp_path / "harness" / "reference" / "demo.py").write_text(SOURCE, encoding="utf-8")
    exemptions = load_exemptions(tmp_path)
    counts = count_suppressed(exemptions, tmp_path)
    assert counts[0] >= 1 and counts[1] >= 1 and counts[2] == 0
    assert stale_exemptions(exemptions, counts) == [exemptions[2]]
    assert isinstance(exemptions[2], Exemption)
