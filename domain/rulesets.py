"""The rulesets a campaign can be played by. Adding one is one line in BUILT_IN."""

from __future__ import annotations

from .errors import AlreadyExists, UnknownName
from .ruleset import Ruleset
from .pool.ruleset import POOL_RULESET
from .resonance.ruleset import RESONANCE
from .showrunner.ruleset import SHOWRUNNER

BUILT_IN: tuple[Ruleset, ...] = (SHOWRUNNER, RESONANCE, POOL_RULESET)

_REGISTERED: dict[str, Ruleset] = {r.name: r for r in BUILT_IN}


def register(ruleset: Ruleset) -> None:
    """Make a ruleset known for this process (a plugin, or a test's own)."""
    if ruleset.name in _REGISTERED and _REGISTERED[ruleset.name] is not ruleset:
        raise AlreadyExists(f"a ruleset named '{ruleset.name}' is already registered")
    _REGISTERED[ruleset.name] = ruleset


def unregister(name: str) -> None:
    if any(r.name == name for r in BUILT_IN):
        raise ValueError(f"'{name}' is built in and cannot be unregistered")
    _REGISTERED.pop(name, None)


def all_rulesets() -> list[Ruleset]:
    return sorted(_REGISTERED.values(), key=lambda r: (r.name != "showrunner", r.name))


def ruleset(name: str) -> Ruleset:
    try:
        return _REGISTERED[name]
    except KeyError:
        known = ", ".join(r.name for r in all_rulesets())
        raise UnknownName(f"unknown ruleset '{name}' (known: {known}; `showrunner ruleset list` describes them)") from None


def ruleset_of(state: object) -> Ruleset:
    """The ruleset a branch state is played by (Showrunner for a state with no pitch yet)."""
    pitch = getattr(state, "pitch", None)
    return ruleset(pitch.ruleset if pitch is not None else "showrunner")
