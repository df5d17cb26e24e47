"""`showrunner cast`: the Supporting Cast Roster at a glance, each Actor's pips, Bonds and Grudges.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import Annotated

import typer

from .options import JsonOption
from .safe_text import markup
from .session import print_json, session, stdout_console
from .world_common import stars_view, world_of


def cast(
    ctx: typer.Context,
    at: Annotated[int | None, typer.Option("--at", min=1, help="As of event N.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The Supporting Cast Roster, each Actor's Power Dice, Bonds and Grudges, and the Threats in play.

    The roster's d100 slots are filled, Unlocked or written off. A Star never sees a Subplot in stasis.

    Example: showrunner cast --json
    """
    from rich.table import Table

    from .actor import actor_json, ties_text
    from .threat import threat_json

    s = session(ctx)
    ref = s.target()
    view_at = s.ledger.view(ref, at).version if at is not None else None
    w = stars_view(world_of(s.ledger, ref, at), s.is_director)
    slots = [{"slot": n, "state": w.slot_state(n), "actor": held} for n, held in w.roster.slots.items()]
    off_roster = [a for a in w.actors.values() if w.roster.slot_of(a.name) is None]
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "as_of": view_at,
                "roster": slots,
                "actors": [actor_json(a, w.roster.slot_of(a.name)) for a in w.actors.values()],
                "threats": [threat_json(t) for t in w.threats.values()],
                "subplots": [{"number": p.number, "plotter": p.plotter, "status": p.status} for p in w.subplots],
                "sequences": [q.goal for q in w.sequences.values()],
            }
        )
        return
    table = Table(title=f"Supporting Cast Roster · {ref.branch.name}" + (f" as of #{at}" if at else ""))
    for column in ("slot", "state", "Actor", "Power Dice", "Bonds", "Grudges"):
        table.add_column(column)
    for row in slots:
        actor = w.actor(row["actor"]) if row["actor"] else None
        table.add_row(
            str(row["slot"]),
            row["state"].replace("_", " "),
            markup(actor.name, lines=False) if actor else "—",
            actor.power.describe() if actor else "",
            markup(ties_text(actor.bonds)) if actor else "",
            markup(ties_text(actor.grudges)) if actor else "",
        )
    for actor in off_roster:
        table.add_row(
            "—",
            "off roster",
            markup(actor.name, lines=False),
            actor.power.describe(),
            markup(ties_text(actor.bonds)),
            markup(ties_text(actor.grudges)),
        )
    console = stdout_console()
    console.print(table)
    if w.threats:
        threats = Table(title="Threats")
        for column in ("name", "kind", "Power Dice", "status"):
            threats.add_column(column)
        for t in w.threats.values():
            threats.add_row(markup(t.name, lines=False), t.kind, t.power.describe(), t.status)
        console.print(threats)


def register(root: typer.Typer) -> None:
    root.command("cast")(cast)
