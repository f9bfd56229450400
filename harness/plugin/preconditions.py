"""A contract's precondition: what it builds on is another contract's rule, and its failure is that one's.

A contract that refuses a broken stream first checks that the same stream
unbroken parses; when it does not, every case of the contract fails for one
cause that another contract judges and reports in full. Inside
``with precondition(...)`` such a failure is raised as
:class:`PreconditionFailed`: still an assertion (a known bug it catches stays
killed, a crash underneath stays a crash), reported on one line that names the
contracts whose failure is the cause.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from harness.clip import clip

SHOWN = 200  # characters of the underlying failure on the one line


class PreconditionFailed(AssertionError):
    """What a contract builds on does not hold: ``causes`` (contract modules) judge it and fail for it."""

    def __init__(self, causes: tuple[str, ...], what: str, failure: str) -> None:
        self.causes, self.what = causes, what
        names = " or ".join(f"{name}.py" for name in causes)
        first = failure.strip().splitlines()[0] if failure.strip() else "an assertion"
        super().__init__(f"not judged: {what} fails, the rule of {names}: start there ({clip(first, SHOWN)})")


@contextmanager
def precondition(what: str, *causes: str) -> Iterator[None]:
    """The block checks ``what``, the rule of the contract modules ``causes`` (``test_stream_text``, ...)."""
    if not causes:
        raise ValueError("a precondition names the contracts that judge it")
    try:
        yield
    except PreconditionFailed:
        raise
    except AssertionError as exc:
        # The cause the failure had (the adapter's own exception) stays its cause: a crash is still a crash.
        raise PreconditionFailed(causes, what, str(exc)) from exc.__cause__
