"""The harness's toolkit for an adapter author's own tests: public, documented, typed.

- :class:`AdapterContracts`: subclass once per adapter to run every contract
  against it in your own pytest session (the alternative to ``--adapter``).
- The scripted model and tools the kernel contracts use, and the overlap
  probe that proves parallel-safe tools really overlapped.
- The cassette player (in-process replay of recorded provider responses;
  ``play`` aims a cassette at an adapter, in process or over the loopback
  provider for a bridge) and the loopback provider (a real HTTP server on
  127.0.0.1) with its delivery modes.
- Hypothesis strategies and builders for streams, request bodies and
  persisted events; for Anthropic turns, tool loops and persisted rounds
  with the wire messages a correct serializer writes for them; for OpenAI
  Responses and Gemini turns, their streams, tool loops, persisted rounds
  and the histories a correct renderer writes for them.
- Each format's row of those strategies and its pinned incident examples
  (:mod:`harness.testing.formats`), which the cross-format contracts draw from.
- The rule checkers the contracts judge with (pairing, arguments, the text a
  ``content`` carries in any of its forms).

The contracts themselves import these from here: what they use is what you get.
"""

from harness.loopback import Delivery, LoopbackProvider
from harness.rules.pairing import pairing_violations, same_arguments
from harness.rules.reasoning import must_carry, non_string_reasoning, reasoning_violations
from harness.rules.text import content_text
from harness.testing.anthropic_history import (
    persisted_rounds as anthropic_persisted_rounds,
    tool_loops as anthropic_tool_loops,
    turns as anthropic_turns,
    wire_history as anthropic_wire_history,
    wire_message as anthropic_wire_message,
)
from harness.testing.anthropic_streams import (
    plans as anthropic_stream_plans,
    streamed_turns as anthropic_streamed_turns,
)
from harness.testing.cassettes import play, replay
from harness.testing.contracts import AdapterContracts
from harness.testing.events import event_lists, events as persisted_events
from harness.testing.gemini_history import (
    persisted_rounds as gemini_persisted_rounds,
    tool_loops as gemini_tool_loops,
    turns as gemini_turns,
    wire_content as gemini_wire_content,
    wire_history as gemini_wire_history,
)
from harness.testing.gemini_streams import streamed_turns as gemini_streamed_turns
from harness.testing.requests import request_bodies
from harness.testing.responses_history import (
    persisted_rounds as responses_persisted_rounds,
    tool_loops as responses_tool_loops,
    wire_input as responses_wire_input,
)
from harness.testing.responses_streams import streamed_turns as responses_streamed_turns, turns as responses_turns
from harness.testing.scripted import (
    HangGuardExpired,
    OverlapProbe,
    Rendezvous,
    ScriptedModel,
    ScriptedTool,
    ScriptExhausted,
)
from harness.wire.chunks import Envelope, completion_chunks, usage_chunk
from harness.wire.sse import Framing, sse

__all__ = [
    "AdapterContracts",
    "anthropic_persisted_rounds",
    "anthropic_stream_plans",
    "anthropic_streamed_turns",
    "anthropic_tool_loops",
    "anthropic_turns",
    "anthropic_wire_history",
    "anthropic_wire_message",
    "Delivery",
    "Envelope",
    "Framing",
    "HangGuardExpired",
    "LoopbackProvider",
    "OverlapProbe",
    "Rendezvous",
    "ScriptExhausted",
    "ScriptedModel",
    "ScriptedTool",
    "completion_chunks",
    "content_text",
    "event_lists",
    "gemini_persisted_rounds",
    "gemini_streamed_turns",
    "gemini_tool_loops",
    "gemini_turns",
    "gemini_wire_content",
    "gemini_wire_history",
    "must_carry",
    "non_string_reasoning",
    "pairing_violations",
    "persisted_events",
    "play",
    "reasoning_violations",
    "replay",
    "request_bodies",
    "responses_persisted_rounds",
    "responses_streamed_turns",
    "responses_tool_loops",
    "responses_turns",
    "responses_wire_input",
    "same_arguments",
    "sse",
    "usage_chunk",
]
