"""Thin adapters around real client libraries, so the contracts can be run against them.

One module per library (``openai_sdk``, ``langchain_openai``, ``litellm_sdk``),
each exposing ``adapter``. They are optional: ``harness`` never imports them,
and each needs its library installed (the ``openai``, ``langchain`` and
``litellm`` extras). Every HTTP call they make goes to an in-memory transport.
"""

# What every library adapter tells its client, and the reply a non-streaming request gets back.
BASE_URL = "http://test.invalid/v1"
MODEL = "test-model"
COMPLETION = {
    "id": "chatcmpl-test",
    "object": "chat.completion",
    "created": 0,
    "model": MODEL,
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
}
