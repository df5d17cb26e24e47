"""Recording the world's side of a campaign: Actors, Threats, Action Sequences, the Writer's Room
and the Solorunner's Oracle.

Each function is one command: it loads the branch head through `Ledger.execute`, lets the pure
rules of `domain/showrunner` decide (refusing bad input before anything is written) and records
the facts in one save. Dice are the table's when faces are given (one queue per purpose, shared
by every roll of the command, and every face must be used), else ledger dice: each fact that
rolls takes the next roll number of the branch, so every roll is provable on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from ..domain.campaign import CampaignState, name_key
from ..domain.dice import RecordingDice
from ..domain.errors import AlreadyExists, RuleViolation, UnknownName
from ..domain.events import CampaignFact, Fact
from ..domain.showrunner import sequences as seq_rules
from ..domain.showrunner import threats as threat_rules
from ..domain.showrunner import writers_room
from ..domain.showrunner.actors import Actor, Person, TieKind, set_tie
from ..domain.showrunner.check import Abandoned, CheckRequest, Chooser, resolve
from ..domain.showrunner.events import CheckAbandoned, CheckRolled, InfluenceRegained, InfluenceSpent
from ..domain.showrunner.influence import PoolName, decide_regain, decide_spend
from ..domain.showrunner.ladder import Difficulty
from ..domain.showrunner.power_dice import decisive_strike_difficulty, decisive_strike_opposition
from ..domain.showrunner.progress_events import with_milestones
from ..domain.showrunner.state import ShowrunnerState
from ..domain.showrunner.threats import Threat, ThreatKind
from ..domain.showrunner.world import World
from ..domain.showrunner.world_events import (
    ActorCreated,
    ActorsContested,
    ActorSpec,
    ActorTieChanged,
    ComboSpent,
    ConsequenceMenuRolled,
    ConsequencesDue,
    Contribution,
    MenuOptionRecord,
    OracleAnswered,
    SequenceBeatPlayed,
    SequenceDeclared,
    SubplotGenerated,
    SubplotResolved,
    SubplotRevealed,
    ThreatChecked,
    ThreatCreated,
    WritersTurnTaken,
    changed_actors,
    decide_threat,
    make_actor,
)
from ..domain.showrunner.writers_room import (
    CastingNeeded,
    generate,
    generation_cost,
    reveal,
    reveal_cost,
)
from .command_dice import CommandDice, Faces
from .command_ids import command
from .errors import CommandConflict
from .service import DIRECTOR, BranchRef, CommandResult, Ledger

T = TypeVar("T")


def _showrunner(state: CampaignState) -> ShowrunnerState:
    if not isinstance(state, ShowrunnerState):
        raise RuleViolation("the Supporting Cast, Threats and the Writer's Room belong to Showrunner campaigns")
    return state


def _after(state: ShowrunnerState, facts: Sequence[CampaignFact[ShowrunnerState]]) -> ShowrunnerState:
    for fact in facts:
        state = fact.apply(state)
    return state


def _rolled_once(
    ledger: Ledger, ref: BranchRef, state: CampaignState, faces: Faces, decide: Callable[[RecordingDice], T]
) -> tuple[T, dict[str, Any]]:
    """A command with one rolling fact: `decide` with the next roll number's dice (every table
    face must be used); its result and the fact's `roll_number`, `dice_commitment` and `rolls`."""
    rolls = CommandDice(ledger, ref, state, faces)
    number, recorder = rolls.recording()
    made = decide(recorder)
    rolls.done()
    return made, rolls.stamp(number, recorder)


class _CheckRoller:
    """Rolls the check of a command. With a chooser the Star sees the dice before choosing, so if
    the ledger must decide again (another roll was recorded first) nothing is recorded: deciding
    again would show other dice, a re-roll the rules do not give."""

    def __init__(self, chooser: Chooser | None) -> None:
        self.chooser = chooser
        self.shown = False

    def roll(self, state: ShowrunnerState, asked: CheckRequest, rolls: CommandDice) -> CheckRolled | CheckAbandoned:
        if self.shown:
            raise CommandConflict(
                "another roll was recorded on this branch while you chose; yours was not recorded: roll again"
            )
        self.shown = self.chooser is not None
        number, dice = rolls.take()
        used = state.dice_commitment if rolls.table is None else None
        try:
            resolution = resolve(state, asked, dice, self.chooser)
        except Abandoned as walked_away:
            assert walked_away.request is not None
            return CheckAbandoned(
                request=walked_away.request,
                rolls=walked_away.rolls,
                roll_number=number,
                dice_commitment=used,
                effects=walked_away.effects,
            )
        return CheckRolled(resolution=resolution, roll_number=number, dice_commitment=used)


