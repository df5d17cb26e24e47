"""Resolving a d4 Resonance Check, step by step.

`resolve(state, request, dice)` refuses bad input before any die is asked for, then rolls
the Difficulty (the Director's Challenge, or the opponent's opposed roll or Reaction) and
the roller's d4s, keeps the two largest of each, and judges Resonance or Dissonance. A
Strike that succeeds harms its target by its Resonance. Given the same state, inputs and
faces it always decides the same, which is what lets an audit re-judge a recorded check.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource, RecordingDice, Roll
from ..errors import RuleViolation, UnknownName
from ..inputs import Input, Many
from ..names import name_key
from ..text import NameList, OptionalLine, OptionalName
from .harms import ENDURANCE_LABEL, HarmDealt, apply_harm, check_endurance, harm_type, inflict
from .rules import SIDES, judge, pool_size, total, two_largest
from .sheet import MAX_RANK, Combatant
from .state import ResonanceState

ENGINE = "resonance-check/1"
"""Named in every recorded check; a rules change that alters outcomes gets a new version."""
MAX_DIFFICULTY = 8
"""The most two d4s can show: a Difficulty already rolled lies between 0 and 8."""


class CheckInput(Input):
    """Everything the table declared for one check; recorded as it was asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    character: str = Field(description="who rolls: a character or an adversary")
    skill: str = Field(description="the Skill rolled: its rank is the number of d4s")
    challenge: int | None = Field(
        default=None,
        description="an unopposed check: the Director rolls this many d4s (the Challenge) for the Difficulty",
    )
    opposed_by: str | None = Field(
        default=None, description="an opposed check: the character or adversary whose roll sets the Difficulty"
    )
    opposed_skill: str | None = Field(
        default=None, description="the opponent's Skill for --opposed-by, or the target's Reaction Skill for a Strike"
    )
    also_opposed_by: NameList = Field(
        default_factory=list,
        description="another opponent of an --opposed-by check, as NAME=SKILL (repeat for each): each rolls "
        "their own Difficulty, and the check is judged against each",
    )
    opposed_rank: int | None = Field(
        default=None, description="an opposed check against an opponent not in the ledger: their rank in the Skill"
    )
    difficulty: int | None = Field(default=None, description="a Difficulty already rolled at the table (0 to 8)")
    support: list[str] = Field(
        default_factory=list, description="the character who Supports the check (+1 die); only one may"
    )
    opposed_support: list[str] = Field(
        default_factory=list, description="the character who Supports the opponent's roll or Reaction (+1 die to it)"
    )
    also_opposed_support: NameList = Field(
        default_factory=list,
        description="the character who Supports another opponent's roll, as OPPONENT=SUPPORTER (+1 die to it; "
        "one Supporter per opponent)",
    )
    stretch: bool = Field(
        default=False, description="a Stretch: the ability's mechanics on a loosely matching narration, 1 die fewer"
    )
    spellcraft: str | None = Field(
        default=None, description="a Spellcraft check: the Spellcraft keyword used (from one of the character's Traits)"
    )
    intent: OptionalLine = Field(
        default=None,
        description="the intent of a Spellcraft check; a failed intent cannot be tried with Spellcraft again",
    )
    target: str | None = Field(
        default=None, description="a Strike: the target, whose Reaction roll (--opposed-skill) sets the Difficulty"
    )
    harm: OptionalName = Field(default=None, description="the type of Harm a Strike inflicts (its Resonance in levels)")
    harm_source: Literal["physical", "magical"] = Field(
        default="physical",
        description="whether the Strike harms physically or magically (which Endurance may reduce it)",
    )
    endurance: Many = Field(
        default=0, description="Endurance points the target spends to reduce the Strike's Resonance, 1 each"
    )


