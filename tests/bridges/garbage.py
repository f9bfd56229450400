"""A bridge adapter that prints a debug line to stdout instead of its reply to one request."""

from reference_bridge import is_twelve_calls_stream, serve


def fault(method: str, params: dict) -> None:
    if is_twelve_calls_stream(method, params):
        print("DEBUG accumulating 12 calls", flush=True)


serve(fault)
