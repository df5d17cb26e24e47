"""`showrunner campaign new/list/use`, the global options, and the error edge."""

from __future__ import annotations

import stat
import uuid
from pathlib import Path

import pytest

from tests.e2e.conftest import HEX64, assert_refused, fingerprint, new_campaign


def test_campaign_new_list_use_with_the_real_script(cli, home: Path) -> None:
    created = cli(
        "campaign", "new", "Neon Harbor", "--high-concept", "Heists in a drowned city", "--sfx-budget", "3", "--json"
    )
    assert created.code == 0, created
    assert created.err == ""
    doc = created.json()
    assert set(doc) == {"campaign", "branch", "head", "key_file"}
    assert doc["campaign"]["name"] == "neon-harbor"
    assert doc["campaign"]["title"] == "Neon Harbor"
    assert doc["campaign"]["ruleset"] == "showrunner"
    campaign_id = uuid.UUID(doc["campaign"]["id"])
    assert doc["branch"] == "main"
    assert doc["head"]["version"] == 1
    assert HEX64.match(doc["head"]["hash"])
    # The seed stays in an owner-only key file in the data folder, named by the campaign id.
    key_file = Path(doc["key_file"])
    assert key_file == home / "data" / "keys" / f"{campaign_id}.seed"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600

    # Human output: the message on stdout, the key file hint on stderr.
    side = cli("campaign", "new", "Side Show", "--name", "side")
    assert side.code == 0, side
    assert side.out == "Created campaign side (Side Show) on branch main.\n"
    assert "Director key file (keep it private):" in side.err
    assert str(home / "data" / "keys") in side.err

    # `campaign new` made "side" current.
    listed = cli("campaign", "list", "--json")
    assert listed.code == 0, listed
    assert [(c["name"], c["title"], c["current"]) for c in listed.json()["campaigns"]] == [
        ("neon-harbor", "Neon Harbor", False),
        ("side", "Side Show", True),
    ]

    used = cli("campaign", "use", "neon-harbor")
    assert used.code == 0, used
    assert used.out == "Now using campaign neon-harbor (Neon Harbor).\n"
    table = cli("campaign", "list")
    assert table.code == 0, table
    rows = {
        line.split("│")[2].strip(): line.split("│")[1].strip()
        for line in table.out.splitlines()
        if line.startswith("│")
    }
    assert rows == {"neon-harbor": "*", "side": ""}
    assert campaign_id.hex[:8] in table.out


def test_campaign_list_empty(run) -> None:
    assert run("campaign", "list", "--json").json() == {"page": 1, "pages": 1, "total": 0, "campaigns": []}
    human = run("campaign", "list")
    assert human.code == 0
    assert human.out == ""  # no table of nothing on stdout
    assert "No campaigns yet" in human.err


def test_campaign_json_documents(run) -> None:
    new = run("campaign", "new", "Neon Harbor", "--json").json()
    entry = new["campaign"]
    used = run("campaign", "use", entry["id"][:8], "--json")  # an id prefix names a campaign too
    assert used.code == 0
    assert used.json() == {"campaign": entry}
    assert run("campaign", "list", "--json").json() == {
        "page": 1,
        "pages": 1,
        "total": 1,
        "campaigns": [{**entry, "current": True}],
    }


def test_current_campaign_is_remembered_per_database(run, tmp_path: Path) -> None:
    other = str(tmp_path / "other.sqlite")
    run("campaign", "new", "Neon Harbor")
    run("campaign", "new", "Side Show", db=other)
    assert run("head", "--json").json()["campaign"] == "neon-harbor"
    assert run("head", "--json", db=other).json()["campaign"] == "side-show"
    # SHOWRUNNER_DB works like --db.
    assert run("head", "--json", db=None, env={"SHOWRUNNER_DB": other}).json()["campaign"] == "side-show"


def test_campaign_new_with_an_existing_name_is_refused(run, home: Path) -> None:
    run("campaign", "new", "Neon Harbor")
    before = fingerprint(run, home)
    assert len(before["keys"]) == 1
    assert_refused(
        run("campaign", "new", "Neon Harbor", "--json"), 1, "a campaign named 'neon-harbor' already exists", "--name"
    )
    assert_refused(run("campaign", "new", "Another Title", "--name", "neon-harbor"), 1, "already exists")
    # Nothing written: no new campaign, no new event, no stray key file.
    assert fingerprint(run, home) == before


@pytest.mark.parametrize("name", ["Neon Harbor", "-lead", "x" * 41, "ümlaut"])
def test_campaign_new_with_an_invalid_name_is_a_usage_error(run, home: Path, name: str) -> None:
    before = fingerprint(run, home)
    assert_refused(run("campaign", "new", "Neon Harbor", "--name", name), 2, f"'{name}' is not a valid campaign name")
    assert fingerprint(run, home) == before


