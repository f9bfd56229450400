"""The server under test: where a format's requests go, with what credential, and one request's answer.

The URL of a request is the target's base URL joined with the path of the
format's endpoint (its row's ``endpoint``, ``{model}`` filled in), the part the
two share said once: ``http://host/v1`` and ``/v1/responses`` give
``http://host/v1/responses``, as an SDK configured with either base URL would
send. The credential comes from an environment variable and is sent in one
header; it is never printed or written to a report.
"""

from __future__ import annotations

import os
import socket
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from harness.formats import FormatSpec

KEY_VARIABLE = "HARNESS_CONFORM_API_KEY"
TIMEOUT = 60.0  # seconds a target may stay silent before its answer counts as hung


class TargetError(ValueError):
    """The target cannot be addressed as given (a base URL without a scheme and host)."""


@dataclass(frozen=True)
class Reply:
    """One request's answer: its status and body, or what kept it from coming (then ``status`` is None)."""

    status: int | None
    content_type: str
    body: bytes
    failure: str = ""  # the connection failed, timed out or was cut: the words of it

    def describe(self) -> str:
        if self.status is None:
            return self.failure
        return f"HTTP {self.status} ({self.content_type or 'no Content-Type'}, {len(self.body)} bytes)"


@dataclass(frozen=True)
class Target:
    base_url: str
    spec: FormatSpec
    model: str
    key_variable: str = KEY_VARIABLE
    auth_header: str = "authorization"  # "authorization" sends "Bearer KEY"; any other header the key alone
    timeout: float = TIMEOUT

    def __post_init__(self) -> None:
        parts = urllib.parse.urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise TargetError(f"--base-url {self.base_url!r}: expected http(s)://host[:port][/path]")

    @property
    def url(self) -> str:
        _, _, target = self.spec.endpoint.partition(" ")
        path = target.format(model=urllib.parse.quote(self.model, safe=""))
        return join(self.base_url, path)

    @property
    def has_key(self) -> bool:
        return bool(os.environ.get(self.key_variable))

    def headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": self.spec.framing.media_type}
        key = os.environ.get(self.key_variable)
        if key:
            headers[self.auth_header] = f"Bearer {key}" if self.auth_header.lower() == "authorization" else key
        return headers

    def post(self, body: bytes) -> Reply:
        """POST ``body``; a refusal is a reply with its status, a connection that fails or hangs one without."""
        request = urllib.request.Request(self.url, data=body, headers=self.headers(), method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return Reply(answer.status, answer.headers.get("Content-Type", ""), answer.read())
        except urllib.error.HTTPError as refused:
            return Reply(refused.code, refused.headers.get("Content-Type", ""), refused.read())
        except (TimeoutError, socket.timeout):
            return Reply(None, "", b"", f"no answer within {self.timeout:g} s (hung)")
        except (urllib.error.URLError, ConnectionError, OSError) as failed:
            return Reply(None, "", b"", f"the connection failed: {getattr(failed, 'reason', failed)}")


def join(base_url: str, path: str) -> str:
    """``path`` after ``base_url``, the longest tail of the base's path that ``path`` opens with said once."""
    parts = urllib.parse.urlsplit(base_url)
    route, _, query = path.partition("?")
    base = [s for s in parts.path.split("/") if s]
    steps = [s for s in route.split("/") if s]
    shared = max((n for n in range(len(base) + 1) if base[len(base) - n:] == steps[:n]), default=0)
    joined = "/" + "/".join([*base[:len(base) - shared], *steps])
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, joined, query, ""))
