"""How a character is found by name: standard library only, so that a reader that needs no rules
(ledger/heads.py) finds a name exactly as the rules do."""

from __future__ import annotations

import functools
from collections.abc import Iterable


@functools.lru_cache(maxsize=4096)  # a campaign has a few names, looked up on most events it folds
def name_key(name: str) -> str:
    """Characters are looked up by name without regard to case or surrounding spaces."""
    return " ".join(name.split()).casefold()


def matching_keys(keys: Iterable[str], name: str) -> list[str]:
    """The key that is `name`'s, or else every key `name` is the start of."""
    key = name_key(name)
    keys = list(keys)
    if key in keys:
        return [key]
    return [k for k in keys if key and k.startswith(key)]
