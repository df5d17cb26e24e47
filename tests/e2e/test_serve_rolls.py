"""The shared table's roll cards and Post-Show, over the real `showrunner serve`, and its sessions:
a roll's audit answers what `showrunner audit ROLL --json` prints for the same identity; a Star
answers their own Post-Show as `episode post-show` records it; each new route refuses no token,
a revoked one, another Star's, a Star's on the Director's part and a forged or replayed form; no
Director-only value reaches a Star through them; sessions expire; forms outlive a restart.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import headless_chromium

from .conftest import PRIVATE_NOTE, SCRIPT, Runner, _is_setting, _isolated, play
from .test_director_only_leaks import leaks, secret_values, seeds
from .test_serve import BACKENDS, Server, head_of, served, start
from .test_serve_pages import wait_for

LEDGER_CHECK = ("check", "Mara", "fight", "-d", "NORMAL")
TABLE_CHECK = ("check", "Mara", "fight", "-d", "NORMAL", "--action", "6,6,2", "--script", "1,1")


def with_rolls(run: Runner) -> None:
    """The standard campaign, then an Episode with a ledger roll and a table roll (both Mara's,
    public), a Director-only roll (a Subplot, ledger dice), and its end without the Post-Show."""
    play(run)
    for args in (
        ("episode", "start", "The Flooded Vault"),
        LEDGER_CHECK,
        TABLE_CHECK,
        ("subplot", "generate"),
        ("episode", "end", "--cliffhanger", "The vault floods", "--skip-post-show"),
    ):
        done = run(*args)
        assert done.code == 0, done


@pytest.fixture(scope="module", params=BACKENDS)
def rolls(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The campaign with rolls served, for tests that only read (or are refused)."""
    yield from served(request.param, tmp_path_factory.mktemp(f"rolls-{request.param}"), with_rolls)


@pytest.fixture(params=BACKENDS)
def fresh_rolls(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    yield from served(request.param, tmp_path, with_rolls)


serving = contextlib.contextmanager(served)
restarted = contextlib.contextmanager(start)


def events_of(server: Server) -> list[dict[str, Any]]:
    """The Director's every event of main, with its payload, as `export` writes it."""
    done = server.script("export", "--output", "-")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()[1:]]


def version_of(server: Server, type_: str, visibility: str = "public", nth: int = 0) -> int:
    found = [
        e["version"] for e in events_of(server) if e["topic"].endswith(f"/{type_}") and e["visibility"] == visibility
    ]
    return int(found[nth])


def csrf_of(page: str) -> str:
    return page.split('name="csrf" value="', 1)[1].split('"', 1)[0]


# ------------------------------------------------------------------ the roll's audit and card


@pytest.mark.parametrize("nth", [0, 1], ids=["ledger dice", "table dice"])
@pytest.mark.parametrize("who", ["mara", "tobias", "director"])
def test_the_audit_answers_what_the_cli_prints_for_the_same_identity(rolls: Server, nth: int, who: str) -> None:
    """Mara's rolls are public: another Star audits them too, as `--as` that Star would."""
    roll = version_of(rolls, "CheckRolled", nth=nth)
    as_ = {"mara": ("--as", "Mara"), "tobias": ("--as", "Tobias"), "director": ()}[who]
    with rolls.client(rolls.tokens[who]) as client:
        for query, flags in (("", ()), ("?verify_dice=true", ("--verify-dice",))):
            answer = client.get(f"/api/v1/audit/{roll}{query}")
            assert answer.status_code == 200, answer.text
            cli = rolls.script(*as_, "audit", str(roll), *flags, "--json")
            assert answer.json() == json.loads(cli.stdout), query
    document = answer.json()
    assert document["audit"]["matches"] is True
    assert document["audit"]["dice"]["status"] == ("unrevealed" if nth == 0 else "table")
    # A ledger roll is not provable before the reveal: `--verify-dice` fails it, as on the command line.
    assert document["ok"] is (nth == 1)


