"""Action Sequences and Set Pieces (Chapter 7) as a state machine."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import AlreadyExists, RuleViolation
from showrunner_ledger.domain.showrunner.check import CheckRequest, SequenceTradeUse, resolve
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sequences import (
    STARTING_COMBO_POOL,
    SequenceError,
    SequenceTrade,
    beat_opposition,
    begin,
    declare,
    gain_combo,
    minimum_beats,
    play_beat,
    record_beat,
    refuse_blockbuster_spend,
    share_payout,
    spend_combo,
    who_suffers,
    with_trade,
)
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.threats import Threat
from showrunner_ledger.domain.showrunner.world import World
from tests.conftest import example_star

GOAL = "crack the vault"


def combo(beats: int) -> dict[str, int]:
    return {"grit": STARTING_COMBO_POOL[beats]}


def world_with(name: str, kind: str, *pips: int) -> World:
    return World().add_threat(Threat(name=name, kind=kind, power=PowerDice(pips=pips)))


# --- the book's examples


def test_the_action_sequence_progress_example():
    """7.1: "a 3-Beat Action Sequence against an EPIC Threat (possessing 2 pips on its EPIC die, 2 on
    its FORMIDABLE, and 5 on its HARD die). Planning 3 Beats reduces the check Difficulty Target by 2
    steps (from EPIC down to HARD). Setup Beat 1: Resolved as a HARD check against 5 Opposition Dice …
    Succeeding on Beat 1 clears the HARD die which is re-rolled as a 3 while FORMIDABLE drops to 2→1.
    Setup Beat 2: Resolved as a HARD check against 3 Opposition Dice. Succeeding on Beat 2 clears the
    HARD die again which also clears the FORMIDABLE die. It is re-rolled and the EPIC Power Die drops
    2→1. Climax Beat (Beat 3): Resolved as a HARD check against 3 Opposition Dice: the EPIC die has 1
    pip remaining, but a three-Beat Sequence has a minimum of 3 Opposition Dice on its Climax Beat."
    (The NORMAL die's pips are not given: 4 here.)"""
    world = begin(world_with("Vault", "obstacle", 4, 5, 2, 2), declare(GOAL, D.EPIC, 3, combo(3), against="Vault"))
    sequence = world.sequence(GOAL)
    assert sequence.beat_difficulty is D.HARD
    assert beat_opposition(sequence, world.threat("Vault").power) == 5

    dice = TableDice({"power": [3, 4, 2]})
    world, recorded, _ = play_beat(world, GOAL, "success", dice)
    assert recorded.beat.difficulty is D.HARD
    assert world.threat("Vault").power == PowerDice(pips=(4, 3, 1, 2))  # HARD re-rolled 3, FORMIDABLE 2→1
    assert beat_opposition(world.sequence(GOAL), world.threat("Vault").power) == 3

    world, _, effect = play_beat(world, GOAL, "success", dice)
    assert effect is not None and "cleared FORMIDABLE: EPIC drops to 1" in effect.change.steps
    assert world.threat("Vault").power.pips_at(D.EPIC) == 1
    climax = world.sequence(GOAL)
    assert climax.at_climax and climax.beat_difficulty is D.HARD
    assert beat_opposition(climax, world.threat("Vault").power) == 3
    dice.check_all_used()


def test_the_action_sequence_opposition_example():
    """7.1: "a 3-Beat EPIC Action Sequence against an Opponent with 2 EPIC pips and 5 HARD pips. The
    Opposition Dice for the first two Setup Beats use the Opponent's HARD pips then the final uses
    their EPIC pips." (With 4 EPIC pips, the Climax's minimum of 3 does not hide them.)"""
    sequence = declare(GOAL, D.EPIC, 3, combo(3), against="Ogre")
    ogre = PowerDice(pips=(1, 5, 3, 4))
    assert beat_opposition(sequence, ogre) == 5
    second = record_beat(sequence, "failure").sequence
    assert second.finished  # a failed Setup Beat ends it; replay the plan with two successes instead
    sequence = record_beat(record_beat(sequence, "success").sequence, "success").sequence
    assert beat_opposition(sequence, ogre) == 4
    assert beat_opposition(sequence, PowerDice(pips=(1, 5, 3, 2))) == 3


def test_the_decisive_strike_example_on_a_climax():
    """12.1G: "A MYTHIC Threat happens to have 2 pips on its MYTHIC Power Die. Below the MYTHIC die, there
    are 5 lower-tier Power Dice … faces 7 Opposition Dice (2 pips on MYTHIC die + 5 lower-tier dice) on the
    final Climax Beat of the Action Sequence." The strike is ASCENDANT: a Set Piece of at least 4 Beats."""
    leviathan = PowerDice(pips=(3, 3, 3, 3, 3, 2))
    sequence = declare("slay the Leviathan", D.ASCENDANT, 4, combo(4), against="Leviathan", decisive=True)
    assert sequence.set_piece and sequence.beat_difficulty is D.EPIC
    for _ in range(3):
        assert beat_opposition(sequence, leviathan) == 3  # Setup Beats: the 3 pips on the EPIC die
        sequence = record_beat(sequence, "success").sequence
    assert sequence.at_climax
    assert beat_opposition(sequence, leviathan) == 7


def test_a_decisive_climax_success_destroys_and_anything_less_leaves_the_dice():
    strike = declare("gate", D.FORMIDABLE, 2, combo(2), against="Gate", decisive=True)
    world = begin(world_with("Gate", "obstacle", 2, 3), strike)
    world, _, _ = play_beat(world, "gate", "success", None)
    before = world.threat("Gate")
    assert before.power == PowerDice(pips=(2,))  # the Setup Beat cleared the HARD die as usual
    partial_world, recorded, effect = play_beat(world, "gate", "partial", None)
    assert effect is None and partial_world.threat("Gate") == before
    assert (recorded.consequences, recorded.consequence_difficulty) == (1, D.FORMIDABLE)
    world, _, effect = play_beat(world, "gate", "success", None)
    assert effect is not None and world.threat("Gate").status == "destroyed"


def test_a_decisive_climax_faces_at_least_the_number_of_beats():
    sequence = declare("gate", D.FORMIDABLE, 3, combo(3), against="Gate", decisive=True)
    sequence = record_beat(record_beat(sequence, "success").sequence, "success").sequence
    assert beat_opposition(sequence, PowerDice(pips=(1, 1))) == 3  # 1 pip + 1 die below, raised to 3 Beats


# --- declaring


@pytest.mark.parametrize("beats", [0, 1, 6, 9])
def test_a_sequence_has_2_to_5_beats(beats):
    with pytest.raises(SequenceError, match=f"2 to 5 Beats, not {beats}"):
        declare(GOAL, D.EPIC, beats, {"grit": 1})


@pytest.mark.parametrize(
    ("difficulty", "beats", "reduced"),
    [
        (D.HARD, 2, D.NORMAL),
        (D.EPIC, 2, D.FORMIDABLE),
        (D.EPIC, 4, D.NORMAL),
        (D.EPIC, 5, D.NORMAL),
        (D.MYTHIC, 3, D.EPIC),
    ],
)
def test_each_extra_beat_lowers_every_check_one_step_not_below_normal(difficulty, beats, reduced):
    assert declare(GOAL, difficulty, beats, combo(beats)).beat_difficulty is reduced


def test_a_sequence_is_for_hard_tasks_or_higher():
    with pytest.raises(SequenceError, match="HARD or higher"):
        declare(GOAL, D.NORMAL, 2, combo(2))


@pytest.mark.parametrize(
    ("difficulty", "least"), [(D.EPIC, 2), (D.LEGENDARY, 2), (D.MYTHIC, 3), (D.ASCENDANT, 4), (D.GODLIKE, 5)]
)
def test_a_set_piece_needs_beats_enough_to_bring_each_beat_to_epic(difficulty, least):
    assert minimum_beats(difficulty) == least
    if least > 2:
        with pytest.raises(SequenceError, match=f"at least {least} Beats"):
            declare(GOAL, difficulty, least - 1, combo(least - 1))
    assert declare(GOAL, difficulty, least, combo(least)).beat_difficulty.rank <= D.EPIC.rank


def test_the_combo_pool_opens_with_the_listed_influence_in_total():
    opened = declare(GOAL, D.EPIC, 3, {"grit": 1, "retake": 1})
    assert opened.combo == {"grit": 1, "retake": 1}
    with pytest.raises(SequenceError, match="opens its Combo Pool with 2 Influence in total \\(1 contributed\\)"):
        declare(GOAL, D.EPIC, 3, {"grit": 1})
    with pytest.raises(SequenceError, match="negative"):
        declare(GOAL, D.EPIC, 2, {"grit": 2, "retake": -1})


def test_a_decisive_strike_needs_something_to_strike():
    with pytest.raises(SequenceError, match="Decisive Strike needs"):
        declare(GOAL, D.EPIC, 2, combo(2), decisive=True)


# --- the Combo Pool


def test_spending_and_gaining_combo_influence():
    sequence = declare(GOAL, D.EPIC, 3, {"grit": 2})
    sequence = spend_combo(gain_combo(sequence, "spotlight", 1), "grit", 1)
    assert sequence.combo == {"grit": 1, "spotlight": 1}
    with pytest.raises(SequenceError, match="holds 0 retake"):
        spend_combo(sequence, "retake", 1)
    with pytest.raises(SequenceError, match="positive"):
        gain_combo(sequence, "grit", 0)


@pytest.mark.parametrize("outcome", ["partial", "success", "highlight"])
def test_the_combo_pool_pays_out_on_partial_or_better(outcome):
    sequence = record_beat(declare(GOAL, D.EPIC, 2, {"retake": 1}), "success").sequence
    recorded = record_beat(sequence, outcome)
    assert recorded.payout == {"retake": 1} and recorded.lost == {}
    assert recorded.sequence.combo == {}


@pytest.mark.parametrize("outcome", ["failure", "disaster"])
def test_the_combo_pool_is_lost_on_failure(outcome):
    sequence = record_beat(declare(GOAL, D.EPIC, 2, {"retake": 1}), "success").sequence
    recorded = record_beat(sequence, outcome)
    assert recorded.payout == {} and recorded.lost == {"retake": 1}


def test_the_payout_is_dealt_in_turn_to_the_contributors_pool_by_pool():
    """7.2 The Payout "however the Cast sees fit": one point at a time to each contributor in the
    order they paid, Grit, Retake, Spotlight, Plot Armor, Preparation, the deal running on."""
    shares = share_payout({"retake": 1, "grit": 2, "preparation": 2}, ("Mara", "Tobias"))
    assert list(shares.items()) == [
        (("Mara", "grit"), 1),
        (("Tobias", "grit"), 1),
        (("Mara", "retake"), 1),
        (("Tobias", "preparation"), 1),
        (("Mara", "preparation"), 1),
    ]
    assert share_payout({"grit": 3}, ("Mara",)) == {("Mara", "grit"): 3}
    assert share_payout({"grit": 3}, ()) == {}  # a Sequence recorded before contributors were kept


def test_consequences_fall_on_the_roller_of_a_setup_beat_and_every_participant_on_the_climax():
    """7.3B "all Sequence participants": the contributors, then every Star who rolled a Beat."""
    sequence = declare(GOAL, D.EPIC, 3, {"grit": 2}, contributors=("Mara", "Mara"))
    assert sequence.contributors == ("Mara",)
    setup = record_beat(sequence, "partial", "Tobias")
    assert setup.beat.star == "Tobias" and who_suffers(setup) == ("Tobias",)
    assert setup.sequence.participants == ("Mara", "Tobias")
    unnamed = record_beat(setup.sequence, "partial")
    assert who_suffers(unnamed) == ()  # given as an outcome: the table names who suffers it
    climax = record_beat(unnamed.sequence, "failure", "Ines")
    assert who_suffers(climax) == ("Mara", "Tobias", "Ines")
    assert who_suffers(record_beat(unnamed.sequence, "success", "Ines")) == ()


def test_a_beat_without_a_star_and_a_sequence_without_contributors_dump_as_before():
    sequence = record_beat(declare(GOAL, D.EPIC, 3, {"grit": 2}), "success").sequence
    dumped = sequence.model_dump(mode="json")
    assert "contributors" not in dumped and "star" not in dumped["played"][0]
    named = record_beat(declare(GOAL, D.EPIC, 3, {"grit": 2}, contributors=("Mara",)), "success", "Mara").sequence
    assert named.model_dump(mode="json")["played"][0]["star"] == "Mara"
    assert type(named).model_validate(named.model_dump(mode="json")) == named


# --- Beats and outcomes


def test_setup_beats_progress_at_the_reduced_difficulty_and_a_highlight_one_higher():
    sequence = declare(GOAL, D.EPIC, 3, combo(3), against="Vault")
    first = record_beat(sequence, "success")
    assert (first.beat.progress.action, first.beat.progress.level) == ("clear", D.HARD)
    second = record_beat(first.sequence, "highlight")
    assert second.beat.progress.level is D.FORMIDABLE


def test_a_partial_setup_beat_still_progresses_with_its_consequence_at_the_reduced_difficulty():
    recorded = record_beat(declare(GOAL, D.EPIC, 3, combo(3), against="Vault"), "partial")
    assert recorded.beat.progress.level is D.HARD
    assert (recorded.consequences, recorded.consequence_difficulty, recorded.everyone) == (1, D.HARD, False)
    assert not recorded.sequence.finished


@pytest.mark.parametrize(("outcome", "consequences"), [("failure", 1), ("disaster", 2)])
def test_a_failed_setup_beat_ends_the_sequence_as_a_failure(outcome, consequences):
    recorded = record_beat(declare(GOAL, D.EPIC, 3, {"grit": 2}, against="Vault"), outcome)
    assert recorded.sequence.outcome == outcome and recorded.beat.progress is None
    assert (recorded.consequences, recorded.consequence_difficulty) == (consequences, D.HARD)
    assert recorded.lost == {"grit": 2}
    with pytest.raises(SequenceError, match="is over"):
        record_beat(recorded.sequence, "success")


def test_the_climax_progresses_and_costs_at_the_original_difficulty_for_everyone():
    sequence = record_beat(declare(GOAL, D.EPIC, 2, combo(2), against="Vault"), "success").sequence
    climax = record_beat(sequence, "partial")
    assert climax.beat.climax and climax.beat.difficulty is D.FORMIDABLE
    assert climax.beat.progress.level is D.EPIC
    assert (climax.consequences, climax.consequence_difficulty, climax.everyone) == (1, D.EPIC, True)
    assert climax.sequence.outcome == "partial"
    highlight = record_beat(sequence, "highlight")
    assert highlight.beat.progress.level is D.LEGENDARY


def test_a_disaster_on_the_climax_adds_a_consequence():
    sequence = record_beat(declare(GOAL, D.MYTHIC, 3, combo(3)), "success").sequence
    climax = record_beat(record_beat(sequence, "success").sequence, "disaster")
    assert (climax.consequences, climax.consequence_difficulty) == (2, D.MYTHIC)


def test_a_sequence_on_a_project_adds_pips():
    build = declare("bridge", D.FORMIDABLE, 2, combo(2), against="Bridge", builds=True)
    world = begin(world_with("Bridge", "project", 2, 3, 1), build)
    world, recorded, _ = play_beat(world, "bridge", "success", None)
    assert recorded.beat.progress.action == "pip"
    assert world.threat("Bridge").power == PowerDice(pips=(2, 4, 1))


def test_a_finished_sequence_leaves_the_world():
    world = begin(world_with("Vault", "obstacle", 4, 5), declare(GOAL, D.HARD, 2, combo(2), against="Vault"))
    world, _, _ = play_beat(world, GOAL, "success", TableDice({"power": [2]}))
    assert world.sequence_active(GOAL)
    world, recorded, _ = play_beat(world, GOAL, "failure", None)
    assert recorded.sequence.outcome == "failure" and not world.sequence_active(GOAL)


def test_progress_on_a_target_already_destroyed_is_skipped():
    world = begin(world_with("Door", "obstacle", 4), declare("door", D.HARD, 2, combo(2), against="Door"))
    world, _, effect = play_beat(world, "door", "highlight", None)
    assert effect.status == "destroyed"
    world, _, effect = play_beat(world, "door", "success", None)
    assert effect is None and not world.sequence_active("door")


# --- beginning in the world


def test_begin_checks_the_target_and_the_goal():
    world = world_with("Bridge", "project", 2, 3)
    with pytest.raises(SequenceError, match="is a Project"):
        begin(world, declare("bridge", D.HARD, 2, combo(2), against="Bridge"))
    world = begin(world, declare("bridge", D.HARD, 2, combo(2), against="Bridge", builds=True))
    with pytest.raises(AlreadyExists, match="already running"):
        begin(world, declare("Bridge", D.HARD, 2, combo(2)))


def test_a_decisive_strike_must_be_one_step_above_the_top_die():
    world = world_with("Gate", "obstacle", 2, 3)
    with pytest.raises(SequenceError, match="is at FORMIDABLE"):
        begin(world, declare("gate", D.EPIC, 2, combo(2), against="Gate", decisive=True))
    assert begin(world, declare("gate", D.FORMIDABLE, 2, combo(2), against="Gate", decisive=True)).sequence_active(
        "gate"
    )


# --- Blockbuster Limits (7.4)


def test_spotlight_and_plot_armor_cannot_lower_a_set_piece():
    set_piece = declare(GOAL, D.LEGENDARY, 2, combo(2))
    for pool in ("spotlight", "plot_armor"):
        with pytest.raises(SequenceError, match="Blockbuster Limits"):
            refuse_blockbuster_spend(set_piece, pool)
    refuse_blockbuster_spend(set_piece, "grit")
    refuse_blockbuster_spend(declare(GOAL, D.EPIC, 2, combo(2)), "spotlight")


# --- 10.2A a Bond or Grudge traded for the whole Sequence


def test_a_trade_for_the_whole_sequence_is_one_per_star_and_lowers_only_that_stars_beats():
    """10.2A "reduces the Difficulty of all Beats that you perform in that Action Sequence by one
    step"; the Actor Limit read as one such Trade per Star and Sequence."""
    sequence = with_trade(declare(GOAL, D.HARD, 2, combo(2)), SequenceTrade(star="Mara Voss", kind="bond", name="Ilse"))
    assert sequence.trade_of("mara voss") is not None and sequence.trade_of("Tobias Quell") is None
    with pytest.raises(SequenceError, match="already traded the Bond with Ilse"):
        with_trade(sequence, SequenceTrade(star="Mara Voss", kind="grudge", name="Aubrec"))

    alone = ShowrunnerState().with_star(example_star())
    state = alone.model_copy(update={"world": begin(World(), sequence)})
    beat = CheckRequest(star="Mara", ability="fight", difficulty="HARD")
    faces = {"action": [4, 3, 1], "script": [5, 6]}
    with pytest.raises(RuleViolation, match="traded no Bond with Ilse for a running Action Sequence"):
        resolve(
            alone,
            beat.model_copy(update={"sequence_trade": SequenceTradeUse(label="Bond with Ilse")}),
            TableDice(faces),
        )
    stepped = resolve(
        state, beat.model_copy(update={"sequence_trade": SequenceTradeUse(label="Bond with Ilse")}), TableDice(faces)
    )
    assert (stepped.effective_difficulty, stepped.original_difficulty) == (D.NORMAL, D.HARD)
    mastered = SequenceTradeUse(label="Bond with Ilse", to_easy=True)
    assert (
        resolve(state, beat.model_copy(update={"sequence_trade": mastered}), TableDice(faces)).effective_difficulty
        is D.EASY
    )
    with pytest.raises(RuleViolation, match="only one Bond or Grudge is exhausted per Ability Check"):
        resolve(
            state,
            beat.model_copy(update={"sequence_trade": mastered, "trade": {"kind": "grudge", "name": "Lord Aubrec"}}),
            TableDice(faces),
        )
    assert "sequence_trade" not in beat.model_dump(mode="json")
