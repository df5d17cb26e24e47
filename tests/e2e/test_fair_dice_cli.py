"""Dice v2 at the command line: a CLI per player over one database (SQLite and PostgreSQL), the
real console script on the Star's device and on the Director's, and entropy typed or refused.

The Star's device is another data folder: it has no Director key file, as a player's laptop has not.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import _drop_schema, postgres_url_or_skip
from tests.e2e.conftest import Run, Runner, assert_refused, new_campaign

CHECK = ("check", "Mara", "fight", "-d", "HARD", "--opposition", "1")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "table.sqlite")
        return
    base = postgres_url_or_skip()
    schema = "fair_" + uuid.uuid4().hex[:12]
    yield f"{base}?schema={schema}"
    _drop_schema(base, schema)


def star_device(tmp_path: Path) -> dict[str, str]:
    device = tmp_path / "maras-laptop"
    (device / "data").mkdir(parents=True, exist_ok=True)
    (device / "config").mkdir(exist_ok=True)
    return {"SHOWRUNNER_DATA_DIR": str(device / "data"), "SHOWRUNNER_CONFIG_DIR": str(device / "config")}


def test_a_player_asks_from_their_own_device_and_the_director_rolls_it(
    cli: Runner, shared_db: str, tmp_path: Path
) -> None:
    new_campaign(cli, db=shared_db)
    mara = star_device(tmp_path)

    def as_mara(*args: object) -> Run:
        return cli("--campaign", "neon-harbor", "--as", "Mara", *args, db=shared_db, env=mara)

    asked = as_mara(*CHECK, "--json")
    assert asked.code == 3, asked
    assert asked.err_lines == [
        "showrunner: Mara Voss's roll is asked for (event #4); the Director's machine rolls it: showrunner dice resolve"
    ]
    request = asked.json()["asked_for"]
    assert (request["event"], request["by"], request["command"]) == (4, "Mara Voss", "ability-check")
    assert re.fullmatch(r"[0-9a-f]{32}", request["entropy"])  # made on Mara's device

    # The table waits for that roll: the Director's other commands and the Star's are refused.
    assert_refused(cli("note", "meanwhile", db=shared_db), 1, "asked for and not yet rolled")
    assert_refused(as_mara("spend", "Mara", "grit"), 1, "asked for and not yet rolled")
    assert_refused(as_mara("dice", "resolve"), 1, "only the Director's machine")
    pending = cli("dice", "pending", "--json", db=shared_db).json()["pending"]
    assert pending == {k: request[k] for k in ("event", "by", "command", "entropy")} | {"input": request["input"]}
    told = cli("dice", "pending", db=shared_db).out.splitlines()
    assert told[0].startswith('#4 Mara Voss asked for a roll: ability-check {"star": "Mara Voss", "ability": "fight"')
    assert '"grit"' not in told[0]  # the flags not given are left out; --json has them
    assert told[1].strip() == f"entropy {request['entropy']}"

    rolled = cli("dice", "resolve", "--json", db=shared_db)
    assert rolled.code == 0, rolled
    (fact,) = rolled.json()["facts"]
    assert (fact["event"], fact["type"]) == (5, "CheckRolled")
    assert fact["fact"]["dice_entropy"] == request["entropy"]
    assert cli("dice", "pending", "--json", db=shared_db).json()["pending"] is None
    shown = cli("show", "5", "--json", db=shared_db).json()["event"]
    assert shown["recorded_by"] == "Mara Voss"

    assert cli("verify", db=shared_db).code == 0
    assert cli("seed", "reveal", db=shared_db).code == 0
    proved = cli("audit", "--all", "--verify-dice", "--json", db=shared_db)
    assert proved.code == 0, proved
    (audit,) = proved.json()["audits"]
    assert audit["dice"]["status"] == "verified"
    assert (audit["dice"]["derivation"], audit["dice"]["entropy"]) == ("v2", request["entropy"])

    # Asked again, then withdrawn by Mara: nothing is rolled, the table goes on.
    assert as_mara(*CHECK).code == 3
    withdrawn = as_mara("dice", "withdraw", "--json")
    assert withdrawn.code == 0, withdrawn
    assert withdrawn.json()["facts"][0]["type"] == "RollRequestWithdrawn"
    assert cli("note", "the table goes on", db=shared_db).code == 0
    assert cli("verify", db=shared_db).code == 0


def test_entropy_typed_with_the_command_is_recorded_and_proves(run: Runner) -> None:
    new_campaign(run)
    typed = run("--entropy", "  the gull laughs twice  ", *CHECK, "--json")
    assert typed.code == 0, typed
    assert typed.json()["dice_entropy"] == "the gull laughs twice"
    assert run("seed", "reveal").code == 0
    audit = run("audit", "4", "--verify-dice", "--json").json()["audit"]
    assert (audit["dice"]["status"], audit["dice"]["entropy"]) == ("verified", "the gull laughs twice")
    shown = run("audit", "4")
    assert "(roll #1, dice v2)" in shown.out and "entropy given for the roll: the gull laughs twice" in shown.out


@pytest.mark.parametrize(
    ("entropy", "words"),
    [
        ("short", "entropy must be at least 8 characters (got 5)"),
        ("x" * 201, "entropy must be at most 200 characters"),
        ("tab\there!", "entropy must be printable text"),
    ],
)
def test_unusable_entropy_is_refused_and_nothing_is_written(run: Runner, entropy: str, words: str) -> None:
    new_campaign(run)
    before = run("head", "--json").json()
    assert_refused(run("--entropy", entropy, *CHECK), 1, words)
    assert run("head", "--json").json() == before


def test_asking_for_entropy_needs_a_terminal(run: Runner) -> None:
    new_campaign(run)
    before = run("head", "--json").json()
    assert_refused(run("--ask-entropy", *CHECK), 2, "--ask-entropy needs a terminal")
    assert run("head", "--json").json() == before


def test_nothing_to_resolve_or_withdraw_is_said_plainly(run: Runner) -> None:
    new_campaign(run)
    assert_refused(run("dice", "resolve"), 1, "no roll is asked for on branch 'main'")
    assert_refused(run("dice", "withdraw"), 1, "no roll is asked for on branch 'main'")
    shown = run("dice", "pending")
    assert shown.code == 0 and shown.out.strip() == "No roll is waiting on neon-harbor/main."
