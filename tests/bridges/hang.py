"""A bridge adapter that never answers one request."""

import sys
import time

from reference_bridge import is_twelve_calls_stream, serve


def fault(method: str, params: dict) -> None:
    if is_twelve_calls_stream(method, params):
        print("waiting for a lock that is never released", file=sys.stderr, flush=True)
        time.sleep(3600)


serve(fault)
