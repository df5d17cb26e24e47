"""`showrunner check`: roll an Ability Check (Chapters 5 and 6) and record it.

Dice come from the ledger (derived from the campaign's committed seed, provable once it
is revealed) unless faces are typed in from physical dice: one face flag makes every die
of the check a table die. At a terminal, with no faces, no --keep and no after-roll
spend given, the Star is asked after the roll what to do: Retake, Spotlight, a Grit
duplicate, or which pair to keep. Walking away then (Ctrl-C) still records the roll.

No `from __future__ import annotations` here: typer would evaluate the ~45 option
annotations as strings each time the command tree is built (every invocation of
`showrunner`), which cost about 30 ms; as objects they cost almost nothing.
"""

import re
import sys
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

import typer

from . import choices, completion
from .check_options import (
    BEFORE,
    OPPOSE,
    Grit,
    HeroProp,
    Keep,
    PlotArmor,
    Preparation,
    Prop,
    Push,
    Scar,
    Specialty,
    award_power,
)
from .dice_flags import CHECK_FACES, faces_option, keep_pair, read_faces, with_flags
from .errors import ExitCode, Refused, UsageProblem
from .options import JsonOption, writes
from .session import print_json, session, stdout_console

if TYPE_CHECKING:
    from rich.console import Console

    from ..domain.campaign import CampaignState
    from ..domain.showrunner.check import AfterRoll, CheckRequest, View
    from ..domain.showrunner.world_events import ThreatChecked
    from ..ledger.service import BranchRef, CommandResult

TABLE = "Table dice (typed in from physical dice; any one makes every die a table die)"
ANY = ("any", "-", "")
"""`--spotlight any` (or `--spotlight=`): let the default policy pick which Opposition Dice to clear."""


def _abilities(ctx: typer.Context, incomplete: str) -> list[str]:
    return [a for a in choices.ABILITY_NAMES if a.startswith(incomplete.casefold())]


def _difficulties(ctx: typer.Context, incomplete: str) -> list[str]:
    return [d.value for d in choices.CHECKED if d.value.startswith(incomplete.upper())]


ActionFaces: TypeAlias = Annotated[list[str] | None, faces_option("--action", "The Action Dice, e.g. 1,4,5.", TABLE)]
OppositionFaces: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--opposition-dice", "The Opposition Dice, e.g. 1,5 (how many: --opposition and the rest).", TABLE),
]
ScriptFaces: TypeAlias = Annotated[list[str] | None, faces_option("--script", "The two Script Dice, e.g. 4,2.", TABLE)]
ActorSpecialtyDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--actor-specialty-die", "The d6 of --actor-specialty.", TABLE)
]
ActorScarDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--actor-scar-die", "The d6 of --actor-scar.", TABLE)
]
StudioNoteDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--studio-note-die", "The d6 of --studio-note.", TABLE)
]
RetakeDice: TypeAlias = Annotated[
    list[str] | None, faces_option("--retake-dice", "The new faces of every Action re-roll, in order.", TABLE)
]
OppositionRetakeDice: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--opposition-retake-dice", "The new faces of every Opposition re-roll, in order.", TABLE),
]
SpotlightDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--spotlight-die", "The d6 of each --spotlight, in order.", TABLE)
]
AnomalyDie: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--anomaly", "The d100 Anomaly rolls of a Channel check that Hits the Mark.", TABLE),
]
ScarSlotDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--scar-slot", "The d10 slot rolls of the Plot Armor Scar, in order.", TABLE)
]
GritDice: TypeAlias = Annotated[
    list[str] | None, faces_option("--grit-dice", "The extra Action Dice of --grit-after, in order.", TABLE)
]
PowerDie: TypeAlias = Annotated[
    list[str] | None,
    faces_option(
        "--power",
        "With --against a Threat or Actor: the d6s its Power Dice re-roll (a cleared die's reset, a carry), in order.",
        TABLE,
    ),
]
SPENDS = "Spends after the roll (applied in this order: Grit, duplicates, retakes, opposition retakes, spotlights)"


