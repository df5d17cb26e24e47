"""`showrunner sequence`: Action Sequences and Set Pieces (Chapter 7): declare, play the Beats,
trade a Bond or Grudge for the whole Sequence, spend from the Combo Pool.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from .check_options import award_power
from .choices import difficulty
from .dice_flags import recording
from .errors import UsageProblem
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console
from .world_common import CheckOptions, check_flags, check_options, director_only, report, world_of

if TYPE_CHECKING:
    from ..domain.showrunner.influence import PoolName
    from ..domain.showrunner.sequences import Contribution, PayoutShare, Sequence
    from ..domain.showrunner.sheet import AbilityName

app = typer.Typer(
    help="Action Sequences and Set Pieces (Chapter 7).",
    epilog="Example: showrunner sequence declare 'Crack the vault' -d FORMIDABLE --beats 2 --from Mara:grit --against Vault",
    no_args_is_help=True,
)

POOLS: "tuple[PoolName, ...]" = ("grit", "retake", "spotlight", "plot_armor", "preparation")
OUTCOMES = ("highlight", "success", "partial", "failure", "disaster")


def _pool(flag: str, value: str) -> "PoolName":
    given = value.strip().lower().replace("-", "_").replace(" ", "_")
    for pool in POOLS:
        if pool == given:
            return pool
    raise UsageProblem(f"{flag}: '{value}' is not an Influence pool ({', '.join(POOLS)})")


def _contribution(value: str) -> "Contribution":
    from ..domain.showrunner.sequences import Contribution

    parts = [p.strip() for p in value.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise UsageProblem(f"--from takes STAR:POOL or STAR:POOL:N, like Mara:grit or Tobias:retake:2 (got '{value}')")
    amount = 1
    if len(parts) == 3:
        if not parts[2].isdigit() or int(parts[2]) < 1:
            raise UsageProblem(f"--from: '{parts[2]}' is not a positive amount")
        amount = int(parts[2])
    return Contribution(star=parts[0], pool=_pool("--from", parts[1]), amount=amount)


def _ability(flag: str, value: str) -> "AbilityName":
    from ..domain.showrunner.sheet import AbilityName

    try:
        return AbilityName(value.strip().lower())
    except ValueError:
        raise UsageProblem(f"{flag}: '{value}' is not an Ability ({', '.join(a.value for a in AbilityName)})") from None


def _share(value: str) -> "PayoutShare":
    from ..domain.showrunner.sequences import PayoutShare

    parts = [p.strip() for p in value.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise UsageProblem(
            f"--payout takes STAR:POOL[:N] or ensemble:POOL[:N], like Mara:grit:2 or ensemble:retake (got '{value}')"
        )
    amount = 1
    if len(parts) == 3:
        if not parts[2].isdigit() or int(parts[2]) < 1:
            raise UsageProblem(f"--payout: '{parts[2]}' is not a positive amount")
        amount = int(parts[2])
    star = None if parts[0].casefold() == "ensemble" else parts[0]
    return PayoutShare(star=star, pool=_pool("--payout", parts[1]), amount=amount)


@app.command("declare")
@writes
def declare(
    ctx: typer.Context,
    goal: Annotated[str, typer.Argument(help="The Sequence's goal, which also names it.")],
    level: Annotated[
        str, typer.Option("--difficulty", "-d", help="The task's Difficulty, HARD or higher (above EPIC: a Set Piece).")
    ],
    beats: Annotated[
        int,
        typer.Option("--beats", "-n", help="How many Beats, 2 to 5: each beyond the first lowers every Beat one step."),
    ],
    contribute: Annotated[
        list[str] | None,
        typer.Option(
            "--from",
            metavar="STAR:POOL[:N]",
            help="Influence a Star puts in the Starting Combo Pool (repeatable): 1 per Beat beyond the first in total.",
        ),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against", help="The Threat or Actor the Sequence works on (a Project is built, others cleared)."
        ),
    ] = None,
    decisive: Annotated[
        bool,
        typer.Option("--decisive", help="A Decisive Strike as a Sequence: the Climax destroys on a Success (12.1G)."),
    ] = False,
    climax_ability: Annotated[
        str | None,
        typer.Option(
            "--climax-ability",
            help="The Ability matching the Threat or objective: the Climax must be rolled with it (7.3A).",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Declare an Action Sequence: its goal, its Beats and its Starting Combo Pool (7.1).

    Example: showrunner sequence declare 'Crack the vault' -d FORMIDABLE --beats 2 --from Mara:grit --against Vault
    """
    from ..domain.showrunner.commands.sequences import SequenceDeclare

    chosen = difficulty("--difficulty", level)
    contributions = tuple(_contribution(v) for v in contribute or [])
    climax = _ability("--climax-ability", climax_ability) if climax_ability is not None else None
    s = session(ctx)
    director_only(s, "declares Action Sequences")
    ref = s.target()
    asked = SequenceDeclare(
        goal=goal,
        difficulty=chosen,
        beats=beats,
        contributions=contributions,
        against=against,
        decisive=decisive,
        climax_ability=climax,
    )
    result = s.ledger.run(ref, "sequence-declare", asked, by=s.recorded_by(ref))
    report(ref, result, as_json)


