"""The rulesets a campaign can be played by."""

from __future__ import annotations

from .errors import UnknownName

RULESETS = {"showrunner": "Showrunner: d6 Action, Opposition and Script dice"}


def check_ruleset(name: str) -> str:
    if name not in RULESETS:
        raise UnknownName(f"unknown ruleset '{name}' (known: {', '.join(sorted(RULESETS))})")
    return name
