"""Small adapters the harness's own tests point the contracts at."""

from harness.reference import adapter as _reference


class CodecOnly:
    """A user's adapter that offers the codec capability and nothing else."""

    name = "codec-only sample"

    def serialize_message(self, message: dict) -> dict:
        return _reference.serialize_message(message)

    def parse_stream(self, body: bytes) -> dict:
        return _reference.parse_stream(body)

    def transform_request(self, body: dict, options: dict) -> dict:
        return _reference.transform_request(body, options)


class ReasoningInContent(CodecOnly):
    """The `deepseek-reasoning-400` bug in a user's adapter: reasoning folded into content."""

    name = "reasoning-in-content sample"

    def serialize_message(self, message: dict) -> dict:
        wire = dict(_reference.serialize_message(message))
        reasoning = wire.pop("reasoning_content", None)
        if reasoning:
            wire["content"] = reasoning + (wire.get("content") or "")
        return wire


codec_only = CodecOnly()
reasoning_in_content = ReasoningInContent()


class StreamOnly:
    """A client library's adapter: it parses streams and does nothing else."""

    name = "stream-only sample"

    def parse_stream(self, body: bytes) -> dict:
        return _reference.parse_stream(body)


class NoCapability:
    """An adapter whose methods the contracts do not know."""

    name = "no-capability sample"

    def chat(self, messages: list) -> dict:
        return {}


class TransformNotImplemented(CodecOnly):
    """A codec whose request transform is a declared stub."""

    name = "transform-not-implemented sample"

    def transform_request(self, body: dict, options: dict) -> dict:
        raise NotImplementedError("no provider profiles yet")


def _tool_calls_of(parsed: dict) -> list:
    return parsed["tool_calls"]


class CrashingStream:
    """A stream parser that crashes in its own code on any stream of two or more tool calls."""

    name = "crashing-stream sample"

    def parse_stream(self, body: bytes) -> dict:
        parsed = dict(_reference.parse_stream(body))
        calls = _tool_calls_of(parsed)
        if len(calls) >= 2:
            raise KeyError(f"call slot {len(calls)}")  # the crash: its frame is this file's
        return parsed


stream_only = StreamOnly()
no_capability = NoCapability()
transform_not_implemented = TransformNotImplemented()
crashing_stream = CrashingStream()


class SlowStream(StreamOnly):
    """A stream parser slow enough to interrupt mid-run."""

    name = "slow-stream sample"

    def parse_stream(self, body: bytes) -> dict:
        import time

        time.sleep(0.2)
        return super().parse_stream(body)


slow_stream = SlowStream()


class HangsInParse(StreamOnly):
    """An in-process adapter that never returns from parse_stream on a tool-call stream."""

    name = "hangs-in-parse sample"

    def parse_stream(self, body: bytes) -> dict:
        import threading

        if b"tool_calls" in body:
            threading.Event().wait()
        return super().parse_stream(body)


class WrongShapes:
    """Every method returns the value named in RETURNS: a shape no contract may pass on."""

    name = "wrong-shapes sample"
    RETURNS = None

    def parse_stream(self, body: bytes):
        return self.RETURNS

    def serialize_message(self, message: dict):
        return self.RETURNS

    def transform_request(self, body: dict, options: dict):
        return self.RETURNS


def _wrong(value, label):
    adapter = WrongShapes()
    adapter.RETURNS = value
    adapter.name = f"wrong-shapes sample ({label})"
    return adapter


hangs_in_parse = HangsInParse()
returns_none = _wrong(None, "None")
returns_string = _wrong("not a dict", "a string")
returns_list = _wrong([], "a list")
returns_wrong_field = _wrong({"content": 7, "reasoning": "", "tool_calls": [], "finish_reason": None, "usage": None,
                              "role": "assistant", "messages": "x"}, "wrong field types")


class FaultsOnToolCalls(StreamOnly):
    """A stream parser that does ``fault(body)`` instead of answering every stream with tool calls."""

    def __init__(self, label: str, fault) -> None:
        self.name = f"faulty sample ({label})"
        self._fault = fault

    def parse_stream(self, body: bytes) -> dict:
        if b"tool_calls" in body:
            return self._fault(body)
        return super().parse_stream(body)


class OwnBaseException(BaseException):
    """An adapter's own BaseException subclass."""


def _raise(kind: type[BaseException], *args):
    def fault(body: bytes):
        raise kind(*args)

    return fault


def _exits(body: bytes):
    import os

    os._exit(3)


def _exits_swallowed(body: bytes):
    import os

    try:
        os._exit(3)
    except BaseException:  # an adapter that catches everything still faulted
        return _reference.parse_stream(body)


def _spins(body: bytes):
    while True:
        pass


def _nested(body: bytes):
    value: list = []
    for _ in range(100_000):
        value = [value]
    return {**_reference.parse_stream(body), "usage": {"deep": value}}


def _huge(body: bytes):
    return {**_reference.parse_stream(body), "content": "x" * 5_000_000}


exits = FaultsOnToolCalls("os._exit", _exits)
exits_swallowed = FaultsOnToolCalls("os._exit caught", _exits_swallowed)
raises_keyboard_interrupt = FaultsOnToolCalls("KeyboardInterrupt", _raise(KeyboardInterrupt))
raises_system_exit = FaultsOnToolCalls("SystemExit", _raise(SystemExit, 0))
raises_generator_exit = FaultsOnToolCalls("GeneratorExit", _raise(GeneratorExit))
raises_own_base_exception = FaultsOnToolCalls("own BaseException", _raise(OwnBaseException, "stop"))
spins = FaultsOnToolCalls("spins", _spins)
returns_nested = FaultsOnToolCalls("nested 100,000 deep", _nested)
returns_huge = FaultsOnToolCalls("5 MB of content", _huge)
