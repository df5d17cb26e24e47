"""Action Sequences and Set Pieces (Chapter 7) as a state machine.

`declare` checks the plan and opens the Combo Pool; `record_beat` takes each Beat's outcome in
turn (the Setup Beats, then the Climax) and says what progress it makes on the target and which
Consequences it calls for. A Sequence ends on its Climax, or at once when a Setup Beat fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, NamedTuple

from pydantic import Field, StringConstraints

from ..dice import DiceSource
from ..errors import AlreadyExists, RuleViolation
from ..names import name_key
from ..text import TITLE
from .ladder import Difficulty
from .power_dice import PowerDice, acting_level, decisive_strike_difficulty, decisive_strike_opposition
from .sheet import AbilityName, _Frozen
from .threats import (
    CheckEffect,
    OutcomeLabel,
    Threat,
    as_outcome,
    check_against,
    consequences_due,
    strike_decisively,
    succeeded,
)

if TYPE_CHECKING:
    from .world import World

# influence.py names the same pools, but it imports the campaign state that will hold this world.
InfluenceName = Literal["grit", "retake", "spotlight", "plot_armor", "preparation"]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

BEATS = range(2, 6)
STARTING_COMBO_POOL: dict[int, int] = {2: 1, 3: 2, 4: 3, 5: 4}
"""The Beat Metrics table (7.1) is not printed. Reading: 1 Influence for each Beat beyond the
first, the price of each step of Difficulty the planning buys. Data, so a table can change it."""
BLOCKBUSTER_POOLS: frozenset[InfluenceName] = frozenset({"spotlight", "plot_armor"})


class SequenceError(RuleViolation):
    """An Action Sequence declared or played against Chapter 7."""


class Progress(_Frozen):
    """What a Beat does to the target: clear a die, add a pip (a Project), or destroy it (a Decisive Strike)."""

    action: Literal["clear", "pip", "destroy"]
    level: Difficulty | None = None


class Beat(_Frozen):
    number: int
    climax: bool
    difficulty: Difficulty
    """The Difficulty the Beat is rolled at: the reduced one, the Climax included."""
    outcome: OutcomeLabel
    progress: Progress | None
    star: str | None = None
    """The Star who rolled it; None for a Beat given as an outcome (or recorded before Beats named one)."""

    _quiet: ClassVar[tuple[str, ...]] = ("star",)


class SequenceTrade(_Frozen):
    """A Bond or Grudge a Star exhausted for the whole Sequence (10.2A Action Sequences)."""

    star: str
    kind: Literal["bond", "grudge"]
    name: str
    """Who the Bond or Grudge is with."""
    to_easy: bool = False
    """Relationship Mastery (11.2): every Beat the Star performs drops to EASY."""

    @property
    def label(self) -> str:
        return f"{self.kind.title()} with {self.name}"


class Sequence(_Frozen):
    goal: Text
    difficulty: Difficulty
    """The original Difficulty: the Climax's Opposition, progress and Consequences use it."""
    beats: int = Field(ge=BEATS.start, le=BEATS.stop - 1)
    against: str | None = None
    """The Threat or Actor the Sequence works on, if any."""
    builds: bool = False
    """The target is a Project: success adds pips instead of clearing dice."""
    decisive: bool = False
    combo: dict[InfluenceName, int] = Field(default_factory=dict)
    played: tuple[Beat, ...] = ()
    outcome: OutcomeLabel | None = None
    contributors: tuple[str, ...] = ()
    """The Stars who paid the Starting Combo Pool, in the order they paid: they share the payout.
    Empty for a Sequence recorded before contributors were kept."""

    combo_gains: bool = False
    """7.2 Building the Pool: Influence a Beat's check gains enters the Combo Pool, and the check
    may pay its spends from it. False for a Sequence declared before the ledger did so, whose
    Beats are re-judged as they were recorded (the gains went to the Star)."""

    climax_ability: AbilityName | None = None
    """7.3A Matching Ability Required: the Ability the Climax must be rolled with (the one matching
    the Threat or objective), when the table named it."""
    tracks_dues: bool = False
    """The Consequences its Beats call for are kept owed (`World.dues`) until applied; False for
    a Sequence declared before the ledger kept them, whose Beats are re-judged as recorded."""

    trades: tuple[SequenceTrade, ...] = ()
    """The Bonds and Grudges traded for the whole Sequence, one per Star at most."""

    _quiet: ClassVar[tuple[str, ...]] = ("contributors", "combo_gains", "tracks_dues", "climax_ability", "trades")

    def trade_of(self, star: str) -> SequenceTrade | None:
        """The Bond or Grudge `star` traded for this Sequence, if any."""
        return next((t for t in self.trades if name_key(t.star) == name_key(star)), None)

    @property
    def participants(self) -> tuple[str, ...]:
        """7.3B "all Sequence participants": the contributors, then every Star who rolled a Beat."""
        return tuple(dict.fromkeys((*self.contributors, *(b.star for b in self.played if b.star))))

    @property
    def set_piece(self) -> bool:
        return self.difficulty.rank > Difficulty.EPIC.rank

    @property
    def beat_difficulty(self) -> Difficulty:
        """7.1 step 3: each Beat beyond the first lowers every check one step, not below NORMAL."""
        lowered = self.difficulty.step(1 - self.beats)
        return lowered if lowered.rank >= Difficulty.NORMAL.rank else Difficulty.NORMAL

    @property
    def next_beat(self) -> int:
        return len(self.played) + 1

    @property
    def at_climax(self) -> bool:
        return self.next_beat == self.beats

    @property
    def finished(self) -> bool:
        return self.outcome is not None


