"""A bridge adapter that dies on one request, with a last word on stderr."""

import os
import sys

from reference_bridge import is_twelve_calls_stream, serve


def fault(method: str, params: dict) -> None:
    if is_twelve_calls_stream(method, params):
        print("panic: index out of range [11] with length 1", file=sys.stderr, flush=True)
        os._exit(2)


serve(fault)
