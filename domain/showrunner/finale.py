"""The Finale (Chapter 15): Final Scenes, Ultimate Stakes, Maximized Subplots, the Final Act and The End.

Pure rules on a `ShowrunnerState`; the facts that record them are in finale_events.py and the
commands in commands/finale.py.

Readings (docs/rules.md, "The Finale (Chapter 15)"):
- The ledger records no season length, so `finale begin` marks the Episode running now as the
  season's last: the Finale belongs to it, and no Finale command runs outside it.
- A Final Scene against an Actor is a check at the Actor's Power Level, opposed by the pips on
  its Power Die at that level (12.1C). Against the World the Director sets the Difficulty (and
  the table gives the Opposition, as for a standalone Obstacle or new Project). Above EPIC a
  single check cannot be rolled (it is a Set Piece): the Action Sequence is played and its
  Climax's outcome recorded.
- Success, Highlight and Partial Success are successful checks (a Partial Success with its
  Consequence): Aid raises the Actor's Power Level by one (a GODLIKE Actor stays GODLIKE),
  Harm writes the Actor off.
- Ultimate Stakes: each Consequence is Plot Armor damage of the Grit Loss its Difficulty deals
  (EASY 2 … EPIC 6, several EPIC ones above EPIC); a Disaster's two Consequences are the
  doubling. Plot Armor goes first; damage it cannot absorb writes the Character off (6.2:
  with no Plot Armor left, the Character is Written Off). Grit is bypassed, so Pushing Your
  Limits and Grit Mastery do not apply; damage is not spending, so no Scar is rolled.
- The World Turns: the Subplot Revealed is the first, lowest number first, of: a Subplot in
  stasis whose Scheme targets the Star; else one whose Plotter asks the Star for help (Curry
  Favor towards the Star); else one whose Scheme targets one of the Star's Bonds.
- Maximized Threat: the Subplot keeps its Ally, Target and plan; its Power, and every effect
  at that Power, rise to the Plotter's current Power Level (never lowered).
- The Final Act adds to the Reveal's own effects: the Event (Aid: +1 Power Level; Harm:
  written off) falls on the Plotter; a Subplot whose Scheme targets the Star calls a Gambit at
  the Plotter's Power Level the Star must resist; one asking the Star for help grants Plot Armor
  equal to the Grit Loss at the Subplot's Power (regained, Inspirational Overflow as ever).
- The End: every Star still on the Show has performed at least one Final Scene or declared
  they are finished (a written-off Star needs neither), and no Gambit waits for a Star still on
  the Show. A Final Act towards a written-off Star has no one to face: no Gambit, no Plot Armor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RuleViolation
from ..names import name_key
from ..text import Line, Name
from .check import Outcome
from .consequences import consequence_size
from .effects import Effect, Working, WrittenOff
from .influence import Spent, regain_into
from .ladder import Difficulty
from .sheet import StarSheet
from .writers_room import Subplot

if TYPE_CHECKING:
    from .state import EnsemblePool

Intent = Literal["aid", "harm"]

SUCCESSFUL = frozenset({Outcome.HIGHLIGHT, Outcome.SUCCESS, Outcome.PARTIAL})
"""The outcomes that carry a Final Scene's declaration (a Partial Success with its Consequence)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class FinalScene(_Frozen):
    """One Final Scene as it was resolved."""

    number: int = Field(ge=1)
    star: Name
    declaration: Line = ""
    actor: Name | None = None
    """The Actor the Final Scene targets; None for a declaration against the World."""
    intent: Intent | None = None
    difficulty: Difficulty
    outcome: Outcome
    plot_armor_damage: int = Field(default=0, ge=0)


class GambitDue(_Frozen):
    """15.3 The Final Act: a Gambit a Star must resist before the Show can end."""

    star: Name
    by: Name
    level: Difficulty
    subplot: int = Field(ge=1)


class Finale(_Frozen):
    """The Series Finale of a branch: the Episode it belongs to and what has happened in it."""

    episode: int = Field(ge=1)
    scenes: tuple[FinalScene, ...] = ()
    finished: tuple[Name, ...] = ()
    """The Stars who declared they are finished."""
    turn_for: Name | None = None
    """The Star whose Final Scene the World may answer now (15.3): one Reveal, right after it."""
    gambits: tuple[GambitDue, ...] = ()
    ended: bool = False

    def gambit_for(self, star: str) -> GambitDue | None:
        return next((g for g in self.gambits if name_key(g.star) == name_key(star)), None)