class Contribution(_Frozen):
    """Influence a Star puts in the Starting Combo Pool (7.1)."""

    star: str
    pool: InfluenceName
    amount: int = Field(ge=1)


def minimum_beats(difficulty: Difficulty) -> int:
    """2, or for a Set Piece enough Beats to bring every Beat to EPIC or below (RULES-NOTES)."""
    return max(BEATS.start, difficulty.rank - Difficulty.EPIC.rank + 1)


def declare(
    goal: str,
    difficulty: Difficulty,
    beats: int,
    contributions: Mapping[InfluenceName, int],
    *,
    against: str | None = None,
    builds: bool = False,
    decisive: bool = False,
    contributors: tuple[str, ...] = (),
    combo_gains: bool = True,
    climax_ability: AbilityName | None = None,
) -> Sequence:
    """7.1: declare the goal, break it into Beats, and pay the Starting Combo Pool (total, not each)."""
    TITLE.refuse(goal, "the goal")
    if beats not in BEATS:
        raise SequenceError(f"an Action Sequence has 2 to 5 Beats, not {beats}")
    if difficulty.rank < Difficulty.HARD.rank:
        raise SequenceError(
            f"an Action Sequence is for a task of HARD or higher; a {difficulty.value} task is one check"
        )
    if beats < minimum_beats(difficulty):
        raise SequenceError(
            f"a {difficulty.value} Set Piece needs at least {minimum_beats(difficulty)} Beats to bring each Beat "
            f"to EPIC or below ({beats} declared)"
        )
    if decisive and (against is None or builds):
        raise SequenceError("a Decisive Strike needs an Opponent, Obstacle or Actor to strike")
    if any(amount < 0 for amount in contributions.values()):
        raise SequenceError("Influence contributed to the Combo Pool cannot be negative")
    wanted, given = STARTING_COMBO_POOL[beats], sum(contributions.values())
    if given != wanted:
        raise SequenceError(
            f"a {beats}-Beat Sequence opens its Combo Pool with {wanted} Influence in total ({given} contributed)"
        )
    combo = {pool: amount for pool, amount in contributions.items() if amount}
    return Sequence(
        goal=goal,
        difficulty=difficulty,
        beats=beats,
        against=against,
        builds=builds,
        decisive=decisive,
        combo=combo,
        contributors=tuple(dict.fromkeys(contributors)),
        combo_gains=combo_gains,
        tracks_dues=combo_gains,
        climax_ability=climax_ability,
    )


