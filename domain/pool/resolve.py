"""Resolving d10 Pool rolls against a branch's state: a check, a contest, a Luck roll.

Each `resolve_*` takes the state, the request as the table made it and a dice source, refuses
bad input before any die is rolled, and returns a resolution holding the request, every die
and every decision. Given the same state, request and faces it returns the same resolution,
which is what lets an audit re-judge a recorded roll.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource, RecordingDice, Roll
from ..errors import RuleViolation, UnknownName
from ..inputs import Input
from ..names import name_key
from ..text import Line, Name, OptionalName
from .character import RANK_MAX, STAT_MAX, PoolCharacter, PoolParts, Stat, pool_for
from .rules import (
    SIDES,
    Count,
    Degree,
    check_dc,
    check_required,
    contest_winner,
    count,
    dc_name,
    degree,
    luck_holds,
    needed,
)
from .state import LastRoll, PoolState

ENGINE = "pool/1"
"""Named in every recorded roll; a rules change that alters outcomes gets a new version."""

POOL = "pool"
DEFENDER = "defender_dice"
LUCK = "luck"
NPC_POOL_MAX = STAT_MAX + RANK_MAX


class _Request(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PoolCheck(_Request):
    """A check: the character rolls stat + trained skill d10s against a DC."""

    character: str = Field(description="the character who rolls")
    stat: Stat = Field(description="the stat the roll draws on: " + ", ".join(s.value for s in Stat))
    dc: int = Field(
        description="the number each die must reach, 3 to 10: easy 3-4, average 5-6, demanding 7, "
        "hard 8, very hard 9, near-impossible 10"
    )
    skill: OptionalName = Field(
        default=None,
        description="the skill the roll draws on; untrained or not on the sheet, the pool is the stat alone",
    )
    required: int = Field(default=1, description="successes required, 1 to 3 (most tasks 1, demanding ones 2 or 3)")
    critical: bool = Field(default=False, description="a do-or-die critical roll: the successes required are doubled")
    hidden: bool = Field(default=False, description="roll in secret: the roll is visible to the Director only")


class PoolContest(_Request):
    """A contest: both sides roll their pools; the side starting it must beat the defender, not match them."""

    character: str = Field(description="the character starting the contest (the attacker)")
    stat: Stat = Field(description="the attacker's stat: " + ", ".join(s.value for s in Stat))
    dc: int = Field(description="the DC each die must reach, 3 to 10 (for both sides unless --defender-dc)")
    defender: Name = Field(description="who resists: a character of the campaign, or anyone else given --defender-pool")
    skill: OptionalName = Field(default=None, description="the attacker's skill, if any")
    defender_stat: Stat | None = Field(
        default=None, description="a character defender's stat (default: the attacker's stat)"
    )
    defender_skill: OptionalName = Field(default=None, description="a character defender's skill, if any")
    defender_pool: int | None = Field(
        default=None,
        description="the dice of a defender who is not a character, 1 to 20 (stat + skill as the Director sees them)",
    )
    defender_dc: int | None = Field(default=None, description="the DC of the defender's dice, 3 to 10 (default: --dc)")
    hidden: bool = Field(default=False, description="roll in secret: the contest is visible to the Director only")


class LuckRequest(_Request):
    """A Luck roll: one d10 at or under the character's Luck is a lucky break."""

    character: str = Field(description="whose Luck decides the coin-flip")
    question: Line = Field(default="", description="what the coin-flip decides, in a few words")
    after_failure: bool = Field(
        default=False,
        description="the character's last check or contest failed: a lucky "
        "roll makes it a fortunate mistake (it stays a failure)",
    )
    hidden: bool = Field(default=False, description="roll in secret: visible to the Director only")


# ----------------------------------------------------------------- checks


