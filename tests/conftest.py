"""Settings every pytest session this suite starts shares: its own and each child's (``harness check``, workers).

langsmith, installed with the wrapped langchain libraries, registers a pytest
plugin that the suite never uses; importing it costs most of a second per
session, and the suite starts a session for every ``harness check``,
``harness mutate`` and worker it runs. The children inherit the
environment, so blocking it here blocks it in each of them.

The suite's own property tests run under a profile that measures no speed (no
deadline, no ``too_slow`` health check), as the contracts' profiles do: on a
busy machine (a CI runner, load 30) a slow draw is not a failure of the code
under test. Everything else stays as the loaded profile has it.

A session started where SIGINT is ignored (a background job of a
non-interactive shell: a CI script, a load generator's ``pytest &``) takes it
back: Python installs no KeyboardInterrupt for an ignored SIGINT, so such a
run would go on through every SIGINT sent to stop it.
"""

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "harness-own-tests",
    settings(settings.default, deadline=None,
             suppress_health_check=[*settings.default.suppress_health_check, HealthCheck.too_slow]),
)
settings.load_profile("harness-own-tests")

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

_BLOCKED = "-p no:langsmith_plugin"

if _BLOCKED not in os.environ.get("PYTEST_ADDOPTS", ""):
    os.environ["PYTEST_ADDOPTS"] = f"{os.environ.get('PYTEST_ADDOPTS', '')} {_BLOCKED}".strip()


@pytest.fixture(scope="session")
def reference_check(tmp_path_factory):
    """``reference_check(format)``: the session's one ``harness check`` of that format's reference (made on first use)."""
    # Imported here, not at the top: tests that copy this conftest elsewhere (test_own_tests_under_load) need
    # only its profile and its signal handling.
    import reference_checks

    made: dict[str, reference_checks.ReferenceCheck] = {}

    def check(format: str) -> reference_checks.ReferenceCheck:
        if format not in made:
            made[format] = reference_checks.run_check(format, tmp_path_factory.mktemp(f"check-{format}"))
        return made[format]

    return check