# --------------------------------------------------------------------------- Actors


@command
def create_actor(
    ledger: Ledger,
    ref: BranchRef,
    spec: ActorSpec,
    *,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """Appendix A: an Actor given whole or rolled, cast into a roster slot (the next free one by default)."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        world = state.world
        _name_is_free(state, spec.name)
        actor, stamp = _rolled_once(ledger, ref, state, faces, lambda dice: make_actor(spec, dice))
        slot = world.roster.next_free() if spec.slot is None else spec.slot
        world.cast(actor, slot)  # refuses a filled slot or a taken name before anything is written
        return [ActorCreated(spec=spec, actor=actor, slot=slot, **stamp)]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def _name_is_free(state: ShowrunnerState, name: str) -> None:
    if name_key(name) in state.stars:
        raise AlreadyExists(f"'{name}' is a Star of this campaign: an Actor or a Threat needs another name")
    state.world._name_free(name)


@command
def contest_actors(
    ledger: Ledger,
    ref: BranchRef,
    first: str,
    second: str,
    difficulty: Difficulty,
    *,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """12.1J: Actor against Actor off-screen, by the pips on their dice at the Difficulty."""
    from ..domain.showrunner.actors import contest

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        one, two = state.world.actor(first), state.world.actor(second)
        if one.name == two.name:
            raise RuleViolation(f"{one.name} cannot contest against themselves")
        for actor in (one, two):
            _check_standing(actor)
        result = contest(one, two, difficulty)
        return [
            ActorsContested(
                first=one.name, second=two.name, difficulty=difficulty, pips=result.pips, winner=result.winner
            )
        ]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


@command
def set_actor_tie(
    ledger: Ledger,
    ref: BranchRef,
    actor: str,
    kind: TieKind,
    person: str,
    to: Difficulty | None = None,
    *,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """12.1I: move an Actor's Bond or Grudge with a Star or another Actor up one slot, or to `to`;
    a new tie enters at NORMAL (or `to`). A slot above the Actor's Power Level, a move that is not
    upward and a tie already in the top slot are refused."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        found = state.world.actor(actor)
        who = _person(state, person)
        moved = set_tie(found, kind, who, to)
        reached = moved.tier(kind, who.name)
        assert reached is not None
        return [
            ActorTieChanged(
                name=found.name,
                kind=kind,
                person=who,
                to=reached,
                before=found.tier(kind, who.name),
                displaced=found.ties(kind).get(reached),
                actor=moved,
            )
        ]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def _person(state: ShowrunnerState, name: str) -> Person:
    """An Actor of the world by full name, else a Star (by the start of the name, as everywhere)."""
    if name_key(name) in state.world.actors:
        return Person(name=state.world.actor(name).name)
    try:
        return Person(name=state.star(name).name, star=True)
    except UnknownName as e:
        actors = ", ".join(sorted(a.name for a in state.world.actors.values())) or "none"
        raise UnknownName(f"{e}; no Actor is called '{name}' either (Actors: {actors})") from None


# --------------------------------------------------------------------------- Threats


@command
def create_threat(
    ledger: Ledger,
    ref: BranchRef,
    name: str,
    kind: ThreatKind,
    level: Difficulty,
    *,
    pips: Sequence[int] | None = None,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """12.1B: a Threat enters with one Power Die per level from NORMAL up, rolled top down (or given)."""
    if level is Difficulty.EASY:
        raise RuleViolation("EASY is not a Power Level: a Threat is NORMAL to GODLIKE")
    given = tuple(pips) if pips is not None else None

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        _name_is_free(state, name)
        threat, stamp = _rolled_once(
            ledger, ref, state, faces, lambda dice: decide_threat(name, kind, level, given, dice)
        )
        return [ThreatCreated(name=name, kind=kind, level=level, pips=given, threat=threat, **stamp)]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


@command
def check_against(
    ledger: Ledger,
    ref: BranchRef,
    request: CheckRequest,
    target: str,
    *,
    decisive: bool = False,
    aid: bool = False,
    faces: Faces = None,
    chooser: Chooser | None = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """An Ability Check against a Threat or Actor of the world, and what its outcome does to it.

    The Opposition Dice are the pips on the target's Power Die at the check's Difficulty (a
    Decisive Strike: one step above the top die, facing the top die's pips plus one per die below).
    Records the CheckRolled, then a ThreatChecked with the target's dice after the outcome, then
    the milestones the check's XP filled.
    A Star who walks away after the roll records only the CheckAbandoned.
    """
    if aid and decisive:
        raise RuleViolation("a Decisive Strike destroys; a check to aid an Actor builds: choose one")
    roller = _CheckRoller(chooser)

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        found = state.world.target(target)
        name = found.name
        _check_standing(found)
        if aid and isinstance(found, Threat):
            raise RuleViolation(f"{name} is a Threat: only an Actor is aided (a Project is built by any check)")
        if decisive:
            if isinstance(found, Threat) and found.kind == "project":
                raise RuleViolation(f"{name} is a Project: a Decisive Strike is made against an Opponent or Obstacle")
            difficulty = decisive_strike_difficulty(found.power)
            opposition = decisive_strike_opposition(found.power)
            source = f"{name}'s whole Power Dice (Decisive Strike at {difficulty.value})"
        else:
            difficulty = request.difficulty
            opposition = found.power.pips_at(difficulty)
            source = f"{name}'s {difficulty.value} Power Die"
        asked = request.model_copy(
            update={"difficulty": difficulty, "opposition": opposition, "opposition_source": source}
        )
        rolls = CommandDice(ledger, ref, state, faces)
        checked = roller.roll(state, asked, rolls)
        if isinstance(checked, CheckAbandoned):
            return [checked]
        resolution = checked.resolution
        after_check = _after(state, [checked])
        effect_number, recorder = rolls.recording()
        outcome = resolution.outcome.value
        if decisive:
            world, effect = threat_rules.strike_decisively(after_check.world, name, outcome)
        else:
            world, effect = threat_rules.check_against(
                after_check.world, name, outcome, resolution.original_difficulty, recorder, aid=aid
            )
        rolls.done()
        moved = ThreatChecked(
            star=resolution.star,
            target=name,
            outcome=outcome,
            difficulty=resolution.original_difficulty,
            decisive=decisive,
            aid=aid,
            effect=effect,
            **_as_target(world, name),
            **rolls.stamp(effect_number, recorder),
        )
        return with_milestones(state, [checked, moved], resolution.star)

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def _as_target(world: World, name: str | None) -> dict[str, Threat | Actor | None]:
    """The `threat` and `actor` fields of a fact: the target called `name` as it now stands."""
    moved = world.target(name) if name is not None else None
    return {
        "threat": moved if isinstance(moved, Threat) else None,
        "actor": moved if isinstance(moved, Actor) else None,
    }


def _check_standing(found: Threat | Actor) -> None:
    if isinstance(found, Threat) and found.finished:
        raise RuleViolation(f"{found.name} is {found.status}: no check can move its Power Dice any more")
    if isinstance(found, Actor) and found.written_off:
        raise RuleViolation(f"{found.name} has been written off the Show")


# --------------------------------------------------------------------------- Action Sequences


@command
def declare_sequence(
    ledger: Ledger,
    ref: BranchRef,
    goal: str,
    difficulty: Difficulty,
    beats: int,
    contributions: Sequence[Contribution],
    *,
    against: str | None = None,
    decisive: bool = False,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """7.1: declare the goal and its Beats; the participants pay the Starting Combo Pool from their own Influence."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        world = state.world
        target_name, builds = None, False
        if against is not None:
            target = world.target(against)
            target_name = target.name
            builds = isinstance(target, Threat) and target.kind == "project"
            _check_standing(target)
        pools: dict[PoolName, int] = {}
        for c in contributions:
            pools[c.pool] = pools.get(c.pool, 0) + c.amount
        named = [c.model_copy(update={"star": state.star(c.star).name}) for c in contributions]
        sequence = seq_rules.declare(
            goal,
            difficulty,
            beats,
            pools,
            against=target_name,
            builds=builds,
            decisive=decisive,
            contributors=tuple(c.star for c in named),
        )
        seq_rules.begin(world, sequence)
        facts: list[Fact] = []
        for c in named:
            spent = InfluenceSpent(
                spent=decide_spend(state, c.star, c.pool, c.amount, push=False), reason=f"Combo Pool of '{goal}'"
            )
            state = _after(state, [spent])
            facts.append(spent)
        facts.append(SequenceDeclared(sequence=sequence, contributions=tuple(named)))
        return facts

    return ledger.execute(ref, decide, by=by, command_id=command_id)


@command
def play_beat(
    ledger: Ledger,
    ref: BranchRef,
    goal: str,
    *,
    request: CheckRequest | None = None,
    outcome: str | None = None,
    faces: Faces = None,
    chooser: Chooser | None = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """The running Sequence's next Beat: a check at the Beat's Difficulty against the target's pips
    (the Climax: at least the number of Beats), or an outcome the table already rolled."""
    if (request is None) == (outcome is None):
        raise RuleViolation("a Beat is either rolled (a Star and an Ability) or given (--outcome), not both or neither")
    roller = _CheckRoller(chooser)

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        sequence = state.world.sequence(goal)
        rolls = CommandDice(ledger, ref, state, faces)
        facts: list[Fact] = []
        star = None
        label = outcome
        if request is not None:
            power = None
            if sequence.against is not None and state.world.standing(sequence.against):
                power = state.world.target(sequence.against).power
            opposition = seq_rules.beat_opposition(sequence, power)
            which = "the Climax" if sequence.at_climax else f"Beat {sequence.next_beat}"
            source = f"{sequence.against or 'the Sequence'}, {which}"
            asked = request.model_copy(
                update={
                    "difficulty": sequence.beat_difficulty,
                    "opposition": opposition,
                    "opposition_source": source,
                }
            )
            checked = roller.roll(state, asked, rolls)
            if isinstance(checked, CheckAbandoned):
                return [checked]
            facts.append(checked)
            state = _after(state, [checked])
            star, label = checked.resolution.star, checked.resolution.outcome.value
        assert label is not None
        number, recorder = rolls.recording()
        played = seq_rules.play_beat(state.world, sequence.goal, label, recorder, star)
        rolls.done()
        target = sequence.against if played.effect is not None else None
        beat = SequenceBeatPlayed(
            goal=sequence.goal,
            outcome=played.recorded.beat.outcome,
            star=star,
            recorded=played.recorded,
            effect=played.effect,
            **_as_target(played.world, target),
            **rolls.stamp(number, recorder),
        )
        facts.append(beat)
        return facts + _settle(_after(state, [beat]), played.recorded)

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def _settle(state: ShowrunnerState, recorded: seq_rules.BeatRecorded) -> list[Fact]:
    """What a Beat leaves the Cast: the Combo Pool's payout, dealt among the contributors as
    Influence regained (over a maximum it overflows to the Ensemble Pool, then is lost), and the
    Consequences it calls for, recorded as due for the table to apply (`showrunner consequence`)."""
    sequence, beat = recorded.sequence, recorded.beat
    facts: list[Fact] = []
    for (star, pool), amount in seq_rules.share_payout(recorded.payout, sequence.contributors).items():
        regained = InfluenceRegained(
            regained=decide_regain(state, star, pool, amount), reason=f"Combo Pool payout of '{sequence.goal}'"
        )
        state = _after(state, [regained])
        facts.append(regained)
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
            )
        )
    return facts


@command
def spend_combo(
    ledger: Ledger,
    ref: BranchRef,
    goal: str,
    pool: PoolName,
    amount: int = 1,
    *,
    star: str | None = None,
    lowers_set_piece: bool = False,
    reason: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """7.2: spend from the Combo Pool; 7.4: never Spotlight or Plot Armor to lower a Set Piece's own Difficulty."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        sequence = state.world.sequence(goal)
        if lowers_set_piece:
            seq_rules.refuse_blockbuster_spend(sequence, pool)
        seq_rules.spend_combo(sequence, pool, amount)
        who = state.star(star).name if star else None
        return [ComboSpent(goal=sequence.goal, pool=pool, amount=amount, star=who, reason=reason)]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


# --------------------------------------------------------------------------- the Writer's Room


def _can_pay(state: ShowrunnerState, cost: int, what: str) -> None:
    if state.studio_notes < cost:
        have = f"{state.studio_notes} Studio Note{'s' if state.studio_notes != 1 else ''}"
        raise RuleViolation(f"the Director has {have} and {what} costs {cost}")


def _generate(
    state: ShowrunnerState, rolls: CommandDice, *, plotter: str | None, pre_production: bool
) -> SubplotGenerated:
    if plotter is not None:
        state.world.actor(plotter)  # an unknown Actor is named before the price
    _can_pay(state, generation_cost(pre_production), "writing a Subplot")
    number, recorder = rolls.recording()
    try:
        made = generate(state.world, recorder, plotter=plotter, pre_production=pre_production)
    except CastingNeeded as e:
        raise CastingNeeded(
            f"{e}: cast them with `showrunner actor create NAME --slot N`, then generate again"
        ) from None
    return SubplotGenerated(
        plotter=plotter,
        pre_production=pre_production,
        outcome=made.outcome,
        slot=made.slot,
        cost=made.cost,
        subplot=made.subplot,
        **rolls.stamp(number, recorder),
    )


def _reveal(state: ShowrunnerState, rolls: CommandDice, number: int, *, cliffhanger: bool) -> SubplotRevealed:
    world = state.world
    roll_number, recorder = rolls.recording()
    after = reveal(world, number, recorder)
    subplot = world.subplot(number)
    cost = reveal_cost(subplot, cliffhanger=cliffhanger)
    _can_pay(state, cost, f"revealing Subplot {number}")
    return SubplotRevealed(
        number=number,
        cost=cost,
        cliffhanger=cliffhanger,
        subplot=after.subplot(number),
        actors=changed_actors(world, after),
        roster=after.roster,
        **rolls.stamp(roll_number, recorder),
    )


def _with_rolls(
    ledger: Ledger,
    ref: BranchRef,
    state: ShowrunnerState,
    faces: Faces,
    decide: Callable[[ShowrunnerState, CommandDice], list[Fact]],
) -> list[Fact]:
    """A command whose facts roll in turn, each on its own roll number; every table face must be used."""
    rolls = CommandDice(ledger, ref, state, faces)
    facts = decide(state, rolls)
    rolls.done()
    return facts


@command
def generate_subplot(
    ledger: Ledger,
    ref: BranchRef,
    *,
    plotter: str | None = None,
    pre_production: bool = False,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """13.2: one Subplot attempt, the Plotter rolled on the roster (or chosen). Director-only, in stasis."""

    def decide(state: CampaignState) -> list[Fact]:
        return _with_rolls(
            ledger,
            ref,
            _showrunner(state),
            faces,
            lambda state, rolls: [_generate(state, rolls, plotter=plotter, pre_production=pre_production)],
        )

    return ledger.execute(ref, decide, by=by, command_id=command_id)


@command
def pre_production(
    ledger: Ledger, ref: BranchRef, *, faces: Faces = None, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    """4.3 Step 2: one free Subplot for every active Actor with none unresolved, in roster order."""

    def plot(state: ShowrunnerState, rolls: CommandDice) -> list[Fact]:
        facts: list[Fact] = []
        for slot, name in state.world.roster.slots.items():
            world = state.world
            if name is None or world.slot_state(slot) != "filled" or world.unresolved_subplot(name) is not None:
                continue
            fact = _generate(state, rolls, plotter=name, pre_production=True)
            state = _after(state, [fact])
            facts.append(fact)
        if not facts:
            raise RuleViolation("no Actor on the roster is free to plot: cast Actors first (`showrunner actor create`)")
        return facts

    return ledger.execute(
        ref, lambda state: _with_rolls(ledger, ref, _showrunner(state), faces, plot), by=by, command_id=command_id
    )


@command
def reveal_subplot(
    ledger: Ledger,
    ref: BranchRef,
    number: int,
    *,
    cliffhanger: bool = False,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """13.1 rule 5: bring a Subplot on-screen; all its effects apply, once (1 Studio Note, 0 if free)."""

    def decide(state: CampaignState) -> list[Fact]:
        return _with_rolls(
            ledger,
            ref,
            _showrunner(state),
            faces,
            lambda state, rolls: [_reveal(state, rolls, number, cliffhanger=cliffhanger)],
        )

    return ledger.execute(ref, decide, by=by, command_id=command_id)


@command
def resolve_subplot(
    ledger: Ledger, ref: BranchRef, number: int, *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        writers_room.resolve(state.world, number)
        return [SubplotResolved(number=number, plotter=state.world.subplot(number).plotter)]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


PlanStep = Literal["roll"] | int


@command
def writers_turn(
    ledger: Ledger,
    ref: BranchRef,
    plan: Sequence[PlanStep],
    *,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """14.1B: the world spends exactly half the Studio Notes (rounded down) on rolling Subplots
    (1 each) and Revealing them (1 each, 0 when marked free), in the order given."""
    from ..domain.showrunner.solorunner import writers_turn_budget

    def turn(state: ShowrunnerState, rolls: CommandDice) -> list[Fact]:
        notes = state.studio_notes
        budget = writers_turn_budget(notes)
        facts: list[Fact] = [WritersTurnTaken(studio_notes=notes, budget=budget, plan=tuple(str(s) for s in plan))]
        spent = 0

        def wrong(spending: str) -> RuleViolation:
            return RuleViolation(
                f"the Writer's Turn spends exactly half the Studio Notes, rounded down: {budget} of {notes}, "
                f"but this plan spends {spending} (each Subplot rolled costs 1, each Reveal 1 unless it is free)"
            )

        for step in plan:
            fact: SubplotGenerated | SubplotRevealed
            if step == "roll":
                if spent + generation_cost(False) > budget:
                    raise wrong("more")
                fact = _generate(state, rolls, plotter=None, pre_production=False)
            else:
                fact = _reveal(state, rolls, int(step), cliffhanger=False)
            spent += fact.cost
            if spent > budget:
                raise wrong("more")
            state = _after(state, [fact])
            facts.append(fact)
        if spent != budget:
            raise wrong(str(spent))
        return facts

    return ledger.execute(
        ref, lambda state: _with_rolls(ledger, ref, _showrunner(state), faces, turn), by=by, command_id=command_id
    )


# --------------------------------------------------------------------------- Solorunner


@command
def ask_oracle(
    ledger: Ledger,
    ref: BranchRef,
    question: str,
    difficulty: Difficulty = Difficulty.NORMAL,
    *,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """14.2: a Yes/No question on 2d6 against a Difficulty from EASY to EPIC."""
    from ..domain.showrunner import solorunner

    def decide(state: CampaignState) -> list[Fact]:
        answer, stamp = _rolled_once(
            ledger, ref, _showrunner(state), faces, lambda dice: solorunner.ask_oracle(question, dice, difficulty)
        )
        return [
            OracleAnswered(
                question=question,
                difficulty=difficulty,
                faces=answer.faces,
                outcome=answer.outcome,
                answer=answer.answer,
                **stamp,
            )
        ]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


@command
def consequence_menu(
    ledger: Ledger,
    ref: BranchRef,
    difficulty: Difficulty,
    *,
    disaster: bool = False,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """14.3: 2d10 on the Consequence Menu, sized by the check's original Difficulty."""
    from ..domain.showrunner import solorunner

    def decide(state: CampaignState) -> list[Fact]:
        menu, stamp = _rolled_once(
            ledger,
            ref,
            _showrunner(state),
            faces,
            lambda dice: solorunner.roll_consequence_menu(dice, difficulty, disaster=disaster),
        )
        options = tuple(MenuOptionRecord(**o.model_dump()) for o in menu.options)
        return [
            ConsequenceMenuRolled(
                difficulty=difficulty,
                disaster=disaster,
                faces=menu.faces,
                options=options,
                count=menu.count,
                size=menu.size,
                **stamp,
            )
        ]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def world_of(ledger: Ledger, ref: BranchRef, at: int | None = None) -> World:
    state = ledger.view(ref, at).state
    if not isinstance(state, ShowrunnerState):
        raise UnknownName("this campaign's ruleset has no Supporting Cast (only Showrunner campaigns do)")
    return state.world
