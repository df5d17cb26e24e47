"""The Difficulty ladder and Prop Qualities."""

import pytest

from showrunner_ledger.domain.showrunner.ladder import Difficulty, Quality

LADDER = ["EASY", "NORMAL", "HARD", "FORMIDABLE", "EPIC", "LEGENDARY", "MYTHIC", "ASCENDANT", "GODLIKE"]


def test_members_run_low_to_high_with_ranks_0_to_8():
    assert [d.name for d in Difficulty] == LADDER
    assert [d.rank for d in Difficulty] == list(range(9))
    assert [d.value for d in Difficulty] == LADDER


@pytest.mark.parametrize(
    ("difficulty", "target"),
    [
        (Difficulty.EASY, 2),
        (Difficulty.NORMAL, 3),
        (Difficulty.HARD, 4),
        (Difficulty.FORMIDABLE, 5),
        (Difficulty.EPIC, 6),
        (Difficulty.LEGENDARY, None),
        (Difficulty.MYTHIC, None),
        (Difficulty.ASCENDANT, None),
        (Difficulty.GODLIKE, None),
    ],
)
def test_target_numbers_stop_at_epic(difficulty, target):
    assert difficulty.target == target


def test_tier_letters_are_the_books_and_easy_has_none():
    assert [d.letter for d in Difficulty] == ["-", "N", "H", "F", "E", "L", "M", "A", "G"]


@pytest.mark.parametrize(
    ("start", "steps", "end"),
    [
        (Difficulty.HARD, 1, Difficulty.FORMIDABLE),
        (Difficulty.HARD, -1, Difficulty.NORMAL),
        (Difficulty.HARD, 0, Difficulty.HARD),
        (Difficulty.NORMAL, 4, Difficulty.LEGENDARY),
        (Difficulty.NORMAL, -5, Difficulty.EASY),
        (Difficulty.MYTHIC, 9, Difficulty.GODLIKE),
        (Difficulty.EASY, -1, Difficulty.EASY),
        (Difficulty.GODLIKE, 1, Difficulty.GODLIKE),
    ],
)
def test_step_moves_along_the_ladder_and_clamps_at_the_ends(start, steps, end):
    assert start.step(steps) is end


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hard", Difficulty.HARD),
        ("Formidable", Difficulty.FORMIDABLE),
        ("  godlike ", Difficulty.GODLIKE),
        ("EASY", Difficulty.EASY),
        ("N", Difficulty.NORMAL),
        ("h", Difficulty.HARD),
        ("E", Difficulty.EPIC),  # E is EPIC's letter, never EASY's
        ("l", Difficulty.LEGENDARY),
        ("A", Difficulty.ASCENDANT),
    ],
)
def test_parses_a_name_in_any_case_or_a_tier_letter(text, expected):
    assert Difficulty(text) is expected


@pytest.mark.parametrize("text", ["-", "", "X", "hardest", "3"])
def test_refuses_what_is_neither_name_nor_letter(text):
    with pytest.raises(ValueError, match="is not a valid Difficulty"):
        Difficulty(text)


def test_refuses_numbers():
    with pytest.raises(ValueError):
        Difficulty(3)


def test_qualities_are_the_four_prop_qualities_and_parse_like_difficulties():
    assert [q.name for q in Quality] == ["NORMAL", "HARD", "FORMIDABLE", "EPIC"]
    assert Quality("epic") is Quality.EPIC
    assert Quality("f") is Quality.FORMIDABLE
    with pytest.raises(ValueError):
        Quality("LEGENDARY")
