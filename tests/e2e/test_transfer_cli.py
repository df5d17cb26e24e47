"""`showrunner export` and `showrunner import`: a branch's lineage as JSONL, and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import PRIVATE_NOTE, PUBLIC_NOTE, assert_refused, fingerprint, head, log_events


@pytest.fixture
def exported(run, tmp_path: Path, played: list[dict]) -> Path:
    path = tmp_path / "neon-harbor.jsonl"
    result = run("export", "-o", path)
    assert result.code == 0, result
    return path


@pytest.fixture
def other(tmp_path: Path) -> str:
    """A second database to import into."""
    return str(tmp_path / "other.sqlite")


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_export_and_import_with_the_real_script(cli, tmp_path: Path, other: str, played: list[dict]) -> None:
    path = tmp_path / "out.jsonl"
    exported = cli("export", "-o", path, "--json")
    assert exported.code == 0, exported
    assert exported.err == ""
    assert exported.json() == {"file": str(path), "branch": "main", "events": 8, "redacted": False}
    assert len(lines_of(path)) == 9  # the header, then one line per event
    assert not path.with_name(path.name + ".partial").exists()

    imported = cli("import", path, "--json", db=other)
    assert imported.code == 0, imported
    assert imported.json() == {
        "campaign": "neon-harbor",
        "branch": "main",
        "events": 8,
        "head": {"version": 8, "hash": played[7]["hash"]},
        "verified": True,
    }
    # The same head and the same events, byte for byte in meaning, in the other database.
    assert cli("head", db=other).out == cli("head").out
    assert json.loads(cli("log", "--json", db=other).out)["events"] == played
    assert cli("verify", db=other).out == "OK: 8 events of main verified.\n"


def test_export_file_format(run, exported: Path, played: list[dict]) -> None:
    header, *events = [json.loads(line) for line in lines_of(exported)]
    assert header["format"] == "showrunner-ledger/export"
    assert header["format_version"] == 1
    assert header["campaign"]["name"] == "neon-harbor"
    assert header["campaign"]["title"] == "Neon Harbor"
    assert header["branch"] == "main"
    assert header["events"] == 8
    assert header["head"] == {"version": 8, "hash": played[7]["hash"]}
    assert header["redacted"] is False
    assert [e["version"] for e in events] == list(range(1, 9))
    assert [e["hash"] for e in events] == [p["hash"] for p in played]
    assert [e["prev_hash"] for e in events] == ["0" * 64] + [p["hash"] for p in played[:-1]]
    assert [e["topic"] for e in events] == [p["topic"] for p in played]
    assert events[5]["payload"] == {"text": PRIVATE_NOTE}


def test_human_export_and_import(run, tmp_path: Path, exported: Path, other: str, played: list[dict]) -> None:
    again = tmp_path / "again.jsonl"
    out = run("export", "--output", again)
    assert out.out == f"Exported 8 events of neon-harbor/main to {again}.\n"
    assert again.read_text() == exported.read_text()
    imported = run("import", again, db=other)
    assert imported.code == 0, imported
    assert (
        imported.out
        == f"Imported 8 events as campaign neon-harbor, branch main; chain verified up to 8:{played[7]['hash'][:12]}.\n"
    )
    # The imported campaign is the current one in the other database.
    assert run("campaign", "list", "--json", db=other).json()["campaigns"][0]["current"] is True


def test_export_to_stdout(run, exported: Path) -> None:
    out = run("export", "-o", "-")
    assert out.code == 0 and out.err == ""
    assert out.out.splitlines() == lines_of(exported)
    assert_refused(run("export", "-o", "-", "--json"), 2, "--json")


def test_export_of_a_branch_and_import_keeps_its_lineage(run, tmp_path: Path, other: str, played: list[dict]) -> None:
    run("branch", "create", "what-if", "--at", "5")
    run("regain", "Tobias", "retake")
    run("branch", "create", "deeper", "--at", "6")
    run("note", "deeper still")
    source = log_events(run)
    assert [e["version"] for e in source] == list(range(1, 9))
    path = tmp_path / "deeper.jsonl"
    assert run("export", "-o", path, "--json").json()["events"] == 8

    result = run("import", path, "--json", db=other).json()
    assert (result["campaign"], result["branch"], result["events"]) == ("neon-harbor", "deeper", 8)
    assert head(run, db=other) == {**head(run)}
    assert log_events(run, db=other) == source
    listed = {
        b["name"]: (b["parent"], b["fork_version"], b["head_version"])
        for b in run("branch", "list", "--json", db=other).json()["branches"]
    }
    # Only the lineage travels: main up to the fork, what-if up to its own fork.
    assert listed == {"main": (None, None, 5), "what-if": ("main", 5, 6), "deeper": ("what-if", 6, 8)}
    for branch in listed:
        assert run("-b", branch, "verify", "--json", db=other).json()["ok"] is True


def test_export_of_a_grandchild_forked_below_its_parent(
    run, home: Path, tmp_path: Path, other: str, played: list[dict]
) -> None:
    """deeper forks what-if at #3, below what-if's own fork point (#5): what-if holds none of its
    events, so deeper cannot be registered under the parent its own first event names."""
    run("branch", "create", "what-if", "--at", "5")
    run("branch", "create", "deeper", "--at", "3")
    run("note", "deeper still")
    path = tmp_path / "deeper.jsonl"
    assert run("export", "-o", path).code == 0
    run("campaign", "new", "Side Show", db=other)
    before = fingerprint(run, home, db=other)
    assert_refused(
        run("import", path, db=other),
        1,
        "line 5: branch 'deeper' was forked from 'what-if' below that branch's own fork point",
    )
    assert fingerprint(run, home, db=other) == before


def test_a_star_export_redacts_the_private_note(run, tmp_path: Path, exported: Path, played: list[dict]) -> None:
    path = tmp_path / "mara.jsonl"
    result = run("--as", "Mara Voss", "export", "-o", path, "--json")
    assert result.json() == {"file": str(path), "branch": "main", "events": 8, "redacted": True}
    text = path.read_text(encoding="utf-8")
    assert PRIVATE_NOTE not in text
    assert "harbourmaster" not in text
    assert PUBLIC_NOTE in text
    header, *events = [json.loads(line) for line in text.splitlines()]
    assert header["redacted"] is True
    full = [json.loads(line) for line in lines_of(exported)[1:]]
    # Only the links of the hidden event are left: not what, when, by whom or of which kind.
    assert events[5] == {
        "branch": full[5]["branch"],
        "version": 6,
        "campaign": full[5]["campaign"],
        "prev_hash": full[5]["prev_hash"],
        "hash": full[5]["hash"],
        "redacted": True,
    }
    # The chain is still there: a player can check the links around the hidden event.
    assert events[6]["prev_hash"] == events[5]["hash"] and events[5]["prev_hash"] == events[4]["hash"]
    assert [e["hash"] for e in events] == [e["hash"] for e in full]
    # Every other line is the Director's line.
    assert [e for i, e in enumerate(events) if i != 5] == [e for i, e in enumerate(full) if i != 5]
    # To stdout as well.
    streamed = run("--as", "mara", "export", "-o", "-")
    assert PRIVATE_NOTE not in streamed.out
    assert streamed.out.splitlines()[1:] == text.splitlines()[1:]


# ------------------------------------------------------------------ refused imports


def _corrupt(exported: Path, tmp_path: Path) -> dict[str, tuple[Path, int, tuple[str, ...]]]:
    lines = lines_of(exported)

    def write(name: str, content: list[str] | str) -> Path:
        path = tmp_path / name
        path.write_text(content if isinstance(content, str) else "\n".join(content) + "\n", encoding="utf-8")
        return path

    edited = list(lines)
    doc = json.loads(edited[4])
    assert doc["payload"] == {"text": PUBLIC_NOTE}
    doc["payload"]["text"] = "Episode 1: a quiet night"
    edited[4] = json.dumps(doc, separators=(",", ":"))
    relinked = list(lines)
    doc = json.loads(relinked[5])
    doc["prev_hash"] = "f" * 64
    relinked[5] = json.dumps(doc, separators=(",", ":"))
    foreign = list(lines)
    doc = json.loads(foreign[3])
    doc["branch"] = "00000000-0000-0000-0000-000000000001"
    foreign[3] = json.dumps(doc, separators=(",", ":"))
    wrong_header = json.loads(lines[0])
    wrong_header["format_version"] = 99
    return {
        "truncated": (
            write("truncated.jsonl", lines[:-2]),
            1,
            ("line 8: the file ends after event #6 but its header announces 8 events", "truncated"),
        ),
        "edited line": (
            write("edited.jsonl", edited),
            1,
            ("line 5: event #4 does not match its hash: the line was edited",),
        ),
        "broken link": (write("relinked.jsonl", relinked), 1, ("line 6: event #5 does not link to event #4",)),
        "non-JSON line": (
            write("garbage.jsonl", lines[:3] + ["this is not JSON"] + lines[4:]),
            1,
            ("line 4: not valid JSON",),
        ),
        "blank line": (write("blank.jsonl", lines[:3] + [""] + lines[3:]), 1, ("line 4: empty line",)),
        "lines swapped": (
            write("swapped.jsonl", [lines[0], lines[2], lines[1], *lines[3:]]),
            1,
            ("line 2: expected event #1, found #2",),
        ),
        "event of another branch": (
            write("foreign.jsonl", foreign),
            1,
            ("line 4: event #3 belongs to a branch outside the file's lineage",),
        ),
        "empty file": (write("empty.jsonl", ""), 1, ("the file is empty; expected a showrunner-ledger export",)),
        "not an export": (write("other.jsonl", ['{"hello": "world"}']), 1, ("line 1: not a showrunner-ledger export",)),
        "JSON but not an object": (write("list.jsonl", ["[1, 2, 3]"]), 1, ("line 1: expected a JSON object",)),
        "future format": (
            write("future.jsonl", [json.dumps(wrong_header), *lines[1:]]),
            1,
            ("line 1: export format version 99 is not supported",),
        ),
        "not UTF-8": (tmp_path / "binary.jsonl", 1, ("not UTF-8",)),
        "missing file": (tmp_path / "nowhere.jsonl", 1, ("nowhere.jsonl", "No such file or directory")),
        "a directory": (tmp_path, 1, (str(tmp_path),)),
    }


CASES = [
    "truncated",
    "edited line",
    "broken link",
    "non-JSON line",
    "blank line",
    "lines swapped",
    "event of another branch",
    "empty file",
    "not an export",
    "JSON but not an object",
    "future format",
    "not UTF-8",
    "missing file",
    "a directory",
]


@pytest.mark.parametrize("case", CASES)
def test_bad_import_is_refused_and_writes_nothing(
    run, home: Path, tmp_path: Path, exported: Path, other: str, case: str
) -> None:
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe{}\n")
    path, code, needles = _corrupt(exported, tmp_path)[case]
    run("campaign", "new", "Side Show", db=other)  # the target already holds another campaign
    before = fingerprint(run, home, db=other)
    assert_refused(run("import", path, "--json", db=other), code, *needles)
    assert fingerprint(run, home, db=other) == before
    assert [c["name"] for c in before["campaigns"]] == ["side-show"]


def test_a_header_without_its_branch_with_the_real_script(cli, tmp_path: Path, exported: Path) -> None:
    lines = lines_of(exported)
    header = json.loads(lines[0])
    del header["branch"]
    path = tmp_path / "no-branch.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    target = str(tmp_path / "fresh.sqlite")
    assert_refused(cli("import", path, db=target), 1, "line 1: the export header lacks 'branch'")
    # Nothing was written: not even the database file.
    assert not Path(target).exists()
    assert cli("campaign", "list", "--json", db=target).json()["campaigns"] == []


HOSTILE = {
    "branch renamed Bad Name/../x": (
        "lineage",
        1,
        "name",
        "Bad Name/../x",
        "the header's lineage[1].name 'Bad Name/../x' is not the branch's own",
    ),
    "empty branch name": ("lineage", 1, "name", "", "the header's lineage[1].name '' is not the branch's own"),
    "a second main": ("lineage", 1, "name", "main", "the header's lineage[1].name 'main' is not the branch's own"),
    "ruleset dnd": (
        "campaign",
        None,
        "ruleset",
        "dnd",
        "the header's campaign.ruleset 'dnd' is not the campaign's own, 'showrunner'",
    ),
    "ruleset pool": (
        "campaign",
        None,
        "ruleset",
        "pool",
        "the header's campaign.ruleset 'pool' is not the campaign's own, 'showrunner'",
    ),
    "ANSI title": (
        "campaign",
        None,
        "title",
        "\x1b[2JNeon",
        "the header's campaign.title '\\x1b[2JNeon' is not the campaign's own",
    ),
    "head.hash an int": (
        "head",
        None,
        "hash",
        5,
        "'head.hash' in the export header must be a string, not a whole number",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_header_is_refused_with_one_line(
    run, home: Path, tmp_path: Path, other: str, played: list[dict], case: str
) -> None:
    run("branch", "create", "what-if", "--at", "5")
    run("note", "on the fork")
    path = tmp_path / "what-if.jsonl"
    assert run("export", "-o", path).code == 0
    lines = lines_of(path)
    header = json.loads(lines[0])
    key, index, field, value, needle = HOSTILE[case]
    (header[key][index] if index is not None else header[key])[field] = value
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    run("campaign", "new", "Side Show", db=other)
    before = fingerprint(run, home, db=other)
    line = assert_refused(run("import", path, db=other), 1, "line 1: ", needle)
    assert "\x1b" not in line
    assert fingerprint(run, home, db=other) == before


def test_an_event_naming_its_branch_0_is_refused(run, home: Path, tmp_path: Path, exported: Path, other: str) -> None:
    lines = lines_of(exported)
    event = json.loads(lines[3])
    event["branch"] = 0
    path = tmp_path / "branch-0.jsonl"
    path.write_text("\n".join([*lines[:3], json.dumps(event), *lines[4:]]) + "\n", encoding="utf-8")
    before = fingerprint(run, home, db=other)
    assert_refused(
        run("import", path, db=other), 1, "line 4: 'branch' in the event must be a string, not a whole number"
    )
    assert fingerprint(run, home, db=other) == before
    assert before["campaigns"] == []


def test_crlf_and_a_byte_order_mark_import(run, tmp_path: Path, exported: Path, other: str, played: list[dict]) -> None:
    path = tmp_path / "windows.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + exported.read_bytes().replace(b"\n", b"\r\n"))
    assert run("import", path, db=other).code == 0
    assert log_events(run, db=other) == played
    assert run("verify", "--json", db=other).json()["ok"] is True


def test_a_redacted_player_export_cannot_be_imported(
    run, home: Path, tmp_path: Path, other: str, played: list[dict]
) -> None:
    path = tmp_path / "mara.jsonl"
    run("--as", "Mara Voss", "export", "-o", path)
    before = fingerprint(run, home, db=other)
    assert_refused(
        run("import", path, db=other), 1, "a redacted (player) export cannot be imported; export it as the Director"
    )
    # Even with the header's flag removed, the redacted line is refused.
    lines = lines_of(path)
    header = json.loads(lines[0])
    header["redacted"] = False
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert_refused(run("import", path, db=other), 1, "line 7: a redacted (player) export cannot be imported")
    assert fingerprint(run, home, db=other) == before
    assert (before["campaigns"], before["branches"]) == ([], {})


def test_a_second_import_is_refused(run, home: Path, exported: Path, other: str) -> None:
    assert run("import", exported, db=other).code == 0
    before = fingerprint(run, home, db=other)
    assert_refused(run("import", exported, db=other), 1, "campaign neon-harbor (", ") is already in this database")
    # Not under another name either: it is the same campaign.
    assert_refused(run("import", exported, "--name", "copy", db=other), 1, "is already in this database")
    assert fingerprint(run, home, db=other) == before


def test_import_name_clash_and_rename(run, home: Path, exported: Path, other: str) -> None:
    run("campaign", "new", "Neon Harbor", db=other)  # a different campaign with the same name
    before = fingerprint(run, home, db=other)
    assert_refused(
        run("import", exported, db=other),
        1,
        "a campaign named 'neon-harbor' already exists here; import with --name NEW",
    )
    assert_refused(
        run("import", exported, "--name", "Bad Name", db=other), 2, "'Bad Name' is not a valid campaign name"
    )
    assert fingerprint(run, home, db=other) == before
    renamed = run("import", exported, "--name", "neon-copy", "--json", db=other)
    assert renamed.code == 0, renamed
    assert renamed.json()["campaign"] == "neon-copy"
    assert [c["name"] for c in run("campaign", "list", "--json", db=other).json()["campaigns"]] == [
        "neon-copy",
        "neon-harbor",
    ]
    assert head(run, db=other)["campaign"] == "neon-copy"


def test_export_then_import_into_each_backend(run, exported: Path, db_url: str, played: list[dict]) -> None:
    """From this test's SQLite database into a fresh SQLite file or PostgreSQL schema."""
    result = run("import", exported, "--json", db=db_url)
    assert result.code == 0, result
    assert head(run, db=db_url) == head(run)
    assert log_events(run, db=db_url) == played
    assert run("verify", "--json", db=db_url).json()["ok"] is True
    assert_refused(run("import", exported, db=db_url), 1, "already in this database")


def test_exports_and_timeline_pages_are_readable_by_their_owner_alone(run, tmp_path) -> None:
    import stat

    assert run("campaign", "new", "Private Files").code == 0
    assert run("note", "--private", "The harbourmaster is the informant").code == 0
    export = tmp_path / "x.jsonl"
    page = tmp_path / "t.html"
    assert run("export", "-o", export).code == 0
    assert run("timeline", "--director", "--html", page).code == 0
    for path in (export, page):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert not path.with_name(path.name + ".partial").exists()
    # An existing file is replaced by a private one, not written through its old mode.
    export.chmod(0o644)
    assert run("export", "-o", export).code == 0
    assert stat.S_IMODE(export.stat().st_mode) == 0o600
    folder = tmp_path / "a-folder"
    folder.mkdir()
    refused = run("export", "-o", folder)
    assert refused.code != 0 and "Traceback" not in refused.err
    assert not (tmp_path / "a-folder.partial").exists()
