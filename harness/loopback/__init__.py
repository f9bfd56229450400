"""Black-box mode: a strict loopback provider any agent, in any language, can talk to.

- :class:`LoopbackProvider` (:mod:`.server`): a real HTTP server on 127.0.0.1
  speaking OpenAI-compatible chat completions, streamed and not;
- sources: the recorded cassettes (:mod:`.cassette`) and scripted incident
  scenarios (:mod:`.scenarios`), with arguments from tool schemas
  (:mod:`.schema_args`);
- :class:`Delivery` (:mod:`.delivery`): whole, N-byte pieces, cuts inside
  events, ``\\r\\n`` and UTF-8 sequences, delays;
- provider profiles (:mod:`.profiles`) answering with the providers' real
  statuses and error bodies (:mod:`.answers`), every violation recorded with
  its rule level (:mod:`.record`);
- ``harness serve`` (:mod:`.serve`), the ``loopback_provider`` pytest fixture
  (:mod:`.fixture`), ``harness probe`` (:mod:`.probe`) and ``harness record``
  (:mod:`.recorder`).
"""

from harness.loopback.delivery import MODES, WHOLE, Delivery
from harness.loopback.profiles import PROFILE_NAMES, make_profile
from harness.loopback.record import Exchange, Record, Violation
from harness.loopback.scenarios import SCENARIOS, Scenario, Step
from harness.loopback.server import LoopbackProvider, NotLoopback, is_loopback

__all__ = [
    "MODES", "PROFILE_NAMES", "SCENARIOS", "WHOLE", "Delivery", "Exchange", "LoopbackProvider", "NotLoopback",
    "Record", "Scenario", "Step", "Violation", "is_loopback", "make_profile",
]
