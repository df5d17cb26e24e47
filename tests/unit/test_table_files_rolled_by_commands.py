"""Table files the commands read: the Random Archetype table (two Abilities → text) for an
Actor and for Wardrobe, Appendix A's d10 tables, and the Anomalies and Event d100s taking the
rows of a loaded table; without a table, as before."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.casting import casting_of
from showrunner_ledger.domain.showrunner.effects import LimitMarked
from showrunner_ledger.domain.showrunner.sheet import AbilityName
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.table_files import (
    ABILITY_PAIRS,
    InvalidTableFile,
    TableFile,
    TableName,
    parse_table_file,
)
from showrunner_ledger.domain.showrunner.world_events import ActorCreated
from showrunner_ledger.domain.showrunner.writers_room import generate
from tests.unit.test_casting import ADA, decide, finished, started
from tests.unit.test_check_rewards import CHANNELER, NAME, check
from tests.unit.test_check_rewards import cast as cast_channeler
from tests.unit.test_consequences import TOBIAS, suffer
from tests.unit.test_consequences import cast as cast_stars
from tests.unit.test_world_writers_room import cast_world, table


def archetype_file(skip: tuple[AbilityName, AbilityName] | None = None, extra: str = "", row: str = "") -> bytes:
    """A Random Archetype table with a row for every pair of Abilities (one left out if `skip`)."""
    rows = [
        f'"{p.value}/{s.value}" = "{p.value.title()} {s.value.title()}"' for p, s in ABILITY_PAIRS if (p, s) != skip
    ]
    rows = [row.replace('"Fight Travel"', '"Marine"') for row in rows]
    return ('table = "archetype"\ntitle = "Our jobs"\n' + extra + "[rows]\n" + "\n".join([*rows, row])).encode()


def loaded(state: ShowrunnerState, text: bytes) -> ShowrunnerState:
    state, _ = decide(state, "table-load", parse_table_file(text, source="t.toml").model_dump())
    return state


def d100(name: str, *rows: tuple[str, str]) -> bytes:
    return (f'table = "{name}"\ndie = "d100"\n[rows]\n' + "\n".join(f'"{k}" = "{v}"' for k, v in rows)).encode()


ANOMALIES = d100("anomaly", ("1-50", "Frost on every window"), ("51-100", "The lights hum a hymn"))
EVENTS = d100("event", ("1-25", "A shipment arrives"), ("26-100", "A rival's ledger is stolen"))


def test_the_archetype_table_is_read_by_a_primary_and_a_secondary_ability():
    archetypes = parse_table_file(archetype_file(), source="jobs.toml")
    assert (archetypes.table, archetypes.die, archetypes.rows) == (TableName.ARCHETYPE, 0, ())
    assert archetypes.pairs is not None and len(archetypes.pairs) == 90
    assert archetypes.pair(AbilityName.FIGHT, AbilityName.TRAVEL) == "Marine"
    assert archetypes.pair(AbilityName.TRAVEL, AbilityName.FIGHT) == "Travel Fight"
    # A table rolled on one die dumps as it did before keyed tables: no `pairs`.
    lost = parse_table_file(b'table = "lost-parent"\ndie = 10\n[rows]\n"1-10" = "Dead"', source="l.toml")
    assert "pairs" not in lost.model_dump(mode="json")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (archetype_file(extra="die = 10\n"), "die: the Random Archetype (2.5) table is read by two Abilities"),
        (
            archetype_file(skip=(AbilityName.WORK, AbilityName.THINK)),
            "rows: no row for 'work/think' (and 0 more; every pair of Abilities needs one)",
        ),
        (archetype_file(row='"fight/fight" = "Brawler"\n'), "rows: 'fight/fight' names one Ability twice"),
        (archetype_file(row='"Fight/Travel" = "Sailor"\n'), "rows: 'fight/travel' has two rows"),
        (archetype_file(row='"fight/sing" = "Bard"\n'), "rows: 'fight/sing' is not PRIMARY/SECONDARY"),
        (b'table = "archetype"', 'rows: give a [rows] table, one "PRIMARY/SECONDARY"'),
        (b'table = "looks"\ndie = 6\n[rows]\n"1-6" = "x"', "the Actor Looks (Appendix A) table is rolled on a d10"),
    ],
)
def test_a_bad_keyed_or_appendix_a_table_file_is_refused_in_one_line(text: bytes, problem: str):
    with pytest.raises(InvalidTableFile) as refused:
        parse_table_file(text, source="t.toml")
    assert problem in str(refused.value) and "\n" not in str(refused.value)


def test_a_keyed_table_is_not_rolled_on_a_die_nor_given_faces():
    state = loaded(ShowrunnerState(), archetype_file())
    with pytest.raises(RuleViolation, match="read by two Abilities, not rolled on a die"):
        decide(state, "table-roll", {"table": "archetype"}, {"table": [1]})
    with pytest.raises(ValueError, match="read by two Abilities: no die"):
        TableFile.model_validate({"table": "archetype", "die": 10, "rows": [], "pairs": []})
    with pytest.raises(ValueError, match="rolled on one die: its rows are faces"):
        TableFile.model_validate(
            {"table": "secrets", "die": 10, "rows": [{"low": 1, "high": 10, "text": "x"}], "pairs": []}
        )


@pytest.mark.parametrize("name", ["looks", "mannerisms", "agendas", "scars", "specialties", "secrets", "assets"])
def test_appendix_a_tables_are_loaded_on_a_d10_and_rolled_on(name: str):
    text = f'table = "{name}"\ndie = "d10"\n[rows]\n"1-9" = "Ordinary"\n10 = "Remarkable"'.encode()
    state = loaded(ShowrunnerState(), text)
    _, (rolled,) = decide(state, "table-roll", {"table": name, "reason": "Grim"}, {"table": [10]})
    assert rolled.text == "Remarkable" and rolled.rejudge(state) is None


def test_an_actor_cast_with_the_archetype_table_loaded_takes_its_row_and_is_judged_again():
    """Appendix A step 2: "Cross-reference them on the Random Archetype Table … to find their profession"."""
    state = loaded(ShowrunnerState(), archetype_file())
    after, (created,) = decide(state, "actor-create", {"name": "Grim", "pips": [2, 3]}, {"ability": [3, 9]})
    assert isinstance(created, ActorCreated)
    assert (created.actor.primary, created.actor.secondary, created.actor.archetype) == (
        AbilityName.FIGHT,
        AbilityName.TRAVEL,
        "Marine",
    )
    assert "FIGHT" not in created.summary() and "(Marine, the Random Archetype table's row)" in created.summary()
    assert after.world.actor("Grim").archetype == "Marine"
    assert created.rejudge(state) is None
    assert created.rejudge(ShowrunnerState()) == "the Actor differs from the record"
    # Without the table, the Actor has no Archetype, and dumps as before.
    _, (plain,) = decide(ShowrunnerState(), "actor-create", {"name": "Grim", "pips": [2, 3]}, {"ability": [3, 9]})
    assert plain.actor.archetype is None and "archetype" not in plain.actor.model_dump(mode="json")


def test_wardrobe_takes_the_archetype_at_the_two_mastered_abilities_from_a_loaded_table():
    """4.1 Step 2: "Locate the intersection of these two Abilities on the Random Archetype Table"."""
    state = finished(started())
    with pytest.raises(RuleViolation, match="name the Archetype \\(--archetype\\): no Random Archetype"):
        decide(
            state, "casting-wardrobe", {"star": ADA, "look": "L", "mannerism": "M", "agenda": "A", "secondary": "sense"}
        )
    state = loaded(state, archetype_file())
    wardrobe = {"star": ADA, "look": "L", "mannerism": "M", "agenda": "A", "secondary": "sense"}
    with pytest.raises(RuleViolation, match="the Random Archetype \\(2.5\\) table is loaded: its row is the Archetype"):
        decide(state, "casting-wardrobe", {**wardrobe, "archetype": "Navigator"})
    after, (fact,) = decide(state, "casting-wardrobe", wardrobe)
    record = casting_of(after, ADA)
    assert record.wardrobe is not None and record.wardrobe.archetype == "Travel Sense"
    assert record.sheet.concept == "Travel Sense"
    assert fact.lines[0] == "Archetype Travel Sense (the Random Archetype (2.5) table's row): Travel and Sense Mastered"


def test_a_channel_checks_anomaly_d100_takes_the_anomaly_tables_row():
    """Appendix C: "Pick or roll d100 to determine the weird, cosmetic, or environmental side effect"."""
    state = loaded(cast_channeler(CHANNELER), ANOMALIES)
    r = check(state, {"action": [4, 6], "script": [6, 4], "anomaly": [12, 100]}, ability="channel")
    marked = next(e for e in r.effects if isinstance(e, LimitMarked))
    assert marked.anomalies == (12, 100)
    assert marked.anomaly_rows == ("Frost on every window", "The lights hum a hymn")
    assert any("Frost on every window; The lights hum a hymn, the Anomalies table's rows" in s.text for s in r.steps)
    plain = check(cast_channeler(CHANNELER), {"action": [4, 1], "script": [4, 6], "anomaly": [57]}, ability="channel")
    assert plain.effects[-1] == LimitMarked(star=NAME, marked=1, overflow=0, anomalies=(57,))
    assert "anomaly_rows" not in plain.effects[-1].model_dump(mode="json")


def test_an_anomaly_table_loaded_before_its_rows_were_read_gives_the_d100s_no_row():
    """A TableLoaded recorded before the d100s took their table's rows holds no `version`: the
    checks decided while it was loaded recorded no rows, and are decided again without them."""
    table = parse_table_file(ANOMALIES, source="a.toml")
    assert table.version is None
    state, (fact,) = decide(cast_channeler(CHANNELER), "table-load", table.model_dump())
    assert fact.model_dump(mode="json")["table"]["version"] == 2
    older = state.model_copy(update={"tables": {TableName.ANOMALY: table}})
    r = check(older, {"action": [4, 1], "script": [4, 6], "anomaly": [57]}, ability="channel")
    assert r.effects[-1] == LimitMarked(star=NAME, marked=1, overflow=0, anomalies=(57,))


def test_a_limit_consequences_anomalies_take_the_anomaly_tables_rows():
    state = loaded(cast_stars(), ANOMALIES)
    resolution, _ = suffer(state, "Tobias", "limit", "EASY", {"anomaly": [13, 77]})
    assert resolution.effects[0] == LimitMarked(
        star=TOBIAS.name,
        marked=1,
        overflow=1,
        anomalies=(13, 77),
        anomaly_rows=("Frost on every window", "The lights hum a hymn"),
    )


def test_a_subplots_event_d100_takes_the_event_tables_row():
    """Appendix H: the Subplot's Event d100 (01-50 Aid, 51-100 Harm as printed) and its row."""
    events = parse_table_file(EVENTS, source="events.toml")
    generation = generate(cast_world(), table(plotter=[10], power_level=[3, 2, 4], event=[25]), events=events)
    assert generation.subplot is not None
    assert (generation.subplot.event, generation.subplot.event_row) == ("aid", "A shipment arrives")
    plain = generate(cast_world(), table(plotter=[10], power_level=[3, 2, 4], event=[25])).subplot
    assert plain is not None and plain.event_row is None and "event_row" not in plain.model_dump(mode="json")
