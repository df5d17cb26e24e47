"""The rulesets a campaign can be played by. Adding one is one line in BUILT_IN.

A built-in ruleset is imported the first time it is asked for, so a command on a
Showrunner campaign never loads the d4 and d10 rules (nor they each other's).
"""

from __future__ import annotations

from importlib import import_module

from .errors import AlreadyExists, UnknownName
from .ruleset import Ruleset

BUILT_IN: dict[str, str] = {
    # name (stored in every campaign's pitch, and the prefix of its facts' topics): module:attribute
    "showrunner": ".showrunner.ruleset:SHOWRUNNER",
    "resonance": ".resonance.ruleset:RESONANCE",
    "pool": ".pool.ruleset:POOL_RULESET",
}

_REGISTERED: dict[str, Ruleset] = {}


def _load(name: str) -> Ruleset:
    module, attribute = BUILT_IN[name].split(":")
    loaded = getattr(import_module(module, __package__), attribute)
    assert isinstance(loaded, Ruleset) and loaded.name == name, f"BUILT_IN[{name!r}] names another ruleset"
    _REGISTERED[name] = loaded
    return loaded


def register(ruleset: Ruleset) -> None:
    """Make a ruleset known for this process (a plugin, or a test's own)."""
    known = _REGISTERED.get(ruleset.name) or (_load(ruleset.name) if ruleset.name in BUILT_IN else None)
    if known is not None and known is not ruleset:
        raise AlreadyExists(f"a ruleset named '{ruleset.name}' is already registered")
    _REGISTERED[ruleset.name] = ruleset


def unregister(name: str) -> None:
    if name in BUILT_IN:
        raise ValueError(f"'{name}' is built in and cannot be unregistered")
    _REGISTERED.pop(name, None)


def all_rulesets() -> list[Ruleset]:
    """Every ruleset, each with all of its facts loaded (so every topic is known)."""
    for name in BUILT_IN:
        if name not in _REGISTERED:
            _load(name)
    for loaded in _REGISTERED.values():
        loaded.load_facts()
    return sorted(_REGISTERED.values(), key=lambda r: (r.name != "showrunner", r.name))


def ruleset(name: str) -> Ruleset:
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in BUILT_IN:
        return _load(name)
    known = ", ".join(r.name for r in all_rulesets())
    raise UnknownName(f"unknown ruleset '{name}' (known: {known}; `showrunner ruleset list` describes them)")


def ruleset_of(state: object) -> Ruleset:
    """The ruleset a branch state is played by (Showrunner for a state with no pitch yet)."""
    pitch = getattr(state, "pitch", None)
    return ruleset(pitch.ruleset if pitch is not None else "showrunner")
