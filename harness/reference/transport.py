"""The reference HTTP transport: the kernel's LLM rounds over real, streamed HTTP.

Each round the frame builds the generic request, the provider profile
transforms it (thinking switch, effort, reasoning rule), httpx POSTs it to
``{base_url}/chat/completions`` and the streamed SSE body is parsed into the
neutral response the frame consumes.

One client serves every turn of one :class:`HttpTransport`, so a turn after
the first reuses its connections instead of connecting (and building a
client) again; closing the transport closes the client. Every client shares
one SSL context, built as the module is imported: building one loads the CA
bundle, a tenth of a second that each new client (a transport reopened, a
second transport) would pay again, and so would each fork of a process that
forks workers (the gate's) were it built after the fork.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import httpx

from harness.reference.frame import Frame
from harness.reference.provider import transform_request
from harness.reference.stream import parse_stream

API_KEY_ENV = "HARNESS_API_KEY"  # sent as a bearer token when set (live recording)
METHOD = "POST"  # pragma: no mutate (equivalent: `"POST"` -> `"post"`: httpx upper-cases the method, so "post" sends POST)
AUTHORIZATION = "Authorization"  # pragma: no mutate (equivalent: `"Authorization"` -> `"authorization"`, `"Authorization"` -> `"AUTHORIZATION"`: HTTP header names are case-insensitive)
TIMEOUT = httpx.Timeout(120.0, connect=10.0)
_SHOWN = 500  # characters of an error body quoted in the exception
SSL_CONTEXT = httpx.create_ssl_context()  # pragma: no mutate (out of scope: `httpx.create_ssl_context()` -> *: the TLS context, which no plain-HTTP provider reaches)


class ProviderHTTPError(RuntimeError):
    """The provider answered with an HTTP error status."""

    def __init__(self, status: int, url: str, body: str) -> None:
        super().__init__(f"POST {url}: HTTP {status}: {body[:_SHOWN]}")


class HttpModel:
    """The frame's model: one streamed chat completion per call."""

    def __init__(self, client: httpx.Client, base_url: str, options: dict[str, Any]) -> None:
        self.client = client
        self.url = base_url.removesuffix("/") + "/chat/completions"
        self.model = options.get("model")
        self.options = {**options, "base_url": base_url}

    def __call__(self, request: dict) -> dict:
        body = transform_request(request, self.options)
        if self.model:
            body["model"] = self.model
        with self.client.stream(METHOD, self.url, json=body, headers=_headers()) as response:
            raw = b"".join(response.iter_bytes())
        if response.status_code >= 400:
            raise ProviderHTTPError(response.status_code, self.url, raw.decode(errors="replace"))  # pragma: no mutate (out of scope: `self.url` -> `None`: error wording, the address shown only in the message)
        return parse_stream(raw)


class HttpTransport:
    """Agent turns over HTTP through one client, opened by the first turn and closed by :meth:`close`.

    A turn after :meth:`close` opens a new client, so a transport shared by
    several runs in one process (the module's reference adapter, which each
    pytest session closes at its end) stays usable. Turns may run on several
    threads at once (guarded calls run in the guard's threads): the client
    is thread-safe and is opened under a lock.
    """

    def __init__(self) -> None:
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> HttpTransport:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def run_http_turn(self, base_url: str, user_input: str, tools: list[Any], options: dict[str, Any]) -> dict:
        """One agent turn against the provider at ``base_url``; the persisted events."""
        events = Frame(HttpModel(self._opened(), base_url, options), tools).run_turn(user_input)
        return {"events": [event.to_json() for event in events]}

    def close(self) -> None:
        """Close the client and its connections, if a turn opened one."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def _opened(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(timeout=TIMEOUT, verify=SSL_CONTEXT)  # pragma: no mutate (out of scope: `httpx.Client(timeout=TIMEOUT, verify=SSL_CONTEXT)` -> *: client timeout and TLS context, which no plain-HTTP provider reaches)
            return self._client


def _headers() -> dict[str, str]:
    key = os.environ.get(API_KEY_ENV)
    return {AUTHORIZATION: f"Bearer {key}"} if key else {}
