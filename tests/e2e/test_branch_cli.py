"""`showrunner branch create/list/use/diff` on the standard campaign (see conftest.play)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import HEX64, PRIVATE_NOTE, assert_refused, fingerprint, head, log_events, play


def fork_what_if(run) -> dict:
    """what-if forks main after #5; on it Tobias regains 1 Retake (#7)."""
    created = run("branch", "create", "what-if", "--at", "5", "--json")
    assert created.code == 0, created
    regained = run("regain", "Tobias", "retake", "--reason", "Another take")
    assert regained.code == 0, regained
    return created.json()


# main at #8: Mara Spotlight 0/0 (1 exhausted), Tobias Grit 3/3 and Retake 1/3.
# what-if at #7: Mara Spotlight 0/1, Tobias Grit 2/3 and Retake 2/3.
SHEET_DIFFERENCES = [
    {"star": "Mara Voss", "field": "influence.spotlight.exhausted", "a": 1, "b": 0},
    {"star": "Mara Voss", "field": "influence.spotlight.max", "a": 0, "b": 1},
    {"star": "Tobias Quell", "field": "influence.grit.current", "a": 3, "b": 2},
    {"star": "Tobias Quell", "field": "influence.retake.current", "a": 1, "b": 2},
]


def test_branch_create_list_use(run, played: list[dict]) -> None:
    created = fork_what_if(run)
    assert set(created) == {"branch", "parent", "fork_version", "head"}
    assert (created["branch"], created["parent"], created["fork_version"]) == ("what-if", "main", 5)
    assert created["head"]["version"] == 6
    assert HEX64.match(created["head"]["hash"])

    # The new branch became current: its head, its log.
    assert head(run)["branch"] == "what-if"
    assert head(run)["version"] == 7
    events = log_events(run)
    assert events[:5] == played[:5]  # the parent's history up to the fork point, unchanged
    assert [(e["version"], e["type"]) for e in events[5:]] == [(6, "BranchForked"), (7, "InfluenceRegained")]
    assert events[5]["summary"] == "Branch 'what-if' forked from 'main' at #5"

    listed = run("branch", "list", "--json").json()
    assert listed["campaign"] == "neon-harbor"
    assert [
        {k: b[k] for k in ("name", "parent", "fork_version", "head_version", "current")} for b in listed["branches"]
    ] == [
        {"name": "main", "parent": None, "fork_version": None, "head_version": 8, "current": False},
        {"name": "what-if", "parent": "main", "fork_version": 5, "head_version": 7, "current": True},
    ]
    assert listed["branches"][0]["head_hash"] == played[7]["hash"]

    tree = run("branch", "list")
    assert tree.code == 0, tree
    lines = tree.out.splitlines()
    assert lines[0] == "neon-harbor"
    assert re.fullmatch(rf"└── main head #8 {played[7]['hash'][:12]}", lines[1])
    assert re.fullmatch(r"    └── \* what-if \(from #5\) head #7 [0-9a-f]{12}", lines[2])

    used = run("branch", "use", "main", "--json")
    assert used.json() == {"campaign": "neon-harbor", "branch": "main"}
    assert head(run)["version"] == 8
    assert run("branch", "use", "what-if").out == "Now on branch what-if of neon-harbor.\n"
    assert head(run)["version"] == 7
    # --branch overrides the current branch for one command.
    assert run("-b", "main", "head", "--json").json()["version"] == 8


def test_branch_create_no_use_and_from(run, played: list[dict]) -> None:
    out = run("branch", "create", "side", "--at", "3", "--no-use")
    assert out.out == "Created branch side from main at #3.\n"
    assert head(run)["branch"] == "main"
    deeper = run("branch", "create", "deeper", "--from", "side", "--json").json()
    assert (deeper["parent"], deeper["fork_version"]) == ("side", 4)
    assert head(run)["branch"] == "deeper"


