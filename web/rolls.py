"""Any roll's card: `GET /api/v1/audit/{roll}` (what `showrunner audit ROLL --json` prints for the
same identity) and the page `/roll/{roll}` (the check, the dice, the re-judgement, how the dice
were derived and, once the seed is revealed, their proof). The log page links every roll to it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Request
from fastapi.responses import HTMLResponse, Response

from ..domain.events import RolledFact, fact_class
from ..ledger.identities import Identity
from ..projections.audit import audit_document, audit_report, proof_lines, readable_audit
from .access import Gate
from .pages import templates
from .table import Table
from .who import Caller

API = "/api/v1"
Roll = Annotated[int, Path(ge=1, description="The roll's event number on the served branch.")]


def is_roll(topic: str) -> bool:
    """Whether the log's event of this topic is a roll, so it has a card."""
    try:
        return issubclass(fact_class(topic), RolledFact)
    except KeyError:
        return False


def add_rolls(app: FastAPI, table: Table, gate: Gate) -> None:
    templates.env.globals["is_roll"] = is_roll

    def report(who: Identity, roll: int, *, verify_dice: bool) -> dict[str, Any]:
        with table.turn():
            ref = table.ref(who)
            found = readable_audit(table.ledger, ref, roll, director=who.is_director)
            return audit_report(ref, found, verify_dice=verify_dice)

    @app.get(f"{API}/audit/{{roll}}", tags=["read"])
    def audit(who: Caller, roll: Roll, verify_dice: bool = False) -> dict[str, Any]:
        """`showrunner audit ROLL --json`: the roll re-judged and its dice proven once the seed is
        revealed; a Star audits only public rolls. A failed audit is `ok: false`, not an error."""
        return report(who, roll, verify_dice=verify_dice)

    @app.get("/roll/{roll}", response_class=HTMLResponse, include_in_schema=False)
    def card(request: Request, who: Caller, roll: Roll) -> Response:
        with table.turn():
            ref = table.ref(who)
            found = readable_audit(table.ledger, ref, roll, director=who.is_director)
            document = audit_document(found)
            mismatches = proof_lines(found)
            campaign = table.me(who)
        return templates.TemplateResponse(
            request,
            "roll.html",
            {
                "who": who,
                "csrf": gate.csrf_token(who),
                "campaign": campaign,
                "roll": document,
                "mismatches": mismatches,
            },
        )
