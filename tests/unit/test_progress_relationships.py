"""Bonds and Grudges (domain/showrunner/relationships.py).

Rules: 10.1 (the eight Tiers), 10.2A (the Trade: Matching, Difficulty Limit, Actor Limit,
Action Sequences), 10.2B (Exhausting, Advancing), 10.2C-E (complex relationships, adding and
resolving), Chapter 11 (Acclaim from relationships), 11.2 Relationship Mastery, Appendix D 9.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner import relationships as rel
from showrunner_ledger.domain.showrunner.check import Outcome
from showrunner_ledger.domain.showrunner.ladder import Difficulty
from showrunner_ledger.domain.showrunner.sheet import AbilityName, CareerPath, StarSheet
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.structure import Structure

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
N, H, F, E = Difficulty.NORMAL, Difficulty.HARD, Difficulty.FORMIDABLE, Difficulty.EPIC


def star(**fields) -> StarSheet:
    influence = {p: {"current": 1, "max": 2} for p in POOLS}
    return StarSheet.model_validate({"name": "Ada", "influence": influence} | fields)


def ended(sheet: StarSheet, episode: int = 2) -> ShowrunnerState:
    return ShowrunnerState(structure=Structure(episode=episode, episode_open=False)).with_star(sheet)


def test_the_eight_tiers_and_their_names():
    """10.1: N Interest/Aversion … E Friend/Rival … G Soul-bound/Arch-Nemesis."""
    assert len(rel.TIER_NAMES) == 8
    assert rel.tier_name("bond", E) == "Friend" and rel.tier_name("grudge", E) == "Rival"
    assert rel.tier_name("grudge", Difficulty.GODLIKE) == "Arch-Nemesis"


def test_a_trade_rolls_one_step_lower_and_marks_the_matching_tier():
    """10.2A The Trade: "roll as though it were one Difficulty lower"; 10.2B "mark the checkbox (◇)
    for the matching Difficulty"."""
    sheet = star(bonds=[{"with": "Ilse", "tier": "H"}])
    traded = rel.trade(sheet, "bond", "ilse", H, "aid")
    assert (traded.original, traded.effective) == (H, N)
    assert traded.sheet.bonds[0].exhausted == {H}


def test_a_hard_bond_reduces_one_normal_and_one_hard_but_not_a_formidable_task():
    """10.2A Difficulty Limit: "if your Bond or Grudge is at HARD you can reduce one NORMAL and one
    HARD, but you cannot reduce a FORMIDABLE task"."""
    sheet = star(bonds=[{"with": "Ilse", "tier": "H"}, {"with": "Pell"}], grudges=[{"with": "Aubrec", "tier": "H"}])
    with pytest.raises(RuleViolation, match="at H \\(HARD\\): it cannot reduce a FORMIDABLE check"):
        rel.trade(sheet, "bond", "Ilse", F, "aid")
    sheet = rel.trade(sheet, "bond", "Ilse", N, "aid").sheet
    sheet = rel.trade(sheet, "bond", "Ilse", H, "aid", acclaim_path=CareerPath.TALENT).sheet
    assert sheet.bonds[0].tier is F  # both ◇ marked: it Advanced


def test_a_trade_at_a_tier_already_exhausted_is_refused():
    """10.2B: "You cannot use or spend that specific Difficulty again … until it Advances"."""
    sheet = star(grudges=[{"with": "Aubrec", "tier": "F", "exhausted": ["H"]}])
    with pytest.raises(RuleViolation, match="has its H ◇ exhausted already"):
        rel.trade(sheet, "grudge", "Aubrec", H, "harm")


def test_a_bond_aids_and_a_grudge_harms():
    """10.2A: a Bond to Aid, protect or support; a Grudge to Harm, compete against or counter."""
    sheet = star(bonds=[{"with": "Ilse"}], grudges=[{"with": "Aubrec"}])
    with pytest.raises(RuleViolation, match="not to harm"):
        rel.trade(sheet, "bond", "Ilse", N, "harm")
    with pytest.raises(RuleViolation, match="not to aid"):
        rel.trade(sheet, "grudge", "Aubrec", N, "aid")
    with pytest.raises(UnknownName, match="no Bond with 'Aubrec'"):
        rel.trade(sheet, "bond", "Aubrec", N, "aid")


def test_advancing_clears_the_boxes_traces_the_next_tier_and_marks_one_acclaim():
    """10.2B Advancing: "clear them, gain 1 Acclaim, and trace the next Tier"; Chapter 11's
    relationship Acclaim is that same Acclaim."""
    sheet = star(bonds=[{"with": "Ilse", "tier": "H", "exhausted": ["N"]}])
    with pytest.raises(RuleViolation, match="name the Career Path for its 1 Acclaim"):
        rel.trade(sheet, "bond", "Ilse", H, "aid")
    traded = rel.trade(sheet, "bond", "Ilse", H, "aid", acclaim_path=CareerPath.DESTINY)
    assert traded.advanced_to is F
    assert traded.sheet.bonds[0].exhausted == frozenset() and traded.sheet.acclaim[CareerPath.DESTINY] == 1
    with pytest.raises(RuleViolation, match="does not complete"):
        rel.trade(
            star(bonds=[{"with": "Ilse", "tier": "H"}]), "bond", "Ilse", H, "aid", acclaim_path=CareerPath.DESTINY
        )


