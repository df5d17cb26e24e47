"""Hostile text through the real command line: refused as it comes in, shown escaped when it is
already in the log (recorded before the checks), and `--json` exact.

A log written before names and texts were checked may hold an ANSI escape, a bidi override or
rich markup: the tests put such facts in through the ledger's API, as a decoded fact (which is
how the log reads them back), then read them with every face.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.facts import NoteRecorded
from tests.conftest import make_settings
from tests.e2e.conftest import Runner, assert_refused, fingerprint, log_events, new_campaign, play

NOTE = "Clear \x1b[2J then \u202ereversed [bold]loud[/bold] and [/x]"
NAME = "Evil\x1b[31m\u202eKnight [bold]"
RAW = ("\x1b", "\u202e")


def _plant(db: str, home: Path) -> None:
    """A note and a Star as a log written before the checks would hold them."""
    ledger = bootstrap(make_settings(db, home), create=False)
    try:
        ref = ledger.resolve(ledger.campaign("neon-harbor"))
        sheet = {
            "name": NAME,
            "influence": dict.fromkeys(
                ("grit", "retake", "spotlight", "plot_armor", "preparation"), {"current": 1, "max": 1}
            ),
        }
        ledger.execute(
            ref,
            lambda state: [StarJoined.model_validate({"sheet": sheet}), NoteRecorded.model_validate({"text": NOTE})],
        )
    finally:
        ledger.close()


@pytest.fixture
def hostile(run: Runner, db: str, home: Path) -> dict[str, int]:
    """The standard campaign, an Episode holding the planted Star and note, ended: their event numbers."""
    play(run)
    assert run("episode", "start", "The Flooded Vault").code == 0
    _plant(db, home)
    assert run("episode", "end", "--no-input", "--no-cliffhanger").code == 0
    events = log_events(run)
    joined = next(e["version"] for e in events if e["type"] == "StarJoined" and "Evil" in e["summary"])
    return {"star": joined, "note": joined + 1}


def _safe(text: str) -> None:
    for ch in RAW:
        assert ch not in text, (ch, text)


def test_recorded_hostile_text_is_shown_escaped_by_every_command(run: Runner, hostile: dict[str, int]) -> None:
    shown = {
        "log": run("log"),
        "show": run("show", hostile["note"]),
        "show star": run("show", hostile["star"]),
        "recap": run("recap"),
        "recap md": run("recap", "--format", "md"),
        "sheet": run("sheet", "Evil"),
        "star list": run("star", "list"),
        "timeline": run("timeline", "--min-weight", "10"),
        "replay": run("replay", "--to", hostile["note"]),
    }
    for command, result in shown.items():
        assert result.code == 0, (command, result)
        _safe(result.out + result.err)
    assert "Clear \\x1b[2J then \\u202ereversed [bold]loud[/bold] and [/x]" in shown["log"].out
    assert "\\x1b[2J" in shown["show"].out and "\\u202e" in shown["show"].out
    assert "Evil\\x1b[31m\\u202eKnight [bold]" in shown["sheet"].out
    assert "Evil\\x1b[31m\\u202eKnight [bold]" in shown["star list"].out
    assert "Clear \\x1b[2J then \\u202ereversed [bold]loud[/bold]" in shown["recap"].out
    assert r"Clear \\x1b\[2J then \\u202ereversed \[bold\]loud\[/bold\] and \[/x\]" in shown["recap md"].out
    assert "reversed [bold]loud[/bold]" in shown["timeline"].out


def test_the_timeline_page_escapes_recorded_text(run: Runner, hostile: dict[str, int], tmp_path: Path) -> None:
    page = tmp_path / "timeline.html"
    assert run("timeline", "--min-weight", "10", "--html", page).code == 0
    html = page.read_text(encoding="utf-8")
    _safe(html)
    assert "Clear \\x1b[2J then \\u202ereversed [bold]loud[/bold] and [/x]" in html


def test_json_keeps_recorded_text_exact_without_raw_bidi_characters(run: Runner, hostile: dict[str, int]) -> None:
    result = run("log", "--json")
    assert "\u202e" not in result.out and "\x1b" not in result.out
    note = next(e for e in result.json()["events"] if e["version"] == hostile["note"])
    assert note["summary"] == NOTE
    shown = run("show", hostile["star"], "--json").json()
    assert shown["event"]["payload"]["sheet"]["name"] == NAME


def test_the_real_script_shows_recorded_text_escaped(cli, run: Runner, hostile: dict[str, int]) -> None:
    for args, shown in (
        (("log",), "Knight [bold]"),
        (("sheet", "Evil"), "Knight [bold]"),
        (("show", hostile["note"]), "reversed [bold]loud[/bold]"),
        (("recap",), "reversed [bold]loud[/bold]"),
    ):
        result = cli(*args)
        assert result.code == 0, result
        _safe(result.out + result.err)
        assert "\\u202e" + shown in result.out, (args, result.out)


def test_an_unknown_name_is_echoed_escaped(run: Runner, hostile: dict[str, int]) -> None:
    line = assert_refused(run("sheet", "No\x1b[2JOne"), 1, "unknown Star")
    assert "No\\x1b[2JOne" in line


# ----------------------------------------------------------------------- refused as it comes in


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("note", "Clear \x1b[2J"), "text: must be plain text: character 7 is a control character (U+001B); remove it"),
        (("note", "a \u202eb"), "text: must be plain text: character 3 is an invisible formatting character (U+202E)"),
        (("note", "x" * 4001), "text: is 4001 characters long; at most 4000 are allowed: shorten it"),
        (
            ("spend", "Mara", "grit", "--reason", "one\ntwo"),
            "reason: must be one line: character 4 is a line break (U+000A)",
        ),
        (
            ("episode", "start", "The \u200bVault"),
            "title: must be plain text: character 5 is an invisible formatting character (U+200B)",
        ),
        (("actor", "create", "Gr\x1bim"), "name: must be plain text: character 3 is a control character (U+001B)"),
        (("scene", "start", "--goal", "x" * 301), "goal: is 301 characters long; at most 300 are allowed"),
    ],
)
def test_hostile_text_is_refused_and_nothing_is_written(
    run: Runner, home: Path, args: tuple[str, ...], needle: str
) -> None:
    new_campaign(run)
    if args[0] == "scene":
        assert run("episode", "start").code == 0
    before = fingerprint(run, home)
    assert_refused(run(*args), 1, needle)
    assert fingerprint(run, home) == before


def test_a_huge_sfx_budget_is_refused_and_no_campaign_is_made(cli, run: Runner, home: Path) -> None:
    result = cli("campaign", "new", "Neon Harbor", "--sfx-budget", "100000000000000000000000")
    assert_refused(result, 1, "sfx_budget: must be at most 1000 (got a number of about 24 digits)")
    assert run("campaign", "list", "--json").json()["campaigns"] == []
    assert not list((home / "data").rglob("*.seed"))


def _star_file(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


INFLUENCE = "[influence]\ngrit = 3\nretake = 2\nspotlight = 1\nplot_armor = 2\npreparation = 1\n"


def test_a_star_called_director_is_refused_by_the_real_script(cli, run: Runner, home: Path, tmp_path: Path) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    for spelling in ("Director", " director ", "DIRECTOR"):
        path = _star_file(tmp_path, "director.toml", f'name = "{spelling}"\n' + INFLUENCE)
        line = assert_refused(cli("star", "add", "--file", path), 1)
        assert line == (
            f"showrunner: director.toml: name: '{spelling.strip()}' is reserved: "
            "`--as director` means the Director; choose another name"
        )
    assert fingerprint(run, home) == before


@pytest.mark.parametrize("ruleset", ["pool", "resonance"])
def test_no_ruleset_takes_a_character_called_director(run: Runner, home: Path, tmp_path: Path, ruleset: str) -> None:
    assert run("campaign", "new", "The Lantern", "--ruleset", ruleset).code == 0
    body = {
        "pool": '{"name": "Director", "stats": {"power": 2, "agility": 2, "endurance": 2, "intellect": 2, '
        '"perception": 2, "social": 2, "will": 2}}',
        "resonance": '{"name": "Director", "skills": {"Brawn": 2}}',
    }[ruleset]
    before = fingerprint(run, home)
    assert_refused(
        run("star", "add", "--file", _star_file(tmp_path, "d.json", body)), 1, "d.json: name: 'Director' is reserved"
    )
    if ruleset == "resonance":
        assert_refused(run("resonance", "adversary", "director"), 1, "'director' is reserved")
    assert fingerprint(run, home) == before


def test_a_ten_megabyte_name_is_refused_with_one_line(run: Runner, home: Path, tmp_path: Path) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    path = _star_file(tmp_path, "huge.toml", f'name = "{"M" * 10_000_000}"\n' + INFLUENCE)
    assert_refused(
        run("star", "add", "--file", path), 1, "huge.toml: name: is 10000000 characters long; at most 80 are allowed"
    )
    assert fingerprint(run, home) == before


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_a_star_file_nested_5000_deep_is_one_line(cli, run: Runner, home: Path, tmp_path: Path, suffix: str) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    deep = "[" * 5000 + "]" * 5000
    body = f'{{"name": "Deep", "trinkets": {deep}}}' if suffix == ".json" else f'name = "Deep"\ntrinkets = {deep}\n'
    path = _star_file(tmp_path, "deep" + suffix, body)
    line = assert_refused(cli("star", "add", "--file", path), 1)
    assert line == f"showrunner: deep{suffix}: invalid {suffix[1:].upper()} (nested too deeply: at most 32 levels)"
    assert fingerprint(run, home) == before


def test_counts_in_a_star_file_are_capped(run: Runner, home: Path, tmp_path: Path) -> None:
    new_campaign(run)
    path = _star_file(
        tmp_path, "rich.toml", 'name = "Rich"\n' + INFLUENCE + "[abilities.fight]\nxp = 9223372036854775807\n"
    )
    assert_refused(
        run("star", "add", "--file", path),
        1,
        "rich.toml: abilities.fight.xp: must be at most 1000 (got 9223372036854775807)",
    )


def test_a_claim_nested_thousands_deep_is_one_line(run: Runner) -> None:
    new_campaign(run)
    for args in (("episode", "start"), ("montage", "start")):
        assert run(*args).code == 0
    deep = '{"a":' * 3000 + "1" + "}" * 3000
    assert_refused(
        run("montage", "scene", "practice", "--lead", "Mara", "--ability", "fight", "--claim", deep),
        2,
        "--claim: not a claim (nested too deeply)",
    )


@pytest.mark.parametrize("body", ["a = " + "[" * 3000 + "]" * 3000, "a = " + "1" * 5000], ids=["nested", "digits"])
def test_a_config_file_nested_too_deeply_or_with_a_huge_number_is_one_line(run: Runner, home: Path, body: str) -> None:
    (home / "config" / "config.toml").write_text(body + "\n", encoding="utf-8")
    assert_refused(
        run("campaign", "list"), 2, "config.toml: not valid TOML (a number too long or tables nested too deeply)"
    )


def test_a_remembered_context_nested_too_deeply_is_forgotten(run: Runner, home: Path) -> None:
    new_campaign(run)
    (home / "config" / "context.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert_refused(run("log"), 1, "no campaign selected")


@pytest.mark.parametrize(
    "args",
    [("log", "--\x1b[2Jnope"), ("sheet", "Mara", "--at", "\x1b[2J\u202e5"), ("\x1b[31mnope",)],
    ids=["unknown-option", "not-a-number", "unknown-command"],
)
def test_a_usage_error_echoes_what_was_typed_escaped(run: Runner, args: tuple[str, ...]) -> None:
    new_campaign(run)
    refused = run(*args)
    assert refused.code == 2
    assert "\x1b" not in refused.err and "\u202e" not in refused.err
    assert len(refused.err_lines) == 1
