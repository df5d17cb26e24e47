"""The database itself as input: who may read the file, what a read may create, and files that are
no ledger (damaged pages, not SQLite at all, another program's tables), each refused in one line
with the file left exactly as it was.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import _drop_schema, postgres_url_or_skip

from .conftest import Runner, assert_refused, new_campaign, play

READS = [
    ("log",),
    ("log", "--json"),
    ("sheet", "Mara"),
    ("star", "list"),
    ("branch", "list"),
    ("head", "--json"),
    ("replay", "--to", "1"),
    ("recap",),
    ("timeline",),
    ("export", "--output", "-"),
    ("dice", "stats"),
    ("seed", "show"),
    ("verify",),
    ("cast",),
    ("episode", "list"),
]
"""Commands that only read (`campaign list` apart: it has an answer for an empty database)."""


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------------ permissions


def test_a_new_ledger_file_and_its_journal_are_readable_by_the_owner_alone(run: Runner, db: str, home: Path) -> None:
    file = Path(db)
    new_campaign(run)
    assert mode(file) == 0o600
    keys = home / "data" / "keys"
    assert mode(keys) == 0o700 and [mode(k) for k in keys.iterdir()] == [0o600]
    # SQLite makes the -wal and -shm files as the first connection opens the file: hold one
    # open, write through the ledger, and look at them while they exist.
    held = sqlite3.connect(db)
    try:
        held.execute("SELECT count(*) FROM stored_events").fetchone()
        assert run("note", "--private", "The harbourmaster is the informant").code == 0
        for suffix in ("-wal", "-shm"):
            companion = Path(db + suffix)
            assert companion.exists(), suffix
            assert mode(companion) == 0o600, suffix
    finally:
        held.close()


def test_a_ledger_in_a_folder_that_does_not_exist_yet(run: Runner, tmp_path: Path) -> None:
    file = tmp_path / "new" / "place" / "table.sqlite"
    assert run("campaign", "new", "Neon Harbor", db=str(file)).code == 0
    assert mode(file) == 0o600
    assert mode(file.parent) == 0o700


# ------------------------------------------------------------------ reads create nothing


def test_reads_on_a_missing_file_create_nothing(run: Runner, db: str) -> None:
    for args in READS:
        assert_refused(run(*args), 2, f"there is no ledger at {db}", "campaign new")
    listed = run("campaign", "list")
    assert listed.code == 0 and "No campaigns yet" in listed.err
    assert run("campaign", "list", "--json").json()["campaigns"] == []
    assert not list(Path(db).parent.glob(Path(db).name + "*"))


@pytest.mark.parametrize("empty", ["a file of no bytes", "a SQLite database without tables"])
def test_reads_on_an_empty_database_create_no_table(run: Runner, db: str, empty: str) -> None:
    file = Path(db)
    if empty == "a file of no bytes":
        file.touch()
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA user_version = 7")  # a real header, and no table
        conn.close()
    before = digest(file)
    for args in READS:
        assert_refused(run(*args), 2, f"there is no ledger at {db} (the file holds no ledger yet)")
    assert_refused(run("note", "hello"), 2, "no ledger")
    assert run("campaign", "list", "--json").json()["campaigns"] == []
    assert digest(file) == before
    with sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []
    conn.close()
    # Creating a campaign is what makes it a ledger.
    new_campaign(run)
    assert run("head", "--json").json()["version"] == 3


def test_reads_on_a_database_of_other_tables_add_none(run: Runner, db: str) -> None:
    """A SQLite file holding only tables of other names is no ledger yet: a read leaves it alone."""
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE invoices (number INTEGER PRIMARY KEY, total REAL)")
        conn.execute("INSERT INTO invoices VALUES (1, 9.5)")
    conn.close()
    before = digest(Path(db))
    for args in READS:
        assert_refused(run(*args), 2, "the file holds no ledger yet")
    assert digest(Path(db)) == before


@pytest.fixture
def empty_schema() -> Iterator[tuple[str, str, str]]:
    """A PostgreSQL URL whose schema does not exist yet: (url, base url, schema)."""
    base = postgres_url_or_skip()
    schema = "files_" + uuid.uuid4().hex[:12]
    yield f"{base}?schema={schema}", base, schema
    _drop_schema(base, schema)


def schema_tables(base: str, schema: str) -> list[str] | None:
    """The tables in the schema; None when the schema does not exist."""
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        if (
            conn.execute("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (schema,)).fetchone()
            is None
        ):
            return None
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,)
        ).fetchall()
        return sorted(r[0] for r in rows)


@pytest.mark.postgres
def test_reads_on_an_empty_postgresql_schema_create_nothing(run: Runner, empty_schema: tuple[str, str, str]) -> None:
    url, base, schema = empty_schema
    for args in READS:
        assert_refused(run(*args, db=url), 2, "there is no ledger in postgresql://", "campaign new")
    assert run("campaign", "list", "--json", db=url).json()["campaigns"] == []
    assert schema_tables(base, schema) is None  # not even the schema
    new_campaign(run, db=url)
    assert run("head", "--json", db=url).json()["version"] == 3


# ------------------------------------------------------------------ files that are no ledger


@pytest.fixture
def ledger_file(run: Runner, db: str) -> Path:
    """A real ledger, closed: the standard campaign of eight events and a few dozen more notes."""
    play(run)
    for n in range(40):
        assert run("note", f"Scene {n}: the tide comes in over the Customs House steps, again and again").code == 0
    return Path(db)


SOME_COMMANDS = [
    ("log",),
    ("sheet", "Mara"),
    ("replay", "--to", "8", "--json"),
    ("export", "--output", "-"),
    ("verify",),
    ("note", "one more"),
    ("spend", "Mara", "grit"),
    ("campaign", "new", "Another Show"),
]
"""Reads and writes alike: each must be refused, and none may change the file."""


def key_files(file: Path) -> list[str]:
    keys = file.parent / "home" / "data" / "keys"
    return sorted(p.name for p in keys.glob("*")) if keys.exists() else []


def refused_without_a_change(run: Runner, file: Path, code: int, *needles: str, commands=SOME_COMMANDS) -> None:
    """Each command refused in one line naming the file; the file, and the Director's keys, as they were."""
    before, keys = digest(file), key_files(file)
    for args in commands:
        line = assert_refused(run(*args), code, *needles)
        assert str(file) in line, line
    assert digest(file) == before
    assert key_files(file) == keys


