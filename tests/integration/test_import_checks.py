"""What an import checks, case by case: the header trusted for nothing, names by the rule,
the ruleset and title from the first event, JSON of any shape; refused with one line and
nothing written, on every backend.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.errors import BadImport
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.transfer import check_export, import_lines, text_lines
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import make_settings
from tests.integration.import_cases import FORK, as_bytes, build_export, edit_header, forge, fork_version, holdings

Lines = list[str]


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Lines:
    return build_export(tmp_path_factory.mktemp("checks-source"))


@pytest.fixture
def target(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    instance = bootstrap(make_settings(db_url, tmp_path))
    instance.create_campaign(Pitch(title="Side Show"))
    yield instance
    instance.close()


def _event(lines: Lines, number: int, **changes: Any) -> Lines:
    """Event #number's line with fields replaced as they are, hashes untouched."""
    doc = json.loads(lines[number])
    doc.update(changes)
    return [*lines[:number], json.dumps(doc), *lines[number + 1 :]]


def _raw(lines: Lines, number: int, field: str, token: str) -> Lines:
    """Event #number's field replaced by a raw JSON token (NaN, a huge number, deep nesting)."""
    doc = json.loads(lines[number])
    doc[field] = "\u0000RAW\u0000"
    text = json.dumps(doc).replace(json.dumps("\u0000RAW\u0000"), token)
    return [*lines[:number], text, *lines[number + 1 :]]


def _fork_named(name: str) -> Callable[[Lines], Lines]:
    def spoil(lines: Lines) -> Lines:
        forged = forge(lines, fork_version(lines), lambda payload: payload.update(name=name))
        return edit_header(forged, "lineage.1.name", name)

    return spoil


def _pitch(**changes: Any) -> Callable[[Lines], Lines]:
    def spoil(lines: Lines) -> Lines:
        forged = forge(lines, 1, lambda payload: payload["pitch"].update(changes))
        for key, value in changes.items():
            forged = edit_header(forged, f"campaign.{key}", value)
        return forged

    return spoil


