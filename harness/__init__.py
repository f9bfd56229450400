"""Contract tests with mutation verification for LLM agent adapters."""

from harness.adapter import Codec, Kernel, LoadedAdapter, load_adapter

__all__ = ["Codec", "Kernel", "LoadedAdapter", "load_adapter"]
__version__ = "0.1.0"