def test_a_star_is_refused_a_director_only_roll_in_the_clis_words(rolls: Server) -> None:
    hidden = version_of(rolls, "SubplotGenerated", "director")
    note = version_of(rolls, "NoteRecorded", "director")
    public_note = version_of(rolls, "NoteRecorded")
    with rolls.client(rolls.tokens["director"]) as director:
        assert director.get(f"/api/v1/audit/{hidden}").json()["audit"]["type"] == "SubplotGenerated"
        assert director.get(f"/roll/{hidden}").status_code == 200
    with rolls.client(rolls.tokens["mara"]) as mara:
        for version in (hidden, note):
            refused = mara.get(f"/api/v1/audit/{version}")
            cli = rolls.script("--as", "Mara", "audit", str(version), "--json")
            assert cli.returncode == 1
            assert refused.status_code == 403
            assert refused.json() == {"error": cli.stderr.strip().removeprefix("showrunner: ")}
            assert refused.json()["error"] == f"event #{version} is for the Director only"  # not even its type
            page = mara.get(f"/roll/{version}")
            assert page.status_code == 403 and "for the Director only" in page.text
        not_a_roll = mara.get(f"/api/v1/audit/{public_note}")
        assert not_a_roll.status_code == 404 and "not a roll" in not_a_roll.json()["error"]
        assert mara.get("/api/v1/audit/9999").status_code == 404
        assert mara.get("/api/v1/audit/0").status_code == 422


def test_the_roll_card_shows_the_check_its_dice_and_its_proof_after_the_reveal(fresh_rolls: Server) -> None:
    roll = version_of(fresh_rolls, "CheckRolled")
    table_roll = version_of(fresh_rolls, "CheckRolled", nth=1)
    with fresh_rolls.client(fresh_rolls.tokens["mara"]) as mara:
        before = mara.get(f"/roll/{roll}").text
        assert "Fight at NORMAL" in before and "MATCHES the record" in before
        assert "derivation v2" in before and "Not yet provable" in before and "Verified" not in before
        assert "Table dice: typed in" in mara.get(f"/roll/{table_roll}").text
        log = mara.get("/log").text
        assert f'href="/roll/{roll}"' in log and f'href="/roll/{table_roll}"' in log
        assert 'href="/roll/1"' not in log  # a campaign's start is not a roll
        assert fresh_rolls.script("seed", "reveal").returncode == 0
        after = mara.get(f"/roll/{roll}").text
        assert "Verified" in after and "Not yet provable" not in after
        proof = mara.get(f"/api/v1/audit/{roll}", params={"verify_dice": True}).json()
    assert proof["ok"] is True and proof["audit"]["dice"]["status"] == "verified"
    assert proof["audit"]["dice"]["proofs"] and all(p["ok"] for p in proof["audit"]["dice"]["proofs"])
    for p in proof["audit"]["dice"]["proofs"]:
        assert f"<td>{p['purpose']}</td>" in after


# ------------------------------------------------------------------ the Post-Show from the phone