def test_a_file_with_damaged_pages(run: Runner, ledger_file: Path) -> None:
    data = bytearray(ledger_file.read_bytes())
    page = 4096
    pages = len(data) // page
    assert pages >= 8, pages  # a ledger big enough to have a middle
    noise = random.Random(11)
    for n in range(pages // 3, 2 * pages // 3):  # the middle third: the log's own pages
        data[n * page : (n + 1) * page] = noise.randbytes(page)
    ledger_file.write_bytes(bytes(data))
    refused_without_a_change(run, ledger_file, 1, "is damaged", "restore it from a backup")


def test_a_write_is_refused_even_where_it_touches_no_damaged_page(run: Runner, ledger_file: Path) -> None:
    """The snapshots table's root page damaged: a new campaign neither reads nor writes it, and is refused all the same."""
    data = bytearray(ledger_file.read_bytes())
    page = 4096
    with sqlite3.connect(f"{ledger_file.resolve().as_uri()}?mode=ro", uri=True) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'stored_snapshots'").fetchone()[0]
    conn.close()
    data[(root - 1) * page : root * page] = b"\xff" * page
    ledger_file.write_bytes(bytes(data))
    refused_without_a_change(
        run, ledger_file, 1, "is damaged", commands=[("campaign", "new", "Another Show"), ("note", "one more")]
    )


@pytest.mark.parametrize(
    "content",
    [
        b"Just some notes about the campaign\n" * 40,
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8,
        b"\x00" * 4096,
        b"SQLite format 2\x00" + b"\x00" * 2000,
    ],
)
def test_a_file_that_is_not_sqlite(run: Runner, db: str, content: bytes) -> None:
    file = Path(db)
    file.write_bytes(content)
    refused_without_a_change(run, file, 2, "is not a SQLite database", "pass another --db")


def test_a_sqlite_file_cut_short(run: Runner, ledger_file: Path) -> None:
    ledger_file.write_bytes(ledger_file.read_bytes()[:1500])  # the header and part of page 1
    refused_without_a_change(run, ledger_file, 1, "is damaged")


@pytest.mark.parametrize(
    "tables",
    [
        [
            "CREATE TABLE stored_events (id INTEGER PRIMARY KEY, body TEXT)",
            "INSERT INTO stored_events (body) VALUES ('an order of 12 lanterns')",
        ],
        [
            "CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB)",
            "INSERT INTO stored_events VALUES ('order-1', 1, 'shop.OrderPlaced', x'7b7d')",
        ],
        [
            "CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB)",
            "CREATE TABLE stored_snapshots (originator_id TEXT, originator_version INTEGER, kind TEXT)",
        ],
    ],
    ids=["stored_events of other columns", "stored_events without snapshots", "stored_snapshots of other columns"],
)
def test_another_programs_sqlite_database(run: Runner, db: str, tables: list[str]) -> None:
    with sqlite3.connect(db) as conn:
        for statement in tables:
            conn.execute(statement)
    conn.close()
    refused_without_a_change(
        run,
        Path(db),
        2,
        "another program's SQLite database",
        "pass another --db",
        commands=[*SOME_COMMANDS, ("campaign", "list")],
    )


@pytest.mark.postgres
def test_another_programs_table_on_postgresql(run: Runner, empty_schema: tuple[str, str, str]) -> None:
    import psycopg
    from psycopg import sql

    url, base, schema = empty_schema
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        conn.execute(
            sql.SQL("CREATE TABLE {}.showrunnerledger_events (id serial PRIMARY KEY, body text)").format(
                sql.Identifier(schema)
            )
        )
        conn.execute(
            sql.SQL("INSERT INTO {}.showrunnerledger_events (body) VALUES ('an order')").format(sql.Identifier(schema))
        )
    for args in [*SOME_COMMANDS, ("campaign", "list")]:
        assert_refused(run(*args, db=url), 2, "belongs to another program", "pass another --db")
    assert schema_tables(base, schema) == ["showrunnerledger_events"]
    with psycopg.connect(base, autocommit=True) as conn:
        rows = conn.execute(
            sql.SQL("SELECT id, body FROM {}.showrunnerledger_events").format(sql.Identifier(schema))
        ).fetchall()
    assert rows == [(1, "an order")]


def test_the_real_script_names_a_damaged_file(cli: Runner, run: Runner, ledger_file: Path) -> None:
    data = bytearray(ledger_file.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 3 * 4096] = random.Random(5).randbytes(3 * 4096)
    ledger_file.write_bytes(bytes(data))
    before = digest(ledger_file)
    # A read names the file, or the event whose bytes the damage hit; a write checks every page first.
    read = assert_refused(cli("log"), 1)
    assert "is damaged" in read or "cannot be read" in read
    assert_refused(cli("note", "one more"), 1, "is damaged")
    assert digest(ledger_file) == before


def test_verify_names_a_damaged_page_no_event_read_touches(run: Runner, ledger_file: Path) -> None:
    """The snapshots table's root page damaged: `log` still reads, `verify` and `verify --all` say the file is damaged."""
    data = bytearray(ledger_file.read_bytes())
    page = 4096
    with sqlite3.connect(f"{ledger_file.resolve().as_uri()}?mode=ro", uri=True) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'stored_snapshots'").fetchone()[0]
    conn.close()
    data[(root - 1) * page : root * page] = b"\xff" * page
    ledger_file.write_bytes(bytes(data))
    before = digest(ledger_file)
    assert run("log").code == 0
    for args in (("verify",), ("verify", "--all")):
        failed = run(*args)
        assert failed.code == 1 and "Traceback" not in failed.err, failed
        assert any("is damaged" in line and str(ledger_file) in line for line in failed.err_lines), failed.err
    doc = run("verify", "--all", "--json")
    assert doc.code == 1 and doc.json()["storage"]["problem"]["scope"] == "storage"
    assert digest(ledger_file) == before
