"""The harness's own wire: chunks and SSE bodies as a chat-completions server writes them, and their reader."""
