"""docs/verify/verify.html in real headless Chromium (Debian's `chromium` and `chromium-driver`).

The page is opened from a file:// URL, as a player opens it from disk; each export is handed to
its file input, and the verdicts are read from the DOM. The exports and their tampers are the
Python verifier's own (tests/verify_exports.py): each ruleset's demo, a fork and a Star's copy,
edited by hand (the hashes left as they were) or as a forger would, computing every hash again.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.ledger.integrity import canonical_json
from tests.browser import headless_chromium
from tests.verify_exports import (
    TAMPERS,
    _isolated,
    demo_exports,
    read_lines,
    rehash,
    roll_records,
    showrunner,
    tamper,
    write_lines,
)

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "verify" / "verify.html"
RULESETS = ("showrunner", "resonance", "pool")
CHECKS = ("chain", "forks", "header", "seeds", "dice", "requests")
VECTORS = REPO / "docs" / "verify" / "vectors"

Export = list[dict[str, Any]]
"""An export file as JSON values: the header, then one event per line."""


# ----------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium("the browser verifier") as driver:
        driver.get(PAGE.as_uri())
        yield driver


@dataclass(frozen=True)
class Verdict:
    status: str
    """pass, fail or error (the file cannot be checked at all)."""
    summary: str
    checks: dict[str, str]
    details: dict[str, str]
    problems: list[tuple[str, int | None, str]]
    """(check, event version or None, text) for every problem the page lists."""

    def failing(self) -> set[tuple[str, int | None]]:
        return {(check, event) for check, event, _ in self.problems}


_READ_VERDICT = """
const summary = document.getElementById("summary");
const checks = [...document.querySelectorAll("#checks > li")];
return {
  file: summary.dataset.file, status: summary.dataset.status, summary: summary.textContent,
  checks: checks.map((li) => ({
    id: li.dataset.check, status: li.dataset.status, detail: li.querySelector(".detail").textContent,
    problems: [...li.querySelectorAll(".problems > li")].map((p) => [p.dataset.event ?? null, p.textContent]),
  })),
};
"""


def verify(browser: Any, path: Path) -> Verdict:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.find_element(By.ID, "export").send_keys(str(path))

    def finished(driver: Any) -> dict[str, Any] | None:
        seen: dict[str, Any] = driver.execute_script(_READ_VERDICT)
        return seen if seen["file"] == path.name and seen["status"] not in ("idle", "running") else None

    seen = WebDriverWait(browser, 30).until(finished)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors
    return Verdict(
        status=seen["status"],
        summary=seen["summary"],
        checks={c["id"]: c["status"] for c in seen["checks"]},
        details={c["id"]: c["detail"] for c in seen["checks"]},
        problems=[
            (c["id"], None if event is None else int(event), text)
            for c in seen["checks"]
            for event, text in c["problems"]
        ],
    )


# ----------------------------------------------------------------- the exports: the Python verifier's own


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The exports tests/e2e/test_standalone_verifier.py gives the Python verifier: each ruleset's
    demo, the showrunner demo's fork, and a Star's copy of its main branch."""
    root = tmp_path_factory.mktemp("browser-exports")
    made = {name: demo_exports(root, name) for name in RULESETS}
    return {name: made[name].main for name in RULESETS} | {
        "fork": made["showrunner"].fork,
        "star": made["showrunner"].star,
    }


def event(lines: Export, topic: str, when: Callable[[dict[str, Any]], bool] = lambda payload: True) -> dict[str, Any]:
    return next(line for line in lines[1:] if line.get("topic") == topic and when(line["payload"]))


