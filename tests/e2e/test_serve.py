"""`showrunner serve`, the real console script on a loopback port, on SQLite and PostgreSQL.

Invites come from the real `showrunner invite`; every request is made over HTTP. The route ×
identity matrix: no token, a revoked token, a spent invite, another Star's token, a Star's
token on a Director action, a forged or replayed form are each refused; a Star's token gets
exactly what `--as STAR` gets, and no Director-only value on any route, page or event stream;
no token reaches the server's log; unknown tokens are rate-limited; every answer carries the
security headers.

Refused tokens count as guesses against the client's address, so each refused case comes
from an address of its own on the loopback network (127.0.0.N), and the rate limit is
tested from one address.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import _drop_schema, postgres_url_or_skip

from .conftest import PRIVATE_NOTE, SCRIPT, Runner, _is_setting, _isolated, play, seed

ADDRESSES = itertools.count()
"""127.0.N.M for each client whose refusals must not count against another's."""
GUESSER = "127.1.0.250"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    url: str
    db: str
    home: Path
    log: Path
    process: subprocess.Popen[bytes]
    tokens: dict[str, str] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)

    def script(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | _isolated(self.home)
        return subprocess.run(
            [str(SCRIPT), "--db", self.db, *args], env=env, cwd=self.home, capture_output=True, text=True, timeout=120
        )

    def issue(self, name: str, *args: str) -> str:
        done = self.script("invite", *args, "--json")
        assert done.returncode == 0, done.stderr
        issued = json.loads(done.stdout)
        self.tokens[name], self.ids[name] = issued["token"], issued["id"]
        return str(issued["token"])

    def client(self, token: str | None = None, *, address: str | None = None) -> httpx.Client:
        """A client from its own loopback address (127.0.0.N), with a Bearer token if given."""
        if address is None:
            n = next(ADDRESSES)
            address = f"127.0.{n // 250}.{n % 250 + 2}"
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(
            base_url=self.url, headers=headers, transport=httpx.HTTPTransport(local_address=address), timeout=60
        )

    def session(self, token: str) -> httpx.Client:
        """A browser: the invite's link opened, its session cookie kept."""
        browser = self.client()
        joined = browser.post("/join", data={"token": token})
        assert joined.status_code == 303, joined.text
        assert "showrunner_session" in browser.cookies
        return browser


def start(db: str, home: Path, *options: str) -> Iterator[Server]:
    """The real `showrunner serve` (with `options`) over `db`, and the scenario's invites issued."""
    port = free_port()
    log = home / "serve.log"
    env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | _isolated(home)
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(SCRIPT), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db, *options],
            env=env,
            cwd=home,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Server(f"http://127.0.0.1:{port}", db, home, log, process)
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{server.url}/api/v1/openapi.json", timeout=1).status_code == 200:
                    break
            assert process.poll() is None, log.read_text()
            time.sleep(0.1)
        else:
            raise AssertionError(f"the server did not start: {log.read_text()}")
        server.issue("director", "--director")
        server.issue("mara", "Mara")
        server.issue("tobias", "Tobias")
        server.issue("mara api", "Mara", "--api")
        server.issue("revoked", "Mara")
        assert server.script("invite", "revoke", server.ids["revoked"]).returncode == 0
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)


