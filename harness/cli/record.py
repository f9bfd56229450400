"""``harness record``: one agent turn against a real provider, written as a vcrpy cassette without credentials.

The turn is made by a transport adapter's own HTTP client (the bundled
reference by default) while vcrpy records. The API key is read from an
environment variable (``--api-key-env``, default ``HARNESS_API_KEY``) and
handed to the adapter the way the reference reads it; vcrpy drops every
credential-bearing header and query parameter before the file is written
(:data:`harness.loopback.credentials.SECRET_HEADERS`), and the written cassette is scanned
again (:func:`harness.loopback.credentials.credential_findings`): a finding removes the file.

The key never reaches stderr or the file by another way either: a provider
that echoes it in an error body has it replaced (in what is printed and in the
recorded bodies), and a base URL with a query string (``?api-key=...``) is
refused before anything is sent, shown without its secret values.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from harness import exit_codes
from harness.loopback.credentials import SECRET_HEADERS, SECRET_QUERY, SECRET_TEXT, credential_findings

REDACTED = "[redacted]"


def scrub(text: str, key: str | None) -> str:
    """``text`` without the key, nor anything shaped like a bearer token or API key."""
    if key:
        text = text.replace(key, REDACTED)
    return SECRET_TEXT.sub(REDACTED, text)


def shown_url(url: str) -> str:
    """``url`` safe to print: no user or password, no value of a credential-bearing query parameter."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    query = urlencode([(k, REDACTED if k.lower() in SECRET_QUERY else v) for k, v in parse_qsl(parts.query)],
                      safe="[]")
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def _scrubbed_bodies(key: str | None):
    """vcrpy hooks that take the key out of every recorded request and response body."""
    def clean(body):
        if isinstance(body, bytes):
            return scrub(body.decode("utf-8", "replace"), key).encode("utf-8")
        return scrub(body, key) if isinstance(body, str) else body

    def request(recorded):
        recorded.body = clean(recorded.body)
        return recorded

    def response(recorded):
        recorded["body"]["string"] = clean(recorded["body"]["string"])
        return recorded

    return request, response


def run_record(args) -> int:
    import vcr

    from harness.adapter import AdapterError, load_adapter
    from harness.reference.transport import API_KEY_ENV
    from harness.testing.scripted import ScriptedTool

    output = Path(args.output)
    parts = urlsplit(args.base_url)
    if parts.query or parts.fragment or "@" in parts.netloc:
        print(f"harness record: --base-url {shown_url(args.base_url)}: a base URL takes no query string, fragment "
              f"or user (it is joined with /chat/completions); give the API key in ${args.api_key_env}",
              file=sys.stderr)
        return exit_codes.USAGE
    if output.exists():
        print(f"harness record: {output} exists; record to a new file", file=sys.stderr)
        return exit_codes.USAGE
    try:
        loaded = load_adapter(args.adapter or "harness.reference:adapter")
    except AdapterError as exc:
        print(f"harness record: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    if "transport" not in loaded.capabilities:
        print(f"harness record: adapter {loaded.name} has no transport capability (run_http_turn)", file=sys.stderr)
        return exit_codes.USAGE
    key = os.environ.get(args.api_key_env)
    if not key:
        print(f"harness record: ${args.api_key_env} is not set: recording without an API key", file=sys.stderr)
    previous = os.environ.get(API_KEY_ENV)
    if key:
        os.environ[API_KEY_ENV] = key
    before_request, before_response = _scrubbed_bodies(key)
    recorder = vcr.VCR(record_mode="once", filter_headers=list(SECRET_HEADERS),
                       filter_query_parameters=sorted(SECRET_QUERY), decode_compressed_response=True,
                       before_record_request=before_request, before_record_response=before_response)
    tools = [ScriptedTool(name) for name in (args.tool or ["get_weather"])]
    options = {"model": args.model, **({"effort": args.effort} if args.effort else {})}
    try:
        with recorder.use_cassette(str(output)) as cassette:
            try:
                loaded.obj.run_http_turn(args.base_url, args.prompt, tools, options)
            except Exception as exc:  # the provider refused, or could not be reached
                print(f"harness record: the turn failed: {scrub(str(exc), key)}", file=sys.stderr)
                failed = True
            else:
                failed = False
            recorded = len(cassette)
    finally:
        if key:
            if previous is None:
                os.environ.pop(API_KEY_ENV, None)
            else:
                os.environ[API_KEY_ENV] = previous
    if not output.exists():
        print("harness record: nothing was recorded", file=sys.stderr)
        return exit_codes.USAGE
    findings = credential_findings(output)
    if findings:
        output.unlink()
        print("harness record: the cassette still held credentials, so it was removed:\n  " + "\n  ".join(findings),
              file=sys.stderr)
        return exit_codes.INTERNAL
    print(f"harness record: wrote {recorded} interaction(s) to {output}; no credentials in it")
    return exit_codes.USAGE if failed else exit_codes.OK
