"""The command line's side of a laptop (cli/remote.py): which server a command goes to, and
the addresses a token may be sent to."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from showrunner_ledger.cli.errors import Refused, UsageProblem
from showrunner_ledger.cli.remote import Login, forget_login, read_login, server_url, target, write_login

URL = "https://table.example.org"
LOGIN = Login(url=URL, token="secret-token", campaign="neon-harbor", star="Mara Voss")


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHOWRUNNER_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SHOWRUNNER_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "config"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://table.example.org/", URL),
        ("https://table.example.org/join", URL),
        ("https://table.example.org:8443/table/join", "https://table.example.org:8443/table"),
        ("http://127.0.0.1:8731", "http://127.0.0.1:8731"),
        ("http://localhost:8000/", "http://localhost:8000"),
    ],
)
def test_a_servers_address_is_kept_without_its_join_page(given: str, kept: str) -> None:
    assert server_url(given) == kept


@pytest.mark.parametrize("given", ["http://table.example.org", "http://192.168.1.5:8000", "ftp://x", "table.example"])
def test_a_token_is_never_sent_in_clear_over_the_network(given: str) -> None:
    with pytest.raises(UsageProblem):
        server_url(given)


def test_the_login_is_kept_for_its_owner_alone_and_forgotten(config: Path) -> None:
    assert read_login() is None
    path = write_login(LOGIN)
    assert path == config / "server.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_login() == LOGIN
    assert "secret-token" not in str(LOGIN.as_json())
    assert forget_login() == LOGIN
    assert not path.exists() and forget_login() is None


def test_a_command_goes_to_the_server_logged_in_to_unless_it_names_a_database_or_a_star(config: Path) -> None:
    params = {"server": None}
    assert target(params, set(), ["sheet", "Mara"]) is None  # no login: here
    write_login(LOGIN)
    assert target(params, set(), ["sheet", "Mara"]) == LOGIN
    assert target(params, {"db"}, ["sheet", "Mara"]) is None
    assert target(params, {"identity"}, ["sheet", "Mara"]) is None
    assert target(params, set(), ["logout"]) is None
    assert target({"server": URL + "/"}, {"server"}, ["sheet", "Mara"]) == LOGIN


def test_server_with_a_database_or_a_star_or_another_server_is_refused(config: Path) -> None:
    write_login(LOGIN)
    for local in ({"db"}, {"identity"}):
        with pytest.raises(UsageProblem, match="cannot be mixed with --db or --as"):
            target({"server": URL}, {"server", *local}, ["sheet", "Mara"])
    with pytest.raises(Refused, match="not logged in to https://other.example.org"):
        target({"server": "https://other.example.org"}, {"server"}, ["sheet", "Mara"])
    with pytest.raises(UsageProblem, match="leave out --server"):
        target({"server": URL}, {"server"}, ["login", URL])