def test_branch_diff(run, played: list[dict]) -> None:
    fork_what_if(run)
    what_if = log_events(run)  # what-if is current
    doc = run("branch", "diff", "main", "what-if", "--json").json()
    assert set(doc) == {"a", "b", "divergence", "only_in_a", "only_in_b", "sheet_differences"}
    assert (doc["a"], doc["b"]) == ("main", "what-if")
    assert doc["divergence"] == {"version": 5, "hash": played[4]["hash"]}
    assert doc["only_in_a"] == played[5:]
    assert doc["only_in_b"] == what_if[5:]
    assert [e["type"] for e in doc["only_in_b"]] == ["BranchForked", "InfluenceRegained"]
    assert doc["sheet_differences"] == SHEET_DIFFERENCES

    # The other way round swaps a and b.
    back = run("branch", "diff", "what-if", "main", "--json").json()
    assert back["divergence"]["version"] == 5
    assert back["only_in_a"] == doc["only_in_b"]
    assert back["sheet_differences"] == [{**d, "a": d["b"], "b": d["a"]} for d in SHEET_DIFFERENCES]

    human = run("branch", "diff", "main", "what-if")
    assert human.code == 0 and human.err == ""
    assert f"main and what-if share events #1 to #5 (hash {played[4]['hash'][:12]})" in human.out
    assert "Only in main (3)" in human.out
    assert "Only in what-if (2)" in human.out
    assert "Sheet differences (4)" in human.out
    assert re.search(r"Tobias Quell\s+│\s+influence\.retake\.current\s+│\s+1\s+│\s+2", human.out)


def test_branch_diff_of_a_branch_with_itself(run, played: list[dict]) -> None:
    doc = run("branch", "diff", "main", "main", "--json").json()
    assert doc["divergence"] == {"version": 8, "hash": played[7]["hash"]}
    assert doc["only_in_a"] == doc["only_in_b"] == []
    assert doc["sheet_differences"] == []


def test_branch_diff_seen_by_a_star_hides_the_private_note(run, played: list[dict]) -> None:
    fork_what_if(run)
    director = run("branch", "diff", "main", "what-if", "--json").json()
    assert PRIVATE_NOTE in [e["summary"] for e in director["only_in_a"]]
    star = run("--as", "Mara Voss", "branch", "diff", "main", "what-if", "--json")
    assert PRIVATE_NOTE not in star.out
    assert [e["version"] for e in star.json()["only_in_a"]] == [7, 8]
    assert star.json()["sheet_differences"] == SHEET_DIFFERENCES


def test_diff_of_siblings_and_of_a_grandchild_forked_below_its_parent(run, played: list[dict]) -> None:
    fork_what_if(run)  # what-if: main up to #5
    assert run("branch", "create", "alt", "--from", "main", "--at", "7").code == 0  # alt: main up to #7
    assert run("branch", "create", "deeper", "--from", "what-if", "--at", "3").code == 0  # below what-if's fork
    assert run("note", "deeper and deeper").code == 0

    def split(a: str, b: str) -> int:
        return run("branch", "diff", a, b, "--json").json()["divergence"]["version"]

    assert split("what-if", "alt") == 5
    assert split("alt", "main") == 7
    assert split("deeper", "main") == 3
    assert split("deeper", "what-if") == 3
    assert split("deeper", "alt") == 3
    deeper = log_events(run)
    assert deeper[:3] == played[:3]
    assert [(e["version"], e["type"]) for e in deeper[3:]] == [(4, "BranchForked"), (5, "NoteRecorded")]
    listed = {
        b["name"]: (b["parent"], b["fork_version"], b["head_version"])
        for b in run("branch", "list", "--json").json()["branches"]
    }
    assert listed == {
        "main": (None, None, 8),
        "what-if": ("main", 5, 7),
        "alt": ("main", 7, 8),
        "deeper": ("what-if", 3, 5),
    }
    tree = run("branch", "list").out
    assert "deeper (from #3) head #5" in tree and "alt (from #7) head #8" in tree


