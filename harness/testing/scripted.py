"""The harness's own model and tools for kernel contracts.

They are the backdoor that lets a contract check a kernel without trusting it:
the scripted model keeps every request the kernel sent, and the scripted tools
report to a probe that counts, under a lock, which runs were inside at once,
so evidence such as "the parallel-safe tools overlapped" comes from the
harness, never from the adapter's own report, and never from a clock.

Orderings are made by the script, not by time: a rendezvous holds the calls of
a batch until every one of them is inside, then lets them finish in the order
the script names. No verdict depends on how fast the machine is; the only
timer is a hang guard, and running out of it is reported as what it is.
"""

from __future__ import annotations

import copy
import json
import sys
import threading
from dataclasses import dataclass, field

from hypothesis import strategies as st

from harness.clip import clip_json
from harness.formats import spec_for

# Only a guard against a kernel that never starts the rest of a batch (a serial
# one): a concurrent kernel on any machine starts a few threads far sooner. It
# stays well under the harness's per-call limit (10 s), so a held serial kernel
# still returns and is judged on the evidence.
HANG_GUARD_SECONDS = 4.0
_POOL_WORKER = "concurrent/futures/thread.py"


def _reason_key(format: str) -> str:
    """Where a scripted round of ``format`` says why it stopped: a chat response's key, or a neutral turn's."""
    return "finish_reason" if "finish_reason" in spec_for(format).blank_turn else "stop_reason"


def ended(turn: dict, format: str, variant: int) -> dict:
    """``turn`` (a tool round) ended the ``variant``-th way an endpoint ends one (pinned runs).

    Its reason is the ``variant``-th of the row's ``tool_round_ends`` (cycling), and it
    carries the row's usage on odd variants, none on even ones.
    """
    spec = spec_for(format)
    ends = spec.tool_round_ends
    return {**turn, _reason_key(format): ends[variant % len(ends)],
            "usage": copy.deepcopy(spec.usage) if variant % 2 else None}


def endings(turn: dict, format: str) -> st.SearchStrategy[dict]:
    """``turn`` (a tool round) ended each way real endpoints end one, drawn: every reason, usage or none."""
    count = 2 * len(spec_for(format).tool_round_ends)
    return st.integers(0, count - 1).map(lambda variant: ended(turn, format, variant))


class ScriptExhausted(AssertionError):
    """The kernel asked the model for more rounds than the script has."""


@dataclass
class ScriptedModel:
    """Answers each request with the next scripted neutral response.

    ``requests`` holds each request as it was when it arrived (what the kernel
    sent); ``sent`` holds the very objects the kernel passed, so
    :meth:`changed_requests` can tell whether the kernel changed a request
    after sending it.
    """

    rounds: list[dict]
    requests: list[dict] = field(default_factory=list)
    sent: list[dict] = field(default_factory=list)
    format: str = "chat"  # the wire format of the rounds: chat responses, or neutral turns (harness.adapter)

    def __call__(self, request: dict) -> dict:
        self.sent.append(request)
        self.requests.append(copy.deepcopy(request))
        n = len(self.requests)
        if n > len(self.rounds):
            raise ScriptExhausted(
                f"kernel sent request #{n} but the script has {len(self.rounds)} rounds; "
                f"last request messages: {clip_json(request.get('messages'), 500)}"
            )
        response = copy.deepcopy(spec_for(self.format).blank_turn)
        response.update(copy.deepcopy(self.rounds[n - 1]))
        return response

    def shortfall(self) -> str:
        """Why the kernel did not play every round, one request each (``""`` when it did), naming how each round ended."""
        if len(self.requests) == len(self.rounds):
            return ""
        key = _reason_key(self.format)
        blank = spec_for(self.format).blank_turn.get(key)
        ends = [f"{r.get(key, blank)!r}" + (" with a usage" if r.get("usage") else "") for r in self.rounds]
        return (f"the kernel sent {len(self.requests)} requests for a script of {len(self.rounds)} rounds ending with "
                f"{key} {', '.join(ends)}: a round with calls is a tool round whatever its {key} says, and the "
                "turn goes on until a round without calls")

    def changed_requests(self) -> list[str]:
        """Every change made to a request after it was sent, as ``request #n: <where>: <what>``."""
        return [f"request #{n}: {change}" for n, (arrived, now) in enumerate(zip(self.requests, self.sent), 1)
                for change in _changes(arrived, now, "body")]


