"""The reference for OpenAI Responses: stream decoder, input serializer and request builder.

Each module keeps one rule of the format in one place, so a known bug is a
small patch on it; ``harness.reference.responses_adapter`` puts them together.
"""