def served(kind: str, root: Path, scenario: Callable[[Runner], None] = play, *options: str) -> Iterator[Server]:
    home = root / "home"
    if kind == "sqlite":
        db = str(root / "ledger.sqlite")
        seed(db, home, scenario)
        yield from start(db, home, *options)
        return
    base = postgres_url_or_skip()
    schema = "serve_" + uuid.uuid4().hex[:16]
    db = f"{base}?schema={schema}"
    try:
        seed(db, home, scenario)
        yield from start(db, home, *options)
    finally:
        _drop_schema(base, schema)


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="module", params=BACKENDS)
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The standard campaign served, for tests that only read (or are refused)."""
    yield from served(request.param, tmp_path_factory.mktemp(f"served-{request.param}"))


@pytest.fixture(params=BACKENDS)
def fresh(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """The standard campaign served to one test that records."""
    yield from served(request.param, tmp_path)


READS = [
    "/api/v1/me",
    "/api/v1/log",
    "/api/v1/sheet/Mara",
    "/api/v1/recap",
    "/api/v1/digest",
    "/api/v1/timeline",
    "/",
    "/log",
    "/sheet/Mara",
    "/recap",
    "/timeline",
    "/digest",
]
TYPED_CHECK = {
    "request": {"star": "Mara", "ability": "fight", "difficulty": "HARD", "opposition": 2},
    "faces": {"action": [3, 4, 5], "opposition": [1, 5], "script": [4, 2]},
}
WRITES: list[tuple[str, dict[str, Any]]] = [
    ("/api/v1/spend", {"star": "Mara", "pool": "grit"}),
    ("/api/v1/regain", {"star": "Mara", "pool": "grit"}),
    ("/api/v1/check", TYPED_CHECK),
    ("/api/v1/note", {"text": "a line from the table"}),
]
FORMS: list[tuple[str, dict[str, str]]] = [
    ("/forms/influence", {"star": "Mara", "pool": "grit", "action": "spend"}),
    ("/forms/note", {"text": "a line from the table"}),
]
SECURED_READS = [path for path in READS if path != "/"]  # the welcome page is for anyone


def head_of(server: Server) -> int:
    with server.client(server.tokens["director"]) as director:
        return int(director.get("/api/v1/log").json()["total"])


# ------------------------------------------------------------------ who may come in


@pytest.mark.parametrize("path", SECURED_READS)
def test_a_read_without_a_live_token_is_refused(table: Server, path: str) -> None:
    for token in (None, table.tokens["revoked"], "not-a-token-at-all"):
        with table.client(token) as anyone:
            answer = anyone.get(path)
        assert answer.status_code == 401, (path, token, answer.text)
        assert "Mara Voss" not in answer.text


def test_a_write_without_a_live_token_is_refused_and_records_nothing(table: Server) -> None:
    before = head_of(table)
    for token in (None, table.tokens["revoked"], "not-a-token-at-all"):
        for path, body in WRITES:
            with table.client(token) as anyone:
                assert anyone.post(path, json=body).status_code == 401, (path, token)
        for path, form in FORMS:
            with table.client(token) as anyone:
                assert anyone.post(path, data={**form, "csrf": "x"}).status_code == 401, (path, token)
    assert head_of(table) == before


def test_an_invite_opens_one_session_and_is_spent(table: Server) -> None:
    token = table.issue("spent", "Tobias")
    with table.client(token) as script:
        assert script.get("/api/v1/me").json()["star"] == "Tobias Quell"  # a Bearer token until opened
    browser = table.session(token)
    me = browser.get("/api/v1/me").json()
    assert (me["star"], me["kind"]) == ("Tobias Quell", "session")
    with table.client() as second:
        assert second.post("/join", data={"token": token}).status_code == 401
    with table.client(token) as script:
        assert script.get("/api/v1/me").status_code == 401
    assert browser.get("/log").status_code == 200
    with browser.stream("GET", "/events") as events:
        lines = events.iter_lines()
        assert next(line for line in lines if line.startswith("data:"))
        # Revoking the invite revokes the session it opened, and ends its event stream.
        assert table.script("invite", "revoke", table.ids["spent"]).returncode == 0
        assert all(not line.startswith("data:") for line in lines)
    ended = browser.get("/log")
    assert ended.status_code == 401
    assert 'showrunner_session=""' in ended.headers["set-cookie"]  # the browser forgets it
    assert "showrunner_session" not in browser.cookies
    browser.close()


def test_a_star_reads_and_records_only_for_their_own_star(table: Server) -> None:
    before = head_of(table)
    with table.client(table.tokens["tobias"]) as tobias:
        assert tobias.get("/api/v1/sheet/Mara").status_code == 403
        assert tobias.get("/sheet/Mara").status_code == 403
        for path, body in WRITES[:3]:
            refused = tobias.post(path, json=body)
            assert refused.status_code == 403, path
            assert refused.json() == {"error": refused.json()["error"]}
            assert "only Mara Voss or the Director" in refused.json()["error"]
    assert head_of(table) == before


def test_a_star_token_is_refused_a_directors_action(table: Server) -> None:
    before = head_of(table)
    with table.client(table.tokens["mara"]) as mara:
        assert mara.post("/api/v1/note", json={"text": "a secret", "private": True}).status_code == 403
        assert mara.get("/api/v1/recap", params={"director": "true"}).status_code == 403
        assert mara.get("/recap", params={"director": "true"}).status_code == 403
        assert mara.get("/api/v1/timeline", params={"director": "true"}).status_code == 403
        assert mara.get("/timeline", params={"director": "true"}).status_code == 403
    assert head_of(table) == before


def test_a_forged_or_replayed_form_is_refused(table: Server) -> None:
    before = head_of(table)
    mara = table.session(table.issue("mara form", "Mara"))
    other = table.session(table.issue("mara other", "Mara"))
    page = mara.get("/sheet/Mara").text
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    others = other.get("/sheet/Mara").text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    assert csrf != others
    for path, form in FORMS:
        assert mara.post(path, data=form).status_code == 403  # no token
        assert mara.post(path, data={**form, "csrf": others}).status_code == 403  # another session's
        assert (
            mara.post(path, data={**form, "csrf": csrf}, headers={"Origin": "https://evil.example"}).status_code == 403
        )
    for path, body in WRITES:
        assert mara.post(path, json=body).status_code == 403  # a session's API write needs X-CSRF-Token
    assert head_of(table) == before
    for browser in (mara, other):
        browser.close()


def test_a_form_with_its_token_records_through_the_one_door(fresh: Server) -> None:
    mara = fresh.session(fresh.tokens["mara"])
    page = mara.get("/sheet/Mara").text
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    cookie = mara.cookies["showrunner_session"]
    done = mara.post("/forms/influence", data={"star": "Mara", "pool": "grit", "action": "regain", "csrf": csrf})
    assert done.status_code == 303
    log = fresh.script("log", "--json")
    last = json.loads(log.stdout)["events"][-1]
    assert (last["type"], last["recorded_by"]) == ("InfluenceRegained", "Mara Voss")
    assert mara.post("/logout", data={"csrf": csrf}).status_code == 303
    # The form replayed with the ended session's cookie: refused, nothing recorded.
    with fresh.client() as replay:
        replay.cookies.set("showrunner_session", cookie)
        again = replay.post("/forms/influence", data={"star": "Mara", "pool": "grit", "action": "regain", "csrf": csrf})
        assert again.status_code == 401
    assert json.loads(fresh.script("log", "--json").stdout)["total"] == last["version"]
    mara.close()


# ------------------------------------------------------------------ the same documents as the CLI


def cli_json(server: Server, *args: str) -> Any:
    done = server.script(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("path", "argv"),
    [
        ("/api/v1/log", ("log",)),
        (
            "/api/v1/log?type=InfluenceSpent&star=Mara&per_page=1&page=2",
            ("log", "-t", "InfluenceSpent", "-s", "Mara", "-n", "1", "-p", "2"),
        ),
        ("/api/v1/sheet/Mara", ("sheet", "Mara")),
        ("/api/v1/recap", ("recap",)),
        ("/api/v1/digest", ("head", "--campaign")),
        ("/api/v1/timeline", ("timeline",)),
    ],
)
@pytest.mark.parametrize("who", ["mara", "director"])
def test_the_api_answers_what_the_cli_prints_for_the_same_identity(
    table: Server, path: str, argv: tuple[str, ...], who: str
) -> None:
    as_ = ("--as", "Mara") if who == "mara" else ()
    with table.client(table.tokens[who]) as client:
        answer = client.get(path)
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json(table, *as_, *argv)


def test_a_star_records_through_the_api_as_the_cli_would(fresh: Server) -> None:
    with fresh.client(fresh.tokens["mara api"]) as mara:
        spent = mara.post("/api/v1/spend", json={"star": "mara", "pool": "grit", "reason": "From the phone"})
        assert spent.status_code == 200, spent.text
        assert spent.json()["summary"] == "Mara Voss spent 1 Grit (From the phone)"
        noted = mara.post("/api/v1/note", json={"text": "Mara's line"})
        assert noted.json()["visibility"] == "public"
        checked = mara.post("/api/v1/check", json=TYPED_CHECK)
        assert checked.status_code == 200, checked.text
        assert checked.json()["type"] == "CheckRolled"
        assert checked.json()["outcome"]["dice_commitment"] is None  # table dice
        ledger = mara.post(
            "/api/v1/check",
            json={"request": {"star": "Mara", "ability": "work", "difficulty": "HARD"}, "entropy": "the gull laughs"},
        )
        assert ledger.json()["outcome"]["dice_entropy"] == "the gull laughs"  # ledger dice v2, the Star's entropy
    with fresh.client(fresh.tokens["director"]) as director:
        private = director.post("/api/v1/note", json={"text": "only mine", "private": True})
        assert private.json()["visibility"] == "director"
    events = cli_json(fresh, "log")["events"]
    assert [(e["type"], e["recorded_by"]) for e in events[-5:]] == [
        ("InfluenceSpent", "Mara Voss"),
        ("NoteRecorded", "Mara Voss"),
        ("CheckRolled", "Mara Voss"),
        ("CheckRolled", "Mara Voss"),
        ("NoteRecorded", "director"),
    ]
    audited = fresh.script("audit", str(events[-3]["version"]))
    assert audited.returncode == 0, audited.stderr  # the check re-judges as recorded


def test_the_rules_refuse_over_the_api_as_on_the_command_line(fresh: Server) -> None:
    before = head_of(fresh)
    with fresh.client(fresh.tokens["mara"]) as mara:
        empty = mara.post("/api/v1/spend", json={"star": "Mara", "pool": "spotlight"})  # spent in the scenario
        unknown = mara.post("/api/v1/spend", json={"star": "Mara", "pool": "luck"})
        nobody = mara.get("/api/v1/sheet/Nobody")
        shaped = mara.post("/api/v1/spend", json={"star": "Mara", "pool": "grit", "amount": 0})
        typed = mara.get("/api/v1/log", params={"type": "NoSuchEvent"})
        face = mara.post("/api/v1/check", json={**TYPED_CHECK, "faces": {**TYPED_CHECK["faces"], "action": [3, 4, 9]}})
        guessable = mara.post("/api/v1/check", json={"request": TYPED_CHECK["request"], "entropy": "short"})
    cli = fresh.script("--as", "Mara", "spend", "Mara", "spotlight")
    assert empty.status_code == 422 and empty.json()["error"] == cli.stderr.strip().removeprefix("showrunner: ")
    assert unknown.status_code == 422 and "pool" in unknown.json()["error"]
    assert nobody.status_code == 404 and "Nobody" in nobody.json()["error"]
    assert shaped.status_code == 422 and shaped.json()["error"].startswith("amount:")
    assert typed.status_code == 400
    assert face.status_code == 422 and face.json()["error"] == "action die 9 is not a d6 face (1-6)"
    assert guessable.status_code == 422 and guessable.json()["error"].startswith("entropy must be at least 8")
    for answer in (empty, unknown, nobody, shaped, typed, face, guessable):
        assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]
    assert head_of(fresh) == before


# ------------------------------------------------------------------ nothing Director-only reaches a Star


def test_no_director_only_value_reaches_a_star_on_any_route(table: Server) -> None:
    with table.client(table.tokens["director"]) as director:
        assert PRIVATE_NOTE in director.get("/api/v1/log").text  # the Director's own view has it
        assert PRIVATE_NOTE in director.get("/log").text
    for name in ("mara", "tobias", "mara api"):
        with table.client(table.tokens[name]) as star:
            me = star.get("/api/v1/me").json()["star"]
            for path in [*READS, f"/sheet/{me}", f"/api/v1/sheet/{me}", "/api/v1/log?type=NoteRecorded", "/timeline"]:
                answer = star.get(path)
                assert answer.status_code in (200, 403), (path, answer.text)
                assert PRIVATE_NOTE not in answer.text, path
            with star.stream("GET", "/events") as events:
                lines = []
                for line in events.iter_lines():
                    lines.append(line)
                    if line.startswith("data:"):
                        break
            shown = json.loads(lines[-1].removeprefix("data:"))
            # The public events only: the private note is not even counted.
            assert shown == {"seen": 7}
            assert PRIVATE_NOTE not in "\n".join(lines)


# ------------------------------------------------------------------ the server's own rules


def test_unknown_tokens_are_rate_limited(table: Server) -> None:
    with table.client("guess", address=GUESSER) as guesser:
        codes = [guesser.get("/api/v1/log").status_code for _ in range(12)]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]
    with table.client(table.tokens["mara"], address=GUESSER) as same_address:
        assert same_address.get("/api/v1/log").status_code == 429  # even a good token waits
    with table.client(table.tokens["mara"]) as elsewhere:
        assert elsewhere.get("/api/v1/log").status_code == 200


@pytest.mark.parametrize("path", ["/", "/join", "/log", "/api/v1/log", "/api/v1/openapi.json", "/static/style.css"])
def test_every_answer_carries_the_security_headers(table: Server, path: str) -> None:
    for token in (table.tokens["mara"], None):
        with table.client(token) as client:
            headers = client.get(path).headers
        assert headers["content-security-policy"].startswith("default-src 'self'")
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_the_session_cookie_is_http_only_and_strict(table: Server) -> None:
    with table.client() as browser:
        joined = browser.post("/join", data={"token": table.issue("cookie", "Mara")})
    cookie = joined.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert "secure" not in cookie  # plain http on loopback; behind https it is Secure
    with table.client() as proxied:
        behind = proxied.post(
            "/join", data={"token": table.issue("proxied", "Mara")}, headers={"X-Forwarded-Proto": "https"}
        )
    # Only a proxy at 127.0.0.1 is believed: this client came from another address.
    assert "secure" not in behind.headers["set-cookie"].lower()
    with table.client(address="127.0.0.1") as proxy:
        https = proxy.post(
            "/join", data={"token": table.issue("https", "Mara")}, headers={"X-Forwarded-Proto": "https"}
        )
    assert "secure" in https.headers["set-cookie"].lower()


def test_the_openapi_schema_lists_the_api(table: Server) -> None:
    with table.client() as anyone:
        schema = anyone.get("/api/v1/openapi.json").json()
    assert {
        "/api/v1/log",
        "/api/v1/sheet/{star}",
        "/api/v1/recap",
        "/api/v1/timeline",
        "/api/v1/digest",
        "/api/v1/me",
    } <= set(schema["paths"])
    assert {"/api/v1/spend", "/api/v1/regain", "/api/v1/note"} <= set(schema["paths"])


def test_the_pages_load_nothing_from_elsewhere(table: Server) -> None:
    with table.client(table.tokens["director"]) as director:
        for path in ("/", "/log", "/sheet/Mara", "/recap", "/timeline", "/digest", "/join"):
            page = director.get(path).text
            links = re.findall(r'(?:src|href|action)="([^"]*)"', page)
            assert links and all(link.startswith("/") and not link.startswith("//") for link in links), (path, links)


def test_no_token_reaches_the_servers_log(table: Server) -> None:
    # Every kind of token in use once more: Bearer, a link opened, a cookie, a bad guess.
    browser = table.session(table.issue("logged", "Tobias"))
    browser.get("/log")
    cookie = browser.cookies["showrunner_session"]
    for name in ("mara", "director", "mara api", "revoked"):
        with table.client(table.tokens[name]) as client:
            client.get("/api/v1/log", params={"page": 1})
    browser.close()
    time.sleep(0.5)
    log = table.log.read_text(encoding="utf-8", errors="replace")
    assert "GET /api/v1/log" in log  # the access log is on
    for name, token in [*table.tokens.items(), ("a session", cookie)]:
        assert token not in log, name
