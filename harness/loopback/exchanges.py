"""What the loopback provider keeps of every request: the bytes sent, the answer, and each rule broken.

Contracts and the probe read what a client SENT from here, never from the
client's own report. Every violation carries its rule level
(:mod:`harness.rules.levels`), the number of the request (1-based, in arrival
order) and the index of the offending message (``None`` when the rule is
about the whole request), so a report can point at the exact place.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from harness.clip import clip


@dataclass(frozen=True)
class Violation:
    """One rule a request broke, and whether the provider refused it for that (``status`` >= 400)."""

    rule: str  # a short stable name: "unanswered-tool-calls", "reasoning-missing", ...
    level: str  # wire, robust, provider or policy
    request: int  # the request's number, 1-based
    message_index: int | None  # the offending message in the request's messages, if one
    detail: str  # what is wrong, for people
    status: int = 200  # what the provider answered: 200 when it accepts the request anyway
    profile: str = ""
    error: dict | None = field(default=None, compare=False, repr=False)  # the error body, when refused

    @property
    def refused(self) -> bool:
        return self.status >= 400

    def describe(self) -> str:
        where = f"request #{self.request}" + (f", message #{self.message_index}" if self.message_index is not None
                                              else "")
        answer = f"HTTP {self.status}" if self.refused else "accepted anyway"
        return f"[{self.level}] {self.rule} ({where}; {self.profile} {answer}): {self.detail}"

    def to_json(self) -> dict:
        return {"rule": self.rule, "level": self.level, "request": self.request,
                "message_index": self.message_index, "detail": self.detail, "status": self.status,
                "profile": self.profile}


@dataclass
class Exchange:
    """One request the provider received and what it answered."""

    number: int
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    status: int = 0
    response: bytes = b""  # the body as the client received it, every piece joined
    pieces: int = 0  # how many writes delivered it
    violations: list[Violation] = field(default_factory=list)
    source: str = ""  # which cassette interaction or scenario round answered
    streamed: Any = None  # for a scenario: what the round streamed (scenarios.Streamed)
    note: str = ""  # what else happened: the client hung up mid-stream
    forgotten: int = 0  # bytes of request and answer no longer kept (Record's cap); 0 while they are

    def forget(self) -> None:
        """Drop the request's and the answer's bytes, keeping the rest (its violations first of all)."""
        self.forgotten += len(self.body) + len(self.response)
        self.body, self.response = b"", b""
        self.__dict__.pop("json", None)  # the parsed body, cached

    @cached_property
    def json(self) -> dict | None:
        """The request body as JSON, or None when it is not a JSON object (parsed once: the body never changes)."""
        try:
            value = json.loads(self.body or b"")
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    @property
    def messages(self) -> list[dict]:
        body = self.json or {}
        messages = body.get("messages")
        return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []

    def excerpt(self, message_index: int | None = None, limit: int = 600) -> str:
        """The part of the request a violation is about: the entry at ``message_index``, else the body.

        The entries are the chat or Messages ``messages``, else the Responses
        ``input`` items or the Gemini ``contents``, whichever the body has.
        """
        key, entries = "messages", self.messages
        body = self.json or {}
        for other in ("input", "contents"):
            if not entries and isinstance(body.get(other), list):
                key, entries = other, body[other]
        if message_index is not None and message_index < len(entries):
            text = json.dumps(entries[message_index], ensure_ascii=False)
            text = f"{key}[{message_index}] = {text}"
        else:
            text = self.body.decode("utf-8", "replace")
        return clip(text, limit)

    def to_json(self) -> dict:
        request = self.json if self.json is not None else self.body.decode("utf-8", "replace")
        if self.forgotten:
            request = f"[not kept: {self.forgotten:,} bytes of request and answer, over the record's cap]"
        return {"number": self.number, "method": self.method, "path": self.path, "status": self.status,
                "request": request,
                "pieces": self.pieces, "source": self.source,
                "streamed": self.streamed.to_json() if self.streamed is not None else None,
                "violations": [v.to_json() for v in self.violations]}


class Record:
    """Every exchange, in arrival order; safe to read while the server runs.

    With ``kept_bytes`` the bytes of requests and answers kept are bounded:
    once an exchange is answered (:meth:`settle`), the oldest answered ones
    are forgotten until the rest fit, so a long-running server holds what is
    newest; every exchange's number, status and violations are kept.
    """

    def __init__(self, kept_bytes: int | None = None) -> None:
        self._lock = threading.Lock()
        self._exchanges: list[Exchange] = []
        self.kept_bytes = kept_bytes
        self._settled: deque[Exchange] = deque()  # answered and still holding their bytes, oldest first
        self._held = 0  # their bytes
        self.forgotten = 0  # how many exchanges lost their bytes to the cap

    def open(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Exchange:
        with self._lock:
            exchange = Exchange(len(self._exchanges) + 1, method, path, headers, body)
            self._exchanges.append(exchange)
            return exchange

    def settle(self, exchange: Exchange) -> None:
        """``exchange`` is answered: its bytes count against the cap, and the oldest go while over it."""
        if self.kept_bytes is None:
            return
        with self._lock:
            self._settled.append(exchange)
            self._held += len(exchange.body) + len(exchange.response)
            while self._held > self.kept_bytes:
                oldest = self._settled.popleft()
                self._held -= len(oldest.body) + len(oldest.response)
                oldest.forget()
                self.forgotten += 1

    @property
    def exchanges(self) -> list[Exchange]:
        with self._lock:
            return list(self._exchanges)

    def __len__(self) -> int:
        with self._lock:
            return len(self._exchanges)

    @property
    def violations(self) -> list[Violation]:
        return [v for e in self.exchanges for v in e.violations]

    def bodies(self) -> list[dict]:
        """The JSON body of every request, in order; a body that is not JSON fails with its number."""
        bodies = []
        for exchange in self.exchanges:
            if exchange.json is None:
                raise AssertionError(
                    f"request #{exchange.number} to {exchange.path} has a body that is not a JSON object: "
                    f"{exchange.body!r:.300}"
                )
            bodies.append(exchange.json)
        return bodies

    def clear(self) -> None:
        with self._lock:
            self._exchanges.clear()
            self._settled.clear()
            self._held = 0
