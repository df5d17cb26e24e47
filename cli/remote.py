"""The command line talking to a server (`--server URL`, or the server of `showrunner login`):
each command is sent to the server's `/api/v1/run`, which runs it as the token's identity, and
what it printed and its exit code are given back here as a local run would give them.

The login (the server's address and the token) is kept in the config folder, in a file
readable by its owner alone.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .errors import ExitCode, Refused, UsageProblem

LOGIN_FILE = "server.json"
LOCAL_COMMANDS = ("login", "logout")
"""Commands that always run here: they are how a device signs in and out."""
TIMEOUT = 120.0
"""Seconds to wait for an answer: the server stops a command after its own limit, shorter than this."""
LOOPBACK = ("localhost", "127.0.0.1", "::1")


@dataclass(frozen=True)
class Login:
    url: str
    token: str
    campaign: str
    star: str | None

    def as_json(self) -> dict[str, Any]:
        """What may be shown: everything but the token."""
        return {"server": self.url, "campaign": self.campaign, "star": self.star, "director": self.star is None}


def login_path() -> Path:
    from ..ledger.settings import Settings

    return Settings.load().config_dir / LOGIN_FILE


def read_login() -> Login | None:
    try:
        data = json.loads(login_path().read_text(encoding="utf-8"))
        return Login(url=data["url"], token=data["token"], campaign=data["campaign"], star=data.get("star"))
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError):
        raise UsageProblem(f"{login_path()} is not a login this program wrote: run `showrunner logout`") from None


def write_login(login: Login) -> Path:
    from .private_files import private_file

    path = login_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with private_file(path) as f:
        json.dump({"url": login.url, "token": login.token, "campaign": login.campaign, "star": login.star}, f)
    return path


def server_url(given: str) -> str:
    """A server's address as kept: scheme, host and port, without a trailing slash. A token
    crosses the network only under TLS, but to this machine."""
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageProblem(f"'{given}' is not a server's address: give https://HOST[:PORT]")
    if parts.scheme == "http" and parts.hostname not in LOOPBACK and not parts.hostname.startswith("127."):
        raise UsageProblem(
            f"'{given}': a token must not cross the network in clear; use the server's https:// address "
            "(http:// only to this machine)"
        )
    path = parts.path.rstrip("/")
    path = path.removesuffix("/join")
    return f"{parts.scheme}://{parts.netloc}{path}"


def call(url: str, path: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """POST to the server; a refusal is raised in the server's own words, in one line."""
    from urllib.error import HTTPError, URLError
    from urllib.request import HTTPRedirectHandler, Request, build_opener

    class Unfollowed(HTTPRedirectHandler):
        """A redirect is not followed: it would carry the token to another address."""

        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    request = Request(
        f"{url}{path}",
        data=json.dumps(body or {}).encode("utf-8"),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with build_opener(Unfollowed).open(request, timeout=TIMEOUT) as answer:
            document: dict[str, Any] = json.loads(answer.read())
            return document
    except HTTPError as e:
        if 300 <= e.code < 400:
            raise Refused(
                f"the server at {url} sent this request elsewhere ({e.code}); log in with the address it ends at"
            ) from None
        try:
            error = str(json.loads(e.read())["error"])
        except (ValueError, KeyError, TypeError):
            error = f"HTTP {e.code} {e.reason}"
        kind = UsageProblem if e.code == 400 else Refused
        raise kind(f"the server refused: {' '.join(error.split())}") from None
    except (URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise Refused(f"cannot reach the server at {url}: {reason}") from None


def target(params: dict[str, Any], given: set[str], args: list[str]) -> Login | None:
    """The server this command goes to, or None to run it here. `--server` (or SHOWRUNNER_SERVER)
    sends it; without it, a login sends every command but those given `--db` or `--as`.
    `given` names the global options set on the command line or by their variables."""
    explicit = "server" in given
    if args[0] in LOCAL_COMMANDS:
        if explicit:
            raise UsageProblem(f"{args[0]} runs on this device: leave out --server (login takes the address)")
        return None
    if given & {"db", "identity"}:
        if explicit:
            raise UsageProblem(
                "--server cannot be mixed with --db or --as: the server decides the database and who you are "
                "from your token"
            )
        return None
    login = read_login()
    if not explicit:
        return login
    url = server_url(params["server"])
    if login is None or login.url != url:
        raise Refused(f"not logged in to {url}: run `showrunner login {url}` first")
    return login


def forward(params: dict[str, Any], given: set[str], login: Login, args: list[str]) -> int:
    """Run the command line `args` on the server; print what it printed; its exit code."""
    if "branch_name" in given:
        raise UsageProblem("--branch cannot be sent to the server: it serves one branch of your token's campaign")
    entropy = params["entropy"]
    if entropy is None and params["ask_entropy"]:
        if not sys.stdin.isatty():
            raise UsageProblem("--ask-entropy needs a terminal to type at; give --entropy TEXT instead")
        import getpass

        entropy = getpass.getpass("Entropy for this roll, typed by the Star who rolls (hidden; 8+ characters): ")
    if entropy is None:
        from ..ledger.dice import new_entropy

        entropy = new_entropy()  # made on this device, so the server alone never chooses the dice
    campaign = params["campaign_name"] if "campaign_name" in given else None
    columns = min(max(shutil.get_terminal_size().columns, 40), 500)
    body = {"argv": args, "entropy": entropy, "campaign": campaign, "columns": columns}
    answer = call(login.url, "/api/v1/run", login.token, body)
    sys.stdout.write(str(answer.get("stdout", "")))
    sys.stderr.write(str(answer.get("stderr", "")))
    code = answer.get("exit_code")
    return code if isinstance(code, int) else ExitCode.REFUSED


def forget_login() -> Login | None:
    """Remove the kept login; the one it was, if any."""
    login = read_login()
    if login is not None:
        os.remove(login_path())
    return login
