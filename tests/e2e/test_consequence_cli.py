"""`showrunner consequence`: Consequences (Section 14.3) on a Star's sheet, through the CLI.

The example Stars start with:
  Mara Voss     Grit 3/4, Plot Armor 2/2 (1 exhausted); Fight slots 1 "Swords", 2 Scar "Broken Arm" -1,
                5 "Disarming"; Move 1 Condition; Hero Prop "Father's Rapier" Wear 2/3, XP 1;
                Props 3 NORMAL Money, 1 HARD Weapons, 2 NORMAL Medicine; Limit 0/0
  Tobias Quell  Grit 2/3 (1 exhausted), Plot Armor 3/3; Limit 2/3; Hero Prop "Clockwork Familiar"
                Wear 5/7, XP 2
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import assert_refused, fingerprint, log_events, new_campaign


@pytest.fixture
def cast(run) -> None:
    new_campaign(run)  # #1 campaign, #2 Mara, #3 Tobias


def sheet(run, star: str, **kw: Any) -> dict:
    result = run("sheet", star, "--json", **kw)
    assert result.code == 0, result
    return result.json()["star"]


def replayed(run, to: int, star: str, **kw: Any) -> dict:
    result = run("replay", "--to", to, "--json", **kw)
    assert result.code == 0, result
    return result.json()["stars"][star]


def test_grit_loss_is_shown_step_by_step(run, cast) -> None:
    result = run(
        "consequence",
        "Mara",
        "grit-loss",
        "--difficulty",
        "HARD",
        "--ability",
        "fight",
        "--scar-slot",
        "1",
        "--scar-slot",
        "2",
    )
    assert result.code == 0 and result.err == "", result
    assert result.out.splitlines() == [
        '#4 Mara Voss suffered Grit Loss at HARD (4 Grit): lost 3 Grit, spent 1 Plot Armor, Scar "Broken Arm" -2 in Fight slot 2 (table dice)',
        "  · Grit Loss at HARD: 4 Grit",
        "  · lost 3 Grit (3 → 0)",
        "  · spent 1 Plot Armor (2 → 1): it absorbs the remaining 1",
        '  · Plot Armor leaves a Scar under Fight: slot 2 "Broken Arm" -2',
    ]
    mara = sheet(run, "Mara")
    assert mara["influence"]["grit"] == {"current": 0, "max": 4, "exhausted": 0}
    assert mara["influence"]["plot_armor"] == {"current": 1, "max": 2, "exhausted": 1}
    assert mara["abilities"]["fight"]["slots"]["2"] == {"kind": "scar", "name": "Broken Arm", "penalty": 2}


def test_json_names_the_request_the_dice_and_the_effects(run, cast) -> None:
    doc = run("consequence", "Mara", "grit-loss", "-d", "h", "-a", "fight", "--scar-slot", "9", "--json").json()
    assert doc["branch"] == "main" and doc["events"] == [4] and doc["type"] == "ConsequenceSuffered"
    outcome = doc["outcome"]
    assert outcome["roll_number"] == 1 and outcome["dice_commitment"] is None  # table dice
    resolution = outcome["resolution"]
    assert resolution["request"] == {
        "star": "Mara",
        "kind": "grit-loss",
        "difficulty": "HARD",
        "count": 1,
        "ability": "fight",
        "hero_prop": None,
        "prop": None,
        "push": False,
    }
    assert (resolution["star"], resolution["consequences"], resolution["size"]) == ("Mara Voss", 1, 4)
    assert resolution["rolls"] == [{"purpose": "scar_slot", "sides": 10, "faces": [9], "source": "table"}]
    assert [e["kind"] for e in resolution["effects"]] == ["spent", "spent", "scar"]
    assert doc["steps"][-1] == 'Plot Armor leaves a Scar under Fight: slot 9 "Plot Armor scar" -1'
    assert doc["written_off"] is False
    assert doc["summary"].startswith("Mara Voss suffered Grit Loss at HARD (4 Grit): lost 3 Grit, spent 1 Plot Armor")
    # The log, filtered by type and Star, carries the same line.
    (event,) = log_events(run, "--type", "ConsequenceSuffered", "--star", "Mara")
    assert (event["version"], event["summary"], event["stars"]) == (4, doc["summary"], ["Mara Voss"])


def test_the_books_exhaustion_example_and_replay_before_and_after(run, cast) -> None:
    assert run("spend", "Mara", "grit", "-n", "3").code == 0  # #4: 0 Grit left
    result = run("consequence", "Mara", "grit-loss", "-d", "HARD", "--push")  # #5
    assert result.code == 0, result
    assert result.out.splitlines() == [
        "#5 Mara Voss suffered Grit Loss at HARD (4 Grit): exhausted 4 Grit icons",
        "  · Grit Loss at HARD: 4 Grit",
        "  · Pushed Their Limits: exhausted 4 Grit icons for the remaining 4 (Grit maximum 4 → 0)",
    ]
    before, after = replayed(run, 4, "Mara Voss"), replayed(run, 5, "Mara Voss")
    assert before["influence"]["grit"] == {"current": 0, "max": 4, "exhausted": 0}
    assert after["influence"]["grit"] == {"current": 0, "max": 0, "exhausted": 4}
    assert (
        after["influence"]["plot_armor"]
        == before["influence"]["plot_armor"]
        == {"current": 2, "max": 2, "exhausted": 1}
    )
    # No die was rolled: no roll number used.
    assert run("show", "5", "--json").json()["event"]["payload"]["roll_number"] is None


def test_plot_armor_pushed_then_written_off(run, cast, home: Path) -> None:
    # Mara: 3 Grit, 2 Plot Armor (+1 icon). Three EPIC Grit Losses, then a fourth.
    assert (
        run("consequence", "Mara", "grit-loss", "-d", "EPIC", "-a", "fight", "--scar-slot", "9").code == 0
    )  # #4: Grit 0, PA 1
    assert (
        run("consequence", "Mara", "grit-loss", "-d", "EPIC", "-a", "fight", "--scar-slot", "9").code == 0
    )  # #5: PA 0
    before = fingerprint(run, home)
    assert_refused(
        run("consequence", "Mara", "grit-loss", "-d", "EPIC", "-a", "fight"),
        1,
        "Mara Voss has 0 Grit and 0 Plot Armor against 6 Grit Loss: only Pushing Their Limits covers the remaining 6; "
        "pass --push (exhausts 1 Plot Armor icon, permanently)",
    )
    assert fingerprint(run, home) == before
    pushed = run("consequence", "Mara", "grit-loss", "-d", "EPIC", "-a", "fight", "--push", "--scar-slot", "10")  # #6
    assert "exhausted 1 Plot Armor icon, permanently (Plot Armor maximum 2 → 1)" in pushed.out
    assert (
        run("consequence", "Mara", "grit-loss", "-d", "EPIC", "-a", "fight", "--push", "--scar-slot", "10").code == 0
    )  # #7
    gone = run("consequence", "Mara", "grit-loss", "-d", "EPIC", "--push")  # #8
    assert gone.code == 0, gone
    assert gone.out.splitlines() == [
        "#8 Mara Voss suffered Grit Loss at EPIC (6 Grit): WRITTEN OFF",
        "  · Grit Loss at EPIC: 6 Grit",
        "  · WRITTEN OFF: no Grit or Plot Armor can cover the remaining 6 (4 Grit icons left, too few)",
    ]
    mara = sheet(run, "Mara")
    assert mara["written_off"] is True
    assert mara["influence"]["plot_armor"] == {"current": 0, "max": 0, "exhausted": 3}
    assert (
        mara["abilities"]["fight"]["slots"]["9"]["penalty"] == 2
        and mara["abilities"]["fight"]["slots"]["10"]["penalty"] == 2
    )
    assert "WRITTEN OFF" in run("sheet", "Mara").out
    assert replayed(run, 7, "Mara Voss")["written_off"] is False
    before = fingerprint(run, home)
    assert_refused(run("consequence", "Mara", "limit", "-d", "HARD"), 1, "Mara Voss has been written off the Show")
    assert fingerprint(run, home) == before


def test_conditions_wear_depletion_and_limit(run, cast) -> None:
    out = run("consequence", "Tobias", "conditions", "-d", "FORMIDABLE", "--ability", "Channel", "--count", "2").out
    assert out.splitlines()[1:] == [
        "  · 2 × Mark Conditions at FORMIDABLE: 2 Consequences of 5",
        "  · marked 10 Conditions in Channel (2 → 12)",
    ]
    assert sheet(run, "Tobias")["abilities"]["channel"]["conditions"] == 12

    out = run("consequence", "Mara", "wear", "-d", "HARD", "--hero-prop", "father's rapier").out
    assert out.splitlines() == [
        "#5 Mara Voss suffered Mark Wear at HARD (4 Wear): 1 Wear on Father's Rapier (+1 XP), 3 lost",
        "  · Mark Wear at HARD: 4 Wear",
        "  · marked 1 Wear on Father's Rapier (2 → 3 of 3) and 1 Asset XP (1 → 2)",
        "  · 3 Wear found no empty box and is lost (no XP for it)",
        "  · Father's Rapier has all its Wear marked: it cannot be used until repaired",
    ]
    rapier = sheet(run, "Mara")["hero_props"][0]
    assert (rapier["wear"], rapier["xp"]) == (3, 2)

    out = run("consequence", "Mara", "depletion", "-d", "NORMAL", "--prop", "Medicine").out
    assert out.splitlines()[2:] == [
        "  · lost 2 NORMAL Medicine (2 → 0)",
        "  · Mara Voss held only 2 Medicine: all of them are lost, 1 short of 3",
    ]
    assert [p["type"] for p in sheet(run, "Mara")["props"]] == ["Money", "Weapons"]
    # A Prop the Star does not hold: nothing is lost, and the output says so.
    nothing = run("consequence", "Mara", "depletion", "-d", "NORMAL", "--prop", "Ammo:EPIC")
    assert nothing.code == 0 and "  · Mara Voss holds no EPIC Ammo Props: nothing to lose" in nothing.out

    out = run("consequence", "Tobias", "limit", "-d", "EASY", "--anomaly", "13", "--anomaly", "77").out
    assert out.splitlines() == [
        "#8 Tobias Quell suffered Mark Limit at EASY (2 Limit): 1 Limit, 1 overflowed: Limit Break (table dice)",
        "  · Mark Limit at EASY: 2 Limit",
        "  · marked 1 Limit ⦸ (2 → 3 of 3)",
        "  · 2 Anomalies (d100): 13,77",
        "  · LIMIT BREAK: 1 Limit overflowed the track (an Internal Overload and a Major Anomaly, Appendix D)",
    ]
    assert sheet(run, "Tobias")["limit"] == {"marked": 3, "max": 3}
    # None of it touched the Director's Studio Notes: no recorded effect names them.
    kinds = {
        e["kind"]
        for v in range(4, 9)
        for e in run("show", v, "--json").json()["event"]["payload"]["resolution"]["effects"]
    }
    assert kinds == {"ability", "wear", "props", "limit"}


def test_a_holding_in_the_scene_takes_some_of_the_wear_and_keeps_it(run, cast) -> None:
    assert run("ensemble", "holding", "The Drowned Lighthouse", "--kind", "Home Base").code == 0
    out = run(
        "consequence",
        "Mara",
        "wear",
        "-d",
        "NORMAL",
        "--holding",
        "the drowned lighthouse",
        "--holding-wear",
        "2",
        "--hero-prop",
        "Father's Rapier",
    ).out
    assert out.splitlines()[2:4] == [
        "  · marked 2 Wear on the Holding The Drowned Lighthouse (0 → 2 of 3)",
        "  · marked 1 Wear on Father's Rapier (2 → 3 of 3) and 1 Asset XP (1 → 2)",
    ]
    shown = run("ensemble", "show", "--json").json()["ensemble"]
    assert (shown["holdings"][0]["wear"], shown["holdings"][0]["wear_capacity"]) == (2, 3)
    assert "The Drowned Lighthouse (NORMAL, Home Base, 2/3 Wear)" in run("ensemble", "show").out
    out = run("consequence", "Mara", "wear", "-d", "EASY", "--holding", "The Drowned Lighthouse").out
    assert out.splitlines()[0].endswith("(2 Wear): 1 Wear on the Holding The Drowned Lighthouse, 1 lost")
    refused = run("consequence", "Mara", "wear", "-d", "EASY", "--holding", "The Drowned Lighthouse")
    assert_refused(refused, 1, "The Drowned Lighthouse already has all 3 Wear marked")
    assert run("verify").code == 0


def test_ledger_dice_use_a_roll_number_only_when_a_die_is_rolled(run, cast) -> None:
    assert run("consequence", "Tobias", "limit", "-d", "EASY").code == 0  # rolls 2 Anomalies
    assert run("consequence", "Tobias", "conditions", "-d", "EASY", "-a", "work").code == 0  # rolls nothing
    assert run("consequence", "Tobias", "grit-loss", "-d", "EPIC", "-a", "work").code == 0  # rolls a Scar slot
    payloads = [run("show", v, "--json").json()["event"]["payload"] for v in (4, 5, 6)]
    assert [p["roll_number"] for p in payloads] == [1, None, 2]
    assert payloads[0]["dice_commitment"] and payloads[0]["dice_commitment"] == payloads[2]["dice_commitment"]
    assert payloads[1]["dice_commitment"] is None
    assert [r["source"] for r in payloads[2]["resolution"]["rolls"]] == ["ledger"] * len(
        payloads[2]["resolution"]["rolls"]
    )
    assert log_events(run)[-1]["summary"].endswith("(ledger dice)")


BAD_INPUT = [
    (("Nobody", "limit", "-d", "HARD"), 1, "unknown Star 'Nobody' (Stars in this campaign: Mara Voss, Tobias Quell)"),
    (
        ("Mara", "conditions", "-d", "HARD", "--ability", "juggle"),
        1,
        "unknown Ability 'juggle' (Abilities: channel, endure",
    ),
    (
        ("Mara", "wear", "-d", "HARD", "--hero-prop", "Sword"),
        1,
        "Mara Voss has no Hero Prop 'Sword' (Hero Props: Father's Rapier)",
    ),
    (
        ("Mara", "wear", "-d", "HARD"),
        2,
        "wear needs --hero-prop or --holding: the Hero Prop or the Holding in the Scene that takes the Wear",
    ),
    (("Mara", "wear", "-d", "HARD", "--holding", "The Moon"), 1, "the Cast holds no Holding 'The Moon'"),
    (
        ("Mara", "wear", "-d", "HARD", "--hero-prop", "Father's Rapier", "--holding-wear", "2"),
        2,
        "--holding-wear needs --holding",
    ),
    (("Mara", "conditions", "-d", "HARD"), 2, "conditions needs --ability"),
    (("Mara", "depletion", "-d", "HARD"), 2, "depletion needs --prop"),
    (("Mara", "limit", "-d", "HARD", "--push"), 2, "--push does not apply to limit"),
    (
        ("Mara", "conditions", "-d", "HARD", "-a", "fight", "--hero-prop", "x"),
        2,
        "--hero-prop does not apply to conditions (conditions takes --ability)",
    ),
    (("Mara", "limit", "-d", "IMPOSSIBLE"), 2, "--difficulty: 'IMPOSSIBLE' is not on the ladder (EASY, NORMAL, HARD"),
    (("Mara", "limit"), 2, "Missing option '--difficulty'"),
    (("Mara", "hurt", "-d", "HARD"), 2, "'hurt' is not one of 'grit-loss', 'conditions', 'wear', 'depletion', 'limit'"),
    (("Mara", "limit", "-d", "HARD", "--count", "0"), 2, "--count"),
    (("Mara", "depletion", "-d", "HARD", "--prop", "Lasers"), 1, "unknown Prop Type 'Lasers'"),
    (
        ("Mara", "grit-loss", "-d", "HARD"),
        1,
        "spends Plot Armor, which rolls a Scar under the Ability used: pass --ability",
    ),
    (
        ("Mara", "grit-loss", "-d", "HARD", "-a", "fight", "--scar-slot", "11"),
        1,
        "scar_slot die 11 is not a d10 face (1-10)",
    ),
    (
        ("Mara", "grit-loss", "-d", "EASY", "-a", "fight", "--scar-slot", "3"),
        1,
        "1 scar_slot faces were given but the roll used 0 (--scar-slot)",
    ),
    (
        ("Tobias", "limit", "-d", "HARD", "--anomaly", "5"),
        1,
        "the roll needs 4 anomaly dice but 1 was given (--anomaly)",
    ),
]


@pytest.mark.parametrize(("args", "code", "message"), BAD_INPUT, ids=[" ".join(a[0]) for a in BAD_INPUT])
def test_bad_input_is_refused_in_one_line_and_writes_nothing(run, cast, home: Path, args, code, message) -> None:
    before = fingerprint(run, home)
    assert_refused(run("consequence", *args), code, message)
    assert fingerprint(run, home) == before


def test_a_star_records_only_their_own_consequences(run, cast, home: Path) -> None:
    before = fingerprint(run, home)
    assert_refused(
        run("--as", "Tobias", "consequence", "Mara", "conditions", "-d", "HARD", "-a", "fight"),
        1,
        "Tobias Quell cannot record for Mara Voss: only Mara Voss or the Director can",
    )
    assert fingerprint(run, home) == before
    mine = run("--as", "Tobias Quell", "consequence", "Tobias", "conditions", "-d", "HARD", "-a", "work")
    assert mine.code == 0, mine
    assert log_events(run)[-1]["recorded_by"] == "Tobias Quell"


def test_consequences_on_each_backend(run, db_url: str, home: Path) -> None:
    new_campaign(run, db=db_url)
    result = run("consequence", "Tobias", "grit-loss", "-d", "MYTHIC", "-a", "work", "--json", db=db_url)
    assert result.code == 0, result
    doc = result.json()
    assert doc["outcome"]["resolution"]["consequences"] == 3 and doc["outcome"]["roll_number"] == 1
    tobias = replayed(run, 4, "Tobias Quell", db=db_url)
    assert tobias["influence"]["plot_armor"] == {"current": 0, "max": 3, "exhausted": 0}
    assert replayed(run, 3, "Tobias Quell", db=db_url)["influence"]["plot_armor"] == {
        "current": 3,
        "max": 3,
        "exhausted": 0,
    }
    before = fingerprint(run, home, db=db_url)
    assert_refused(
        run("consequence", "Tobias", "wear", "-d", "HARD", "--hero-prop", "Sword", db=db_url),
        1,
        "has no Hero Prop 'Sword'",
    )
    assert fingerprint(run, home, db=db_url) == before
    assert run("verify", db=db_url).code == 0


def test_consequence_with_the_real_script(cli) -> None:
    for args in (
        ("campaign", "new", "Neon Harbor"),
        ("star", "add", "--file", Path(__file__).parents[2] / "domain" / "showrunner" / "examples" / "star-mara.toml"),
    ):
        assert cli(*args).code == 0
    result = cli("consequence", "Mara", "grit-loss", "-d", "NORMAL", "--ability", "fight")
    assert result.code == 0 and result.err == "", result
    assert result.out.splitlines() == [
        "#3 Mara Voss suffered Grit Loss at NORMAL (3 Grit): lost 3 Grit",
        "  · Grit Loss at NORMAL: 3 Grit",
        "  · lost 3 Grit (3 → 0)",
    ]
    refused = cli("consequence", "Mara", "wear", "-d", "NORMAL")
    assert (refused.code, refused.out) == (2, "")
    assert (
        refused.err
        == "showrunner: wear needs --hero-prop or --holding: the Hero Prop or the Holding in the Scene that takes the Wear\n"
    )
    assert cli("head", "--json").json()["version"] == 3