@writes
def check(
    ctx: typer.Context,
    star: Annotated[
        str, typer.Argument(help="The Star rolling (or the start of the name).", autocompletion=completion.stars)
    ],
    ability: Annotated[
        str, typer.Argument(help="The Ability rolled: " + choices.ABILITIES + ".", autocompletion=_abilities)
    ],
    difficulty: Annotated[
        str,
        typer.Option(
            "--difficulty",
            "-d",
            help="The check's Difficulty, by name or letter: "
            + ", ".join(f"{d.value}/{d.letter}" for d in choices.CHECKED)
            + ".",
            autocompletion=_difficulties,
        ),
    ],
    specialty: Specialty = None,
    scar: Scar = None,
    opposition: Annotated[
        int | None,
        typer.Option(
            "--opposition",
            "-o",
            min=0,
            help="How MANY Opposition Dice the target adds (the pips on its Power Die at this Difficulty). Their faces: --opposition-dice. Not with --against a Threat or Actor: its Power Die gives them.",
            rich_help_panel=OPPOSE,
        ),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="NAME|TEXT",
            help="A Threat or Actor of the world (`showrunner cast`): its Power Die at this Difficulty gives the Opposition Dice, and the outcome clears its dice (a Project: adds pips). Any other text is shown as the source of --opposition.",
            rich_help_panel=OPPOSE,
        ),
    ] = None,
    aid: Annotated[
        bool,
        typer.Option(
            "--aid",
            help="With --against an Actor: the check aids them, and a Partial or better adds a pip to their die instead of clearing it (12.1D).",
            rich_help_panel=OPPOSE,
        ),
    ] = False,
    actor_specialty: Annotated[
        bool,
        typer.Option(
            "--actor-specialty",
            help="The opposing Actor uses a Specialty: +1d6 Opposition Dice.",
            rich_help_panel=OPPOSE,
        ),
    ] = False,
    actor_scar: Annotated[
        bool,
        typer.Option(
            "--actor-scar",
            help="One of the opposing Actor's Scars is triggered: -1d6 Opposition Dice.",
            rich_help_panel=OPPOSE,
        ),
    ] = False,
    studio_note: Annotated[
        bool,
        typer.Option(
            "--studio-note",
            help="The Director spends a Studio Note: +1d6 Opposition Dice (Director only).",
            rich_help_panel=OPPOSE,
        ),
    ] = False,
    grit: Grit = 0,
    prop: Prop = None,
    preparation: Preparation = 0,
    plot_armor: PlotArmor = False,
    hero_prop: HeroProp = None,
    power_alone: Annotated[
        bool,
        typer.Option(
            "--power-alone",
            help="The Hero Prop's Power does the task on its own: an automatic Success without rolling, up to its Difficulty milestone.",
            rich_help_panel=BEFORE,
        ),
    ] = False,
    award: Annotated[
        str | None,
        typer.Option(
            "--award",
            metavar="artisan|luminary",
            help="An Award's power, once per Episode: artisan, an automatic Success declared before the roll; "
            "luminary, a regular Success becomes a Highlight.",
            rich_help_panel=BEFORE,
        ),
    ] = None,
    spotlight_steps: Annotated[
        int,
        typer.Option(
            "--spotlight-steps",
            min=0,
            metavar="N",
            help="With Spotlight Mastery: Spotlight spent to lower the Difficulty one step each.",
            rich_help_panel=BEFORE,
        ),
    ] = 0,
    grit_after: Annotated[
        int,
        typer.Option(
            "--grit-after",
            min=0,
            metavar="N",
            help="Grit spent after the roll: one more Action Die rolled for each.",
            rich_help_panel=SPENDS,
        ),
    ] = 0,
    duplicate: Annotated[
        list[int] | None,
        typer.Option(
            "--duplicate",
            metavar="FACE",
            help="With Grit Mastery: spend 1 Grit to duplicate an Action Die showing FACE (repeatable).",
            rich_help_panel=SPENDS,
        ),
    ] = None,
    retake: Annotated[
        list[str] | None,
        typer.Option(
            "--retake",
            metavar="FACES",
            help="Spend 1 Retake to re-roll the Action Dice showing FACES, e.g. 1,2 (repeatable).",
            rich_help_panel=SPENDS,
        ),
    ] = None,
    retake_opposition: Annotated[
        list[str] | None,
        typer.Option(
            "--retake-opposition",
            metavar="FACES",
            help="With Retake Mastery: spend 1 Retake to re-roll the Opposition Dice showing FACES (repeatable).",
            rich_help_panel=SPENDS,
        ),
    ] = None,
    spotlight: Annotated[
        list[str] | None,
        typer.Option(
            "--spotlight",
            metavar="FACES|any",
            help="Spend 1 Spotlight: roll 1d6 and clear that many Opposition Dice, those showing FACES first; 'any' lets the best ones go (repeatable).",
            rich_help_panel=SPENDS,
        ),
    ] = None,
    keep: Keep = None,
    acclaim: Annotated[
        str,
        typer.Option(
            "--acclaim",
            metavar="PATH",
            help="Career Path for a Perfect Take's Acclaim: training, persistence, talent or destiny.",
        ),
    ] = "training",
    push: Push = False,
    trade: Annotated[
        str | None,
        typer.Option(
            "--trade",
            metavar="bond:NAME|grudge:NAME",
            help="Trade a Bond (to Aid) or a Grudge (to Harm): exhaust its ◇ at this Difficulty and roll one step lower; if it then Advances, its Acclaim goes on --acclaim.",
            rich_help_panel=BEFORE,
        ),
    ] = None,
    action_faces: ActionFaces = None,
    opposition_faces: OppositionFaces = None,
    script_faces: ScriptFaces = None,
    actor_specialty_die: ActorSpecialtyDie = None,
    actor_scar_die: ActorScarDie = None,
    studio_note_die: StudioNoteDie = None,
    retake_dice: RetakeDice = None,
    opposition_retake_dice: OppositionRetakeDice = None,
    spotlight_die: SpotlightDie = None,
    anomaly: AnomalyDie = None,
    scar_slot: ScarSlotDie = None,
    grit_dice: GritDice = None,
    power_die: PowerDie = None,
    no_input: Annotated[
        bool, typer.Option("--no-input", help="Never ask: apply the given spends and keep --keep or the default pair.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Roll an Ability Check and record it with every die, step and effect.

    Dice: with no face flag the ledger rolls them from the committed seed (provable after
    `showrunner seed reveal`). Give the faces of physical dice with --action, --opposition-dice
    and --script (and the other table-dice flags the check needs): then every die is a
    table die, and the counts must match what the rules ask for.

    After the roll, at a terminal, you choose: Retake, Spotlight, a Grit duplicate, or the
    pair to keep (Enter keeps the suggested best pair). Ctrl-C then records the roll as
    abandoned (exit 130). Spends given as flags are applied in a fixed order: duplicates,
    retakes, opposition retakes, spotlights; each names the faces as they stand by then.

    Examples:

      showrunner check Mara fight -d HARD --specialty Swords --opposition 2

      showrunner check Mara fight -d H --opposition 2 --action 1,4,5 --opposition-dice 1,5 --script 4,2

      showrunner check Tobias work -d H -s Clockwork --retake 1 --action 1,4,4,5,6 --script 2,3 --retake-dice 6

      showrunner check Mara fight -d HARD --against 'Iron Warden'

      showrunner check Mara talk -d NORMAL --against Grim --aid
    """
    from ..domain.errors import InvalidDice
    from ..domain.showrunner.check import AfterRoll, CheckRequest

    # Everything the command line says is checked before the ledger is opened.
    ability_name = choices.ability(ability)
    level = choices.difficulty("--difficulty", difficulty, easy=True)
    career = _career(acclaim)
    props = tuple(choices.prop_spend(p) for p in prop or [])
    kept = keep_pair(keep) if keep is not None else None
    after: list[AfterRoll] = [AfterRoll(kind="grit") for _ in range(grit_after)]
    after += [AfterRoll(kind="duplicate", faces=(_face("--duplicate", f),)) for f in duplicate or []]
    after += [AfterRoll(kind="retake", faces=_spend_faces("--retake", v)) for v in retake or []]
    after += [
        AfterRoll(kind="retake_opposition", faces=_spend_faces("--retake-opposition", v))
        for v in retake_opposition or []
    ]
    after += [
        AfterRoll(kind="spotlight", faces=_spend_faces("--spotlight", v, allow_any=True)) for v in spotlight or []
    ]
    given = {
        "action": action_faces,
        "opposition": opposition_faces,
        "script": script_faces,
        "actor_specialty": actor_specialty_die,
        "actor_scar": actor_scar_die,
        "studio_note": studio_note_die,
        "retake": retake_dice,
        "opposition_retake": opposition_retake_dice,
        "spotlight": spotlight_die,
        "anomaly": anomaly,
        "scar_slot": scar_slot,
        "grit": grit_dice,
        "power": power_die,
    }
    faces = {
        purpose: table_faces(CHECK_FACES[purpose][0], values, CHECK_FACES[purpose][1])
        for purpose, values in given.items()
        if values is not None
    }

    s = session(ctx)
    if studio_note and not s.is_director:
        raise Refused("only the Director spends Studio Notes (drop --as)")
    ref = s.target()
    head_state = s.ledger.view(ref).state
    name = head_state.character(star).name
    s.check_acting_for(ref, name)
    request = CheckRequest(
        star=name,
        ability=ability_name,
        difficulty=level,
        specialties=tuple(specialty or ()),
        scars=tuple(scar or ()),
        opposition=opposition or 0,
        opposition_source=against or "the target's Power Die",
        actor_specialty=actor_specialty,
        actor_scar=actor_scar,
        studio_note=studio_note,
        grit=grit,
        props=props,
        preparation=preparation,
        plot_armor=plot_armor,
        hero_prop=hero_prop,
        power_alone=power_alone,
        award=award_power(award),
        spotlight_steps=spotlight_steps,
        after_roll=tuple(after),
        keep=kept,
        acclaim_path=career,
        push=push,
        trade=_trade(trade),
    )
    target = _world_target(head_state, against)
    if target is not None and opposition is not None:
        raise UsageProblem(
            f"--opposition: {target}'s Power Die gives the Opposition Dice of a check --against it; drop --opposition"
        )
    if target is None and "power" in faces:
        raise UsageProblem("--power: only a check --against a Threat or Actor moves Power Dice")
    if aid and target is None:
        raise UsageProblem("--aid: name the Actor aided with --against (an Actor of the world: `showrunner cast`)")
    interactive = (
        not no_input
        and not as_json
        and not faces
        and kept is None
        and not after
        and sys.stdin.isatty()
        and sys.stdout.isatty()
    )
    chooser = TerminalChooser(stdout_console(), request) if interactive else None
    try:
        if target is not None:
            from ..domain.showrunner.commands.threats import ThreatCheck

            asked = ThreatCheck(request=request, target=target, aid=aid, records_due=True)
            result = s.ledger.run(
                ref, "threat-check", asked, faces=faces or None, chooser=chooser, by=s.recorded_by(ref)
            )
        else:
            result = s.ledger.run(
                ref, "ability-check", request, faces=faces or None, chooser=chooser, by=s.recorded_by(ref)
            )
    except InvalidDice as e:
        raise with_flags(e, {purpose: flag for purpose, (flag, _) in CHECK_FACES.items()}, spaced=True) from None
    _report(ref, result, as_json)


# ----------------------------------------------------------------------- output


def _trade(value: "str | None") -> Any:
    from ..domain.showrunner.check import Trade

    if value is None:
        return None
    kind, sep, name = value.partition(":")
    if not sep or kind.strip().lower() not in ("bond", "grudge") or not name.strip():
        raise UsageProblem(f"--trade: '{value}' is not bond:NAME or grudge:NAME")
    return Trade(kind=kind.strip().lower(), name=name.strip())


def _report(ref: "BranchRef", result: "CommandResult", as_json: bool) -> None:
    from ..domain.showrunner.events import CheckAbandoned, CheckRolled
    from ..domain.showrunner.progress_events import MilestonesReached
    from ..domain.showrunner.world_events import ConsequencesDue, ThreatChecked
    from .render_check import render_check, resolution_json

    # The check; after it a ThreatChecked (--against a Threat or Actor) and the milestones it crossed.
    event = result.events[0]
    fact = event.fact
    moved = next(((e.version, e.fact) for e in result.events if isinstance(e.fact, ThreatChecked)), None)
    settled = [(e.version, e.fact) for e in result.events if isinstance(e.fact, MilestonesReached)]
    due = [(e.version, e.fact) for e in result.events if isinstance(e.fact, ConsequencesDue)]
    if isinstance(fact, CheckAbandoned):
        kept = ", and what was spent stays spent" if fact.effects else ""
        sys.stderr.write(
            f"showrunner: check abandoned after the roll; the roll was recorded as event #{event.version} "
            f"(CheckAbandoned, roll #{fact.roll_number}) and cannot be rolled again{kept}\n"
        )
        raise typer.Exit(ExitCode.INTERRUPTED)
    assert isinstance(fact, CheckRolled)
    r = fact.resolution
    source = "ledger" if fact.dice_commitment else "table"
    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                "branch": ref.branch.name,
                "events": [e.version for e in result.events],
                "event": event.version,
                "type": event.type_name,
                "roll_number": fact.roll_number,
                "dice": source,
                "dice_commitment": fact.dice_commitment,
                "dice_entropy": fact.dice_entropy,
                **resolution_json(r),
                "summary": fact.summary(),
                **(
                    {"milestones": {"events": [version for version, _ in settled], "lines": list(settled[0][1].lines)}}
                    if settled
                    else {}
                ),
                **({"threat": _threat_json(moved[1])} if moved is not None else {}),
                **(
                    {
                        "due": [
                            {"stars": list(d.who), "count": d.count, "difficulty": d.difficulty.value} for _, d in due
                        ]
                    }
                    if due
                    else {}
                ),
            }
        )
        return
    dice = f"ledger dice, roll #{fact.roll_number}" if source == "ledger" else f"table dice, roll #{fact.roll_number}"
    title = f"{r.star} · {r.request.ability.value.title()} at {r.original_difficulty.value}"
    footer = f"recorded as event #{event.version} on {ref.branch.name} · {dice}"
    stdout_console().print(render_check(r, title=title, footer=footer))
    if moved is not None:
        version, effect = moved
        stdout_console().print(f"#{version} {effect.summary()}", markup=False, highlight=False, soft_wrap=True)
    for version, milestones in settled:
        stdout_console().print(f"#{version} {milestones.summary()}", markup=False, highlight=False, soft_wrap=True)
    for version, owed in due:
        stdout_console().print(f"#{version} {owed.summary()}", markup=False, highlight=False, soft_wrap=True)


def _world_target(state: "CampaignState", against: "str | None") -> "str | None":
    """The Threat or Actor `--against` names in the world, or None for free text."""
    from ..domain.errors import UnknownName
    from ..domain.showrunner.state import ShowrunnerState

    if against is None or not isinstance(state, ShowrunnerState):
        return None
    try:
        return state.world.target(against).name
    except UnknownName:
        return None


def _threat_json(fact: "ThreatChecked") -> dict[str, Any]:
    from .threat import effect_json

    return effect_json(fact)


# ----------------------------------------------------------------------- the terminal chooser


class TerminalChooser:
    """Asks the Star at the terminal, after the roll, for a spend or the pair to keep.

    Ctrl-C or end of input abandons the check: the roll was seen, so it is recorded.
    Answers are remembered per view, so if the ledger must decide again (another writer
    got in first) the same dice bring back the same answers without asking twice.
    """

    def __init__(self, console: "Console", request: "CheckRequest") -> None:
        self.console = console
        self.request = request
        self._answers: dict[str, AfterRoll | tuple[int, int]] = {}
        self._abandoned = False

    def choose(self, view: "View") -> "AfterRoll | tuple[int, int]":
        from ..domain.showrunner.check import Abandoned

        if self._abandoned:
            raise Abandoned()
        key = view.model_dump_json()
        if key in self._answers:
            return self._answers[key]
        try:
            answer = self._ask(view)
        except (KeyboardInterrupt, EOFError):
            self._abandoned = True
            self.console.print()
            raise Abandoned() from None
        self._answers[key] = answer
        return answer

    # -- the questions

    def _ask(self, view: "View") -> "AfterRoll | tuple[int, int]":
        from rich.prompt import Prompt
        from rich.text import Text

        from ..domain.showrunner.check import AfterRoll, best_pair, hit_the_mark, judge
        from ..domain.showrunner.sheet import Mastery

        target = view.effective.target
        assert target is not None
        suggested = best_pair(view.remaining, view.script, target)
        self._show(view, suggested, judge(suggested, target).label, hit_the_mark(suggested, view.script).label)
        pools = view.sheet.influence
        mastered = view.sheet.masteries
        menu: list[tuple[str, str, str | None]] = [
            ("k", f"keep the suggested pair {suggested[0]},{suggested[1]}", None),
            ("p", "keep another pair", None),
            ("r", "Retake: spend 1 Retake to re-roll Action Dice", self._unaffordable(pools.retake, "Retake")),
        ]
        if Mastery.RETAKE in mastered:
            menu.append(
                (
                    "o",
                    "Retake: spend 1 Retake to re-roll Opposition Dice (Retake Mastery)",
                    self._unaffordable(pools.retake, "Retake") or (None if view.opposition else "no Opposition Dice"),
                )
            )
        menu.append(
            (
                "s",
                "Spotlight: spend 1 Spotlight, roll 1d6 and clear that many Opposition Dice",
                self._unaffordable(pools.spotlight, "Spotlight") or (None if view.opposition else "no Opposition Dice"),
            )
        )
        if Mastery.GRIT in mastered:
            menu.append(
                (
                    "d",
                    "Grit: spend 1 Grit to duplicate an Action Die (Grit Mastery)",
                    self._unaffordable(pools.grit, "Grit") or (None if view.action else "no Action Dice"),
                )
            )
        for letter, what, why_not in menu:
            if why_not:
                self.console.print(Text(f"  {letter}  {what}: {why_not}", style="dim"))
            else:
                self.console.print(Text.assemble(("  " + letter, "bold"), f"  {what}"))
        choices = [letter for letter, _, why_not in menu if not why_not]
        while True:
            choice = Prompt.ask(
                "Your choice",
                console=self.console,
                choices=choices,
                default="k",
                case_sensitive=False,
                show_choices=True,
            ).lower()
            if choice == "k":
                return suggested
            if choice == "p":
                pair = self._pair(view)
                if pair is not None:
                    return pair
            elif choice == "r":
                faces = self._faces("Action faces to re-roll", view.action, "Action")
                if faces:
                    return AfterRoll(kind="retake", faces=faces)
            elif choice == "o":
                faces = self._faces("Opposition faces to re-roll", view.opposition, "Opposition")
                if faces:
                    return AfterRoll(kind="retake_opposition", faces=faces)
            elif choice == "s":
                faces = self._faces(
                    "Opposition faces to clear first (Enter: the ones blocking your best dice)",
                    view.opposition,
                    "Opposition",
                    allow_empty=True,
                )
                if faces is not None:
                    return AfterRoll(kind="spotlight", faces=faces)
            elif choice == "d":
                faces = self._faces("The Action face to duplicate", view.action, "Action", exactly_one=True)
                if faces:
                    return AfterRoll(kind="duplicate", faces=faces)

    def _unaffordable(self, pool: Any, label: str) -> str | None:
        if pool.current > 0:
            return None
        if self.request.push and pool.max > 0:
            return None
        if pool.max > 0:
            return f"no {label} left (--push)"
        return f"no {label} left"

    def _show(self, view: "View", suggested: tuple[int, int], outcome: str, mark: str) -> None:
        from rich.text import Text

        from .render_check import dice_grid, faces_csv

        request = self.request
        target = view.effective.target
        grid = dice_grid(view.action, view.opposition, view.script)
        blocked = Counter(view.action) - Counter(view.remaining)
        grid.add_row(
            "Blocked", Text(faces_csv(sorted(blocked.elements(), reverse=True)) if blocked else "none", style="dim")
        )
        grid.add_row("Suggested", Text(f"keep {suggested[0]},{suggested[1]} → {outcome}, {mark}", style="bold"))
        pools = view.sheet.influence
        grid.add_row(
            "Pools",
            Text(f"Retake {pools.retake.current} · Spotlight {pools.spotlight.current} · Grit {pools.grit.current}"),
        )
        self.console.print()
        self.console.print(
            Text(
                f"{view.sheet.name} · {request.ability.value.title()} against {view.effective.value} ({target}+)",
                style="bold",
            )
        )
        self.console.print(grid)

    def _pair(self, view: "View") -> tuple[int, int] | None:
        from ..domain.showrunner.check import result_dice

        available = result_dice(view.remaining)
        while True:
            text = self._input(f"Pair to keep, from {','.join(map(str, available))} (Enter: back)")
            if not text:
                return None
            faces = _numbers(text)
            if faces is None or len(faces) != 2:
                self.console.print("Give two faces, like 5,4.")
                continue
            if Counter(faces) - Counter(available):
                self.console.print(
                    f"{faces[0]},{faces[1]} are not among the dice left: {','.join(map(str, available))}."
                )
                continue
            return faces[0], faces[1]

    def _faces(
        self, question: str, dice: Sequence[int], colour: str, *, allow_empty: bool = False, exactly_one: bool = False
    ) -> tuple[int, ...] | None:
        shown = ",".join(map(str, dice))
        while True:
            text = self._input(f"{question}, from {shown}" + ("" if allow_empty else " (Enter: back)"))
            if not text:
                return () if allow_empty else None
            faces = _numbers(text)
            if faces is None:
                self.console.print("Give faces like 2,1.")
                continue
            if exactly_one and len(faces) != 1:
                self.console.print("Give one face.")
                continue
            if Counter(faces) - Counter(dice):
                self.console.print(f"Those are not among the {colour} Dice: {shown}.")
                continue
            return tuple(faces)

    def _input(self, question: str) -> str:
        from rich.prompt import Prompt

        return Prompt.ask(question, console=self.console, default="", show_default=False).strip()


def _numbers(text: str) -> list[int] | None:
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not all(p.isdigit() for p in parts):
        return None
    return [int(p) for p in parts]


# ----------------------------------------------------------------------- parsing the command line


def _career(value: str) -> Any:
    from ..domain.showrunner.sheet import CareerPath

    try:
        return CareerPath(value)
    except ValueError:
        raise UsageProblem(
            f"--acclaim: '{value}' is not a Career Path (training, persistence, talent, destiny)"
        ) from None


def _face(flag: str, face: int) -> int:
    return table_faces(flag, [str(face)], 6)[0]


def _spend_faces(flag: str, value: str, *, allow_any: bool = False) -> tuple[int, ...]:
    if allow_any and value.strip().lower() in ANY:
        return ()
    hint = " (or 'any')" if allow_any else ""
    if value.startswith("--"):
        raise UsageProblem(f"{flag} needs the faces of the dice, like 6,5{hint}, before the next option {value}")
    faces = table_faces(flag, [value], 6)
    if not faces:
        raise UsageProblem(f"{flag} needs the faces of the dice, like 1,2{hint}")
    return tuple(faces)


def table_faces(flag: str, values: Sequence[str], sides: int) -> list[int]:
    """The faces of one flag; a face off the die is the rules' refusal (exit 1), as `check` has always said."""
    from ..domain.errors import InvalidDice

    return read_faces(flag, values, sides, refused=InvalidDice)


def register(root: typer.Typer) -> None:
    from .ruleset_commands import ByRuleset

    # In a campaign of another ruleset, `check` parses that ruleset's options instead.
    root.command("check", cls=ByRuleset)(check)
