"""Acclaim, the four Career Paths, Milestones and Awards Season (Chapter 11).

Acclaim fills one Path's track; a full track is completed with one of the Path's two
rewards and marks a Minor Milestone; enough Minor Milestones mark a Major Milestone (which
also grows the Ensemble Pool, 10.3A.3); the second Major Milestone on a Path is a
nomination: an Award or a Mastery.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ..dice import DiceSource
from ..errors import RuleViolation
from .ensemble import grow_for_major_milestone
from .influence import LABELS, PoolName
from .path_choices import ActorsChoice, BackstoryRewrites, ExpandKit, InnateAptitude, LearnSkill, PathChoice, Rewrite
from .progression import ability_of, gain_ability_xp, gain_hero_prop_xp
from .sheet import (
    AbilityName,
    Award,
    CareerPath,
    CareerTrack,
    Mastery,
    Pool,
    Scar,
    Specialty,
    StarSheet,
)
from .state import ShowrunnerState

PATH_COST: dict[CareerPath, int] = {
    CareerPath.TRAINING: 3,
    CareerPath.PERSISTENCE: 4,
    CareerPath.TALENT: 5,
    CareerPath.DESTINY: 6,
}
PATH_POOL: dict[CareerPath, PoolName] = {
    CareerPath.TRAINING: "retake",
    CareerPath.PERSISTENCE: "grit",
    CareerPath.TALENT: "spotlight",
    CareerPath.DESTINY: "plot_armor",
}
"""The Influence each Path's Actor's Choice advances."""
PATH_AWARD: dict[CareerPath, Award] = {
    CareerPath.TRAINING: Award.ARTISAN,
    CareerPath.PERSISTENCE: Award.METHOD_ACTOR,
    CareerPath.TALENT: Award.LUMINARY,
    CareerPath.DESTINY: Award.ICON,
}
AWARD_POWER: dict[Award, str] = {
    Award.ARTISAN: "once per Episode, declare an automatic Success on one roll before rolling",
    Award.METHOD_ACTOR: "once per Episode, perform a Flashback without spending a Preparation",
    Award.LUMINARY: "once per Episode, turn a regular Success into a Highlight",
    Award.ICON: "once per Episode, negate or ignore one Consequence",
}
MINOR_MILESTONES_PER_MAJOR = 3
"""Minor Milestones (o) on one Path's track before its Major Milestone (O); not printed in the text."""
MAJORS_TO_NOMINATION = 2
INFLUENCE_TRACK = 10
"""Icons of one Influence a Star may Advance to; 20 with that Influence's Mastery (11.2 Influence Expansion)."""
INFLUENCE_MASTERY: dict[PoolName, Mastery] = {
    "retake": Mastery.RETAKE,
    "grit": Mastery.GRIT,
    "spotlight": Mastery.SPOTLIGHT,
    "plot_armor": Mastery.PLOT_ARMOR,
    "preparation": Mastery.PREPARATION,
}
INFLUENCE_MASTERIES = frozenset({Mastery.RETAKE, Mastery.GRIT, Mastery.SPOTLIGHT, Mastery.PLOT_ARMOR})
"""Actor Masteries (11.2); the rest are Character Masteries."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def path_cost(sheet: StarSheet, path: CareerPath) -> int:
    """Acclaim to fill a Path: the printed cost, −1 for its Award (pen), +1 per Limit Break bubble."""
    award = 1 if PATH_AWARD[path] in sheet.awards else 0
    return PATH_COST[path] - award + track_of(sheet, path).extra_cost


def track_of(sheet: StarSheet, path: CareerPath) -> CareerTrack:
    return sheet.career.get(path, CareerTrack())


def mark_acclaim(sheet: StarSheet, path: CareerPath, amount: int = 1) -> StarSheet:
    """Mark Acclaim on a Path (11: "immediately apply it"). A full track has no bubble left:
    complete the Path first."""
    if amount < 1:
        raise RuleViolation(f"Acclaim marked must be at least 1 (got {amount})")
    have, cost = sheet.acclaim.get(path, 0), path_cost(sheet, path)
    if have + amount > cost:
        raise RuleViolation(
            f"the Path of {path.value.title()} holds {have} of {cost} Acclaim and has room for {cost - have}: "
            "complete it (choose its reward) before marking more, or mark another Path"
        )
    return sheet.model_copy(update={"acclaim": {**sheet.acclaim, path: have + amount}})


def paths_due(sheet: StarSheet) -> list[CareerPath]:
    """Paths whose track is full and waits for its reward."""
    return [p for p in CareerPath if sheet.acclaim.get(p, 0) >= path_cost(sheet, p)]


# ------------------------------------------------------------------ the two choices (path_choices.py)


CHARACTER_CHOICE: dict[CareerPath, type] = {
    CareerPath.TRAINING: LearnSkill,
    CareerPath.PERSISTENCE: ExpandKit,
    CareerPath.TALENT: InnateAptitude,
    CareerPath.DESTINY: BackstoryRewrites,
}


class PathCompleted(_Record):
    star: str
    path: CareerPath
    choice: PathChoice
    roll: int | None = None
    lines: tuple[str, ...]
    minor: int
    major_milestone: bool
    nomination: bool
    """The second Major Milestone: Awards Season is due for this Path."""
    state: ShowrunnerState


def complete_path(
    state: ShowrunnerState,
    star: str,
    path: CareerPath,
    choice: ActorsChoice | LearnSkill | ExpandKit | InnateAptitude | BackstoryRewrites,
    dice: DiceSource,
) -> PathCompleted:
    """11.1: a full Path is cleared, its reward taken, and a Minor Milestone marked."""
    sheet = state.star(star)
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show")
    cost, have = path_cost(sheet, path), sheet.acclaim.get(path, 0)
    if have < cost:
        raise RuleViolation(f"the Path of {path.value.title()} holds {have} of {cost} Acclaim: it is not full yet")
    track = track_of(sheet, path)
    if track.major >= MAJORS_TO_NOMINATION:
        raise RuleViolation(f"{sheet.name} is nominated on the Path of {path.value.title()}: hold Awards Season first")
    if not isinstance(choice, ActorsChoice) and not isinstance(choice, CHARACTER_CHOICE[path]):
        raise RuleViolation(
            f"the Path of {path.value.title()}'s Character's Choice is {CHARACTER_CHOICE[path].__name__}, not {type(choice).__name__}"
        )
    lines: list[str] = []
    roll = None
    if isinstance(choice, ActorsChoice):
        sheet = _advance_influence(sheet, PATH_POOL[path], lines)
    elif isinstance(choice, LearnSkill):
        sheet = _learn_skill(sheet, choice, lines)
    elif isinstance(choice, ExpandKit):
        sheet = _expand_kit(sheet, lines)
    elif isinstance(choice, InnateAptitude):
        if len(set(choice.abilities)) != len(choice.abilities):
            raise RuleViolation("Innate Aptitude gives at most one permanent XP per Ability: name each Ability once")
        (roll,) = dice.roll("innate_aptitude", 1)
        for name in choice.abilities[:roll]:
            sheet, progress = gain_ability_xp(sheet, name, 1, permanent=True)
            lines.append(
                f"{name.value.title()}: 1 permanent XP"
                + (f", reached {' '.join(progress.reached)}" if progress.reached else "")
            )
        if roll > len(choice.abilities):
            lines.append(f"{roll - len(choice.abilities)} XP rolled had no Ability named and are lost")
    else:
        _rewrite(sheet, choice.rewrites, [])  # every rewrite listed must be possible, before the roll
        (roll,) = dice.roll("backstory_rewrites", 1)
        sheet = _rewrite(sheet, choice.rewrites[:roll], lines)
        if roll > len(choice.rewrites):
            lines.append(f"{roll - len(choice.rewrites)} rewrites rolled had nothing named and are lost")
    minor, major = track.minor + 1, track.major
    major_milestone = minor >= MINOR_MILESTONES_PER_MAJOR
    if major_milestone:
        minor, major = 0, major + 1
        lines.append(f"Major Milestone on the Path of {path.value.title()}")
    career = {**sheet.career, path: track.model_copy(update={"minor": minor, "major": major})}
    sheet = sheet.model_copy(update={"acclaim": {**sheet.acclaim, path: 0}, "career": career})
    state = state.with_star(sheet)
    if major_milestone:
        state = state.model_copy(update={"ensemble": grow_for_major_milestone(state.ensemble, path)})
    return PathCompleted(
        star=sheet.name,
        path=path,
        choice=choice,
        roll=roll,
        lines=tuple(lines),
        minor=minor,
        major_milestone=major_milestone,
        nomination=major >= MAJORS_TO_NOMINATION,
        state=state,
    )


def _influence_limit(sheet: StarSheet, pool: PoolName) -> int:
    return INFLUENCE_TRACK * (2 if INFLUENCE_MASTERY[pool] in sheet.masteries else 1)


def _advance_influence(sheet: StarSheet, pool: PoolName, lines: list[str]) -> StarSheet:
    current: Pool = getattr(sheet.influence, pool)
    limit = _influence_limit(sheet, pool)
    if current.max + current.exhausted + 1 > limit:
        hint = "" if limit > INFLUENCE_TRACK else f"; {LABELS[pool]} Mastery opens a second set of {INFLUENCE_TRACK}"
        raise RuleViolation(
            f"{sheet.name}'s {LABELS[pool]} track is full at {limit}{hint}: take the Character's Choice"
        )
    if pool == "plot_armor":  # 6.4: Plot Armor exhaustion is permanent
        new = current.model_copy(update={"max": current.max + 1, "current": current.current + 1})
    else:
        new = Pool(current=current.current + 1, max=current.max + current.exhausted + 1, exhausted=0)
    lines.append(f"{LABELS[pool]} maximum {current.max} → {new.max}, current {current.current} → {new.current}")
    return sheet.model_copy(update={"influence": sheet.influence.model_copy(update={pool: new})})


def _learn_skill(sheet: StarSheet, choice: LearnSkill, lines: list[str]) -> StarSheet:
    ability = ability_of(sheet, choice.ability)
    there = ability.slots.get(choice.slot)
    label = choice.ability.value.title()
    if isinstance(there, Scar):
        raise RuleViolation(f'{label} slot {choice.slot} holds the Scar "{there.name}": choose another slot')
    if isinstance(there, Specialty):
        if choice.specialty and choice.specialty.casefold() != there.name.casefold():
            raise RuleViolation(f'{label} slot {choice.slot} holds "{there.name}", not "{choice.specialty}"')
        if there.rank >= 5:
            raise RuleViolation(f'"{there.name}" is already +5, the highest a Specialty goes')
        new = there.model_copy(update={"rank": there.rank + 1})
    else:
        if not choice.specialty:
            raise RuleViolation(f"{label} slot {choice.slot} is empty: name the new Specialty")
        new = Specialty(name=choice.specialty, rank=1)
    lines.append(f'{label} slot {choice.slot}: Specialty "{new.name}" +{new.rank}')
    changed = ability.model_copy(update={"slots": {**ability.slots, choice.slot: new}})
    return sheet.model_copy(update={"abilities": {**sheet.abilities, choice.ability: changed}})


def _expand_kit(sheet: StarSheet, lines: list[str]) -> StarSheet:
    ticks = sheet.stuff_ticks + 1
    sheet = sheet.model_copy(update={"stuff_ticks": ticks})
    lines.append(f"Stuff track: {ticks} tick{'s' if ticks > 1 else ''}")
    if ticks % 2 == 0:
        per = 2 if Mastery.PREPARATION in sheet.masteries else 1
        prep = sheet.influence.preparation
        prep = prep.model_copy(update={"max": prep.max + per, "current": prep.current + 1})
        sheet = sheet.model_copy(update={"influence": sheet.influence.model_copy(update={"preparation": prep})})
        lines.append(
            f"Utility Bundle: +1 Hero Prop Slot, +1 Backpack Slot, +3 Trinket Slots, Preparation +{per} maximum and +1"
        )
    return sheet


def _rewrite(sheet: StarSheet, rewrites: tuple[Rewrite, ...], lines: list[str]) -> StarSheet:
    for rewrite in rewrites:
        ability = ability_of(sheet, rewrite.ability)
        label = rewrite.ability.value.title()
        if rewrite.what == "clear_conditions":
            if rewrite.slot is not None:
                raise RuleViolation("clearing Conditions names an Ability, not a slot")
            lines.append(f"{label}: {ability.conditions} Condition{'s' if ability.conditions != 1 else ''} cleared")
            ability = ability.model_copy(update={"conditions": 0})
        else:
            slot = rewrite.slot
            there = ability.slots.get(slot) if slot is not None else None
            if slot is None or not isinstance(there, Scar):
                raise RuleViolation(f"{label} slot {slot} holds no Scar to soften")
            slots = dict(ability.slots)
            if there.penalty > 1:
                slots[slot] = there.model_copy(update={"penalty": there.penalty - 1})
                lines.append(f'{label} Scar "{there.name}" -{there.penalty} → -{there.penalty - 1}')
            else:
                del slots[slot]
                lines.append(f'{label} Scar "{there.name}" healed and gone')
            ability = ability.model_copy(update={"slots": slots})
        sheet = sheet.model_copy(update={"abilities": {**sheet.abilities, rewrite.ability: ability}})
    return sheet


# ------------------------------------------------------------------ Awards Season


class MasterAbility(_Record):
    """Mastered Ability (11.2): another Ability becomes Mastered (⇧, +1 base die)."""

    ability: AbilityName


class Nomination(_Record):
    star: str
    path: CareerPath
    award: Award | None = None
    mastery: Mastery | None = None
    ability: AbilityName | None = None
    lines: tuple[str, ...]
    state: ShowrunnerState


def awards_season(
    state: ShowrunnerState, star: str, path: CareerPath, choice: Award | Mastery | MasterAbility
) -> Nomination:
    """11.2: the second Major Milestone on a Path is cleared for an Award (that Path's, once
    ever) or a Mastery (each once)."""
    sheet = state.star(star)
    track = track_of(sheet, path)
    if track.major < MAJORS_TO_NOMINATION:
        raise RuleViolation(
            f"{sheet.name} has {track.major} Major Milestone{'s' if track.major != 1 else ''} on the Path of "
            f"{path.value.title()}: a nomination needs {MAJORS_TO_NOMINATION}"
        )
    lines: list[str] = []
    award = mastery = ability = None
    if isinstance(choice, Award):
        if choice is not PATH_AWARD[path]:
            raise RuleViolation(
                f"the Path of {path.value.title()} wins {PATH_AWARD[path].value.replace('_', ' ').title()}'s Award, not {choice.value}"
            )
        if choice in sheet.awards:
            raise RuleViolation(f"{sheet.name} already won this Award: each Award is won once; choose a Mastery")
        award = choice
        sheet = sheet.model_copy(update={"awards": sheet.awards | {choice}})
        lines.append(f"won the Award ({AWARD_POWER[choice]}); the Path costs 1 Acclaim less")
    elif isinstance(choice, MasterAbility):
        target = ability_of(sheet, choice.ability)
        if target.mastered:
            raise RuleViolation(f"{choice.ability.value.title()} is already Mastered: choose another Ability")
        ability = choice.ability
        sheet = sheet.model_copy(
            update={"abilities": {**sheet.abilities, ability: target.model_copy(update={"mastered": True})}}
        )
        lines.append(f"{ability.value.title()} Mastered: +1 base die")
    else:
        if choice in sheet.masteries:
            raise RuleViolation(f"{sheet.name} already has {choice.value.replace('_', ' ').title()} Mastery")
        mastery = choice
        sheet = _take_mastery(sheet, choice, lines)
    sheet = sheet.model_copy(update={"career": {**sheet.career, path: track.model_copy(update={"major": 0})}})
    return Nomination(
        star=sheet.name,
        path=path,
        award=award,
        mastery=mastery,
        ability=ability,
        lines=tuple(lines),
        state=state.with_star(sheet),
    )


def _take_mastery(sheet: StarSheet, mastery: Mastery, lines: list[str]) -> StarSheet:
    sheet = sheet.model_copy(update={"masteries": sheet.masteries | {mastery}})
    if mastery is Mastery.HERO_PROP:
        for prop in list(sheet.hero_props):
            sheet, progress = gain_hero_prop_xp(sheet, prop.name, 1, permanent=True)
            lines.append(
                f"{prop.name}: 1 XP in pen" + (f", unlocked {' '.join(progress.reached)}" if progress.reached else "")
            )
    elif mastery is Mastery.PREPARATION:
        prep = sheet.influence.preparation
        extra = prep.max + prep.exhausted
        sheet = sheet.model_copy(
            update={
                "influence": sheet.influence.model_copy(
                    update={"preparation": prep.model_copy(update={"max": prep.max + extra})}
                )
            }
        )
        lines.append(f"Preparation: {extra} more traced (maximum {prep.max + extra})")
    elif mastery is Mastery.LIMIT:
        sheet = sheet.model_copy(update={"limit": sheet.limit.model_copy(update={"max": sheet.limit.max * 2})})
        lines.append(f"Limit: the second row traced (maximum {sheet.limit.max})")
    return sheet


def use_award(state: ShowrunnerState, star: str, award: Award) -> ShowrunnerState:
    """An Award's power, once per Episode (11.2): recorded against the Episode running now."""
    episode = award_episode(state, star, award)
    sheet = state.star(star)
    return state.with_star(sheet.model_copy(update={"awards_used": {**sheet.awards_used, award: episode}}))


def award_episode(state: ShowrunnerState, star: str, award: Award) -> int:
    """The Episode an Award's power may be used in now; refused when it cannot."""
    sheet = state.star(star)
    if award not in sheet.awards:
        raise RuleViolation(f"{sheet.name} has not won the {award.value.replace('_', ' ').title()} Award")
    episode = state.structure.episode
    if not state.structure.episode_open:
        raise RuleViolation("an Award's power is used during an Episode: start one first")
    if sheet.awards_used.get(award) == episode:
        raise RuleViolation(f"{sheet.name} already used this Award's power in Episode {episode} (once per Episode)")
    return episode
