"""The adapter as contracts see it: every capability method call goes through here.

- A method that raises ``NotImplementedError`` is an adapter saying it does not
  offer that method: the contract that called it is not applicable.
- Every call runs in another thread (:mod:`harness.under_test.call_threads`,
  reused from call to call), so nothing the adapter does in it stops the run;
  each of these is an :class:`AdapterFault`, an error of the
  contract naming the method and the input:

  - not returning within the time limit (``--adapter-timeout``): the thread is
    abandoned, never waited for, and stopped as soon as it runs Python code
    again (a spinning loop is, at once), and later calls in the same contract
    fail at once instead of hanging again;
  - raising a ``BaseException`` that is not an ``Exception``
    (``KeyboardInterrupt``, ``SystemExit``, ``GeneratorExit``, its own
    subclass): in the caller's thread it would stop the run as a Ctrl-C
    does; only a real signal, which Python delivers to the main thread, does;
  - calling ``os._exit`` (from any thread but the main one, where the harness
    itself runs): it raises in the adapter instead, and the call in flight is
    a fault even when the adapter catches that;
  - returning a value nested too deep or too large to judge (:mod:`harness.under_test.bounds`).

- What comes back is checked against the method's neutral shape
  (:mod:`harness.under_test.shapes`) before any contract judges it.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
from typing import Any

import pytest

from harness.adapter import CAPABILITIES, format_of, protocol_methods
from harness.bridge import BridgeError
from harness.clip import clip, shown_call
from harness.under_test import bounds, call_threads
from harness.under_test.shapes import check_shape

NOT_APPLICABLE = "not applicable"
MESSAGE_LIMIT = 600  # characters of an adapter's exception message that reach a contract
_METHODS = {method: cap for cap, proto in CAPABILITIES.items() for method in protocol_methods(proto)}


class NotApplicable(pytest.skip.Exception):
    """A contract needs a capability, or a method, the adapter does not offer."""


class AdapterFault(Exception):
    """The adapter misbehaved in a way no rule judges: the contract could not run against it (status error)."""


class AdapterTimeout(AdapterFault):
    """An adapter method did not return within the time limit."""


class _ProcessExit(BaseException):
    """Raised in an adapter call in place of ``os._exit``: a BaseException, so ``except Exception`` lets it by."""


_real_exit = os._exit
_in_flight: list[dict[str, Any]] = []  # the outcomes of the guarded calls running now
_abandoned: list[threading.Thread] = []


def _exit(status: int) -> None:
    # Off the main thread it is the adapter: a call's thread, an abandoned one, or one the adapter started.
    # The harness's own exits (a forked worker's end) are on the main thread.
    if threading.current_thread() is threading.main_thread():
        _real_exit(status)
    for outcome in list(_in_flight):
        outcome.setdefault("exit", status)
    raise _ProcessExit(f"os._exit({status}) called by an adapter method")


def _stop_abandoned() -> None:
    """Raise :class:`~harness.under_test.call_threads.Stopped` again in every abandoned call still running.

    It may have caught the last one.
    """
    _abandoned[:] = [thread for thread in _abandoned if thread.is_alive()]
    for thread in _abandoned:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                   ctypes.py_object(call_threads.Stopped))


class GuardedAdapter:
    """Forwards to the adapter, applying the rules of the module docstring to capability methods.

    ``timeout`` None leaves time limits to the adapter's own channel (a bridge
    process has one per request) or lifts them (``--adapter-timeout 0``).
    """

    def __init__(self, adapter: Any, name: str, timeout: float | None) -> None:
        self._adapter = adapter
        self._name = name
        self._timeout = timeout
        self._hung: str | None = None  # the call that timed out in the current contract
        os._exit = _exit  # idempotent; only a guarded call's thread sees the difference

    def __repr__(self) -> str:
        return f"<adapter {self._name}>"

    def new_contract(self) -> None:
        """Forget a hang of the previous contract: each contract gets its own chance."""
        self._hung = None

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._adapter, attr)
        if attr not in _METHODS or not callable(value):
            return value

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = self._call(attr, value, args, kwargs)
            except NotImplementedError as exc:
                raise NotApplicable(
                    f"{NOT_APPLICABLE}: adapter {self._name} raises NotImplementedError from {attr} "
                    f"({_METHODS[attr]!r} capability){f': {clip(str(exc))}' if str(exc) else ''}"
                ) from None
            too_big = bounds.problem(result)
            if too_big is not None:
                raise AdapterFault(f"adapter {self._name}: {attr}({shown_call(args, kwargs, 200)}) returned {too_big}")
            check_shape(attr, result, format_of(self._adapter))
            return result

        return call

    def _call(self, method: str, function, args: tuple, kwargs: dict) -> Any:
        _stop_abandoned()
        call = f"adapter {self._name}: {method}({shown_call(args, kwargs, 200)})"
        if self._hung is not None:
            message = f"{call} not called: {self._hung} already hung in this contract"
        else:
            job = call_threads.Call(function, args, kwargs, name=f"adapter {method}")
            _in_flight.append(job.outcome)
            try:
                hung = call_threads.run(job, self._timeout)
            finally:
                _in_flight.remove(job.outcome)
            if hung is None:
                return _returned(call, job.outcome)
            _abandoned.append(hung)
            _stop_abandoned()
            self._hung = f"{method}({shown_call(args, kwargs, 200)})"
            message = f"{call} did not return within {self._timeout:g} s (--adapter-timeout); the call was abandoned"
        raise AdapterTimeout(message)  # one raise site: Hypothesis sees one failure, not several


def cut_message(exc: BaseException) -> str:
    """The message of an exception the adapter raised, cut; the exception itself is cut to match.

    It goes on to a contract, and may end up a failure's cause (its frames say
    where the adapter raised it): pytest renders an exception's message whole,
    several times over, so one of hundreds of megabytes would cost that much again.
    """
    said = clip(str(exc), MESSAGE_LIMIT)
    if len(said) < len(str(exc)):
        exc.args = (said,)
    return said


def _returned(call: str, outcome: dict[str, Any]) -> Any:
    """The value of a call that ended, or the fault or exception it ended with."""
    if "exit" in outcome:
        raise AdapterFault(
            f"{call} called os._exit({outcome['exit']}), which would end the harness's process; "
            "an adapter method returns or raises"
        )
    error = outcome.get("error")
    if error is None:
        return outcome["value"]
    if isinstance(error, (Exception, BridgeError)):
        cut_message(error)
        raise error  # a finding for the contract to judge, or the bridge's own report
    raise AdapterFault(
        f"{call} raised {type(error).__name__}{f': {clip(str(error))}' if str(error) else ''}, a BaseException that is "
        "not an Exception, which would stop the run; an adapter method raises an Exception"
    ) from error