def test_campaign_new_with_an_unknown_ruleset_is_refused(run, home: Path) -> None:
    before = fingerprint(run, home)
    assert_refused(run("campaign", "new", "Neon Harbor", "--ruleset", "d20"), 1, "unknown ruleset 'd20'", "showrunner")
    assert_refused(run("campaign", "new", "Neon Harbor", "--sfx-budget", "-1"), 2, "--sfx-budget")
    assert fingerprint(run, home) == before


def test_unknown_campaign(run, home: Path) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    assert_refused(run("campaign", "use", "nope"), 1, "no campaign named 'nope' (campaigns: neon-harbor)")
    assert_refused(run("--campaign", "nope", "log", "--json"), 1, "no campaign named 'nope'")
    assert_refused(run("-c", "nope", "spend", "Mara", "grit"), 1, "no campaign named 'nope'")
    assert_refused(run("log", env={"SHOWRUNNER_CAMPAIGN": "nope"}), 1, "no campaign named 'nope'")
    assert fingerprint(run, home) == before
    # The remembered campaign did not change either.
    assert run("head", "--json").json()["campaign"] == "neon-harbor"


def test_no_ledger_yet_and_no_campaign_selected(run, db: str, home: Path, tmp_path: Path) -> None:
    # A read or a write against a database file that does not exist creates nothing.
    assert_refused(run("log"), 2, f"there is no ledger at {db}", "campaign new")
    assert_refused(run("note", "hello"), 2, "there is no ledger at")
    assert not Path(db).exists()
    # A ledger with a campaign, but none chosen in these settings.
    new_campaign(run)
    elsewhere = {"SHOWRUNNER_CONFIG_DIR": str(tmp_path / "other-config")}
    assert_refused(run("log", env=elsewhere), 1, "no campaign selected", "campaign use")
    assert_refused(run("note", "hello", env=elsewhere), 1, "no campaign selected")
    assert run("-c", "neon-harbor", "head", "--json", env=elsewhere).json()["version"] == 3


def test_unknown_command_and_option_are_usage_errors(run) -> None:
    assert_refused(run("bogus"), 2, "No such command 'bogus'")
    assert_refused(run("campaign", "list", "--bogus"), 2, "--bogus")


def test_db_pointing_at_a_directory_is_a_usage_error(run, tmp_path: Path, home: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert_refused(run("campaign", "list", db=str(folder)), 2, f"{folder} is a directory")
    assert_refused(run("campaign", "new", "Neon Harbor", db=str(folder)), 2, "is a directory")
    assert list(folder.iterdir()) == []
    assert list((home / "data").iterdir()) == []


def test_db_pointing_at_a_file_that_is_not_sqlite_is_a_usage_error(run, tmp_path: Path, home: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    assert_refused(run("campaign", "new", "Neon Harbor", db=str(notes)), 2, f"{notes} is not a SQLite database")
    assert notes.read_text() == "not a database\n"
    assert list((home / "data").iterdir()) == []


def test_debug_shows_the_traceback_of_a_known_error(cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    quiet = cli("campaign", "list", db=str(notes))
    assert_refused(quiet, 2, "is not a SQLite database")
    loud = cli("campaign", "list", db=str(notes), env={"SHOWRUNNER_DEBUG": "1"})
    assert loud.code != 0
    assert "Traceback (most recent call last)" in loud.err
    assert "SettingsError" in loud.err


def test_campaign_flow_on_each_backend(run, db_url: str, home: Path) -> None:
    """The registry commands on SQLite and on PostgreSQL (a fresh schema)."""
    assert run("campaign", "list", "--json", db=db_url).json() == {"page": 1, "pages": 1, "total": 0, "campaigns": []}
    new_campaign(run, db=db_url)
    assert run("campaign", "new", "Side Show", db=db_url).code == 0
    assert [(c["name"], c["current"]) for c in run("campaign", "list", "--json", db=db_url).json()["campaigns"]] == [
        ("neon-harbor", False),
        ("side-show", True),
    ]
    assert run("campaign", "use", "neon-harbor", db=db_url).code == 0
    assert run("head", "--json", db=db_url).json()["version"] == 3
    before = fingerprint(run, home, db=db_url)
    assert_refused(run("campaign", "new", "Neon Harbor", db=db_url), 1, "already exists")
    assert fingerprint(run, home, db=db_url) == before


def test_campaign_list_pages(run) -> None:
    for title in ("Alpha", "Beta", "Gamma", "Delta", "Epsilon"):
        assert run("campaign", "new", title).code == 0
    doc = run("campaign", "list", "--per-page", "2", "--page", "2", "--json").json()
    assert (doc["page"], doc["pages"], doc["total"]) == (2, 3, 5)
    assert [c["name"] for c in doc["campaigns"]] == ["delta", "epsilon"]
    last = run("campaign", "list", "-n", "2", "-p", "3")
    assert last.code == 0 and "Campaigns — page 3 of 3 (5 campaigns)" in last.out and "gamma" in last.out
    assert_refused(run("campaign", "list", "-n", "2", "-p", "4"), 1, "page 4 does not exist", "3 pages of 2")