def test_two_stars_answer_their_own_post_show_as_the_cli_records_it(fresh_rolls: Server) -> None:
    before = head_of(fresh_rolls)
    with fresh_rolls.client(fresh_rolls.tokens["mara api"]) as mara:
        for body in (
            {"acclaim": [{"star": "Tobias", "amount": 1}]},  # another Star's question
            {"connections": [{"star": "Tobias", "kind": "grudge", "target": "Mara Voss"}]},
        ):
            refused = mara.post("/api/v1/post-show", json=body)
            assert refused.status_code == 403 and "only Tobias Quell or the Director" in refused.json()["error"]
        ensemble = mara.post("/api/v1/post-show", json={"acclaim": [{"star": "Mara", "amount": 1}], "premise": True})
        assert ensemble.status_code == 403 and "only the Director" in ensemble.json()["error"]
        empty = mara.post("/api/v1/post-show", json={})
        cli_empty = fresh_rolls.script("episode", "post-show", "--no-input")
        assert empty.status_code == 422 and empty.json()["error"] == cli_empty.stderr.strip().removeprefix(
            "showrunner: "
        )
        assert head_of(fresh_rolls) == before
        answered = mara.post(
            "/api/v1/post-show",
            json={
                "acclaim": [{"star": "mara", "amount": 2}],
                "connections": [{"star": "Mara", "kind": "bond", "target": "Lady Shore"}],
            },
        )
        assert answered.status_code == 200, answered.text
        again = mara.post("/api/v1/post-show", json={"acclaim": [{"star": "Mara", "amount": 1}]})
    cli_again = fresh_rolls.script("--as", "Mara", "episode", "post-show", "--acclaim", "Mara=1", "--no-input")
    assert cli_again.returncode == 1
    assert again.status_code == 422 and again.json()["error"] == cli_again.stderr.strip().removeprefix("showrunner: ")
    assert "Mara Voss's part is already recorded" in again.json()["error"]
    last = events_of(fresh_rolls)[-1]
    assert (last["topic"], last["recorded_by"]) == ("ledger/PostShowPartAnswered", "Mara Voss")
    assert answered.json() == {
        "branch": "main",
        "episode": 1,
        "by": "Mara Voss",
        "post_show": {
            "acclaim": [{"star": "Mara Voss", "amount": 2}],
            "connections": [{"star": "Mara Voss", "kind": "bond", "target": "Lady Shore"}],
            "entertaining": None,
            "premise": None,
            "ensemble_xp": 0,
        },
        "complete": False,
        "events": [last["version"]],
    }
    with fresh_rolls.client(fresh_rolls.tokens["tobias"]) as tobias:
        his = tobias.post("/api/v1/post-show", json={"acclaim": [{"star": "Tobias", "amount": 1}]})
        assert his.status_code == 200, his.text
        assert (his.json()["by"], his.json()["complete"]) == ("Tobias Quell", False)
    with fresh_rolls.client(fresh_rolls.tokens["director"]) as director:
        ensemble = director.post("/api/v1/post-show", json={"entertaining": True, "premise": False})
        assert ensemble.status_code == 200, ensemble.text
        assert (ensemble.json()["by"], ensemble.json()["complete"]) == ("director", True)
    parts = [(e["topic"], e["recorded_by"]) for e in events_of(fresh_rolls)[-3:]]
    assert parts == [("ledger/PostShowPartAnswered", who) for who in ("Mara Voss", "Tobias Quell", "director")]
    assert head_of(fresh_rolls) == before + 3


def test_the_post_show_form_records_with_its_token_and_refuses_without(fresh_rolls: Server) -> None:
    before = head_of(fresh_rolls)
    mara = fresh_rolls.session(fresh_rolls.tokens["mara"])
    tobias = fresh_rolls.session(fresh_rolls.tokens["tobias"])
    page = mara.get("/post-show").text
    assert "Post-Show of Episode 1" in page and 'name="entertaining"' not in page  # the Director's questions
    csrf, others = csrf_of(page), csrf_of(tobias.get("/post-show").text)
    form = {"star": "Mara Voss", "acclaim": "1", "connection": "grudge", "target": "Iron Warden"}
    assert mara.post("/forms/post-show", data=form).status_code == 403  # no token
    assert mara.post("/forms/post-show", data={**form, "csrf": others}).status_code == 403  # another session's
    evil = {"Origin": "https://evil.example"}
    assert mara.post("/forms/post-show", data={**form, "csrf": csrf}, headers=evil).status_code == 403
    assert tobias.post("/forms/post-show", data={**form, "csrf": others}).status_code == 403  # for another Star
    assert mara.post("/api/v1/post-show", json={"acclaim": [{"star": "Mara", "amount": 1}]}).status_code == 403
    assert head_of(fresh_rolls) == before
    done = mara.post("/forms/post-show", data={**form, "csrf": csrf})
    assert done.status_code == 303, done.text
    last = events_of(fresh_rolls)[-1]
    assert (last["topic"], last["recorded_by"]) == ("ledger/PostShowPartAnswered", "Mara Voss")
    assert "Mara Voss&#39;s part is already recorded" in mara.get("/post-show").text
    assert "/forms/post-show" in tobias.get("/post-show").text  # his part is still open
    his = {"star": "Tobias Quell", "acclaim": "0", "connection": "bond", "target": "Mara Voss", "csrf": others}
    assert tobias.post("/forms/post-show", data=his).status_code == 303
    last = events_of(fresh_rolls)[-1]
    assert (last["topic"], last["recorded_by"]) == ("ledger/PostShowPartAnswered", "Tobias Quell")
    cookie = mara.cookies["showrunner_session"]
    assert mara.post("/logout", data={"csrf": csrf}).status_code == 303
    with fresh_rolls.client() as replay:  # the form replayed with the ended session
        replay.cookies.set("showrunner_session", cookie)
        assert replay.post("/forms/post-show", data={**form, "csrf": csrf}).status_code == 401
    assert head_of(fresh_rolls) == before + 2
    for browser in (mara, tobias):
        browser.close()


