"""`showrunner ensemble`: the Ensemble (Section 10.3): the shared Influence pool (spent with
proximity and consent recorded), the Ensemble Backpack, Holdings, Ensemble XP and Levels.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import choices
from .choices import prop
from .options import JsonOption, writes
from .progress_common import Count, Reason, StarArg, ensemble_of, pool, record, recording

if TYPE_CHECKING:
    from ..domain.showrunner.state import EnsemblePool

app = typer.Typer(
    help="The Ensemble (10.3): the shared pool, the Ensemble Backpack, Holdings, Ensemble XP and Levels.",
    epilog="Example: showrunner ensemble spend Mara grit --present Tobias --consent Tobias",
    no_args_is_help=True,
)
PropArg = Annotated[
    str, typer.Argument(metavar="TYPE[:QUALITY]", help="A Prop Type and its Quality, e.g. Materials:HARD.")
]
POOL_NAMES = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def ensemble_json(pool: "EnsemblePool") -> dict[str, Any]:
    from ..domain.showrunner import ensemble as rules

    return {
        "pool": {name: {"current": getattr(pool, name), "max": getattr(pool, f"{name}_max")} for name in POOL_NAMES},
        "xp": pool.xp,
        "xp_per_level": rules.ENSEMBLE_XP_PER_LEVEL,
        "level": pool.level,
        "max_level": rules.MAX_ENSEMBLE_LEVEL,
        "benefits": list(pool.benefits),
        "backpack": [p.model_dump(mode="json") for p in pool.backpack],
        "backpack_slots": rules.ensemble_backpack_slots(pool),
        "holdings": [
            {**h.model_dump(mode="json"), "wear": h.wear, "wear_capacity": h.wear_capacity} for h in pool.holdings
        ],
        "holding_slots": rules.holding_slots(pool),
        "montage_episode": pool.montage_episode,
        "montage": pool.montage.model_dump(mode="json") if pool.montage is not None else None,
        "xp_episode": pool.xp_episode,
    }


@app.command("show")
def show(
    ctx: typer.Context,
    at: Annotated[int | None, typer.Option("--at", min=1, help="As of event N.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The Ensemble Sheet: the shared pool, Level and XP, Benefits, Backpack, Holdings and the Montage.

    Example: showrunner ensemble show --json
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from .render_sheet import INFLUENCE_SYMBOLS, _track
    from .session import print_json, stdout_console

    s, ref, _ = recording(ctx)
    pool = ensemble_of(s.ledger, ref, at)
    doc = ensemble_json(pool)
    if as_json:
        print_json({"branch": ref.branch.name, "ensemble": doc})
        return
    table = Table(
        title=f"Ensemble · {ref.branch.name} · Level {pool.level} ({pool.xp}/{doc['xp_per_level']} XP)",
        box=box.SIMPLE_HEAD,
        show_header=False,
    )
    for name, (label, symbol, style) in INFLUENCE_SYMBOLS.items():
        current, most = doc["pool"][name]["current"], doc["pool"][name]["max"]
        table.add_row(f"{symbol} {label}", _track(min(current, most), most, symbol, style), f"{current}/{most}")
    table.add_row("Benefits", Text(", ".join(pool.benefits) or "none"), "")
    table.add_row(
        "Backpack",
        Text(", ".join(f"{p.count} {p.quality.value} {p.type.value}" for p in pool.backpack) or "empty"),
        f"{len({p.type for p in pool.backpack})}/{doc['backpack_slots']} slots",
    )
    table.add_row(
        "Holdings",
        Text(
            ", ".join(
                f"{h.name} ({h.quality.value}{', ' + h.kind if h.kind else ''}"
                f"{f', {h.wear}/{h.wear_capacity} Wear' if h.wear else ''})"
                for h in pool.holdings
            )
            or "none"
        ),
        f"{len(pool.holdings)}/{doc['holding_slots']} slots",
    )
    montage = (
        f"running: {len(pool.montage.scenes)} scene(s) in Episode {pool.montage.episode}"
        if pool.montage is not None
        else (f"shot in Episode {pool.montage_episode}" if pool.montage_episode else "none yet")
    )
    table.add_row("Montage", montage, "")
    stdout_console().print(table)


@app.command("spend")
@writes
def spend(
    ctx: typer.Context,
    star: StarArg,
    which: Annotated[str, typer.Argument(metavar="POOL", help="grit, retake, spotlight, plot_armor or preparation.")],
    amount: Annotated[int, typer.Option("--amount", "-n", min=1, help="How many points.")] = 1,
    present: Annotated[
        list[str] | None,
        typer.Option(
            "--present",
            metavar="STAR",
            help="A Cast member the Star is with (repeatable): at least half of the others.",
        ),
    ] = None,
    consent: Annotated[
        list[str] | None,
        typer.Option(
            "--consent",
            metavar="STAR",
            help="A Cast member who agrees (repeatable; the spender may be one): at least half the Cast.",
        ),
    ] = None,
    reason: Reason = "",
    as_json: JsonOption = False,
) -> None:
    """Spend shared Influence from the Ensemble Pool, with proximity and consent recorded.

    Example: showrunner ensemble spend Mara grit --present Tobias --consent Tobias --consent Mara
    """
    from ..domain.showrunner.commands.ensemble import EnsembleSpend

    chosen = pool("POOL", which)
    s, ref, by = recording(ctx, star)
    spent = EnsembleSpend(
        star=star,
        pool=chosen,
        amount=amount,
        present_with=tuple(present or ()),
        consent=tuple(consent or ()),
        reason=reason,
    )
    record(ref, lambda: s.ledger.run(ref, "ensemble-spend", spent, by=by), as_json)


@app.command("stock")
@writes
def stock(ctx: typer.Context, star: StarArg, what: PropArg, count: Count = 1, as_json: JsonOption = False) -> None:
    """Put Props in the Ensemble Backpack (any time during an Episode).

    Example: showrunner ensemble stock Tobias Materials -n 2
    """
    from ..domain.showrunner.commands.props import Props

    kind, quality = prop("TYPE", what)
    s, ref, by = recording(ctx, star)
    stocked = Props(star=star, type=kind, quality=quality, count=count)
    record(ref, lambda: s.ledger.run(ref, "ensemble-stock", stocked, by=by), as_json)


@app.command("take")
@writes
def take(ctx: typer.Context, star: StarArg, what: PropArg, count: Count = 1, as_json: JsonOption = False) -> None:
    """Take Props out of the Ensemble Backpack: only during a Montage Sequence.

    Example: showrunner ensemble take Mara Materials
    """
    from ..domain.showrunner.commands.props import Props

    kind, quality = prop("TYPE", what)
    s, ref, by = recording(ctx, star)
    taken = Props(star=star, type=kind, quality=quality, count=count)
    record(ref, lambda: s.ledger.run(ref, "ensemble-take", taken, by=by), as_json)


@app.command("holding")
@writes
def holding(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Holding: a Home Base, a ship, a workshop, a community.")],
    quality: Annotated[
        str, typer.Option("--quality", "-q", help="Its Quality: NORMAL, HARD, FORMIDABLE or EPIC.")
    ] = "NORMAL",
    kind: Annotated[str | None, typer.Option("--kind", help="What it is, e.g. 'Home Base'.")] = None,
    reason: Reason = "",
    as_json: JsonOption = False,
) -> None:
    """A Holding fills an empty Holding Slot (a Shop Montage buys one with 5 Money itself).

    Example: showrunner ensemble holding 'The Drowned Lighthouse' --kind 'Home Base'
    """
    from ..domain.showrunner.commands.ensemble import NewHolding
    from ..domain.showrunner.sheet import Holding

    held = Holding(name=name, quality=choices.quality("--quality", quality), kind=kind)
    s, ref, by = recording(ctx)
    acquired = NewHolding(holding=held, reason=reason)
    record(ref, lambda: s.ledger.run(ref, "ensemble-holding", acquired, by=by), as_json)


@app.command("xp")
@writes
def xp(
    ctx: typer.Context,
    entertaining: Annotated[
        bool,
        typer.Option(
            "--entertaining/--not-entertaining", help="Did the Cast work together to make the Show entertaining?"
        ),
    ],
    premise: Annotated[
        bool, typer.Option("--premise/--no-premise", help="Did the Cast actively pursue the Show's Premise(s)?")
    ],
    benefit: Annotated[
        list[str] | None,
        typer.Option("--benefit", metavar="NAME", help="The Ensemble Benefit unlocked at each new Level (repeatable)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """At the end of an Episode: 1 Ensemble XP per Yes (once per Episode); a new Level unlocks a
    Benefit, a Backpack slot and, at even Levels, a Holding Slot.

    Example: showrunner ensemble xp --entertaining --premise --benefit 'Shared Spotlight'
    """
    from ..domain.showrunner.commands.ensemble import EpisodeEnd

    s, ref, by = recording(ctx)
    answers = EpisodeEnd(entertaining=entertaining, premise=premise, benefits=tuple(benefit or ()))
    record(ref, lambda: s.ledger.run(ref, "ensemble-xp", answers, by=by), as_json)
