"""What ``harness check --expectations`` makes of a run: each failure expected or not, each entry held or not.

A contract's id is the one its SARIF rule has (:func:`harness.report.sarif.rule_id`):
``module.py::test_name`` without parameters, so one entry covers every case
of a parametrized contract. Per id a run says *failing* (a case failed or
could not run), *passing* (a case passed and none failed) or nothing (not
applicable, deselected). An entry ``fail`` or ``pending`` turns a failing
id's failures into skipped results that say so, as pytest's JUnit writer
shows an expected failure; a ``fail`` entry whose contract passes is an
XPASS, which ``--strict-expectations`` turns into a failure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from harness import CONTRACTS_DIR
from harness.cli.expectations_file import FAIL, PENDING, Expectation, Expectations
from harness.outcomes.results import ERROR, FAILED, PASSED, SKIPPED, Result
from harness.report.sarif import rule_id

FAILING = "failing"
ERRORING = "erroring"
PASSING = "passing"


def outcomes(results: Iterable[Result], partial: set[str] = frozenset()) -> dict[str, str]:
    """Each contract id's outcome in this run: FAILING, ERRORING or PASSING, the first that a case gives
    (absent: nothing decided it).

    ``partial``: ids some of whose cases the run's selection left out; such an id can fail, but
    never pass (a case that did not run may be the one the file expects to fail).
    """
    found: dict[str, str] = {}
    for result in results:
        if not result.level:
            continue  # not a contract's result: a module that did not import has no id to expect
        cid = rule_id(result)
        if result.status == FAILED:
            found[cid] = FAILING
        elif result.status == ERROR and found.get(cid) != FAILING:
            found[cid] = ERRORING
        elif result.status == PASSED and cid not in partial:
            found.setdefault(cid, PASSING)
    return found


@dataclass(frozen=True)
class Judgement:
    expectations: Expectations
    outcome: dict[str, str]  # by contract id, as :func:`outcomes` gives it
    stale: tuple[str, ...]  # entries that name no contract

    def _entries(self, status: str, outcome: str) -> list[str]:
        return [cid for cid, entry in self.expectations.entries.items()
                if entry.status == status and self.outcome.get(cid) == outcome]

    @property
    def xfail(self) -> list[str]:
        return self._entries(FAIL, FAILING)

    @property
    def pending(self) -> list[str]:
        return self._entries(PENDING, FAILING)

    @property
    def xpass(self) -> list[str]:
        return self._entries(FAIL, PASSING)

    @property
    def pending_passed(self) -> list[str]:
        return self._entries(PENDING, PASSING)

    @property
    def errored(self) -> list[str]:
        """Entries whose contract could not run: no failure to expect came of it."""
        return [cid for cid in self.expectations.entries if self.outcome.get(cid) == ERRORING]

    @property
    def unexpected(self) -> list[str]:
        return [cid for cid, outcome in self.outcome.items()
                if outcome == FAILING and cid not in self.expectations.entries]

    @property
    def loose(self) -> bool:
        """The file says more than the run: an XPASS, a pending contract that passed, a stale entry."""
        return bool(self.xpass or self.pending_passed or self.stale)

    def updates(self, today: str) -> tuple[list[str], dict[str, Expectation]]:
        """What ``--update-expectations`` writes: the entries removed and the ones added."""
        removed = [*self.xpass, *self.pending_passed, *self.stale]
        reason = f"recorded by --update-expectations on {today}"
        return removed, {cid: Expectation(FAIL, reason) for cid in self.unexpected}


def judge(expectations: Expectations, results: Iterable[Result], known: set[str],
          partial: set[str] = frozenset()) -> Judgement:
    """``known``: the id of every contract collected, selected or not; ``partial``: as :func:`outcomes` reads it.

    An entry is stale when its module is gone, or was collected without it; a module left out of the
    run's selection (or that did not import) says nothing about its contracts.
    """
    collected = {cid.partition("::")[0] for cid in known}

    def gone(cid: str) -> bool:
        module = cid.partition("::")[0]
        return cid not in known and (module in collected or not (CONTRACTS_DIR / module).is_file())

    stale = tuple(cid for cid in expectations.entries if gone(cid))
    return Judgement(expectations, outcomes(results, partial), stale)


def entry_for(result: Result, expectations: Expectations) -> Expectation | None:
    """The entry that expects this failed result, if any: a failure on an assertion, never an error."""
    return expectations.entries.get(rule_id(result)) if result.status == FAILED and result.level else None


def unexpected_error(result: Result, expectations: Expectations) -> str | None:
    """For an error of a contract the file expects to fail: the line that says it is not that failure."""
    entry = expectations.entries.get(rule_id(result)) if result.status == ERROR and result.level else None
    if entry is None:
        return None
    return (f"not the expected failure: {rule_id(result)} is marked {entry.status!r} in "
            f"{expectations.path}, which expects a failed assertion; this case could not run: an error")


def as_expected(result: Result, entry: Expectation) -> Result:
    """A failure the file expects, as a skipped result that says why (its own lines kept under it)."""
    word = "expected to fail" if entry.status == FAIL else "pending, not yet passed for this adapter"
    why = entry.why()
    return replace(result, status=SKIPPED, message=f"{word}: {why}" if why else word,
                   details=(*result.lines(),))


def word(entry: Expectation) -> str:
    """The status word of an expected failure's console line."""
    return "xfail" if entry.status == FAIL else "pending"


