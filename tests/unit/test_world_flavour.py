"""Appendix F (Schemes) and G (Currying Favor) as data, and the d10 that names an Ability."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation
from showrunner_ledger.domain.showrunner.flavour import (
    FAVORS,
    SCHEMES,
    ability_for,
    favor_form,
    roll_favor,
    roll_scheme,
    scheme_form,
)
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A

PRINTED = [A.CHANNEL, A.ENDURE, A.FIGHT, A.IMPRESS, A.MOVE]


def test_the_appendices_number_the_abilities_alphabetically():
    assert [ability_for(face) for face in range(1, 11)] == [
        A.CHANNEL,
        A.ENDURE,
        A.FIGHT,
        A.IMPRESS,
        A.MOVE,
        A.SENSE,
        A.TALK,
        A.THINK,
        A.TRAVEL,
        A.WORK,
    ]
    with pytest.raises(InvalidDice):
        ability_for(11)


def test_each_printed_table_has_ten_rows():
    assert list(SCHEMES) == PRINTED and list(FAVORS) == PRINTED
    assert all(len(rows) == 10 for rows in (*SCHEMES.values(), *FAVORS.values()))


@pytest.mark.parametrize(
    ("lookup", "ability", "face", "title"),
    [
        (scheme_form, A.CHANNEL, 1, "Curse"),
        (scheme_form, A.IMPRESS, 10, "Frame"),
        (scheme_form, A.MOVE, 10, "Assault"),
        (favor_form, A.FIGHT, 6, "Jailbreak"),
        (favor_form, A.MOVE, 10, "Infiltrate"),
        (favor_form, A.ENDURE, 1, "Interpose"),
    ],
)
def test_rows_read_as_the_book_prints_them(lookup, ability, face, title):
    assert lookup(ability, face).title == title


def test_abilities_the_book_prints_no_table_for_answer_none():
    assert scheme_form(A.WORK, 3) is None and favor_form(A.SENSE, 3) is None


def test_a_scheme_takes_the_primary_if_named_then_the_secondary():
    primary = roll_scheme(A.FIGHT, A.TALK, TableDice({"scheme": [7, 3], "form": [5]}))
    assert (primary.ability, primary.form.title) == (A.FIGHT, "Duel")
    secondary = roll_scheme(A.FIGHT, A.TALK, TableDice({"scheme": [1, 7], "form": [5]}))
    assert secondary.ability is A.TALK and secondary.form is None


def test_a_scheme_naming_neither_takes_the_choice_or_the_first_die():
    dice = TableDice({"scheme": [1, 5], "form": [2]})
    assert roll_scheme(A.FIGHT, A.TALK, dice).ability is A.CHANNEL
    chosen = roll_scheme(A.FIGHT, A.TALK, TableDice({"scheme": [1, 5], "form": [2]}), choice=A.MOVE)
    assert (chosen.ability, chosen.form.title) == (A.MOVE, "Sabotage")
    with pytest.raises(RuleViolation, match="named Channel and Move: choose one of them, not Work"):
        roll_scheme(A.FIGHT, A.TALK, TableDice({"scheme": [1, 5], "form": [2]}), choice=A.WORK)


@pytest.mark.parametrize(
    ("faces", "ability"),
    [
        ({"favor": [1]}, A.FIGHT),
        ({"favor": [4]}, A.FIGHT),
        ({"favor": [5]}, A.IMPRESS),
        ({"favor": [7]}, A.IMPRESS),
        ({"favor": [8], "ability": [2]}, A.ENDURE),
        ({"favor": [10], "ability": [9]}, A.TRAVEL),
    ],
)
def test_currying_favor_picks_primary_secondary_or_a_random_ability(faces, ability):
    dice = TableDice({**faces, "form": [1]})
    favor = roll_favor(A.FIGHT, A.IMPRESS, dice)
    assert favor.ability is ability and favor.kind == "favor"
    dice.check_all_used()
