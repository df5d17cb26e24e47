"""`showrunner prop`: Props, the Backpack and the hands, Trinkets, Preparation and Flashbacks,
random Props (Chapter 8.1, Appendix E). A Prop spent for Action Dice is `check --prop`.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import Annotated, Any, TypeAlias

import typer

from .choices import prop
from .dice_flags import faces_option, parse_faces
from .options import JsonOption, writes
from .progress_common import Count, Reason, StarArg, prop_type, record, recording

app = typer.Typer(
    help="Props, the Backpack and the hands, Trinkets, Preparation and Flashbacks, random Props (8.1, Appendix E).",
    epilog="Example: showrunner prop gain Mara Goods -n 2",
    no_args_is_help=True,
)
PropArg = Annotated[
    str,
    typer.Argument(
        metavar="TYPE[:QUALITY]", help="A Prop Type and its Quality, e.g. Weapons:HARD (NORMAL when left out)."
    ),
]
FLASHBACKS = ("retroactive_planning", "environmental_preparation", "resource_trade", "montage_action")

TypeDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--type-die", "The d10 on the random Prop table (Appendix E A).")
]
SubtypeDice: TypeAlias = Annotated[
    list[str] | None, faces_option("--subtype-die", "The d10s on its sub-table, in order.")
]
SettingDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--setting-die", "The d10 choosing a Setting-Specific Prop.")
]
QualityDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--quality-die", "The d10 on the Quality table (Appendix E B).")
]


@app.command("gain")
@writes
def gain(
    ctx: typer.Context,
    star: StarArg,
    what: PropArg,
    count: Count = 1,
    leave_behind: Annotated[
        bool, typer.Option("--leave-behind", help="Leave behind what cannot be carried, instead of refusing.")
    ] = False,
    reason: Reason = "",
    as_json: JsonOption = False,
) -> None:
    """Props found, bought or given: into the Backpack while a slot has room, then in hand (two hands).

    Example: showrunner prop gain Mara Goods -n 2
    """
    from ..domain.showrunner.commands.props import GainedProps

    kind, quality = prop("TYPE", what)
    s, ref, by = recording(ctx, star)
    gained = GainedProps(star=star, type=kind, quality=quality, count=count, leave_behind=leave_behind, reason=reason)
    record(ref, lambda: s.ledger.run(ref, "prop-gain", gained, by=by), as_json)


@app.command("spend")
@writes
def spend(
    ctx: typer.Context, star: StarArg, what: PropArg, count: Count = 1, reason: Reason = "", as_json: JsonOption = False
) -> None:
    """Props spent, given away or dropped: those in hand first, then the Backpack.

    Example: showrunner prop spend Mara Goods --reason "a bribe"
    """
    from ..domain.showrunner.commands.props import SpentProps

    kind, quality = prop("TYPE", what)
    s, ref, by = recording(ctx, star)
    spent = SpentProps(star=star, type=kind, quality=quality, count=count, reason=reason)
    record(ref, lambda: s.ledger.run(ref, "prop-spend", spent, by=by), as_json)


@app.command("pack")
@writes
def pack(ctx: typer.Context, star: StarArg, what: PropArg, count: Count = 1, as_json: JsonOption = False) -> None:
    """Props moved from the hands into the Backpack, once a slot has room.

    Example: showrunner prop pack Mara Rations
    """
    from ..domain.showrunner.commands.props import Props

    kind, quality = prop("TYPE", what)
    s, ref, by = recording(ctx, star)
    packed = Props(star=star, type=kind, quality=quality, count=count)
    record(ref, lambda: s.ledger.run(ref, "prop-pack", packed, by=by), as_json)


@app.command("trinket")
@writes
def trinket(
    ctx: typer.Context,
    star: StarArg,
    name: Annotated[str, typer.Argument(help="The Trinket.")],
    remove: Annotated[bool, typer.Option("--remove", help="Remove the Trinket instead of keeping it.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Keep a Trinket in a free Trinket Slot (3, and 3 more per Utility Bundle), or remove one.

    Example: showrunner prop trinket Mara "A brass key"
    """
    from ..domain.showrunner.commands.props import Trinket

    s, ref, by = recording(ctx, star)
    kept = Trinket(star=star, trinket=name, remove=remove)
    record(ref, lambda: s.ledger.run(ref, "prop-trinket", kept, by=by), as_json)


Bonus = Annotated[
    str | None,
    typer.Option(
        "--bonus",
        metavar="TYPE",
        help="Mastered Preparation: the Type of the free NORMAL Prop (it must fit in the Backpack).",
    ),
]
PushOpt = Annotated[bool, typer.Option("--push", help="Push Your Limits: pay the Preparation by exhausting an icon.")]


@app.command("prepare")
@writes
def prepare(
    ctx: typer.Context,
    star: StarArg,
    kind: Annotated[str, typer.Argument(metavar="TYPE", help="The NORMAL Prop produced on-screen, e.g. Rations.")],
    bonus: Bonus = None,
    push: PushOpt = False,
    as_json: JsonOption = False,
) -> None:
    """Spend 1 Preparation to produce a NORMAL Prop of any Type on-screen (8.1E).

    Example: showrunner prop prepare Mara Rations
    """
    from ..domain.showrunner.commands.props import Preparation

    made = prop_type("TYPE", kind)
    extra = prop_type("--bonus", bonus) if bonus is not None else None
    s, ref, by = recording(ctx, star)
    spent = Preparation(star=star, prop_type=made, bonus_type=extra, push=push)
    record(ref, lambda: s.ledger.run(ref, "prop-prepare", spent, by=by), as_json)


