"""The database key store: the Director's seeds sealed in the ledger database, for several machines."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.errors import LedgerError, SettingsError
from showrunner_ledger.ledger.key_store import TABLE, DatabaseKeyStore, key_id
from showrunner_ledger.ledger.persistence import database_recorder
from showrunner_ledger.ledger.seeds import FileKeyStore, commitment
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.settings import Settings
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import example_star, make_settings

CHECK = CheckRequest(star="Mara", ability="fight", difficulty="HARD", specialties=("Swords",), opposition=4)


COLUMNS = ("campaign_id", "position", "commitment", "key_id", "nonce", "sealed")


def new_key() -> str:
    return base64.b64encode(secrets.token_bytes(32)).decode()


def machine(db_url: str, home: Path, key: str | None, **extra: str) -> Settings:
    env = {"SHOWRUNNER_KEY_STORE": "database", **({"SHOWRUNNER_KEY_ENCRYPTION_KEY": key} if key else {}), **extra}
    return make_settings(db_url, home, **env)


def play(ledger: Ledger, title: str = "Shared Keys") -> BranchRef:
    ref = ledger.resolve(ledger.create_campaign(Pitch(title=title)))
    ledger.add_character(ref, example_star())
    return ref


def rows(ledger: Ledger) -> list[tuple[object, ...]]:
    """Every cell of the key table, as the database holds it."""
    database = database_recorder(ledger.app.recorder)
    datastore = database.datastore
    name = TABLE if "sqlite" in type(datastore).__name__.lower() else f'"{datastore.schema}"."{TABLE}"'  # type: ignore[union-attr]
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(f"SELECT * FROM {name} ORDER BY campaign_id, position")  # noqa: S608 - the test's own table name
        return [tuple(row[k] for k in COLUMNS) for row in cursor.fetchall()]


@pytest.fixture
def key() -> str:
    return new_key()


@pytest.fixture
def director(db_url: str, tmp_path: Path, key: str) -> Iterator[Ledger]:
    instance = bootstrap(machine(db_url, tmp_path / "one", key))
    yield instance
    instance.close()


def test_two_machines_over_one_database_both_roll_ledger_dice(db_url, tmp_path, key, director):
    assert isinstance(director.keys, DatabaseKeyStore)
    ref = play(director)
    other = bootstrap(machine(db_url, tmp_path / "two", key))  # another data directory: no key files
    try:
        there = other.resolve(ref.campaign.name)
        assert other.keys.holds(ref.campaign.id)
        other.run(there, "ability-check", CHECK)
        director.run(ref, "ability-check", CHECK)
        fork = other.create_branch(there, "elsewhere")  # a new seed for the fork, added from the second machine
        other.run(fork, "ability-check", CHECK)
        assert director.keys.load(ref.campaign.id) == other.keys.load(ref.campaign.id)
        assert (
            verify_branch(director, ref).ok
            and verify_branch(director, director.resolve(ref.campaign.name, "elsewhere")).ok
        )
    finally:
        other.close()
    assert not (tmp_path / "one" / "data" / "keys").exists() and not (tmp_path / "two" / "data" / "keys").exists()


def test_the_table_never_holds_a_seed_in_the_clear(director):
    ref = play(director)
    director.reveal_seed(ref)  # two seeds now
    seeds = [
        director.keys.load(ref.campaign.id),
        director.keys.load(ref.campaign.id, director.view(ref).state.dice_commitment),
    ]
    assert seeds[0] != seeds[1]
    table = rows(director)
    assert len(table) == 2
    cells = b"|".join(bytes(c) if isinstance(c, (bytes, memoryview)) else str(c).encode() for row in table for c in row)
    for seed in seeds:
        assert seed not in cells and seed.hex().encode() not in cells
        assert commitment(seed).encode() in cells  # public anyway: it is in the log from event #1


def test_a_wrong_encryption_key_gives_one_clear_line(db_url, tmp_path, director):
    ref = play(director)
    wrong = bootstrap(machine(db_url, tmp_path / "two", new_key()))
    try:
        with pytest.raises(LedgerError) as refused:
            wrong.run(wrong.resolve(ref.campaign.name), "ability-check", CHECK)
        message = str(refused.value)
        assert "\n" not in message and "another key" in message and "showrunner keys rotate" in message
    finally:
        wrong.close()
    with pytest.raises(SettingsError, match="32 bytes"):
        bootstrap(machine(db_url, tmp_path / "three", base64.b64encode(b"short").decode())).keys.load(ref.campaign.id)
    keyless = bootstrap(machine(db_url, tmp_path / "four", None))
    try:
        assert not keyless.keys.holds(ref.campaign.id)  # a Star's device: it asks the Director's machine to roll
        with pytest.raises(SettingsError, match="SHOWRUNNER_KEY_ENCRYPTION_KEY"):
            keyless.keys.load(ref.campaign.id)
    finally:
        keyless.close()


def test_a_tampered_ciphertext_is_refused(director):
    ref = play(director)
    database = database_recorder(director.app.recorder)
    postgres = "sqlite" not in type(database.datastore).__name__.lower()
    table = f'"{database.datastore.schema}"."{TABLE}"' if postgres else TABLE  # type: ignore[union-attr]
    mark = "%s" if postgres else "?"
    with database.datastore.transaction(commit=True) as cursor:
        cursor.execute(f"SELECT sealed FROM {table}")  # noqa: S608 - the test's own table name
        sealed = bytearray(cursor.fetchone()["sealed"])
        sealed[0] ^= 1  # one bit of the ciphertext
        cursor.execute(f"UPDATE {table} SET sealed = {mark}", (bytes(sealed),))  # noqa: S608
    with pytest.raises(LedgerError, match="does not open: it was changed in the database"):
        director.run(ref, "ability-check", CHECK)
    assert director.head(ref).version == 2  # nothing written


def test_rotation_keeps_every_seed_readable_and_the_old_key_stops_working(db_url, tmp_path, key, director):
    refs = [play(director, title) for title in ("First Table", "Second Table")]
    director.reveal_seed(refs[0])
    before = {r.campaign.id: director.keys.load(r.campaign.id) for r in refs}
    fresh = new_key()
    rotated = bootstrap(machine(db_url, tmp_path / "two", fresh))
    try:
        assert isinstance(rotated.keys, DatabaseKeyStore)
        assert rotated.keys.rotate(key) == (3, 2)
        assert rotated.keys.rotate(key) == (0, 0)  # run again: nothing left under the old key
        assert {r.campaign.id: rotated.keys.load(r.campaign.id) for r in refs} == before
        assert {row[3] for row in rows(rotated)} == {key_id(base64.b64decode(fresh))}
        rotated.run(rotated.resolve(refs[1].campaign.name), "ability-check", CHECK)
    finally:
        rotated.close()
    with pytest.raises(LedgerError, match="another key"):
        director.keys.load(refs[0].campaign.id)


def test_a_rotation_with_the_wrong_old_key_changes_nothing(db_url, tmp_path, director):
    play(director)
    before = rows(director)
    rotated = bootstrap(machine(db_url, tmp_path / "two", new_key()))
    try:
        assert isinstance(rotated.keys, DatabaseKeyStore)
        with pytest.raises(LedgerError, match="another key"):
            rotated.keys.rotate(new_key())
    finally:
        rotated.close()
    assert rows(director) == before


def test_key_files_move_into_the_database_store(db_url, tmp_path, key):
    files_home = tmp_path / "director"
    on_files = bootstrap(make_settings(db_url, files_home))
    ref = play(on_files)
    on_files.create_branch(ref, "fork")  # a second seed in the file
    file_store = on_files.keys
    assert isinstance(file_store, FileKeyStore)
    seeds = file_store.seeds(ref.campaign.id)
    on_files.close()
    farm = bootstrap(machine(db_url, files_home, key))
    try:
        assert isinstance(farm.keys, DatabaseKeyStore)
        assert farm.keys.take_in(file_store, file_store.campaigns()) == (1, 0)
        assert farm.keys.take_in(file_store, file_store.campaigns()) == (0, 1)  # again: nothing copied twice
        assert [farm.keys.load(ref.campaign.id, commitment(s)) for s in seeds] == seeds
        farm.run(farm.resolve(ref.campaign.name, "fork"), "ability-check", CHECK)
    finally:
        farm.close()
