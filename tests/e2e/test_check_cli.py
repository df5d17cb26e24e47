"""`showrunner check`: the rulebook's worked examples with table dice, ledger dice, bad input.

The example Stars (tests/e2e/conftest.py) as they start:
  Mara Voss     Fight: base 2, 1★, mastered (3 Action Dice), Specialties Swords 2 and
                Disarming 1, Scar Broken Arm -1; Grit 3/4, Retake 2/2, Spotlight 0/1;
                Hero Prop Father's Rapier (Wear 2/3, N milestone); Props: 3 NORMAL Money,
                1 HARD Weapons, 2 NORMAL Medicine; Acclaim training 2, talent 1.
  Tobias Quell  Work: base 3, 1★, Specialty Clockwork 2; Retake 1/3, Spotlight 1/1.
The Ensemble Pool holds 1 of each at its maximum of 1, so overflow beyond a full pool is lost.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from showrunner_ledger.domain.showrunner.check import Resolution
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.dice import LedgerDice
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.settings import Settings
from tests.e2e.conftest import MARA_FILE, assert_refused, fingerprint, log_events, new_campaign

SHORTFALL = (
    "check",
    "Mara",
    "fight",
    "-d",
    "HARD",
    "--opposition",
    "2",
    "--action",
    "1,4,5",
    "--opposition-dice",
    "1,5",
    "--script",
    "4,2",
)
MARA_FIGHT_POOL = [{"source": "base dice of Fight", "dice": 2}, {"source": "Fight Mastery ⇧", "dice": 1}]
RETAKE_LOST = {
    "kind": "regained",
    "star": "Mara Voss",
    "pool": "retake",
    "amount": 1,
    "kept": 0,
    "to_ensemble": 0,
    "lost": 1,
}
FIGHT_XP = {"kind": "ability", "star": "Mara Voss", "ability": "fight", "xp": 1, "conditions": 0}


# ----------------------------------------------------------------------- helpers shared by the check tests


@contextmanager
def open_ledger(db: str, home: Path) -> Iterator[Ledger]:
    """The test's ledger through the library, with the same folders as the commands."""
    settings = Settings.load(
        db=db, environ={"SHOWRUNNER_DATA_DIR": str(home / "data"), "SHOWRUNNER_CONFIG_DIR": str(home / "config")}
    )
    ledger = bootstrap(settings, create=False)
    try:
        yield ledger
    finally:
        ledger.close()


def ledger_secrets(db: str, home: Path, branch: str = "main") -> tuple[bytes, UUID]:
    """The seed a branch rolls its ledger dice with now, and the branch's id, read with the
    library from the Director's key file (what a Star cannot do)."""
    with open_ledger(db, home) as ledger:
        ref = ledger.resolve("neon-harbor", branch)
        return ledger.keys.load(ref.campaign.id, ledger.view(ref).state.dice_commitment), ref.branch.id


def derived_rolls(
    seed: bytes, branch: UUID, roll_number: int, plan: list[tuple[str, int, int]], entropy: str
) -> list[dict[str, Any]]:
    """The ledger rolls a check must record: (purpose, count, sides) in the order the rules ask."""
    dice = LedgerDice(seed, branch, roll_number, entropy)
    return [
        {"purpose": purpose, "sides": sides, "faces": dice.roll(purpose, count, sides), "source": "ledger"}
        for purpose, count, sides in plan
    ]