class NoFinale(RuleViolation):
    """A Finale command with no Finale running (before `finale begin`, outside its Episode, after The End)."""


# ------------------------------------------------------------------------------ when


def can_begin(finale: Finale | None, *, episode: int, episode_open: bool, stars: int) -> None:
    """15: the Finale follows the season's final climax, inside its last Episode."""
    if finale is not None:
        where = "has ended" if finale.ended else f"is running in Episode {finale.episode}"
        raise RuleViolation(f"the Finale {where}: a Show has one Finale")
    if not episode_open:
        raise NoFinale(
            "the Finale is played in the season's last Episode and none is running: "
            "start it with `showrunner episode start`, then `showrunner finale begin`"
        )
    if stars == 0:
        raise RuleViolation("the Finale needs Stars to write their epilogues: add one with `showrunner star add`")


def running(finale: Finale | None, *, episode: int, episode_open: bool) -> Finale:
    """The Finale a command acts in, or a one-line reason it cannot."""
    if finale is None:
        raise NoFinale(
            "no Finale is running: it is played in the season's last Episode, after `showrunner finale begin`"
        )
    if finale.ended:
        raise NoFinale("The End has been recorded: the Show is over, and nothing more happens in its Finale")
    if not episode_open or episode != finale.episode:
        raise NoFinale(
            f"the Finale belongs to Episode {finale.episode}, the season's last, which is not running now: "
            "no Final Scene is played outside it"
        )
    return finale


# ------------------------------------------------------------------------------ 15.1 Final Scenes


def final_scene_difficulty(actor_level: Difficulty | None, given: Difficulty | None) -> Difficulty:
    """15.1: against an Actor, the Actor's Power Level; against the World, the Director's."""
    if actor_level is not None:
        if given is not None and given is not actor_level:
            raise RuleViolation(
                f"a Final Scene against an Actor is at the Actor's Power Level ({actor_level.value}): drop --difficulty"
            )
        return actor_level
    if given is None:
        raise RuleViolation(
            "a Final Scene against the World needs --difficulty: the Director sets it as for a standalone "
            "Obstacle or new Project"
        )
    if given is Difficulty.EASY:
        raise RuleViolation("a Final Scene's Difficulty is NORMAL to GODLIKE, as a Threat's Power Level")
    return given


def carries(outcome: Outcome) -> bool:
    """Whether the check succeeded, so the Final Scene's declaration comes true."""
    return outcome in SUCCESSFUL


# ------------------------------------------------------------------------------ 15.2 Ultimate Stakes


def grit_amount(difficulty: Difficulty) -> int:
    """The Grit one Consequence at `difficulty` takes (14.3): EASY 2 … EPIC 6, then several EPIC ones."""
    count, size = consequence_size(difficulty)
    return count * size


def plot_armor_damage(difficulty: Difficulty, consequences: int) -> int:
    """15.2: each Consequence deals the Grit amount as Plot Armor damage (a Disaster's two: doubled)."""
    return consequences * grit_amount(difficulty)


def stakes_effects(sheet: StarSheet, damage: int) -> tuple[list[Effect], str]:
    """The Plot Armor damage on `sheet`, Grit bypassed: what it takes and a line saying so."""
    if damage == 0:
        return [], "no Consequence: no Plot Armor damage"
    plot = sheet.influence.plot_armor
    taken = min(plot.current, damage)
    effects: list[Effect] = []
    if taken:
        effects.append(Spent(star=sheet.name, pool="plot_armor", amount=taken, from_pool=taken, exhausted=0))
    if damage > plot.current:
        effects.append(WrittenOff(star=sheet.name))
        return effects, (
            f"{damage} Plot Armor damage (Grit bypassed): {plot.current} Plot Armor cannot absorb it, "
            f"{sheet.name} is WRITTEN OFF"
        )
    return effects, f"{damage} Plot Armor damage (Grit bypassed): Plot Armor {plot.current} → {plot.current - damage}"