@app.command("flashback")
@writes
def flashback(
    ctx: typer.Context,
    star: StarArg,
    action: Annotated[str, typer.Argument(help="The Flashback: " + ", ".join(FLASHBACKS) + ".")],
    award: Annotated[
        bool,
        typer.Option("--award", help="Paid by the Method Actor's Award (once per Episode) instead of Preparation."),
    ] = False,
    bonus: Bonus = None,
    push: PushOpt = False,
    with_star: Annotated[
        str | None,
        typer.Option("--with", metavar="STAR", help="resource_trade: the other Star the Props are exchanged with."),
    ] = None,
    give: Annotated[
        list[str] | None,
        typer.Option(
            "--give", metavar="TYPE[:QUALITY]", help="resource_trade: one Prop handed to the other Star (repeatable)."
        ),
    ] = None,
    take: Annotated[
        list[str] | None,
        typer.Option(
            "--take", metavar="TYPE[:QUALITY]", help="resource_trade: one Prop taken from the other Star (repeatable)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Spend 1 Preparation (or the Method Actor's Award) to pause the Scene for a Flashback (8.1E).

    A resource_trade with --with records the exchange: each --give leaves the Star for the
    other, each --take comes back. A Flashback that performs a Montage Action is
    `showrunner montage flashback`.

    Example: showrunner prop flashback Mara retroactive_planning

    Example: showrunner prop flashback Mara resource_trade --with Tobias --give Medicine --take Materials --take Materials
    """
    from ..domain.showrunner.commands.props import Flashback
    from ..domain.showrunner.vocabulary import FlashbackAction
    from .errors import UsageProblem

    try:
        chosen = FlashbackAction(action.strip().lower().replace("-", "_").replace(" ", "_"))
    except ValueError:
        raise UsageProblem(f"'{action}' is not a Flashback ({', '.join(FLASHBACKS)})") from None
    extra = prop_type("--bonus", bonus) if bonus is not None else None
    trading = with_star is not None or bool(give) or bool(take)
    if trading and chosen is not FlashbackAction.RESOURCE_TRADE:
        raise UsageProblem(f"--with, --give and --take belong to a resource_trade, not a {chosen.value}")
    if trading:
        from ..domain.showrunner.commands.flashbacks import FlashbackTrade

        if with_star is None:
            raise UsageProblem("a resource_trade with Props names the other Star: --with STAR")

        traded = FlashbackTrade(
            star=star,
            with_star=with_star,
            give=_moved("--give", give or []),
            take=_moved("--take", take or []),
            bonus_type=extra,
            award=award,
            push=push,
        )
        s, ref, by = recording(ctx, star)
        record(ref, lambda: s.ledger.run(ref, "flashback-trade", traded, by=by), as_json)
        return
    s, ref, by = recording(ctx, star)
    cut = Flashback(star=star, flashback=chosen, bonus_type=extra, award=award, push=push)
    record(ref, lambda: s.ledger.run(ref, "prop-flashback", cut, by=by), as_json)


def _moved(flag: str, values: list[str]) -> Any:
    """Repeated TYPE[:QUALITY] flags, one Prop each, counted by Type and Quality in the order named."""
    from ..domain.showrunner.commands.flashbacks import PropsMoved

    counted: dict[tuple[Any, Any], int] = {}
    for value in values:
        key = prop(flag, value)
        counted[key] = counted.get(key, 0) + 1
    return tuple(PropsMoved(type=kind, quality=level, count=n) for (kind, level), n in counted.items())


RANDOM_FLAGS = {
    "prop_type": "--type-die",
    "prop_subtype": "--subtype-die",
    "prop_setting": "--setting-die",
    "prop_quality": "--quality-die",
}


@app.command("random")
@writes
def random(
    ctx: typer.Context,
    star: StarArg,
    kind: Annotated[
        str | None, typer.Option("--type", metavar="TYPE", help="The Prop's Type is known: roll only its Quality.")
    ] = None,
    count: Count = 1,
    type_die: TypeDie = None,
    subtype_die: SubtypeDice = None,
    setting_die: SettingDie = None,
    quality_die: QualityDie = None,
    as_json: JsonOption = False,
) -> None:
    """A random Prop (Appendix E): its Type, then its Quality; what cannot be carried is left behind.

    Example: showrunner prop random Tobias --type-die 2 --quality-die 5
    """
    from ..domain.showrunner.commands.props import RandomProp

    known = prop_type("--type", kind) if kind is not None else None
    faces = parse_faces(
        {
            "prop_type": ("--type-die", type_die, 10),
            "prop_subtype": ("--subtype-die", subtype_die, 10),
            "prop_setting": ("--setting-die", setting_die, 10),
            "prop_quality": ("--quality-die", quality_die, 10),
        }
    )
    s, ref, by = recording(ctx, star)
    found = RandomProp(star=star, type=known, count=count)
    record(ref, lambda: s.ledger.run(ref, "prop-random", found, faces=faces or None, by=by), as_json, RANDOM_FLAGS)
