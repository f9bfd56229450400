"""The verdict rule, shards and exit codes as pure functions (the slow end-to-end proof is in test_mutation_verdicts)."""

import pytest

from harness.cli.mutate import exit_code
from harness.exit_codes import (
    OK as EXIT_OK,
    STALE_INVALID as EXIT_STALE_INVALID,
    SURVIVED as EXIT_SURVIVED,
    TIMEOUT as EXIT_TIMEOUT,
)
from harness.mutation.reach import ALL_TESTS, mark_reached, reach_lines
from harness.mutation.shard import Shard
from harness.mutation.verdict import decide
from harness.outcomes.mutants import Mutant, MutantResult, Verdict


def _t(outcome, reached, message=""):
    return {"outcome": outcome, "reached": reached, "message": message}


@pytest.mark.parametrize(
    "tests, errors, verdict",
    [
        ({"a": _t("assertion", True, "boom"), "b": _t("passed", True)}, [], Verdict.KILLED),
        ({"a": _t("assertion", True), "b": _t("error", True)}, [], Verdict.KILLED),
        ({"a": _t("assertion", False)}, [], Verdict.INVALID),
        ({"a": _t("error", True)}, [], Verdict.INVALID),
        ({"a": _t("passed", False)}, ["collection failed"], Verdict.INVALID),
        ({"a": _t("passed", True)}, [], Verdict.SURVIVED),
        ({"a": _t("passed", False)}, [], Verdict.UNREACHED),
        ({"a": _t("not applicable", False)}, [], Verdict.INVALID),
        ({}, [], Verdict.INVALID),
    ],
    ids=["killed", "killed-despite-other-error", "assertion-without-reach", "crash", "collection",
         "survived", "unreached", "nothing-applicable", "nothing-ran"],
)
def test_decide(tests, errors, verdict):
    decision = decide(tests, errors)
    assert decision.verdict is verdict, f"{decision.verdict} ({decision.reason}), expected {verdict}"


def test_killed_names_every_killer_and_the_first_message():
    decision = decide({"b": _t("assertion", True, "second"), "a": _t("assertion", True, "first")}, [])
    assert decision.killed_by == ["a", "b"] and decision.message == "first"


def test_reach_falls_back_to_the_statement_above_a_continuation_line():
    assert reach_lines({3, 4, 9}, 5, 6) == {4}
    assert reach_lines({3, 4, 9}, 4, 9) == {4, 9}
    assert reach_lines({9}, 2, 3) == set()


def test_reach_credits_tests_by_context_import_time_and_whole_run():
    tests = {"a": {}, "b": {}}
    mark_reached(tests, {5}, {5: {"a"}}, 5, 5)
    assert (tests["a"]["reached"], tests["b"]["reached"]) == (True, False)
    mark_reached(tests, {5}, {5: {""}}, 5, 5)
    assert tests["a"]["reached"] and tests["b"]["reached"]
    mark_reached(tests, {5}, {5: {ALL_TESTS}}, 5, 5)
    assert tests["b"]["reached"]
    mark_reached(tests, {5}, {}, 5, 5)
    assert not tests["a"]["reached"]


def test_shards_partition_the_catalogue_deterministically():
    mutants = list(range(10))
    slices = [Shard.parse(f"{k}/3").select(mutants) for k in (1, 2, 3)]
    assert sorted(sum(slices, [])) == mutants
    assert slices[0] == [0, 3, 6, 9] and Shard(2, 3).select(mutants) == slices[1]
    assert str(Shard.parse("2/3")) == "2/3"
    for bad in ("0/3", "4/3", "x/3", "3"):
        with pytest.raises(ValueError, match="--shard"):
            Shard.parse(bad)


def _result(verdict):
    return MutantResult(Mutant("m", "t", "i", "f.py", "a", "b", ("c",)), verdict, "why")


@pytest.mark.parametrize(
    "verdicts, code",
    [
        ([Verdict.KILLED], EXIT_OK),
        ([Verdict.KILLED, Verdict.TIMEOUT], EXIT_TIMEOUT),
        ([Verdict.TIMEOUT, Verdict.UNREACHED], EXIT_SURVIVED),
        ([Verdict.SURVIVED, Verdict.STALE], EXIT_STALE_INVALID),
        ([Verdict.INVALID, Verdict.TIMEOUT], EXIT_STALE_INVALID),
    ],
)
def test_exit_code_precedence(verdicts, code):
    assert exit_code([_result(v) for v in verdicts]) == code