def edit_stored_payload(db: str, version: int, topic: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change an event's stored JSON behind the ledger's back (SQLite), without re-hashing it."""
    conn = sqlite3.connect(db)
    try:
        with conn:
            rows = conn.execute(
                "SELECT originator_id, state FROM stored_events WHERE originator_version = ? AND topic = ?",
                (version, topic),
            ).fetchall()
            assert len(rows) == 1, rows
            branch, state = rows[0]
            doc = json.loads(state)
            change(doc["payload"])
            changed = conn.execute(
                "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (json.dumps(doc, separators=(",", ":")).encode(), branch, version),
            ).rowcount
            assert changed == 1
    finally:
        conn.close()


def sheet(run, star: str, **kw: Any) -> dict[str, Any]:
    result = run("sheet", star, "--json", **kw)
    assert result.code == 0, result
    return result.json()["star"]


def checked(run, *args: object, **kw: Any) -> dict[str, Any]:
    result = run(*args, "--json", **kw)
    assert result.code == 0, result
    assert result.err == ""
    return result.json()


@pytest.fixture
def cast(run) -> None:
    new_campaign(run)


# ----------------------------------------------------------------------- the rulebook's worked examples


def test_shortfall_example_with_the_real_script(cli) -> None:
    """5.2 Dice Shortfall: Action 1,4,5 against Opposition 1,5 leave a single 4: Result (4, 0)."""
    new_campaign(cli)
    result = cli(*SHORTFALL, "--json")
    assert result.code == 0, result
    doc = result.json()
    assert doc["events"] == [4] and doc["event"] == 4 and doc["type"] == "CheckRolled"
    assert (doc["dice"], doc["dice_commitment"], doc["roll_number"]) == ("table", None, 1)
    assert doc["action_pool"] == MARA_FIGHT_POOL
    assert doc["opposition_pool"] == [{"source": "the target's Power Die", "dice": 2}]
    assert (doc["action"], doc["opposition"], doc["script"]) == ([1, 4, 5], [1, 5], [4, 2])
    assert (doc["blocked"], doc["remaining"], doc["kept"]) == ([1, 5], [4], [4, 0])
    assert doc["difficulty"] == {"original": "HARD", "effective": "HARD", "progress": "HARD", "target": 4}
    assert (doc["outcome"], doc["outcome_label"]) == ("partial", "Partial Success")
    assert (doc["mark"], doc["mark_label"]) == ("hit", "Hit the Mark")
    assert doc["consequences_due"] == 1
    assert doc["effects"] == [
        RETAKE_LOST,
        FIGHT_XP,
        {"kind": "regained", "star": "Mara Voss", "pool": "grit", "amount": 1, "kept": 1, "to_ensemble": 0, "lost": 0},
    ]
    assert [s["kind"] for s in doc["steps"]] == [
        "rolled",
        "rolled",
        "rolled",
        "blocked",
        "kept",
        "judged",
        "rewarded",
        "rewarded",
        "rewarded",
    ]
    assert doc["steps"][3] == {"kind": "blocked", "text": "blocked Action Dice 1,5", "faces": [1, 5]}
    assert doc["summary"] == "Mara Voss rolled Fight at HARD: Partial Success, Hit the Mark (kept 4,0; table dice)"
    # The same check drawn for people: pools with provenance, struck dice, pair, outcome, event.
    shown = cli(*SHORTFALL)
    assert shown.code == 0, shown
    out = shown.out
    for line in (
        "base dice of Fight",
        "Fight Mastery ⇧",
        "the target's Power Die",
        "Action      1× 4 5×",
        "Opposition  1× 5×",
        "Script      4 2",
        "Blocked     1,5",
        "Kept        4 (the only Action Die left; the other counts as 0)",
        "Outcome     Partial Success against HARD (4+)",
        "Mark        Hit the Mark",
        "Consequences due: 1",
        "recorded as event #5 on main · table dice, roll #2",
    ):
        assert line in out, (line, out)
    assert sheet(cli, "Mara")["influence"]["grit"] == {"current": 4, "max": 4, "exhausted": 0}


def test_matching_doubles_example(run, cast) -> None:
    """5.2 Matching Doubles: Script (4, 4); Result (4, 2) Hits the Mark, (4, 4) is a Perfect Take."""
    base = ("check", "Mara", "fight", "-d", "HARD", "--action", "4,2,4", "--script", "4,4")
    hit = checked(run, *base, "--keep", "4,2")
    assert (hit["kept"], hit["outcome"], hit["mark"], hit["consequences_due"]) == ([4, 2], "partial", "hit", 1)
    assert hit["steps"][3] == {"kind": "kept", "text": "Mara Voss kept 4 and 2", "faces": [4, 2]}
    perfect = checked(run, *base, "--keep", "4,4", "--acclaim", "talent")
    assert (perfect["kept"], perfect["outcome"], perfect["mark"], perfect["consequences_due"]) == (
        [4, 4],
        "highlight",
        "perfect_take",
        0,
    )
    # A Highlight counts one step higher for progress; success is still judged against HARD.
    assert perfect["difficulty"] == {"original": "HARD", "effective": "HARD", "progress": "FORMIDABLE", "target": 4}
    assert perfect["effects"] == [
        RETAKE_LOST,
        FIGHT_XP,
        # Grit is full since the first check's Hit (3 -> 4), and so is the Ensemble's.
        {"kind": "regained", "star": "Mara Voss", "pool": "grit", "amount": 1, "kept": 0, "to_ensemble": 0, "lost": 1},
        {
            "kind": "regained",
            "star": "Mara Voss",
            "pool": "spotlight",
            "amount": 1,
            "kept": 1,
            "to_ensemble": 0,
            "lost": 0,
        },
        {"kind": "acclaim", "star": "Mara Voss", "path": "talent", "amount": 1},
    ]
    mara = sheet(run, "Mara")
    assert mara["acclaim"] == {"training": 2, "persistence": 0, "talent": 2, "destiny": 0}
    assert mara["influence"]["spotlight"] == {"current": 1, "max": 1, "exhausted": 0}
    assert mara["abilities"]["fight"]["xp"] == 3
    # Without --keep the default policy takes the best outcome, then the best mark.
    default = checked(run, *base)
    assert (default["kept"], default["outcome"], default["mark"]) == ([4, 4], "highlight", "perfect_take")
    assert default["steps"][3]["text"] == "kept 4 and 4 (the best outcome, then the best mark, then the highest sum)"


def test_exhaustion_example_via_push(run, cast, home: Path) -> None:
    """6.4: with 0 Grit, spending 4 Grit on a check exhausts four icons: the maximum drops from 4 to 0."""
    assert run("spend", "Mara", "grit", "-n", "3").code == 0
    args = ("check", "Mara", "fight", "-d", "HARD", "--grit", "4", "--action", "1,1,2,2,3,3,5", "--script", "6,6")
    before = fingerprint(run, home)
    assert_refused(
        run(*args, "--json"),
        1,
        "Mara Voss has 0 Grit and wants to spend 4; pass --push to Push Your Limits (exhausts 4 icons)",
    )
    assert fingerprint(run, home) == before
    doc = checked(run, *args, "--push")
    assert doc["action_pool"] == [*MARA_FIGHT_POOL, {"source": "Grit spent", "dice": 4}]
    assert doc["steps"][0] == {
        "kind": "spent",
        "text": "spent 4 Grit (4 by Pushing Their Limits): +4 Action Dice",
        "faces": [],
    }
    assert (doc["kept"], doc["outcome"], doc["mark"]) == ([5, 3], "partial", "bad_take")
    assert doc["effects"] == [
        {"kind": "spent", "star": "Mara Voss", "pool": "grit", "amount": 4, "from_pool": 0, "exhausted": 4},
        {"kind": "studio_notes", "amount": 1},
    ]
    assert sheet(run, "Mara")["influence"]["grit"] == {"current": 0, "max": 0, "exhausted": 4}


def test_hero_prop_lowers_the_difficulty_and_both_are_shown(run, cast) -> None:
    """Father's Rapier has its N milestone: a NORMAL check drops to EASY (2+); 1 Wear marked."""
    args = (
        "check",
        "Mara",
        "fight",
        "-d",
        "n",
        "--hero-prop",
        "father's rapier",
        "--action",
        "2,2,1",
        "--script",
        "5,6",
    )
    shown = run(*args)
    assert shown.code == 0, shown
    assert "Outcome     Highlight against EASY (2+), lowered from NORMAL; counts as HARD for progress" in shown.out
    doc = run("show", "4", "--json").json()["event"]["payload"]["resolution"]
    assert (doc["original_difficulty"], doc["effective_difficulty"], doc["progress_difficulty"]) == (
        "NORMAL",
        "EASY",
        "HARD",
    )
    assert doc["effects"][0] == {
        "kind": "wear",
        "star": "Mara Voss",
        "hero_prop": "Father's Rapier",
        "wear": 1,
        "overflow": 0,
    }
    rapier = sheet(run, "Mara")["hero_props"][0]
    assert (rapier["wear"], rapier["xp"]) == (3, 2)


def test_after_roll_spends_apply_in_the_documented_order(run, cast) -> None:
    """Retakes before Spotlights, whatever the order of the flags."""
    doc = checked(
        run,
        "check",
        "Tobias",
        "work",
        "-d",
        "HARD",
        "--specialty",
        "clockwork",
        "--opposition",
        "2",
        "--spotlight",
        "any",
        "--retake",
        "1",
        "--action",
        "1,4,4,5,6",
        "--opposition-dice",
        "4,6",
        "--script",
        "2,3",
        "--retake-dice",
        "6",
        "--spotlight-die",
        "1",
    )
    assert [s["kind"] for s in doc["steps"]] == [
        "rolled",
        "rolled",
        "rolled",
        "spent",
        "rerolled",
        "spent",
        "removed",
        "blocked",
        "kept",
        "judged",
        "rewarded",
    ]
    assert doc["steps"][4]["text"] == "Action Dice 1 re-rolled as 6"
    # Spotlight's 1 clears the Opposition Die blocking the highest Action Die: the 6.
    assert doc["steps"][6] == {"kind": "removed", "text": "Spotlight rolled 1: removed Opposition Dice 6", "faces": [6]}
    assert (doc["action"], doc["opposition"], doc["blocked"], doc["kept"]) == ([4, 4, 5, 6, 6], [4], [4], [6, 6])
    assert (doc["outcome"], doc["mark"]) == ("highlight", "bad_take")
    assert doc["request"]["after_roll"] == [{"kind": "retake", "faces": [1]}, {"kind": "spotlight", "faces": []}]
    tobias = sheet(run, "Tobias")["influence"]
    assert (tobias["retake"]["current"], tobias["spotlight"]["current"]) == (0, 0)


def test_masteries_duplicate_and_retake_opposition(run, cast, tmp_path: Path) -> None:
    star = tmp_path / "vera.toml"
    star.write_text(
        MARA_FILE.read_text().replace('name = "Mara Voss"', 'name = "Vera Quist"\nmasteries = ["grit", "retake"]')
    )
    assert run("star", "add", "--file", star).code == 0
    doc = checked(
        run,
        "check",
        "Vera",
        "fight",
        "-d",
        "FORMIDABLE",
        "--opposition",
        "1",
        "--retake-opposition",
        "5",
        "--duplicate",
        "5",
        "--action",
        "5,1,2",
        "--opposition-dice",
        "5",
        "--script",
        "3,3",
        "--opposition-retake-dice",
        "2",
    )
    # Duplicates first: the 5 is copied while the Opposition 5 still stands, then the Opposition 5 becomes a 2.
    assert [s["kind"] for s in doc["steps"][3:7]] == ["spent", "duplicated", "spent", "rerolled"]
    assert (doc["action"], doc["opposition"], doc["blocked"], doc["kept"]) == ([5, 1, 2, 5], [2], [2], [5, 5])
    assert (doc["outcome"], doc["mark"]) == ("highlight", "bad_take")


# ----------------------------------------------------------------------- ledger dice


def test_ledger_dice_are_fixed_by_the_seed_and_the_roll_number(run, cast, db: str, home: Path) -> None:
    seed, main_id = ledger_secrets(db, home)
    args = ("check", "Mara", "fight", "-d", "HARD", "--specialty", "Swords", "--opposition", "2")
    # A refused check takes no roll number: the next one is still roll #1.
    assert_refused(run(*args, "--grit", "9"), 1, "pass --push")
    first = checked(run, *args)
    assert (first["dice"], first["roll_number"], first["event"]) == ("ledger", 1, 4)
    commitment = hashlib.sha256(b"showrunner-ledger/dice-seed/v1\x00" + seed).hexdigest()
    assert first["dice_commitment"] == commitment
    plan = [("action", 5, 6), ("opposition", 2, 6), ("script", 2, 6)]
    assert first["rolls"] == derived_rolls(seed, main_id, 1, plan, first["dice_entropy"])
    second = checked(run, *args)
    assert second["roll_number"] == 2
    assert second["rolls"] == derived_rolls(seed, main_id, 2, plan, second["dice_entropy"])
    # A fork at #4 rolls its roll #2 from a seed and a branch id of its own.
    assert run("branch", "create", "what-if", "--at", "4").code == 0
    fork_seed, fork_id = ledger_secrets(db, home, "what-if")
    assert fork_seed != seed
    forked = checked(run, *args)
    assert forked["roll_number"] == 2
    assert forked["dice_commitment"] == hashlib.sha256(b"showrunner-ledger/dice-seed/v1\x00" + fork_seed).hexdigest()
    assert forked["rolls"] == derived_rolls(fork_seed, fork_id, 2, plan, forked["dice_entropy"])
    # Table dice in between take a roll number too.
    table = checked(run, *SHORTFALL)
    assert (table["roll_number"], table["dice"]) == (3, "table")


def test_the_event_payload_holds_the_whole_resolution(run, cast) -> None:
    doc = checked(run, *SHORTFALL, "--acclaim", "destiny")
    shown = run("show", "4", "--json").json()["event"]
    assert shown["type"] == "CheckRolled"
    payload = shown["payload"]
    assert set(payload) == {"resolution", "roll_number", "dice_commitment"}
    assert (payload["roll_number"], payload["dice_commitment"]) == (1, None)
    resolution = payload["resolution"]
    assert set(resolution) == set(Resolution.model_fields)
    assert Resolution.model_validate(resolution).model_dump(mode="json") == resolution
    assert resolution["request"] == {
        "star": "Mara Voss",
        "ability": "fight",
        "difficulty": "HARD",
        "specialties": [],
        "scars": [],
        "opposition": 2,
        "opposition_source": "the target's Power Die",
        "actor_specialty": False,
        "actor_scar": False,
        "studio_note": False,
        "grit": 0,
        "props": [],
        "preparation": 0,
        "plot_armor": False,
        "hero_prop": None,
        "power_alone": False,
        "spotlight_steps": 0,
        "after_roll": [],
        "keep": None,
        "acclaim_path": "destiny",
        "push": False,
    }
    assert resolution["rolls"] == [
        {"purpose": "action", "sides": 6, "faces": [1, 4, 5], "source": "table"},
        {"purpose": "opposition", "sides": 6, "faces": [1, 5], "source": "table"},
        {"purpose": "script", "sides": 6, "faces": [4, 2], "source": "table"},
    ]
    for key in (
        "action_pool",
        "opposition_pool",
        "steps",
        "effects",
        "action",
        "opposition",
        "script",
        "blocked",
        "remaining",
        "kept",
    ):
        assert resolution[key] == doc[key], key
    assert (resolution["outcome"], resolution["mark"], resolution["consequences_due"]) == ("partial", "hit", 1)
    assert resolution["engine"] == "showrunner-check/1"


def test_a_star_records_their_own_check(run, cast) -> None:
    doc = checked(run, "--as", "mara", *SHORTFALL)
    assert doc["event"] == 4
    assert [(e["version"], e["type"], e["recorded_by"], e["stars"]) for e in log_events(run)[3:]] == [
        (4, "CheckRolled", "Mara Voss", ["Mara Voss"]),
    ]


# ----------------------------------------------------------------------- refused, with nothing written


TABLE = ("--action", "1,4,5", "--script", "4,2")
MARA_HARD = ("check", "Mara", "fight", "-d", "HARD")


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (
            ("check", "Nobody", "fight", "-d", "H"),
            1,
            ("unknown Star 'Nobody' (Stars in this campaign: Mara Voss, Tobias Quell)",),
        ),
        (("check", "Mara", "fght", "-d", "H"), 2, ("unknown Ability 'fght' (Abilities: channel, endure, fight,",)),
        (
            (*MARA_HARD, "--specialty", "Axes"),
            1,
            ("Mara Voss has no Specialty 'Axes' under Fight (Specialty names there: Swords, Disarming)",),
        ),
        (
            (*MARA_HARD, "--scar", "Bad Knee"),
            1,
            ("Mara Voss has no Scar 'Bad Knee' under Fight (Scar names there: Broken Arm)",),
        ),
        ((*MARA_HARD, "--specialty", "Broken Arm"), 1, ("has no Specialty 'Broken Arm' under Fight",)),
        ((*MARA_HARD, "--hero-prop", "Lute"), 1, ("Mara Voss has no Hero Prop 'Lute' (Hero Props: Father's Rapier)",)),
        (
            ("check", "Mara", "fight", "-d", "X"),
            2,
            ("--difficulty: 'X' is not on the Difficulty ladder: EASY, NORMAL,", "GODLIKE"),
        ),
        (("check", "Mara", "fight", "-d", "HARDER"), 2, ("--difficulty: 'HARDER' is not on the Difficulty ladder",)),
        (("check", "Mara", "fight"), 2, ("Missing option '--difficulty'",)),
        (
            ("check", "Mara", "fight", "-d", "EASY"),
            1,
            ("a check's Difficulty is never set to EASY, only reduced to it (NORMAL is the lowest)",),
        ),
        (
            ("check", "Mara", "fight", "-d", "L"),
            1,
            ("a single Ability Check cannot be LEGENDARY: above EPIC it is a Set Piece and needs an Action Sequence",),
        ),
        (("check", "Mara", "fight", "-d", "godlike"), 1, ("cannot be GODLIKE",)),
        ((*MARA_HARD, "--action", "1,4,7", "--script", "4,2"), 1, ("--action: 7 is not a d6 face (1-6)",)),
        ((*MARA_HARD, *TABLE, "--opposition-dice", "0"), 1, ("--opposition-dice: 0 is not a d6 face (1-6)",)),
        (
            (*MARA_HARD, "--action", "1,x,5", "--script", "4,2"),
            2,
            ("--action: 'x' is not a die face (write faces like 1,4,5)",),
        ),
        (
            (*MARA_HARD, "--action", "1,4", "--script", "4,2"),
            1,
            ("the roll needs 3 action dice but 2 were given (--action)",),
        ),
        (
            (*MARA_HARD, "--action", "1,4,5,6", "--script", "4,2"),
            1,
            ("4 action faces were given but the roll used 3 (--action)",),
        ),
        ((*MARA_HARD, "--action", "1,4,5"), 1, ("the roll needs 2 script dice but 0 were given (--script)",)),
        (
            (*MARA_HARD, *TABLE, "--opposition", "2", "--opposition-dice", "1"),
            1,
            ("the roll needs 2 opposition dice but 1 was given (--opposition-dice)",),
        ),
        (
            (*MARA_HARD, *TABLE, "--actor-specialty"),
            1,
            ("the roll needs 1 actor specialty die but 0 were given (--actor-specialty-die)",),
        ),
        ((*MARA_HARD, *TABLE, "--retake", "4"), 1, ("the roll needs 1 retake die but 0 were given (--retake-dice)",)),
        ((*MARA_HARD, *SHORTFALL[5:], "--keep", "5,4"), 1, ("cannot keep 5,4: the dice left after blocking are 4,0",)),
        ((*MARA_HARD, *TABLE, "--keep", "4"), 2, ("--keep takes two faces, like 5,4 (got '4')",)),
        ((*MARA_HARD, *TABLE, "--keep", "4,9"), 2, ("--keep: 9 is not a die face",)),
        (
            (*MARA_HARD, *TABLE, "--grit", "5"),
            1,
            ("Mara Voss has 2 Grit and wants to spend 5; pass --push to Push Your Limits (exhausts 3 icons)",),
        ),
        (
            (*MARA_HARD, *TABLE, "--spotlight", "any"),
            1,
            ("Mara Voss has 0 Spotlight and wants to spend 1; pass --push",),
        ),
        ((*MARA_HARD, *TABLE, "--studio-note"), 1, ("the Director has no Studio Note to spend",)),
        (
            ("--as", "Mara Voss", "check", "Tobias", "work", "-d", "H"),
            1,
            ("Mara Voss cannot record for Tobias Quell: only Tobias Quell or the Director can",),
        ),
        (("--as", "Mara Voss", *MARA_HARD, "--studio-note"), 1, ("only the Director spends Studio Notes (drop --as)",)),
        ((*MARA_HARD, *TABLE, "--duplicate", "4"), 1, ("Mara Voss needs Grit Mastery to duplicate a die with Grit",)),
        (
            (*MARA_HARD, *TABLE, "--retake-opposition", "4"),
            1,
            ("Mara Voss needs Retake Mastery to re-roll Opposition Dice",),
        ),
        (
            (*MARA_HARD, *TABLE, "--retake", "6"),
            1,
            ("there is no Action Die showing 6 to re-roll (Action Dice: 1,4,5)",),
        ),
        ((*MARA_HARD, *TABLE, "--retake", ","), 2, ("--retake needs the faces of the dice, like 1,2",)),
        (
            (*MARA_HARD, *TABLE, "--spotlight"),
            2,
            ("--spotlight needs the faces of the dice, like 6,5 (or 'any'), before the next option --json",),
        ),
        (
            (*MARA_HARD, *TABLE, "--retake", "--no-input"),
            2,
            ("--retake needs the faces of the dice, like 6,5, before the next option --no-input",),
        ),
        (
            (*MARA_HARD, *TABLE, "--spotlight-steps", "1"),
            1,
            ("Mara Voss needs Spotlight Mastery to lower a Difficulty with Spotlight",),
        ),
        ((*MARA_HARD, *TABLE, "--prop", "Gold"), 2, ("--prop: 'Gold' is not a Prop Type (Junk, Goods,",)),
        ((*MARA_HARD, *TABLE, "--prop", "Money:X"), 2, ("--prop: 'X' is not a Quality",)),
        ((*MARA_HARD, *TABLE, "--prop", "Weapons"), 1, ("Mara Voss has 0 NORMAL Weapons Props and wants to spend 1",)),
        ((*MARA_HARD, *TABLE, "--acclaim", "fame"), 2, ("--acclaim: 'fame' is not a Career Path",)),
        ((*MARA_HARD, *TABLE, "--opposition", "-1"), 2, ("--opposition",)),
        (("-b", "nope", *MARA_HARD), 1, ("has no branch 'nope'",)),
    ],
)
def test_check_bad_input(run, played, home: Path, args: tuple[str, ...], code: int, needles: tuple[str, ...]) -> None:
    """On the standard campaign (tests/e2e/conftest.py `play`): Mara has 2 Grit, 0 Spotlight by then."""
    before = fingerprint(run, home)
    assert_refused(run(*args, "--json"), code, *needles)
    assert fingerprint(run, home) == before