def check_sequence_trade(sequence: Sequence, star: str) -> None:
    """10.2A: a Trade "matching an entire Action Sequence's ultimate Difficulty" lowers every Beat
    the Star performs. Read with the Actor Limit (one Bond or Grudge per check): one such Trade
    per Star and Sequence, made while the Sequence runs; it lowers the Beats still to come."""
    _playing(sequence)
    held = sequence.trade_of(star)
    if held is not None:
        raise SequenceError(
            f"{held.star} already traded the {held.label} for '{sequence.goal}': one Bond or Grudge per Star "
            "lowers a Sequence's Beats (Actor Limit)"
        )


def with_trade(sequence: Sequence, trade: SequenceTrade) -> Sequence:
    check_sequence_trade(sequence, trade.star)
    return sequence.model_copy(update={"trades": (*sequence.trades, trade)})


def check_climax_ability(sequence: Sequence, ability: AbilityName) -> None:
    """7.3A: the Climax is rolled with the Ability matching the Threat or objective."""
    wanted = sequence.climax_ability
    if sequence.at_climax and wanted is not None and ability is not wanted:
        raise SequenceError(
            f"the Climax of '{sequence.goal}' must use {wanted.value.title()}, the Ability matching its objective "
            f"(7.3A), not {ability.value.title()}"
        )


def _playing(sequence: Sequence) -> None:
    if sequence.finished:
        raise SequenceError(f"the Sequence '{sequence.goal}' is over ({sequence.outcome}): declare a new one")


def beat_opposition(sequence: Sequence, power: PowerDice | None) -> int:
    """7.1: a Setup Beat faces the pips on the die at the reduced Difficulty; the Climax those at the
    original Difficulty (a Decisive Strike's full pool), at least the number of Beats."""
    _playing(sequence)
    if not sequence.at_climax:
        return power.pips_at(sequence.beat_difficulty) if power is not None else 0
    if sequence.decisive and power is not None:
        base = decisive_strike_opposition(power)
    else:
        base = power.pips_at(sequence.difficulty) if power is not None else 0
    return max(base, sequence.beats)


def _progress(sequence: Sequence, outcome: OutcomeLabel, climax: bool) -> Progress | None:
    if sequence.against is None or not succeeded(outcome):
        return None
    if climax and sequence.decisive:
        return Progress(action="destroy") if outcome in ("highlight", "success") else None
    works_at = sequence.difficulty if climax else sequence.beat_difficulty
    return Progress(action="pip" if sequence.builds else "clear", level=acting_level(works_at, outcome == "highlight"))


class BeatRecorded(_Frozen):
    sequence: Sequence
    beat: Beat
    consequences: int
    consequence_difficulty: Difficulty
    everyone: bool
    """The Climax's Consequences fall on every participant; a Setup Beat's on the Star who rolled it."""
    payout: dict[InfluenceName, int] = Field(default_factory=dict)
    """The Combo Pool shared out among participants or the Ensemble Pool (Partial or better)."""
    lost: dict[InfluenceName, int] = Field(default_factory=dict)


