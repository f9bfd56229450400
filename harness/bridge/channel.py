"""One request to the adapter and everything until its reply, including the adapter's own requests.

While the adapter handles a request it may ask the harness for things (a model
round, a tool execution). Each such request is answered on a thread of its
own, so several can be in flight at once and really run concurrently.

The timeout counts the adapter's silence: it restarts with every line the
adapter writes and pauses while the harness is answering one of its requests.
A timeout of 0 lifts it (the handshake's too): a caller with its own budget,
such as a known-bug run, judges a hang itself, so a slow machine never turns
a slow reply into a bridge error.
Any :class:`BridgeError` stops the process; the next request starts a new one.
"""

from __future__ import annotations

import base64
import itertools
import json
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from harness.adapter import DEFAULT_TIMEOUT
from harness.bridge import protocol
from harness.bridge.errors import BridgeError, RemoteError, RemoteInputError
from harness.bridge.process import MAX_LINE, AdapterProcess, Answered, Closed, Line, Oversized
from harness.clip import clip

STARTUP_TIMEOUT = 60.0  # the handshake may take longer: a cold start of a runtime or a compiler
_SHOWN = 200  # characters of params or a reply line quoted in an error

Callback = Callable[[dict[str, Any]], Any]


class Refused(Exception):
    """Raised by a callback for a request the harness cannot serve; the adapter gets ``invalid_request``."""


