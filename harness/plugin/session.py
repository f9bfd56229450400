"""The contract machinery of a pytest session, and the run's state as one object.

:mod:`harness.plugin` registers this module as a plugin of the session on first
need (a contract is about to be collected, an option of ours was given). For
the contracts it

- imports each contract module under the harness's Hypothesis profile
  (``--harness-profile``), so other tests keep their own settings;
- checks that every contract has exactly one rule level (:mod:`harness.rules.levels`)
  and records its level and capability as JUnit properties;
- loads the adapter once, when collection is done, and prints what is under
  test (adapter, levels, policies, profile, seed);
- deselects the contracts of other wire formats than their adapter's
  (:mod:`harness.plugin.other_formats`), and says how many;
- serves one fixture per capability (``stream``, ``messages``, ...): when the
  adapter lacks it, or its method raises ``NotImplementedError``, the contract
  is *not applicable*, its own status, never a pass;
- with ``--adapter-cmd`` the adapter is a child process (``harness.bridge``);
  a contract it could not run (crash, hang, malformed reply) gets the status
  *error*, and the adapter's stderr goes into that contract's report;
- an in-process adapter's fault (a hang, a ``BaseException`` that is not an
  ``Exception``, ``os._exit``, a value too deep or too large: ``harness.under_test.guard``)
  is an *error* of the contract too, and the run goes on.

Everything the run holds is one :class:`RunState` in ``config.stash[STATE]``.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

import pytest

from harness.adapter import CAPABILITIES, FIXTURE_NAMES, AdapterError, LoadedAdapter, load_adapter, resolve_spec
from harness.bridge import BridgeAdapter, BridgeError, load_bridge
from harness.config import hypothesis_profiles as profiles
from harness.plugin.contract_items import (ADAPTER_ERROR, capability_key, capability_of, formats_key, formats_of,
                                           is_contract, level_key, owner)
from harness.plugin.other_formats import leave_out, report_lines
from harness.plugin.preconditions import PreconditionFailed
from harness.rules import levels, models
from harness.rules.policy import Policies, PolicyError, load_policies
from harness.under_test import failures
from harness.under_test.guard import NOT_APPLICABLE, AdapterFault, GuardedAdapter, NotApplicable

SEED_OPTION = "--hypothesis-seed"  # Hypothesis's own pytest option

profiles.register()  # registering changes nothing; a profile is loaded only around contract modules


@dataclass
class RunState:
    """What one pytest run of the contracts holds: the session's adapter, its policies, seed and guards."""

    config: pytest.Config
    loaded: LoadedAdapter | None = None  # the session's adapter (--adapter, --adapter-cmd), once loaded
    seed: int | str | None = None  # the Hypothesis seed the header prints, if one is in force
    guards: dict[tuple[int, str], GuardedAdapter] = field(default_factory=dict)  # by (id of adapter, capability)
    other_formats: list[str] = field(default_factory=list)  # the contracts of other formats left out (node ids)
    _policies: Policies | None = field(default=None, init=False)

    def adapter(self) -> LoadedAdapter:
        """The session's adapter, loaded on first call; a bad spec is a usage error."""
        if self.loaded is None:
            try:
                self.loaded = self._load()
            except AdapterError as exc:
                raise pytest.UsageError(str(exc)) from exc
        return self.loaded

    def forget_adapter(self) -> None:
        """Forget the session's adapter and its guards, so the next :meth:`adapter` loads it again.

        The mutation worker calls this after re-importing patched code. The adapter is closed
        (:meth:`LoadedAdapter.close`): a bridge process is stopped, the reference's HTTP client closed.
        """
        if self.loaded is None:
            return
        gone = id(self.loaded.obj)
        self.guards = {key: guard for key, guard in self.guards.items() if key[0] != gone}
        self.loaded.close()
        self.loaded = None

    def policies(self) -> Policies:
        """The policy values in force; a bad key or value is a usage error."""
        if self._policies is None:
            pyproject = self.config.invocation_params.dir / "pyproject.toml"
            try:
                self._policies = load_policies(self.config.getoption("harness_policy"), pyproject)
            except PolicyError as exc:
                raise pytest.UsageError(str(exc)) from exc
        return self._policies

    def pick_seed(self) -> int | None:
        """Record the seed to print: one given with ``--hypothesis-seed``, or a fresh one under ``nightly``.

        A given seed Hypothesis applies itself (None is returned); a fresh one is
        returned, for the plugin to apply to the contracts only.
        """
        given = self.config.getoption(SEED_OPTION, None)
        if given is not None:
            self.seed = int(given) if str(given).isdigit() else given
            return None
        if self.config.getoption("harness_profile") != "nightly":
            return None
        fresh = random.SystemRandom().getrandbits(32)
        self.seed = fresh
        return fresh

    def header_lines(self, adapters: list[LoadedAdapter] | None = None) -> list[str]:
        """What is under test: adapters (default: the session's), levels, policies, profile, era and seed."""
        config = self.config
        selected = config.getoption("markexpr", "") or "all"
        lines = [
            *(f"adapter under test: {loaded.describe()}" for loaded in adapters or [self.adapter()]),
            f"levels: {selected}",
            f"policies: {self.policies().describe()}",
            f"hypothesis profile: {config.getoption('harness_profile')}",
            f"deepseek era: {deepseek_era_of(config)}",
            f"provider rules: {_model_rows(config.getoption('harness_model'))}",
        ]
        if self.seed is not None:
            lines.append(f"hypothesis seed: {self.seed} (replay with --hypothesis-seed={self.seed})")
        return lines

    def guarded(self, loaded: LoadedAdapter, capability: str) -> GuardedAdapter:
        """``loaded`` behind the guard for ``capability``, one guard per adapter and capability."""
        key = (id(loaded.obj), capability)
        if key not in self.guards:
            # A bridge process has its own limit per request; an in-process adapter gets one here.
            in_process = not isinstance(loaded.obj, BridgeAdapter)
            timeout = self.config.getoption("harness_adapter_timeout") or None if in_process else None
            self.guards[key] = GuardedAdapter(loaded.obj, loaded.name, timeout)
        return self.guards[key]

    def bridge(self) -> BridgeAdapter | None:
        """The session's adapter process, if its adapter is one and is loaded."""
        obj = self.loaded.obj if self.loaded is not None else None
        return obj if isinstance(obj, BridgeAdapter) else None

    def _load(self) -> LoadedAdapter:
        config = self.config
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