def _changes(before, after, where: str) -> list[str]:
    """What became of ``before`` (a request as it arrived) in ``after`` (the same object now), path by path."""
    if type(before) is not type(after):
        return [f"{where} was {_shown(before)}, now {_shown(after)}"]
    if isinstance(before, dict):
        changes = []
        for key in sorted(set(before) | set(after), key=str):
            if key not in before:
                changes.append(f"{where}[{key!r}] was added: {_shown(after[key])}")
            elif key not in after:
                changes.append(f"{where}[{key!r}] was removed (it was {_shown(before[key])})")
            else:
                changes += _changes(before[key], after[key], f"{where}[{key!r}]")
        return changes
    if isinstance(before, list):
        changes = [c for n, (b, a) in enumerate(zip(before, after)) for c in _changes(b, a, f"{where}[{n}]")]
        changes += [f"{where}[{n}] was appended: {_shown(item)}" for n, item in enumerate(after[len(before):], len(before))]
        if len(after) < len(before):
            changes.append(f"{where} lost its entries from [{len(after)}] on: {_shown(before[len(after):])}")
        return changes
    return [] if before == after else [f"{where} was {_shown(before)}, now {_shown(after)}"]


def _shown(value) -> str:
    return clip_json(value)


class HangGuardExpired(RuntimeError):
    """A rendezvous waited its whole hang guard: evidence of a stalled run, not a verdict on the kernel."""


@dataclass(frozen=True)
class Rendezvous:
    """How the calls of one round meet: who must be inside, who must have finished.

    Calls are named by their arguments text. Each of ``calls`` waits until all
    of them are inside at once, then until the calls listed before it in
    ``finish_order`` have finished. ``pooled_only``: wait only when the kernel
    called from a thread pool worker; a round the kernel should run one call at
    a time (a mixed round) must never hold a serial kernel, which calls from
    its own thread (or, over a bridge, from the harness's).
    """

    calls: tuple[str, ...]
    finish_order: tuple[str, ...] = ()
    pooled_only: bool = False

    def before(self, arguments: str) -> tuple[str, ...]:
        order = self.finish_order
        return order[: order.index(arguments)] if arguments in order else ()


