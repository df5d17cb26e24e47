"""Table files (domain/showrunner/table_files.py): a group's own table for a table the book
names but does not print, loaded on the ledger and rolled on instead of free text."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.casting import casting_of
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.table_events import TableLoaded, TableRolled
from showrunner_ledger.domain.showrunner.table_files import InvalidTableFile, TableName, parse_table_file
from tests.unit.test_casting import ADA, decide, started

LOST_PARENT = b"""
table = "lost-parent"
die = "d10"
title = "Our Lost Parents"

[rows]
"1-4" = "Dead"
"5-8" = "Went to sea"
9 = "In hiding"
10 = "Crowned abroad"
"""


def test_a_table_file_gives_a_row_for_every_face_of_its_die():
    table = parse_table_file(LOST_PARENT, source="lost.toml")
    assert (table.table, table.die, table.title) == (TableName.LOST_PARENT, 10, "Our Lost Parents")
    assert [(r.faces, r.text) for r in table.rows] == [
        ("1-4", "Dead"),
        ("5-8", "Went to sea"),
        ("9", "In hiding"),
        ("10", "Crowned abroad"),
    ]
    assert table.row(6).text == "Went to sea" and table.row(10).text == "Crowned abroad"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b"table = ", "t.toml: not a TOML table file"),
        (b'table = "weather"\ndie = 10\n[rows]\n"1-10" = "x"', "table: 'weather' is not a table the book names"),
        (b'table = "set-design"\ndie = "d7"\n[rows]\n"1-7" = "x"', "die: d7 is not a die a table is rolled on"),
        (b'table = "set-design"\ndie = "many"\n[rows]\n1 = "x"', "die: 'many' is not a die a table is rolled on"),
        (
            b'table = "anomaly"\ndie = "d20"\n[rows]\n"1-20" = "x"',
            "the Anomalies (Appendix C) table is rolled on a d100, not a d20",
        ),
        (
            b'table = "set-design"\ndie = 6\n[rows]\n"1-3" = "a"\n5 = "b"',
            "rows: no row for face 4, 6 (every face of the d6 needs one)",
        ),
        (b'table = "set-design"\ndie = 6\n[rows]\n"1-4" = "a"\n"4-6" = "b"', "rows: face 4 has two rows"),
        (b'table = "set-design"\ndie = 6\n[rows]\n"1-7" = "a"', "rows: '1-7' is not within the d6's faces 1-6"),
        (b'table = "set-design"\ndie = 6\n[rows]\n"one" = "a"', "rows: 'one' is not a face or a LOW-HIGH range"),
        (b'table = "set-design"\ndie = 6', "rows: give a [rows] table"),
        (b'table = "set-design"\ndie = 6\nsize = 2\n[rows]\n"1-6" = "a"', "unknown key 'size'"),
    ],
)
def test_a_bad_table_file_is_refused_in_one_line(text: bytes, problem: str):
    with pytest.raises(InvalidTableFile) as refused:
        parse_table_file(text, source="t.toml")
    message = str(refused.value)
    assert problem in message and "\n" not in message


def test_a_loaded_table_is_in_the_state_and_a_roll_takes_its_row_and_is_judged_again():
    table = parse_table_file(LOST_PARENT, source="lost.toml")
    state, (fact,) = decide(ShowrunnerState(), "table-load", table.model_dump())
    assert isinstance(fact, TableLoaded) and not fact.replaced
    assert state.tables[TableName.LOST_PARENT] == table.model_copy(update={"version": 2})
    assert "tables" not in ShowrunnerState().model_dump(mode="json")
    _, (rolled,) = decide(state, "table-roll", {"table": "lost-parent", "reason": "Ada's father"}, {"table": [7]})
    assert isinstance(rolled, TableRolled) and (rolled.face, rolled.text) == (7, "Went to sea")
    assert rolled.rejudge(state) is None
    tampered = rolled.model_copy(update={"text": "Dead"})
    assert tampered.rejudge(state) == "the row differs from the record"
    again, (reloaded,) = decide(state, "table-load", table.model_dump())
    assert isinstance(reloaded, TableLoaded) and reloaded.replaced


def test_rolling_on_a_table_not_loaded_is_refused():
    with pytest.raises(RuleViolation, match="no Set Design \\(Appendix B\\) table is loaded"):
        decide(ShowrunnerState(), "table-roll", {"table": "set-design"}, {"table": [1]})


def test_the_lost_parent_roll_takes_the_loaded_tables_row_instead_of_free_text():
    """2.3A "roll once on the Lost Parent Table": with the table loaded, its row is the answer."""
    table = parse_table_file(LOST_PARENT, source="lost.toml")
    state, _ = decide(started(), "table-load", table.model_dump())
    state, _ = decide(state, "casting-social-class", {"star": ADA}, {"social_class": [7], "money": [2, 3]})
    state, _ = decide(
        state,
        "casting-settle",
        {
            "star": ADA,
            "hero_props": [["Old Compass", "Always points home"], ["Old Compass", None], ["Old Compass", None]],
            "careers": ["talent"],
            "family_bonds": [f"Mother of {ADA}"],
            "family_grudges": [f"Father of {ADA}", f"Aunt of {ADA}"],
        },
    )
    parents = [
        {"name": f"Mother of {ADA}", "archetype": "Sailor", "primary": "travel", "secondary": "endure"},
        {"name": f"Father of {ADA}", "archetype": "Clerk", "primary": "think", "secondary": "talk"},
    ]
    with pytest.raises(RuleViolation, match="the Lost Parent \\(2.3A\\) table is loaded: its row is the answer"):
        decide(state, "casting-parents", {"star": ADA, "parents": parents, "lost_parent": ["x"]}, {})
    after, (rolled,) = decide(
        state, "casting-parents", {"star": ADA, "parents": parents}, {"parental_status": [8], "lost_parent": [9]}
    )
    father = casting_of(after, ADA).member(f"Father of {ADA}")
    assert father is not None and "Lost Parent d10 9: In hiding" in father.note
    assert "Lost Parent d10 9: In hiding" in rolled.lines
    assert rolled.rejudge(state) is None
    # Decided again without the table, the same dice give another answer: the table is part of the judgement.
    unloaded = state.model_copy(update={"tables": {}})
    assert rolled.rejudge(unloaded) is not None
