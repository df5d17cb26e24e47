"""A whole season through the command line, as a group plays it: a Star cast with the book's
Casting chapters (`star create`, every step), the Inciting Incident and the Founders' Boons, an
Episode of play ending in its Post-Show, then the last Episode's Finale to The End; every roll
audits against its record, the chain verifies, and the recap tells the season's last Episode."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_casting_cli import ADA, cast_ada, ok


def finish_casting(run: Any) -> None:
    ok(
        run,
        *("star", "casting", "wardrobe", "Ada"),
        *("--look", "Green cloak", "--mannerism", "Hums", "--agenda", "Find the lost grove"),
        *("--archetype", "Scout", "--secondary", "work", "--trinket", "An acorn"),
    )
    ok(run, "star", "casting", "join", "Ada")
    ok(
        run,
        *("star", "casting", "inciting-incident"),
        *("--ally", "Elves,channel", "--antagonist", "The Ash King,fight,HARD", "--specialty", "Ada=Rally"),
        *("--dilemma", "10", "--secondary-roll", "5", "--power", "3,4,2,5"),
    )
    ok(run, "star", "casting", "founders-boons", "--benefit", "+1 Grit for every Star", "--home", "The Hollow Oak")


def test_a_season_from_casting_to_the_end(run):
    cast_ada(run)
    finish_casting(run)
    assert [s["name"] for s in ok(run, "star", "list", "--json").json()["stars"]] == [ADA]

    # Episode 1: a check with table dice, a spend, and the Post-Show's Acclaim.
    ok(run, "episode", "start", "The Grove Burns")
    before = ok(run, "sheet", "Ada", "--json").json()["star"]
    checked = ok(run, "check", "Ada", "sense", "-d", "NORMAL", "--action", "6,5", "--script", "2,3", "--json").json()
    assert checked["outcome"] in ("success", "highlight"), checked
    ok(run, "spend", "Ada", "grit", "--reason", "held the line")
    ok(run, "episode", "end", "--cliffhanger", "The Ash King's banner on the ridge", "--acclaim", "Ada=1")
    after = ok(run, "sheet", "Ada", "--json").json()["star"]
    assert after["influence"]["grit"]["current"] == before["influence"]["grit"]["current"] - 1

    # Episode 2, the season's last: the Finale against the Inciting Incident's antagonist.
    ok(run, "episode", "start", "Ash and Oak")
    ok(run, "finale", "begin")
    ok(
        run,
        *("finale", "scene", "Ada", "--world", "-d", "EPIC", "--outcome", "success"),
        *("--declare", "I plant the last acorn"),
    )
    ok(run, "finale", "turn", "Ada", "--pass")
    assert ok(run, "finale", "end").out.startswith("#")
    assert ok(run, "finale", "show", "--json").json()["finale"]["ended"] is True
    ok(run, "episode", "end", "--no-cliffhanger", "--skip-post-show")

    # Everything a Star might dispute holds: each Casting table roll and check re-judges and
    # the chain verifies; the recap of the season's last Episode tells The End.
    audit = run("audit", "--all")
    assert audit.code == 0 and "every roll MATCHES" in audit.out, audit
    assert ok(run, "verify").code == 0
    recap = ok(run, "--as", ADA, "recap", "--json").json()
    assert "The End" in str(recap), recap
    log = ok(run, "log", "--json").json()
    types = [e["type"] for e in log["events"]]
    for fact in ("HeritageChosen", "CastingCompleted", "StarJoined", "IncitingIncidentPlayed", "EpisodeEnded"):
        assert fact in types, (fact, types)
    assert (
        types.index("StarJoined")
        < types.index("EpisodeStarted")
        < types.index("FinaleBegan")
        < types.index("FinaleEnded")
    )
