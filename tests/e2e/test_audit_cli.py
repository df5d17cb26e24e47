"""`showrunner audit`: re-judging recorded checks, and proving or flagging their dice."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.domain.showrunner.check import Abandoned, CheckRequest, View
from tests.e2e.conftest import assert_refused, fingerprint, new_campaign
from tests.e2e.test_check_cli import SHORTFALL, checked, derived_rolls, edit_stored_payload, ledger_secrets, open_ledger

LEDGER_CHECK = ("check", "Mara", "fight", "-d", "HARD", "--opposition", "1")


@pytest.fixture
def cast(run) -> None:
    new_campaign(run)


def audited(run, *args: object, code: int = 0, **kw: Any) -> dict[str, Any]:
    result = run("audit", *args, "--json", **kw)
    assert result.code == code, result
    if code == 0:
        assert result.err == ""
    else:
        assert len(result.err_lines) == 1 and result.err.startswith("showrunner: audit"), result.err
    return result.json()


class _WalkAway:
    def choose(self, view: View) -> tuple[int, int]:
        raise Abandoned()


def abandon(db: str, home: Path, grit: int = 0) -> int:
    """A Star who saw the ledger dice and walked away: the CheckAbandoned's event number."""
    with open_ledger(db, home) as ledger:
        ref = ledger.resolve("neon-harbor")
        request = CheckRequest(star="Mara Voss", ability="fight", difficulty="HARD", opposition=1, grit=grit)
        result = ledger.run(ref, "ability-check", request, chooser=_WalkAway())
    (event,) = result.events
    assert event.type_name == "CheckAbandoned"
    return event.version


# ----------------------------------------------------------------------- a clean check


def test_a_clean_check_matches_as_of_the_event_before(run, cast) -> None:
    assert run(*SHORTFALL).code == 0  # #4: Hit the Mark with Retake full: the Retake is lost
    assert run("spend", "Mara", "retake").code == 0  # #5: now the same Hit would keep it
    doc = audited(run, "4")
    assert doc["ok"] is True and doc["failures"] == []
    audit = doc["audit"]
    assert (audit["event"], audit["type"], audit["as_of"], audit["star"], audit["ability"], audit["difficulty"]) == (
        4,
        "CheckRolled",
        3,
        "Mara Voss",
        "fight",
        "HARD",
    )
    assert (audit["matches"], audit["problem"], audit["roll_number"]) == (True, None, 1)
    assert audit["dice"] == {
        "source": "table",
        "status": "table",
        "commitment": None,
        "derivation": None,
        "entropy": None,
        "proofs": [],
    }
    assert audit["recorded"] == {"outcome": "partial", "mark": "hit", "kept": [4, 0], "effective_difficulty": "HARD"}
    rejudged = audit["rejudged"]
    assert rejudged["action_pool"] == [
        {"source": "base dice of Fight", "dice": 2},
        {"source": "Fight Mastery ⇧", "dice": 1},
    ]
    assert (rejudged["blocked"], rejudged["kept"], rejudged["outcome"], rejudged["mark"]) == (
        [1, 5],
        [4, 0],
        "partial",
        "hit",
    )
    assert rejudged["effects"][0] == {
        "kind": "regained",
        "star": "Mara Voss",
        "pool": "retake",
        "amount": 1,
        "kept": 0,
        "to_ensemble": 0,
        "lost": 1,
    }
    shown = run("audit", "4")
    assert shown.code == 0 and shown.err == "", shown
    for line in (
        "Audit of #4 · Mara Voss · Fight at HARD",
        "Pools from the sheet as of #3; steps and effects re-judged",
        "base dice of Fight",
        "Kept        4 (the only Action Die left; the other counts as 0)",
        "Outcome     Partial Success against HARD (4+)",
        "blocked Action Dice 1,5",
        "regained 0 Retake, 1 lost: Hit the Mark",
        "Mara Voss: +1 XP in Fight",
        "MATCHES the record: every die, block, pair, outcome, mark and effect re-judged the same",
        "Dice (roll #1): table dice: typed in from physical dice, cannot be proven, only flagged",
    ):
        assert line in shown.out, (line, shown.out)
    # Table dice are flagged, never counted as proven, and are no ledger roll to prove.
    assert audited(run, "4", "--verify-dice")["ok"] is True
    # A Star may audit a public check.
    assert audited(run, "4", env={"SHOWRUNNER_AS": "Tobias Quell"})["audit"]["matches"] is True