# ----------------------------------------------------------------- good exports


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_good_export_of_each_ruleset_passes_every_check_and_proves_its_ledger_dice(
    browser: Any, exports: dict[str, Path], ruleset: str
) -> None:
    verdict = verify(browser, exports[ruleset])
    assert verdict.status == "pass", verdict
    assert verdict.checks == dict.fromkeys(CHECKS, "pass") | {"forks": "none"}
    assert not verdict.problems
    records = [r for r in roll_records(read_lines(exports[ruleset])) if r["payload"]["dice_commitment"]]
    assert sum("dice_entropy" in r["payload"] for r in records) >= 2  # v2: the demo's ledger check, the roll asked for
    assert f" of {len(records)} roll{'' if len(records) == 1 else 's'} re-derived" in verdict.details["dice"]
    assert verdict.details["requests"].startswith("1 rolled, 1 withdrawn, 0 still open")


def test_a_what_if_forks_replayed_rolls_are_counted_and_their_citations_held(browser: Any, tmp_path: Path) -> None:
    """A what-if fork's export: the later commands' rolls are the parent's faces, cited, not
    derived here; the page passes them as replayed, and fails a citation without its hash."""
    repo = Path(__file__).resolve().parents[2]
    home = tmp_path / "what-if"
    with _isolated(home):
        db = ("--db", home / "l.sqlite")
        showrunner(*db, "campaign", "new", "Neon Harbor")
        showrunner(*db, "star", "add", "--file", repo / "docs" / "examples" / "star-mara.toml")
        showrunner(*db, "check", "Mara", "fight", "-d", "HARD", "--action", "1,2,2", "--script", "3,4", "--no-input")
        showrunner(*db, "check", "Mara", "fight", "-d", "NORMAL", "--no-input")  # ledger dice
        showrunner(*db, "what-if", "3", "--action", "6,6,5", "--script", "5,6", "--write")
        showrunner(*db, "--branch", "what-if-3", "seed", "reveal")
        showrunner(*db, "--branch", "what-if-3", "export", "-o", home / "fork.jsonl")
    verdict = verify(browser, home / "fork.jsonl")
    assert verdict.status == "pass", verdict
    assert "1 replayed roll (each proven with the export of the roll it cites)" in verdict.details["dice"]
    lines = read_lines(home / "fork.jsonl")
    replayed = next(line for line in lines[1:] if "replayed_from" in line.get("payload", {}))
    del replayed["payload"]["replayed_from"]["hash"]
    rehash(lines)
    failed = verify(browser, write_lines(tmp_path / "cited-without-hash.jsonl", lines))
    assert failed.status == "fail"
    assert ("dice", replayed["version"]) in failed.failing()


def test_a_forked_branch_passes_with_its_fork_link_checked(browser: Any, exports: dict[str, Path]) -> None:
    verdict = verify(browser, exports["fork"])
    assert verdict.status == "pass", verdict
    assert verdict.checks["forks"] == "pass"
    assert verdict.details["forks"] == "1 fork checked"


def test_a_stars_redacted_export_passes_with_the_hidden_events_checked_as_links(
    browser: Any, exports: dict[str, Path]
) -> None:
    lines = read_lines(exports["star"])
    hidden = sum(1 for line in lines[1:] if line.get("redacted") is True)
    assert hidden >= 1
    verdict = verify(browser, exports["star"])
    assert verdict.status == "pass", verdict
    assert f"{len(lines) - 1 - hidden} events re-hashed and linked; {hidden} redacted event" in verdict.details["chain"]
    assert verdict.checks["dice"] == "pass"


# ----------------------------------------------------------------- tampered exports: the Python verifier's too


CAUGHT_BY: dict[tuple[str, bool], tuple[str, set[str]]] = {
    # (tamper, by a forger who computes every hash again): (the export it edits, the checks naming the event)
    ("face", True): ("showrunner", {"dice"}),
    ("seed", True): ("showrunner", {"seeds", "dice"}),
    ("commitment", True): ("showrunner", {"dice"}),
    ("payload", False): ("showrunner", {"chain"}),
    ("prev_hash", False): ("resonance", {"chain"}),
    ("deleted", False): ("pool", {"chain"}),
    ("head", False): ("showrunner", {"header"}),
    ("entropy", True): ("resonance", {"dice"}),
    ("cut_in", True): ("pool", {"requests"}),
    ("asked_entropy", True): ("showrunner", {"requests"}),
    ("withdrawn", True): ("resonance", {"requests"}),
}