class PoolPart(BaseModel):
    """Where some of a pool came from: 'rank 3 in Brawn', '+1 Supported by Orrin'."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    source: str
    dice: int


class OpposedOutcome(BaseModel):
    """The check judged against one more opponent: their own roll, their own Difficulty."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    opponent: str
    skill: str
    supporter: str | None = None
    pool: tuple[PoolPart, ...]
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    difficulty: int
    success: bool
    resonance: int
    dissonance: int

    def outcome(self) -> str:
        return f"success, Resonance {self.resonance}" if self.success else f"failure, Dissonance {self.dissonance}"


class CheckResolution(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    engine: str = ENGINE
    request: CheckInput
    roller: str
    skill: str
    pool: tuple[PoolPart, ...]
    dice_count: int
    difficulty_source: str
    """'Challenge 3', "the Gate Warden's Reaction (Agility)", 'an opponent of rank 2', 'fixed'."""
    opponent: str | None = None
    supporter: str | None = None
    opposed_supporter: str | None = None
    difficulty_pool: tuple[PoolPart, ...] = ()
    rolls: tuple[Roll, ...]
    difficulty_faces: tuple[int, ...] = ()
    difficulty_kept: tuple[int, ...] = ()
    difficulty: int
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    result: int
    success: bool
    resonance: int
    dissonance: int
    harm: HarmDealt | None = None
    failed_intent: str | None = None
    """The Spellcraft intent this check failed, now barred for the character."""
    steps: tuple[str, ...] = ()
    others: tuple[OpposedOutcome, ...] = ()
    """The check against each opponent after the first (`--also-opposed-by`)."""

    def judged(self) -> tuple[object, ...]:
        """What an audit compares: every decision of the check."""
        return (
            self.dice_count,
            self.difficulty_faces,
            self.difficulty_kept,
            self.difficulty,
            self.faces,
            self.kept,
            self.result,
            self.success,
            self.resonance,
            self.dissonance,
            self.harm,
            self.failed_intent,
            self.others,
        )

    @property
    def strike(self) -> bool:
        return self.request.target is not None

    def outcome(self) -> str:
        return f"success, Resonance {self.resonance}" if self.success else f"failure, Dissonance {self.dissonance}"


JUDGED_NAMES = (
    "number of dice",
    "Difficulty dice",
    "Difficulty's kept dice",
    "Difficulty",
    "roller's dice",
    "kept dice",
    "result",
    "success",
    "Resonance",
    "Dissonance",
    "Harm",
    "failed intent",
    "check against the other opponents",
)


def _skill(who: Combatant, skill: str, role: str) -> tuple[str, int]:
    name = who.sheet.skill_name(skill)
    if name is None:
        known = ", ".join(who.sheet.skills) or "none"
        raise UnknownName(
            f"{who.name} has no Skill '{skill}' for {role} (their Skills: {known}); "
            "a Skill the character lacks is written on the sheet with rank 0"
        )
    return name, who.sheet.skills[name]


def _one(names: list[str], what: str) -> str | None:
    cleaned = [n for n in (" ".join(n.split()) for n in names) if n]
    if len(cleaned) > 1:
        raise RuleViolation(
            f"multiple characters cannot Support the same roll ({', '.join(cleaned)} offered to Support {what}); keep one"
        )
    return cleaned[0] if cleaned else None


def _supports_once(supporter: str, supporting: list[str], what: str) -> None:
    # Each Support is the supporter's narrated assistance, and in combat it spends their one Check:
    # one character Supports one roll of a check.
    if any(name_key(supporter) == name_key(s) for s in supporting):
        raise RuleViolation(f"{supporter} already Supports another roll of this check and cannot also Support {what}")


def _in_range(value: int, low: int, high: int, what: str) -> None:
    if not low <= value <= high:
        raise RuleViolation(f"{what} must be between {low} and {high} (got {value})")


def _same(a: Combatant, b: Combatant) -> bool:
    return name_key(a.name) == name_key(b.name)


class _Declared:
    """The checked request: who takes part and how many dice each side rolls. Nothing is rolled yet."""

    def __init__(self, state: ResonanceState, request: CheckInput) -> None:
        self.steps: list[str] = []
        roller = state.active(request.character, "roll a check")
        self.roller = roller
        self.skill, rank = _skill(roller, request.skill, "the check")
        self.strike = request.target is not None
        self._difficulty(state, request)
        self._spellcraft(roller, request)

        supporter_name = _one(request.support, f"{roller.name}'s check")
        self.supporter: Combatant | None = None
        if supporter_name is not None:
            supporter = state.active(supporter_name, "Support a check")
            if _same(supporter, roller):
                raise RuleViolation(f"{roller.name} cannot Support their own check")
            if self.opponent is not None and _same(supporter, self.opponent):
                raise RuleViolation(f"{supporter.name} is the opponent and cannot Support {roller.name}'s check")
            if any(_same(supporter, o) for o in self.opponents()[1:]):
                raise RuleViolation(
                    f"{supporter.name} is one of the opponents and cannot Support {roller.name}'s check"
                )
            _supports_once(supporter.name, self.opposing_supporters(), f"{roller.name}'s check")
            self.supporter = supporter

        enchanted = self.strike and roller.enchanted
        self.pool = [PoolPart(source=f"rank {rank} in {self.skill}", dice=rank)]
        if self.supporter is not None:
            self.pool.append(PoolPart(source=f"Supported by {self.supporter.name}", dice=1))
        if enchanted:
            self.pool.append(PoolPart(source="Weapon Enchantment Kit (Strikes this Scene)", dice=1))
        if request.stretch:
            self.pool.append(PoolPart(source="a Stretch", dice=-1))
        self.count = pool_size(
            rank, supported=self.supporter is not None, stretch=request.stretch, bonus=1 if enchanted else 0
        )

    def _difficulty(self, state: ResonanceState, request: CheckInput) -> None:
        given = [
            option
            for option, value in (
                ("--challenge", request.challenge),
                ("--opposed-by", request.opposed_by),
                ("--opposed-rank", request.opposed_rank),
                ("--difficulty", request.difficulty),
            )
            if value is not None
        ]
        self.opponent: Combatant | None = None
        self.opposed_supporter: str | None = None
        self.challenge: int | None = None
        self.opposed_count = 0
        self.opposed_pool: list[PoolPart] = []
        self.others: list[tuple[Combatant, str, int, Combatant | None]] = []
        if request.also_opposed_by:
            if self.strike:
                raise RuleViolation(
                    "a Strike has one target, whose Reaction sets its Difficulty: drop --also-opposed-by"
                )
            if request.opposed_by is None:
                raise RuleViolation(
                    "--also-opposed-by adds opponents to a named one: give the first with --opposed-by and --opposed-skill"
                )
        if self.strike:
            self._strike(state, request, given)
            return
        if request.harm is not None:
            raise RuleViolation("--harm belongs to a Strike: name its --target")
        if request.endurance:
            raise RuleViolation("--endurance belongs to a Strike: name its --target")
        if not given:
            raise RuleViolation(
                "say where the Difficulty comes from: --challenge N (the Director rolls), --opposed-by NAME "
                "--opposed-skill SKILL, --opposed-rank N, or --difficulty N (already rolled)"
            )
        if len(given) > 1:
            raise RuleViolation(f"a check has one Difficulty: give only one of {', '.join(given)}")
        if request.opposed_skill is not None and request.opposed_by is None:
            raise RuleViolation("--opposed-skill names the Skill of --opposed-by (or of a Strike's --target)")
        if request.opposed_support and request.opposed_by is None:
            raise RuleViolation("--opposed-support needs a named opponent (--opposed-by)")
        if request.challenge is not None:
            _in_range(request.challenge, 1, MAX_RANK, "a Challenge (d4s the Director rolls)")
            self.challenge = request.challenge
            self.source = f"the Director's Challenge {request.challenge}"
        elif request.opposed_rank is not None:
            _in_range(request.opposed_rank, 0, MAX_RANK, "an opponent's rank")
            self.opposed_count = request.opposed_rank
            self.opposed_pool = [
                PoolPart(source=f"the opponent's rank {request.opposed_rank}", dice=request.opposed_rank)
            ]
            self.source = f"an opponent of rank {request.opposed_rank}"
        elif request.difficulty is not None:
            _in_range(request.difficulty, 0, MAX_DIFFICULTY, "a Difficulty already rolled")
            self.source = f"a Difficulty of {request.difficulty} already rolled"
        else:
            assert request.opposed_by is not None
            opponent = state.active(request.opposed_by, "oppose a check")
            if _same(opponent, self.roller):
                raise RuleViolation(f"{self.roller.name} cannot oppose their own check")
            if request.opposed_skill is None:
                raise RuleViolation(f"name the Skill {opponent.name} opposes with (--opposed-skill)")
            self._opposed(state, request, opponent, f"{opponent.name}'s opposed roll")
            self._other_opponents(state, request)

    def opponents(self) -> list[Combatant]:
        return ([self.opponent] if self.opponent is not None else []) + [o for o, _, _, _ in self.others]

    def opposing_supporters(self) -> list[str]:
        """Who Supports a roll against the check: the first opponent's and each further one's."""
        further = [s.name for _, _, _, s in self.others if s is not None]
        return ([self.opposed_supporter] if self.opposed_supporter is not None else []) + further

    def _other_opponents(self, state: ResonanceState, request: CheckInput) -> None:
        for entry in request.also_opposed_by:
            name, equals, skill = entry.partition("=")
            if not equals or not name.strip() or not skill.strip():
                raise RuleViolation(
                    f"another opponent is written NAME=SKILL, e.g. 'Gate Guard=Insight' (got '{entry}')"
                )
            opponent = state.active(name, "oppose a check")
            if _same(opponent, self.roller):
                raise RuleViolation(f"{self.roller.name} cannot oppose their own check")
            if any(_same(opponent, o) for o in self.opponents()):
                raise RuleViolation(f"{opponent.name} is named twice among the opponents")
            if self.opposed_supporter is not None and name_key(self.opposed_supporter) == name_key(opponent.name):
                raise RuleViolation(
                    f"{opponent.name} opposes the check and cannot also Support another opponent's roll"
                )
            skill_name, rank = _skill(opponent, skill.strip(), f"{opponent.name}'s opposed roll")
            self.others.append((opponent, skill_name, rank, None))
        self._other_supporters(state, request)

    def _other_supporters(self, state: ResonanceState, request: CheckInput) -> None:
        wanted: dict[str, list[str]] = {}
        for entry in request.also_opposed_support:
            name, equals, who = entry.partition("=")
            if not equals or not name.strip() or not who.strip():
                raise RuleViolation(
                    f"a Support of another opponent is written OPPONENT=SUPPORTER, e.g. 'Tess=Orrin' (got '{entry}')"
                )
            opponent = state.combatant(name)
            if not any(_same(opponent, o) for o, _, _, _ in self.others):
                raise RuleViolation(
                    f"{opponent.name} is not one of the further opponents (--also-opposed-by); the first "
                    "opponent's roll is Supported with --opposed-support"
                )
            wanted.setdefault(name_key(opponent.name), []).append(who)
        for index, (opponent, skill, rank, _) in enumerate(self.others):
            label = f"{opponent.name}'s opposed roll"
            supporter_name = _one(wanted.get(name_key(opponent.name), []), label)
            if supporter_name is None:
                continue
            supporter = state.active(supporter_name, "Support a roll")
            if _same(supporter, self.roller):
                raise RuleViolation(f"{self.roller.name} cannot Support the roll against their own check")
            if any(_same(supporter, o) for o in self.opponents()):
                raise RuleViolation(
                    f"{supporter.name} opposes the check and cannot also Support another opponent's roll"
                )
            _supports_once(supporter.name, self.opposing_supporters(), label)
            self.others[index] = (opponent, skill, rank, supporter)

    def _strike(self, state: ResonanceState, request: CheckInput, given: list[str]) -> None:
        assert request.target is not None
        target = state.active(request.target, "be struck")
        if _same(target, self.roller):
            raise RuleViolation(f"{self.roller.name} cannot Strike themselves")
        others = [option for option in given if option != "--opposed-by"]
        if others:
            raise RuleViolation(
                f"a Strike's Difficulty is its target's Reaction roll: drop {', '.join(others)} and name the "
                "Reaction's Skill with --opposed-skill"
            )
        if request.opposed_by is not None and not _same(state.combatant(request.opposed_by), target):
            raise RuleViolation(
                f"a Strike is opposed by its target, {target.name}: drop --opposed-by or make it the target"
            )
        if request.opposed_skill is None:
            raise RuleViolation(f"name the Skill of {target.name}'s Reaction (--opposed-skill)")
        self.harm_type = harm_type(request.harm)
        combat = state.combat
        if combat is None:
            raise RuleViolation("a Strike happens in combat: start one with `resonance initiative` first")
        for who in (self.roller, target):
            if not combat.takes_part(who.name):
                raise RuleViolation(f"{who.name} is not in this combat (its turn order: {', '.join(combat.order)})")
            if combat.front_of(who.name) is None:
                raise RuleViolation(f"{who.name} is on no Front yet: assign one with `resonance front`")
        if combat.front_of(self.roller.name) != combat.front_of(target.name):
            raise RuleViolation(
                f"attacks cannot target enemies on other Fronts: {self.roller.name} is on "
                f"{combat.front_of(self.roller.name)}, {target.name} on {combat.front_of(target.name)}"
            )
        check_endurance(target, request.harm_source, request.endurance)
        self._opposed(state, request, target, f"{target.name}'s Reaction")

    def _opposed(self, state: ResonanceState, request: CheckInput, opponent: Combatant, label: str) -> None:
        assert request.opposed_skill is not None
        skill, rank = _skill(opponent, request.opposed_skill, label)
        self.opponent = opponent
        self.source = f"{label} ({skill})"
        self.opposed_pool = [PoolPart(source=f"{opponent.name}'s rank {rank} in {skill}", dice=rank)]
        supporter_name = _one(request.opposed_support, label)
        supported = False
        if supporter_name is not None:
            supporter = state.active(supporter_name, "Support a roll")
            if _same(supporter, opponent):
                raise RuleViolation(f"{opponent.name} cannot Support their own roll")
            if _same(supporter, self.roller):
                raise RuleViolation(f"{self.roller.name} cannot Support the roll against their own check")
            self.opposed_pool.append(PoolPart(source=f"Supported by {supporter.name}", dice=1))
            self.opposed_supporter = supporter.name
            supported = True
        self.opposed_count = pool_size(rank, supported=supported)

    def _spellcraft(self, roller: Combatant, request: CheckInput) -> None:
        self.intent: str | None = None
        if request.spellcraft is None:
            if request.intent is not None:
                raise RuleViolation("--intent belongs to a Spellcraft check: name its keyword with --spellcraft")
            return
        keywords = roller.sheet.spellcraft_keywords()
        if name_key(request.spellcraft) not in keywords:
            known = ", ".join(k for t in roller.sheet.traits for k in t.spellcraft) or "none"
            raise RuleViolation(
                f"{roller.name} has no Trait granting the Spellcraft keyword '{request.spellcraft}' (their keywords: {known})"
            )
        if request.stretch:
            raise RuleViolation("Spellcraft checks cannot be Stretches: drop --stretch")
        intent = " ".join((request.intent or "").split())
        if not intent:
            raise RuleViolation('a Spellcraft check names its intent (--intent "cross the ravine")')
        failed = next((i for i in roller.failed_intents if name_key(i) == name_key(intent)), None)
        if failed is not None:
            raise RuleViolation(
                f"{roller.name} already failed a Spellcraft check to '{failed}': the same intent cannot be attempted "
                "with Spellcraft again, whatever the method (an Arc's end clears it)"
            )
        self.intent = intent
        self.trait = keywords[name_key(request.spellcraft)]


def resolve(state: ResonanceState, request: CheckInput, dice: DiceSource) -> CheckResolution:
    """Decide a check: refuse bad input first, then roll the Difficulty, then the roller's dice."""
    declared = _Declared(state, request)
    roller = declared.roller
    recording = RecordingDice(dice)
    steps: list[str] = []
    if declared.intent is not None:
        steps.append(
            f"Spellcraft: keyword '{request.spellcraft}' from the Trait {declared.trait}, intent '{declared.intent}'"
        )

    difficulty_faces: tuple[int, ...] = ()
    if declared.challenge is not None:
        difficulty_faces = tuple(recording.roll("challenge_dice", declared.challenge, SIDES))
        difficulty = total(difficulty_faces)
        steps.append(
            f"Difficulty: {declared.source}, {declared.challenge} d4s rolled {_faces(difficulty_faces)}; "
            f"{_kept(difficulty_faces)} = {difficulty}"
        )
    elif request.difficulty is not None:
        difficulty = request.difficulty
        steps.append(f"Difficulty: {declared.source}: {difficulty}")
    else:
        parts = " ".join(_part(p) for p in declared.opposed_pool)
        difficulty_faces = tuple(recording.roll("opposed_dice", declared.opposed_count, SIDES))
        difficulty = total(difficulty_faces)
        steps.append(
            f"Difficulty: {declared.source}, {parts} = {declared.opposed_count} d4s rolled "
            f"{_faces(difficulty_faces)}; {_kept(difficulty_faces)} = {difficulty}"
        )
    other_faces: list[tuple[Combatant, str, tuple[PoolPart, ...], Combatant | None, tuple[int, ...]]] = []
    for opponent, skill, rank, supporter in declared.others:
        pool = (PoolPart(source=f"{opponent.name}'s rank {rank} in {skill}", dice=rank),) + (
            (PoolPart(source=f"Supported by {supporter.name}", dice=1),) if supporter is not None else ()
        )
        count = pool_size(rank, supported=supporter is not None)
        rolled = tuple(recording.roll("opposed_dice", count, SIDES))
        other_faces.append((opponent, skill, pool, supporter, rolled))
        steps.append(
            f"Difficulty against {opponent.name}: their opposed roll ({skill}), "
            + (f"{' '.join(_part(p) for p in pool)} = " if supporter is not None else "")
            + f"{count} d4s rolled {_faces(rolled)}; {_kept(rolled)} = {total(rolled)}"
        )

    faces = tuple(recording.roll("dice", declared.count, SIDES))
    result = total(faces)
    steps.append(
        f"{roller.name} rolls {declared.skill}: {' '.join(_part(p) for p in declared.pool)} = {declared.count} d4s "
        f"rolled {_faces(faces)}; {_kept(faces)} = {result}"
    )
    judged = judge(result, difficulty)
    if judged.success:
        steps.append(
            f"{result} meets or exceeds Difficulty {difficulty}: success, Resonance {judged.resonance}"
            + (" (the minimum on a success)" if result == difficulty else f" ({result} - {difficulty})")
        )
    else:
        steps.append(
            f"{result} is below Difficulty {difficulty}: failure, Dissonance {judged.dissonance} ({difficulty} - {result})"
        )

    others: list[OpposedOutcome] = []
    for opponent, skill, pool, supporter, rolled in other_faces:
        against = judge(result, total(rolled))
        others.append(
            OpposedOutcome(
                opponent=opponent.name,
                skill=skill,
                supporter=supporter.name if supporter is not None else None,
                pool=pool,
                faces=rolled,
                kept=two_largest(rolled),
                difficulty=total(rolled),
                success=against.success,
                resonance=against.resonance,
                dissonance=against.dissonance,
            )
        )
        steps.append(f"against {opponent.name}, Difficulty {total(rolled)}: {others[-1].outcome()}")

    harm: HarmDealt | None = None
    if declared.strike and judged.success:
        assert declared.opponent is not None
        harm = inflict(declared.opponent, declared.harm_type, request.harm_source, judged.resonance, request.endurance)
        steps.append(f"Narrative Strike on {harm.target}: {harm.describe()}")
        if request.endurance > harm.endurance_spent:
            steps.append(
                f"{harm.target} pledged {request.endurance} {ENDURANCE_LABEL[request.harm_source]} but "
                f"spends only {harm.endurance_spent}: no point past the Resonance"
            )
        steps.append(
            f"{harm.target} has {harm.unique_count} unique and {harm.major_count} Major Harms "
            f"(Overkill counting as both) against Morale {declared.opponent.morale}"
        )
        if harm.newly_removed:
            steps.append(f"{harm.target} is removed from the narrative")
    elif declared.strike:
        steps.append(
            f"the Strike misses {declared.opponent.name if declared.opponent else ''}: no Harm, no Endurance spent"
        )

    failed_intent = declared.intent if declared.intent is not None and not judged.success else None
    if failed_intent is not None:
        steps.append(f"the Spellcraft check failed: {roller.name} cannot use Spellcraft to '{failed_intent}' again")

    return CheckResolution(
        request=request,
        roller=roller.name,
        skill=declared.skill,
        pool=tuple(declared.pool),
        dice_count=declared.count,
        difficulty_source=declared.source,
        opponent=declared.opponent.name if declared.opponent else None,
        supporter=declared.supporter.name if declared.supporter else None,
        opposed_supporter=declared.opposed_supporter,
        difficulty_pool=tuple(declared.opposed_pool),
        rolls=tuple(recording.rolls),
        difficulty_faces=difficulty_faces,
        difficulty_kept=two_largest(difficulty_faces),
        difficulty=difficulty,
        faces=faces,
        kept=two_largest(faces),
        result=result,
        success=judged.success,
        resonance=judged.resonance,
        dissonance=judged.dissonance,
        harm=harm,
        failed_intent=failed_intent,
        steps=tuple(steps),
        others=tuple(others),
    )


def apply_resolution(state: ResonanceState, resolution: CheckResolution) -> ResonanceState:
    if resolution.harm is not None:
        state = apply_harm(state, resolution.harm)
    if resolution.failed_intent is not None:
        roller = state.combatant(resolution.roller)
        state = state.with_combatant(
            roller.model_copy(update={"failed_intents": (*roller.failed_intents, resolution.failed_intent)})
        )
    return state


def first_difference(recorded: CheckResolution, rejudged: CheckResolution) -> str:
    for name, was, now in zip(JUDGED_NAMES, recorded.judged(), rejudged.judged(), strict=True):
        if was != now:
            return f"the {name} differs: recorded {_show(was)}, re-judged {_show(now)}"
    return "the re-judged check differs from the record"


def _show(value: object) -> str:
    if isinstance(value, HarmDealt):
        return f"{value.levels} levels of {value.type} on {value.target}"
    if isinstance(value, tuple):
        return _faces(value)
    return str(value)


def _faces(faces: tuple[int, ...]) -> str:
    return ",".join(str(f) for f in faces) if faces else "nothing"


def _kept(faces: tuple[int, ...]) -> str:
    kept = two_largest(faces)
    if not kept:
        return "no dice, so 0"
    if len(kept) == 1:
        return f"one die only, kept alone: {kept[0]}"
    return f"the two largest {kept[0]}+{kept[1]}"


def _part(part: PoolPart) -> str:
    return (
        f"{part.dice:+d} ({part.source})"
        if part.dice < 0 or "rank" not in part.source
        else f"{part.dice} ({part.source})"
    )
