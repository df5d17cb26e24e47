"""Showrunner's commands that the CLI offers under nouns of its own, one module per family.

Each is a pure decision, `(state, input, roll) -> facts`, run by the ledger's one door
(`Ledger.run`) like any ruleset's check and actions.
"""

from __future__ import annotations

from ...ruleset import Action
from .actors import ACTORS
from .career import CAREERS
from .casting import CASTING
from .check import CHECKS
from .consequence import CONSEQUENCES
from .ensemble import ENSEMBLE
from .finale import FINALE
from .flashbacks import FLASHBACKS
from .influence import INFLUENCE
from .montage import MONTAGES
from .props import PROPS
from .relationships import RELATIONSHIPS
from .sequences import SEQUENCES
from .solorunner import SOLORUNNER
from .threats import THREATS
from .writers_room import WRITERS_ROOM
from .xp import XP_AND_LIMITS

COMMANDS: dict[str, Action] = {
    **CHECKS,
    **INFLUENCE,
    **CONSEQUENCES,
    **PROPS,
    **FLASHBACKS,
    **MONTAGES,
    **RELATIONSHIPS,
    **CAREERS,
    **XP_AND_LIMITS,
    **ENSEMBLE,
    **ACTORS,
    **THREATS,
    **SEQUENCES,
    **WRITERS_ROOM,
    **SOLORUNNER,
    **FINALE,
    **CASTING,
}
