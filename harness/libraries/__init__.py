"""Thin adapters around real client libraries, so the contracts can be run against them.

One module per library (``openai_sdk``, ``langchain_openai``, ``litellm_sdk`` for chat;
``anthropic_sdk``, ``langchain_anthropic``, ``litellm_anthropic`` for Anthropic Messages;
``openai_responses``, ``langchain_openai_responses``, ``openai_agents`` for OpenAI Responses;
``google_genai`` for Gemini; ``botocore_converse``, ``langchain_aws``, ``litellm_bedrock`` for
Bedrock Converse, over ``bedrock_runtime``'s in-memory boto3 client), each exposing ``adapter``. They are
optional: ``harness`` never imports them, and each needs its library installed (the ``openai``,
``langchain``, ``litellm``, ``anthropic``, ``langchain-anthropic``, ``openai-agents``, ``google-genai``,
``boto3`` and ``langchain-aws`` extras). Every HTTP call they make goes to an in-memory transport.
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

# The same for the adapters of the ``anthropic`` format (``POST {ANTHROPIC_URL}/v1/messages``).
ANTHROPIC_URL = "http://test.invalid"
ANTHROPIC_MODEL = "claude-test"
ANTHROPIC_MESSAGE = {
    "id": "msg_test",
    "type": "message",
    "role": "assistant",
    "model": ANTHROPIC_MODEL,
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}
