"""Flashbacks that do something, from the command line: `montage flashback` performs a single
Montage Action, `prop flashback … resource_trade --with` exchanges Props; bad input is refused in
one line with nothing written."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign


def ok(result):
    assert result.code == 0, result
    return result


def started(run) -> None:
    new_campaign(run)
    ok(run("episode", "start", "Pilot"))


def carried(run, star: str, prop: str) -> int:
    sheet = ok(run("sheet", star, "--json")).json()["star"]
    return sum(p["count"] for p in [*sheet["props"], *sheet.get("in_hand", [])] if p["type"] == prop)


def test_a_flashback_performs_a_montage_action(run):
    started(run)
    money = carried(run, "Mara", "Money")
    out = ok(
        run(
            "montage", "flashback", "practice", "--lead", "Mara", "--ability", "fight", "--claim", "Mara,prop=Money",
            "--action", "5,4,1", "--opposition-dice", "1", "--script", "6,6", "--benefit", "4", "--json",
        )
    ).json()  # fmt: skip
    assert [f["type"] for f in out["facts"]][0] == "PreparationSpent"
    assert out["facts"][-1]["type"] == "FlashbackMontageShot"
    assert out["facts"][-1]["fact"]["scene"]["opposition"] == 1
    assert carried(run, "Mara", "Money") == money - 1
    assert "Flashback: Mara Voss led Practice, Success" in ok(run("log")).out
    assert ok(run("montage", "show", "--json")).json()["montage"] is None


def test_a_flashback_trades_props_with_another_star(run):
    started(run)
    medicine = carried(run, "Tobias", "Medicine")
    out = ok(
        run("prop", "flashback", "Mara", "resource_trade", "--with", "Tobias", "--give", "Medicine", "--json")
    ).json()
    assert [f["type"] for f in out["facts"]] == ["PreparationSpent", "PropsGivenUp", "PropsGained"]
    assert carried(run, "Tobias", "Medicine") == medicine + 1


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("prop", "flashback", "Mara", "montage_action", "--give", "Medicine"), 2, "belong to a resource_trade"),
        (("prop", "flashback", "Mara", "resource_trade", "--give", "Medicine"), 2, "names the other Star: --with"),
        (
            ("prop", "flashback", "Mara", "resource_trade", "--with", "Tobias", "--give", "Junk:X"),
            2,
            "--give: 'X' is not a Quality",
        ),
        (("prop", "flashback", "Mara", "resource_trade", "--with", "Tobias", "--give", "Rations"), 1, "Rations"),
        (("prop", "flashback", "Tobias", "resource_trade", "--with", "Mara", "--take", "Medicine"), 1, "Preparation"),
        (("montage", "flashback", "dance", "--lead", "Mara"), 2, "'dance' is not a Montage Action"),
        (("montage", "flashback", "rest", "--lead", "Tobias", "--outcome", "success"), 1, "Preparation"),
        (("montage", "flashback", "practice", "--lead", "Mara", "--outcome", "success", "--grit", "1"), 2, "--outcome"),
    ],
)
def test_bad_flashbacks_are_refused_and_write_nothing(run, args, code, needle):
    started(run)
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before
