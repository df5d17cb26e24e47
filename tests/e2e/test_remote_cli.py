"""The command line from a laptop: `showrunner login` and `--server URL`, the real console script
talking over HTTP to `showrunner serve` (the real console script too), on SQLite and PostgreSQL.

The laptop has a home of its own (its config folder holds the login, nothing else); what a
command prints there must be what the same command prints on the server's machine with
`--as STAR`, and whatever cannot run remotely is refused in one line with nothing written.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import PRIVATE_NOTE, SCRIPT, _is_setting, _isolated
from .test_serve import BACKENDS, Server, head_of, served


class Laptop:
    """A player's device: its own config folder, the console script, no database."""

    def __init__(self, home: Path, server: Server) -> None:
        self.home = home
        self.server = server
        home.mkdir(parents=True, exist_ok=True)

    def __call__(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | _isolated(self.home)
        return subprocess.run(
            [str(SCRIPT), *args], env=env, cwd=self.home, input=stdin, capture_output=True, text=True, timeout=180
        )

    @property
    def login_file(self) -> Path:
        return self.home / "config" / "server.json"

    def login(self, *issue: str) -> str:
        """Logged in with a fresh invite link for `issue` (`Mara`, `--director`); the invite's id."""
        issued = self.server.script("invite", *issue, "--server-url", self.server.url, "--json")
        assert issued.returncode == 0, issued.stderr
        invite = json.loads(issued.stdout)
        done = self("login", invite["url"])
        assert done.returncode == 0, done.stderr
        return str(invite["id"])


@pytest.fixture(scope="module", params=BACKENDS)
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(request.param, tmp_path_factory.mktemp(f"remote-{request.param}"))


@pytest.fixture(params=BACKENDS)
def fresh(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    yield from served(request.param, tmp_path)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The refusal: one line on stderr, nothing on stdout, a non-zero exit."""
    assert done.returncode != 0, done.stdout
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("showrunner: ")
    return lines[0]


def test_a_star_logged_in_with_an_invite_link_reads_what_as_star_reads(table: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", table)
    issued = json.loads(table.script("invite", "Mara", "--server-url", table.url, "--json").stdout)
    logged = laptop("login", issued["url"], "--json")
    assert logged.returncode == 0, logged.stderr
    assert json.loads(logged.stdout) == {
        "server": table.url,
        "campaign": "neon-harbor",
        "star": "Mara Voss",
        "director": False,
    }

    # The link is spent for a session of this device: it opens nothing a second time.
    assert stat.S_IMODE(laptop.login_file.stat().st_mode) == 0o600
    kept = json.loads(laptop.login_file.read_text())
    assert kept["token"] != issued["token"]
    assert "revoked or already used" in one_line(Laptop(tmp_path / "other", table)("login", issued["url"]))

    for command in (["--server", table.url, "sheet", "Mara", "--json"], ["sheet", "Mara"], ["log", "--json"]):
        at_home = table.script("--as", "Mara Voss", *command[2 if command[0] == "--server" else 0 :])
        assert at_home.returncode == 0, at_home.stderr
        remote = laptop(*command)
        assert (remote.returncode, remote.stdout, remote.stderr) == (0, at_home.stdout, at_home.stderr)
    assert PRIVATE_NOTE not in remote.stdout


def test_a_stars_spend_from_a_laptop_lands_in_the_log(fresh: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", fresh)
    laptop.login("Mara")
    done = laptop("spend", "Mara", "grit", "--reason", "Vaulting the sluice gate", "--json")
    assert done.returncode == 0, done.stderr
    last = json.loads(fresh.script("log", "--json").stdout)["events"][-1]
    assert (last["type"], last["recorded_by"], last["version"]) == (
        "InfluenceSpent",
        "Mara Voss",
        json.loads(done.stdout)["events"][-1],
    )
    assert "Vaulting the sluice gate" in json.dumps(last)


def test_ledger_dice_rolled_from_a_laptop_take_its_entropy(fresh: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", fresh)
    laptop.login("Mara")
    entropy = "the tide turns at midnight"
    done = laptop("--entropy", entropy, "check", "Mara", "fight", "--difficulty", "hard", "--json")
    assert done.returncode == 0, done.stderr
    rolled = json.loads(done.stdout)
    assert rolled["dice"] == "ledger"
    recorded = fresh.script("show", str(rolled["event"]), "--json")
    assert json.loads(recorded.stdout)["event"]["payload"]["dice_entropy"] == entropy  # mixed into the dice, and kept


def test_a_star_acting_for_another_star_is_refused_as_the_command_line_refuses(fresh: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", fresh)
    laptop.login("Mara")
    before = head_of(fresh)
    at_home = fresh.script("--as", "Mara Voss", "spend", "Tobias", "grit")
    remote = laptop("spend", "Tobias", "grit")
    assert (remote.returncode, remote.stdout, remote.stderr) == (at_home.returncode, "", at_home.stderr)
    assert "only Tobias Quell or the Director" in one_line(remote)
    assert head_of(fresh) == before


def test_the_directors_secrets_are_refused_or_hidden_from_a_star(fresh: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", fresh)
    laptop.login("Mara")
    before = head_of(fresh)
    for command in (["recap", "--director"], ["note", "--private", "a secret"], ["timeline", "--director"]):
        at_home = fresh.script("--as", "Mara Voss", *command)
        remote = laptop(*command)
        assert (remote.returncode, remote.stderr) == (at_home.returncode, at_home.stderr)
        assert "only the Director" in one_line(remote)
    for command in (["log"], ["show", "6"], ["timeline", "--json"], ["recap"]):
        assert PRIVATE_NOTE not in laptop(*command).stdout + laptop(*command).stderr
    assert head_of(fresh) == before


def test_a_directors_laptop_records_what_only_the_director_may(fresh: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", fresh)
    laptop.login("--director")
    done = laptop("note", "--private", "The vault key is forged", "--json")
    assert done.returncode == 0, done.stderr
    assert "The vault key is forged" in fresh.script("log", "--json").stdout
    assert "The vault key is forged" in laptop("log").stdout


def test_a_revoked_session_is_refused_in_one_line(fresh: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", fresh)
    invite = laptop.login("Mara")
    assert laptop("sheet", "Mara").returncode == 0
    assert fresh.script("invite", "revoke", invite).returncode == 0  # and every session it opened
    assert "revoked" in one_line(laptop("sheet", "Mara"))
    assert "revoked" in one_line(laptop("spend", "Mara", "grit"))


def test_logout_revokes_the_session_and_forgets_the_token(fresh: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", fresh)
    laptop.login("Mara")
    token = json.loads(laptop.login_file.read_text())["token"]
    done = laptop("logout", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["revoked"] is True
    assert not laptop.login_file.exists()
    with fresh.client(token) as stolen:
        assert stolen.get("/api/v1/me").status_code == 401
    assert "not logged in" in one_line(laptop("logout"))
    # Logged out, a command runs on this device again: here there is no campaign at all.
    assert "there is no ledger at" in one_line(laptop("sheet", "Mara"))


def test_an_api_token_logs_in_from_stdin_and_is_kept_as_it_is(table: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", table)
    token = table.script("invite", "Mara", "--api", "--json")
    issued = json.loads(token.stdout)["token"]
    assert laptop("login", table.url, "--token-stdin", stdin=issued + "\n").returncode == 0
    assert json.loads(laptop.login_file.read_text())["token"] == issued
    assert "Mara Voss" in laptop("sheet", "Mara", "--json").stdout
    assert "no terminal" in one_line(Laptop(tmp_path / "script", table)("login", table.url))


REFUSED = [
    (["import", "campaign.jsonl"], "'import' cannot run on the server"),
    (["export", "--output", "-"], "'export' cannot run on the server"),
    (["campaign", "use", "neon-harbor"], "'campaign use' cannot run on the server"),
    (["branch", "use", "main"], "'branch use' cannot run on the server"),
    (["serve"], "'serve' cannot run on the server"),
    (["invite", "Tobias"], "'invite Tobias' cannot run on the server"),
    (["star", "add", "--file", "mara.toml"], "'star add' cannot run on the server"),
    (["timeline", "--html", "timeline.html"], "'timeline --html' cannot run on the server"),
    (["timeline", "--html=timeline.html"], "'timeline --html' cannot run on the server"),
    (["recap", "--speak"], "'recap --speak' cannot run on the server"),
    (["verify", "--all"], "'verify --all' cannot run on the server"),
    (["star", "create", "Ada", "--interactive"], "asks at a terminal"),
    (["--branch", "what-if", "sheet", "Mara"], "--branch cannot be sent to the server"),
    (["--campaign", "another-campaign", "sheet", "Mara"], "this token is for campaign 'neon-harbor'"),
    (["--as", "Mara", "sheet", "Mara"], "--server cannot be mixed with --db or --as"),
    (["--db", "other.sqlite", "sheet", "Mara"], "--server cannot be mixed with --db or --as"),
]


def test_what_cannot_run_remotely_is_refused_in_one_line_and_writes_nothing(table: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", table)
    laptop.login("--director")
    before = head_of(table)
    server_files = sorted(p.name for p in table.home.iterdir())
    for command, words in REFUSED:
        assert words in one_line(laptop("--server", table.url, *command)), command
    assert head_of(table) == before
    assert sorted(p.name for p in table.home.iterdir()) == server_files
    assert sorted(p.name for p in laptop.home.iterdir()) == ["config"]
    assert laptop("--server", table.url, "--campaign", "neon-harbor", "head").returncode == 0


def test_the_server_refuses_global_options_and_unknown_fields_itself(table: Server) -> None:
    with table.client(table.issue("raw", "--director", "--api")) as script:
        for argv in (["--db", "/tmp/other.sqlite", "log"], ["--as", "Mara", "log"], ["-c", "Other", "log"]):
            refused = script.post("/api/v1/run", json={"argv": argv})
            assert refused.status_code == 400, refused.text
            assert "global options cannot be sent" in refused.json()["error"]
        elsewhere = script.post("/api/v1/run", json={"argv": ["log"], "campaign": "Another Campaign"})
        assert elsewhere.status_code == 403
        assert script.post("/api/v1/run", json={"argv": ["log"], "env": {"SHOWRUNNER_AS": "x"}}).status_code == 422
        assert script.post("/api/v1/run", json={"argv": []}).status_code == 422
        assert script.post("/api/v1/run", json={"argv": ["note", "a\x00b"]}).status_code == 400


def test_no_token_reaches_the_servers_log_and_the_api_lists_the_routes(table: Server, tmp_path: Path) -> None:
    laptop = Laptop(tmp_path / "laptop", table)
    laptop.login("Mara")
    session = json.loads(laptop.login_file.read_text())["token"]
    assert laptop("log").returncode == 0
    log = table.log.read_text(encoding="utf-8", errors="replace")
    assert "POST /api/v1/run" in log and "POST /api/v1/login" in log  # the access log is on
    for token in (session, *table.tokens.values()):
        assert token not in log
    with table.client() as anyone:
        paths = anyone.get("/api/v1/openapi.json").json()["paths"]
    assert {"/api/v1/run", "/api/v1/login", "/api/v1/logout"} <= set(paths)
