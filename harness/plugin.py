"""The pytest plugin: selects the adapter under test and serves it to contracts.

Registered through the ``pytest11`` entry point, so the contracts run in any
pytest session where the package is installed. Contracts ask for a capability
fixture (``codec``, ``kernel``); when the adapter does not offer it the test is
reported as *not applicable*: its own status and summary count, never a pass.
With ``--adapter-cmd`` the adapter is a child process (``harness.bridge``); a
contract it could not run (crash, hang, malformed reply) gets the status
*error*, and the adapter's stderr goes into the failing contract's report.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import settings

from harness import profiles
from harness.adapter import CAPABILITIES, AdapterError, LoadedAdapter, load_adapter, resolve_spec
from harness.bridge import DEFAULT_TIMEOUT, BridgeAdapter, BridgeError, load_bridge
from harness.reasoning_rules import DEFAULT_ERA, ERAS

profiles.register()
settings.load_profile(profiles.DEFAULT_PROFILE)

NOT_APPLICABLE = "not applicable"
BRIDGE_ERROR = "error"  # the contract could not run: the adapter process crashed, hung or broke the protocol
_adapter_key = pytest.StashKey[LoadedAdapter]()
_seed_key = pytest.StashKey[int]()


class NotApplicable(pytest.skip.Exception):
    """Raised by a capability fixture when the adapter lacks that capability."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("harness", "agent adapter contracts")
    group.addoption(
        "--adapter",
        dest="harness_adapter",
        default=None,
        metavar="MODULE:ATTR",
        help="adapter under test (default: $HARNESS_ADAPTER, else the bundled reference)",
    )
    group.addoption(
        "--adapter-cmd",
        dest="harness_adapter_cmd",
        default=None,
        metavar="COMMAND",
        help="adapter under test as a child process speaking the bridge protocol (docs/adapter-protocol.md)",
    )
    group.addoption(
        "--adapter-timeout",
        dest="harness_adapter_timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long the --adapter-cmd process may stay silent on a request (default: {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        "--deepseek-era",
        dest="harness_deepseek_era",
        default=DEFAULT_ERA,
        choices=ERAS,
        help="which DeepSeek reasoning_content rule the round-trip contracts hold the adapter to "
        f"(default: {DEFAULT_ERA})",
    )


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    # Runs after Hypothesis's own configure has loaded --hypothesis-profile.
    from hypothesis import core

    if settings.get_current_profile_name() == "nightly" and core.global_force_seed is None:
        core.global_force_seed = random.SystemRandom().getrandbits(32)
    if core.global_force_seed is not None:
        config.stash[_seed_key] = core.global_force_seed


def adapter_under_test(config: pytest.Config) -> LoadedAdapter:
    """Load the adapter once per session; a bad spec is a usage error."""
    if _adapter_key not in config.stash:
        try:
            config.stash[_adapter_key] = _load(config)
        except AdapterError as exc:
            raise pytest.UsageError(str(exc)) from exc
    return config.stash[_adapter_key]


def _load(config: pytest.Config) -> LoadedAdapter:
    command = config.getoption("harness_adapter_cmd")
    if command is None:
        return load_adapter(resolve_spec(config.getoption("harness_adapter")))
    if config.getoption("harness_adapter"):
        raise AdapterError("give --adapter or --adapter-cmd, not both")
    return load_bridge(command, config.getoption("harness_adapter_timeout"))


def _bridge(config: pytest.Config) -> BridgeAdapter | None:
    loaded = config.stash.get(_adapter_key, None)
    return loaded.obj if loaded is not None and isinstance(loaded.obj, BridgeAdapter) else None


def pytest_unconfigure(config: pytest.Config) -> None:
    bridge = _bridge(config)
    if bridge is not None:
        bridge.close()


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"harness: adapter under test: {adapter_under_test(config).describe()}"]
    lines.append(f"harness: hypothesis profile: {settings.get_current_profile_name()}")
    lines.append(f"harness: deepseek era: {config.getoption('harness_deepseek_era')}")
    if _seed_key in config.stash:
        seed = config.stash[_seed_key]
        lines.append(f"harness: hypothesis seed: {seed} (replay with --hypothesis-seed={seed})")
    return lines


def _require(request: pytest.FixtureRequest, capability: str):
    loaded = adapter_under_test(request.config)
    if capability not in loaded.capabilities:
        raise NotApplicable(
            f"{NOT_APPLICABLE}: adapter {loaded.name} does not offer the {capability!r} capability"
        )
    return loaded.obj


@pytest.fixture(scope="session")
def adapter(request: pytest.FixtureRequest) -> LoadedAdapter:
    """The adapter under test with its declared capabilities."""
    return adapter_under_test(request.config)


@pytest.fixture(scope="session")
def deepseek_era(request: pytest.FixtureRequest) -> str:
    """The DeepSeek reasoning_content rule era selected with ``--deepseek-era``."""
    return request.config.getoption("harness_deepseek_era")


def _capability_fixture(capability: str):
    def fixture(request: pytest.FixtureRequest):
        return _require(request, capability)

    fixture.__name__ = capability
    fixture.__doc__ = f"The adapter under test, if it offers the {capability!r} capability."
    return pytest.fixture(scope="session", name=capability)(fixture)


# One fixture per capability (codec, kernel, ...), named after it.
for _capability in CAPABILITIES:
    globals()[f"_{_capability}_fixture"] = _capability_fixture(_capability)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if call.excinfo is not None and call.excinfo.errisinstance(NotApplicable):
        report.harness_not_applicable = True
    if call.excinfo is not None and call.excinfo.errisinstance(BridgeError):
        report.harness_bridge_error = True
    bridge = _bridge(item.config)
    # Taken in every phase, so what is attached was written during this one.
    stderr = bridge.take_stderr() if bridge is not None else ""
    if stderr and report.failed:
        report.sections.append(("Captured stderr adapter", stderr))
    return report


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config):
    if getattr(report, "harness_not_applicable", False):
        return NOT_APPLICABLE, "n", "NOT APPLICABLE"
    if getattr(report, "harness_bridge_error", False):
        return BRIDGE_ERROR, "E", "ERROR"
    return None
