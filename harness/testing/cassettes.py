"""The cassette player: recorded provider interactions replayed to an adapter, in process or over loopback.

The transport contracts answer an adapter's real HTTP client from a cassette
(vcrpy YAML in ``harness/cassettes``). What the client SENT is read from the
player itself, as the requests it was asked to answer, never from the
adapter's own report. The bundled cassettes are written from the providers'
documented wire formats (see ``cassettes/README.md``).

Two players, one interface (:func:`play` picks):

- in-process (:func:`replay`): vcrpy patches the Python HTTP clients, so the
  adapter is given the recorded base URL itself;
- over the bridge, or asked for (:func:`serve`): the loopback provider
  (:mod:`harness.loopback`) serves the cassette on 127.0.0.1 and the adapter is
  given its base URL, with the recorded provider's URL as
  ``options["provider_url"]`` (the provider the loopback server plays, for the
  adapter's profile choice). What was sent is read from the server's record.

Both players can answer streams in a content coding (``coding``: gzip,
deflate or br, :mod:`harness.loopback.content_coding`), used only when the request's
``Accept-Encoding`` offers one, as a real server does.

"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import vcr
from vcr.cassette import Cassette
from vcr.request import HeadersDict, Request

from harness.clip import clip_repr
from harness.loopback.cassette import CASSETTES, ENDPOINT
from harness.loopback.content_coding import IDENTITY, choose, encode
from harness.wire.sse import chunks


@dataclass(frozen=True)
class Round:
    """What one recorded response streamed, read without the adapter's parser."""

    reasoning: str
    content: str
    tool_call_ids: tuple[str, ...]


@dataclass
class Replay:
    """A cassette being played, and the requests the client sent to it."""

    cassette: Cassette
    sent: list[Request] = field(default_factory=list)

    @property
    def base_url(self) -> str:
        return self.cassette.requests[0].uri.removesuffix(ENDPOINT)

    @property
    def rounds(self) -> list[Round]:
        return [_streamed_round(response["body"]["string"]) for response in self.cassette.responses]

    def sent_bodies(self) -> list[dict]:
        """The JSON body of every request sent, in order."""
        bodies = []
        for n, request in enumerate(self.sent, 1):
            try:
                bodies.append(json.loads(request.body or b""))
            except ValueError:
                raise AssertionError(
                    f"request #{n} to {request.uri} has a body that is not JSON: {clip_repr(request.body)}"
                ) from None
        return bodies

    def unplayed(self) -> int:
        return len(self.cassette) - self.cassette.play_count

    @property
    def provider_url(self) -> str:
        """The provider the adapter talks to: here the recorded base URL itself."""
        return self.base_url

    def options(self, options: dict) -> dict:
        """``options`` for ``run_http_turn``: unchanged, the base URL names the provider."""
        return dict(options)


@dataclass(frozen=True)
class SentRequest:
    """A request the loopback provider received, in the shape of vcrpy's ``Request`` the contracts read."""

    method: str
    uri: str
    body: bytes
    headers: HeadersDict  # names case-insensitive, as in vcrpy's


class Served:
    """A cassette served by the loopback provider, and the requests the client sent to it."""

    def __init__(self, provider, player) -> None:
        self.provider = provider
        self.player = player
        self.cassette = player.interactions  # len() is the number of recorded interactions

    @property
    def base_url(self) -> str:
        return self.provider.base_url

    @property
    def provider_url(self) -> str:
        """The provider the cassette was recorded from, which the loopback server plays."""
        return self.player.recorded_base_url

    def options(self, options: dict) -> dict:
        return {**options, "provider_url": self.provider_url}

    @property
    def sent(self) -> list[SentRequest]:
        return [SentRequest(e.method, self.provider.origin + e.path, e.body, HeadersDict(e.headers))
                for e in self.provider.record.exchanges]

    def sent_bodies(self) -> list[dict]:
        return self.provider.record.bodies()

    @property
    def rounds(self) -> list[Round]:
        return [_streamed_round(i.body) for i in self.player.interactions]

    def unplayed(self) -> int:
        return self.player.unplayed()


def over_bridge(adapter) -> bool:
    """True if ``adapter`` (or the adapter a guard wraps) runs in another process."""
    from harness.bridge import BridgeAdapter

    return isinstance(getattr(adapter, "_adapter", adapter), BridgeAdapter)


@contextmanager
def play(name: str | Path, adapter, *, delivery=None, coding: str = IDENTITY) -> Iterator[Replay | Served]:
    """The cassette ``name`` (bundled name or path) played the way ``adapter`` can be reached.

    In-process: vcrpy's player (``delivery`` is ignored: it hands over whole
    bodies). Over the bridge: the loopback provider, with ``delivery``. Both
    answer streams in ``coding`` when the request offers it.
    """
    if over_bridge(adapter) or delivery is not None:
        with serve(name, delivery=delivery, coding=coding) as served:
            yield served
    else:
        with replay(name, coding=coding) as played:
            yield played


@contextmanager
def serve(name: str | Path, *, delivery=None, coding: str = IDENTITY) -> Iterator[Served]:
    """Serve the cassette ``name`` on 127.0.0.1 with the lenient gateway profile (the contracts judge)."""
    from harness.loopback.server import LoopbackProvider
    from harness.loopback.sources import CassetteSource

    source = CassetteSource(name)
    kwargs = {"delivery": delivery} if delivery is not None else {}
    with LoopbackProvider(source=source, profile="gateway", coding=coding, **kwargs) as provider:
        yield Served(provider, source.player)


@contextmanager
def replay(name: str | Path, *, coding: str = IDENTITY) -> Iterator[Replay]:
    """Play ``cassettes/{name}.yaml`` to every HTTP client vcrpy patches; nothing reaches the network."""
    player = vcr.VCR(record_mode="none")
    path = Path(name) if Path(name).suffix in (".yaml", ".yml") else CASSETTES / f"{name}.yaml"
    with player.use_cassette(str(path)) as cassette:
        played = Replay(cassette)
        answer = cassette.play_response

        def play_and_keep(request: Request) -> dict:
            played.sent.append(request)
            return _coded(answer(request), choose(coding, request.headers.get("Accept-Encoding")))

        # The stubs call this once per request they answer: the requests actually sent.
        cassette.play_response = play_and_keep
        yield played


def _coded(response: dict, coding: str) -> dict:
    """A recorded response as sent in ``coding``: a stream's body compressed, with its ``Content-Encoding``."""
    headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
    streamed = any("text/event-stream" in v for v in headers.get("content-type", ())) and (
        response["status"]["code"] < 400)
    if coding == IDENTITY or not streamed:
        return response
    body = response["body"]["string"]
    [coded] = encode([body.encode("utf-8") if isinstance(body, str) else body], coding)
    return {**response, "headers": {**response["headers"], "Content-Encoding": [coding]},
            "body": {**response["body"], "string": coded}}


def _streamed_round(body: bytes) -> Round:
    reasoning, content, ids = [], [], []
    for chunk in chunks(body):
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            reasoning.append(delta.get("reasoning_content") or "")
            content.append(delta.get("content") or "")
            ids += [f["id"] for f in delta.get("tool_calls") or () if f.get("id")]
    return Round("".join(reasoning), "".join(content), tuple(ids))
