"""The solo scene-goal d6 (14.1A) and Studio Note d10 (5.2.2) from the command line."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign


def ok(result):
    assert result.code == 0, result
    return result


@pytest.mark.parametrize(("face", "goal"), [(2, "scheme"), (3, "curry_favor"), (6, "event")])
def test_the_scene_goal_d6_names_a_scheme_curry_favor_or_an_event(run, face, goal):
    new_campaign(run)
    rolled = ok(run("oracle", "scene-goal", "--goal", str(face), "--json")).json()
    assert rolled["goal"] == goal
    assert [f["type"] for f in rolled["facts"]] == ["SceneGoalRolled"]


def test_the_solo_studio_note_d10_spends_one_below_the_notes_pooled(run):
    new_campaign(run)
    for _ in range(2):  # two Bad Takes: 2 Studio Notes pooled
        ok(run("check", "Mara", "fight", "-d", "NORMAL", "--action", "6,6,2", "--script", "1,1"))
    assert ok(run("oracle", "studio-note", "--solo-note", "1", "--json")).json()["spends"] is True
    assert ok(run("oracle", "studio-note", "--solo-note", "2", "--json")).json()["spends"] is False
    assert ok(run("audit", "--all", "--json")).json()["ok"]


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("oracle", "studio-note", "--solo-note", "1"), 1, "no Studio Note is pooled"),
        (("oracle", "studio-note", "--solo-note", "11"), 2, "--solo-note: 11 is not a d10 face"),
        (("oracle", "scene-goal", "--goal", "7"), 2, "--goal: 7 is not a d6 face"),
        (("--as", "Mara Voss", "oracle", "studio-note"), 1, "only the Director"),
    ],
)
def test_bad_solo_rolls_are_refused_and_write_nothing(run, args, code, needle):
    new_campaign(run)
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before