@pytest.mark.parametrize(("how", "forger"), CAUGHT_BY, ids=lambda v: v if isinstance(v, str) else "")
def test_a_tampered_export_fails_naming_the_event(
    browser: Any, exports: dict[str, Path], tmp_path: Path, how: str, forger: bool
) -> None:
    assert set(TAMPERS) == {how for how, _ in CAUGHT_BY}, "a tamper of the Python verifier's is not tried here"
    source, naming = CAUGHT_BY[how, forger]
    target = tmp_path / f"tampered-{how}.jsonl"
    version = tamper(exports[source], target, how, forger=forger)
    verdict = verify(browser, target)
    assert verdict.status == "fail", verdict
    if how == "seed":  # the dice it proved fail at their own events
        naming = {"seeds"}
        assert any(check == "dice" for check, _ in verdict.failing()), verdict
    for check in naming:
        assert (check, version) in verdict.failing(), verdict
        assert any(text.startswith(f"event #{version}") for c, _, text in verdict.problems if c == check), verdict


@pytest.mark.parametrize("folder", [VECTORS, VECTORS / "v1"], ids=["v2", "v1"])
def test_the_shipped_vectors_pass_those_made_before_dice_v2_too(browser: Any, folder: Path) -> None:
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    verdict = verify(browser, folder / "export.jsonl")
    assert verdict.status == "pass", verdict
    dice = sum(len(r["dice"]) for r in expected["rolls"] if "dice" in r)
    rolls = sum(1 for r in expected["rolls"] if "dice" in r)
    assert verdict.details["dice"].startswith(f"{dice} ledger dice of {rolls} rolls re-derived"), verdict
    assert verdict.checks["requests"] == ("pass" if expected.get("requests") else "none")


def test_a_redacted_event_right_after_a_roll_asked_for_fails(
    browser: Any, exports: dict[str, Path], tmp_path: Path
) -> None:
    lines = read_lines(exports["star"])
    asked = event(lines, "ledger/RollRequested")
    after = lines[asked["version"] + 1]
    hidden = {k: after[k] for k in ("branch", "version", "campaign", "prev_hash", "hash")} | {"redacted": True}
    lines[asked["version"] + 1] = hidden
    verdict = verify(browser, write_lines(tmp_path / "hidden-roll.jsonl", lines))
    assert verdict.failing() == {("requests", after["version"])}, verdict


def test_a_moved_fork_point_fails_naming_the_fork(browser: Any, exports: dict[str, Path], tmp_path: Path) -> None:
    lines = read_lines(exports["fork"])
    fork = event(lines, "ledger/BranchForked")
    fork["payload"]["fork_version"] -= 1  # as the Python verifier's test moves it
    rehash(lines)
    verdict = verify(browser, write_lines(tmp_path / "tampered-fork-point.jsonl", lines))
    assert ("forks", int(fork["version"])) in verdict.failing(), verdict


