"""The rules of play: pure, no I/O. Standard library and pydantic only."""