def test_the_post_show_is_refused_while_the_episode_is_on(fresh_rolls: Server) -> None:
    assert fresh_rolls.script("episode", "start", "The Second Tide").returncode == 0
    before = head_of(fresh_rolls)
    with fresh_rolls.client(fresh_rolls.tokens["mara"]) as mara:
        refused = mara.post("/api/v1/post-show", json={"acclaim": [{"star": "Mara", "amount": 1}]})
        page = mara.get("/post-show").text
    cli = fresh_rolls.script("episode", "post-show", "--acclaim", "Mara=1", "--no-input")
    assert refused.status_code == 422 and refused.json()["error"] == cli.stderr.strip().removeprefix("showrunner: ")
    assert "is still on" in page and "/forms/post-show" not in page
    assert head_of(fresh_rolls) == before


# ------------------------------------------------------------------ who may come in, on the new routes

NEW_READS = ["/api/v1/audit/{roll}", "/roll/{roll}", "/post-show"]


def test_the_new_routes_refuse_a_missing_or_revoked_token(rolls: Server) -> None:
    roll = version_of(rolls, "CheckRolled")
    before = head_of(rolls)
    for token in (None, rolls.tokens["revoked"], "not-a-token-at-all"):
        for path in NEW_READS:
            with rolls.client(token) as anyone:
                answer = anyone.get(path.format(roll=roll))
            assert answer.status_code == 401, (path, token)
            assert "Mara Voss" not in answer.text
        with rolls.client(token) as anyone:
            assert (
                anyone.post("/api/v1/post-show", json={"acclaim": [{"star": "Mara", "amount": 1}]}).status_code == 401
            )
        with rolls.client(token) as anyone:
            assert (
                anyone.post("/forms/post-show", data={"star": "Mara", "acclaim": "1", "csrf": "x"}).status_code == 401
            )
    assert head_of(rolls) == before


def test_the_openapi_schema_lists_the_new_routes(rolls: Server) -> None:
    with rolls.client() as anyone:
        paths = anyone.get("/api/v1/openapi.json").json()["paths"]
    assert {"/api/v1/audit/{roll}", "/api/v1/post-show"} <= set(paths)
    assert "/roll/{roll}" not in paths  # the pages are not the API


def test_no_director_only_value_reaches_a_star_through_the_new_routes(rolls: Server) -> None:
    events = events_of(rolls)
    secrets = secret_values(events, seeds(rolls.home))
    assert any("SubplotGenerated" in where for where in secrets.values())  # the hidden roll is in the search
    with rolls.client(rolls.tokens["director"]) as director:
        hidden = version_of(rolls, "SubplotGenerated", "director")
        assert leaks(director.get(f"/api/v1/audit/{hidden}").text, secrets)  # the search finds what is there
    for name in ("mara", "tobias", "mara api"):
        with rolls.client(rolls.tokens[name]) as star:
            for version in range(1, len(events) + 2):
                for path in (f"/api/v1/audit/{version}", f"/roll/{version}"):
                    answer = star.get(path)
                    assert answer.status_code in (200, 403, 404), (path, answer.text)
                    assert not leaks(answer.text, secrets), path
            for path in ("/post-show", "/log"):
                assert not leaks(star.get(path).text, secrets), path


