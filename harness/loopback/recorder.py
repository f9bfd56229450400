"""``harness record``: one agent turn against a real provider, written as a vcrpy cassette without credentials.

The turn is made by a transport adapter's own HTTP client (the bundled
reference by default) while vcrpy records. The API key is read from an
environment variable (``--api-key-env``, default ``HARNESS_API_KEY``) and
handed to the adapter the way the reference reads it; vcrpy drops every
credential-bearing header and query parameter before the file is written
(:data:`harness.replay.SECRET_HEADERS`), and the written cassette is scanned
again (:func:`harness.replay.credential_findings`): a finding removes the file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from harness import exit_codes

SECRET_QUERY = ["key", "api_key", "apikey", "api-key", "access_token", "token"]


def run_record(args) -> int:
    import vcr

    from harness.adapter import AdapterError, load_adapter
    from harness.reference.transport import API_KEY_ENV
    from harness.replay import SECRET_HEADERS, credential_findings
    from harness.scripted import ScriptedTool

    output = Path(args.output)
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
    recorder = vcr.VCR(record_mode="once", filter_headers=list(SECRET_HEADERS), filter_query_parameters=SECRET_QUERY,
                       decode_compressed_response=True)
    tools = [ScriptedTool(name) for name in (args.tool or ["get_weather"])]
    options = {"model": args.model, **({"effort": args.effort} if args.effort else {})}
    try:
        with recorder.use_cassette(str(output)) as cassette:
            try:
                loaded.obj.run_http_turn(args.base_url, args.prompt, tools, options)
            except Exception as exc:  # the provider refused, or could not be reached
                print(f"harness record: the turn failed: {exc}", file=sys.stderr)
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
