"""Contract tests with mutation verification for LLM agent adapters."""

from pathlib import Path

from harness.adapter import Kernel, LoadedAdapter, Memory, Messages, Request, Stream, Transport, load_adapter

__all__ = ["Kernel", "LoadedAdapter", "Memory", "Messages", "Request", "Stream", "Transport", "load_adapter"]
__version__ = "0.1.0"

# Where the contracts are: a path, so a module that runs or lists them never imports one.
CONTRACTS_DIR = Path(__file__).resolve().parent / "contracts"
