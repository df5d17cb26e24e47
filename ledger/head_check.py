"""`verify`'s check of the heads a SQLite ledger keeps for `showrunner sheet` (ledger/heads.py).

The Director's `sheet` trusts a kept head whose version and hash are the branch's last event's,
so every row a read of the branch could take is checked: it must be the branch's own (a row
under the branch's names but another stream would show another branch's characters), and, where
it still names the head, hold exactly the branch's characters as the events make them.
"""

from __future__ import annotations

import json

from ..domain.rulesets import ruleset_of
from . import heads
from .integrity import Digest, Problem
from .persistence import SQLiteLedgerRecorder
from .service import BranchRef, Ledger

REPAIR = "`showrunner verify --drop-bad-snapshots` removes it"


def heads_problem(ledger: Ledger, ref: BranchRef, head: Digest) -> Problem | None:
    """The first kept head of this branch that differs from its events, or None."""
    recorder = _keeping(ledger)
    if recorder is None:
        return None
    branch_id = ref.branch.id.hex
    with recorder.datastore.transaction(commit=False) as cursor:
        kept = heads.kept_for(cursor, branch_id, ref.campaign.name, ref.branch.name)
        stored = heads.documents(cursor, branch_id) if kept else {}
    for row in kept:
        if row.branch_id != branch_id:
            return Problem(
                head.version,
                f"the kept head under the names of branch '{row.branch}' of '{row.campaign}' is another "
                f"branch's (it was changed outside the ledger); {REPAIR}",
            )
        if (row.campaign, row.branch) != (ref.campaign.name, ref.branch.name):
            return Problem(
                head.version,
                f"the kept head of branch '{ref.branch.name}' of '{ref.campaign.name}' is filed under branch "
                f"'{row.branch}' of '{row.campaign}' (the registry or the kept head was changed outside the "
                f"ledger); {REPAIR}",
            )
        if (row.version, row.hash) == (head.version, head.hash):
            return _characters_problem(ledger, ref, head, stored)
    return None


def _characters_problem(ledger: Ledger, ref: BranchRef, head: Digest, stored: dict[str, str]) -> Problem | None:
    state = ledger.view(ref).state
    rules = ruleset_of(state)
    roster = state.roster()
    for key in sorted(stored.keys() | roster.keys()):
        try:
            same = key in roster and key in stored and json.loads(stored[key]) == rules.character_document(roster[key])
        except (ValueError, RecursionError):
            same = False
        if not same:
            who = roster[key].name if key in roster else key
            return Problem(
                head.version,
                f"the kept sheet of {who} at #{head.version} does not match the events "
                f"(it was changed outside the ledger); {REPAIR}",
            )
    return None


def drop_bad_head(ledger: Ledger, ref: BranchRef, head: Digest) -> list[int]:
    """Delete the branch's kept heads if they fail the check; the versions they named."""
    recorder = _keeping(ledger)
    if recorder is None or heads_problem(ledger, ref, head) is None:
        return []
    with recorder.datastore.transaction(commit=True) as cursor:
        kept = heads.kept_for(cursor, ref.branch.id.hex, ref.campaign.name, ref.branch.name)
        heads.forget(cursor, [row.branch_id for row in kept])
    return [row.version for row in kept]


def _keeping(ledger: Ledger) -> SQLiteLedgerRecorder | None:
    recorder = ledger.app.recorder
    return recorder if isinstance(recorder, SQLiteLedgerRecorder) else None
