"""The page runner's own rules, and a page that drifts from the code failing it."""

from __future__ import annotations

from pathlib import Path

from .console_pages import DOCS, PageError, blocks, matches
from .run_pages import report, run_page


def test_a_trimmed_output_matches_and_a_changed_line_does_not() -> None:
    real = ["head", "one", "two", "tail"]
    assert matches(["head", "…", "tail"], real)
    assert matches(["head", "o…", "two", "tail"], real)
    assert not matches(["head", "…", "other"], real)
    assert matches(["at 2026-01-01 10:00:00"], ["at 2031-05-06 11:12:13"], ("dates",))
    assert not matches(["at 2026-01-01 10:00:00"], ["at 2031-05-06 11:12:13"])
    assert matches(["at 2026-01-01", "10:00:00."], ["at 2031-05-06", "11:12:13."], ("dates",))  # wrapped


def test_a_command_outside_a_console_block_is_refused() -> None:
    try:
        blocks("```bash\nshowrunner log\n```\n", "p.md")
    except PageError as e:
        assert "p.md:2" in str(e)
    else:
        raise AssertionError("a showrunner command in a bash block went unnoticed")


def test_a_page_that_drifts_fails(tmp_path: Path) -> None:
    page = (DOCS / "how-to" / "keep-a-digest-and-verify.md").read_text(encoding="utf-8")
    assert "Created campaign neon-harbor (Neon Harbor) on branch main." in page
    drifted = tmp_path / "drifted.md"
    drifted.write_text(page.replace("on branch main.", "on branch trunk.", 1), encoding="utf-8")
    problems = report(drifted, run_page(drifted, tmp_path / "run"))
    assert "drifted.md:" in problems and "on branch trunk." in problems


def test_a_failing_command_must_show_something_of_what_it_printed(tmp_path: Path) -> None:
    page = tmp_path / "failing.md"
    page.write_text("```console\n$ ls no-such-file\n…\n$ ls no-such-file\n…No such file…\n```\n", encoding="utf-8")
    results = run_page(page, tmp_path / "run")
    assert [r.ok for r in results] == [False, True]
    assert "failing.md:2: `ls no-such-file` exited 2, and the page shows nothing it printed" in report(page, results)


def test_a_here_document_is_the_input_of_its_command(tmp_path: Path) -> None:
    page = tmp_path / "heredoc.md"
    page.write_text("```console\n$ cat > f.txt <<'EOF'\n$ echo inside\nEOF\n$ cat f.txt\n…echo inside\n```\n")
    [write, read] = blocks(page.read_text(), page.name)[0].commands
    assert write.shown == [] and write.text.endswith("$ echo inside\nEOF") and read.shown == ["…echo inside"]
    assert all(r.ok for r in run_page(page, tmp_path / "run"))
