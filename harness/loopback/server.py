"""The loopback provider: a real HTTP server on 127.0.0.1 that answers as a provider would.

It runs aiohttp's server on an event loop of its own, in a background thread,
so a test, a CLI or a benchmark uses it the same way::

    with LoopbackProvider(scenario="parallel-12", profile="openai") as provider:
        run_my_agent(provider.base_url)          # http://127.0.0.1:PORT/v1
        provider.record.violations               # every rule broken, with level and place

Each ``POST .../chat/completions`` is recorded (:mod:`~harness.loopback.exchanges`),
checked against the provider profile (:mod:`~harness.loopback.provider_profiles`),
refused with the provider's own status and error body when the profile says
so, and otherwise answered from the source: a vcrpy cassette or a scripted
scenario. A streamed answer goes out in the pieces the delivery setting cuts
(:mod:`~harness.loopback.delivery`), in a content coding the request offers
when one is preferred (:mod:`harness.loopback.content_coding`); a request without ``"stream": true`` gets
the same round as one ``chat.completion`` object.

Beside it, every other format's route (:mod:`harness.loopback.wires`: Anthropic
Messages' ``POST /v1/messages``, OpenAI Responses' ``POST /v1/responses``,
Gemini's ``POST /v1beta/models/{model}:streamGenerateContent`` or
``:generateContent``), each judged by its format's strict profile
(:mod:`harness.loopback.strict_route`) and cut by the same delivery.

It listens on a loopback address only, unless ``allow_remote=True`` is given
together with another host. A client gets ``client_timeout`` seconds to send
a request's headers and again its body (and to start its next request on a
kept-alive connection); a slower one is answered 408, or its connection
closed, so no client holds the server. ``kept_bytes`` bounds what the record
keeps of requests and answers (:class:`~harness.loopback.exchanges.Record`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from harness.adapter import DEFAULT_FORMAT
from harness.formats import spec_for
from harness.loopback import answers
from harness.loopback.completion import fold
from harness.loopback.content_coding import IDENTITY, choose, encode
from harness.loopback.delivery import CLIENT_TIMEOUT, WHOLE, Delivery
from harness.loopback.exchanges import Exchange, Record
from harness.loopback.provider_profiles import DeepSeekProfile, Profile, make_profile
from harness.loopback.scenarios import Scenario
from harness.loopback.sources import CassetteSource, ScenarioSource, Source
from harness.loopback.strict_route import FormatRoute
from harness.loopback.wires import WIRES
from harness.rules.reasoning import DEFAULT_ERA
from harness.wire.framing import SSE, BodyFraming

DEFAULT_HOST = "127.0.0.1"
MAX_BODY = 64 * 1024 * 1024
START_TIMEOUT = 10.0


class NotLoopback(ValueError):
    """A non-loopback address was asked for without ``allow_remote``."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class LoopbackProvider:
    """A provider on a loopback port; a context manager (or :meth:`start` / :meth:`stop`)."""

    def __init__(
        self,
        *,
        cassette: str | Path | None = None,
        scenario: str | Scenario | None = None,
        source: Source | None = None,
        profile: str | Profile = "gateway",
        era: str = DEFAULT_ERA,
        delivery: Delivery = WHOLE,
        coding: str = IDENTITY,
        allowed_tools: frozenset[str] | set[str] | None = None,
        host: str = DEFAULT_HOST,
        port: int = 0,
        allow_remote: bool = False,
        listener: Callable[[Exchange], None] | None = None,
        routes: tuple[FormatRoute, ...] = (),
        client_timeout: float = CLIENT_TIMEOUT,
        kept_bytes: int | None = None,
    ) -> None:
        if sum(x is not None for x in (cassette, scenario, source)) > 1:
            raise ValueError("give one of cassette, scenario or source")
        if not is_loopback(host) and not allow_remote:
            raise NotLoopback(
                f"host {host!r} is not a loopback address; the loopback provider listens on one unless asked "
                "explicitly (allow_remote=True, or --host on the command line)"
            )
        if cassette is not None:
            source = CassetteSource(cassette)
        elif source is None:
            source = ScenarioSource(scenario or "parallel-12",
                                    frozenset(allowed_tools) if allowed_tools is not None else None)
        self.source = source
        self.profile = make_profile(profile, era) if isinstance(profile, str) else profile
        self.delivery = delivery
        given = {route.wire.name: route for route in routes}  # the other formats' routes, by default fresh ones
        self.routes = tuple(given.get(name) or FormatRoute(row.format) for name, row in WIRES.items())
        self.coding = coding  # the content coding streams prefer, used when the request offers it
        self.host = host
        self.port = port
        self.client_timeout = client_timeout
        self.record = Record(kept_bytes)
        self.listener = listener  # called with each exchange once it is answered (on the server's thread)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self.sockets: list[tuple] = []

    # -- life cycle ---------------------------------------------------------------------------------------

    def __enter__(self) -> LoopbackProvider:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def start(self) -> LoopbackProvider:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._serve())
            except BaseException as exc:  # handed to start()
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._runner.cleanup())
                loop.close()

        self._thread = threading.Thread(target=run, name="loopback provider", daemon=True)
        self._thread.start()
        if not ready.wait(START_TIMEOUT):
            raise RuntimeError(f"the loopback provider did not start within {START_TIMEOUT:g} s")
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if loop.is_running():
            loop.call_soon_threadsafe(loop.stop)
        thread.join(START_TIMEOUT)
        self._loop = self._thread = None

    async def _serve(self) -> None:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        # aiohttp's keep-alive timer also runs from the connection's start: a client that never ends its
        # headers is closed when it fires.
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0,
                                     keepalive_timeout=self.client_timeout)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
        await site.start()
        self.sockets = [s.getsockname() for s in site._server.sockets]  # type: ignore[union-attr]
        if self.port == 0:
            self.port = self.sockets[0][1]

    # -- addresses ----------------------------------------------------------------------------------------

    @property
    def origin(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What a client is configured with: the origin and the source's base path (``/v1`` for scenarios)."""
        return self.origin + self.source.base_path

    def route(self, name: str) -> FormatRoute:
        """The route serving format ``name`` (a key of :data:`~harness.loopback.wires.WIRES`)."""
        return next(route for route in self.routes if route.wire.name == name)

    def route_url(self, name: str) -> str:
        """What a client of format ``name`` is configured with: the chat base URL, or the origin and its row's path."""
        return self.base_url if name == DEFAULT_FORMAT else self.origin + WIRES[name].base_path

    def describe(self) -> str:
        coded = f", {self.coding} when offered" if self.coding != IDENTITY else ""
        return (f"{self.source.name}, profile {self.profile.describe()}, delivery {self.delivery.describe()}{coded}, "
                f"at {self.base_url}")

    # -- one request --------------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        try:
            raw, late = await asyncio.wait_for(request.read(), self.client_timeout), False
        except TimeoutError:
            raw, late = b"", True
        exchange = self.record.open(request.method, request.path, dict(request.headers), raw)
        try:
            return self._late(exchange) if late else await self._answer(request, exchange)
        finally:
            if self.listener is not None:
                self.listener(exchange)
            self.record.settle(exchange)

    def _late(self, exchange: Exchange) -> web.Response:
        exchange.note = f"the client did not send its body within {self.client_timeout:g} s"
        response = self._json(exchange, 408, answers.error_body(exchange.note))
        response.force_close()  # the rest of the body is not waited for
        return response

    async def _answer(self, request: web.Request, exchange: Exchange) -> web.StreamResponse:
        route = next((r for r in self.routes if r.accepts(request.method, request.path)), None)
        if route is not None:
            return await self._send(request, exchange, route, route.reply(exchange, dict(request.query)))
        if not self.source.accepts(request.method, request.path):
            exchange.status = 404
            text = answers.INVALID_URL.format(method=request.method, path=request.path)
            return self._json(exchange, 404, answers.error_body(text))
        body = exchange.json
        exchange.violations = self.profile.check(body, exchange.number)
        refusal = self.profile.answer(exchange.violations)
        if refusal is not None:
            return self._json(exchange, refusal.status, refusal.body)
        thinking = isinstance(self.profile, DeepSeekProfile) and body is not None and self.profile.thinking(body)
        reply = self.source.reply(request.method, request.path, body, thinking)
        exchange.source = reply.label
        exchange.streamed = reply.streamed
        if not reply.is_stream:
            return self._raw(exchange, reply.status, reply.content_type, reply.body)
        stream = self.profile.served(reply.body)
        if not (body or {}).get("stream"):
            status, completion = fold(stream)
            return self._json(exchange, status, completion)
        return await self._stream(request, exchange, stream)

    async def _send(self, request: web.Request, exchange: Exchange, route: FormatRoute, reply) -> web.StreamResponse:
        if reply.stream is None:
            response = self._json(exchange, reply.status, reply.payload)
            response.headers.update(reply.headers)
            return response
        return await self._stream(request, exchange, reply.stream, spec_for(route.wire.name).framing)

    def _json(self, exchange, status: int, payload: dict | list) -> web.Response:
        return self._raw(exchange, status, "application/json", json.dumps(payload, ensure_ascii=False).encode())

    def _raw(self, exchange, status: int, content_type: str, body: bytes) -> web.Response:
        exchange.status, exchange.response, exchange.pieces = status, body, 1
        response = web.Response(status=status, body=body)
        response.headers["Content-Type"] = content_type
        return response

    async def _stream(self, request: web.Request, exchange, body: bytes, framing: BodyFraming = SSE
                      ) -> web.StreamResponse:
        pieces = self.delivery.pieces(body, framing)
        exchange.status, exchange.response, exchange.pieces = 200, b"".join(pieces), len(pieces)
        coding = choose(self.coding, request.headers.get("Accept-Encoding"))
        charset = "; charset=utf-8" if framing.text else ""
        headers = {"Content-Type": framing.media_type + charset, "Cache-Control": "no-cache"}
        if coding != IDENTITY:
            headers["Content-Encoding"] = coding
        response = web.StreamResponse(status=200, headers=headers)
        await response.prepare(request)
        transport = request.transport
        sock = transport.get_extra_info("socket") if transport is not None else None
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # each piece leaves when written
        try:
            for n, piece in enumerate(encode(pieces, coding)):
                if n and self.delivery.delay:
                    await asyncio.sleep(self.delivery.delay)
                await response.write(piece)
            await response.write_eof()
        except ConnectionError:  # aiohttp raises its ClientConnectionResetError, a ConnectionResetError
            exchange.note = "the client closed the connection before the stream ended"
        return response
