"""The Advance (2.2 Special Note): the next milestone of a track, bypassing the XP triangles,
for Abilities, Hero Props, Bonds and Grudges, in Casting and in play (`showrunner advance`)."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.advance import (
    advance_ability,
    advance_career,
    advance_hero_prop,
    advance_relationship,
)
from showrunner_ledger.domain.showrunner.casting import new_sheet
from showrunner_ledger.domain.showrunner.casting_events import Advanced
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.progression import ABILITY_TRACK, ability_position
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.sheet import CareerPath, HeroProp, Relationship
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from tests.conftest import example_star


def test_an_ability_advance_jumps_to_the_next_milestone_and_keeps_the_xp_marked():
    sheet = new_sheet("Ada", None, None)
    sheet = sheet.model_copy(
        update={"abilities": {**sheet.abilities, A.FIGHT: sheet.abilities[A.FIGHT].model_copy(update={"xp": 1})}}
    )
    marks = []
    for _ in range(4):
        sheet, mark = advance_ability(sheet, A.FIGHT)
        marks.append(mark)
    fight = sheet.abilities[A.FIGHT]
    assert marks == ["○", "1", "○", "★"]
    assert (fight.base_dice, fight.stars, fight.advances, fight.xp) == (1, 1, 4, 1)


def test_a_complete_track_cannot_advance():
    sheet = new_sheet("Ada", None, None)
    for _ in ABILITY_TRACK:
        sheet, _ = advance_ability(sheet, A.TALK)
    assert sheet.abilities[A.TALK].base_dice == 3
    with pytest.raises(RuleViolation, match="Talk track is complete"):
        advance_ability(sheet, A.TALK)


def test_channels_dot_traces_a_limit_box():
    sheet, mark = advance_ability(new_sheet("Ada", None, None), A.CHANNEL)
    assert (mark, sheet.limit.max) == ("○", 1)


def test_a_hero_prop_advance_unlocks_its_next_milestone():
    sheet = new_sheet("Ada", None, None).model_copy(update={"hero_props": [HeroProp(name="Bow", powers=["Sings"])]})
    sheet, mark = advance_hero_prop(sheet, "bow")
    assert (mark, sheet.hero_props[0].milestones, sheet.hero_props[0].wear_capacity) == ("⛉", 1, 2)


def test_a_relationship_advance_clears_exhausted_uses_in_play_but_not_in_casting():
    held = Relationship(with_="Ilse", tier=D.HARD, exhausted=frozenset({D.NORMAL}))
    sheet = new_sheet("Ada", None, None).model_copy(update={"bonds": [held]})
    played, tier, path = advance_relationship(sheet, "bond", "ilse", casting=False)
    assert (tier, played.bonds[0].exhausted, path) == (D.FORMIDABLE, frozenset(), CareerPath.TRAINING)
    cast, _, _ = advance_relationship(sheet, "bond", "Ilse", casting=True)
    assert cast.bonds[0].exhausted == frozenset({D.NORMAL})
    new, tier, _ = advance_relationship(sheet, "grudge", "Kell", casting=True)
    assert [(g.with_, g.tier) for g in new.grudges] == [("Kell", D.NORMAL)]


def test_the_acclaim_of_a_relationship_advance_goes_to_the_next_path_with_room():
    sheet = new_sheet("Ada", None, None).model_copy(update={"acclaim": {CareerPath.TRAINING: 3}})
    sheet, _, path = advance_relationship(sheet, "bond", "Ilse", casting=True)
    assert path is CareerPath.PERSISTENCE
    full = sheet.model_copy(
        update={
            "acclaim": {CareerPath.TRAINING: 3, CareerPath.PERSISTENCE: 4, CareerPath.TALENT: 5, CareerPath.DESTINY: 6}
        }
    )
    _, _, none = advance_relationship(full, "bond", "Ilse", casting=True)
    assert none is None


def test_a_godlike_relationship_cannot_advance():
    sheet = new_sheet("Ada", None, None).model_copy(update={"bonds": [Relationship(with_="Ilse", tier=D.GODLIKE)]})
    with pytest.raises(RuleViolation, match="top Tier"):
        advance_relationship(sheet, "bond", "Ilse", casting=False)


def test_a_career_advance_raises_the_paths_pool_and_counts_a_minor_milestone():
    sheet, major = advance_career(new_sheet("Ada", None, None), CareerPath.DESTINY)
    assert (sheet.influence.plot_armor.max, sheet.career[CareerPath.DESTINY].minor, major) == (3, 1, False)


def test_the_advance_command_records_advanced_in_play():
    state = ShowrunnerState().with_star(example_star())
    action = COMMANDS["advance"]
    (fact,) = action.decide(state, action.input.model_validate({"star": "mara", "ability": "fight"}), None)
    assert isinstance(fact, Advanced) and fact.star == "Mara Voss"
    before = ability_position(state.star("Mara").abilities[A.FIGHT])
    after = fact.apply(state)
    assert ability_position(after.star("Mara").abilities[A.FIGHT]) == before + 1
    assert fact.lines == (f"Fight reached {ABILITY_TRACK[before][0]}",)
    with pytest.raises(RuleViolation, match="one Ability, one Hero Prop, one Bond or one Grudge"):
        action.decide(state, action.input.model_validate({"star": "mara"}), None)