def test_audit_bad_input(run, cast, home: Path) -> None:
    assert run(*SHORTFALL).code == 0
    before = fingerprint(run, home)
    assert_refused(run("audit", "--json"), 2, "give a check's event number, or --all (not both)")
    assert_refused(run("audit", "4", "--all"), 2, "give a check's event number, or --all (not both)")
    assert_refused(
        run("audit", "2"), 1, "event #2 is a StarJoined, not a roll; `showrunner audit --all` lists the rolls"
    )
    assert_refused(run("audit", "9"), 1, "branch 'main' has events #1 to #4; there is no event #9")
    assert_refused(run("audit", "0"), 2, "Invalid value for 'version': 0 is not in the range x>=1")
    assert_refused(run("audit", "four"), 2, "Invalid value for 'version': 'four' is not a valid int")
    assert fingerprint(run, home) == before


# ----------------------------------------------------------------------- tampering


def test_an_edited_outcome_is_a_mismatch_even_though_verify_fails_too(run, cast, db: str) -> None:
    assert run(*SHORTFALL).code == 0

    def claim_success(payload: dict[str, Any]) -> None:
        assert payload["resolution"]["outcome"] == "partial"
        payload["resolution"]["outcome"] = "success"

    edit_stored_payload(db, 4, "showrunner/CheckRolled", claim_success)
    verify = run("verify")
    assert verify.code == 1
    assert "event #4 (showrunner/CheckRolled) does not match its hash: its content was changed" in verify.err
    problem = "the outcome differs: recorded success, re-judged partial"
    result = run("audit", "4")
    assert result.code == 1
    assert result.err == f"showrunner: audit of #4 FAILED: #4 does not match the record: {problem}\n"
    assert f"MISMATCH with the record: {problem}" in result.out
    doc = audited(run, "4", code=1)
    assert doc["ok"] is False
    assert (doc["audit"]["matches"], doc["audit"]["problem"]) == (False, problem)
    assert doc["audit"]["recorded"]["outcome"] == "success" and doc["audit"]["rejudged"]["outcome"] == "partial"
    everything = audited(run, "--all", code=1)
    assert (everything["rolls"], everything["mismatches"], everything["failures"]) == (
        1,
        [4],
        [f"#4 does not match the record: {problem}"],
    )


def _ledger_check_with_two_script_faces(run) -> dict[str, Any]:
    """Ledger checks until one's Script Dice differ (5 in 6 do): swapping them changes no judgement."""
    for _ in range(40):
        doc = checked(run, *LEDGER_CHECK)
        if doc["script"][0] != doc["script"][1]:
            return doc
    raise AssertionError("40 ledger checks all rolled Script doubles")


def test_a_forged_ledger_face_is_a_dice_mismatch(run, cast, db: str, home: Path) -> None:
    doc = _ledger_check_with_two_script_faces(run)
    version, (a, b) = doc["event"], doc["script"]
    assert run("seed", "reveal").code == 0
    assert audited(run, version, "--verify-dice")["audit"]["dice"]["status"] == "verified"

    def swap_the_script_dice(payload: dict[str, Any]) -> None:
        resolution = payload["resolution"]
        resolution["script"] = [b, a]
        (script_roll,) = [r for r in resolution["rolls"] if r["purpose"] == "script"]
        script_roll["faces"] = [b, a]

    edit_stored_payload(db, version, "showrunner/CheckRolled", swap_the_script_dice)
    result = run("audit", str(version), "--json")
    assert result.code == 1
    expected = f"#{version} dice MISMATCH: script dice recorded {b},{a}, derived from the seed {a},{b}"
    assert result.err == f"showrunner: audit of #{version} FAILED: {expected}\n"
    audit = result.json()["audit"]
    # The order of Script Dice decides nothing, so the check's own re-judgement still matches; the
    # command decided again tells its steps (which name the dice as rolled) from the edited record.
    assert audit["matches"] is False
    assert audit["problem"] == (
        "deciding 'ability-check' again gives another 'resolution.steps.2.faces.0' in its fact 1 (CheckRolled)"
    )
    assert audit["dice"]["status"] == "mismatch"
    assert [(p["purpose"], p["ok"]) for p in audit["dice"]["proofs"]] == [
        ("action", True),
        ("opposition", True),
        ("script", False),
    ]
    assert audit["dice"]["proofs"][2] == {"purpose": "script", "recorded": [b, a], "derived": [a, b], "ok": False}
    shown = run("audit", str(version))
    assert "Dice (roll #" in shown.out and "ledger dice: MISMATCH with the revealed seed" in shown.out
    assert f"script dice recorded {b},{a}, derived from the seed {a},{b}" in shown.out
    everything = audited(run, "--all", code=1)
    assert everything["mismatches"] == [version] and everything["dice"]["mismatch"] == 1


# ----------------------------------------------------------------------- proving ledger dice


