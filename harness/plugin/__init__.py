"""The pytest plugin (``pytest11`` entry point ``harness``): its options, and hooks that load the rest on first need.

Polite about imports: loading it costs pytest a few small harness modules, no
Hypothesis, jsonschema, bridge or guard, so a session that collects no contract
is unchanged by it (``tests/test_plugin_imports.py`` counts). The machinery,
:mod:`harness.plugin.session`, becomes a plugin of the session when

- a contract module (under :data:`harness.CONTRACTS_DIR`) or a contract class of
  an :class:`harness.testing.AdapterContracts` subclass is about to be collected;
- an option of ours was given (its fixtures then serve the project's own tests);
- a caller asks for the run's state (:func:`run_state`).

It holds the run's state as one object, :class:`harness.plugin.session.RunState`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from harness import CONTRACTS_DIR
from harness.adapter import DEFAULT_TIMEOUT, LoadedAdapter
from harness.config import hypothesis_profiles as profiles
from harness.plugin.contract_items import ADAPTER_ERROR, capability_key, capability_of, is_contract, level_key, owner
from harness.rules import levels
from harness.rules.reasoning import DEFAULT_ERA, ERAS

if TYPE_CHECKING:
    from types import ModuleType

    from harness.plugin.session import RunState

__all__ = [
    "ADAPTER_ERROR",
    "CONTRACTS_DIR",
    "adapter_under_test",
    "capability_key",
    "capability_of",
    "header_lines",
    "is_contract",
    "level_key",
    "run_state",
]

SESSION_PLUGIN = "harness-session"  # the name the machinery is registered under

# flag -> addoption keywords; every one has a dest and a default, so "was it given" is a comparison.
_OPTIONS: dict[str, dict[str, Any]] = {
    "--adapter": dict(
        dest="harness_adapter",
        default=None,
        metavar="MODULE:ATTR",
        help="adapter under test (default: $HARNESS_ADAPTER, else the bundled reference)",
    ),
    "--adapter-cmd": dict(
        dest="harness_adapter_cmd",
        default=None,
        metavar="COMMAND",
        help="adapter under test as a child process speaking the bridge protocol (docs/adapter-protocol.md)",
    ),
    "--adapter-timeout": dict(
        dest="harness_adapter_timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long one adapter call may take, in-process or over the bridge (default: {DEFAULT_TIMEOUT:g}); "
        "0 lifts the limit (in process and over the bridge)",
    ),
    "--deepseek-era": dict(
        dest="harness_deepseek_era",
        default=DEFAULT_ERA,
        choices=ERAS,
        help="which DeepSeek reasoning_content rule the round-trip contracts hold the adapter to "
        f"(default: {DEFAULT_ERA})",
    ),
    "--model": dict(
        dest="harness_model",
        default=None,
        metavar="NAME",
        help="the model whose provider rules the provider contracts hold the adapter to: a model id or a row "
        "of harness/rules/models.py (default: every row, and one model the table does not know); a DeepSeek "
        "row also sets the era",
    ),
    "--policy": dict(
        dest="harness_policy",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a policy the policy-level contracts hold the adapter to (repeatable; see harness/rules/policy.py); "
        "also read from [tool.harness.policy] in ./pyproject.toml",
    ),
    "--harness-profile": dict(
        dest="harness_profile",
        default=profiles.DEFAULT_PROFILE,
        choices=sorted(profiles.PROFILES),
        help=f"Hypothesis profile of the contracts (default: {profiles.DEFAULT_PROFILE})",
    ),
    "--require-capability": dict(
        dest="harness_require",
        action="append",
        default=[],
        metavar="CAP[,CAP]",
        help="a usage error unless the adapter offers these capabilities",
    ),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("harness", "agent adapter contracts")
    for flag, keywords in _OPTIONS.items():
        group.addoption(flag, **keywords)


def pytest_configure(config: pytest.Config) -> None:
    for level, meaning in levels.LEVELS.items():
        config.addinivalue_line("markers", f"{level}: harness rule level: {meaning}")
    config.addinivalue_line("markers", "formats(*names): the wire formats a contract holds for (default: chat)")
    if any(config.getoption(o["dest"]) != o["default"] for o in _OPTIONS.values()):
        _machinery(config)


@pytest.hookimpl(tryfirst=True)
def pytest_collectstart(collector: pytest.Collector) -> None:
    # Before the collector's own report: the machinery then imports a contract module under
    # the harness profile, and its fixtures exist before the first contract item is made.
    if is_contract(collector) or owner(collector) is not None:
        _machinery(collector.config)


def run_state(config: pytest.Config) -> RunState:
    """The run's state (adapter, policies, seed, guards), the machinery loaded if it was not."""
    return _machinery(config).state(config)


def adapter_under_test(config: pytest.Config) -> LoadedAdapter:
    """The session's adapter, loaded once; a bad spec is a usage error."""
    return run_state(config).adapter()


def header_lines(config: pytest.Config, adapters: list[LoadedAdapter] | None = None) -> list[str]:
    """What is under test: adapters (default: the session's), levels, policies, profile, era and seed."""
    return run_state(config).header_lines(adapters)


def _machinery(config: pytest.Config) -> ModuleType:
    """:mod:`harness.plugin.session`, imported and registered with this session's plugins once."""
    from harness.plugin import session

    if not config.pluginmanager.is_registered(session):
        config.pluginmanager.register(session, SESSION_PLUGIN)
    return session
