"""The reference for AWS Bedrock Converse: event-stream reader, stream decoder, serializer and request builder.

Each module keeps one rule of the format in one place, so a known bug is a
small patch on it; ``harness.reference.bedrock_adapter`` puts them together.
"""