class CheckResolution(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    engine: str = ENGINE
    request: PoolCheck
    parts: PoolParts
    need: int
    """The successes the roll had to reach: required, doubled for a critical roll."""
    counted: Count
    degree: Degree
    margin: int
    """Net successes − needed: above 0 plenty, 0 just enough, below 0 short (or a botch)."""
    rolls: tuple[Roll, ...]

    @property
    def star(self) -> str:
        return self.parts.character

    def judged(self) -> tuple[tuple[str, object], ...]:
        """Every decision, named, in the order an audit compares them."""
        c = self.counted
        return (
            ("pool", self.parts.size),
            ("pool dice", c.faces),
            ("successes", c.successes),
            ("1s", c.ones),
            ("net", c.net),
            ("successes needed", self.need),
            ("degree", self.degree.label),
            ("margin", self.margin),
        )


def resolve_check(state: PoolState, request: PoolCheck, dice: DiceSource) -> CheckResolution:
    check_dc(request.dc)
    check_required(request.required)
    character = state.member(request.character)
    parts = pool_for(character, request.stat, request.skill)
    recording = RecordingDice(dice)
    faces = recording.roll(POOL, parts.size, SIDES)
    counted = count(faces, request.dc)
    need = needed(request.required, request.critical)
    judged = degree(counted, need)
    return CheckResolution(
        request=request,
        parts=parts,
        need=need,
        counted=counted,
        degree=judged,
        margin=counted.net - need,
        rolls=tuple(recording.rolls),
    )


def explain_check(r: CheckResolution, source: str) -> list[str]:
    c = r.counted
    req = r.request
    lines = [f"{r.star} rolls {r.parts.describe()} at DC {req.dc} ({dc_name(req.dc)})"]
    if req.critical:
        lines.append(
            f"critical roll: {req.required} success{'es' if req.required > 1 else ''} required, doubled to {r.need}"
        )
    else:
        lines.append(f"{r.need} success{'es' if r.need > 1 else ''} required")
    lines.append(f"pool dice ({source}): {_faces(c.faces)}")
    hits = [f for f in c.faces if f >= req.dc]
    lines.append(f"successes (a die at {req.dc} or more): {c.successes}" + (f" ({_faces(hits)})" if hits else ""))
    lines.append(f"1s: {c.ones}; each cancels one success: net {c.successes} - {c.ones} = {c.net}")
    if r.degree is Degree.BOTCH:
        lines.append(f"the 1s leave no success: a botch ({r.degree.meaning}); margin {r.margin:+d}")
    else:
        lines.append(
            f"net {c.net} against {r.need} needed: margin {r.margin:+d}, {r.degree.label} ({r.degree.meaning})"
        )
    if req.critical and r.degree is not Degree.JUST_ENOUGH:
        lines.append(
            "a critical roll: " + ("a spectacular success" if r.degree.succeeded else "the failure hits twice as hard")
        )
    if req.hidden:
        lines.append("a hidden roll: visible to the Director only")
    return lines


def apply_check(state: PoolState, r: CheckResolution, roll_number: int) -> PoolState:
    last = LastRoll(
        roll_number=roll_number,
        kind="check",
        outcome=r.degree.label,
        failed=not r.degree.succeeded,
        hidden=r.request.hidden,
    )
    return state.with_last_roll(r.star, last)


# ----------------------------------------------------------------- contests


class ContestResolution(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    engine: str = ENGINE
    request: PoolContest
    attacker: PoolParts
    defender: PoolParts | None
    """The defender's pool from their sheet; None for a defender who is not a character."""
    defender_name: str
    defender_size: int
    defender_dc: int
    attacker_counted: Count
    defender_counted: Count
    winner: str
    """'attacker' or 'defender' (ties go to the defender)."""
    margin: int
    """Attacker's kept successes − defender's: the attacker wins only above 0."""
    rolls: tuple[Roll, ...]

    @property
    def star(self) -> str:
        return self.attacker.character

    @property
    def winner_name(self) -> str:
        return self.star if self.winner == "attacker" else self.defender_name

    def judged(self) -> tuple[tuple[str, object], ...]:
        a, d = self.attacker_counted, self.defender_counted
        return (
            ("attacker's pool", self.attacker.size),
            ("defender's pool", self.defender_size),
            ("attacker's dice", a.faces),
            ("defender's dice", d.faces),
            ("attacker's successes", a.kept),
            ("defender's successes", d.kept),
            ("attacker's botch", a.botched),
            ("defender's botch", d.botched),
            ("winner", self.winner),
            ("margin", self.margin),
        )


def _find_defender(state: PoolState, name: str) -> PoolCharacter | None:
    """A character of the campaign by name (or the unique start of one); None for anyone else."""
    key = name_key(name)
    if not key:
        raise RuleViolation("a contest needs a defender: give --defender NAME")
    if key in state.roster():
        return state.member(name)
    matches = [c for k, c in state.roster().items() if k.startswith(key)]
    if len(matches) > 1:
        raise UnknownName(f"defender '{name}' could be {', '.join(m.name for m in matches)}; give more of the name")
    return matches[0] if matches else None


def resolve_contest(state: PoolState, request: PoolContest, dice: DiceSource) -> ContestResolution:
    check_dc(request.dc)
    defender_dc = request.dc if request.defender_dc is None else request.defender_dc
    check_dc(defender_dc, "defender DC")
    attacker = state.member(request.character)
    parts = pool_for(attacker, request.stat, request.skill)
    opponent = _find_defender(state, request.defender)
    defender_parts: PoolParts | None = None
    if opponent is not None:
        if name_key(opponent.name) == name_key(attacker.name):
            raise RuleViolation(f"{attacker.name} cannot contest against themself; name another defender")
        if request.defender_pool is not None:
            raise RuleViolation(
                f"{opponent.name} is a character: their pool comes from their sheet "
                "(--defender-stat, --defender-skill); leave out --defender-pool"
            )
        defender_parts = pool_for(opponent, request.defender_stat or request.stat, request.defender_skill)
        defender_name, defender_size = opponent.name, defender_parts.size
    else:
        defender_name = " ".join(request.defender.split())
        if request.defender_pool is None:
            known = ", ".join(c.name for c in state.roster().values()) or "none yet"
            raise RuleViolation(
                f"'{defender_name}' is not a character of this campaign (characters: {known}): "
                "give their dice with --defender-pool N"
            )
        if request.defender_stat is not None or request.defender_skill is not None:
            raise RuleViolation(
                f"'{defender_name}' has no sheet to read --defender-stat or --defender-skill from: "
                "give their whole pool with --defender-pool N"
            )
        if not 1 <= request.defender_pool <= NPC_POOL_MAX:
            raise RuleViolation(
                f"--defender-pool must be 1 to {NPC_POOL_MAX} dice (a stat plus a skill), not {request.defender_pool}"
            )
        defender_size = request.defender_pool
    recording = RecordingDice(dice)
    a = count(recording.roll(POOL, parts.size, SIDES), request.dc)
    d = count(recording.roll(DEFENDER, defender_size, SIDES), defender_dc)
    return ContestResolution(
        request=request,
        attacker=parts,
        defender=defender_parts,
        defender_name=defender_name,
        defender_size=defender_size,
        defender_dc=defender_dc,
        attacker_counted=a,
        defender_counted=d,
        winner=contest_winner(a, d),
        margin=a.kept - d.kept,
        rolls=tuple(recording.rolls),
    )


def explain_contest(r: ContestResolution, source: str) -> list[str]:
    a, d = r.attacker_counted, r.defender_counted
    req = r.request
    defender_pool = r.defender.describe() if r.defender else f"{r.defender_size}d10 (the Director's pool)"
    lines = [
        f"{r.star} starts a contest with {r.attacker.describe()} at DC {req.dc} ({dc_name(req.dc)})",
        f"{r.defender_name} defends with {defender_pool} at DC {r.defender_dc} ({dc_name(r.defender_dc)})",
        f"{r.star}'s dice ({source}): {_faces(a.faces)}: successes {a.successes}, 1s {a.ones}, net {a.net}"
        + (" (a botch)" if a.botched else ""),
        f"{r.defender_name}'s dice ({source}): {_faces(d.faces)}: successes {d.successes}, 1s {d.ones}, net {d.net}"
        + (" (a botch)" if d.botched else ""),
        f"successes that count (net, never below 0): {a.kept} against {d.kept}",
    ]
    if r.winner == "attacker":
        lines.append(f"{r.star} lands more: {r.star} wins by {r.margin}")
    elif r.margin == 0:
        lines.append(f"a tie: ties go to the defender, so {r.defender_name} wins")
    else:
        lines.append(f"{r.defender_name} lands more: {r.defender_name} wins by {-r.margin}")
    if req.hidden:
        lines.append("a hidden contest: visible to the Director only")
    return lines


def apply_contest(state: PoolState, r: ContestResolution, roll_number: int) -> PoolState:
    won = r.winner == "attacker"
    state = state.with_last_roll(
        r.star,
        LastRoll(
            roll_number=roll_number,
            kind="contest",
            outcome="won the contest" if won else "lost the contest",
            failed=not won,
            hidden=r.request.hidden,
        ),
    )
    if r.defender is not None:
        state = state.with_last_roll(
            r.defender_name,
            LastRoll(
                roll_number=roll_number,
                kind="contest",
                outcome="lost the contest" if won else "won the contest",
                failed=won,
                hidden=r.request.hidden,
            ),
        )
    return state


# ----------------------------------------------------------------- Luck


class LuckResolution(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    engine: str = ENGINE
    request: LuckRequest
    character: str
    luck: int
    after: LastRoll | None
    """The failed roll a Luck roll after a failure reads; None for a plain coin-flip."""
    face: int
    lucky: bool
    rolls: tuple[Roll, ...]

    @property
    def star(self) -> str:
        return self.character

    @property
    def hidden(self) -> bool:
        """Hidden when asked, and always after a hidden roll: its outcome must not leak through Luck."""
        return self.request.hidden or (self.after is not None and self.after.hidden)

    @property
    def meaning(self) -> str:
        if self.after is None:
            return (
                "a lucky break: the coincidence falls their way"
                if self.lucky
                else "no luck: the coincidence does not come"
            )
        if self.lucky:
            return f"a fortunate mistake: the failure ({self.after.outcome}) stands, but it falls kindly"
        return f"no luck: the failure ({self.after.outcome}) stands as it fell"

    def judged(self) -> tuple[tuple[str, object], ...]:
        return (
            ("Luck", self.luck),
            ("failed roll", self.after.roll_number if self.after else None),
            ("luck die", self.face),
            ("lucky", self.lucky),
        )


def resolve_luck(state: PoolState, request: LuckRequest, dice: DiceSource) -> LuckResolution:
    character = state.member(request.character)
    after: LastRoll | None = None
    if request.after_failure:
        after = state.last_roll(character.name)
        if after is None:
            raise RuleViolation(f"{character.name} has no check or contest on this branch to be lucky after")
        if after.hidden and not after.failed:
            raise RuleViolation(f"{character.name}'s last roll does not take Luck after a failure")
        if not after.failed:
            raise RuleViolation(
                f"{character.name}'s last roll ({after.outcome}) did not fail: Luck never turns a failure into a "
                "success, and after a success there is nothing for it to change; roll it as a plain coin-flip"
            )
        if after.luck_rolled:
            raise RuleViolation(f"Luck was already rolled after {character.name}'s last failure")
    recording = RecordingDice(dice)
    (face,) = recording.roll(LUCK, 1, SIDES)
    return LuckResolution(
        request=request,
        character=character.name,
        luck=character.luck,
        after=after,
        face=face,
        lucky=luck_holds(face, character.luck),
        rolls=tuple(recording.rolls),
    )


def explain_luck(r: LuckResolution, source: str) -> list[str]:
    about = f" ({r.request.question})" if r.request.question else ""
    lines = [f"{r.character} rolls Luck{about}: one d10, lucky at {r.luck} or under"]
    if r.after is not None:
        lines.append(
            f"after a failure: {r.character}'s last {r.after.kind} (roll {r.after.roll_number} of the branch), "
            f"{r.after.outcome}"
        )
    lines.append(f"luck die ({source}): {r.face}: " + ("lucky" if r.lucky else "not lucky"))
    lines.append(r.meaning + "; Luck never turns a failure into a success")
    if r.hidden:
        lines.append("a hidden roll: visible to the Director only")
    return lines


def apply_luck(state: PoolState, r: LuckResolution) -> PoolState:
    if r.after is None:
        return state
    last = state.last_roll(r.character)
    if last is None:  # not after a failure that this state knows: nothing to mark
        return state
    return state.with_last_roll(
        r.character, last.model_copy(update={"luck_rolled": True, "fortunate_mistake": r.lucky})
    )


def _faces(faces: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(f) for f in faces) or "none"