def test_seed_reveal_then_every_ledger_roll_is_proven(run, db_url: str, home: Path) -> None:
    new_campaign(run, db=db_url)
    seed, main_id = ledger_secrets(db_url, home)  # the seed main rolls with until it is revealed
    assert run(*SHORTFALL, db=db_url).code == 0  # #4 table dice
    assert run(*LEDGER_CHECK, db=db_url).code == 0  # #5 ledger roll #2
    assert run("check", "Tobias", "work", "-d", "H", db=db_url).code == 0  # #6 ledger roll #3
    before = audited(run, "--all", db=db_url)
    assert (before["ok"], before["rolls"], before["unproven"]) == (True, 3, [5, 6])
    assert before["dice"] == {"table": 1, "unrevealed": 2, "verified": 0, "mismatch": 0}
    # --verify-dice: a ledger roll whose seed is still secret cannot be proven.
    result = run("audit", "--all", "--verify-dice", db=db_url)
    assert result.code == 1
    assert result.err == (
        "showrunner: audit FAILED: 2 ledger roll(s) not provable; "
        "first: #5 ledger roll #2 cannot be proven: its seed is not revealed\n"
    )
    assert "Not provable yet (--verify-dice): #5, #6" in result.out
    single = audited(run, "5", "--verify-dice", code=1, db=db_url)
    assert single["failures"] == ["#5 ledger roll #2 cannot be proven: its seed is not revealed"]

    assert run("seed", "reveal", db=db_url).code == 0  # #7 SeedRevealed, #8 SeedCommitted
    after = audited(run, "--all", "--verify-dice", db=db_url)
    assert (after["ok"], after["unproven"], after["mismatches"]) == (True, [], [])
    assert after["dice"] == {"table": 1, "unrevealed": 0, "verified": 2, "mismatch": 0}
    for audit, roll_number in zip(after["audits"][1:], (2, 3), strict=True):
        proofs = audit["dice"]["proofs"]
        assert all(p["ok"] and p["recorded"] == p["derived"] for p in proofs)
        plan = [(r["purpose"], len(r["faces"]), r["sides"]) for r in audit["rejudged"]["rolls"]]
        entropy = audit["dice"]["entropy"]
        assert audit["dice"]["derivation"] == "v2" and entropy is not None
        derived = derived_rolls(seed, main_id, roll_number, plan, entropy)
        assert [p["derived"] for p in proofs] == [r["faces"] for r in derived]
    assert [a["dice"]["status"] for a in after["audits"]] == ["table", "verified", "verified"]
    shown = run("audit", "--all", "--verify-dice", db=db_url)
    assert shown.code == 0, shown
    assert re.search(
        r"│ +4 │ Mara Voss +│ Mara Voss rolled Fight at HARD: Partial Success, Hit the Mark .+│ MATCHES +│ table +│",
        shown.out,
    ), shown.out
    assert re.search(
        r"│ +6 │ Tobias Quell +│ Tobias Quell rolled Work at HARD: .+│ MATCHES +│ ledger: verified +│", shown.out
    ), shown.out
    assert "Dice: 2 verified, 0 not provable yet (seed not revealed), 1 table (flagged), 0 MISMATCH." in shown.out
    assert "OK: every roll MATCHES the record and every ledger roll is proven." in shown.out
    # A roll after the reveal uses the new seed: not provable until the next reveal.
    assert run(*LEDGER_CHECK, db=db_url).code == 0  # #9
    assert audited(run, "--all", db=db_url)["ok"] is True
    assert audited(run, "--all", "--verify-dice", code=1, db=db_url)["unproven"] == [9]


def test_a_fork_reveals_its_own_seed_not_its_parents(run, cast) -> None:
    on_main, on_fork = {"SHOWRUNNER_BRANCH": "main"}, {"SHOWRUNNER_BRANCH": "arc-two"}
    first = checked(run, *LEDGER_CHECK)  # #4, main's ledger roll #1
    assert run("branch", "create", "arc-two").code == 0  # #5 BranchForked, with a seed of its own
    forked = checked(run, *LEDGER_CHECK, env=on_fork)  # #6, the fork's roll #2
    assert forked["dice_commitment"] not in (None, first["dice_commitment"])
    assert run("seed", "reveal", env=on_fork).code == 0  # #7, #8 on the fork only
    fork_audit = audited(run, "--all", "--verify-dice", code=1, env=on_fork)
    assert fork_audit["branch"] == "arc-two"
    # The inherited #4 was rolled with main's seed, which the fork's reveal does not expose.
    assert [(a["event"], a["dice"]["status"]) for a in fork_audit["audits"]] == [(4, "unrevealed"), (6, "verified")]
    assert (fork_audit["unproven"], fork_audit["mismatches"]) == ([4], [])
    assert audited(run, "4", "--verify-dice", code=1, env=on_main)["audit"]["dice"]["status"] == "unrevealed"
    assert run("seed", "reveal", env=on_main).code == 0
    main_audit = audited(run, "4", "--verify-dice", env=on_main)["audit"]
    assert main_audit["dice"]["status"] == "verified"
    assert [p["recorded"] for p in main_audit["dice"]["proofs"]] == [r["faces"] for r in first["rolls"]]


