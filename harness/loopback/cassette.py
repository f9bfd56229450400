"""Recorded interactions (vcrpy's YAML) played by the loopback provider, matched by request.

Loading goes through vcrpy itself, so a cassette the in-process player reads
is a cassette the loopback provider reads. A request is matched as vcrpy's
player matches by default for these cassettes, on method and path (the path
under the base URL the cassette was recorded from); matching interactions are
played in recorded order, each once. A request nothing matches gets HTTP 500
with a message in the manner of vcrpy's cassette-miss error: the closest
recorded request and what differs.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from vcr.persisters.filesystem import FilesystemPersister
from vcr.serializers import yamlserializer

# The bundled cassettes, and the path a chat-completions cassette answers under its base URL.
CASSETTES = Path(__file__).resolve().parents[1] / "cassettes"
ENDPOINT = "/chat/completions"


@dataclass(frozen=True)
class Interaction:
    method: str
    path: str  # the recorded path, e.g. /v1/chat/completions
    request_body: bytes
    status: int
    headers: dict[str, str]
    body: bytes


class CassetteMiss(LookupError):
    pass


class NotACassette(ValueError):
    """A YAML file that is not a vcrpy cassette (or not YAML at all)."""


MAX_BYTES = 64 * 1024 * 1024  # a cassette is read whole: past this it is not one
# What vcrpy's loader and the conversion below raise on a file of another shape.
_MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError, yaml.YAMLError)


def cassette_path(name_or_path: str | Path) -> Path:
    """A bundled cassette by name (``openai_parallel_tool_calls``) or any path to a YAML file."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") and path.exists():
        return path
    bundled = CASSETTES / f"{name_or_path}.yaml"
    if bundled.resolve().parent != CASSETTES.resolve():
        raise FileNotFoundError(f"no cassette {str(name_or_path)!r}: a bundled cassette's name is a file name in "
                                f"{CASSETTES.name}/, and cannot leave it")
    if bundled.exists():
        return bundled
    known = ", ".join(sorted(p.stem for p in CASSETTES.glob("*.yaml")))
    raise FileNotFoundError(f"no cassette {str(name_or_path)!r}: not a YAML file, nor a bundled one ({known})")


class CassettePlayer:
    """Plays one cassette's interactions; thread-safe, each interaction once."""

    def __init__(self, name_or_path: str | Path) -> None:
        self.path = cassette_path(name_or_path)
        self.name = self.path.stem
        if self.path.stat().st_size > MAX_BYTES:
            raise NotACassette(f"{self.path} is larger than {MAX_BYTES:,} bytes, more than any recorded session "
                               "holds; it was not read")
        try:
            requests, responses = FilesystemPersister.load_cassette(str(self.path), yamlserializer)
            self.interactions = [_interaction(req, resp) for req, resp in zip(requests, responses)]
            self.recorded_base_url = requests[0].uri.removesuffix(ENDPOINT) if requests else ""
        except _MALFORMED as exc:
            raise NotACassette(f"{self.path} is not a vcrpy cassette ({type(exc).__name__}: {exc}); record one "
                               "with harness record") from None
        self._played = [False] * len(self.interactions)
        self._lock = threading.Lock()

    @property
    def base_path(self) -> str:
        """The path of the recorded base URL (``/v1`` for OpenAI's, ``""`` for DeepSeek's)."""
        return urlsplit(self.recorded_base_url).path.rstrip("/")

    def take(self, method: str, path: str) -> tuple[int, Interaction]:
        """The next unplayed interaction matching ``method`` and ``path`` (its number, from 1)."""
        with self._lock:
            for n, (interaction, played) in enumerate(zip(self.interactions, self._played)):
                if not played and interaction.method == method and interaction.path == path:
                    self._played[n] = True
                    return n + 1, interaction
            raise CassetteMiss(self._miss(method, path))

    def unplayed(self) -> int:
        with self._lock:
            return self._played.count(False)

    def _miss(self, method: str, path: str) -> str:
        left = [i for i, p in zip(self.interactions, self._played) if not p]
        if not left:
            return (f"cassette {self.name}: no interaction left for {method} {path}: all "
                    f"{len(self.interactions)} were played (the client sent more requests than were recorded)")
        closest = left[0]
        failed = [name for name, ok in (("method", closest.method == method), ("path", closest.path == path))
                  if not ok]
        return (f"cassette {self.name}: no recorded interaction matches {method} {path}; closest unplayed: "
                f"{closest.method} {closest.path} (matchers that failed: {', '.join(failed)})")


def _interaction(request, response: dict) -> Interaction:
    body = response.get("body", {}).get("string", b"")
    if isinstance(body, str):
        body = body.encode("utf-8")
    headers = {k: (v[0] if isinstance(v, list) and v else str(v)) for k, v in (response.get("headers") or {}).items()}
    raw = request.body or b""
    return Interaction(request.method, urlsplit(request.uri).path, raw if isinstance(raw, bytes) else raw.encode(),
                       int(response.get("status", {}).get("code", 200)), headers, body)