class OverlapProbe:
    """Counts tool executions in flight under a lock and holds them at their rendezvous.

    ``max_in_flight`` and ``overlaps`` are exact: they count runs that were
    inside at the same moment, read under one lock, never timings. ``threads``
    names the threads each call ran on. ``stalled`` lists the rendezvous whose
    hang guard ran out; a contract reports that as an error, not a verdict.
    """

    def __init__(self, *rendezvous: Rendezvous) -> None:
        self._cond = threading.Condition()
        self._meeting = {call: r for r in rendezvous for call in r.calls}
        self._entered: set[str] = set()
        self._finished: set[str] = set()
        self.inside: list[str] = []
        self._inside_calls: set[str] = set()
        self.met: set[Rendezvous] = set()  # the rendezvous whose calls were all inside at one moment
        self.max_in_flight = 0
        self.overlaps: list[tuple[str, tuple[str, ...]]] = []  # (a run, the runs inside when it entered)
        self.threads: dict[str, int] = {}
        self.stalled: list[str] = []

    def enter(self, name: str, arguments: str) -> None:
        with self._cond:
            if self.inside:
                self.overlaps.append((f"{name}({arguments})", tuple(self.inside)))
            self.inside.append(f"{name}({arguments})")
            self.max_in_flight = max(self.max_in_flight, len(self.inside))
            self.threads[arguments] = threading.get_ident()
            self._entered.add(arguments)
            self._inside_calls.add(arguments)
            self.met.update(r for r in set(self._meeting.values()) if self._inside_calls >= set(r.calls))
            self._cond.notify_all()
            meeting = self._meeting.get(arguments)
            if meeting is None or (meeting.pooled_only and not _from_pool_worker()):
                return
            self._wait(lambda: self._entered >= set(meeting.calls), f"all of {list(meeting.calls)} inside")
            earlier = set(meeting.before(arguments))
            self._wait(lambda: self._finished >= earlier, f"{sorted(earlier)} finished before {arguments}")

    def leave(self, name: str, arguments: str) -> None:
        with self._cond:
            self.inside.remove(f"{name}({arguments})")
            self._inside_calls.discard(arguments)
            self._finished.add(arguments)
            self._cond.notify_all()

    def _wait(self, ready, what: str) -> None:
        if self.stalled:  # once a guard ran out, nobody waits again: the run is already known to be stalled
            return
        if not self._cond.wait_for(ready, timeout=HANG_GUARD_SECONDS):
            self.stalled.append(what)
            self._cond.notify_all()

    def never_all_inside(self, meeting: Rendezvous) -> str | None:
        """Why the calls of ``meeting`` were certainly never all inside at once; None when they were.

        Certain without a clock: calls that shared a thread ran one after the
        other, and a run in which no two calls were ever inside, though each
        waited out the hang guard for the others, is a serial one. Any other
        shortfall is a stalled run, raised as :class:`HangGuardExpired`.
        """
        if meeting in self.met:
            return None
        threads = {self.threads[c] for c in meeting.calls if c in self.threads}
        if self.max_in_flight <= 1 or len(threads) < len(meeting.calls):
            return (f"at most {self.max_in_flight} of the {len(meeting.calls)} calls {list(meeting.calls)} were inside "
                    f"at once, on {len(threads)} thread(s)")
        self.raise_if_stalled()
        return f"the calls {list(meeting.calls)} were never all inside at once"

    def raise_if_stalled(self) -> None:
        """Report a hang guard that ran out, with what the probe saw, as an error of the run."""
        if self.stalled:
            raise HangGuardExpired(
                f"waited {HANG_GUARD_SECONDS:g} s (a hang guard) for {self.stalled[0]}; saw at most "
                f"{self.max_in_flight} runs inside at once, on {len(set(self.threads.values()))} thread(s)"
            )


def _from_pool_worker() -> bool:
    """Whether this call came from a ``concurrent.futures`` pool worker (``asyncio.to_thread`` included)."""
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_filename.replace("\\", "/").endswith(_POOL_WORKER):
            return True
        frame = frame.f_back
    return False


@dataclass
class ToolRun:
    arguments: str
    thread: int


@dataclass
class ScriptedTool:
    """A tool whose result is derived from its arguments and which logs each run."""

    name: str
    parallel_safe: bool = False
    probe: OverlapProbe | None = None
    runs: list[ToolRun] = field(default_factory=list)

    @property
    def schema(self) -> dict:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": f"scripted tool {self.name}",
                "parameters": {"type": "object", "properties": {}},
            },
        }

    def result_for(self, arguments: str) -> str:
        return f"{self.name} -> {arguments}"

    def __call__(self, arguments: str) -> str:
        if self.probe is not None:
            self.probe.enter(self.name, arguments)
        try:
            return self.result_for(arguments)
        finally:
            if self.probe is not None:
                self.probe.leave(self.name, arguments)
            self.runs.append(ToolRun(arguments, threading.get_ident()))


def tool_outputs(call: dict) -> set[str]:
    """What a :class:`ScriptedTool` returns for a neutral call block; one with no arguments may reach it as "" or "{}"."""
    arguments = {call["arguments"], "{}"} if call["arguments"] == "" else {call["arguments"]}
    return {ScriptedTool(call["name"]).result_for(a) for a in arguments}


def cut_calls(calls: list[dict]) -> list[dict]:
    """The neutral calls whose arguments were cut off: a text that is no JSON ("" is a call without arguments)."""
    found = []
    for call in calls:
        try:
            json.loads(call["arguments"] or "{}")
        except ValueError:
            found.append(call)
    return found
