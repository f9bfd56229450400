"""Credentials in recorded cassettes: the headers a recording drops, and a scan that refuses any left.

``python -m harness.loopback.credentials FILE...`` scans cassettes and exits 1 on a finding.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import yaml

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
SECRET_QUERY = {"key", "api_key", "apikey", "api-key", "access_token", "token"}
SECRET_TEXT = re.compile(r"\bBearer\s+[A-Za-z0-9._~+/=-]{8,}|\bsk-[A-Za-z0-9_-]{16,}")


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
                if key.lower() in SECRET_QUERY:
                    findings.append(f"{where}: query parameter {key!r} (record with filter_query_parameters)")
            if SECRET_TEXT.search(json.dumps(record, default=str)):
                findings.append(f"{where}: text that looks like a bearer token or API key")
    return findings


def main(paths: list[str]) -> int:
    findings = [f for p in paths for f in credential_findings(Path(p))]
    print("\n".join(findings) or f"no credentials in {len(paths)} cassette(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
