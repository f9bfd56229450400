"""One exit code per outcome, the same in every subcommand (``README.md`` has the table).

When several outcomes apply to one run, the first in :data:`PRECEDENCE` wins.
"""

from __future__ import annotations

import signal

OK = 0
CONTRACTS_FAILED = 1  # check, nightly, probe: a contract or probe check failed, or could not run
USAGE = 2  # bad arguments, adapter spec, policy, catalogue or configuration
SURVIVED = 3  # a known bug survived or was never reached
TIMEOUT = 4  # a mutant ran past its budget, or the baseline past its own
STALE_INVALID = 5  # a patch no longer applies, or a mutant went red for the wrong reason
BASELINE = 6  # the unpatched code fails its contracts
MUTMUT = 7  # nightly: mutmut could not make its mutants
BELOW_THRESHOLD = 8  # nightly, report merge: the mutation score is under the break threshold
NOTHING_TESTED = 9  # no contract applied to the adapter, or no mutant was selected, or (probe) no request to check
INTERNAL = 70  # a bug in the harness itself (a traceback is printed)
INTERRUPTED = 130  # SIGINT (Ctrl-C): the run was cut short
TERMINATED = 143  # SIGTERM (a CI job cancelled or timed out): the run was cut short

MEANINGS: dict[int, str] = {
    OK: "everything ran and held",
    CONTRACTS_FAILED: "a contract failed, or could not run against the adapter (check, nightly); a probe check "
    "failed (probe)",
    USAGE: "usage error: arguments, adapter spec, policy, catalogue or configuration",
    SURVIVED: "a known bug survived or was never reached",
    TIMEOUT: "a mutant, or the baseline, ran past its budget",
    STALE_INVALID: "a known bug's patch is stale, or it went red for the wrong reason",
    BASELINE: "baseline red: the unpatched code fails its contracts",
    MUTMUT: "mutmut could not make its mutants (nightly)",
    BELOW_THRESHOLD: "the mutation score is under the break threshold (nightly, report merge)",
    NOTHING_TESTED: "nothing was tested: no contract applied, or no mutant was selected; the agent's requests gave "
    "no probe check anything to look at (probe)",
    INTERNAL: "internal error in the harness",
    INTERRUPTED: "interrupted (SIGINT)",
    TERMINATED: "terminated (SIGTERM)",
}

PRECEDENCE = (USAGE, BASELINE, MUTMUT, STALE_INVALID, CONTRACTS_FAILED, SURVIVED, TIMEOUT, BELOW_THRESHOLD,
              NOTHING_TESTED)


def interrupted_by(signum: int | None) -> int:
    """The code of a run a signal cut short: 128 plus the signal's number, as a shell reports it."""
    return TERMINATED if signum == signal.SIGTERM else INTERRUPTED


def first(codes) -> int:
    """The code that wins among ``codes``; OK when none is set."""
    present = set(codes)
    return next((code for code in PRECEDENCE if code in present), OK)