# Each case: how the file is spoiled, and what the one line says (`{fork}` is the fork's version).
CASES: dict[str, tuple[Callable[[Lines], Lines], str]] = {
    # The header says something the events do not.
    "header without branch": (
        lambda ls: edit_header(ls, "branch", delete=True),
        "line 1: the export header lacks 'branch'",
    ),
    "branch renamed in the header": (
        lambda ls: edit_header(ls, "branch", "other"),
        "line 1: the header's branch 'other' is not the exported branch's own name, 'what-if'",
    ),
    "fork renamed Bad Name/../x in the header": (
        lambda ls: edit_header(ls, "lineage.1.name", "Bad Name/../x"),
        "line 1: the header's lineage[1].name 'Bad Name/../x' is not the branch's own, 'what-if' (event #{fork})",
    ),
    "fork given an empty name in the header": (
        lambda ls: edit_header(ls, "lineage.1.name", ""),
        "line 1: the header's lineage[1].name '' is not the branch's own, 'what-if'",
    ),
    "a second main in the header": (
        lambda ls: edit_header(ls, "lineage.1.name", "main"),
        "line 1: the header's lineage[1].name 'main' is not the branch's own, 'what-if'",
    ),
    "main renamed in the header": (
        lambda ls: edit_header(ls, "lineage.0.name", "trunk"),
        "line 1: the header's lineage[0].name 'trunk' is not the branch's own, 'main' (the main branch)",
    ),
    "fork point moved in the header": (
        lambda ls: edit_header(ls, "lineage.1.fork_version", fork_version(ls)),
        "line {fork_line}: event #{fork} belongs to a branch outside the file's lineage",
    ),
    "fork re-parented in the header": (
        lambda ls: edit_header(ls, "lineage.1.parent_branch_id", "00000000-0000-0000-0000-000000000007"),
        "line 1: the export header's lineage[1].parent_branch_id is not the branch before it in the lineage",
    ),
    "ruleset dnd in the header": (
        lambda ls: edit_header(ls, "campaign.ruleset", "dnd"),
        "line 1: the header's campaign.ruleset 'dnd' is not the campaign's own, 'showrunner' (event #1)",
    ),
    "ruleset pool in the header": (
        lambda ls: edit_header(ls, "campaign.ruleset", "pool"),
        "line 1: the header's campaign.ruleset 'pool' is not the campaign's own, 'showrunner' (event #1)",
    ),
    "ANSI title in the header": (
        lambda ls: edit_header(ls, "campaign.title", "\x1b[2JNeon Harbor"),
        "line 1: the header's campaign.title '\\x1b[2JNeon Harbor' is not the campaign's own, 'Neon Harbor' (event #1)",
    ),
    "campaign renamed in the header": (
        lambda ls: edit_header(ls, "campaign.name", "other"),
        "line 1: the header's campaign.name 'other' is not the campaign's own, 'neon-harbor' (event #1)",
    ),
    "head.hash an int": (
        lambda ls: edit_header(ls, "head.hash", 5),
        "line 1: 'head.hash' in the export header must be a string, not a whole number",
    ),
    "head.version off by one": (
        lambda ls: edit_header(ls, "head.version", len(ls)),
        "line 1: the header's head.version is {last_plus_one}, but the file's last event is #{last}",
    ),
    "lineage a list of strings": (
        lambda ls: edit_header(ls, "lineage", ["main"]),
        "line 1: 'lineage[0]' in the export header must be an object, not a string",
    ),
    "an unknown header field": (
        lambda ls: edit_header(ls, "note", "trust me"),
        "line 1: the export header has a field an export does not write: 'note'",
    ),
    # A forger's file: the events themselves changed, every hash recomputed.
    "fork named Bad Name/../x by its own event": (
        _fork_named("Bad Name/../x"),
        "line {fork_line}: event #{fork} forks a branch under 'Bad Name/../x', not a valid branch name",
    ),
    "fork named '' by its own event": (
        _fork_named(""),
        "line {fork_line}: event #{fork} forks a branch under '', not a valid branch name",
    ),
    "fork named main by its own event": (
        _fork_named("main"),
        "line {fork_line}: event #{fork} forks a second branch named 'main'",
    ),
    "fork naming another parent": (
        lambda ls: forge(ls, fork_version(ls), lambda p: p.update(parent_name="other")),
        "line {fork_line}: event #{fork} names its parent 'other', but the branch before it is 'main'",
    ),
    "campaign started under an invalid name": (
        lambda ls: edit_header(forge(ls, 1, lambda p: p.update(name="Bad Name")), "campaign.name", "Bad Name"),
        "line 2: event #1 starts the campaign under 'Bad Name', not a valid campaign name",
    ),
    "ruleset dnd in the first event": (
        _pitch(ruleset="dnd"),
        "line 2: event #1 starts the campaign with the ruleset 'dnd', which this version does not know",
    ),
    "ruleset pool over a Showrunner log": (
        _pitch(ruleset="pool"),
        "line 3: event #2 (showrunner/StarJoined) has no place in a pool campaign's log",
    ),
    "ANSI title in the first event": (
        _pitch(title="\x1b[2JNeon Harbor"),
        "line 2: event #1 gives the campaign a title that is not plain text: character 1 is a control or formatting character (U+001B)",
    ),
    "bidi override in the first event's title": (
        _pitch(title="Neon \u202eHarbor"),
        "line 2: event #1 gives the campaign a title that is not plain text: character 6 is a control or formatting character (U+202E)",
    ),
    "a title that would be stored otherwise": (
        _pitch(title=" Neon Harbor"),
        "line 2: event #1 (ledger/CampaignStarted) would not be stored as it was written (its payload reads back otherwise)",
    ),
    # JSON of the wrong shape anywhere.
    '"branch": 0 in an event': (
        lambda ls: _event(ls, 1, branch=0),
        "line 2: 'branch' in the event must be a string, not a whole number",
    ),
    '"version": true': (
        lambda ls: _event(ls, 1, version=True),
        "line 2: 'version' in the event must be a whole number, not true or false",
    ),
    '"version": "1"': (
        lambda ls: _event(ls, 1, version="1"),
        "line 2: 'version' in the event must be a whole number, not a string",
    ),
    "a list for the payload": (
        lambda ls: _event(ls, 3, payload=[]),
        "line 4: 'payload' in the event must be an object, not a list",
    ),
    "an uppercase branch id": (
        lambda ls: _event(ls, 1, branch=json.loads(ls[1])["branch"].upper()),
        "line 2: 'branch' in the event is not a UUID written as an export writes one",
    ),
    "an unknown event field": (
        lambda ls: _event(ls, 2, extra=1),
        "line 3: the event has a field an export does not write: 'extra'",
    ),
    "an event without its topic": (
        lambda ls: [*ls[:2], json.dumps({k: v for k, v in json.loads(ls[2]).items() if k != "topic"}), *ls[3:]],
        "line 3: the event lacks 'topic'",
    ),
    "a lone surrogate in a note": (
        lambda ls: _event(ls, 4, payload={"text": "\ud800"}),
        "line 5: event #4 holds text that is not valid Unicode",
    ),
    "NaN": (lambda ls: _raw(ls, 2, "schema", "NaN"), "line 3: not valid JSON (NaN is not a JSON number)"),
    "Infinity": (
        lambda ls: _raw(ls, 2, "version", "-Infinity"),
        "line 3: not valid JSON (-Infinity is not a JSON number)",
    ),
    "1e400": (lambda ls: _raw(ls, 2, "version", "1e400"), "line 3: not valid JSON (the number 1e400 is too large)"),
    "an integer of 5000 digits": (
        lambda ls: _raw(ls, 2, "version", "9" * 5000),
        "line 3: not valid JSON for an export (a number too long to read)",
    ),
    "nesting 100000 deep": (
        lambda ls: _raw(ls, 2, "payload", "[" * 100_000 + "]" * 100_000),
        "line 3: not valid JSON for an export (nested too deeply)",
    ),
    "a JSON string for a line": (lambda ls: [ls[0], '"event"', *ls[2:]], "line 2: expected a JSON object"),
    "a blank line": (lambda ls: [*ls[:3], "  ", *ls[3:]], "line 4: empty line"),
}


