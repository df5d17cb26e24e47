"""The command line's side of a laptop (cli/remote.py): which server a command goes to, and
the addresses a token may be sent to."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from showrunner_ledger.cli.errors import Refused, UsageProblem
from showrunner_ledger.cli.remote import Login, call, forget_login, read_login, server_url, target, write_login

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


def test_a_redirect_is_not_followed_with_the_token() -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    reached: list[str] = []

    class Elsewhere(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            # urllib turns a POST redirected with 302 into a GET that keeps its Authorization header
            reached.append(self.headers.get("Authorization", ""))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"{}")

        do_POST = do_GET

        def log_message(self, *args: object) -> None:
            pass

    class Redirecting(Elsewhere):
        def do_POST(self) -> None:  # noqa: N802
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{other.server_port}/api/v1/run")
            self.end_headers()

    other = HTTPServer(("127.0.0.1", 0), Elsewhere)
    first = HTTPServer(("127.0.0.1", 0), Redirecting)
    for server in (other, first):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(Refused, match="sent this request elsewhere"):
            call(f"http://127.0.0.1:{first.server_port}", "/api/v1/run", "secret-token", {"argv": ["log"]})
        assert reached == []
    finally:
        for server in (other, first):
            server.shutdown()
            server.server_close()
