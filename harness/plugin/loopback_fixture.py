"""The ``loopback_provider`` pytest fixture: a loopback provider per call, stopped after the test.

Registered through its own ``pytest11`` entry point (``harness_loopback``); it
imports nothing until a test asks for it, and lives beside the contract plugin
because the toolkit package :mod:`harness.testing` is not cheap to import. ::

    def test_my_agent_pairs_parallel_calls(loopback_provider):
        provider = loopback_provider(scenario="parallel-12", profile="openai",
                                     delivery=Delivery("inside-events", delay=0.002))
        run_my_agent(base_url=provider.base_url, prompt="...")
        assert not provider.record.violations, [v.describe() for v in provider.record.violations]

Every keyword of :class:`harness.loopback.LoopbackProvider` is accepted.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def loopback_provider():
    """A factory: ``loopback_provider(**options)`` starts a provider on 127.0.0.1; all stop after the test."""
    from harness.loopback.server import LoopbackProvider

    started: list[LoopbackProvider] = []

    def start(**options) -> LoopbackProvider:
        provider = LoopbackProvider(**options).start()
        started.append(provider)
        return provider

    yield start
    for provider in started:
        provider.stop()
