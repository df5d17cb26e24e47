"""What the world's commands share: table-dice flags, Difficulty parsing, the Director's gate,
reports of recorded facts, and the Stars' view of the world (no Subplot in stasis).

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

import functools
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, NamedTuple, TypeAlias, TypeVar

import typer
from typer.models import OptionInfo

from .errors import Refused, UsageProblem
from .session import print_json, stdout_console

TABLE = "Table dice (typed in from physical dice; any one makes every die of the command a table die)"
T = TypeVar("T")
LADDER = "NORMAL, HARD, FORMIDABLE, EPIC, LEGENDARY, MYTHIC, ASCENDANT, GODLIKE (or N, H, F, E, L, M, A, G)"


def faces_option(flag: str, what: str) -> OptionInfo:
    """A table-dice flag, for `Annotated[list[str] | None, faces_option(...)]`."""
    option: OptionInfo = typer.Option(flag, metavar="FACES", help=what, rich_help_panel=TABLE)
    return option


def parse_faces(given: Mapping[str, tuple[str, Sequence[str] | None, int]]) -> dict[str, list[int]]:
    """{purpose: (flag, values, sides)} -> {purpose: faces}, for the purposes given."""
    faces: dict[str, list[int]] = {}
    for purpose, (flag, values, sides) in given.items():
        if values is None:
            continue
        found: list[int] = []
        for value in values:
            for part in (p for p in re.split(r"[\s,]+", value.strip()) if p):
                if not part.isdigit():
                    raise UsageProblem(f"{flag}: '{part}' is not a die face (write faces like 1,4,5)")
                face = int(part)
                if not 1 <= face <= sides:
                    raise UsageProblem(f"{flag}: {face} is not a d{sides} face (1-{sides})")
                found.append(face)
        faces[purpose] = found
    return faces


_FLAG_IN_MESSAGE = re.compile(r"\(--([a-z-]+)\)$")


def with_flags(error: Exception, flags: Mapping[str, str]) -> Exception:
    """The engine names table dice by purpose; say which flag of this command holds them."""
    message = str(error)
    match = _FLAG_IN_MESSAGE.search(message)
    if match is None:
        return error
    flag = flags.get(match.group(1).replace("-", "_"))
    if flag is None:
        return error
    return type(error)(f"{message[: match.start()]}({flag})")


def difficulty(flag: str, value: str, *, easy: bool = False) -> Any:
    from ..domain.showrunner.ladder import Difficulty

    try:
        level = Difficulty(value)
    except ValueError:
        raise UsageProblem(f"{flag}: '{value}' is not on the Difficulty ladder: {LADDER}") from None
    if level is Difficulty.EASY and not easy:
        raise UsageProblem(f"{flag}: EASY is not a Power Level or a Difficulty to set: {LADDER}")
    return level


def director_only(s: Any, what: str) -> None:
    if not s.is_director:
        raise Refused(f"only the Director {what} (drop --as)")


def stars_view(world: Any, director: bool) -> Any:
    """The world as the reader may see it: a Star never sees a Subplot in stasis."""
    return world if director else world.as_seen_by_players()


def report(ref: Any, result: Any, as_json: bool, **extra: Any) -> None:
    """Every event the command recorded: one line each, or one JSON document."""
    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                "branch": ref.branch.name,
                "events": [e.version for e in result.events],
                "facts": [
                    {
                        "event": e.version,
                        "type": e.type_name,
                        "visibility": e.visibility,
                        "summary": e.fact.summary(),
                        "fact": e.fact.model_dump(mode="json"),
                    }
                    for e in result.events
                ],
                **extra,
            }
        )
        return
    console = stdout_console()
    for e in result.events:
        private = " (director only)" if e.visibility != "public" else ""
        console.print(f"#{e.version} {e.fact.summary()}{private}", markup=False, highlight=False, soft_wrap=True)


# ------------------------------------------------------------------ a check's before-roll options

BEFORE = "Before the roll (as for `check`)"
Specialty = Annotated[
    list[str] | None,
    typer.Option(
        "--specialty",
        "-s",
        metavar="NAME",
        help="An applicable Specialty (repeatable): +1 Action Die per rank.",
        rich_help_panel=BEFORE,
    ),
]
Scar = Annotated[
    list[str] | None,
    typer.Option(
        "--scar",
        metavar="NAME",
        help="A triggered Scar (repeatable): +1 Opposition Die per point of penalty.",
        rich_help_panel=BEFORE,
    ),
]
Grit = Annotated[
    int,
    typer.Option(
        "--grit", min=0, metavar="N", help="Grit spent before the roll: +1 Action Die each.", rich_help_panel=BEFORE
    ),
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
        help="Spend 1 Plot Armor: the task becomes EASY (a Scar without Plot Armor Mastery).",
        rich_help_panel=BEFORE,
    ),
]
HeroProp = Annotated[
    str | None,
    typer.Option(
        "--hero-prop",
        metavar="NAME",
        help="Use a Hero Prop: 1 Wear, its bonus dice, its Difficulty milestone.",
        rich_help_panel=BEFORE,
    ),
]
Keep = Annotated[
    str | None,
    typer.Option("--keep", "-k", metavar="A,B", help="The two Result Dice to keep (default: the best pair)."),
]
Push = Annotated[bool, typer.Option("--push", help="Push Your Limits to pay a spend the pools cannot.")]
ActionFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--action", "The Action Dice of the check, e.g. 1,4,5.")
]
OppositionFaces: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--opposition-dice", "The Opposition Dice of the check (as many as the target's pips)."),
]
ScriptFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--script", "The two Script Dice of the check, e.g. 4,2.")
]
PowerFaces: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--power", "The d6s the target's Power Dice re-roll (a cleared die's reset, a carry), in order."),
]
ScarSlotFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--scar-slot", "The d10 slot rolls of a Plot Armor Scar, in order.")
]
AnomalyFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--anomaly", "The d100 Anomaly rolls of a Channel check that Hits the Mark.")
]

CHECK_DICE = ("action", "opposition", "script", "power", "scar_slot", "anomaly")
"""The dice purposes a check against the world may ask for, named as `check` names them (FACE_FLAGS)."""


class CheckOptions(NamedTuple):
    """What `check_options` gathers from the command line for one check against the world."""

    specialty: list[str] | None = None
    scar: list[str] | None = None
    grit: int = 0
    prop: list[str] | None = None
    preparation: int = 0
    plot_armor: bool = False
    hero_prop: str | None = None
    keep: str | None = None
    push: bool = False
    action: list[str] | None = None
    opposition_dice: list[str] | None = None
    script: list[str] | None = None
    power: list[str] | None = None
    scar_slot: list[str] | None = None
    anomaly: list[str] | None = None

    def request(self, star: str, ability: str) -> Any:
        """The check a Beat or a Decisive Strike rolls (its Difficulty and Opposition are set by the target)."""
        from ..domain.showrunner.check import CheckRequest
        from .check import _ability, _keep, _prop

        return CheckRequest(
            star=star,
            ability=_ability(ability),
            difficulty="NORMAL",
            specialties=tuple(self.specialty or ()),
            scars=tuple(self.scar or ()),
            grit=self.grit,
            props=tuple(_prop(p) for p in self.prop or ()),
            preparation=self.preparation,
            plot_armor=self.plot_armor,
            hero_prop=self.hero_prop,
            keep=_keep(self.keep) if self.keep is not None else None,
            push=self.push,
        )

    def faces(self) -> dict[str, list[int]]:
        from .check import FACE_FLAGS

        values = dict(
            zip(
                CHECK_DICE,
                (self.action, self.opposition_dice, self.script, self.power, self.scar_slot, self.anomaly),
                strict=True,
            )
        )
        return parse_faces({p: (FACE_FLAGS[p][0], values[p], FACE_FLAGS[p][1]) for p in CHECK_DICE})

    def given_for_a_roll(self) -> list[str]:
        """The flags given that only a rolled check uses (all but --power)."""
        names = [name for name, value in self._asdict().items() if name != "power" and value not in (None, 0, False)]
        return ["--" + name.replace("_", "-") for name in names]


def option_group(
    options: Any, annotations: Sequence[Any], keyword: str
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A decorator giving a command a group of options declared once: the fields of `options` (a
    NamedTuple), with its defaults and, in order, `annotations`, placed before `--json`. The
    command takes them together as its keyword-only argument `keyword`."""
    group = [
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=annotation)
        for (name, default), annotation in zip(options._field_defaults.items(), annotations, strict=True)
    ]

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command)
        kept = [p for p in signature.parameters.values() if p.name != keyword]
        at = next(i for i, p in enumerate(kept) if p.name == "as_json")
        parameters = kept[:at] + group + kept[at:]

        @functools.wraps(command)
        def with_options(*args: Any, **kwargs: Any) -> None:
            given = {name: kwargs.pop(name) for name in options._fields}
            command(*args, **{keyword: options(**given)}, **kwargs)

        with_options.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]  # inspect.signature (so typer) reads it; a function's type does not declare it
        with_options.__annotations__ = {p.name: p.annotation for p in parameters}
        return with_options

    return decorate


