"""`showrunner serve --post-on-episode-end URL`: the real console script posts each Episode that
ends, whoever ends it (here the command line, on the same database), once, to a chat stand-in
on loopback; a restart posts nothing again, and no Episode that ended before it first watched."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.chat_stand_in import Chat, chat_stand_in
from tests.conftest import _drop_schema, postgres_url_or_skip

from .conftest import SCRIPT, Runner, _is_setting, _isolated
from .test_post import SECRET_NOTE, SECRET_SKILL, pool_episode
from .test_serve import free_port


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Every test here runs on both backends: the posts are remembered in the ledger's database."""
    if request.param == "sqlite":
        yield str(tmp_path / "e2e.sqlite")
        return
    base = postgres_url_or_skip()
    schema = "serve_post_" + uuid.uuid4().hex[:16]
    yield f"{base}?schema={schema}"
    _drop_schema(base, schema)


@contextlib.contextmanager
def serving(db: str, home: Path, *args: str) -> Iterator[Path]:
    """The real `showrunner serve` on a free loopback port; its log's path."""
    port = free_port()
    log = home / f"serve-{port}.log"
    env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | _isolated(home)
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(SCRIPT), "serve", "--port", str(port), "--db", db, *args],
            env=env,
            cwd=home,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/api/v1/openapi.json", timeout=1).status_code == 200:
                    break
            assert process.poll() is None, log.read_text()
            time.sleep(0.1)
        else:
            raise AssertionError(f"the server did not start: {log.read_text()}")
        yield log
    finally:
        process.terminate()
        process.wait(timeout=30)


def posted_episodes(chat: Chat) -> list[str]:
    return [request["document"]["embeds"][0]["title"] for request in chat.received()]


def wait_for(chat: Chat, count: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while len(chat.received()) < count and time.monotonic() < deadline:
        time.sleep(0.1)


def next_episode(run: Runner, title: str) -> None:
    for args in (("episode", "start", title), ("episode", "end", "--no-cliffhanger")):
        done = run(*args)
        assert done.code == 0, done


def test_each_episode_that_ends_is_posted_once(run: Runner, db: str, home: Path) -> None:
    pool_episode(run)  # Episode 1 ended before the server ever watched: never posted by it
    with chat_stand_in() as chat:
        with serving(db, home, "--post-on-episode-end", chat.url) as log:
            next_episode(run, "Night Two")
            wait_for(chat, 1)
            time.sleep(5)  # two more looks: nothing posted twice
            assert posted_episodes(chat) == ["The Lantern: Episode 2 “Night Two”"]
            assert "secret-token" not in log.read_text()
        next_episode(run, "Night Three")  # while the server is stopped
        with serving(db, home, "--post-on-episode-end", chat.url):
            wait_for(chat, 2)
            time.sleep(5)
        assert posted_episodes(chat) == [
            "The Lantern: Episode 2 “Night Two”",
            "The Lantern: Episode 3 “Night Three”",
        ]
        # What the server posted, `showrunner post` finds posted: it sends nothing again.
        again = run("post", "--webhook", chat.url, "--json")
        assert again.code == 0, again
        assert again.json()["sent"] is False
        assert chat.attempts == 2
        for request in chat.raw:
            assert SECRET_NOTE not in request.decode("utf-8") and SECRET_SKILL not in request.decode("utf-8")


def test_a_failing_webhook_is_tried_again(run: Runner, db: str, home: Path) -> None:
    pool_episode(run)
    with chat_stand_in() as chat:
        chat.status = 500
        with serving(db, home, "--post-on-episode-end", chat.url) as log:
            next_episode(run, "Night Two")
            deadline = time.monotonic() + 20
            while chat.attempts == 0 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert chat.attempts >= 1
            chat.status = 204
            wait_for(chat, 1, seconds=30)
            assert posted_episodes(chat) == ["The Lantern: Episode 2 “Night Two”"]
            assert "answered 500" in log.read_text()


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "discord.com/api/webhooks/1/x"])
def test_serve_refuses_a_bad_webhook_before_listening(cli: Runner, url: str) -> None:
    failed = cli("serve", "--port", str(free_port()), "--post-on-episode-end", url, timeout=30)
    assert failed.code == 1
    [line] = failed.err_lines
    assert "is not a webhook URL" in line
