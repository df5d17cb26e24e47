"""`sequence-declare`, `sequence-beat`, `sequence-trade` and `sequence-spend`: Action Sequences and Set
Pieces (Chapter 7), and a Bond or Grudge traded for a whole Sequence (10.2A)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from ...errors import RuleViolation
from ...events import Fact
from ...inputs import Input
from ...ruleset import Action, Decided, RollContext
from .. import sequences as seq_rules
from ..check import CheckRequest, SequenceTradeUse
from ..events import InfluenceRegained, InfluenceSpent
from ..influence import PoolName, decide_regain, decide_spend
from ..ladder import Difficulty
from ..sequences import Contribution, PayoutShare, SequenceTrade
from ..sheet import AbilityName, CareerPath, Mastery
from ..state import ShowrunnerState
from ..threats import Threat
from .check import answered, roll_check
from .world_common import after, as_target, check_standing


class SequenceDeclare(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str
    """The Sequence's goal, which also names it."""
    difficulty: Difficulty
    beats: int
    contributions: tuple[Contribution, ...] = ()
    """The Starting Combo Pool, paid by the participants from their own Influence."""
    against: str | None = None
    """The Threat or Actor the Sequence works on (a Project is built, others cleared)."""
    decisive: bool = False
    climax_ability: AbilityName | None = None
    """The Ability the Climax must use: the one matching the Threat or objective (7.3A)."""


