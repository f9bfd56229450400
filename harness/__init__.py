"""Contract tests with mutation verification for LLM agent adapters."""

from harness.adapter import Kernel, LoadedAdapter, Memory, Messages, Request, Stream, Transport, load_adapter

__all__ = ["Kernel", "LoadedAdapter", "Memory", "Messages", "Request", "Stream", "Transport", "load_adapter"]
__version__ = "0.1.0"
