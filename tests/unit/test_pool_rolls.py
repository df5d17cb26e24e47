"""d10 Pool rolls against a state: checks, contests and Luck with table dice; refusals before any
die is rolled; the facts' summaries, explanations, recap lines and re-judgement; the ruleset's
wiring (inputs, actions, table dice) and the demo script."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from showrunner_ledger.domain import rulesets
from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.dice import Roll, TableDice
from showrunner_ledger.domain.errors import AlreadyExists, InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.pool.charfile import parse_character_file
from showrunner_ledger.domain.pool.events import PoolCharacterJoined, PoolCheckRolled, PoolContestRolled, PoolLuckRolled
from showrunner_ledger.domain.pool.resolve import (
    LuckRequest,
    PoolCheck,
    PoolContest,
    resolve_check,
    resolve_contest,
    resolve_luck,
)
from showrunner_ledger.domain.pool.rules import Degree
from showrunner_ledger.domain.pool.ruleset import POOL_RULESET
from showrunner_ledger.domain.pool.state import PoolState
from showrunner_ledger.domain.ruleset import RollContext

EXAMPLES = Path(__file__).resolve().parents[2] / "domain" / "pool" / "examples"


def example(name: str):
    path = EXAMPLES / name
    return parse_character_file(path.read_bytes(), path.name)


def lantern() -> PoolState:
    state = PoolState(pitch=Pitch(title="The Lantern", ruleset="pool"))
    for name in ("character-ines.toml", "character-brann.json"):
        state = PoolCharacterJoined(character=example(name)).apply(state)
    return state


class NoDice:
    """A dice source that fails the test if a refused request rolls anything."""

    source = "table"

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        raise AssertionError(f"a refused request rolled {count} {purpose} dice")


def check(**fields) -> PoolCheck:
    return PoolCheck(**{"character": "Ines", "stat": "agility", "skill": "Stealth", "dc": 7, **fields})


def contest(**fields) -> PoolContest:
    return PoolContest(
        **{
            "character": "Ines",
            "stat": "agility",
            "skill": "Stealth",
            "dc": 6,
            "defender": "the Watcher",
            "defender_pool": 5,
            **fields,
        }
    )


def rolled_check(state, request, faces, roll_number=1) -> PoolCheckRolled:
    dice = TableDice({"pool": faces})
    decided = POOL_RULESET.decide_check(state, request, RollContext.of(dice, roll_number))
    dice.check_all_used()
    (item,) = decided
    fact = item[0] if isinstance(item, tuple) else item
    assert isinstance(fact, PoolCheckRolled)
    return fact


# ----------------------------------------------------------------- checks


def test_a_check_rolls_stat_plus_trained_skill_and_counts_against_the_dc():
    r = resolve_check(lantern(), check(), TableDice({"pool": [10, 7, 3, 1, 2, 8, 9]}))
    assert r.parts.size == 7
    assert (r.counted.successes, r.counted.ones, r.counted.net) == (4, 1, 3)
    assert (r.need, r.degree, r.margin) == (1, Degree.PLENTY, 2)
    assert r.rolls == (Roll(purpose="pool", sides=10, faces=(10, 7, 3, 1, 2, 8, 9), source="table"),)


def test_an_untrained_check_rolls_the_stat_alone():
    r = resolve_check(lantern(), check(stat="social", skill="Persuasion", dc=5), TableDice({"pool": [5, 4]}))
    assert (r.parts.size, r.degree) == (2, Degree.JUST_ENOUGH)


def test_the_table_must_give_exactly_the_pools_dice():
    with pytest.raises(InvalidDice, match="needs 7 pool dice but 6 were given"):
        resolve_check(lantern(), check(), TableDice({"pool": [10, 7, 3, 1, 2, 8]}))
    dice = TableDice({"pool": [10, 7, 3, 1, 2, 8, 9, 9]})
    resolve_check(lantern(), check(), dice)
    with pytest.raises(InvalidDice, match="8 pool faces were given but the roll used 7"):
        dice.check_all_used()


def test_a_d6_habit_is_caught_a_face_over_10_is_refused():
    with pytest.raises(InvalidDice, match="pool die 11 is not a d10 face"):
        resolve_check(lantern(), check(), TableDice({"pool": [10, 7, 3, 1, 2, 8, 11]}))


def test_required_successes_and_a_critical_roll():
    faces = [9, 8, 7, 2, 2, 2, 2]  # 3 successes at DC 7
    assert resolve_check(lantern(), check(required=3), TableDice({"pool": faces})).degree is Degree.JUST_ENOUGH
    critical = resolve_check(lantern(), check(required=2, critical=True), TableDice({"pool": faces}))
    assert (critical.need, critical.degree, critical.margin) == (4, Degree.JUST_SHORT, -1)


def test_a_botch_records_a_negative_margin():
    r = resolve_check(lantern(), check(), TableDice({"pool": [1, 1, 8, 2, 3, 4, 5]}))
    assert (r.degree, r.counted.net, r.margin) == (Degree.BOTCH, -1, -2)


@pytest.mark.parametrize(
    "request_fields, error, message",
    [
        ({"dc": 2}, RuleViolation, "DC 2 is not a DC of this game"),
        ({"dc": 11}, RuleViolation, "DC 11 is not a DC of this game"),
        ({"required": 4}, RuleViolation, "requires 1 to 3 successes"),
        ({"required": 0}, RuleViolation, "requires 1 to 3 successes"),
        ({"character": "Nobody"}, UnknownName, "unknown character 'Nobody'"),
    ],
)
def test_bad_checks_are_refused_before_a_die_is_rolled(request_fields, error, message):
    with pytest.raises(error, match=message):
        resolve_check(lantern(), check(**request_fields), NoDice())


def test_a_bad_stat_is_refused_by_the_input_model():
    with pytest.raises(ValueError, match="stat"):
        PoolCheck.model_validate({"character": "Ines", "stat": "charm", "dc": 6})


def test_stats_may_be_written_in_any_case():
    assert PoolCheck.model_validate({"character": "Ines", "stat": "Agility", "dc": 6}).stat.value == "agility"


def test_a_check_records_the_last_roll_for_luck():
    state = lantern()
    fact = rolled_check(state, check(), [1, 1, 8, 2, 3, 4, 5], roll_number=3)
    after = fact.apply(state)
    last = after.last_roll("Ines Harrow")
    assert (last.roll_number, last.kind, last.failed, last.outcome) == (3, "check", True, "a botch")
    assert after.dice_rolls == 3
    assert after.characters == state.characters  # a roll changes no sheet


@given(st.lists(st.integers(1, 10), min_size=7, max_size=7), st.integers(3, 10), st.integers(1, 3), st.booleans())
def test_a_recorded_check_rejudges_to_itself(faces, dc, required, critical):
    state = lantern()
    fact = rolled_check(state, check(dc=dc, required=required, critical=critical), faces)
    assert fact.rejudge(state) is None
    r = fact.resolution
    assert r.margin == r.counted.net - r.need
    assert r.counted.successes <= r.parts.size


# ----------------------------------------------------------------- hidden rolls


def test_a_hidden_check_is_decided_as_director_only():
    dice = TableDice({"pool": [2, 2, 2, 2]})
    decided = POOL_RULESET.decide_check(
        lantern(), check(stat="perception", skill=None, hidden=True), RollContext.of(dice, 1)
    )
    assert len(decided) == 1 and isinstance(decided[0], tuple)
    fact, visibility = decided[0]
    assert visibility == "director"
    assert "hidden" in fact.summary()
    assert "a hidden roll: visible to the Director only" in fact.explain()


def test_an_open_check_is_decided_with_the_default_visibility():
    dice = TableDice({"pool": [2, 2, 2, 2]})
    (fact,) = POOL_RULESET.decide_check(lantern(), check(stat="perception", skill=None), RollContext.of(dice, 1))
    assert isinstance(fact, PoolCheckRolled) and fact.default_visibility == "public"


# ----------------------------------------------------------------- facts: summary, explain, recap, rejudge


def test_a_checks_summary_and_explanation():
    fact = rolled_check(lantern(), check(), [10, 7, 3, 1, 2, 8, 9])
    assert fact.summary() == (
        "Ines Harrow rolled Agility + Stealth (7d10) at DC 7, needing 1: plenty of successes, "
        "net 3, margin +2 (table dice)"
    )
    assert fact.explain() == [
        "Ines Harrow rolls Agility 4 + Stealth 3 = 7d10 at DC 7 (demanding)",
        "1 success required",
        "pool dice (table dice): 10, 7, 3, 1, 2, 8, 9",
        "successes (a die at 7 or more): 4 (10, 7, 8, 9)",
        "1s: 1; each cancels one success: net 4 - 1 = 3",
        "net 3 against 1 needed: margin +2, plenty of successes (it goes as well as it could)",
    ]
    assert fact.stars() == ("Ines Harrow",)


@pytest.mark.parametrize(
    "fields, faces, weight, text",
    [
        ({}, [1, 1, 8, 2, 3, 4, 5], 100, "Ines Harrow botched a demanding Agility + Stealth roll"),
        (
            {"critical": True},
            [9, 9, 9, 2, 2, 2, 2],
            100,
            "Ines Harrow pulled off a critical demanding Agility + Stealth roll spectacularly, with 1 success to spare",
        ),
        (
            {},
            [9, 9, 9, 2, 2, 2, 2],
            50,
            "Ines Harrow made a demanding Agility + Stealth roll with 2 successes to spare",
        ),
        ({}, [9, 2, 2, 2, 2, 2, 2], 10, "Ines Harrow just made a demanding Agility + Stealth roll"),
        (
            {"required": 3},
            [9, 2, 2, 2, 2, 2, 2],
            10,
            "Ines Harrow fell 2 successes short on a demanding Agility + Stealth roll",
        ),
        (
            {"critical": True},
            [9, 2, 2, 2, 2, 2, 2],
            50,
            "Ines Harrow fell 1 success short on a critical demanding Agility + Stealth roll",
        ),
        (
            {"dc": 5},
            [9, 9, 9, 2, 2, 2, 2],
            50,
            "Ines Harrow made an average Agility + Stealth roll with 2 successes to spare",
        ),
        (
            {"dc": 3},
            [9, 9, 9, 2, 2, 2, 2],
            50,
            "Ines Harrow made an easy Agility + Stealth roll with 2 successes to spare",
        ),
    ],
)
def test_recap_lines_weigh_botches_and_criticals_most(fields, faces, weight, text):
    line = rolled_check(lantern(), check(**fields), faces).recap()
    assert (line.weight, line.text) == (weight, text)


def test_a_tampered_face_is_named_by_the_rejudgement():
    state = lantern()
    fact = rolled_check(state, check(), [10, 7, 3, 1, 2, 8, 9])
    rolls = (fact.resolution.rolls[0].model_copy(update={"faces": (10, 7, 3, 2, 2, 8, 9)}),)
    tampered = fact.model_copy(update={"resolution": fact.resolution.model_copy(update={"rolls": rolls})})
    assert tampered.rejudge(state) == "the pool dice differ: recorded 10,7,3,1,2,8,9, re-judged 10,7,3,2,2,8,9"


def test_a_tampered_degree_is_named_by_the_rejudgement():
    state = lantern()
    fact = rolled_check(state, check(), [1, 1, 8, 2, 3, 4, 5])
    forged = fact.model_copy(update={"resolution": fact.resolution.model_copy(update={"degree": Degree.JUST_ENOUGH})})
    assert forged.rejudge(state) == "the degree differs: recorded just enough, re-judged a botch"


def test_a_record_with_too_many_rolls_is_named():
    state = lantern()
    fact = rolled_check(state, check(), [10, 7, 3, 1, 2, 8, 9])
    extra = fact.resolution.rolls + (Roll(purpose="pool", sides=10, faces=(5,), source="table"),)
    padded = fact.model_copy(update={"resolution": fact.resolution.model_copy(update={"rolls": extra})})
    assert padded.rejudge(state) == "the record holds 1 roll(s) the engine did not ask for"


def test_a_check_the_current_state_refuses_is_named():
    fact = rolled_check(lantern(), check(), [10, 7, 3, 1, 2, 8, 9])
    assert fact.rejudge(PoolState()).startswith(
        "the current engine refuses the recorded roll: unknown character 'Ines'"
    )


def test_a_sheet_changed_before_the_roll_is_named():
    state = lantern()
    fact = rolled_check(state, check(), [10, 7, 3, 1, 2, 8, 9])
    ines = state.member("Ines")
    weaker = ines.model_copy(update={"stats": ines.stats.model_copy(update={"agility": 3})})
    assert fact.rejudge(state.with_character(weaker)) == (
        "the current engine refuses the recorded roll: the engine asks for 6 pool d10 but the record has 7 pool d10"
    )


def test_dice_colours_group_by_purpose():
    fact = rolled_check(lantern(), check(), [10, 7, 3, 1, 2, 8, 9])
    assert [fact.dice_colour(p) for p in ("pool", "defender_dice", "luck", "odd")] == [
        "pool",
        "defender",
        "luck",
        "other",
    ]
    assert fact.recorded_rolls() == fact.resolution.rolls


# ----------------------------------------------------------------- contests


def test_a_contest_against_someone_the_director_plays():
    r = resolve_contest(
        lantern(), contest(), TableDice({"pool": [9, 9, 6, 2, 2, 2, 1], "defender_dice": [7, 6, 2, 2, 2]})
    )
    assert (r.attacker_counted.kept, r.defender_counted.kept, r.winner, r.margin) == (2, 2, "defender", 0)
    assert r.winner_name == "the Watcher"
    assert [roll.purpose for roll in r.rolls] == ["pool", "defender_dice"]


def test_a_contest_against_a_character_reads_their_sheet():
    r = resolve_contest(
        lantern(),
        PoolContest(
            character="Brann",
            stat="power",
            skill="Brawling",
            dc=6,
            defender="Ines",
            defender_stat="agility",
            defender_skill="Athletics",
        ),
        TableDice({"pool": [9, 7, 1, 6, 3, 2, 8, 10, 4], "defender_dice": [6, 6, 7, 2, 1, 9]}),
    )
    assert (r.attacker.size, r.defender.size, r.defender_name) == (9, 6, "Ines Harrow")
    assert (r.attacker_counted.kept, r.defender_counted.kept, r.winner, r.margin) == (4, 3, "attacker", 1)


def test_a_character_defender_rolls_the_attackers_stat_by_default():
    r = resolve_contest(
        lantern(),
        PoolContest(character="Ines", stat="will", dc=6, defender="Brann"),
        TableDice({"pool": [2, 2, 2], "defender_dice": [2, 2, 2, 2]}),
    )
    assert (r.defender.stat.value, r.defender.size) == ("will", 4)


def test_each_side_may_roll_against_its_own_dc():
    r = resolve_contest(
        lantern(), contest(defender_dc=9), TableDice({"pool": [6, 2, 2, 2, 2, 2, 2], "defender_dice": [8, 8, 8, 8, 8]})
    )
    assert (r.attacker_counted.kept, r.defender_counted.kept, r.winner) == (1, 0, "attacker")


def test_a_contest_records_both_sides_last_rolls():
    state = lantern()
    r = resolve_contest(
        state,
        PoolContest(character="Brann", stat="power", dc=6, defender="Ines"),
        TableDice({"pool": [9, 9, 9, 2, 2], "defender_dice": [2, 2, 2, 2]}),
    )
    after = PoolContestRolled(resolution=r, roll_number=4).apply(state)
    assert after.last_roll("Brann").failed is False and after.last_roll("Ines").failed is True
    assert after.last_roll("Ines").outcome == "lost the contest"


@pytest.mark.parametrize(
    "fields, error, message",
    [
        ({"dc": 11}, RuleViolation, "DC 11 is not a DC"),
        ({"defender_dc": 2}, RuleViolation, "defender DC 2 is not a DC"),
        (
            {"defender_pool": None},
            RuleViolation,
            "'the Watcher' is not a character of this campaign .*--defender-pool N",
        ),
        ({"defender_pool": 0}, RuleViolation, "--defender-pool must be 1 to 20 dice"),
        ({"defender_pool": 21}, RuleViolation, "--defender-pool must be 1 to 20 dice"),
        ({"defender_stat": "will"}, RuleViolation, "has no sheet to read --defender-stat"),
        (
            {"defender": "Brann", "defender_pool": 3},
            RuleViolation,
            "Brann Okafor is a character: .*leave out --defender-pool",
        ),
        ({"defender": "Ines", "defender_pool": None}, RuleViolation, "cannot contest against themself"),
        ({"defender": " ", "defender_pool": None}, RuleViolation, "a contest needs a defender"),
        ({"character": "Nobody"}, UnknownName, "unknown character 'Nobody'"),
    ],
)
def test_bad_contests_are_refused_before_a_die_is_rolled(fields, error, message):
    with pytest.raises(error, match=message):
        resolve_contest(lantern(), contest(**fields), NoDice())


def test_an_ambiguous_defender_is_refused():
    state = lantern().with_character(example("character-ines.toml").model_copy(update={"name": "Brannagh"}))
    with pytest.raises(UnknownName, match="defender 'Bran' could be"):
        resolve_contest(state, contest(defender="Bran", defender_pool=None), NoDice())


def test_contest_facts_tell_the_winner_and_rejudge():
    state = lantern()
    dice = TableDice({"pool": [9, 9, 6, 2, 2, 2, 1], "defender_dice": [7, 6, 2, 2, 2]})
    (fact,) = POOL_RULESET.actions["contest"].decide(state, contest(), RollContext.of(dice, 2))
    assert isinstance(fact, PoolContestRolled)
    assert fact.summary() == (
        "Ines Harrow contested the Watcher (Agility + Stealth 7d10 against 5d10): the Watcher won, "
        "2 to 2, a tie to the defender (table dice)"
    )
    assert "a tie: ties go to the defender, so the Watcher wins" in fact.explain()
    assert fact.recap().text == (
        "The Watcher held off Ines Harrow in a contest of Agility + Stealth: a tie at 2, and ties go to the defender"
    )
    assert fact.stars() == ("Ines Harrow",)
    assert fact.rejudge(state) is None
    swapped = fact.resolution.rolls[1].model_copy(update={"faces": (7, 6, 2, 2, 1)})
    tampered = fact.model_copy(
        update={"resolution": fact.resolution.model_copy(update={"rolls": (fact.resolution.rolls[0], swapped)})}
    )
    assert tampered.rejudge(state) == "the defender's dice differ: recorded 7,6,2,2,2, re-judged 7,6,2,2,1"


def test_a_botch_in_a_contest_is_a_heavy_recap_line():
    dice = TableDice({"pool": [9, 9, 9, 2, 2, 2, 2], "defender_dice": [1, 2, 2, 2, 2]})
    (fact,) = POOL_RULESET.actions["contest"].decide(lantern(), contest(), RollContext.of(dice, 2))
    line = fact.recap()
    assert (line.weight, line.kind) == (100, "botch")
    assert (
        line.text
        == "Ines Harrow beat the Watcher in a contest of Agility + Stealth, 3 successes to 0; the Watcher botched"
    )
    assert fact.summary().endswith("Ines Harrow won, 3 to 0, the Watcher botched (table dice)")


def test_a_hidden_contest_is_director_only():
    dice = TableDice({"pool": [2] * 7, "defender_dice": [2] * 5})
    ((fact, visibility),) = POOL_RULESET.actions["contest"].decide(
        lantern(), contest(hidden=True), RollContext.of(dice, 2)
    )
    assert visibility == "director"


# ----------------------------------------------------------------- Luck


def luck(state, faces, **fields):
    request = LuckRequest(**{"character": "Brann", **fields})
    decided = POOL_RULESET.actions["luck"].decide(state, request, RollContext.of(TableDice({"luck": faces}), 9))
    (item,) = decided
    return item


def failed_brann() -> PoolState:
    """Brann botched an Intimidation roll (Social 3 + Intimidation 3 at DC 7)."""
    state = lantern()
    fact = rolled_check(
        state,
        PoolCheck(character="Brann", stat="social", skill="Intimidation", dc=7),
        [1, 4, 8, 2, 1, 3],
        roll_number=2,
    )
    assert fact.resolution.degree is Degree.BOTCH
    return fact.apply(state)


def test_a_coin_flip_is_lucky_at_or_under_luck():
    lucky = luck(lantern(), [4], question="a cab passes")
    unlucky = luck(lantern(), [5])
    assert isinstance(lucky, PoolLuckRolled)
    assert (lucky.resolution.lucky, unlucky.resolution.lucky) == (True, False)  # Brann's Luck is 4
    assert lucky.summary() == (
        "Brann Okafor rolled Luck 4 (a cab passes): 4, a lucky break: the coincidence falls their way (table dice)"
    )
    assert lucky.recap().text == "Luck favoured Brann Okafor (a cab passes)"
    assert unlucky.recap().text == "Luck passed Brann Okafor by"


def test_a_coin_flip_changes_nothing_but_the_roll_count():
    state = lantern()
    fact = luck(state, [1])
    assert fact.apply(state) == state.model_copy(update={"dice_rolls": 9})


def test_luck_after_a_failure_makes_a_fortunate_mistake_that_is_still_a_failure():
    state = failed_brann()
    fact = luck(state, [2], after_failure=True)
    assert fact.resolution.meaning == "a fortunate mistake: the failure (a botch) stands, but it falls kindly"
    assert fact.explain()[:2] == [
        "Brann Okafor rolls Luck: one d10, lucky at 4 or under",
        "after a failure: Brann Okafor's last check (roll 2 of the branch), a botch",
    ]
    after = fact.apply(state).last_roll("Brann")
    assert (after.failed, after.outcome, after.fortunate_mistake, after.luck_rolled) == (True, "a botch", True, True)
    assert fact.recap().weight == 50
    assert fact.rejudge(state) is None


def test_unlucky_after_a_failure_leaves_it_as_it_fell():
    state = failed_brann()
    fact = luck(state, [9], after_failure=True)
    assert fact.resolution.meaning == "no luck: the failure (a botch) stands as it fell"
    assert fact.apply(state).last_roll("Brann").fortunate_mistake is False


@given(st.integers(1, 10), st.integers(0, 10))
def test_luck_never_turns_a_failure_into_a_success(face, luck_value):
    state = failed_brann()
    brann = state.member("Brann").model_copy(update={"luck": luck_value})
    state = state.with_character(brann)
    fact = luck(state, [face], after_failure=True)
    after = fact.apply(state)
    assert after.last_roll("Brann").failed is True
    assert after.last_roll("Brann").outcome == state.last_roll("Brann").outcome
    assert "success" not in fact.resolution.meaning.replace("never turns a failure into a success", "")
    assert fact.resolution.lucky == (face <= luck_value)


def test_luck_after_a_success_is_refused():
    state = lantern()
    fact = rolled_check(
        state, PoolCheck(character="Brann", stat="power", skill="Brawling", dc=6), [9, 9, 2, 2, 2, 2, 2, 2, 2]
    )
    with pytest.raises(RuleViolation, match=r"last roll \(plenty of successes\) did not fail: Luck never turns"):
        resolve_luck(fact.apply(state), LuckRequest(character="Brann", after_failure=True), NoDice())


def test_luck_after_a_failure_needs_a_roll_to_follow():
    with pytest.raises(RuleViolation, match="has no check or contest on this branch"):
        resolve_luck(lantern(), LuckRequest(character="Brann", after_failure=True), NoDice())


def test_luck_is_rolled_once_after_a_failure():
    state = failed_brann()
    state = luck(state, [2], after_failure=True).apply(state)
    with pytest.raises(RuleViolation, match="already rolled after Brann Okafor's last failure"):
        resolve_luck(state, LuckRequest(character="Brann", after_failure=True), NoDice())


def test_luck_after_a_hidden_failure_is_hidden_too():
    state = lantern()
    fact = rolled_check(state, PoolCheck(character="Brann", stat="will", dc=9, hidden=True), [2, 2, 2, 2])
    state = fact.apply(state)
    item = luck(state, [1], after_failure=True)
    assert isinstance(item, tuple) and item[1] == "director"


def test_a_hidden_success_is_not_told_by_a_luck_refusal():
    state = lantern()
    fact = rolled_check(state, PoolCheck(character="Brann", stat="power", dc=3, hidden=True), [9, 9, 9, 9, 9])
    with pytest.raises(RuleViolation) as refused:
        resolve_luck(fact.apply(state), LuckRequest(character="Brann", after_failure=True), NoDice())
    assert "plenty" not in str(refused.value) and "succe" not in str(refused.value)


def test_a_luck_roll_needs_exactly_one_die():
    with pytest.raises(InvalidDice, match="needs 1 luck die but 0 were given"):
        resolve_luck(lantern(), LuckRequest(character="Brann"), TableDice({"luck": []}))


# ----------------------------------------------------------------- the ruleset's wiring


CLI_TYPES = (str, int, bool)


def _fields(model: type[BaseModel]) -> dict:
    return model.model_fields


def test_every_input_field_is_described_and_cli_friendly():
    from enum import Enum
    from typing import get_args

    for model in (POOL_RULESET.check_input, *(a.input for a in POOL_RULESET.actions.values())):
        assert "character" in _fields(model)
        for name, field in _fields(model).items():
            assert field.description, f"{model.__name__}.{name} has no description"
            kinds = [t for t in (get_args(field.annotation) or (field.annotation,)) if t is not type(None)]
            assert all(k in CLI_TYPES or (isinstance(k, type) and issubclass(k, Enum)) for k in kinds), (model, name)


def test_table_dice_options_do_not_collide_with_input_fields():
    checks = [(POOL_RULESET.check_input, POOL_RULESET.table_dice)]
    checks += [(a.input, a.table_dice) for a in POOL_RULESET.actions.values()]
    for model, purposes in checks:
        assert purposes and not set(purposes) & set(_fields(model))


def test_actions_roll_and_end_their_help_with_an_example():
    assert set(POOL_RULESET.actions) == {"contest", "luck"}
    for name, action in POOL_RULESET.actions.items():
        assert action.rolls
        assert action.help.splitlines()[-1].startswith(f"Example: showrunner pool {name} ")


def test_the_ruleset_names_its_parts():
    assert (POOL_RULESET.name, POOL_RULESET.package) == ("pool", "showrunner_ledger.domain.pool")
    assert POOL_RULESET.new_state().roster() == {}
    joined = POOL_RULESET.joined(example("character-ines.toml"))
    assert joined.topic == "pool/CharacterJoined" and joined.stars() == ("Ines Harrow",)
    assert {PoolCheckRolled.topic, PoolContestRolled.topic, PoolLuckRolled.topic} == {
        "pool/CheckRolled",
        "pool/ContestRolled",
        "pool/LuckRolled",
    }
    assert rulesets.ruleset("pool") is POOL_RULESET


def test_a_second_join_of_the_same_name_is_refused():
    with pytest.raises(AlreadyExists, match="already in this campaign"):
        lantern().check_character_is_new("ines harrow")


# ----------------------------------------------------------------- the demo script


def demo_lines() -> list[list[str]]:
    text = (EXAMPLES / "demo.txt").read_text(encoding="utf-8")
    return [shlex.split(line) for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def parse_options(model: type[BaseModel], purposes, argv: list[str]) -> tuple[dict, dict]:
    """A command line's options as the CLI builds them: one per field, `--<purpose>` for faces."""
    fields = _fields(model)
    request: dict = {"character": argv[0]}
    faces: dict = {}
    args = argv[1:]
    while args:
        option = args.pop(0)
        assert option.startswith("--"), option
        name = option[2:].replace("-", "_")
        if name in purposes:
            faces[name] = [int(f) for f in args.pop(0).split(",")]
        elif name in fields and fields[name].annotation is bool:
            request[name] = True
        elif name.startswith("no_") and name[3:] in fields:
            request[name[3:]] = False
        else:
            assert name in fields, f"no option {option}"
            request[name] = args.pop(0)
    return request, faces