class Channel:
    """The harness's end of the bridge: starts the adapter, sends requests, restarts it after a fault."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command
        self.timeout = timeout
        self.hello: protocol.Hello | None = None
        self._process: AdapterProcess | None = None
        self._stopped_stderr = ""  # what a stopped process wrote and nobody took yet
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def start(self) -> protocol.Hello:
        """Start the adapter (if it is not running) and return its handshake."""
        with self._lock:
            self._running()
            assert self.hello is not None
            return self.hello

    def call(self, method: str, params: dict[str, Any], callbacks: Mapping[str, Callback] | None = None) -> Any:
        """Send one request and return its result; the adapter may call ``callbacks`` meanwhile."""
        with self._lock:
            return self._exchange(self._running(), method, params, callbacks or {}, self.timeout)

    def take_stderr(self) -> str:
        """Adapter stderr written since the last take, including that of a process stopped since."""
        text, self._stopped_stderr = self._stopped_stderr, ""
        return text + (self._process.take_stderr() if self._process is not None else "")

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                self._process.stop()
                self._process = None

    def _running(self) -> AdapterProcess:
        if self._process is not None and self._process.exit_code() is None:
            return self._process
        if self._process is not None:
            self._process.kill()  # reap the one that exited between two requests
        try:
            self._process = AdapterProcess(self.command)
        except (OSError, ValueError) as exc:
            raise BridgeError(f"starting {self.command!r}", f"cannot start it: {exc}", None) from None
        params = {"protocol": protocol.PROTOCOL_VERSION}
        try:
            startup = self.timeout and max(self.timeout, STARTUP_TIMEOUT)
            result = self._exchange(self._process, protocol.HANDSHAKE, params, {}, startup)
            self.hello = protocol.hello(result)
        except (RemoteError, protocol.MalformedLine) as exc:
            self._stop_after_fault()
            raise BridgeError(f"the {protocol.HANDSHAKE} with {self.command!r}", str(exc), None) from None
        return self._process

    def _exchange(
        self,
        process: AdapterProcess,
        method: str,
        params: dict[str, Any],
        callbacks: Mapping[str, Callback],
        timeout: float,
    ) -> Any:
        request = protocol.Request(next(self._ids), method, params)
        try:
            return _Exchange(process, request, callbacks, timeout).run()
        except BridgeError:
            self._stop_after_fault()
            raise

    def _stop_after_fault(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._stopped_stderr += self._process.take_stderr()
            self._process = None


class _Exchange:
    """The life of one harness request: send it, serve the adapter's requests, take the reply."""

    def __init__(
        self, process: AdapterProcess, request: protocol.Request, callbacks: Mapping[str, Callback], timeout: float
    ) -> None:
        self.process = process
        self.request = request
        self.callbacks = callbacks
        self.timeout = timeout
        self.pending = 0  # adapter requests the harness is still answering
        self.harness_failure: BaseException | None = None  # raised by a callback: the contract's own verdict

    @property
    def name(self) -> str:
        """The request as an error message names it (built only then: the params may be large)."""
        return f"request #{self.request.id} {self.request.method}({_preview(self.request.params)})"

    def run(self) -> Any:
        self.process.send(protocol.request_line(self.request.id, self.request.method, self.request.params))
        while True:
            event = self._next_event()
            if isinstance(event, Answered):
                self.pending -= 1
                continue
            if isinstance(event, Closed):
                raise self._crashed()
            if isinstance(event, Oversized):
                raise BridgeError(self.name, f"a reply line of {event.size} bytes, over the limit of {MAX_LINE} "
                                  "bytes; it was dropped unread", None, self.process.stderr_text())
            message = self._decode(event)
            if isinstance(message, protocol.Request):
                self._serve(message, event)
                continue
            if message.id != self.request.id:
                raise self._fault(f"a reply to id {message.id!r}, but the open request is #{self.request.id}", event)
            if self.pending:
                raise self._fault(f"the reply came while the harness was still answering {self.pending} of "
                                  "the adapter's own requests", event)
            return self._outcome(message)

    def _next_event(self):
        # While the harness answers, the adapter is allowed to wait for it; 0 is no limit at all.
        wait = None if self.pending or not self.timeout else self.timeout
        try:
            return self.process.events.get(timeout=wait)
        except queue.Empty:
            raise BridgeError(
                self.name,
                f"no reply within {self.timeout:g}s (--adapter-timeout); the adapter was stopped and "
                "restarts on the next request",
                None,
                self.process.stderr_text(),
            ) from None

    def _decode(self, event: Line) -> protocol.Request | protocol.Reply:
        try:
            return protocol.decode(event.data)
        except protocol.MalformedLine as exc:
            raise self._fault(f"malformed reply line: {exc}", event) from None

    def _serve(self, message: protocol.Request, event: Line) -> None:
        callback = self.callbacks.get(message.method)
        if callback is None:
            offered = ", ".join(sorted(self.callbacks)) or "none"
            raise self._fault(
                f"the adapter sent a {message.method!r} request, which this request does not serve "
                f"(served: {offered})",
                event,
            )
        self.pending += 1
        threading.Thread(target=self._answer, args=(message, callback), daemon=True).start()

    def _answer(self, message: protocol.Request, callback: Callback) -> None:
        try:
            line = protocol.result_line(message.id, callback(message.params))
        except Refused as exc:
            line = protocol.error_line(message.id, protocol.INVALID_REQUEST, str(exc))
        except BaseException as exc:  # an assertion of the harness's own (e.g. the script ran out)
            self.harness_failure = self.harness_failure or exc
            line = protocol.error_line(message.id, protocol.ABORTED, f"{type(exc).__name__}: {exc}")
        # Posted before the reply goes out, so it is queued ahead of anything the adapter sends after reading it.
        self.process.events.put(Answered())
        self.process.send(line)

    def _outcome(self, reply: protocol.Reply) -> Any:
        failure = self.harness_failure
        if failure is not None:
            raise failure  # the contract's own verdict beats whatever the adapter made of it
        if reply.error is None:
            return reply.result
        kind = RemoteInputError if reply.error["type"] == protocol.INVALID_INPUT else RemoteError
        raise kind(self.name, reply.error["type"], reply.error["message"])

    def _crashed(self) -> BridgeError:
        code = self.process.exit_code(wait=1.0)
        how = "closed its stdout" if code is None else f"exited with code {code}"
        return BridgeError(self.name, f"the adapter process {how} before replying", None,
                           self.process.stderr_text(settle=1.0))

    def _fault(self, problem: str, event: Line) -> BridgeError:
        line = clip(event.data.decode("utf-8", "backslashreplace"), _SHOWN)
        return BridgeError(self.name, problem, line, self.process.stderr_text())


def _preview(params: dict[str, Any]) -> str:
    """The params as a reader wants them in a message: raw bytes decoded, long values cut."""
    shown = []
    for key, value in params.items():
        if key.endswith(protocol.BYTES_SUFFIX) and isinstance(value, str):
            raw = base64.b64decode(value, validate=False)
            shown.append(f"{key.removesuffix(protocol.BYTES_SUFFIX)}={clip(repr(raw), _SHOWN)}")
        else:
            shown.append(f"{key}={clip(json.dumps(value, ensure_ascii=False), _SHOWN)}")
    return ", ".join(shown)

