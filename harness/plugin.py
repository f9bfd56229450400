"""The pytest plugin: selects the adapter under test and serves it to contracts.

Registered through the ``pytest11`` entry point, and polite about it: a pytest
session that collects no contract is unchanged by it (no Hypothesis profile
loaded, no adapter imported). For the contracts it

- imports each contract module under the harness's Hypothesis profile
  (``--harness-profile``), so other tests keep their own settings;
- checks that every contract has exactly one rule level (:mod:`harness.rules.levels`)
  and records its level and capability as JUnit properties;
- loads the adapter once, when the first contract is collected, and prints
  what is under test (adapter, levels, policies, profile, seed);
- serves one fixture per capability (``stream``, ``messages``, ...): when the
  adapter lacks it, or its method raises ``NotImplementedError``, the contract
  is *not applicable*, its own status, never a pass;
- with ``--adapter-cmd`` the adapter is a child process (``harness.bridge``);
  a contract it could not run (crash, hang, malformed reply) gets the status
  *error*, and the adapter's stderr goes into that contract's report;
- an in-process adapter's fault (a hang, a ``BaseException`` that is not an
  ``Exception``, ``os._exit``, a value too deep or too large: ``harness.under_test.guard``)
  is an *error* of the contract too, and the run goes on.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from harness import CONTRACTS_DIR
from harness.adapter import CAPABILITIES, FIXTURE_NAMES, AdapterError, LoadedAdapter, load_adapter, resolve_spec
from harness.bridge import DEFAULT_TIMEOUT, BridgeAdapter, BridgeError, load_bridge
from harness.config import hypothesis_profiles as profiles
from harness.rules import levels
from harness.rules.policy import Policies, PolicyError, load_policies
from harness.rules.reasoning import DEFAULT_ERA, ERAS
from harness.under_test import failures
from harness.under_test.guard import NOT_APPLICABLE, AdapterFault, GuardedAdapter, NotApplicable

ADAPTER_ERROR = "error"  # the contract could not run: the adapter faulted, or its process crashed or broke the protocol
SEED_OPTION = "--hypothesis-seed"  # Hypothesis's own pytest option

_adapter_key = pytest.StashKey[LoadedAdapter]()
_policies_key = pytest.StashKey[Policies]()
_seed_key = pytest.StashKey[int]()
_header_key = pytest.StashKey[list[str]]()
_guards_key = pytest.StashKey[dict[str, GuardedAdapter]]()
level_key = pytest.StashKey[str]()
capability_key = pytest.StashKey[str]()

profiles.register()  # registering changes nothing; a profile is loaded only around contract modules


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
        help=f"how long one adapter call may take, in-process or over the bridge (default: {DEFAULT_TIMEOUT:g}); "
        "0 lifts the in-process limit",
    )
    group.addoption(
        "--deepseek-era",
        dest="harness_deepseek_era",
        default=DEFAULT_ERA,
        choices=ERAS,
        help="which DeepSeek reasoning_content rule the round-trip contracts hold the adapter to "
        f"(default: {DEFAULT_ERA})",
    )
    group.addoption(
        "--policy",
        dest="harness_policy",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a policy the policy-level contracts hold the adapter to (repeatable; see harness/rules/policy.py); "
        "also read from [tool.harness.policy] in ./pyproject.toml",
    )
    group.addoption(
        "--harness-profile",
        dest="harness_profile",
        default=profiles.DEFAULT_PROFILE,
        choices=sorted(profiles.PROFILES),
        help=f"Hypothesis profile of the contracts (default: {profiles.DEFAULT_PROFILE})",
    )
    group.addoption(
        "--require-capability",
        dest="harness_require",
        action="append",
        default=[],
        metavar="CAP[,CAP]",
        help="a usage error unless the adapter offers these capabilities",
    )


def pytest_configure(config: pytest.Config) -> None:
    for level, meaning in levels.LEVELS.items():
        config.addinivalue_line("markers", f"{level}: harness rule level: {meaning}")


def is_contract(node: pytest.Item | pytest.Collector) -> bool:
    """A contract: collected from the contracts package, or one of its functions in an AdapterContracts class."""
    if getattr(getattr(node, "function", None), "__module__", "").startswith("harness.contracts."):
        return True
    path = getattr(node, "path", None)
    return path is not None and CONTRACTS_DIR in Path(path).resolve().parents


def _owner(node) -> type | None:
    """The :class:`harness.testing.AdapterContracts` subclass a contract item or fixture request runs under."""
    return getattr(getattr(node, "cls", None), "harness_owner", None)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    """Import a contract module under the harness profile: ``@given`` takes its settings at import."""
    if not (isinstance(collector, pytest.Module) and is_contract(collector)):
        return (yield)
    from hypothesis import settings

    previous = settings.get_current_profile_name()
    settings.load_profile(profiles.registered_name(collector.config.getoption("harness_profile")))
    try:
        return (yield)
    finally:
        settings.load_profile(previous)


def _level(item: pytest.Item) -> str:
    found = [level for level in levels.LEVELS if item.get_closest_marker(level) is not None]
    if len(found) != 1:
        raise pytest.UsageError(
            f"contract {item.nodeid} has rule level(s) {found or 'none'}; every contract needs exactly one of "
            f"{', '.join(levels.LEVELS)} as a pytest marker"
        )
    return found[0]


def capability_of(item: pytest.Item) -> str:
    used = [cap for cap in CAPABILITIES if FIXTURE_NAMES[cap] in getattr(item, "fixturenames", ())]
    return "+".join(used) or "none"


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    contracts = [item for item in items if is_contract(item)]
    if not contracts:
        return
    seed = _seed(config)
    for item in contracts:
        level, capability = _level(item), capability_of(item)
        item.stash[level_key] = level
        item.stash[capability_key] = capability
        item.user_properties += [("level", level), ("capability", capability)]
        if seed is not None and getattr(item.obj, "is_hypothesis_test", False):
            from hypothesis import seed as seed_decorator

            seed_decorator(seed)(item.obj)


def _seed(config: pytest.Config) -> int | None:
    """The seed to print: one given with ``--hypothesis-seed``, or a fresh one under ``nightly``.

    A given seed Hypothesis applies itself; a fresh one is applied to the
    contracts only, with Hypothesis's public ``seed`` decorator.
    """
    given = config.getoption(SEED_OPTION, None)
    if given is not None:
        config.stash[_seed_key] = int(given) if str(given).isdigit() else given
        return None
    if config.getoption("harness_profile") != "nightly":
        return None
    config.stash[_seed_key] = random.SystemRandom().getrandbits(32)
    return config.stash[_seed_key]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Load the adapter for the contracts collected, and say what is under test before anything runs."""
    contracts = [item for item in session.items if is_contract(item)]
    if not contracts:
        return
    config = session.config
    owners = {owner: None for owner in map(_owner, contracts) if owner is not None}
    adapters = [owner.harness_loaded(config) for owner in owners]
    if any(_owner(item) is None for item in contracts):
        adapters.insert(0, adapter_under_test(config))
    required = {c.strip() for option in config.getoption("harness_require") for c in option.split(",") if c.strip()}
    for loaded in adapters:
        missing = sorted(required - loaded.capabilities)
        if missing:
            raise pytest.UsageError(
                f"--require: adapter {loaded.name} does not offer {', '.join(missing)}; it offers "
                f"{', '.join(sorted(loaded.capabilities)) or 'nothing'}"
            )
    config.stash[_header_key] = header_lines(config, adapters)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        for line in config.stash[_header_key]:
            reporter.write_line(f"harness: {line}")