def ultimate_stakes(work: Working, difficulty: Difficulty, consequences: int) -> int:
    """15.2 for a Consequence recorded during the Finale, whatever its kind: Plot Armor damage."""
    damage = plot_armor_damage(difficulty, consequences)
    effects, line = stakes_effects(work.sheet, damage)
    for effect in effects:
        work.emit(effect)
    work.step("written_off" if any(isinstance(e, WrittenOff) for e in effects) else "lost", f"Ultimate Stakes: {line}")
    return damage


def free_plot_armor(sheet: StarSheet, ensemble: EnsemblePool, level: Difficulty) -> tuple[list[Effect], int]:
    """15.3 The Final Act: an Aid Subplot towards a Star grants the Grit Loss at its Power as Plot Armor."""
    amount = grit_amount(level)
    return [regain_into(sheet, ensemble, "plot_armor", amount)], amount


# ------------------------------------------------------------------------------ 15.3 Maximized Subplots

WorldTurnTier = Literal["scheme", "curry_favor", "bond_scheme"]

TIER_WORDS: dict[WorldTurnTier, str] = {
    "scheme": "a Scheme Subplot targeting the Star",
    "curry_favor": "a Curry Favor Subplot towards the Star",
    "bond_scheme": "a Scheme Subplot targeting one of the Star's Bonds",
}


def world_turn_choices(
    subplots: tuple[Subplot, ...], sheet: StarSheet
) -> tuple[WorldTurnTier, tuple[Subplot, ...]] | None:
    """15.3 The World Turns: the Subplots in stasis the Director may Reveal, in the book's order."""
    waiting = [s for s in subplots if s.status == "stasis"]
    star = sheet.name
    bonds = {name_key(b.with_) for b in sheet.bonds}
    tiers: tuple[tuple[WorldTurnTier, list[Subplot]], ...] = (
        ("scheme", [s for s in waiting if s.target.star and s.target.is_(star)]),
        ("curry_favor", [s for s in waiting if s.approach == "ask_star" and s.ally.is_(star)]),
        ("bond_scheme", [s for s in waiting if name_key(s.target.name) in bonds]),
    )
    for tier, found in tiers:
        if found:
            return tier, tuple(found)
    return None


def maximized(subplot: Subplot, plotter_level: Difficulty) -> Subplot:
    """15.3 Maximized Threat: the Power, and every effect at it, up to the Plotter's Power Level."""
    if plotter_level.rank <= subplot.power.rank:
        return subplot
    old = subplot.power
    effects = tuple(
        e.model_copy(update={"level": plotter_level}) if getattr(e, "level", None) is old else e
        for e in subplot.effects
    )
    return subplot.model_copy(update={"power": plotter_level, "effects": effects})


def targets_star(subplot: Subplot, star: str) -> bool:
    return subplot.target.star and subplot.target.is_(star)


def helped_by_star(subplot: Subplot, star: str) -> bool:
    return subplot.approach == "ask_star" and subplot.ally.is_(star)


# ------------------------------------------------------------------------------ 15.4 The End


def still_owing(finale: Finale, stars: dict[str, StarSheet]) -> list[str]:
    """The Stars on the Show with neither a Final Scene nor a declaration that they are finished."""
    done = {name_key(s.star) for s in finale.scenes} | {name_key(n) for n in finale.finished}
    return [sheet.name for key, sheet in stars.items() if not sheet.written_off and key not in done]


def _off_the_show(stars: dict[str, StarSheet], name: str) -> bool:
    sheet = stars.get(name_key(name))
    return sheet is None or sheet.written_off


def can_end(finale: Finale, stars: dict[str, StarSheet]) -> None:
    """15.4: The End, once every Star has had a Final Scene, declared they are finished, or been written off."""
    waiting = [g for g in finale.gambits if not _off_the_show(stars, g.star)]
    if waiting:
        g = waiting[0]
        raise RuleViolation(
            f"{g.star} must first resist {g.by}'s {g.level.value} Gambit: `showrunner finale resist {g.star} ABILITY`"
        )
    owing = still_owing(finale, stars)
    if owing:
        raise RuleViolation(
            f"not yet The End: {', '.join(owing)} ha{'s' if len(owing) == 1 else 've'} performed no Final Scene; "
            "play one (`showrunner finale scene`) or declare finished (`showrunner finale finish`)"
        )