# ------------------------------------------------------------------ sessions


def backdate_sessions(server: Server, hours: float) -> None:
    """Every session opened `hours` earlier (only the server's own clock is kept in the table)."""
    shift = f"-{int(hours * 3600)} seconds"
    db = sqlite3.connect(server.db)
    with db:
        db.execute(
            "UPDATE srl_identities SET created_at = strftime('%Y-%m-%dT%H:%M:%S+00:00', created_at, ?) "
            "WHERE kind = 'session'",
            (shift,),
        )
    db.close()


def test_a_session_expires_and_its_cookie_is_cleared(tmp_path: Path) -> None:
    with serving("sqlite", tmp_path, play, "--session-hours", "2") as server:
        browser = server.session(server.tokens["mara"])
        assert "max-age=7200" in server_cookie(server, server.issue("max age", "Mara")).lower()
        backdate_sessions(server, 1)
        assert browser.get("/log").status_code == 200  # an hour in, still on
        backdate_sessions(server, 1.5)
        for path in ("/log", "/api/v1/me"):
            cookie = browser.cookies["showrunner_session"]
            ended = browser.get(path)
            assert ended.status_code == 401, path
            assert "expired" in ended.text
            assert 'showrunner_session=""' in ended.headers["set-cookie"]
            browser.cookies.set("showrunner_session", cookie)  # sent again anyway: still refused
        assert browser.get("/api/v1/me").status_code == 401
        with server.client(server.tokens["mara api"]) as script:
            assert script.get("/api/v1/me").status_code == 200  # an API token is not a session
        browser.close()


def server_cookie(server: Server, token: str) -> str:
    with server.client() as browser:
        return browser.post("/join", data={"token": token}).headers["set-cookie"]


