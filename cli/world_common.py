"""What the world's commands share: table-dice flags, Difficulty parsing, the Director's gate,
reports of recorded facts, and the Stars' view of the world (no Subplot in stasis).

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import typer

from .errors import Refused, UsageProblem
from .session import print_json, stdout_console

TABLE = "Table dice (typed in from physical dice; any one makes every die of the command a table die)"
LADDER = "NORMAL, HARD, FORMIDABLE, EPIC, LEGENDARY, MYTHIC, ASCENDANT, GODLIKE (or N, H, F, E, L, M, A, G)"


def faces_option(flag: str, what: str) -> Any:
    return Annotated[list[str] | None, typer.Option(flag, metavar="FACES", help=what, rich_help_panel=TABLE)]


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
    """The world as the reader may see it: a Star never sees a Subplot in stasis (nor a roster
    slot only a Subplot roll has Unlocked)."""
    if director:
        return world
    subplots = tuple(s for s in world.subplots if s.status != "stasis")
    slots = {n: held for n, held in world.roster.slots.items() if held is not None}
    return world.model_copy(update={"subplots": subplots, "roster": world.roster.model_copy(update={"slots": slots})})


def report(ref: Any, result: Any, as_json: bool, **extra: Any) -> None:
    """Every event the command recorded: one line each, or one JSON document."""
    if as_json:
        print_json({
            "campaign": ref.campaign.name,
            "branch": ref.branch.name,
            "events": [e.version for e in result.events],
            "facts": [
                {"event": e.version, "type": e.type_name, "visibility": e.visibility, "summary": e.fact.summary(),
                 "fact": e.fact.model_dump(mode="json")}
                for e in result.events
            ],
            **extra,
        })
        return
    console = stdout_console()
    for e in result.events:
        private = " (director only)" if e.visibility != "public" else ""
        console.print(f"#{e.version} {e.fact.summary()}{private}", markup=False, highlight=False, soft_wrap=True)


def power_text(power: Any) -> str:
    return power.describe()


def check_request(star: str, ability: str, specialty: Sequence[str] | None, grit: int, keep: str | None, push: bool) -> Any:
    """The check a Beat or a Decisive Strike rolls (its Difficulty and Opposition are set by the target)."""
    from ..domain.showrunner.check import CheckRequest
    from .check import _ability, _keep

    return CheckRequest(
        star=star, ability=_ability(ability), difficulty="NORMAL", specialties=tuple(specialty or ()), grit=grit,
        keep=_keep(keep) if keep is not None else None, push=push,
    )


CHECK_FLAGS = {
    "action": "--action", "opposition": "--opposition-dice", "script": "--script", "power": "--power",
}
ActionFaces = faces_option("--action", "The Action Dice of the check, e.g. 1,4,5.")
OppositionFaces = faces_option("--opposition-dice", "The Opposition Dice of the check (as many as the target's pips).")
ScriptFaces = faces_option("--script", "The two Script Dice of the check, e.g. 4,2.")
PowerFaces = faces_option("--power", "The d6s the target's Power Dice re-roll (a cleared die's reset, a carry), in order.")
Specialty = Annotated[list[str] | None, typer.Option("--specialty", "-s", metavar="NAME", help="An applicable Specialty (repeatable).")]
Grit = Annotated[int, typer.Option("--grit", min=0, metavar="N", help="Grit spent before the roll: +1 Action Die each.")]
Keep = Annotated[str | None, typer.Option("--keep", "-k", metavar="A,B", help="The two Result Dice to keep (default: the best pair).")]
Push = Annotated[bool, typer.Option("--push", help="Push Your Limits to pay a spend the pools cannot.")]


def check_faces(action: Any, opposition: Any, script: Any, power: Any) -> dict[str, list[int]]:
    return parse_faces({
        "action": ("--action", action, 6), "opposition": ("--opposition-dice", opposition, 6),
        "script": ("--script", script, 6), "power": ("--power", power, 6),
    })


def visible_state(state: Any, director: bool) -> Any:
    """A campaign state as the reader may see it: for a Star, the world without Subplots in stasis."""
    world = getattr(state, "world", None)
    if director or world is None:
        return state
    return state.model_copy(update={"world": stars_view(world, director)})
