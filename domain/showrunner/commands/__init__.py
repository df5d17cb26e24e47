"""Showrunner's commands that the CLI offers under nouns of its own, one module per family.

Each is a pure decision, `(state, input, roll) -> facts`, run by the ledger's one door
(`Ledger.run`) like any ruleset's check and actions.
"""

from __future__ import annotations

from ...ruleset import Action
from .check import CHECKS
from .consequence import CONSEQUENCES
from .influence import INFLUENCE

COMMANDS: dict[str, Action] = {**CHECKS, **INFLUENCE, **CONSEQUENCES}
