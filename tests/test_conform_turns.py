"""Conversations of several user turns: each later turn goes to the target after the whole history before it.

Against the loopback (a strict provider of each format), the conversation of two
user turns must be answered throughout, and every request of its second turn
must carry the first turn whole (its question, and each of its rounds'
replayed blocks, as the request of its last round did), so replay across user
turns is what the provider judges.
"""

from __future__ import annotations

import json

import pytest

from harness.conform import Target, conform
from harness.conform.conversation import CONVERSATIONS, history_key
from harness.formats import SPECS
from harness.loopback.server import LoopbackProvider
from harness.testing.broken_emitter import STRICT_CHAT

TURNS = next(c for c in CONVERSATIONS if len(c.prompts) > 1)


@pytest.fixture(autouse=True)
def _credential(monkeypatch):
    monkeypatch.setenv("HARNESS_CONFORM_API_KEY", "sk-conform-turns")


@pytest.mark.parametrize("name", list(SPECS))
def test_a_later_user_turn_carries_the_whole_history_before_it(name):
    with LoopbackProvider(profile=STRICT_CHAT) as provider:
        _, log = conform(Target(provider.route_url(name), SPECS[name], "m"), strict=False)
    sent = [e for e in log if e.conversation == TURNS.name]
    first, second = TURNS.prompts[0], TURNS.prompts[1]
    assert sent and all(e.reply.status == 200 for e in sent), [(e.number, e.reply.describe()) for e in sent]
    later = [e for e in sent if second in json.dumps(e.request, ensure_ascii=False)]
    earlier = [e for e in sent if e not in later]
    assert later and earlier, f"{name}: the second user turn sent {len(later)} requests, the first {len(earlier)}"
    key = history_key(SPECS[name].reference_adapter())
    last_of_first = json.dumps(earlier[-1].request[key], ensure_ascii=False)[:-1]  # its history, still open
    for e in later:
        history = json.dumps(e.request[key], ensure_ascii=False)
        assert history.startswith(last_of_first), (
            f"{name}: request #{e.number} of the second turn does not open with the first turn's history as its "
            f"last request sent it:\n{history[:600]}\nexpected to open with:\n{last_of_first[:600]}")
        assert first in history, f"{name}: request #{e.number} of the second turn lost the first question"
