"""`showrunner post`: an Episode that ended, sent to a chat's webhook (a real HTTP server on a
loopback port stands in for Discord), as a Star reads it, once."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.chat_stand_in import Chat, chat_stand_in
from tests.conftest import _drop_schema, postgres_url_or_skip

from .conftest import REPO, Runner, log_events

POOL = REPO / "domain" / "pool" / "examples"
SECRET_NOTE = "SECRET-the-cab-driver-is-the-informant"
SECRET_SKILL = "SECRET-Lockpicking"
PUBLIC_SKILL = "Stealth"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Every test here runs on both backends: the posts are remembered in the ledger's database."""
    if request.param == "sqlite":
        yield str(tmp_path / "e2e.sqlite")
        return
    base = postgres_url_or_skip()
    schema = "post_" + uuid.uuid4().hex[:16]
    yield f"{base}?schema={schema}"
    _drop_schema(base, schema)


def pool_episode(run: Runner) -> None:
    """A d10 Pool Episode that ends with a private note and a hidden roll in it (#1-#8)."""
    for args in (
        ("campaign", "new", "The Lantern", "--ruleset", "pool"),
        ("star", "add", "--file", POOL / "character-ines.toml"),
        ("episode", "start", "Night One"),
        ("check", "Ines", "--stat", "agility", "--dc", "6", "--skill", PUBLIC_SKILL, "--pool", "9,8,7,3,2,4,5"),
        ("note", "--private", SECRET_NOTE),
        (
            "check",
            "Ines",
            "--stat",
            "perception",
            "--dc",
            "8",
            "--skill",
            SECRET_SKILL,
            "--hidden",
            "--pool",
            "1,1,3,9",
        ),
        ("episode", "end", "--cliffhanger", "The cab turns into the fog"),
    ):
        done = run(*args)
        assert done.code == 0, done


@pytest.fixture
def chat() -> Iterator[Chat]:
    with chat_stand_in() as stand_in:
        yield stand_in


@pytest.fixture
def ended(run: Runner) -> Runner:
    pool_episode(run)
    return run


def test_post_sends_the_episodes_digest_and_its_recap(ended: Runner, chat: Chat) -> None:
    done = ended("post", "--webhook", chat.url, "--json")
    assert done.code == 0, done
    report = done.json()
    assert report["sent"] is True and report["episode"] == 1
    [request] = chat.received()
    assert request["content_type"] == "application/json"
    document = request["document"]
    assert set(document) == {"content", "embeds", "allowed_mentions"}
    assert document["allowed_mentions"] == {"parse": []}
    end = next(e for e in log_events(ended) if e["type"] == "EpisodeEnded")
    assert report["end"] == end["version"]
    assert f"{end['version']}:{end['hash']}" in document["content"]
    digest = ended("head", "--campaign", "--json").json()["digest"]
    assert digest in document["content"]
    assert len(document["content"]) <= 2000
    [embed] = document["embeds"]
    assert embed["title"] == "The Lantern: Episode 1 “Night One”"
    assert len(embed["description"]) <= 4096
    assert PUBLIC_SKILL in embed["description"]
    assert "the cab turns into the fog" in embed["description"]


def test_post_never_sends_director_only_text(ended: Runner, chat: Chat) -> None:
    # The Director's own recap of the Episode tells the secrets: a post that read it would too.
    director = ended("recap", "--director", "--json").out
    assert SECRET_NOTE in director and SECRET_SKILL in director
    assert ended("post", "--webhook", chat.url).code == 0
    dry = ended("post", "--dry-run")
    assert dry.code == 0, dry
    for sent in [chat.raw[0].decode("utf-8"), dry.out]:
        assert "SECRET" not in sent
    assert json.loads(dry.out) == chat.received()[0]["document"]


def test_a_post_the_webhook_accepted_is_not_sent_again(ended: Runner, chat: Chat) -> None:
    assert ended("post", "--webhook", chat.url).code == 0
    again = ended("post", "--webhook", chat.url, "--json")
    assert again.code == 0, again
    assert again.json()["sent"] is False
    assert again.err_lines == [again.err_lines[0]] and "already posted" in again.err_lines[0]
    assert chat.attempts == 1
    forced = ended("post", "--webhook", chat.url, "--again")
    assert forced.code == 0, forced
    assert chat.attempts == 2


def test_the_webhook_comes_from_the_environment_or_the_config(ended: Runner, chat: Chat, home: Path) -> None:
    assert ended("post", env={"SHOWRUNNER_WEBHOOK": chat.url}).code == 0
    (home / "config" / "config.toml").write_text(f'webhook = "{chat.url}"\n', encoding="utf-8")
    assert ended("post", "--again").code == 0
    assert chat.attempts == 2


@pytest.mark.parametrize("status", [500, 404, 429])
def test_an_http_error_is_one_line_and_remembers_nothing(ended: Runner, chat: Chat, status: int) -> None:
    chat.status = status
    failed = ended("post", "--webhook", chat.url)
    assert failed.code == 1
    [line] = failed.err_lines
    assert f"answered {status}" in line
    assert "secret-token" not in line  # the webhook's path is its secret
    assert failed.out == ""
    chat.status = 204
    assert ended("post", "--webhook", chat.url).code == 0  # nothing was remembered as posted
    assert len(chat.received()) == 1


def test_an_unreachable_webhook_is_one_line(ended: Runner, chat: Chat) -> None:
    closed = chat.url.replace(chat.url.split("/")[2], "127.0.0.1:9")  # the discard port: nothing listens
    failed = ended("post", "--webhook", closed)
    assert failed.code == 1
    [line] = failed.err_lines
    assert line.startswith("showrunner: could not reach the webhook at http://127.0.0.1:9/")


@pytest.mark.parametrize("url", ["discord.com/api/webhooks/1/x", "ftp://example.com/hook", "https://"])
def test_a_bad_url_is_refused_in_one_line(ended: Runner, url: str) -> None:
    failed = ended("post", "--webhook", url)
    assert failed.code == 1
    [line] = failed.err_lines
    assert "is not a webhook URL" in line


def test_nothing_to_post_before_an_episode_ends(run: Runner, chat: Chat) -> None:
    for args in (("campaign", "new", "The Lantern", "--ruleset", "pool"), ("episode", "start", "Night One")):
        assert run(*args).code == 0
    failed = run("post", "--webhook", chat.url)
    assert failed.code == 1
    assert failed.err_lines == [
        "showrunner: no Episode has ended on this branch yet: there is nothing to post (`showrunner episode end` ends one)"
    ]
    assert run("post", "--webhook", chat.url, "--episode", "1").code == 1
    assert chat.attempts == 0


def test_no_webhook_is_a_usage_error(ended: Runner) -> None:
    failed = ended("post")
    assert failed.code == 2
    assert "no webhook to post to" in failed.err_lines[0]


def test_a_star_posts_what_a_star_reads(ended: Runner, chat: Chat) -> None:
    done = ended("--as", "Ines", "post", "--webhook", chat.url)
    assert done.code == 0, done
    assert "SECRET" not in chat.raw[0].decode("utf-8")


def test_a_webhook_in_the_config_must_be_a_url_in_quotes(ended: Runner, home: Path) -> None:
    (home / "config" / "config.toml").write_text("webhook = 3\n", encoding="utf-8")
    failed = ended("post")
    assert failed.code == 2
    [line] = failed.err_lines
    assert line.endswith("config.toml: webhook must be a URL in quotes")
