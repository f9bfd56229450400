"""The reference's mutation exemptions: per mutant, each pragma naming the mutants it covers, never stale.

A pragma names its mutants (``ORIGINAL -> REPLACEMENT``); only those are
exempt, every other mutant of its line is counted. A pragma naming a mutant
mutmut does not make on its line (the code changed under it, or a typo) is an
error naming file:line, so the list cannot rot. What mutmut makes is asked of
mutmut itself (pinned in ``pyproject.toml``; these tests are the integration
check).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.nightly.equivalents import (
    EQUIVALENT,
    OUT_OF_SCOPE,
    Covered,
    ExemptionError,
    by_line,
    load_exemptions,
    parse_exemptions,
    snippet,
    strip,
)
from harness.nightly.mutmut_run import MutmutMutant, check_exemptions
from harness.report.stryker_json import mutmut_entry

FILE = "harness/reference/demo.py"
SOURCE = '''\
def decode(raw):
    text = raw.decode("UTF-8")  # pragma: no mutate (equivalent: `"UTF-8"` -> `"utf-8"`: codec names are case-insensitive)
    if not text:
        raise ValueError("empty line")  # pragma: no mutate (out of scope: `"empty line"` -> *: error wording)
    return text
'''


def test_every_pragma_of_the_reference_names_mutants_mutmut_makes_on_its_line() -> None:
    exemptions = load_exemptions()
    assert exemptions and all(e.covers for e in exemptions)
    check_exemptions(exemptions)  # raises ExemptionError naming each file:line that names a mutant not made


def test_pragmas_parse_with_their_kind_mutants_reason_and_place() -> None:
    exemptions = parse_exemptions(SOURCE, FILE)
    assert [(e.line, e.kind, e.covers, e.reason, e.code) for e in exemptions] == [
        (2, EQUIVALENT, (Covered('"UTF-8"', '"utf-8"'),), "codec names are case-insensitive",
         'text = raw.decode("UTF-8")'),
        (4, OUT_OF_SCOPE, (Covered('"empty line"', None),), "error wording", 'raise ValueError("empty line")'),
    ]


def test_a_pragma_covering_one_token_leaves_the_lines_other_mutants_counted() -> None:
    utf8 = parse_exemptions(SOURCE, FILE)[0]
    assert utf8.covering('text = raw.decode("utf-8")') == Covered('"UTF-8"', '"utf-8"')
    # "XXUTF-8XX" names no codec (decode raises): no equivalent, and the pragma does not cover it.
    for counted in ('text = raw.decode("XXUTF-8XX")', "text = raw.decode(None)", "text = None"):
        assert utf8.covering(counted) is None, counted


def _mutant(n: int, status: str, added: str) -> MutmutMutant:
    diff = "\n".join(["--- demo.py", "+++ demo.py", "@@ -1,2 +1,2 @@", " def decode(raw):",
                      '-    text = raw.decode("UTF-8")', f"+    {added}"])
    return MutmutMutant(f"harness.reference.demo.x_decode__mutmut_{n}", FILE, "decode", status, diff, None, (), ())


def test_the_report_exempts_only_the_named_mutant_and_says_which_pragma_named_it() -> None:
    exemptions = parse_exemptions(SOURCE, FILE)
    stripped = strip(SOURCE, exemptions)  # the text mutmut mutates in the nightly copy
    case = mutmut_entry(_mutant(1, "survived", 'text = raw.decode("utf-8")'), stripped, by_line(exemptions))
    garbled = mutmut_entry(_mutant(2, "survived", 'text = raw.decode("XXUTF-8XX")'), stripped, by_line(exemptions))
    assert (case["status"], case["statusReason"]) == (
        "Ignored", 'equivalent: codec names are case-insensitive (mutmut: survived; '
                   'harness/reference/demo.py:2 `"UTF-8"` -> `"utf-8"`)')
    assert (garbled["status"], garbled["statusReason"]) == ("Survived", "mutmut: survived")


def test_a_star_covers_every_change_inside_its_text_and_context_tells_places_apart() -> None:
    line = "while len(turns) > 1 and size > budget:"
    assert Covered("size > budget", "size >= budget").matches(line, "while len(turns) > 1 and size >= budget:")
    assert not Covered("size > budget", "size >= budget").matches(line, "while len(turns) >= 1 and size > budget:")
    inside = Covered('"POST"', None)
    assert inside.matches('f("POST", url)', 'f("post", url)') and inside.matches('f("POST", url)', 'f(None, url)')
    assert not inside.matches('f("POST", url)', 'f("POST", None)')
    assert Covered("headers=h()", "").matches("f(u, headers=h())", "f(u, )")


@pytest.mark.parametrize(
    ("comment", "problem"),
    [
        ("# pragma: no mutate", "needs its kind, the mutants it covers and its reason"),
        ("# pragma: no mutate (equivalent)", "needs its kind, the mutants it covers and its reason"),
        # the line-wide form of before: it names no mutant
        ("# pragma: no mutate (equivalent: one is one)", "needs its kind, the mutants it covers and its reason"),
        ("# pragma: no mutate (equivalent: `1` -> `2`)", "needs its kind, the mutants it covers and its reason"),
        ("# pragma: no mutate (out of scope: `1` -> `2`: )", "needs its kind, the mutants it covers and its reason"),
        ("# pragma: no mutate (harmless: `1` -> `2`: it is fine)", "exemption kind 'harmless'"),
    ],
)
def test_a_pragma_without_a_kind_a_mutant_and_a_reason_is_refused_naming_file_and_line(comment, problem) -> None:
    with pytest.raises(ExemptionError, match=f"^harness/reference/demo.py:2: .*{problem}"):
        parse_exemptions(f"def f():\n    return 1  {comment}\n", FILE)


def test_a_pragma_on_a_line_of_its_own_is_refused() -> None:
    with pytest.raises(ExemptionError, match="exempts nothing"):
        parse_exemptions("def f():\n    # pragma: no mutate (equivalent: `1` -> `2`: x)\n    return 1\n", FILE)


def test_strip_removes_the_given_pragmas_and_keeps_every_line() -> None:
    exemptions = parse_exemptions(SOURCE, FILE)
    stripped = strip(SOURCE, exemptions)
    assert stripped.count("\n") == SOURCE.count("\n") and "pragma" not in stripped
    assert '    text = raw.decode("UTF-8")\n' in stripped


def test_a_snippet_keeps_the_line_numbers_of_its_function() -> None:
    part = snippet(SOURCE + "\n\ndef other():\n    return 2\n", 4)
    assert part.splitlines()[3] == SOURCE.splitlines()[3] and "def other" not in part


def _project(tmp_path: Path, source: str) -> Path:
    (tmp_path / "harness" / "reference").mkdir(parents=True)
    (tmp_path / "harness" / "reference" / "demo.py").write_text(source, encoding="utf-8")
    return tmp_path


def test_mutmut_makes_every_mutant_the_pragmas_name(tmp_path: Path) -> None:
    root = _project(tmp_path, SOURCE)
    check_exemptions(load_exemptions(root), root)


def test_a_pragma_naming_a_mutant_mutmut_does_not_make_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    # mutmut changes the case of a string and wraps it in XX, it never drops the hyphen.
    root = _project(tmp_path, SOURCE.replace('`"UTF-8"` -> `"utf-8"`', '`"UTF-8"` -> `"UTF8"`'))
    with pytest.raises(ExemptionError) as refused:
        check_exemptions(load_exemptions(root), root)
    assert str(refused.value).startswith(
        'harness/reference/demo.py:2: `"UTF-8"` -> `"UTF8"` names no mutant mutmut makes on this line')
    assert 'text = raw.decode("utf-8")' in str(refused.value)  # what it makes, to choose from