class SequenceBeat(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str
    request: CheckRequest | None = None
    """The Beat's check (its Difficulty and Opposition Dice are the Beat's); None for an `outcome`."""
    outcome: str | None = None
    """The outcome of a Beat the table rolled elsewhere."""
    payout: tuple[PayoutShare, ...] = ()
    """The Cast's split of the Combo Pool, given with the Climax: dealt first, as far as the pool
    holds; the rest is dealt in turn to the contributors."""


class SequenceTradeAsked(Input):
    """A Bond or Grudge traded for every Beat a Star performs in a running Sequence (10.2A)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str
    star: str
    kind: Literal["bond", "grudge"]
    name: str
    """Who the relationship is with."""
    acclaim_path: CareerPath | None = None
    """When the Trade completes the track: the Career Path for its 1 Acclaim."""


class ComboSpend(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str
    pool: PoolName
    amount: int = 1
    star: str | None = None
    """The participant spending it."""
    lowers_set_piece: bool = False
    """Spent to lower the Set Piece's own Difficulty (refused for Spotlight and Plot Armor, 7.4)."""
    reason: str = ""


def declare_sequence(state: ShowrunnerState, asked: SequenceDeclare, roll: RollContext | None) -> Decided:
    """7.1: declare the goal and its Beats; the participants pay the Starting Combo Pool from their own Influence."""
    from ..world_events import SequenceDeclared

    world = state.world
    target_name, builds = None, False
    if asked.against is not None:
        target = world.target(asked.against)
        target_name = target.name
        builds = isinstance(target, Threat) and target.kind == "project"
        check_standing(target)
    pools: dict[PoolName, int] = {}
    for c in asked.contributions:
        pools[c.pool] = pools.get(c.pool, 0) + c.amount
    named = [c.model_copy(update={"star": state.star(c.star).name}) for c in asked.contributions]
    sequence = seq_rules.declare(
        asked.goal,
        asked.difficulty,
        asked.beats,
        pools,
        against=target_name,
        builds=builds,
        decisive=asked.decisive,
        contributors=tuple(c.star for c in named),
        climax_ability=asked.climax_ability,
    )
    seq_rules.begin(world, sequence)
    facts: list[Fact] = []
    for c in named:
        spent = InfluenceSpent(
            spent=decide_spend(state, c.star, c.pool, c.amount, push=False), reason=f"Combo Pool of '{asked.goal}'"
        )
        state = after(state, [spent])
        facts.append(spent)
    facts.append(SequenceDeclared(sequence=sequence, contributions=tuple(named)))
    return facts


def play_beat(state: ShowrunnerState, asked: SequenceBeat, roll: RollContext | None) -> Decided:
    """The running Sequence's next Beat: a check at the Beat's Difficulty against the target's pips
    (the Climax: at least the number of Beats), or an outcome the table already rolled. The dice
    the Beat's progress re-rolls on the target are the command's next roll."""
    assert roll is not None, "a Beat may roll (rolls=True)"
    from ..world_events import SequenceBeatPlayed

    request, label = asked.request, asked.outcome
    if (request is None) == (label is None):
        raise RuleViolation("a Beat is either rolled (a Star and an Ability) or given (--outcome), not both or neither")
    sequence = state.world.sequence(asked.goal)
    shares = tuple(
        share.model_copy(update={"star": state.star(share.star).name}) if share.star else share
        for share in asked.payout
    )
    seq_rules.check_payout_shares(sequence, shares, state.star(request.star).name if request else None)
    if request is not None:
        seq_rules.check_climax_ability(sequence, request.ability)
    if request is not None and request.from_combo and not sequence.combo_gains:
        raise RuleViolation(
            f"the Sequence '{sequence.goal}' was declared before its Combo Pool paid a Beat's spends: "
            "leave out --from-combo and use `showrunner sequence spend`"
        )
    facts: list[Fact] = []
    star = None
    if request is not None:
        power = None
        if sequence.against is not None and state.world.standing(sequence.against):
            power = state.world.target(sequence.against).power
        which = "the Climax" if sequence.at_climax else f"Beat {sequence.next_beat}"
        beat_check = request.model_copy(
            update={
                "difficulty": sequence.beat_difficulty,
                "opposition": seq_rules.beat_opposition(sequence, power),
                "opposition_source": f"{sequence.against or 'the Sequence'}, {which}",
                "combo": sequence.goal if sequence.combo_gains else None,
                "sequence_trade": _trade_use(sequence, state.star(request.star).name),
            }
        )
        checked, state = roll_check(
            state,
            beat_check,
            roll,
            settled=lambda resolved: asked.model_copy(update={"request": answered(request, resolved)}),
        )
        facts.append(checked)
        star, label = checked.resolution.star, checked.resolution.outcome.value
    assert label is not None
    number, recorder = roll.recording()
    played = seq_rules.play_beat(state.world, sequence.goal, label, recorder, star)
    target = sequence.against if played.effect is not None else None
    beat = SequenceBeatPlayed(
        goal=sequence.goal,
        outcome=played.recorded.beat.outcome,
        star=star,
        recorded=played.recorded,
        effect=played.effect,
        **as_target(played.world, target),
        **roll.stamp(number, recorder),
    )
    facts.append(beat)
    return facts + aftermath(after(state, [beat]), played.recorded, shares)


def _trade_use(sequence: seq_rules.Sequence, star: str) -> SequenceTradeUse | None:
    held = sequence.trade_of(star)
    return SequenceTradeUse(label=held.label, to_easy=held.to_easy) if held is not None else None


def aftermath(
    state: ShowrunnerState, recorded: seq_rules.BeatRecorded, shares: tuple[PayoutShare, ...] = ()
) -> list[Fact]:
    """What a Beat leaves the Cast: the Combo Pool's payout, split as the Cast chose and the rest
    dealt among the contributors, as Influence regained (over a maximum it overflows to the
    Ensemble Pool, then is lost) or given to the Ensemble Pool, and the Consequences it calls
    for, recorded as due for the table to apply (`showrunner consequence`)."""
    from ..world_events import ComboPaidToEnsemble, ConsequencesDue

    sequence, beat = recorded.sequence, recorded.beat
    facts: list[Fact] = []
    for share in seq_rules.split_payout(recorded.payout, shares, sequence.contributors):
        paid: Fact
        if share.star is None:
            paid = ComboPaidToEnsemble.decided(state, sequence.goal, share.pool, share.amount)
        else:
            paid = InfluenceRegained(
                regained=decide_regain(state, share.star, share.pool, share.amount),
                reason=f"Combo Pool payout of '{sequence.goal}'",
            )
        state = after(state, [paid])
        facts.append(paid)
    if recorded.consequences:
        facts.append(
            ConsequencesDue(
                goal=sequence.goal,
                beat=beat.number,
                climax=beat.climax,
                outcome=beat.outcome,
                count=recorded.consequences,
                difficulty=recorded.consequence_difficulty,
                who=seq_rules.who_suffers(recorded),
                tracked=True if sequence.tracks_dues and seq_rules.who_suffers(recorded) else None,
            )
        )
    return facts


def trade_for_sequence(state: ShowrunnerState, asked: SequenceTradeAsked, roll: RollContext | None) -> Decided:
    """10.2A Action Sequences: the ◇ of the Sequence's ultimate Difficulty is exhausted once, and
    every Beat the Star performs in it from then on is rolled one step lower (EASY with
    Relationship Mastery); progress and Consequences keep the Beat's own Difficulty."""
    from ..progress_events import RelationshipTraded
    from ..relationships import find
    from ..world_events import SequenceTradeMade

    sequence = state.world.sequence(asked.goal)
    sheet = state.star(asked.star)
    seq_rules.check_sequence_trade(sequence, sheet.name)
    name = find(sheet, asked.kind, asked.name).with_
    traded = RelationshipTraded.decided(
        state,
        star=sheet.name,
        kind=asked.kind,
        name=name,
        difficulty=sequence.difficulty,
        acclaim_path=asked.acclaim_path,
        reason=f"for every Beat of '{sequence.goal}'",
    )
    trade = SequenceTrade(star=sheet.name, kind=asked.kind, name=name, to_easy=Mastery.RELATIONSHIP in sheet.masteries)
    return [traded, SequenceTradeMade(goal=sequence.goal, trade=trade)]


def spend_combo(state: ShowrunnerState, asked: ComboSpend, roll: RollContext | None) -> Decided:
    """7.2: spend from the Combo Pool; 7.4: never Spotlight or Plot Armor to lower a Set Piece's own Difficulty."""
    from ..world_events import ComboSpent

    sequence = state.world.sequence(asked.goal)
    if asked.lowers_set_piece:
        seq_rules.refuse_blockbuster_spend(sequence, asked.pool)
    seq_rules.spend_combo(sequence, asked.pool, asked.amount)
    who = state.star(asked.star).name if asked.star else None
    return [ComboSpent(goal=sequence.goal, pool=asked.pool, amount=asked.amount, star=who, reason=asked.reason)]


SEQUENCES = {
    "sequence-declare": Action(
        "Declare an Action Sequence: its goal, its Beats and its Starting Combo Pool (7.1).",
        SequenceDeclare,
        declare_sequence,
        subject="Action Sequences",
    ),
    "sequence-beat": Action(
        "Play the running Sequence's next Beat, rolled or given, and what it does to the target (7.1, 7.3).",
        SequenceBeat,
        play_beat,
        rolls=True,
        subject="Action Sequences",
    ),
    "sequence-trade": Action(
        "Trade a Bond or Grudge at the Sequence's ultimate Difficulty: every Beat the Star performs rolls one step lower (10.2A).",
        SequenceTradeAsked,
        trade_for_sequence,
        subject="Action Sequences",
    ),
    "sequence-spend": Action(
        "Spend Influence from a Sequence's Combo Pool (7.2).",
        ComboSpend,
        spend_combo,
        subject="Action Sequences",
    ),
}
