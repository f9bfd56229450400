"""Hypothesis strategies for streamed chat completions: envelopes as real servers write them.

The chunks themselves are built by :mod:`harness.wire.chunks` and framed by
:mod:`harness.wire.sse`; generated streams draw their envelope from
:data:`envelopes` instead of fixing it.
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.wire.chunks import Envelope

# Model names as servers report them in chunks: OpenAI's dated snapshots, DeepSeek's, and gateway ones.
MODELS = (
    "gpt-4o-mini-2024-07-18",
    "gpt-4.1-2025-04-14",
    "o4-mini-2025-04-16",
    "deepseek-chat",
    "deepseek-reasoner",
    "qwen3-32b",
    "llama3.1:8b",
    "gemini-2.5-flash",
    "mistral-small-latest",
)
_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

envelopes = st.builds(
    Envelope,
    id=st.one_of(
        st.text(_ID_ALPHABET, min_size=29, max_size=29).map("chatcmpl-".__add__),  # OpenAI
        st.uuids().map(str),  # DeepSeek
        st.uuids().map(lambda u: f"chatcmpl-{u.hex}"),  # vLLM
    ),
    model=st.sampled_from(MODELS),
    created=st.integers(min_value=1_600_000_000, max_value=2_000_000_000),
)