STATE = pytest.StashKey[RunState]()


def state(config: pytest.Config) -> RunState:
    """The run's state, made on first call."""
    if STATE not in config.stash:
        config.stash[STATE] = RunState(config)
    return config.stash[STATE]


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


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    contracts = [item for item in items if is_contract(item)]
    if not contracts:
        return
    seed = state(config).pick_seed()
    for item in contracts:
        level, capability, formats = _level(item), capability_of(item), formats_of(item)
        item.stash[level_key] = level
        item.stash[capability_key] = capability
        item.stash[formats_key] = formats
        item.user_properties += [("level", level), ("capability", capability)]
        if seed is not None and getattr(item.obj, "is_hypothesis_test", False):
            from hypothesis import seed as seed_decorator

            seed_decorator(seed)(item.obj)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Load the adapter for the contracts collected, deselect those of other formats, say what is under test."""
    contracts = [item for item in session.items if is_contract(item)]
    if not contracts:
        return
    config = session.config
    run = state(config)
    owners = {found: None for found in map(owner, contracts) if found is not None}
    adapters = [found.harness_loaded(config) for found in owners]
    if any(owner(item) is None for item in contracts):
        adapters.insert(0, run.adapter())
    required = {c.strip() for option in config.getoption("harness_require") for c in option.split(",") if c.strip()}
    for loaded in adapters:
        missing = sorted(required - loaded.capabilities)
        if missing:
            raise pytest.UsageError(
                f"--require: adapter {loaded.name} does not offer {', '.join(missing)}; it offers "
                f"{', '.join(sorted(loaded.capabilities)) or 'nothing'}"
            )
    others = leave_out(config, session.items, lambda item: _loaded(item).format)
    run.other_formats = [other.nodeid for other in others]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        for line in [*run.header_lines(adapters), *report_lines(others, config.option.verbose > 0)]:
            reporter.write_line(f"harness: {line}")


def pytest_unconfigure(config: pytest.Config) -> None:
    state(config).forget_adapter()


def _loaded(node: pytest.Item | pytest.FixtureRequest) -> LoadedAdapter:
    """The adapter a contract runs against: its AdapterContracts class's, else the session's."""
    found = owner(node)
    return found.harness_loaded(node.config) if found is not None else state(node.config).adapter()


def _require(request: pytest.FixtureRequest, capability: str) -> GuardedAdapter:
    """The adapter a contract runs against, guarded."""
    loaded = _loaded(request)
    if capability not in loaded.capabilities:
        raise NotApplicable(
            f"{NOT_APPLICABLE}: adapter {loaded.name} does not offer the {capability!r} capability"
        )
    return state(request.config).guarded(loaded, capability)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    for guard in state(item.config).guards.values():
        guard.new_contract()


@pytest.fixture(scope="session")
def adapter(request: pytest.FixtureRequest) -> LoadedAdapter:
    """The adapter under test with its capabilities."""
    return state(request.config).adapter()


@pytest.fixture(scope="session")
def deepseek_era(request: pytest.FixtureRequest) -> str:
    """The DeepSeek reasoning_content rule era: a DeepSeek row chosen with ``--model``, else ``--deepseek-era``."""
    return deepseek_era_of(request.config)


def deepseek_era_of(config: pytest.Config) -> str:
    chosen = models.BY_NAME.get(config.getoption("harness_model") or "") or models.row_for(
        config.getoption("harness_model") or "")
    return chosen.era if chosen is not None and chosen.era else config.getoption("harness_deepseek_era")


def _model_rows(choice: str | None) -> str:
    """The provider-rule rows a run judges by, in words."""
    if choice is None:
        return "every model row of the format, and one model the table does not know (--model NAME: one)"
    row = models.BY_NAME.get(choice) or models.row_for(choice)
    if row is None:
        return f"{choice}: not in the model table; judged by each format's wire rules only"
    return row.describe()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # A provider contract taking ``model_row`` holds for every row ``--model`` selects of its format.
    if "model_row" in metafunc.fixturenames:
        rows = models.selected(formats_of(metafunc.definition)[0], metafunc.config.getoption("harness_model"))
        metafunc.parametrize("model_row", rows, ids=[row.name for row in rows])
    # A dialect contract holds for every selected chat row whose endpoint speaks a reasoning dialect.
    if "dialect_row" in metafunc.fixturenames:
        rows = [row for row in models.selected("chat", metafunc.config.getoption("harness_model")) if row.dialect]
        metafunc.parametrize("dialect_row", rows, ids=[row.name for row in rows])


@pytest.fixture(scope="session")
def policy(request: pytest.FixtureRequest) -> Policies:
    """The policy values the policy-level contracts hold the adapter to (:mod:`harness.rules.policy`)."""
    return state(request.config).policies()


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
            report.harness_kind = failures.kind(excinfo.value)
            report.harness_location = failures.adapter_location(excinfo.value)
        if report.failed and excinfo is not None and excinfo.errisinstance(PreconditionFailed):
            # One line: the cause is another contract's, reported there in full.
            report.harness_details = [str(excinfo.value)]
            report.harness_caused_by = excinfo.value.causes
            report.harness_kind = "AssertionError"  # what it is: JUnit readers count it as an assertion
            report.longrepr = str(excinfo.value)
    bridge = state(item.config).bridge()
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