def test_a_godlike_relationship_advances_in_place():
    sheet = star(grudges=[{"with": "X", "tier": "G", "exhausted": ["N", "H", "F", "E", "L", "M", "A"]}])
    traded = rel.trade(sheet, "grudge", "X", Difficulty.GODLIKE, "harm", acclaim_path=CareerPath.TRAINING)
    assert traded.advanced_to is Difficulty.GODLIKE and traded.sheet.grudges[0].exhausted == frozenset()


def test_relationship_mastery_drops_the_check_to_easy():
    """11.2 Relationship Mastery: "you reduce the Difficulty of a check to EASY"."""
    sheet = star(masteries=["relationship"], bonds=[{"with": "Ilse", "tier": "E"}])
    traded = rel.trade(sheet, "bond", "Ilse", E, "aid")
    assert traded.effective is Difficulty.EASY and traded.to_easy


def test_one_bond_or_grudge_per_check():
    """10.2A Actor Limit: "You may only Exhaust one Bond or Grudge per Ability Check"."""
    rel.one_trade_per_check(["a"])
    with pytest.raises(RuleViolation, match="only one Bond or Grudge"):
        rel.one_trade_per_check(["a", "b"])


def test_an_action_sequence_trade_lowers_every_beat():
    """10.2A Action Sequences: a Trade matching the ultimate Difficulty lowers all Beats one step;
    with Relationship Mastery all Beats become EASY."""
    sheet = star(bonds=[{"with": "Ilse", "tier": "L"}])
    traded = rel.trade(sheet, "bond", "Ilse", Difficulty.LEGENDARY, "aid")
    assert rel.sequence_beats([H, H, Difficulty.LEGENDARY], traded) == [N, N, E]
    mastered = rel.trade(
        sheet.model_copy(update={"masteries": frozenset({"relationship"})}), "bond", "Ilse", Difficulty.LEGENDARY, "aid"
    )
    assert rel.sequence_beats([H, F], mastered) == [Difficulty.EASY, Difficulty.EASY]


def test_heartless_boxes_fill_first_and_slow_a_bond():
    """Appendix D 9 Heartless: "an extra empty XP to the front of all your Bond tracks"."""
    sheet = star(bond_extra_boxes=1, bonds=[{"with": "Ilse"}], grudges=[{"with": "X"}])
    first = rel.trade(sheet, "bond", "Ilse", N, "aid")
    assert first.front_box and first.sheet.bonds[0].exhausted == frozenset() and first.advanced_to is None
    second = rel.trade(first.sheet, "bond", "Ilse", N, "aid", acclaim_path=CareerPath.TALENT)
    assert second.advanced_to is H
    assert rel.trade(sheet, "grudge", "X", N, "harm", acclaim_path=CareerPath.TALENT).advanced_to is H


def test_a_bond_and_a_grudge_with_the_same_actor_stand_apart():
    """10.2C Complex Relationships: both "function normally and separately"."""
    state = ended(star(bonds=[{"with": "Ilse"}]))
    state = rel.add_relationship(state, "Ada", "grudge", "Ilse")
    sheet = state.star("Ada")
    assert [r.with_ for r in sheet.bonds] == [r.with_ for r in sheet.grudges] == ["Ilse"]
    sheet = rel.trade(sheet, "bond", "Ilse", N, "aid", acclaim_path=CareerPath.TRAINING).sheet
    assert sheet.grudges[0].tier is N


def test_one_new_relationship_at_the_end_of_each_episode_at_n():
    """10.2D: "At the end of an Episode, you may add one new Bond OR one new Grudge … start at N"."""
    with pytest.raises(RuleViolation, match="end the Episode first"):
        rel.add_relationship(
            ended(star()).model_copy(update={"structure": Structure(episode=2, episode_open=True)}),
            "Ada",
            "bond",
            "Ilse",
        )
    state = rel.add_relationship(ended(star()), "Ada", "bond", "Ilse")
    assert state.star("Ada").bonds[0].tier is N
    with pytest.raises(RuleViolation, match="already added a Bond or Grudge at the end of Episode 2"):
        rel.add_relationship(state, "Ada", "grudge", "Aubrec")
    later = state.model_copy(update={"structure": Structure(episode=3)})
    with pytest.raises(RuleViolation, match="already has a Bond with Ilse"):
        rel.add_relationship(later, "Ada", "bond", "ilse")


def test_resolving_is_a_think_check_at_the_tier_against_the_exhausted_tiers():
    """10.2E: "a Think check with a Difficulty equal to the Relationship's highest Tier"; "Opposition
    Dice … equal to the number of Tiers currently Exhausted"."""
    state = ended(star(grudges=[{"with": "Aubrec", "tier": "F", "exhausted": ["N", "H"]}]))
    request = rel.resolve_request(state, "Ada", "grudge", "Aubrec")
    assert (request.ability, request.difficulty, request.opposition) == (AbilityName.THINK, F, 2)


