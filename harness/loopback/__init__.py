"""Black-box mode: a strict loopback provider any agent, in any language, can talk to.

- :class:`LoopbackProvider` (:mod:`.server`): a real HTTP server on 127.0.0.1
  speaking OpenAI-compatible chat completions, streamed and not;
- sources: the recorded cassettes (:mod:`.cassette`) and scripted incident
  scenarios (:mod:`.scenarios`), with arguments from tool schemas
  (:mod:`.schema_args`);
- :class:`Delivery` (:mod:`.delivery`): whole, N-byte pieces, cuts inside
  events, ``\\r\\n`` and UTF-8 sequences, delays;
- beside chat, a route per row of :mod:`.wires` (Anthropic Messages, OpenAI
  Responses, Gemini: :mod:`.anthropic_format`, :mod:`.responses_format`,
  :mod:`.gemini_format`), each judged by its format's history rules
  (:mod:`.strict_route`) after its body is read as a request
  (:mod:`.request_body`);
- provider profiles (:mod:`.profiles`) answering with the providers' real
  statuses and error bodies (:mod:`.answers`), every violation recorded with
  its rule level (:mod:`.record`);
- ``harness serve`` (:mod:`.serve`), the ``loopback_provider`` pytest fixture
  (:mod:`.fixture`), ``harness probe`` (:mod:`.probe`) and ``harness record``
  (:mod:`.recorder`).
"""

import importlib

# Imported on first use, so that registering the pytest fixture imports no HTTP stack.
_EXPORTS = {
    "MODES": "delivery", "WHOLE": "delivery", "Delivery": "delivery",
    "PROFILE_NAMES": "profiles", "make_profile": "profiles",
    "Exchange": "record", "Record": "record", "Violation": "record",
    "SCENARIOS": "scenarios", "Scenario": "scenarios", "Step": "scenarios",
    "LoopbackProvider": "server", "NotLoopback": "server", "is_loopback": "server",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'harness.loopback' has no attribute {name!r}")
    return getattr(importlib.import_module(f"harness.loopback.{_EXPORTS[name]}"), name)
