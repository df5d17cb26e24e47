"""What the world's commands share: the options of a check against the world, the Director's
gate, reports of recorded facts, the world of a branch, and the Stars' view of it (no Subplot
in stasis).

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, TypeAlias

from . import choices
from .check_options import Grit, HeroProp, Keep, PlotArmor, Preparation, Prop, Push, Scar, Specialty
from .dice_flags import CHECK_FACES, faces_option, keep_pair, parse_faces
from .errors import Refused
from .session import print_json, stdout_console

if TYPE_CHECKING:
    from ..domain.showrunner.world import World
    from ..ledger.service import BranchRef, Ledger


def director_only(s: Any, what: str) -> None:
    if not s.is_director:
        raise Refused(f"only the Director {what} (drop --as)")


def world_of(ledger: "Ledger", ref: "BranchRef", at: int | None = None) -> "World":
    """The branch's world as of event `at` (its head if None), for the Director's eyes."""
    from ..domain.errors import UnknownName
    from ..domain.showrunner.state import ShowrunnerState

    state = ledger.view(ref, at).state
    if not isinstance(state, ShowrunnerState):
        raise UnknownName("this campaign's ruleset has no Supporting Cast (only Showrunner campaigns do)")
    return state.world


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
"""The dice purposes a check against the world may ask for, named as `check` names them (CHECK_FACES)."""


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

        return CheckRequest(
            star=star,
            ability=choices.ability(ability),
            difficulty="NORMAL",
            specialties=tuple(self.specialty or ()),
            scars=tuple(self.scar or ()),
            grit=self.grit,
            props=tuple(choices.prop_spend(p) for p in self.prop or ()),
            preparation=self.preparation,
            plot_armor=self.plot_armor,
            hero_prop=self.hero_prop,
            keep=keep_pair(self.keep) if self.keep is not None else None,
            push=self.push,
        )

    def faces(self) -> dict[str, list[int]]:
        values = dict(
            zip(
                CHECK_DICE,
                (self.action, self.opposition_dice, self.script, self.power, self.scar_slot, self.anomaly),
                strict=True,
            )
        )
        return parse_faces({p: (CHECK_FACES[p][0], values[p], CHECK_FACES[p][1]) for p in CHECK_DICE})

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
    """{purpose: flag} of the table dice of a check, for `recording`."""
    return {purpose: CHECK_FACES[purpose][0] for purpose in CHECK_DICE}
