"""Known-bug mutation runner: re-apply each catalogued bug in an isolated copy and prove a contract catches it."""
