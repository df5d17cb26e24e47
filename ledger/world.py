"""Recording the world's side of a campaign: Actors, Threats, Action Sequences, the Writer's Room
and the Solorunner's Oracle.

Each function is one command: it loads the branch head through `Ledger.execute`, lets the pure
rules of `domain/showrunner` decide (refusing bad input before anything is written) and records
the facts in one save. Dice are the table's when faces are given (one queue per purpose, shared
by every roll of the command, and every face must be used), else ledger dice: each fact that
rolls takes the next roll number of the branch, so every roll is provable on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ..domain.campaign import CampaignState, name_key
from ..domain.dice import DiceSource, RecordingDice, TableDice
from ..domain.errors import AlreadyExists, RuleViolation, UnknownName
from ..domain.events import Fact
from ..domain.showrunner.actors import Actor
from ..domain.showrunner.check import Abandoned, CheckRequest, Chooser, resolve
from ..domain.showrunner.consequences import DeferredDice
from ..domain.showrunner.events import CheckAbandoned, CheckRolled, InfluenceSpent
from ..domain.showrunner.influence import decide_spend
from ..domain.showrunner.ladder import Difficulty
from ..domain.showrunner.power_dice import decisive_strike_difficulty, decisive_strike_opposition
from ..domain.showrunner import sequences as seq_rules
from ..domain.showrunner import threats as threat_rules
from ..domain.showrunner.state import ShowrunnerState
from ..domain.showrunner.threats import Threat, ThreatKind
from ..domain.showrunner.world import World
from ..domain.showrunner.world_events import (
    ActorCreated,
    ActorSpec,
    ActorsContested,
    ComboSpent,
    ConsequenceMenuRolled,
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
from ..domain.showrunner import writers_room
from .dice import LedgerDice
from .errors import CommandConflict
from .service import DIRECTOR, BranchRef, CommandResult, Ledger

Faces = Mapping[str, Sequence[int]] | None


def _showrunner(state: CampaignState) -> ShowrunnerState:
    if not isinstance(state, ShowrunnerState):
        raise RuleViolation("the Supporting Cast, Threats and the Writer's Room belong to Showrunner campaigns")
    return state


class _Rolls:
    """The dice of one command: the table's faces for all of its rolls, or ledger dice per roll number."""

    def __init__(self, ledger: Ledger, ref: BranchRef, state: CampaignState, faces: Faces) -> None:
        self.ledger, self.ref = ledger, ref
        self.table = TableDice(faces) if faces else None
        self.next = state.dice_rolls + 1
        self.commitment = state.dice_commitment

    def ledger_dice(self, number: int) -> LedgerDice:
        return LedgerDice(self.ledger.keys.load(self.ref.campaign.id, self.commitment), self.ref.branch.id, number)

    def take(self) -> tuple[int, DiceSource]:
        """The next roll number and its dice (ledger dice are only derived if a die is asked for)."""
        number = self.next
        self.next += 1
        if self.table is not None:
            return number, self.table
        return number, DeferredDice("ledger", lambda: self.ledger_dice(number))

    def recording(self) -> tuple[int, RecordingDice]:
        number, dice = self.take()
        return number, RecordingDice(dice)

    def stamp(self, number: int, recorder: RecordingDice) -> dict[str, Any]:
        ledger_rolled = bool(recorder.rolls) and self.table is None
        return {"roll_number": number, "dice_commitment": self.commitment if ledger_rolled else None,
                "rolls": tuple(recorder.rolls)}

    def done(self) -> None:
        if self.table is not None:
            self.table.check_all_used()


def _after(state: ShowrunnerState, facts: Sequence[Fact]) -> ShowrunnerState:
    for fact in facts:
        state = fact.apply(state)  # type: ignore[attr-defined]
    return state


# --------------------------------------------------------------------------- Actors


