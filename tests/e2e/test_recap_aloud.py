"""The recap read aloud: spoken with espeak-ng (or refused without it), the HTML card in a real
headless Chromium, and the voice of a recap of any length."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import headless_chromium
from tests.conftest import in_ci
from tests.e2e.conftest import Runner, assert_refused
from tests.e2e.recap_story import Story, play_story, reader


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Story:
    return play_story(tmp_path_factory)


@pytest.fixture
def read(run: Runner, played: Story) -> Runner:
    return reader(run, played)


def test_speak_writes_a_wav_file_with_espeak_ng(read: Runner, tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None:
        if in_ci():
            pytest.fail("CI must test --speak, but espeak-ng is not installed")
        pytest.skip("espeak-ng is not installed: apt-get install espeak-ng")
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "previously.wav"
    result = read("recap", "--plain", "--speak", str(target))
    assert result.code == 0, result
    assert target.read_bytes()[:4] == b"RIFF" and target.stat().st_size > 10_000
    assert "Lady Shore's fleet fills the bay" in result.out
    assert f"spoke the recap into {target}" in result.err
    assert [p.name for p in target.parent.iterdir()] == ["previously.wav"]  # nothing half-written beside it


def test_speak_without_espeak_ng_is_one_clear_refusal_and_writes_nothing(
    read: Runner, tmp_path: Path, played: Story
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    target = tmp_path / "previously.wav"
    result = read("recap", "--speak", str(target), env={"PATH": str(empty)})
    assert_refused(result, 1, "--speak needs espeak-ng, which is not installed")
    assert result.out == ""
    assert not target.exists()


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("recap", "--plain", "--json"), 2, "--plain"),
        (("recap", "--length", "epic"), 2, "epic"),
        (("recap", "--compare", "main", "what-if", "--format", "html"), 2, "no HTML card"),
        (("recap", "--compare", "main", "what-if", "--speak", "x.wav"), 2, "leave out --compare"),
        (("recap", "--chronological"), 2, "--chronological"),
    ],
)
def test_bad_recap_input(read: Runner, args: tuple[str, ...], code: int, needle: str) -> None:
    assert_refused(read(*args), code, needle)


def test_lengths_tell_more_or_fewer_beats(read: Runner) -> None:
    def beats(length: str) -> int:
        story = read("recap", "--length", length, "--json").json()["story"]
        return sum("weight" in s for p in story["paragraphs"] for s in p["sentences"])

    counts = {n: beats(n) for n in ("short", "standard", "long")}
    assert counts["short"] == 3 and counts["standard"] == 6 and counts["long"] > counts["standard"]


def test_plain_leaves_every_citation_out(read: Runner) -> None:
    for args in (
        ("recap", "--plain"),
        ("recap", "--plain", "--format", "md"),
        ("recap", "--plain", "--format", "html"),
    ):
        out = re.sub(r"<style>.*?</style>", "", read(*args).out, flags=re.S).replace("&#x27;", "'")
        assert "Lady Shore's fleet fills the bay" in out
        assert "#1" not in out and "[^" not in out, args


def test_the_season_is_told_episode_by_episode(read: Runner) -> None:
    doc = read("recap", "--season", "1", "--json").json()
    episodes = [p["episode"] for p in doc["story"]["paragraphs"]]
    assert episodes == sorted(episodes) and set(episodes) == {1, 2}
    told = [s["text"] for p in doc["story"]["paragraphs"] for s in p["sentences"]]
    assert any("Lady Shore's fleet fills the bay" in t for t in told)  # Episode 1 ends where it ended


# ----------------------------------------------------------------------- the HTML card in Chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium("the recap card") as driver:
        yield driver


def test_the_html_card_opens_offline_in_a_browser(read: Runner, browser: Any, tmp_path: Path) -> None:
    doc = read("recap", "--json").json()
    card = tmp_path / "card.html"
    card.write_text(read("recap", "--format", "html").out, encoding="utf-8")
    browser.get(card.as_uri())
    shown = browser.execute_script(
        """return {
            title: document.querySelector("h1").innerText,
            sentences: [...document.querySelectorAll(".s")].map(s => s.firstChild.textContent),
            cites: [...document.querySelectorAll(".s .cite")].map(c => c.innerText),
            fetched: performance.getEntriesByType("resource").length,
            outside: document.querySelectorAll("script, link, img, iframe, object, [src], [href]").length,
            width: document.querySelector(".card").getBoundingClientRect().width,
        };"""
    )
    story = doc["story"]
    expected = [story["opening"], *(s for p in story["paragraphs"] for s in p["sentences"]), story["ending"]]
    assert shown["title"] == "Neon Harbor: Episode 1 “The Flooded Vault”"
    assert shown["sentences"] == [s["text"] for s in expected]
    assert shown["cites"] == [", ".join(f"#{c['version']}" for c in s["cites"]) for s in expected]
    assert shown["fetched"] == 0 and shown["outside"] == 0
    assert shown["width"] > 200
