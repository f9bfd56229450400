"""One pytest session, two adapters: an in-process codec and a kernel behind the bridge.

    cd examples/two-adapters && python -m pytest
"""

import sys
from pathlib import Path

from harness.reference import adapter as reference
from harness.testing import AdapterContracts

KERNEL = Path(__file__).resolve().parents[2] / "bridge-kernel" / "kernel.py"


class StreamAndMessages:
    """A client library's adapter: it parses streams and serializes messages, nothing else."""

    name = "in-process codec"

    def parse_stream(self, body: bytes) -> dict:
        return reference.parse_stream(body)

    def serialize_message(self, message: dict) -> dict:
        return reference.serialize_message(message)


class TestInProcessCodec(AdapterContracts):
    adapter = StreamAndMessages()


class TestBridgeKernel(AdapterContracts):
    adapter_cmd = f"{sys.executable} {KERNEL}"
