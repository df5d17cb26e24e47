"""d4 Resonance's turn economy: one Check or Ability a turn, a Support spending the supporter's
Check, a move taking the whole turn, turns passing in order; and a combat recorded before turns
were kept, which folds and re-judges as it was decided."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.rejudge import rejudge_command
from showrunner_ledger.domain.resonance.actions import InitiativeInput
from showrunner_ledger.domain.resonance.events import CheckRolled, FrontChanged, KitUsed, TurnEnded
from showrunner_ledger.domain.resonance.ruleset import RESONANCE
from showrunner_ledger.domain.resonance.sheet import CharacterSheet, Combatant, kit_named
from showrunner_ledger.domain.resonance.state import ResonanceState
from showrunner_ledger.domain.ruleset import RollContext


def sheet(name: str, **skills: int) -> CharacterSheet:
    kits = (kit_named("Healing Potion Kit"),)
    return CharacterSheet(name=name, skills={**skills, "Fortitude": 1}, physical_endurance=1, kits=kits)


def base() -> ResonanceState:
    state = ResonanceState(pitch=Pitch(title="Storm Gate", ruleset="resonance"))
    for s in (
        sheet("Kestrel Vane", Brawn=2, Speed=3),
        sheet("Orrin Marsh", Brawn=2, Speed=2),
        sheet("Tess", Brawn=2, Speed=0),
    ):
        state = state.with_combatant(Combatant.of(s))
    return state.with_combatant(Combatant.of(sheet("Gate Warden", Brawn=2, Speed=1), adversary=True))


def decided(state: ResonanceState, name: str, request: dict, **faces: list[int]) -> list:
    command = RESONANCE.command(name)
    assert command is not None
    roll = RollContext.of(TableDice(faces), state.dice_rolls + 1) if command.rolls else None
    return list(command.decide(state, command.input.model_validate(request), roll))


def run(state: ResonanceState, name: str, request: dict, **faces: list[int]) -> ResonanceState:
    for fact in decided(state, name, request, **faces):
        state = fact.apply(state)
    return state


FIGHTERS = ["Kestrel", "Orrin", "Gate Warden"]


def fight(turns: bool = True) -> ResonanceState:
    state = run(base(), "initiative", {"combatant": FIGHTERS, "turns": turns})
    state = run(state, "front", {"front": "the bridge", "combatant": ["Kestrel", "Gate Warden"]})
    return run(state, "front", {"front": "the gate", "combatant": ["Orrin"]})


def brawn(who: str, **more: object) -> dict:
    return {"character": who, "skill": "Brawn", "challenge": 1, **more}


def rolled(state: ResonanceState, who: str, **more: object) -> ResonanceState:
    return run(state, "check", brawn(who, **more), challenge_dice=[1], dice=[2, 2, 2][: 2 + ("support" in more)])


def whose(state: ResonanceState) -> tuple[str | None, int, bool]:
    assert state.combat is not None
    return state.combat.current(), state.combat.round, state.combat.acted


def test_after_initiative_it_is_the_first_combatants_turn_of_round_1():
    [fact] = decided(base(), "initiative", {"combatant": FIGHTERS, "turns": True})
    assert fact.summary().endswith("Kestrel Vane's turn, round 1")
    assert whose(fight()) == ("Kestrel Vane", 1, False)


def test_acting_out_of_turn_is_refused_in_one_line():
    with pytest.raises(RuleViolation, match="^it is Kestrel Vane's turn: Orrin Marsh cannot roll a check out of turn"):
        decided(fight(), "check", brawn("Orrin"), challenge_dice=[1], dice=[2, 2])
    with pytest.raises(RuleViolation, match="it is Kestrel Vane's turn: Orrin Marsh cannot use a Kit out of turn"):
        decided(fight(), "use-kit", {"character": "Orrin", "kit": "Healing Potion Kit", "on": "Kestrel", "harm": "x"})


def test_a_turn_allows_one_check_or_ability():
    state = rolled(fight(), "Kestrel")
    assert whose(state) == ("Kestrel Vane", 1, True)
    with pytest.raises(RuleViolation, match="Kestrel Vane has already used this turn's Check or Ability"):
        decided(state, "check", brawn("Kestrel"), challenge_dice=[1], dice=[2, 2])
    hurt = run(state, "harm", {"character": "Kestrel", "harm": "cut"})  # the Director's, not a turn's
    with pytest.raises(RuleViolation, match="Kestrel Vane has already used this turn's Check or Ability"):
        decided(hurt, "use-kit", {"character": "Kestrel", "kit": "Healing Potion Kit", "harm": "cut"})


def test_using_a_magic_kit_is_the_turns_ability():
    state = run(fight(), "harm", {"character": "Kestrel", "harm": "cut"})
    [fact] = decided(state, "use-kit", {"character": "Kestrel", "kit": "Healing Potion Kit", "harm": "cut"})
    assert isinstance(fact, KitUsed) and fact.turn is not None and fact.turn.combatant == "Kestrel Vane"
    state = fact.apply(state)
    with pytest.raises(RuleViolation, match="already used this turn's Check or Ability"):
        decided(state, "check", brawn("Kestrel"), challenge_dice=[1], dice=[2, 2])


def test_turns_pass_in_initiative_order_and_a_new_round_starts_after_the_last():
    state = fight()
    seen = []
    for who in ("Kestrel", "Orrin", "Gate Warden", "Kestrel"):
        [fact] = decided(state, "end-turn", {"character": who})
        assert isinstance(fact, TurnEnded)
        state = fact.apply(state)
        seen.append(whose(state))
    assert seen == [
        ("Orrin Marsh", 1, False),
        ("Gate Warden", 1, False),
        ("Kestrel Vane", 2, False),
        ("Orrin Marsh", 2, False),
    ]
    with pytest.raises(RuleViolation, match="it is Orrin Marsh's turn: Kestrel Vane cannot end it"):
        decided(state, "end-turn", {"character": "Kestrel"})


def test_a_combatant_out_of_the_narrative_is_passed_over():
    state = run(fight(), "harm", {"character": "Orrin", "harm": "crushed", "levels": 12})
    [fact] = decided(state, "end-turn", {"character": "Kestrel"})
    assert (fact.passed.next, fact.passed.skipped) == ("Gate Warden", ("Orrin Marsh",))
    assert "Orrin Marsh out of the narrative" in fact.summary()


def test_a_support_spends_the_supporters_check_of_their_turn():
    state = rolled(fight(), "Kestrel", support=["Orrin"])
    [fact] = decided(fight(), "check", brawn("Kestrel", support=["Orrin"]), challenge_dice=[1], dice=[2, 2, 2])
    assert isinstance(fact, CheckRolled) and fact.turn is not None and fact.turn.supporters == ("Orrin Marsh",)
    assert "Orrin Marsh's Check spent by the Support" in fact.summary()
    # Orrin cannot Support again before his turn; on it, his Check is gone, but he may still end it.
    state = run(state, "end-turn", {"character": "Kestrel"})
    assert whose(state) == ("Orrin Marsh", 1, True)
    with pytest.raises(RuleViolation, match="Orrin Marsh has already used this turn's Check or Ability"):
        decided(state, "check", brawn("Orrin"), challenge_dice=[1], dice=[2, 2])
    state = run(state, "end-turn", {"character": "Orrin"})
    assert whose(state) == ("Gate Warden", 1, False)


def test_a_supporter_cannot_support_twice_before_their_turn():
    state = rolled(fight(), "Kestrel", support=["Orrin"])
    # Tess, outside the combat, is not held to its turns; Orrin, in it, is.
    with pytest.raises(RuleViolation, match="a Support already spent Orrin Marsh's Check for their next turn"):
        decided(state, "check", brawn("Tess", support=["Orrin"]), challenge_dice=[1], dice=[2])
    state = run(state, "end-turn", {"character": "Kestrel"})
    with pytest.raises(
        RuleViolation, match="Orrin Marsh has already used this turn's Check or Ability and cannot Support"
    ):
        decided(state, "check", brawn("Tess", support=["Orrin"]), challenge_dice=[1], dice=[2])


def test_supporting_the_opponents_reaction_spends_a_check_too():
    [fact] = decided(
        fight(),
        "check",
        brawn("Kestrel", challenge=None, opposed_by="Gate Warden", opposed_skill="Brawn", opposed_support=["Orrin"]),
        opposed_dice=[1, 1, 1],
        dice=[2, 2],
    )
    assert fact.turn.supporters == ("Orrin Marsh",)


def test_supporting_a_further_opponents_roll_spends_the_supporters_check():
    further = brawn(
        "Kestrel",
        challenge=None,
        opposed_by="Gate Warden",
        opposed_skill="Brawn",
        also_opposed_by=["Tess=Brawn"],
        also_opposed_support=["Tess=Orrin"],
    )
    [fact] = decided(fight(), "check", further, opposed_dice=[1, 1, 1, 1, 1], dice=[2, 2])
    assert fact.turn.supporters == ("Orrin Marsh",)
    assert [o.supporter for o in fact.resolution.others] == ["Orrin Marsh"]
    # Orrin's Check is spent: he cannot Support another roll before his turn.
    state = fact.apply(fight())
    state = run(state, "end-turn", {"character": "Kestrel"})
    with pytest.raises(RuleViolation, match="Orrin Marsh has already used this turn's Check or Ability"):
        decided(state, "check", brawn("Orrin"), challenge_dice=[1], dice=[2, 2])


def test_a_move_takes_the_whole_turn_and_passes_it_on():
    state = run(fight(), "end-turn", {"character": "Kestrel"})
    with pytest.raises(
        RuleViolation, match="it is Orrin Marsh's turn: Kestrel Vane cannot move between Fronts out of turn"
    ):
        decided(state, "move", {"character": "Kestrel", "front": "the gate"})
    moved, passed = decided(state, "move", {"character": "Orrin", "front": "the bridge"})
    assert isinstance(moved, FrontChanged) and isinstance(passed, TurnEnded)
    assert (passed.passed.ended, passed.passed.next) == ("Orrin Marsh", "Gate Warden")
    after = passed.apply(moved.apply(state))
    assert after.combat is not None and after.combat.front_of("Orrin Marsh") == "the bridge"
    assert whose(after) == ("Gate Warden", 1, False)
    with pytest.raises(RuleViolation, match="moving between Fronts takes Orrin Marsh's full turn"):
        decided(rolled(state, "Orrin"), "move", {"character": "Orrin", "front": "the bridge"})


def test_outside_combat_no_turn_economy_applies():
    state = base()
    for who in ("Orrin", "Orrin", "Kestrel"):
        state = rolled(state, who, support=["Tess"])
    [fact] = decided(state, "check", brawn("Orrin"), challenge_dice=[1], dice=[2, 2])
    assert fact.turn is None
    with pytest.raises(RuleViolation, match="no combat is under way"):
        decided(state, "end-turn", {"character": "Kestrel"})


def test_a_bystander_outside_the_combat_is_not_held_to_its_turns():
    state = rolled(fight(), "Tess")
    assert whose(state) == ("Kestrel Vane", 1, False)


def test_a_combat_recorded_before_turns_were_kept_keeps_none():
    # A recorded request is the whole input dumped: one without `turns` predates them.
    assert InitiativeInput.model_validate({"combatant": FIGHTERS}).turns is False
    assert InitiativeInput.model_validate({"combatant": FIGHTERS, "turns": True}).turns is True
    state = fight(turns=False)
    state = rolled(rolled(state, "Orrin"), "Orrin")
    with pytest.raises(RuleViolation, match="began before the ledger kept turns"):
        decided(state, "end-turn", {"character": "Kestrel"})
    assert [type(f) for f in decided(state, "move", {"character": "Orrin", "front": "the bridge"})] == [FrontChanged]


def test_an_old_check_in_an_old_combat_rejudges_as_recorded():
    state = fight(turns=False)
    request = brawn("Orrin")
    [fact] = decided(state, "check", request, challenge_dice=[1], dice=[2, 2])
    record = {"name": "check", "input": RESONANCE.check_input.model_validate(request).model_dump(mode="json")}
    assert rejudge_command(state, record, [(fact, "public")]) is None
    # The same check in a combat keeping turns is out of turn: the engine would refuse it now.
    assert "out of turn" in (rejudge_command(fight(), record, [(fact, "public")]) or "")