# ----------------------------------------------------------------------- both backends


def test_checks_on_each_backend(run, db_url: str, home: Path) -> None:
    new_campaign(run, db=db_url)
    table = checked(run, *SHORTFALL, db=db_url)
    assert (table["event"], table["kept"], table["outcome"], table["dice"]) == (4, [4, 0], "partial", "table")
    ledger = checked(run, "check", "Tobias", "work", "-d", "F", "--specialty", "Clockwork", db=db_url)
    assert (ledger["event"], ledger["roll_number"], ledger["dice"]) == (5, 2, "ledger")
    # No Opposition Dice: the ledger rolls 5 Action Dice and the 2 Script Dice only.
    assert [(r["purpose"], len(r["faces"])) for r in ledger["rolls"]] == [("action", 5), ("script", 2)]
    before = fingerprint(run, home, db=db_url)
    assert_refused(run(*MARA_HARD, *TABLE, "--grit", "5", db=db_url), 1, "pass --push")
    assert_refused(run(*MARA_HARD, "--action", "1,4", "--script", "4,2", db=db_url), 1, "(--action)")
    assert fingerprint(run, home, db=db_url) == before
    assert [(e["version"], e["type"]) for e in log_events(run, db=db_url)[3:]] == [
        (4, "CheckRolled"),
        (5, "CheckRolled"),
    ]
    assert run("verify", db=db_url).code == 0


