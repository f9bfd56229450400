"""The reference for Google Gemini: stream decoder, serializer and request builder.

Each module keeps one rule of the format in one place, so a known bug is a
small patch on it; ``harness.reference.gemini_adapter`` puts them together.
"""
