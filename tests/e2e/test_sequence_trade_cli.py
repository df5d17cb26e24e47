"""A Bond or Grudge traded for a whole Sequence and an Award's power on a Beat, from the command
line: `sequence trade` once, every Beat of the Star rolled lower, `sequence beat --award`; bad
input is refused in one line with nothing written."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import MARA_FILE, assert_refused, head

GOAL = "Crack the vault"
THREE_AND_TWO = ("--action", "3,2,1", "--script", "5,6")
"""Mara's Fight keeps 3 and 2: a Partial Success at NORMAL, a Success at EASY."""


def ok(result):
    assert result.code == 0, result
    return result


def declared(run, tmp_path, *, awards: bool = False) -> None:
    """Mara (optionally holding every Award) in an open Episode, and a HARD 3-Beat Sequence."""
    star = MARA_FILE.read_text()
    if awards:
        star = star.replace(
            'concept = "Disgraced duelist"', 'concept = "Disgraced duelist"\nawards = ["artisan", "luminary"]'
        )
    path = tmp_path / "mara.toml"
    path.write_text(star)
    ok(run("campaign", "new", "Neon Harbor"))
    ok(run("star", "add", "--file", str(path)))
    ok(run("episode", "start", "Pilot"))
    ok(run("sequence", "declare", GOAL, "-d", "HARD", "--beats", "3", "--from", "Mara:grit:2"))


def test_a_trade_for_the_whole_sequence_lowers_each_of_the_stars_beats(run, tmp_path):
    declared(run, tmp_path)
    traded = ok(run("sequence", "trade", GOAL, "Mara", "bond:Captain Ilse", "--acclaim", "training", "--json")).json()
    assert [f["type"] for f in traded["facts"]] == ["RelationshipTraded", "SequenceTradeMade"]
    shown = ok(run("sequence", "show", GOAL, "--json")).json()["sequences"][0]
    assert shown["trades"] == [{"star": "Mara Voss", "kind": "bond", "name": "Captain Ilse", "to_easy": False}]
    assert (
        "Mara Voss traded the Bond with Captain Ilse: their Beats roll one step lower"
        in ok(run("sequence", "show")).out
    )
    for _ in range(2):
        beat = ok(run("sequence", "beat", GOAL, "Mara", "fight", *THREE_AND_TWO, "--json")).json()
        resolution = beat["facts"][0]["fact"]["resolution"]
        assert (resolution["effective_difficulty"], resolution["outcome"]) == ("EASY", "success")
    text = ok(run("log")).out
    assert "Mara Voss's Beats in 'Crack the vault' roll one step lower: the Bond with Captain Ilse was traded" in text


def test_an_award_declares_a_beat_an_automatic_success_once_per_episode(run, tmp_path):
    declared(run, tmp_path, awards=True)
    beat = ok(run("sequence", "beat", GOAL, "Mara", "fight", "--award", "artisan", "--json")).json()
    assert beat["facts"][0]["fact"]["resolution"]["outcome"] == "success"
    before = head(run)
    assert_refused(
        run("sequence", "beat", GOAL, "Mara", "fight", "--award", "artisan"), 1, "already used this Award's power"
    )
    assert head(run) == before


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("sequence", "trade", GOAL, "Mara", "Captain Ilse"), 2, "'Captain Ilse' is not bond:NAME or grudge:NAME"),
        (("sequence", "trade", GOAL, "Mara", "bond:Captain Ilse"), 1, "name the Career Path for its 1 Acclaim"),
        (("sequence", "trade", GOAL, "Mara", "bond:Pell the fence"), 1, "cannot reduce a HARD check"),
        (("sequence", "trade", "No such goal", "Mara", "grudge:Lord Aubrec"), 1, "No such goal"),
        (("sequence", "beat", GOAL, "Mara", "fight", "--award", "icon"), 2, "--award: 'icon' is not an Award"),
        (("sequence", "beat", GOAL, "Mara", "fight", "--award", "artisan"), 1, "has not won the Artisan Award"),
        (("sequence", "beat", GOAL, "--outcome", "success", "--award", "luminary"), 2, "give no --award"),
    ],
)
def test_bad_trades_and_awards_on_a_sequence_are_refused_and_write_nothing(run, tmp_path, args, code, needle):
    declared(run, tmp_path)
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before
