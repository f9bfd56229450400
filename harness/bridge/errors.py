"""What goes wrong across the bridge, as exceptions a contract run can tell apart.

:class:`BridgeError` means the contract could not be run: the adapter process
crashed, hung or broke the protocol. It derives from ``BaseException``, as
pytest's own outcome exceptions do, so that neither a contract nor Hypothesis
takes it for a property of the input: Hypothesis would otherwise shrink the
example, re-running a hang once per shrink step. The plugin reports it with
the status ``error``, never as a failed assertion.

:class:`RemoteError` means the adapter answered, with a structured error: the
bridge's form of a Python adapter raising.
"""

from __future__ import annotations

_STDERR_LINES = 15  # adapter stderr lines quoted in a crash message


class BridgeError(BaseException):
    """The adapter process crashed, hung or sent something that is not a protocol reply."""

    def __init__(self, request: str, problem: str, line: str | None, stderr: str = "") -> None:
        self.request = request
        self.problem = problem
        self.line = line
        self.stderr = stderr
        reply = "none" if line is None else repr(line)
        message = f"bridge error on {request}: {problem}; reply line: {reply}"
        tail = stderr.rstrip().splitlines()[-_STDERR_LINES:]
        if tail:
            message += "\nadapter stderr (last lines):\n" + "\n".join(f"  {text}" for text in tail)
        super().__init__(message)


class RemoteError(Exception):
    """The adapter answered a request with a structured error."""

    def __init__(self, request: str, type: str, message: str) -> None:
        self.request = request
        self.type = type
        self.remote_message = message
        super().__init__(f"the adapter answered {request} with error {type!r}: {message}")


class RemoteInputError(RemoteError, ValueError):
    """The adapter refused the input (``invalid_input``), as a Python adapter raising ValueError would."""