def test_a_hero_props_power_on_its_own_succeeds_without_a_roll(run, cast) -> None:
    """8.2: up to its Difficulty milestone (N for Father's Rapier) the Power alone succeeds."""
    done = run(
        "check", "Mara", "fight", "-d", "N", "--hero-prop", "Father's Rapier", "--power-alone", "--no-input", "--json"
    )
    assert done.code == 0, done
    doc = done.json()
    assert (doc["outcome"], doc["mark"], doc["action"], doc["script"]) == ("success", "not_rolled", [], [0, 0])
    assert sheet(run, "Mara")["hero_props"][0]["wear"] == 3
    # Above the milestone it must be rolled; the Wear is now full as well: refused, nothing written.
    refused = run("check", "Mara", "fight", "-d", "H", "--hero-prop", "Father's Rapier", "--power-alone", "--no-input")
    assert refused.code == 1 and len(refused.err.strip().splitlines()) == 1


def test_grit_after_the_roll_adds_an_action_die(run, cast) -> None:
    doc = run(
        "check",
        "Mara",
        "fight",
        "-d",
        "H",
        "-s",
        "Swords",
        "-o",
        "2",
        "--grit-after",
        "1",
        "--action",
        "1,4,5,6,2",
        "--opposition-dice",
        "1,5",
        "--script",
        "3,3",
        "--grit-dice",
        "6",
        "--json",
    ).json()
    assert doc["action"] == [1, 4, 5, 6, 2, 6]
    assert (doc["kept"], doc["outcome"]) == ([6, 6], "highlight")
    assert sheet(run, "Mara")["influence"]["grit"]["current"] == 2  # 3, 1 spent after the roll