def header_lines(config: pytest.Config, adapters: list[LoadedAdapter] | None = None) -> list[str]:
    """What is under test: adapters, levels, policies, profile, era and seed."""
    selected = config.getoption("markexpr", "") or "all"
    lines = [
        *(f"adapter under test: {loaded.describe()}" for loaded in adapters or [adapter_under_test(config)]),
        f"levels: {selected}",
        f"policies: {policies(config).describe()}",
        f"hypothesis profile: {config.getoption('harness_profile')}",
        f"deepseek era: {config.getoption('harness_deepseek_era')}",
    ]
    if _seed_key in config.stash:
        seed = config.stash[_seed_key]
        lines.append(f"hypothesis seed: {seed} (replay with --hypothesis-seed={seed})")
    return lines


def adapter_under_test(config: pytest.Config) -> LoadedAdapter:
    """Load the adapter once per session; a bad spec is a usage error."""
    if _adapter_key not in config.stash:
        try:
            config.stash[_adapter_key] = _load(config)
        except AdapterError as exc:
            raise pytest.UsageError(str(exc)) from exc
    return config.stash[_adapter_key]


def policies(config: pytest.Config) -> Policies:
    """The policy values in force; a bad key or value is a usage error."""
    if _policies_key not in config.stash:
        pyproject = config.invocation_params.dir / "pyproject.toml"
        try:
            config.stash[_policies_key] = load_policies(config.getoption("harness_policy"), pyproject)
        except PolicyError as exc:
            raise pytest.UsageError(str(exc)) from exc
    return config.stash[_policies_key]