def test_the_demo_follows_the_briefs_outline():
    lines = demo_lines()
    assert lines[0][:2] == ["campaign", "new"] and lines[0][lines[0].index("--ruleset") + 1] == "pool"
    heads = [" ".join(line[:2]) for line in lines]
    for wanted in (
        "star add",
        "episode start",
        "sheet Ines",
        "branch create",
        "branch diff",
        "branch use",
        "seed reveal",
        "audit --all",
        "recap --since",
        "pool contest",
        "pool luck",
    ):
        assert wanted in heads, wanted
    assert lines[-1] == ["verify"]
    for line in lines:
        if line[:2] == ["star", "add"]:
            path = Path(line[3].replace("{examples}", str(EXAMPLES)))
            assert path.is_file()


def test_every_demo_roll_is_a_valid_request():
    for line in demo_lines():
        if line[0] == "check":
            request, faces = parse_options(POOL_RULESET.check_input, POOL_RULESET.table_dice, line[1:])
            POOL_RULESET.check_input.model_validate(request)
            assert set(faces) <= set(POOL_RULESET.table_dice)
        elif line[0] == "pool":
            action = POOL_RULESET.actions[line[1]]
            request, faces = parse_options(action.input, action.table_dice, line[2:])
            action.input.model_validate(request)


def test_the_situation_is_the_dc_and_the_successes_required_not_extra_dice():
    # "stat + skill + the situation": the situation sets the DC and the successes required;
    # a check has no bonus or penalty dice, so the pool is only ever stat + trained skill.
    assert set(PoolCheck.model_fields) == {"character", "stat", "skill", "dc", "required", "critical", "hidden"}
    r = resolve_check(lantern(), check(dc=3, required=3), TableDice({"pool": [3] * 7}))
    assert r.parts.size == 7 and r.degree is Degree.PLENTY
