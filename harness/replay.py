"""Recorded provider interactions: where they live, how they replay, and a credential scan.

The transport contracts answer an adapter's real HTTP client from a cassette
(vcrpy YAML in ``harness/cassettes``). What the client SENT is read from the
player itself, as the requests it was asked to answer, never from the
adapter's own report. The bundled cassettes are written from the providers'
documented wire formats (see ``cassettes/README.md``).

``python -m harness.replay FILE...`` scans cassettes for credentials.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import vcr
import yaml
from vcr.cassette import Cassette
from vcr.request import Request

CASSETTES = Path(__file__).parent / "cassettes"
ENDPOINT = "/chat/completions"

# Headers to drop when recording (vcrpy ``filter_headers``); a cassette holding any is refused.
SECRET_HEADERS = (
    "authorization",
    "proxy-authorization",
    "api-key",
    "x-api-key",
    "x-goog-api-key",
    "cookie",
    "set-cookie",
)
_SECRET_QUERY = {"key", "api_key", "apikey", "api-key", "access_token", "token"}
_SECRET_TEXT = re.compile(r"\bBearer\s+[A-Za-z0-9._~+/=-]{8,}|\bsk-[A-Za-z0-9_-]{16,}")


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
                    f"request #{n} to {request.uri} has a body that is not JSON: {request.body!r:.300}"
                ) from None
        return bodies

    def unplayed(self) -> int:
        return len(self.cassette) - self.cassette.play_count


@contextmanager
def replay(name: str) -> Iterator[Replay]:
    """Play ``cassettes/{name}.yaml`` to every HTTP client vcrpy patches; nothing reaches the network."""
    player = vcr.VCR(record_mode="none")
    with player.use_cassette(str(CASSETTES / f"{name}.yaml")) as cassette:
        played = Replay(cassette)
        answer = cassette.play_response

        def play_and_keep(request: Request) -> dict:
            played.sent.append(request)
            return answer(request)

        # The stubs call this once per request they answer: the requests actually sent.
        cassette.play_response = play_and_keep
        yield played


def _streamed_round(body: bytes) -> Round:
    reasoning, content, ids = [], [], []
    for line in body.decode("utf-8").splitlines():
        data = line.removeprefix("data:").strip()
        if not line.startswith("data:") or data == "[DONE]":
            continue
        for choice in json.loads(data).get("choices") or ():
            delta = choice.get("delta") or {}
            reasoning.append(delta.get("reasoning_content") or "")
            content.append(delta.get("content") or "")
            ids += [f["id"] for f in delta.get("tool_calls") or () if f.get("id")]
    return Round("".join(reasoning), "".join(content), tuple(ids))


def credential_findings(path: Path) -> list[str]:
    """Every place in the cassette at ``path`` that holds, or may hold, a credential."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    findings: list[str] = []
    for n, interaction in enumerate(data.get("interactions") or (), 1):
        for part in ("request", "response"):
            record = interaction.get(part) or {}
            where = f"{path}: interaction #{n} {part}"
            for name in record.get("headers") or {}:
                if name.lower() in SECRET_HEADERS:
                    findings.append(f"{where}: header {name!r} (record with filter_headers={list(SECRET_HEADERS)})")
            for key, _ in parse_qsl(urlsplit(record.get("uri") or "").query):
                if key.lower() in _SECRET_QUERY:
                    findings.append(f"{where}: query parameter {key!r} (record with filter_query_parameters)")
            if _SECRET_TEXT.search(json.dumps(record, default=str)):
                findings.append(f"{where}: text that looks like a bearer token or API key")
    return findings


def main(paths: list[str]) -> int:
    findings = [f for p in paths for f in credential_findings(Path(p))]
    print("\n".join(findings) or f"no credentials in {len(paths)} cassette(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