def _load(config: pytest.Config) -> LoadedAdapter:
    command = config.getoption("harness_adapter_cmd")
    if command is None:
        # The folder the run starts in is importable, as under ``python -m pytest``.
        start = str(config.invocation_params.dir)
        if start not in sys.path:
            sys.path.insert(0, start)
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


def _require(request: pytest.FixtureRequest, capability: str) -> GuardedAdapter:
    """The adapter a contract runs against (its AdapterContracts class's, else the session's), guarded."""
    config = request.config
    owner = _owner(request)
    loaded = owner.harness_loaded(config) if owner is not None else adapter_under_test(config)
    if capability not in loaded.capabilities:
        raise NotApplicable(
            f"{NOT_APPLICABLE}: adapter {loaded.name} does not offer the {capability!r} capability"
        )
    guards = config.stash.setdefault(_guards_key, {})
    key = f"{id(loaded.obj)}:{capability}"
    if key not in guards:
        # A bridge process has its own limit per request; an in-process adapter gets one here.
        in_process = not isinstance(loaded.obj, BridgeAdapter)
        timeout = config.getoption("harness_adapter_timeout") or None if in_process else None
        guards[key] = GuardedAdapter(loaded.obj, loaded.name, timeout)
    return guards[key]


def pytest_runtest_setup(item: pytest.Item) -> None:
    for guard in item.config.stash.get(_guards_key, {}).values():
        guard.new_contract()


@pytest.fixture(scope="session")
def adapter(request: pytest.FixtureRequest) -> LoadedAdapter:
    """The adapter under test with its capabilities."""
    return adapter_under_test(request.config)


@pytest.fixture(scope="session")
def deepseek_era(request: pytest.FixtureRequest) -> str:
    """The DeepSeek reasoning_content rule era selected with ``--deepseek-era``."""
    return request.config.getoption("harness_deepseek_era")


@pytest.fixture(scope="session")
def policy(request: pytest.FixtureRequest) -> Policies:
    """The policy values the policy-level contracts hold the adapter to (:mod:`harness.rules.policy`)."""
    return policies(request.config)


def capability_fixture(capability: str, scope: str):
    """The fixture named after ``capability``: the session's adapter here, an AdapterContracts class's there.

    With ``scope="class"`` it is a classmethod of that class.
    """

    def fixture(request: pytest.FixtureRequest):
        return _require(request, capability)

    def class_fixture(cls, request: pytest.FixtureRequest):
        return _require(request, capability)

    chosen = class_fixture if scope == "class" else fixture
    chosen.__name__ = FIXTURE_NAMES[capability]
    chosen.__doc__ = f"The adapter under test, if it offers the {capability!r} capability."
    wrapped = classmethod(chosen) if scope == "class" else chosen
    return pytest.fixture(scope=scope, name=FIXTURE_NAMES[capability])(wrapped)


# One fixture per capability (stream, messages, transform, kernel, ...).
for _capability in CAPABILITIES:
    globals()[f"_{_capability}_fixture"] = capability_fixture(_capability, "session")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    excinfo = call.excinfo
    if excinfo is not None and excinfo.errisinstance(NotApplicable):
        report.harness_not_applicable = True
    if excinfo is not None and _could_not_run(excinfo.value):
        report.harness_adapter_error = True
    if is_contract(item):
        report.harness_level = item.stash.get(level_key, "")
        report.harness_capability = item.stash.get(capability_key, "")
        if report.failed and excinfo is not None:
            report.harness_details = failures.describe(excinfo.value)
            report.harness_location = failures.adapter_location(excinfo.value)
    bridge = _bridge(item.config)
    # Taken in every phase, so what is attached was written during this one.
    stderr = bridge.take_stderr() if bridge is not None else ""
    if stderr and report.failed:
        report.sections.append(("Captured stderr adapter", stderr))
    return report


def _could_not_run(exc: BaseException) -> bool:
    """The adapter faulted (:class:`harness.under_test.guard.AdapterFault`) or its bridge broke (for a group: every part did)."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_could_not_run(part) for part in exc.exceptions)
    return isinstance(exc, (BridgeError, AdapterFault))


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config):
    if getattr(report, "harness_not_applicable", False):
        return NOT_APPLICABLE, "n", "NOT APPLICABLE"
    if getattr(report, "harness_adapter_error", False):
        return ADAPTER_ERROR, "E", "ERROR"
    return None
