"""Every route of the shared table's server, counted: each is named below with what it is, so a
route added without its place here fails; and every route that needs a token refuses none, a
revoked one and a made-up one, every form refuses a missing, another session's or a foreign
page's CSRF token, and every API write refuses a browser session without its CSRF header, with
nothing recorded, over the real `showrunner serve`."""

from __future__ import annotations

import contextlib
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import _isolated

from .test_serve import Server, head_of, table  # noqa: F401 - the module's served campaign

PUBLIC = "public"  # anyone: the welcome page, the invite's page, the schema, the static files
LOGIN = "login"  # the token comes in the body, to be checked
READ = "read"  # GET, a token or a session
WRITE = "write"  # an API POST: a Bearer token, or a session with its X-CSRF-Token header
FORM = "form"  # a page's POST: a session and the form's CSRF token
SESSION = "session"  # a page's POST that ends the session it comes with

ROUTES: dict[tuple[str, str], str] = {
    ("GET", "/api/v1/openapi.json"): PUBLIC,
    ("GET", "/static"): PUBLIC,
    ("GET", "/"): PUBLIC,
    ("GET", "/join"): PUBLIC,
    ("POST", "/join"): LOGIN,
    ("POST", "/api/v1/login"): LOGIN,
    ("GET", "/api/v1/me"): READ,
    ("GET", "/api/v1/log"): READ,
    ("GET", "/api/v1/sheet/{star}"): READ,
    ("GET", "/api/v1/recap"): READ,
    ("GET", "/api/v1/timeline"): READ,
    ("GET", "/api/v1/digest"): READ,
    ("GET", "/api/v1/audit/{roll}"): READ,
    ("GET", "/sheet/{star}"): READ,
    ("GET", "/log"): READ,
    ("GET", "/recap"): READ,
    ("GET", "/timeline"): READ,
    ("GET", "/digest"): READ,
    ("GET", "/events"): READ,
    ("GET", "/roll/{roll}"): READ,
    ("GET", "/post-show"): READ,
    ("POST", "/api/v1/spend"): WRITE,
    ("POST", "/api/v1/regain"): WRITE,
    ("POST", "/api/v1/check"): WRITE,
    ("POST", "/api/v1/note"): WRITE,
    ("POST", "/api/v1/post-show"): WRITE,
    ("POST", "/api/v1/run"): WRITE,
    ("POST", "/api/v1/logout"): WRITE,
    ("POST", "/forms/influence"): FORM,
    ("POST", "/forms/note"): FORM,
    ("POST", "/forms/post-show"): FORM,
    ("POST", "/logout"): SESSION,
}
PARAMETERS = {"star": "Mara", "roll": "4"}
BODIES: dict[str, dict[str, object]] = {
    "/api/v1/spend": {"star": "Mara", "pool": "grit"},
    "/api/v1/regain": {"star": "Mara", "pool": "grit"},
    "/api/v1/check": {"request": {"star": "Mara", "ability": "fight", "difficulty": "HARD"}},
    "/api/v1/note": {"text": "a line from the table"},
    "/api/v1/post-show": {"acclaim": [{"star": "Mara", "amount": 1}]},
    "/api/v1/run": {"argv": ["spend", "Mara", "grit"]},
    "/api/v1/logout": {},
    "/forms/influence": {"star": "Mara", "pool": "grit", "action": "spend"},
    "/forms/note": {"text": "a line from the table"},
    "/forms/post-show": {"star": "Mara", "acclaim": "1"},
    "/logout": {},
}


def the_routes(home: Path) -> set[tuple[str, str]]:
    """The routes of the app `showrunner serve` runs, as it builds them."""
    from showrunner_ledger.ledger.bootstrap import bootstrap
    from showrunner_ledger.ledger.settings import Settings
    from showrunner_ledger.web.app import make_app

    with pytest.MonkeyPatch.context() as env:
        for name, value in _isolated(home).items():
            env.setenv(name, value)
        env.setenv("SHOWRUNNER_DB", str(home / "ledger.sqlite"))
        settings = Settings.load()
        app = make_app(bootstrap(settings), settings)
    found = set()
    for route in app.routes:
        methods = getattr(route, "methods", None) or {"GET"}
        found |= {(m, route.path) for m in methods if m != "HEAD"}  # type: ignore[attr-defined]
    return found


def path_of(route: tuple[str, str]) -> str:
    return route[1].format(**PARAMETERS)


def ask(client: httpx.Client, route: tuple[str, str], **extra: object) -> httpx.Response:
    method, _ = route
    path = path_of(route)
    if method == "GET":
        return client.get(path)
    body = BODIES[route[1]]
    if ROUTES[route] in (FORM, SESSION):
        return client.post(path, data={**body, **extra})
    return client.post(path, json=body)


def test_every_route_of_the_server_is_named_here(tmp_path: Path) -> None:
    found = the_routes(tmp_path)
    assert sorted(found - set(ROUTES)) == [], "a route the server serves is not named in ROUTES"
    assert sorted(set(ROUTES) - found) == [], "ROUTES names a route the server no longer serves"


def test_every_route_that_needs_a_token_refuses_none_a_revoked_or_a_made_up_one(table: Server) -> None:  # noqa: F811
    before = head_of(table)
    for route, kind in sorted(ROUTES.items()):
        if kind in (PUBLIC, LOGIN):
            continue
        for token in (None, table.tokens["revoked"], "not-a-token-at-all"):
            with table.client(token) as anyone:
                if route == ("GET", "/events"):
                    with anyone.stream("GET", "/events") as answer:
                        code = answer.status_code
                else:
                    code = ask(anyone, route, csrf="x").status_code
            assert code == 401, (route, token, code)
    for route in (r for r, kind in ROUTES.items() if kind == LOGIN):
        for token in (table.tokens["revoked"], "not-a-token-at-all"):
            with table.client() as anyone:
                body = {"token": token}
                answer = (
                    anyone.post(path_of(route), data=body) if route[1] == "/join" else anyone.post(route[1], json=body)
                )
            assert answer.status_code == 401, (route, token, answer.text)
    assert head_of(table) == before


def test_every_form_refuses_a_missing_foreign_or_cross_site_csrf_token(table: Server) -> None:  # noqa: F811
    before = head_of(table)
    mara = table.session(table.issue("mara census", "Mara"))
    other = table.session(table.issue("mara census other", "Mara"))
    with contextlib.ExitStack() as stack:
        for browser in (mara, other):
            stack.callback(browser.close)
        page = mara.get("/sheet/Mara").text
        csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        others = other.get("/sheet/Mara").text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        for route, kind in sorted(ROUTES.items()):
            if kind not in (FORM, SESSION):
                continue
            body = BODIES[route[1]]
            assert mara.post(route[1], data=body).status_code == 403, route  # no CSRF token
            assert mara.post(route[1], data={**body, "csrf": others}).status_code == 403, route  # another session's
            crossed = mara.post(route[1], data={**body, "csrf": csrf}, headers={"Origin": "https://evil.example"})
            assert crossed.status_code == 403, route  # from another site
        for route, kind in sorted(ROUTES.items()):
            if kind == WRITE:
                assert mara.post(route[1], json=BODIES[route[1]]).status_code == 403, route  # no X-CSRF-Token
        assert mara.get("/api/v1/me").status_code == 200  # none of it ended the session
    assert head_of(table) == before