def reported(results: Iterable[Result], judgement: Judgement, strict: bool) -> list[Result]:
    """The results as every report shows them: expected failures skipped; with ``strict``, an XPASS failed."""
    entries = judgement.expectations.entries
    loose = set(judgement.xpass) | set(judgement.pending_passed) if strict else set()
    shown = []
    for result in results:
        entry = entry_for(result, judgement.expectations)
        if entry is not None:
            shown.append(as_expected(result, entry))
        elif result.status == PASSED and rule_id(result) in loose:
            expected = entries[rule_id(result)]
            said = f"expected to fail ({expected.why()})" if expected.status == FAIL else "pending"
            shown.append(replace(result, status=FAILED, kind="XPASS", message=(
                f"XPASS (strict): {said}, but passed; --update-expectations removes the entry")))
        else:
            shown.append(result)
    return shown


def summary_lines(judgement: Judgement, strict: bool) -> list[str]:
    """The file's tally, then each entry that needs a change of the file and each failure it lacks."""
    j = judgement
    tally = ", ".join(f"{len(ids)} {name}" for name, ids in (
        ("expected failures", j.xfail), ("pending", j.pending), ("xpass", j.xpass),
        ("pending passed", j.pending_passed), ("stale", j.stale), ("unexpected failures", j.unexpected)))
    lines = ["", f"expectations ({j.expectations.path}): {tally}"]
    fails = " (fails the run: --strict-expectations)" if strict else ""
    entries = j.expectations.entries
    lines += [f"  XPASS       {cid}: expected to fail ({entries[cid].why()}), but passed{fails}; "
              "--update-expectations removes the entry" for cid in j.xpass]
    lines += [f"  PASSED      {cid}: pending, and passed{fails}; an ordinary contract once "
              "--update-expectations records it" for cid in j.pending_passed]
    lines += [f"  STALE       {cid}: no such contract{fails}; --update-expectations removes the entry"
              for cid in j.stale]
    lines += [f"  UNEXPECTED  {cid}: failed, and the file does not expect it" for cid in j.unexpected]
    lines += [f"  ERROR       {cid}: expected to fail on an assertion ({entries[cid].status}), but could not run"
              for cid in j.errored]
    return lines


def junit_properties(judgement: Judgement) -> list[tuple[str, str]]:
    """The JUnit suite's properties: the file, and each XPASS, pending contract passed and stale entry."""
    return [("expectations", str(judgement.expectations.path)),
            *(("xpass", cid) for cid in judgement.xpass),
            *(("pending passed", cid) for cid in judgement.pending_passed),
            *(("stale expectation", cid) for cid in judgement.stale)]


def today() -> str:
    return datetime.now(UTC).date().isoformat()
