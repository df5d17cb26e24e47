"""`showrunner seed reveal` and `seed show`: the dice seed's commitment, and opening it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import HEX64, assert_refused, fingerprint, log_events, new_campaign
from tests.e2e.test_check_cli import SHORTFALL, checked

TAG = b"showrunner-ledger/dice-seed/v1\x00"


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(TAG + bytes.fromhex(seed_hex)).hexdigest()


def key_lines(home: Path) -> list[str]:
    (key_file,) = (home / "data" / "keys").glob("*.seed")
    return key_file.read_text().split()


def first_commitment(run, **kw: Any) -> str:
    return run("show", "1", "--json", **kw).json()["event"]["payload"]["dice_commitment"]


@pytest.fixture
def cast(run) -> None:
    new_campaign(run)


def test_reveal_records_the_seed_and_commits_a_new_one(run, cast, home: Path) -> None:
    (secret,) = key_lines(home)
    committed = first_commitment(run)
    assert commitment(secret) == committed
    assert run("check", "Mara", "fight", "-d", "H").code == 0  # #4, a ledger roll with the first seed
    result = run("seed", "reveal", "--json")
    assert result.code == 0 and result.err == "", result
    doc = result.json()
    fresh = key_lines(home)[1]
    assert doc == {
        "campaign": "neon-harbor",
        "branch": "main",
        "events": [5, 6],
        "revealed": {"event": 5, "commitment": committed, "seed": secret},
        "committed": {"event": 6, "commitment": commitment(fresh)},
    }
    assert fresh != secret and key_lines(home) == [secret, fresh]
    assert [(e["version"], e["type"], e["recorded_by"], e["visibility"]) for e in log_events(run)[4:]] == [
        (5, "SeedRevealed", "director", "public"),
        (6, "SeedCommitted", "director", "public"),
    ]
    # A Star sees the revealed seed: that is the point of revealing it.
    star_view = run("--as", "Mara Voss", "show", "5", "--json").json()["event"]["payload"]
    assert star_view == {"seed": secret, "commitment": committed}
    # Ledger dice from now on come from the new seed.
    assert checked(run, "check", "Mara", "fight", "-d", "H")["dice_commitment"] == commitment(fresh)


def test_reveal_for_people(run, cast, home: Path) -> None:
    (secret,) = key_lines(home)
    result = run("seed", "reveal")
    assert result.code == 0, result
    fresh = key_lines(home)[1]
    assert result.out.splitlines() == [
        f"#4 revealed the seed committed as {commitment(secret)}",
        f"    seed {secret}",
        f"#5 committed a new seed: {commitment(fresh)}",
        "Every ledger roll made with the revealed seed can now be proven: showrunner audit --all --verify-dice",
    ]


def test_seed_show_before_and_after_reveals(run, cast, home: Path) -> None:
    first = first_commitment(run)
    assert run(*SHORTFALL).code == 0  # #4, table dice: no seed used
    assert run("check", "Mara", "fight", "-d", "H").code == 0  # #5
    assert run("check", "Tobias", "work", "-d", "H").code == 0  # #6
    before = run("seed", "show", "--json").json()
    assert before == {
        "campaign": "neon-harbor",
        "branch": "main",
        "current": first,
        "seeds": [
            {"commitment": first, "committed_at": 1, "rolls": 2, "v1": 0, "v2": 2, "revealed_at": None, "seed": None}
        ],
    }
    assert run("seed", "reveal").code == 0  # #7, #8
    assert run("check", "Mara", "fight", "-d", "H").code == 0  # #9 with the second seed
    assert run("seed", "reveal").code == 0  # #10, #11
    secrets = key_lines(home)
    assert len(secrets) == 3
    after = run("--as", "Tobias Quell", "seed", "show", "--json").json()
    assert after["current"] == commitment(secrets[2])
    assert after["seeds"] == [
        {"commitment": first, "committed_at": 1, "rolls": 2, "v1": 0, "v2": 2, "revealed_at": 7, "seed": secrets[0]},
        {
            "commitment": commitment(secrets[1]),
            "committed_at": 8,
            **{"rolls": 1, "v1": 0, "v2": 1, "revealed_at": 10, "seed": secrets[1]},
        },
        {
            "commitment": commitment(secrets[2]),
            "committed_at": 11,
            **{"rolls": 0, "v1": 0, "v2": 0, "revealed_at": None, "seed": None},
        },
    ]
    shown = run("seed", "show")
    assert shown.code == 0, shown
    assert shown.out.splitlines()[0] == f"Current commitment: {commitment(secrets[2])}"
    assert "secret (Director's key file)" in shown.out and "not yet" in shown.out


def test_only_the_director_reveals(run, cast, home: Path) -> None:
    before = fingerprint(run, home)
    keys = key_lines(home)
    assert_refused(
        run("--as", "Mara Voss", "seed", "reveal", "--json"),
        1,
        "only the Director can reveal the dice seed (drop --as)",
    )
    assert_refused(run("--as", "Nobody", "seed", "reveal"), 1, "only the Director can reveal the dice seed")
    assert fingerprint(run, home) == before and key_lines(home) == keys


def test_reveal_without_the_key_file_is_refused(run, cast, home: Path) -> None:
    (key_file,) = (home / "data" / "keys").glob("*.seed")
    key_file.unlink()
    before = fingerprint(run, home)
    line = assert_refused(run("seed", "reveal"), 1, "the Director key file", "is missing")
    assert str(key_file) in line
    assert fingerprint(run, home) == before


def test_seed_commands_on_each_backend(run, db_url: str, home: Path) -> None:
    new_campaign(run, db=db_url)
    assert run("check", "Mara", "fight", "-d", "H", db=db_url).code == 0
    doc = run("seed", "reveal", "--json", db=db_url).json()
    assert doc["events"] == [5, 6]
    assert HEX64.match(doc["revealed"]["seed"]) and HEX64.match(doc["committed"]["commitment"])
    assert commitment(doc["revealed"]["seed"]) == doc["revealed"]["commitment"] == first_commitment(run, db=db_url)
    shown = run("seed", "show", "--json", db=db_url).json()
    assert shown["current"] == doc["committed"]["commitment"]
    assert [(s["committed_at"], s["rolls"], s["revealed_at"]) for s in shown["seeds"]] == [(1, 1, 5), (6, 0, None)]