@app.command("beat")
@check_options
@writes
def beat(
    ctx: typer.Context,
    goal: Annotated[str, typer.Argument(help="The running Sequence's goal.")],
    star: Annotated[str | None, typer.Argument(help="The Star rolling the Beat's check.")] = None,
    ability: Annotated[str | None, typer.Argument(help="The Ability rolled.")] = None,
    outcome: Annotated[
        str | None, typer.Option("--outcome", help=f"Record a Beat rolled elsewhere: {', '.join(OUTCOMES)}.")
    ] = None,
    from_combo: Annotated[
        bool,
        typer.Option(
            "--from-combo",
            help="Pay the Beat's Influence spends from the Combo Pool, as from the Star's Profile (7.2).",
        ),
    ] = False,
    award: Annotated[
        str | None,
        typer.Option(
            "--award",
            metavar="artisan|luminary",
            help="An Award's power on this Beat, once per Episode: artisan, an automatic Success declared before "
            "the roll; luminary, a regular Success becomes a Highlight (11.2).",
        ),
    ] = None,
    payout: Annotated[
        list[str] | None,
        typer.Option(
            "--payout",
            metavar="STAR:POOL[:N]",
            help="With the Climax: the Cast's split of the Combo Pool (repeatable; ensemble:POOL[:N] for the "
            "Ensemble Pool). Dealt first as far as the pool holds; the rest goes to the contributors in turn.",
        ),
    ] = None,
    as_json: JsonOption = False,
    *,
    check: CheckOptions,
) -> None:
    """Play the next Beat: a check at the Beat's reduced Difficulty against the target's pips (the
    Climax: at least the number of Beats), and the progress it makes (7.1, 7.3). Takes the
    before-roll options of `check`. Influence the Beat's check gains (Hitting the Mark, a Perfect
    Take, a Quality Prop) enters the Combo Pool; --from-combo pays its spends from the Combo Pool.
    The Beat that ends the Sequence on a Partial or better pays the Combo Pool out: the Cast's
    --payout split first, the rest to the Stars who paid it in (Influence regained, overflowing
    to the Ensemble Pool); a Beat that calls for Consequences records them as due.

    Example: showrunner sequence beat 'Crack the vault' Mara fight -s Brawling --action 6,5,1,2 --opposition-dice 1,2,3 --script 2,3 --power 5

    Example: showrunner sequence beat 'Crack the vault' Mara fight --grit 1 --from-combo --payout Mara:retake --payout ensemble:grit

    Example: showrunner sequence beat 'Crack the vault' Mara fight --award artisan
    """
    from ..domain.showrunner.commands.sequences import SequenceBeat
    from ..domain.showrunner.events import InfluenceRegained
    from ..domain.showrunner.world_events import ComboPaidToEnsemble, ConsequencesDue, SequenceBeatPlayed

    shares = tuple(_share(v) for v in payout or [])
    request = None
    if outcome is not None:
        if star is not None or ability is not None:
            raise UsageProblem(
                "--outcome records a Beat rolled elsewhere by the goal alone "
                f"(showrunner sequence beat '{goal}' --outcome {outcome}): leave out the Star and the Ability"
            )
        if outcome.strip().lower() not in OUTCOMES:
            raise UsageProblem(f"--outcome: '{outcome}' is not an outcome ({', '.join(OUTCOMES)})")
        if check.given_for_a_roll() or from_combo or award is not None:
            given = [
                *check.given_for_a_roll(),
                *(["--from-combo"] if from_combo else []),
                *(["--award"] if award is not None else []),
            ]
            raise UsageProblem(f"--outcome records a Beat without a check: give no {', '.join(given)}")
    elif star is None or ability is None:
        raise UsageProblem("give the Star and the Ability rolling the Beat (or --outcome)")
    else:
        request = check.request(star, ability).model_copy(
            update={"from_combo": from_combo, "award": award_power(award)}
        )
    faces = check.faces()
    s = session(ctx)
    ref = s.target()
    if request is not None:
        name = s.ledger.view(ref).state.character(request.star).name
        s.check_acting_for(ref, name)
        request = request.model_copy(update={"star": name})
    else:
        director_only(s, "records a Beat without a check")
    asked = SequenceBeat(
        goal=goal, request=request, outcome=outcome.strip().lower() if outcome else None, payout=shares
    )
    result = recording(
        lambda: s.ledger.run(ref, "sequence-beat", asked, faces=faces or None, by=s.recorded_by(ref)),
        check_flags(),
    )
    facts = [e.fact for e in result.events]
    played = next(f for f in facts if isinstance(f, SequenceBeatPlayed))
    due = [f for f in facts if isinstance(f, ConsequencesDue)]
    regained = [f.regained for f in facts if isinstance(f, InfluenceRegained)]
    to_ensemble = [f for f in facts if isinstance(f, ComboPaidToEnsemble)]
    extra = {
        "consequences": played.recorded.consequences,
        "consequence_difficulty": played.recorded.consequence_difficulty.value,
        "everyone": played.recorded.everyone,
        "sequence_outcome": played.recorded.sequence.outcome,
        "payout": played.recorded.payout,
        "lost": played.recorded.lost,
        "paid_out": [r.model_dump(mode="json", exclude={"kind"}) for r in regained],
        "paid_to_ensemble": [{"pool": f.pool, "amount": f.amount, "kept": f.kept, "lost": f.lost} for f in to_ensemble],
        "consequences_due": [{"stars": list(d.who), "count": d.count, "difficulty": d.difficulty.value} for d in due],
    }
    report(ref, result, as_json, **extra)
    if as_json:
        return
    if played.recorded.payout and not regained and not to_ensemble:
        stdout_console().print(
            "The Combo Pool pays out to the participants or the Ensemble Pool: record it with `showrunner regain`.",
            highlight=False,
        )
    # Each line runs as printed: Grit Loss names the Ability its Plot Armor Scar goes under
    # (the one the Beat rolled), which the command needs once the loss reaches Plot Armor.
    rolled = request.ability.value if request is not None else "ABILITY"
    for d in due:
        count = f" --count {d.count}" if d.count > 1 else ""
        for who in d.who or ("STAR",):
            stdout_console().print(
                f"  showrunner consequence '{who}' grit-loss -d {d.difficulty.value} --ability {rolled}{count}",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
    if due:
        stdout_console().print(
            "  or another kind in place of grit-loss --ability …: conditions --ability ABILITY, "
            "depletion --prop TYPE, wear --hero-prop NAME, limit (`showrunner consequence --help`)",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


@app.command("trade")
@writes
def trade(
    ctx: typer.Context,
    goal: Annotated[str, typer.Argument(help="The running Sequence's goal.")],
    star: Annotated[str, typer.Argument(help="The Star trading the Bond or Grudge.")],
    relationship: Annotated[
        str, typer.Argument(metavar="bond:NAME|grudge:NAME", help="A Bond (to Aid) or a Grudge (to Harm).")
    ],
    acclaim: Annotated[
        str | None,
        typer.Option(
            "--acclaim", metavar="PATH", help="When the Trade completes the track: the Career Path for its 1 Acclaim."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Trade a Bond or Grudge for the whole Sequence (10.2A): the ◇ of the Sequence's ultimate
    Difficulty is exhausted once, and every Beat the Star performs in it from then on is rolled
    one step lower (EASY with Relationship Mastery). Progress and Consequences keep each Beat's
    own Difficulty. One such Trade per Star and Sequence.

    Example: showrunner sequence trade 'Crack the vault' Mara 'bond:Captain Ilse' --acclaim training
    """
    from ..domain.showrunner.commands.sequences import SequenceTradeAsked
    from .progress_common import path

    kind, sep, name = relationship.partition(":")
    kind = kind.strip().lower()
    if not sep or kind not in ("bond", "grudge") or not name.strip():
        raise UsageProblem(f"'{relationship}' is not bond:NAME or grudge:NAME")
    career = path("--acclaim", acclaim) if acclaim is not None else None
    s = session(ctx)
    ref = s.target()
    name_of_star = s.ledger.view(ref).state.character(star).name
    s.check_acting_for(ref, name_of_star)
    asked = SequenceTradeAsked(
        goal=goal,
        star=name_of_star,
        kind="bond" if kind == "bond" else "grudge",
        name=name.strip(),
        acclaim_path=career,
    )
    result = s.ledger.run(ref, "sequence-trade", asked, by=s.recorded_by(ref))
    report(ref, result, as_json)


@app.command("spend")
@writes
def spend(
    ctx: typer.Context,
    goal: Annotated[str, typer.Argument(help="The running Sequence's goal.")],
    pool: Annotated[str, typer.Argument(help=f"The Influence spent from the Combo Pool: {', '.join(POOLS)}.")],
    amount: Annotated[int, typer.Option("--amount", "-n", min=1, help="How many points.")] = 1,
    star: Annotated[str | None, typer.Option("--star", help="The participant spending it.")] = None,
    lowers_set_piece: Annotated[
        bool,
        typer.Option(
            "--on-set-piece",
            help="Spent to lower the Set Piece's own Difficulty (refused for Spotlight and Plot Armor: Blockbuster Limits, 7.4).",
        ),
    ] = False,
    reason: Annotated[str, typer.Option("--reason", help="What it was for, shown in the log.")] = "",
    as_json: JsonOption = False,
) -> None:
    """Spend Influence from a Sequence's Combo Pool as from a Profile (7.2).

    Example: showrunner sequence spend 'Crack the vault' grit --star Mara --reason '+1 Action Die'
    """
    from ..domain.showrunner.commands.sequences import ComboSpend

    chosen = _pool("POOL", pool)
    s = session(ctx)
    ref = s.target()
    if star is not None:
        s.check_acting_for(ref, star)
    else:
        director_only(s, "spends from the Combo Pool without naming the Star (--star)")
    asked = ComboSpend(
        goal=goal, pool=chosen, amount=amount, star=star, lowers_set_piece=lowers_set_piece, reason=reason
    )
    result = s.ledger.run(ref, "sequence-spend", asked, by=s.recorded_by(ref))
    report(ref, result, as_json)


def sequence_json(sequence: "Sequence") -> dict[str, Any]:
    return {
        **sequence.model_dump(mode="json"),
        "beat_difficulty": sequence.beat_difficulty.value,
        "set_piece": sequence.set_piece,
        "next_beat": sequence.next_beat,
        "at_climax": sequence.at_climax,
    }


@app.command("show")
def show(
    ctx: typer.Context,
    goal: Annotated[str | None, typer.Argument(help="A running Sequence's goal (default: every running one).")] = None,
    as_json: JsonOption = False,
) -> None:
    """The running Action Sequences: Beats played, the next Beat, the Combo Pool.

    Example: showrunner sequence show 'Crack the vault'
    """
    from rich.table import Table

    s = session(ctx)
    ref = s.target()
    w = world_of(s.ledger, ref)
    running = [w.sequence(goal)] if goal is not None else list(w.sequences.values())
    if as_json:
        print_json({"branch": ref.branch.name, "sequences": [sequence_json(q) for q in running]})
        return
    console = stdout_console()
    if not running:
        console.print("No Action Sequence is running.")
        return
    for q in running:
        kind = "Set Piece" if q.set_piece else "Action Sequence"
        table = Table(
            title=markup(
                f"{kind}: {q.goal} · {q.difficulty.value}" + (f" against {q.against}" if q.against else ""), lines=False
            )
        )
        table.add_column("Beat", justify="right")
        table.add_column("at")
        table.add_column("outcome")
        table.add_column("progress")
        for b in q.played:
            progress = (
                f"{b.progress.action} {b.progress.level.value if b.progress.level else ''}".strip()
                if b.progress
                else "—"
            )
            table.add_row(
                f"{b.number}{' (Climax)' if b.climax else ''}", b.difficulty.value, markup(b.outcome), progress
            )
        console.print(table)
        nxt = "the Climax" if q.at_climax else f"Setup Beat {q.next_beat}"
        pool = ", ".join(f"{n} {p}" for p, n in q.combo.items() if n) or "empty"
        console.print(f"Next: {nxt} of {q.beats} at {q.beat_difficulty.value} · Combo Pool: {pool}", highlight=False)
        for t in q.trades:
            lowered = "at EASY" if t.to_easy else "one step lower"
            console.print(
                markup(f"{t.star} traded the {t.label}: their Beats roll {lowered}", lines=False), highlight=False
            )