def create_actor(
    ledger: Ledger, ref: BranchRef, spec: ActorSpec, *, faces: Faces = None, by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """Appendix A: an Actor given whole or rolled, cast into a roster slot (the next free one by default)."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        world = state.world
        _name_is_free(state, spec.name)
        rolls = _Rolls(ledger, ref, state, faces)
        number, recorder = rolls.recording()
        actor = make_actor(spec, recorder)
        slot = world.roster.next_free() if spec.slot is None else spec.slot
        world.cast(actor, slot)  # refuses a filled slot or a taken name before anything is written
        rolls.done()
        return [ActorCreated(spec=spec, actor=actor, slot=slot, **rolls.stamp(number, recorder))]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def _name_is_free(state: ShowrunnerState, name: str) -> None:
    if name_key(name) in state.stars:
        raise AlreadyExists(f"'{name}' is a Star of this campaign: an Actor or a Threat needs another name")
    state.world._name_free(name)


def contest_actors(
    ledger: Ledger, ref: BranchRef, first: str, second: str, difficulty: Difficulty, *, by: str = DIRECTOR,
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
        return [ActorsContested(first=one.name, second=two.name, difficulty=difficulty, pips=result.pips,
                                winner=result.winner)]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


# --------------------------------------------------------------------------- Threats


def create_threat(
    ledger: Ledger, ref: BranchRef, name: str, kind: ThreatKind, level: Difficulty, *,
    pips: Sequence[int] | None = None, faces: Faces = None, by: str = DIRECTOR, command_id: str | None = None,
) -> CommandResult:
    """12.1B: a Threat enters with one Power Die per level from NORMAL up, rolled top down (or given)."""
    if level is Difficulty.EASY:
        raise RuleViolation("EASY is not a Power Level: a Threat is NORMAL to GODLIKE")
    given = tuple(pips) if pips is not None else None

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        _name_is_free(state, name)
        rolls = _Rolls(ledger, ref, state, faces)
        number, recorder = rolls.recording()
        threat = decide_threat(name, kind, level, given, recorder)
        rolls.done()
        return [ThreatCreated(name=name, kind=kind, level=level, pips=given, threat=threat, **rolls.stamp(number, recorder))]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def target_opposition(world: World, name: str, difficulty: Difficulty) -> tuple[str, int]:
    """The Threat's or Actor's full name and the Opposition Dice its Power Die gives at `difficulty`."""
    target = world.target(name)
    return target.name, target.power.pips_at(difficulty)


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
    Records the CheckRolled, then a ThreatChecked with the target's dice after the outcome.
    A Star who walks away after the roll records only the CheckAbandoned.
    """
    shown = False

    def decide(state: CampaignState) -> list[Fact]:
        nonlocal shown
        if shown:
            raise CommandConflict(
                "another roll was recorded on this branch while you chose; yours was not recorded: roll again"
            )
        state = _showrunner(state)
        found = state.world.target(target)
        name = found.name
        _check_standing(found)
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
        asked = request.model_copy(update={"difficulty": difficulty, "opposition": opposition, "opposition_source": source})
        shown = chooser is not None
        rolls = _Rolls(ledger, ref, state, faces)
        number, dice = rolls.take()
        used = None if faces else state.dice_commitment
        try:
            resolution = resolve(state, asked, dice, chooser)
        except Abandoned as walked_away:
            assert walked_away.request is not None
            return [CheckAbandoned(request=walked_away.request, rolls=walked_away.rolls, roll_number=number,
                                   dice_commitment=used, effects=walked_away.effects)]
        checked = CheckRolled(resolution=resolution, roll_number=number, dice_commitment=used)
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
        moved = world.target(name)
        return [checked, ThreatChecked(
            star=resolution.star, target=name, outcome=outcome, difficulty=resolution.original_difficulty,
            decisive=decisive, aid=aid, effect=effect,
            threat=moved if isinstance(moved, Threat) else None, actor=moved if isinstance(moved, Actor) else None,
            **rolls.stamp(effect_number, recorder),
        )]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def _check_standing(found: Threat | Actor) -> None:
    if isinstance(found, Threat) and found.finished:
        raise RuleViolation(f"{found.name} is {found.status}: no check can move its Power Dice any more")
    if isinstance(found, Actor) and found.written_off:
        raise RuleViolation(f"{found.name} has been written off the Show")


# --------------------------------------------------------------------------- Action Sequences


def declare_sequence(
    ledger: Ledger, ref: BranchRef, goal: str, difficulty: Difficulty, beats: int,
    contributions: Sequence[Contribution], *, against: str | None = None, decisive: bool = False,
    by: str = DIRECTOR, command_id: str | None = None,
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
        pools: dict[str, int] = {}
        for c in contributions:
            pools[c.pool] = pools.get(c.pool, 0) + c.amount
        sequence = seq_rules.declare(goal, difficulty, beats, pools, against=target_name, builds=builds, decisive=decisive)  # type: ignore[arg-type]
        seq_rules.begin(world, sequence)
        facts: list[Fact] = []
        named: list[Contribution] = []
        for c in contributions:
            star = state.star(c.star).name
            spent = InfluenceSpent(spent=decide_spend(state, star, c.pool, c.amount, push=False),
                                   reason=f"Combo Pool of '{goal}'")
            state = _after(state, [spent])
            facts.append(spent)
            named.append(c.model_copy(update={"star": star}))
        facts.append(SequenceDeclared(sequence=sequence, contributions=tuple(named)))
        return facts

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def play_beat(
    ledger: Ledger, ref: BranchRef, goal: str, *, request: CheckRequest | None = None, outcome: str | None = None,
    faces: Faces = None, chooser: Chooser | None = None, by: str = DIRECTOR, command_id: str | None = None,
) -> CommandResult:
    """The running Sequence's next Beat: a check at the Beat's Difficulty against the target's pips
    (the Climax: at least the number of Beats), or an outcome the table already rolled."""
    if (request is None) == (outcome is None):
        raise RuleViolation("a Beat is either rolled (a Star and an Ability) or given (--outcome), not both or neither")
    shown = False

    def decide(state: CampaignState) -> list[Fact]:
        nonlocal shown
        if shown:
            raise CommandConflict(
                "another roll was recorded on this branch while you chose; yours was not recorded: roll again"
            )
        state = _showrunner(state)
        sequence = state.world.sequence(goal)
        rolls = _Rolls(ledger, ref, state, faces)
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
            asked = request.model_copy(update={
                "difficulty": sequence.beat_difficulty, "opposition": opposition, "opposition_source": source,
            })
            shown = chooser is not None
            number, dice = rolls.take()
            used = None if faces else state.dice_commitment
            try:
                resolution = resolve(state, asked, dice, chooser)
            except Abandoned as walked_away:
                assert walked_away.request is not None
                return [CheckAbandoned(request=walked_away.request, rolls=walked_away.rolls, roll_number=number,
                                       dice_commitment=used, effects=walked_away.effects)]
            checked = CheckRolled(resolution=resolution, roll_number=number, dice_commitment=used)
            facts.append(checked)
            state = _after(state, [checked])
            star, label = resolution.star, resolution.outcome.value
        assert label is not None
        number, recorder = rolls.recording()
        played = seq_rules.play_beat(state.world, sequence.goal, label, recorder)
        rolls.done()
        moved = played.world.target(sequence.against) if played.effect is not None and sequence.against else None
        facts.append(SequenceBeatPlayed(
            goal=sequence.goal, outcome=played.recorded.beat.outcome, star=star, recorded=played.recorded,
            effect=played.effect, threat=moved if isinstance(moved, Threat) else None,
            actor=moved if isinstance(moved, Actor) else None, **rolls.stamp(number, recorder),
        ))
        return facts

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def spend_combo(
    ledger: Ledger, ref: BranchRef, goal: str, pool: str, amount: int = 1, *, star: str | None = None,
    lowers_set_piece: bool = False, reason: str = "", by: str = DIRECTOR, command_id: str | None = None,
) -> CommandResult:
    """7.2: spend from the Combo Pool; 7.4: never Spotlight or Plot Armor to lower a Set Piece's own Difficulty."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        sequence = state.world.sequence(goal)
        if lowers_set_piece:
            seq_rules.refuse_blockbuster_spend(sequence, pool)  # type: ignore[arg-type]
        seq_rules.spend_combo(sequence, pool, amount)  # type: ignore[arg-type]
        who = state.star(star).name if star else None
        return [ComboSpent(goal=sequence.goal, pool=pool, amount=amount, star=who, reason=reason)]  # type: ignore[arg-type]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


# --------------------------------------------------------------------------- the Writer's Room


def _can_pay(state: ShowrunnerState, cost: int, what: str) -> None:
    if state.studio_notes < cost:
        have = f"{state.studio_notes} Studio Note{'s' if state.studio_notes != 1 else ''}"
        raise RuleViolation(f"the Director has {have} and {what} costs {cost}")


def _generate(
    state: ShowrunnerState, rolls: _Rolls, *, plotter: str | None, pre_production: bool
) -> SubplotGenerated:
    if plotter is not None:
        state.world.actor(plotter)  # an unknown Actor is named before the price
    _can_pay(state, generation_cost(pre_production), "writing a Subplot")
    number, recorder = rolls.recording()
    try:
        made = generate(state.world, recorder, plotter=plotter, pre_production=pre_production)
    except CastingNeeded as e:
        raise CastingNeeded(f"{e}: cast them with `showrunner actor create NAME --slot N`, then generate again") from None
    return SubplotGenerated(
        plotter=plotter, pre_production=pre_production, outcome=made.outcome, slot=made.slot, cost=made.cost,
        subplot=made.subplot, **rolls.stamp(number, recorder),
    )


def _reveal(state: ShowrunnerState, rolls: _Rolls, number: int, *, cliffhanger: bool) -> SubplotRevealed:
    world = state.world
    roll_number, recorder = rolls.recording()
    after = reveal(world, number, recorder)
    subplot = world.subplot(number)
    cost = reveal_cost(subplot, cliffhanger=cliffhanger)
    _can_pay(state, cost, f"revealing Subplot {number}")
    return SubplotRevealed(
        number=number, cost=cost, cliffhanger=cliffhanger, subplot=after.subplot(number),
        actors=changed_actors(world, after), roster=after.roster, **rolls.stamp(roll_number, recorder),
    )


def generate_subplot(
    ledger: Ledger, ref: BranchRef, *, plotter: str | None = None, pre_production: bool = False,
    faces: Faces = None, by: str = DIRECTOR, command_id: str | None = None,
) -> CommandResult:
    """13.2: one Subplot attempt, the Plotter rolled on the roster (or chosen). Director-only, in stasis."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        rolls = _Rolls(ledger, ref, state, faces)
        fact = _generate(state, rolls, plotter=plotter, pre_production=pre_production)
        rolls.done()
        return [fact]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def pre_production(
    ledger: Ledger, ref: BranchRef, *, faces: Faces = None, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    """4.3 Step 2: one free Subplot for every active Actor with none unresolved, in roster order."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        rolls = _Rolls(ledger, ref, state, faces)
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
        rolls.done()
        return facts

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def reveal_subplot(
    ledger: Ledger, ref: BranchRef, number: int, *, cliffhanger: bool = False, faces: Faces = None,
    by: str = DIRECTOR, command_id: str | None = None,
) -> CommandResult:
    """13.1 rule 5: bring a Subplot on-screen; all its effects apply, once (1 Studio Note, 0 if free)."""

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        rolls = _Rolls(ledger, ref, state, faces)
        fact = _reveal(state, rolls, number, cliffhanger=cliffhanger)
        rolls.done()
        return [fact]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def resolve_subplot(
    ledger: Ledger, ref: BranchRef, number: int, *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        writers_room.resolve(state.world, number)
        return [SubplotResolved(number=number, plotter=state.world.subplot(number).plotter)]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


PlanStep = Literal["roll"] | int


def writers_turn(
    ledger: Ledger, ref: BranchRef, plan: Sequence[PlanStep], *, faces: Faces = None, by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """14.1B: the world spends exactly half the Studio Notes (rounded down) on rolling Subplots
    (1 each) and Revealing them (1 each, 0 when marked free), in the order given."""
    from ..domain.showrunner.solorunner import writers_turn_budget

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        notes = state.studio_notes
        budget = writers_turn_budget(notes)
        rolls = _Rolls(ledger, ref, state, faces)
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
        rolls.done()
        return facts

    return ledger.execute(ref, decide, by=by, command_id=command_id)


# --------------------------------------------------------------------------- Solorunner


def ask_oracle(
    ledger: Ledger, ref: BranchRef, question: str, difficulty: Difficulty = Difficulty.NORMAL, *,
    faces: Faces = None, by: str = DIRECTOR, command_id: str | None = None,
) -> CommandResult:
    """14.2: a Yes/No question on 2d6 against a Difficulty from EASY to EPIC."""
    from ..domain.showrunner import solorunner

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        rolls = _Rolls(ledger, ref, state, faces)
        number, recorder = rolls.recording()
        answer = solorunner.ask_oracle(question, recorder, difficulty)
        rolls.done()
        return [OracleAnswered(question=question, difficulty=difficulty, faces=answer.faces, outcome=answer.outcome,
                               answer=answer.answer, **rolls.stamp(number, recorder))]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def consequence_menu(
    ledger: Ledger, ref: BranchRef, difficulty: Difficulty, *, disaster: bool = False, faces: Faces = None,
    by: str = DIRECTOR, command_id: str | None = None,
) -> CommandResult:
    """14.3: 2d10 on the Consequence Menu, sized by the check's original Difficulty."""
    from ..domain.showrunner import solorunner

    def decide(state: CampaignState) -> list[Fact]:
        state = _showrunner(state)
        rolls = _Rolls(ledger, ref, state, faces)
        number, recorder = rolls.recording()
        menu = solorunner.roll_consequence_menu(recorder, difficulty, disaster=disaster)
        rolls.done()
        options = tuple(MenuOptionRecord(**o.model_dump()) for o in menu.options)
        return [ConsequenceMenuRolled(
            difficulty=difficulty, disaster=disaster, faces=menu.faces, options=options,  # type: ignore[arg-type]
            count=menu.count, size=menu.size, **rolls.stamp(number, recorder),
        )]

    return ledger.execute(ref, decide, by=by, command_id=command_id)


def world_of(ledger: Ledger, ref: BranchRef, at: int | None = None) -> World:
    state = ledger.view(ref, at).state
    if not isinstance(state, ShowrunnerState):
        raise UnknownName("this campaign's ruleset has no Supporting Cast (only Showrunner campaigns do)")
    return state.world