def test_branch_with_the_real_script(cli, played: list[dict]) -> None:
    created = cli("branch", "create", "what-if", "--at", "5")
    assert created.code == 0, created
    assert created.out == "Created branch what-if from main at #5 and switched to it.\n"
    assert cli("regain", "Tobias", "retake").code == 0
    tree = cli("branch", "list")
    assert "* what-if (from #5) head #7" in tree.out
    diff = cli("branch", "diff", "main", "what-if", "--json")
    assert diff.code == 0 and diff.err == ""
    assert diff.json()["divergence"]["version"] == 5
    assert diff.json()["sheet_differences"] == SHEET_DIFFERENCES
    assert_refused(cli("branch", "create", "what-if"), 1, "already has a branch 'what-if'")


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (("branch", "create", "x", "--at", "0"), 2, ("--at",)),
        (("branch", "create", "x", "--at", "9"), 1, ("branch 'main' has events #1 to #8; there is no event #9",)),
        (("branch", "create", "Bad Name"), 2, ("'Bad Name' is not a valid branch name",)),
        (("branch", "create", "a" * 41), 2, ("is not a valid branch name",)),
        (("branch", "create", "main"), 1, ("campaign 'neon-harbor' already has a branch 'main'",)),
        (("branch", "create", "x", "--from", "nope"), 1, ("has no branch 'nope' (branches: main)",)),
        (("branch", "use", "nope"), 1, ("campaign 'neon-harbor' has no branch 'nope' (branches: main)",)),
        (("branch", "diff", "main", "nope"), 1, ("has no branch 'nope'",)),
        (("branch", "diff", "main"), 2, ("Missing argument",)),
        (("--as", "Nobody", "branch", "create", "x"), 1, ("unknown Star 'Nobody'",)),
        (("-c", "nope", "branch", "list"), 1, ("no campaign named 'nope'",)),
    ],
)
def test_branch_bad_input(
    run, home: Path, played: list[dict], args: tuple[str, ...], code: int, needles: tuple[str, ...]
) -> None:
    before = fingerprint(run, home)
    assert_refused(run(*args, "--json"), code, *needles)
    assert fingerprint(run, home) == before
    assert head(run)["branch"] == "main"  # the current branch did not change either


def test_branch_flow_on_each_backend(run, db_url: str, home: Path) -> None:
    play(run, db=db_url)
    main = log_events(run, db=db_url)
    assert run("branch", "create", "what-if", "--at", "5", db=db_url).code == 0
    assert run("regain", "Tobias", "retake", db=db_url).code == 0
    doc = run("branch", "diff", "main", "what-if", "--json", db=db_url).json()
    assert doc["divergence"] == {"version": 5, "hash": main[4]["hash"]}
    assert doc["only_in_a"] == main[5:]
    assert doc["sheet_differences"] == SHEET_DIFFERENCES
    before = fingerprint(run, home, db=db_url)
    assert_refused(run("branch", "create", "x", "--at", "99", db=db_url), 1, "there is no event #99")
    assert_refused(run("branch", "create", "what-if", db=db_url), 1, "already has a branch")
    assert fingerprint(run, home, db=db_url) == before


def test_branch_list_pages(run, played: list[dict]) -> None:
    for name, at in (("b-early", "2"), ("b-late", "6"), ("b-mid", "4")):
        assert run("branch", "create", name, "--at", at, "--no-use").code == 0
    assert run("branch", "create", "b-deeper", "--from", "b-mid", "--no-use").code == 0
    doc = run("branch", "list", "--per-page", "2", "--page", "2", "--json").json()
    assert (doc["page"], doc["pages"], doc["total"]) == (2, 3, 5)
    assert [(b["name"], b["parent"]) for b in doc["branches"]] == [("b-mid", "main"), ("b-deeper", "b-mid")]
    tree = run("branch", "list", "-n", "2", "-p", "3")
    assert tree.code == 0 and "page 3 of 3 (5 branches)" in tree.out
    assert "b-late (from main #6)" in tree.out  # its parent is on another page
    assert_refused(run("branch", "list", "-p", "2"), 1, "page 2 does not exist: the branch list has 1 page of 50")