def record_beat(sequence: Sequence, outcome: str, star: str | None = None) -> BeatRecorded:
    """The next Beat's outcome, rolled by `star` (None when given as an outcome). A Setup Beat's
    progress and Consequences work at the reduced Difficulty; the Climax's at the original (7.3A
    Full Strength). A Setup Beat that fails ends the Sequence as a Failure (a Disaster if it was
    one); the Climax decides the Sequence otherwise."""
    _playing(sequence)
    label = as_outcome(outcome)
    climax = sequence.at_climax
    beat = Beat(
        number=sequence.next_beat,
        climax=climax,
        difficulty=sequence.beat_difficulty,
        outcome=label,
        progress=_progress(sequence, label, climax),
        star=star,
    )
    ended = climax or not succeeded(label)
    result = label if ended else None
    played = sequence.model_copy(update={"played": (*sequence.played, beat), "outcome": result})
    payout: dict[InfluenceName, int] = {}
    lost: dict[InfluenceName, int] = {}
    if ended:
        payout, lost = (sequence.combo, {}) if succeeded(label) else ({}, sequence.combo)
        played = played.model_copy(update={"combo": {}})
    return BeatRecorded(
        sequence=played,
        beat=beat,
        consequences=consequences_due(label),
        consequence_difficulty=sequence.difficulty if climax else sequence.beat_difficulty,
        everyone=climax,
        payout=payout,
        lost=lost,
    )


def who_suffers(recorded: BeatRecorded) -> tuple[str, ...]:
    """7.3B: the Climax's Consequences fall on every participant, a Setup Beat's on the Star who
    rolled it. Empty when nobody is known (a Setup Beat given as an outcome, an older Sequence)."""
    if not recorded.consequences:
        return ()
    if recorded.everyone:
        return recorded.sequence.participants
    return (recorded.beat.star,) if recorded.beat.star else ()


POOL_ORDER: tuple[InfluenceName, ...] = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def share_payout(payout: Mapping[InfluenceName, int], stars: tuple[str, ...]) -> dict[tuple[str, InfluenceName], int]:
    """7.2 The Payout, "however the Cast sees fit" read as a fair deal: the points are dealt one at
    a time to `stars` in turn (the contributors, in the order they paid), pool by pool in the
    order Grit, Retake, Spotlight, Plot Armor, Preparation, the deal running on across pools.
    Returns {(star, pool): points}, in the order dealt; nothing for no stars."""
    shares: dict[tuple[str, InfluenceName], int] = {}
    if not stars:
        return shares
    turn = 0
    for pool in POOL_ORDER:
        for _ in range(payout.get(pool, 0)):
            key = (stars[turn % len(stars)], pool)
            shares[key] = shares.get(key, 0) + 1
            turn += 1
    return shares


class PayoutShare(_Frozen):
    """Part of the Combo Pool's payout as the Cast chooses it (7.2 The Payout): to a participant,
    or to the Ensemble Pool when `star` is None."""

    star: str | None
    pool: InfluenceName
    amount: int = Field(ge=1)


def check_payout_shares(sequence: Sequence, shares: tuple[PayoutShare, ...], roller: str | None) -> None:
    """Before the roll: the Cast's split is asked with the Climax, and names participants only."""
    if not shares:
        return
    if not sequence.at_climax:
        raise SequenceError(
            f"the Combo Pool of '{sequence.goal}' pays out after its Climax (Beat {sequence.beats}); "
            f"give --payout with that Beat, not Beat {sequence.next_beat}"
        )
    participants = (*sequence.participants, *((roller,) if roller else ()))
    for share in shares:
        if share.star is not None and share.star not in participants:
            raise SequenceError(
                f"{share.star} is not a participant of '{sequence.goal}' (participants: "
                f"{', '.join(participants) or 'none yet'}): the payout goes to participants or the Ensemble Pool"
            )


def split_payout(
    payout: Mapping[InfluenceName, int], shares: tuple[PayoutShare, ...], stars: tuple[str, ...]
) -> list[PayoutShare]:
    """7.2 The Payout "however the Cast sees fit": the Cast's shares first, in the order given,
    each as far as the pool still holds; what they leave is dealt in turn to `stars`
    (`share_payout`). The Cast names its split before the Climax is rolled, so a share the Pool
    cannot fill is cut down rather than refused after the dice are seen."""
    left = dict(payout)
    dealt: list[PayoutShare] = []
    for share in shares:
        amount = min(share.amount, left.get(share.pool, 0))
        if amount:
            left[share.pool] -= amount
            dealt.append(share.model_copy(update={"amount": amount}))
    for (star, pool), amount in share_payout(left, stars).items():
        dealt.append(PayoutShare(star=star, pool=pool, amount=amount))
    return dealt