def test_session_hours_is_checked_on_the_command_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | _isolated(tmp_path)
    done = subprocess.run(
        [str(SCRIPT), "serve", "--session-hours", "0"], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and "--session-hours" in done.stderr


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_form_made_before_a_restart_still_posts(kind: str, tmp_path: Path) -> None:
    with serving(kind, tmp_path, with_rolls) as first:
        mara = first.session(first.tokens["mara"])
        cookie = mara.cookies["showrunner_session"]
        csrf = csrf_of(mara.get("/post-show").text)
        mara.close()
        first.process.terminate()
        first.process.wait(timeout=30)
        with restarted(first.db, first.home) as second:
            with second.client() as phone:
                phone.cookies.set("showrunner_session", cookie)
                done = phone.post("/forms/post-show", data={"star": "Mara", "acclaim": "1", "csrf": csrf})
                assert done.status_code == 303, done.text
                forged = phone.post("/forms/note", data={"text": "a line", "csrf": csrf[::-1]})
                assert forged.status_code == 403
            last = events_of(second)[-1]
            assert (last["topic"], last["recorded_by"]) == ("ledger/PostShowPartAnswered", "Mara Voss")


def test_a_refused_api_request_with_an_ended_session_clears_the_cookie(rolls: Server) -> None:
    browser = rolls.session(rolls.issue("ended", "Tobias"))
    assert rolls.script("invite", "revoke", rolls.ids["ended"]).returncode == 0
    answer = browser.get("/api/v1/me")
    assert answer.status_code == 401 and 'showrunner_session=""' in answer.headers["set-cookie"]
    browser.close()


# ------------------------------------------------------------------ on a phone


def test_a_star_sees_a_roll_card_on_a_phone_not_yet_provable_then_verified(tmp_path: Path) -> None:
    with serving("sqlite", tmp_path, with_rolls) as table:
        roll = version_of(table, "CheckRolled")
        done = table.script("invite", "Mara", "--server-url", table.url, "--json")
        assert done.returncode == 0, done.stderr
        with headless_chromium("a roll card on a phone") as browser:
            browser.set_window_size(390, 844)
            browser.get(json.loads(done.stdout)["url"])
            assert wait_for(lambda: "Signed in as Mara Voss" in browser.page_source), browser.page_source
            browser.get(f"{table.url}/log")
            browser.find_element("css selector", f'a[href="/roll/{roll}"]').click()
            assert wait_for(lambda: browser.current_url.endswith(f"/roll/{roll}"))
            card = browser.find_element("id", "roll-card")
            assert card.get_attribute("data-status") == "unrevealed"
            assert "Not yet provable" in card.text and "MATCHES the record" in card.text
            fits = "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"
            assert browser.execute_script(fits)  # nothing wider than the phone
            assert table.script("seed", "reveal").returncode == 0
            browser.refresh()
            card = browser.find_element("id", "roll-card")
            assert card.get_attribute("data-status") == "verified"
            assert "Verified" in card.text and "Not yet provable" not in card.text
            assert "matches" in browser.find_element("css selector", "table.proof").text
            assert browser.execute_script(fits)


def test_two_stars_and_the_director_at_one_table_each_in_their_own_browser(tmp_path: Path) -> None:
    """The issue's table: Mara opens her invite on a phone, sees her sheet and spends; Tobias's
    open log shows the spend without a reload; Mara reads the recap and verifies a roll after
    the reveal; the Director's browser shows a private note neither Star's page holds."""
    with serving("sqlite", tmp_path, with_rolls) as table:
        roll = version_of(table, "CheckRolled")
        links = {}
        for who, args in (("mara", ("Mara",)), ("tobias", ("Tobias",)), ("director", ("--director",))):
            done = table.script("invite", *args, "--server-url", table.url, "--json")
            assert done.returncode == 0, done.stderr
            links[who] = json.loads(done.stdout)["url"]
        with contextlib.ExitStack() as stack:
            mara, tobias, director = (stack.enter_context(headless_chromium("the shared table")) for _ in range(3))
            for browser, who, name in ((mara, "mara", "Mara Voss"), (tobias, "tobias", "Tobias Quell")):
                browser.set_window_size(390, 844)
                browser.get(links[who])
                assert wait_for(lambda b=browser, n=name: f"Signed in as {n}" in b.page_source), browser.page_source
            director.get(links["director"])
            assert wait_for(lambda: "Signed in as the Director" in director.page_source), director.page_source

            tobias.get(f"{table.url}/log")
            tobias.execute_script("window.stillThisPage = true;")
            mara.get(f"{table.url}/sheet/Mara")
            sheet = mara.find_element("tag name", "main").text
            assert "Mara Voss" in sheet and "grit" in sheet.lower(), sheet
            assert "{'" not in sheet and "None" not in sheet, sheet  # nested values shown as terms, not reprs
            mara.find_element("name", "reason").send_keys("Mara's phone, under the bridge")
            mara.find_element("css selector", 'button[value="spend"]').click()
            assert wait_for(lambda: "Mara's phone, under the bridge" in tobias.page_source), tobias.page_source
            assert tobias.execute_script("return window.stillThisPage === true;")  # live, not reloaded

            mara.get(f"{table.url}/recap")
            assert "Which leaves us here: the vault floods." in mara.page_source  # the recap ends on the Cliffhanger
            assert table.script("seed", "reveal").returncode == 0
            mara.get(f"{table.url}/roll/{roll}")
            assert mara.find_element("id", "roll-card").get_attribute("data-status") == "verified"

            for browser in (mara, tobias, director):
                browser.get(f"{table.url}/log")
            assert PRIVATE_NOTE in director.page_source
            assert PRIVATE_NOTE not in mara.page_source and PRIVATE_NOTE not in tobias.page_source
