"""`seed move-to-database` and `seed rekey`: the database key store from the command line."""

from __future__ import annotations

import base64
import secrets

from tests.e2e.conftest import new_campaign


def new_key() -> str:
    return base64.b64encode(secrets.token_bytes(32)).decode()


def test_key_files_move_into_the_database_and_are_rekeyed(cli):
    new_campaign(cli)
    first, second = new_key(), new_key()
    farm = {"SHOWRUNNER_KEY_STORE": "database", "SHOWRUNNER_KEY_ENCRYPTION_KEY": first}

    moved = cli("seed", "move-to-database", "--json", env=farm)
    assert moved.code == 0, moved
    assert (moved.json()["copied"], moved.json()["already"]) == (1, 0)
    again = cli("seed", "move-to-database", "--json", env=farm)
    assert (again.json()["copied"], again.json()["already"]) == (0, 1)

    # Another machine, without the key files, rolls ledger dice from the database store.
    rolled = cli(
        "check", "Mara", "fight", "--difficulty", "HARD", "--json", env={**farm, "SHOWRUNNER_DATA_DIR": "elsewhere"}
    )
    assert rolled.code == 0, rolled

    rekeyed = cli(
        "seed",
        "rekey",
        "--json",
        env={**farm, "SHOWRUNNER_KEY_ENCRYPTION_KEY": second, "SHOWRUNNER_KEY_ENCRYPTION_KEY_OLD": first},
    )
    assert rekeyed.code == 0, rekeyed
    assert (rekeyed.json()["resealed"], rekeyed.json()["campaigns"]) == (1, 1)
    old = cli("check", "Mara", "fight", "--difficulty", "HARD", env={**farm, "SHOWRUNNER_DATA_DIR": "elsewhere"})
    assert old.code == 1 and len(old.err_lines) == 1 and "another key" in old.err, old
    now = cli(
        "check",
        "Mara",
        "fight",
        "--difficulty",
        "HARD",
        env={**farm, "SHOWRUNNER_KEY_ENCRYPTION_KEY": second, "SHOWRUNNER_DATA_DIR": "elsewhere"},
    )
    assert now.code == 0, now


def test_key_store_commands_refuse_in_one_line(cli):
    new_campaign(cli)
    on_files = cli("seed", "rekey")
    assert on_files.code == 1 and on_files.err_lines == [
        "showrunner: the seeds are kept in key files here: set SHOWRUNNER_KEY_STORE=database (or key_store in config.toml)"
    ], on_files
    farm = {"SHOWRUNNER_KEY_STORE": "database", "SHOWRUNNER_KEY_ENCRYPTION_KEY": new_key()}
    assert cli("seed", "move-to-database", env=farm).code == 0
    wrong_old = cli(
        "seed",
        "rekey",
        env={**farm, "SHOWRUNNER_KEY_ENCRYPTION_KEY": new_key(), "SHOWRUNNER_KEY_ENCRYPTION_KEY_OLD": new_key()},
    )
    assert wrong_old.code == 1 and len(wrong_old.err_lines) == 1 and "another key" in wrong_old.err, wrong_old
    no_old = cli("seed", "rekey", env=farm)
    assert no_old.code == 2 and len(no_old.err_lines) == 1 and "SHOWRUNNER_KEY_ENCRYPTION_KEY_OLD" in no_old.err, no_old
    bad_store = cli("campaign", "list", env={"SHOWRUNNER_KEY_STORE": "vault"})
    assert bad_store.code == 2 and len(bad_store.err_lines) == 1 and "key_store must be" in bad_store.err, bad_store