def spend_combo(sequence: Sequence, pool: InfluenceName, amount: int) -> Sequence:
    """7.2 Spending Synergy: a participant spends from the Combo Pool as from their own Profile."""
    _playing(sequence)
    held = sequence.combo.get(pool, 0)
    if amount <= 0 or amount > held:
        raise SequenceError(f"the Combo Pool holds {held} {pool.replace('_', ' ')}: {amount} cannot be spent")
    return sequence.model_copy(update={"combo": {**sequence.combo, pool: held - amount}})


def gain_combo(sequence: Sequence, pool: InfluenceName, amount: int) -> Sequence:
    """7.2 Building the Pool: Influence regained during the Sequence enters the Combo Pool."""
    _playing(sequence)
    if amount <= 0:
        raise SequenceError(f"the Combo Pool gains a positive amount of Influence, not {amount}")
    return sequence.model_copy(update={"combo": {**sequence.combo, pool: sequence.combo.get(pool, 0) + amount}})


def refuse_blockbuster_spend(sequence: Sequence, pool: InfluenceName) -> None:
    """7.4 Blockbuster Limits: Spotlight and Plot Armor never lower a Set Piece's own Difficulty
    (they may still be spent on its Beats)."""
    if sequence.set_piece and pool in BLOCKBUSTER_POOLS:
        raise SequenceError(
            f"Blockbuster Limits: {pool.replace('_', ' ').title()} cannot lower the {sequence.difficulty.value} "
            "Difficulty of a Set Piece; spend it on one of its Beats instead"
        )


def begin(world: World, sequence: Sequence) -> World:
    """Add a declared Sequence to the world, checking its target against the world."""
    if world.sequence_active(sequence.goal):
        raise AlreadyExists(f"a Sequence with the goal '{sequence.goal}' is already running")
    if sequence.against is not None:
        target = world.target(sequence.against)
        is_project = isinstance(target, Threat) and target.kind == "project"
        if is_project != sequence.builds:
            kind = "a Project: declare it as building" if is_project else "not a Project: it is cleared, not built"
            raise SequenceError(f"{target.name} is {kind}")
        if sequence.decisive and decisive_strike_difficulty(target.power) is not sequence.difficulty:
            raise SequenceError(
                f"a Decisive Strike against {target.name} is at {decisive_strike_difficulty(target.power).value}, "
                f"one step above its top die (declared {sequence.difficulty.value})"
            )
    return world.with_sequence(sequence)


class BeatPlayed(NamedTuple):
    world: World
    recorded: BeatRecorded
    effect: CheckEffect | None
    """What the Beat did to the target, when it made progress on one still standing."""


def play_beat(world: World, goal: str, outcome: str, dice: DiceSource | None, star: str | None = None) -> BeatPlayed:
    """Record the next Beat of the running Sequence, rolled by `star`, and apply its progress to
    the target; a finished Sequence leaves the world's running Sequences."""
    sequence = world.sequence(goal)
    recorded = record_beat(sequence, outcome, star)
    progress, effect = recorded.beat.progress, None
    if progress is not None and sequence.against is not None and world.standing(sequence.against):
        if progress.action == "destroy":
            world, effect = strike_decisively(world, sequence.against, outcome)
        else:
            works_at = sequence.difficulty if recorded.beat.climax else sequence.beat_difficulty
            world, effect = check_against(world, sequence.against, outcome, works_at, dice)
    world = world.without_sequence(goal) if recorded.sequence.finished else world.with_sequence(recorded.sequence)
    return BeatPlayed(world, recorded, effect)
