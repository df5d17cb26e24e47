"""`showrunner invite …` and the refusals of `serve`: Director only, one line for bad input,
tokens shown once and stored only as hashes."""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Any

from .conftest import Runner, assert_refused, new_campaign


def issued(run: Runner, *args: str) -> dict[str, Any]:
    result = run("invite", *args, "--json")
    assert result.code == 0, result
    document: dict[str, Any] = result.json()
    return document


def test_an_invite_is_for_one_star_and_its_token_is_kept_only_as_a_hash(run: Runner, db: str) -> None:
    new_campaign(run)
    invite = issued(run, "mara", "--server-url", "https://table.example.org/")
    assert (invite["star"], invite["kind"], invite["live"], invite["director"]) == ("Mara Voss", "invite", True, False)
    assert invite["url"] == f"https://table.example.org/join#{invite['token']}"
    assert len(invite["token"]) >= 43  # 32 random bytes
    api = issued(run, "Tobias", "--api")
    assert api["kind"] == "api" and "url" not in api
    director = issued(run, "--director")
    assert (director["star"], director["director"]) == (None, True)
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT token_hash FROM srl_identities ORDER BY created_at").fetchall()
        whole = "\n".join(line for line in conn.iterdump())
    tokens = [invite["token"], api["token"], director["token"]]
    assert sorted(h for (h,) in stored) == sorted(hashlib.sha256(t.encode()).hexdigest() for t in tokens)
    assert not any(t in whole for t in tokens)


def test_invite_list_shows_no_token_and_revoke_ends_one(run: Runner) -> None:
    new_campaign(run)
    invite = issued(run, "Mara")
    listed = run("invite", "list", "--json")
    assert listed.code == 0 and invite["token"] not in listed.out
    (only,) = listed.json()["identities"]
    assert (only["id"], only["live"]) == (invite["id"], True)
    human = run("invite", "list")
    assert invite["id"] in human.out and "Mara Voss" in human.out and invite["token"] not in human.out
    revoked = issued(run, "revoke", invite["id"])
    assert revoked["revoked_at"] is not None and revoked["live"] is False
    assert "revoked" in run("invite", "list").out


def test_only_the_director_invites_lists_revokes_or_serves(run: Runner) -> None:
    new_campaign(run)
    invite = issued(run, "Mara")
    for args in (("invite", "Mara"), ("invite", "--director"), ("invite", "list"), ("invite", "revoke", invite["id"])):
        assert_refused(run("--as", "Mara", *args), 1, "only the Director")
    assert_refused(run("--as", "Mara", "serve", "--port", "9"), 1, "only the Director runs the server")


def test_bad_invites_are_refused_in_one_line(run: Runner, db: str, tmp_path: Any) -> None:
    new_campaign(run)
    assert_refused(run("invite", "Nobody"), 1, "Nobody")
    assert_refused(run("invite"), 2, "name the Star to invite, or give --director")
    assert_refused(run("invite", "Mara", "--director"), 2, "not both")
    assert_refused(run("invite", "revoke", "0000"), 1, "no invite or token has the id '0000'")
    assert run("invite", "list", "--json").json()["identities"] == []  # nothing was written
    assert_refused(run("serve", "--port", "9", db=str(tmp_path / "none.sqlite")), 2, "there is no ledger")
