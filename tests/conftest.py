"""Settings every pytest session this suite starts shares: its own and each child's (``harness check``, workers).

langsmith, installed with the wrapped langchain libraries, registers a pytest
plugin that the suite never uses; importing it costs most of a second per
session, and the suite starts a session for every ``harness check``,
``harness mutate`` and worker it runs. The children inherit the
environment, so blocking it here blocks it in each of them.
"""

import os

_BLOCKED = "-p no:langsmith_plugin"

if _BLOCKED not in os.environ.get("PYTEST_ADDOPTS", ""):
    os.environ["PYTEST_ADDOPTS"] = f"{os.environ.get('PYTEST_ADDOPTS', '')} {_BLOCKED}".strip()
