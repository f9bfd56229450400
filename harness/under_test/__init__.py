"""Calling the adapter under test: the guard around every call, shape checks, fault locations."""