check_options = option_group(
    CheckOptions,
    (
        Specialty,
        Scar,
        Grit,
        Prop,
        Preparation,
        PlotArmor,
        HeroProp,
        Keep,
        Push,
        ActionFaces,
        OppositionFaces,
        ScriptFaces,
        PowerFaces,
        ScarSlotFaces,
        AnomalyFaces,
    ),
    "check",
)
"""The before-roll options and table dice of `check`, for every command that rolls a check against the world."""


def check_faces(action: Any, opposition: Any, script: Any, power: Any) -> dict[str, list[int]]:
    """The table faces of a check's Action, Opposition and Script Dice and of the Power Dice it moves."""
    return CheckOptions(action=action, opposition_dice=opposition, script=script, power=power).faces()


def check_flags() -> dict[str, str]:
    """{purpose: flag} of the table dice of a check, for `with_flags`."""
    from .check import FACE_FLAGS

    return {purpose: FACE_FLAGS[purpose][0] for purpose in CHECK_DICE}


def recording(call: Callable[[], T], flags: Mapping[str, str]) -> T:
    """Run a command that records, naming this command's flag when the table dice do not fit."""
    from ..domain.errors import InvalidDice

    try:
        return call()
    except InvalidDice as e:
        raise with_flags(e, flags) from None