def _message(template: str, lines: Lines) -> str:
    fork = fork_version(lines)
    last = len(lines) - 1
    return template.format(fork=fork, fork_line=fork + 1, last=last, last_plus_one=last + 1)


@pytest.mark.parametrize("case", list(CASES))
def test_a_spoiled_file_is_refused_with_nothing_written(
    target: Ledger, original: Lines, tmp_path: Path, case: str
) -> None:
    spoil, template = CASES[case]
    before = holdings(target, tmp_path)
    data = as_bytes(spoil(list(original)))
    with pytest.raises(BadImport) as refused:
        import_lines(target, text_lines(data))
    message = str(refused.value)
    assert _message(template, original) in message
    assert "\n" not in message and "\x1b" not in message and "\u202e" not in message
    assert holdings(target, tmp_path) == before


SHAPES: dict[str, Callable[[bytes], bytes]] = {
    "CRLF line endings": lambda data: data.replace(b"\n", b"\r\n"),
    "a byte-order mark": lambda data: b"\xef\xbb\xbf" + data,
    "no final newline": lambda data: data[:-1],
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_text_of_the_file_may_vary_where_json_lines_allows(target: Ledger, original: Lines, shape: str) -> None:
    data = SHAPES[shape](as_bytes(original))
    result = import_lines(target, text_lines(data))
    assert (result.campaign, result.branch, result.events) == ("neon-harbor", FORK, len(original) - 1)
    copied = target.resolve(result.campaign, FORK)
    assert [e.hash for e in target.events(copied)] == [json.loads(line)["hash"] for line in original[1:]]
    for name in ("main", FORK):
        assert verify_branch(target, target.resolve(result.campaign, name)).ok


def test_names_and_facts_come_from_the_events(original: Lines) -> None:
    checked = check_export(original)
    header = json.loads(original[0])
    assert (checked.name, checked.title, checked.ruleset, checked.branch) == (
        "neon-harbor",
        "Neon Harbor",
        "showrunner",
        FORK,
    )
    assert [(b.name, b.fork_version) for b in checked.branches] == [("main", 0), (FORK, fork_version(original) - 1)]
    assert [str(b.id) for b in checked.branches] == [e["branch_id"] for e in header["lineage"]]
    assert checked.branches[1].parent_id == checked.branches[0].id


def test_a_file_that_is_not_utf8_is_refused_with_its_line() -> None:
    with pytest.raises(BadImport, match=r"^line 2: the file is not UTF-8 text \(byte 5\)"):
        text_lines(b'{}\n{"\xff"}\n')
