"""The reference for Anthropic Messages: stream decoder, serializer, request, kernel and memory.

Each module keeps one rule of the format in one place, so a known bug is a
small patch on it; ``harness.reference.anthropic_adapter`` puts them together.
"""
