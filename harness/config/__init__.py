"""Configuration the harness reads: the shared table schema, pyproject tables, Hypothesis profiles."""