def test_a_file_that_is_no_export_cannot_be_checked(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "not-an-export.jsonl"
    path.write_text('{"hello": "world"}\n')
    verdict = verify(browser, path)
    assert verdict.status == "error"
    assert "not a showrunner-ledger export" in verdict.summary


# ----------------------------------------------------------------- canonical JSON, byte for byte

AWKWARD_TEXT = [
    "plain",
    "émigré à la façade, naïve Ångström",
    "emoji 😀🎲 and a flag 🇳🇱",
    "quotes \" and ' and a backslash \\ and a slash /",
    "controls \x00 \x01 \x08 \t \n \x0b \x0c \r \x1b \x1f \x7f",
    "line and paragraph separators \u2028 \u2029, a BOM \ufeff",
    "CJK 漢字, RTL עברית, combining e\u0301",
    "astral U+10FFFF \U0010ffff and U+FFFF \uffff",
    "",
]
AWKWARD_NUMBERS = [
    0,
    -0.0,
    0.0,
    1,
    -1,
    2**53 + 1,
    10**40,
    -(10**30),
    1.0,
    -1.5,
    0.1,
    1 / 3,
    1e16,
    1e15,
    123456789012345.6,
    0.0001,
    0.00001,
    1.5e-5,
    5e-324,
    1.7976931348623157e308,
    2.5e-308,
    1e22,
    1e21,
    100.0,
    12345.678,
]


def awkward_documents() -> list[Any]:
    randoms = random.Random(14)
    floats = [randoms.uniform(-1e6, 1e6) for _ in range(200)]
    floats += [math.ldexp(randoms.random(), randoms.randint(-1074, 1023)) * randoms.choice((1, -1)) for _ in range(400)]
    keys = {text: index for index, text in enumerate(AWKWARD_TEXT)}
    keys |= {"\uff01": "fullwidth", "😀": "emoji, after U+FF01 by code point", "a": 1, "B": 2, "é": 3, "10": 4, "9": 5}
    return [
        keys,
        AWKWARD_TEXT,
        AWKWARD_NUMBERS,
        floats,
        {"nested": [{"z": [True, False, None], "a": {"": []}}, {}]},
        "a bare string",
        -0,
    ]


def test_canonical_json_is_pythons_byte_for_byte(browser: Any) -> None:
    for document in awkward_documents():
        text = json.dumps(document)  # ASCII, so WebDriver carries it unchanged
        page = browser.execute_script("return canonicalText(parseJson(arguments[0]))", text)
        assert page == canonical_json({"d": document}).decode()[5:-1], document


def test_two_equal_keys_keep_the_last_value_as_python_reads_them(browser: Any) -> None:
    text = '{"b": 1, "a": 2, "b": 3.50, "big": 1E+2, "neg": -0, "u": "\\ud83d\\ude00"}'
    page = browser.execute_script("return canonicalText(parseJson(arguments[0]))", text)
    assert page == canonical_json(json.loads(text)).decode()


def test_a_lone_surrogate_is_refused_as_python_refuses_to_hash_it(browser: Any) -> None:
    with pytest.raises(UnicodeEncodeError):
        canonical_json(json.loads('{"t": "\\ud800"}'))
    refused = browser.execute_script(
        "try { utf8(canonicalText(parseJson(arguments[0]))); return null } catch (e) { return e.constructor.name }",
        '{"t": "\\ud800"}',
    )
    assert refused == "Unhashable"


def test_awkward_text_and_numbers_hash_as_python_hashes_them(
    browser: Any, exports: dict[str, Path], tmp_path: Path
) -> None:
    lines = read_lines(exports["showrunner"])
    note = event(lines, "ledger/NoteRecorded")
    note["payload"] = {"text": " | ".join(AWKWARD_TEXT), "numbers": AWKWARD_NUMBERS, "keys": awkward_documents()[0]}
    rehash(lines)
    verdict = verify(browser, write_lines(tmp_path / "awkward.jsonl", lines))
    assert verdict.checks["chain"] == "pass", verdict


# ----------------------------------------------------------------- no network


def test_the_page_can_make_no_network_request(browser: Any, exports: dict[str, Path]) -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert "default-src 'none'" in page and "connect-src" not in page
    assert " src=" not in page and " href=" not in page  # nothing else is loaded
    verify(browser, exports["pool"])
    # Nothing was fetched while a whole export was checked, and a request the page tried would be refused.
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    refused = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        let blocked = false;
        document.addEventListener("securitypolicyviolation", () => { blocked = true; }, { once: true });
        fetch("http://127.0.0.1:9/").then(() => done("fetched"), () => setTimeout(() => done(blocked ? "refused" : "failed"), 50));""",
    )
    assert refused == "refused"
    browser.get_log("browser")  # the refusal is logged; it is no error of the page's
