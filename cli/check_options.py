"""A check's options, declared once: for `check` and for every command that rolls a check
(`threat strike`, `sequence beat`, `bond`/`grudge` checks).

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import Annotated, Any

import typer

from .errors import UsageProblem

BEFORE = "Spends before the roll"
OPPOSE = "Opposition"

Specialty = Annotated[
    list[str] | None,
    typer.Option(
        "--specialty",
        "-s",
        metavar="NAME",
        help="An applicable Specialty under the Ability (repeatable): +1 Action Die per rank.",
    ),
]
Scar = Annotated[
    list[str] | None,
    typer.Option(
        "--scar",
        metavar="NAME",
        help="A triggered Scar under the Ability (repeatable): +1 Opposition Die per point of penalty.",
        rich_help_panel=OPPOSE,
    ),
]
Grit = Annotated[
    int, typer.Option("--grit", min=0, metavar="N", help="Grit spent: +1 Action Die each.", rich_help_panel=BEFORE)
]
Prop = Annotated[
    list[str] | None,
    typer.Option(
        "--prop",
        metavar="TYPE[:QUALITY]",
        help="A Prop spent, e.g. Weapons:HARD (repeatable): +1 Action Die each.",
        rich_help_panel=BEFORE,
    ),
]
Preparation = Annotated[
    int,
    typer.Option(
        "--preparation",
        min=0,
        metavar="N",
        help="Preparation spent as NORMAL Props: +1 Action Die each.",
        rich_help_panel=BEFORE,
    ),
]
PlotArmor = Annotated[
    bool,
    typer.Option(
        "--plot-armor",
        help="Spend 1 Plot Armor: the task becomes EASY (and leaves a Scar without Plot Armor Mastery).",
        rich_help_panel=BEFORE,
    ),
]
HeroProp = Annotated[
    str | None,
    typer.Option(
        "--hero-prop",
        metavar="NAME",
        help="Use a Hero Prop: 1 Wear, its bonus dice, and its Difficulty milestone.",
        rich_help_panel=BEFORE,
    ),
]
Keep = Annotated[
    str | None,
    typer.Option(
        "--keep",
        "-k",
        metavar="A,B",
        help="The two Result Dice to keep, among the dice left after blocking (0 for a missing die). Default: the best outcome, then the best mark, then the highest sum.",
    ),
]
Push = Annotated[
    bool, typer.Option("--push", help="Push Your Limits: pay any spend the pools cannot by exhausting icons.")
]


def award_power(value: "str | None") -> Any:
    """`--award`: the Award whose power acts in a check (`check`, `sequence beat`)."""
    if value is None:
        return None
    given = value.strip().lower()
    if given not in ("artisan", "luminary"):
        raise UsageProblem(
            f"--award: '{value}' is not an Award used in a check (artisan or luminary; the Icon's negates a "
            "Consequence: `consequence --icon`; the Method Actor's is a Flashback: `prop flashback --award`)"
        )
    return given