def test_forgetting_you_lowers_the_difficulty_per_episode_since_written_off():
    """10.2E Forgetting You: 1 step if written off, plus 1 per Episode since."""
    assert rel.forgotten_difficulty(E, 0) is F
    assert rel.forgotten_difficulty(E, 2) is N
    assert rel.forgotten_difficulty(H, 5) is N
    assert rel.forgotten_difficulty(E, None) is E


def test_a_relationship_above_epic_cannot_be_resolved_by_one_check():
    state = ended(star(bonds=[{"with": "Ilse", "tier": "L"}]))
    with pytest.raises(RuleViolation, match="above EPIC cannot be rolled"):
        rel.resolve_request(state, "Ada", "bond", "Ilse")
    assert rel.resolve_request(state, "Ada", "bond", "Ilse", episodes_since_written_off=0).difficulty is E


def test_the_five_results_of_resolving():
    """10.2E: Highlight Shifted Focus, Success Clear Headed, Partial Indecisive, Failure Stuck,
    Disaster Renewed Focus."""
    base = star(bonds=[{"with": "Ilse", "tier": "H", "exhausted": ["N"]}], grudges=[{"with": "Aubrec", "tier": "F"}])
    state = ended(base)
    shifted = rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.HIGHLIGHT, new_with="Mira").state.star(
        "Ada"
    )
    assert (shifted.bonds[0].with_, shifted.bonds[0].tier, shifted.bonds[0].exhausted) == ("Mira", H, frozenset())
    assert rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.SUCCESS).state.star("Ada").bonds == []
    lowered = rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.PARTIAL).state.star("Ada")
    assert lowered.bonds[0].tier is N and lowered.bonds[0].exhausted == {N}
    kept = rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.FAILURE)
    assert kept.result == "kept" and kept.state.star("Ada").bonds == base.bonds
    renewed = rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.DISASTER, other=("grudge", "Aubrec"))
    assert renewed.state.star("Ada").grudges[0].tier is H and renewed.state.star("Ada").bonds == base.bonds


def test_a_partial_on_a_normal_relationship_removes_it():
    state = ended(star(bonds=[{"with": "Pell"}]))
    assert rel.resolve_relationship(state, "Ada", "bond", "Pell", Outcome.PARTIAL).state.star("Ada").bonds == []


def test_resolving_refuses_missing_or_misplaced_choices_and_a_second_try():
    state = ended(star(bonds=[{"with": "Ilse"}, {"with": "Pell"}]))
    with pytest.raises(RuleViolation, match="name the new Star or Actor"):
        rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.HIGHLIGHT)
    with pytest.raises(RuleViolation, match="already has a Bond with Pell"):
        rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.HIGHLIGHT, new_with="Pell")
    with pytest.raises(RuleViolation, match="name it \\(other\\)"):
        rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.DISASTER)
    with pytest.raises(RuleViolation, match="a different Bond or Grudge, not"):
        rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.DISASTER, other=("bond", "Ilse"))
    with pytest.raises(RuleViolation, match="only a Disaster"):
        rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.SUCCESS, other=("bond", "Pell"))
    done = rel.resolve_relationship(state, "Ada", "bond", "Ilse", Outcome.FAILURE).state
    with pytest.raises(RuleViolation, match="one per Episode"):
        rel.resolve_request(done, "Ada", "bond", "Pell")
    lonely = ended(star(bonds=[{"with": "Ilse"}]))
    assert rel.resolve_relationship(lonely, "Ada", "bond", "Ilse", Outcome.DISASTER).result == "nothing"


@given(st.lists(st.sampled_from(list(Difficulty)[1:]), max_size=40))
def test_trades_keep_the_marks_within_the_tier_and_pay_one_acclaim_per_advance(checks):
    """Invariant: exhausted ◇ are always Tiers the relationship has; refused Trades change nothing;
    every Advance marks exactly 1 Acclaim."""
    sheet = star(bonds=[{"with": "Ilse"}])
    advances = 0
    for difficulty in checks:
        bond = sheet.bonds[0]
        completes = (
            difficulty.rank <= bond.tier.rank
            and difficulty not in bond.exhausted
            and len(bond.exhausted) + 1 == len(rel.tiers(bond))
        )
        path = CareerPath((["training", "persistence", "talent", "destiny"])[advances % 4]) if completes else None
        if (
            path is not None
            and sheet.acclaim.get(path, 0) >= {"training": 3, "persistence": 4, "talent": 5, "destiny": 6}[path.value]
        ):
            continue
        try:
            traded = rel.trade(sheet, "bond", "Ilse", difficulty, "aid", acclaim_path=path)
        except RuleViolation:
            continue
        sheet = traded.sheet
        advances += traded.advanced_to is not None
        assert sheet.bonds[0].exhausted <= set(rel.tiers(sheet.bonds[0]))
    assert sum(sheet.acclaim.values()) == advances