def test_an_abandoned_check_is_audited_and_its_dice_proven(run, cast, db: str, home: Path) -> None:
    seed, main_id = ledger_secrets(db, home)
    version = abandon(db, home)
    assert version == 4
    doc = audited(run, "4")
    audit = doc["audit"]
    assert (audit["type"], audit["star"], audit["roll_number"], audit["matches"], audit["problem"]) == (
        "CheckAbandoned",
        "Mara Voss",
        1,
        True,
        None,
    )
    assert audit["recorded"] is None and audit["rejudged"] is None and audit["effects"] == []
    assert [(r["purpose"], len(r["faces"])) for r in audit["rolls"]] == [
        ("action", 3),
        ("opposition", 1),
        ("script", 2),
    ]
    assert audit["dice"]["status"] == "unrevealed"
    # The abandoned roll took roll #1: the next check is roll #2.
    assert checked(run, *LEDGER_CHECK)["roll_number"] == 2
    assert run("seed", "reveal").code == 0
    proven = audited(run, "4", "--verify-dice")["audit"]
    assert proven["dice"]["status"] == "verified"
    plan = [("action", 3, 6), ("opposition", 1, 6), ("script", 2, 6)]
    derived = derived_rolls(seed, main_id, 1, plan, proven["dice"]["entropy"])
    assert [p["derived"] for p in proven["dice"]["proofs"]] == [r["faces"] for r in derived]
    assert proven["rolls"] == derived
    shown = run("audit", "4")
    assert "Audit of #4 · CheckAbandoned" in shown.out
    assert "MATCHES the record: the engine asks for exactly the recorded rolls before the choice" in shown.out
    table = run("audit", "--all")
    assert re.search(
        r"│ +4 │ Mara Voss +│ Mara Voss abandoned a Fight check after the roll +│ MATCHES +│ ledger: verified +│",
        table.out,
    ), table.out


def test_a_forged_abandoned_roll_is_a_mismatch(run, cast, db: str, home: Path) -> None:
    version = abandon(db, home, grit=1)  # 1 Grit spent before the roll: 4 Action Dice
    spent = {"kind": "spent", "star": "Mara Voss", "pool": "grit", "amount": 1, "from_pool": 1, "exhausted": 0}
    assert audited(run, str(version))["audit"]["effects"] == [spent]
    # What was spent before walking away stays spent.
    assert run("sheet", "Mara", "--json").json()["star"]["influence"]["grit"]["current"] == 2
    assert run("seed", "reveal").code == 0
    faces: list[int] = []

    def another_first_face(payload: dict[str, Any]) -> None:
        faces.extend(payload["rolls"][0]["faces"])
        payload["rolls"][0]["faces"][0] = faces[0] % 6 + 1

    edit_stored_payload(db, version, "showrunner/CheckAbandoned", another_first_face)
    audit = audited(run, str(version), code=1)["audit"]
    forged = [faces[0] % 6 + 1, *faces[1:]]
    assert (audit["matches"], audit["dice"]["status"]) == (True, "mismatch")
    assert audit["dice"]["proofs"][0] == {"purpose": "action", "recorded": forged, "derived": faces, "ok": False}

    def one_die_more(payload: dict[str, Any]) -> None:
        payload["rolls"][0]["faces"].append(6)

    edit_stored_payload(db, version, "showrunner/CheckAbandoned", one_die_more)
    audit = audited(run, str(version), code=1)["audit"]
    # The engine asks for 4 Action Dice; the forged record holds 5.
    assert (audit["matches"], audit["problem"]) == (
        False,
        "the current engine refuses the recorded check: the engine asks for 4 action d6 but the record has 5 action d6",
    )

    def nothing_spent(payload: dict[str, Any]) -> None:
        payload["rolls"][0]["faces"].pop()
        payload["effects"] = []

    edit_stored_payload(db, version, "showrunner/CheckAbandoned", nothing_spent)
    audit = audited(run, str(version), code=1)["audit"]
    assert (audit["matches"], audit["problem"]) == (
        False,
        "the effects differ: recorded 0 effects, re-judged 1 effects",
    )
