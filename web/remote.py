"""The command line from a laptop: `POST /api/v1/run` runs one `showrunner` command here, as the
token's identity, and answers what the command line printed and its exit code; `login` spends
an invite for a session the laptop keeps, `logout` revokes it.

The command runs through the real command line in a subprocess, so its output, `--json`, its
refusals and its exit code are exactly those of a local run with `--as STAR` (a Star's token)
or as the Director. The server fixes the database, the campaign, the branch and who is asking;
the request names only the command, from an allowlist of commands that touch nothing but the
campaign (no file, no configuration, no prompt), and the entropy for its ledger dice, made or
typed on the laptop.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import IO, TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..domain.errors import UnknownName
from ..ledger.errors import LedgerError
from .access import Forbidden
from .table import BadRequest, Table
from .who import Writer, client_of, gate_of

if TYPE_CHECKING:
    from ..ledger.identities import Identity
    from ..ledger.settings import Settings

API = "/api/v1"
TIMEOUT = 60.0
"""Seconds a command may run before the server stops it."""
OUTPUT_CAP = 4 * 1024 * 1024
"""Bytes of stdout (and, apart, of stderr) a command may print."""

RECORDING: frozenset[tuple[str, ...]] = frozenset(
    {
        ("spend",),
        ("regain",),
        ("consequence",),
        ("note",),
        ("check",),
        ("xp",),
        ("limit-break",),
        ("advance",),
        ("dice", "resolve"),
        ("dice", "withdraw"),
        ("star", "create"),
        *(
            ("star", "casting", step)
            for step in (
                "heritage",
                "social-class",
                "settle",
                "parents",
                "siblings",
                "starting-age",
                "develop",
                "encounter",
                "wardrobe",
                "join",
                "inciting-incident",
                "rivals-move",
                "characters-move",
                "founders-boons",
            )
        ),
        ("branch", "create"),
        ("branch", "replay"),
        ("what-if",),
        *(("actor", c) for c in ("create", "contest", "tie", "manipulate", "hireling")),
        *(("threat", c) for c in ("create", "strike")),
        *(("sequence", c) for c in ("declare", "beat", "spend", "trade")),
        *(("subplot", c) for c in ("generate", "pre-production", "reveal", "resolve", "favor", "scheme")),
        *(("oracle", c) for c in ("ask", "menu", "scene-goal", "studio-note", "writers-turn")),
        *(("prop", c) for c in ("gain", "spend", "pack", "trinket", "prepare", "flashback", "random")),
        *(("montage", c) for c in ("start", "scene", "stop", "flashback")),
        *((noun, c) for noun in ("bond", "grudge") for c in ("add", "trade", "resolve")),
        *(("acclaim", c) for c in ("mark", "complete", "awards-season", "use-award")),
        *(("ensemble", c) for c in ("spend", "stock", "take", "holding", "xp")),
        ("seed", "reveal"),
        ("table", "roll"),
        *((noun, c) for noun in ("season", "episode", "scene") for c in ("start", "end")),
        ("episode", "post-show"),
        *(("finale", c) for c in ("begin", "scene", "turn", "resist", "finish", "end")),
        *(("pool", c) for c in ("contest", "luck")),
        *(
            ("resonance", c)
            for c in (
                "adversary",
                "combat-end",
                "end-turn",
                "front",
                "harm",
                "initiative",
                "move",
                "rejoin",
                "scene-end",
                "trade-kit",
                "use-kit",
            )
        ),
    }
)
"""Commands that record facts of the token's campaign. A Star may ask for any of them: the
command line itself refuses a Star what only the Director may do, in its own words."""

READING: frozenset[tuple[str, ...]] = frozenset(
    {
        ("sheet",),
        ("log",),
        ("show",),
        ("replay",),
        ("head",),
        ("verify",),
        ("audit",),
        ("recap",),
        ("timeline",),
        ("cast",),
        ("star", "list"),
        ("star", "casting", "status"),
        ("branch", "list"),
        ("branch", "diff"),
        ("dice", "stats"),
        ("dice", "pending"),
        ("ruleset", "list"),
        ("ruleset", "show"),
        *((noun, c) for noun in ("actor", "threat") for c in ("list", "show")),
        ("sequence", "show"),
        ("subplot", "list"),
        ("montage", "show"),
        ("ensemble", "show"),
        ("seed", "show"),
        ("episode", "list"),
        ("finale", "show"),
        ("resonance", "combat"),
        ("table", "show"),
    }
)
"""Commands that read the token's campaign, each filtering what a Star may see as `--as` does.
Left out: whatever reads or writes the server's files or settings (`export`, `import`,
`star add --file`, `campaign use`, `branch use`, `seed` keys), other campaigns (`campaign …`),
identities (`invite`), the table's chat under the server's webhook (`post`), and the server
itself (`serve`, `demo`)."""

DIRECTOR_ONLY: frozenset[tuple[str, ...]] = frozenset({("invite", "list")})
"""Allowlisted for a Director's token alone (the Star's command line would refuse it anyway)."""

LOCAL_OPTIONS: dict[tuple[str, ...], dict[str, str]] = {
    ("recap",): {"--speak": "writes a sound file on the server's disk"},
    ("timeline",): {"--html": "writes a file on the server's disk"},
    ("verify",): {"--all": "checks every campaign of the server's database, not only the token's"},
    ("star", "create"): {
        "--interactive": "asks at a terminal, and the server's command has none: give each step's flags instead"
    },
}
"""Options of an allowlisted command that cannot run remotely, and why."""

NOT_ALLOWED_GROUPS = frozenset({"campaign"})
"""Groups none of whose commands runs remotely, named with their command when refused."""

GROUP_DEPTH: dict[tuple[str, ...], int] = {("star", "casting"): 3}
"""Groups nested below a group: how many words name one of their commands."""


class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    argv: list[Annotated[str, Field(max_length=10_000)]] = Field(min_length=1, max_length=200)
    """The command line after `showrunner` and its global options: `["sheet", "Mara", "--json"]`."""
    entropy: str | None = Field(default=None, max_length=1000)
    """Entropy for the command's ledger dice, made or typed on the asking device (`--entropy`)."""
    campaign: str | None = None
    """The campaign the asker named (`--campaign`): refused unless it is the token's."""
    columns: int = Field(default=100, ge=40, le=500)
    """The asker's terminal width, for the command's tables."""


class RunAnswer(BaseModel):
    exit_code: int
    stdout: str
    stderr: str


class TooLong(Exception):
    """The command ran past its time or printed past its cap (504)."""


def command_path(argv: list[str]) -> tuple[str, ...]:
    """The words that name the command (`("star", "casting", "heritage")`), refused before any
    global option: the server decides the database, the campaign, the branch and who is asking."""
    if any("\x00" in word for word in argv):
        raise BadRequest("a word of the command line holds a NUL character")
    first = argv[0]
    if first.startswith("-"):
        raise BadRequest(
            f"'{first}': global options cannot be sent to the server (it decides the database, the campaign, "
            "the branch and who you are from your token); give the command first"
        )
    grouped = {path[0] for path in RECORDING | READING | DIRECTOR_ONLY if len(path) > 1} | NOT_ALLOWED_GROUPS
    depth = 1
    if first in grouped:
        depth = 2
        if len(argv) > 1 and tuple(argv[:2]) in GROUP_DEPTH:
            depth = GROUP_DEPTH[tuple(argv[:2])]
    return tuple(argv[:depth])


def allowed(who: Identity, argv: list[str]) -> tuple[str, ...]:
    """The command's path, if this identity may run it remotely; refused (403) otherwise."""
    path = command_path(argv)
    named = " ".join(path)
    if path not in RECORDING | READING | DIRECTOR_ONLY:
        raise Forbidden(
            f"'{named}' cannot run on the server (it is not a command of the campaign, or it touches the "
            "server's files or settings): run it on the machine that holds the database"
        )
    if path in DIRECTOR_ONLY and not who.is_director:
        raise Forbidden(f"only the Director can run '{named}'")
    for given in argv[len(path) :]:
        if given == "--":
            break
        option = given.partition("=")[0]
        why = LOCAL_OPTIONS.get(path, {}).get(option)
        if why is not None:
            raise Forbidden(f"'{named} {option}' cannot run on the server: it {why}")
    return path


DROPPED = (
    *("SHOWRUNNER_DB", "SHOWRUNNER_CAMPAIGN", "SHOWRUNNER_BRANCH", "SHOWRUNNER_AS"),  # set from the token
    "SHOWRUNNER_SERVER",  # the command runs here, not on to another server
    "SHOWRUNNER_COMMAND_ID",  # the asker's own `--command-id`, or none
    "SHOWRUNNER_DEBUG",  # a traceback would show the server's paths to the asker
)
"""The server's own settings a remote command must not inherit."""


def environment(settings: Settings, campaign: str, branch: str, star: str | None, columns: int) -> dict[str, str]:
    """The command's settings: this server's database and key store, the token's campaign and
    identity; nothing the request sent."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env |= {
        "SHOWRUNNER_DB": settings.db_url,
        "SHOWRUNNER_CAMPAIGN": campaign,
        "SHOWRUNNER_BRANCH": branch,
        "COLUMNS": str(columns),  # tables laid out for the asker's terminal
    }
    if star is not None:
        env["SHOWRUNNER_AS"] = star
    return env


def run_command_line(argv: list[str], env: dict[str, str], entropy: str | None) -> RunAnswer:
    """The real command line, with no terminal (its commands decide off one, as in a script)."""
    command = [sys.executable, "-m", "showrunner_ledger.cli", *(["--entropy", entropy] if entropy else []), *argv]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise TooLong(f"the command ran past {int(TIMEOUT)} seconds and was stopped") from None
        return RunAnswer(exit_code=done.returncode, stdout=_read(out, "stdout"), stderr=_read(err, "stderr"))


def _read(file: IO[bytes], name: str) -> str:
    file.seek(0)
    data = file.read(OUTPUT_CAP + 1)
    if len(data) > OUTPUT_CAP:
        raise TooLong(f"the command printed more than {OUTPUT_CAP // (1024 * 1024)} MiB on {name}: ask for less")
    return data.decode("utf-8", errors="replace")


def named(table: Table, name: str, campaign_id: str) -> bool:
    """Whether `name` is a name of the token's campaign (as `--campaign` takes it)."""
    try:
        return str(table.ledger.campaign(name).id) == campaign_id
    except (UnknownName, LedgerError):  # whatever it names, never another campaign's name in the answer
        return False


def register(app: FastAPI, table: Table, settings: Settings) -> None:
    """Add the remote command line's routes to the app."""

    async def too_long(request: Request, error: Exception) -> Response:
        return JSONResponse({"error": " ".join(str(error).split())}, status_code=504)

    app.add_exception_handler(TooLong, too_long)

    @app.post(f"{API}/login", tags=["remote"])
    def login(request: Request, who: Writer) -> dict[str, Any]:
        """Sign a device in: an invite's token is spent for a session token (answered once, as
        `token`) that the device keeps; an API token or a session is kept as it is (`token` null)."""
        token: str | None = None
        if who.kind == "invite":
            presented = request.headers.get("authorization", "").partition(" ")[2]
            with table.turn():
                who, token = gate_of(request).exchange(client_of(request), presented)
        with table.turn():
            return {**table.me(who), "token": token}

    @app.post(f"{API}/logout", tags=["remote"])
    def logout(request: Request, who: Writer) -> dict[str, Any]:
        """Sign a device out: a session token is revoked (an API token stays the Director's to revoke)."""
        revoked = who.kind == "session"
        if revoked:
            with table.turn():
                gate_of(request).store.revoke(who.id)
        return {"id": who.id, "revoked": revoked}

    @app.post(f"{API}/run", tags=["remote"])
    def run(who: Writer, body: RunRequest) -> RunAnswer:
        """Run one `showrunner` command as the token's identity (a Star's token: as `--as STAR`) and
        answer its stdout, stderr and exit code, as a local run would print them. Global options and
        commands that touch the server's files or settings are refused (403, 400)."""
        allowed(who, body.argv)
        with table.turn():
            me = table.me(who)
            if body.campaign is not None and not named(table, body.campaign, who.campaign_id):
                raise Forbidden(f"this token is for campaign '{me['campaign']}', not '{body.campaign}'")
        env = environment(settings, me["campaign"], me["branch"], who.star, body.columns)
        return run_command_line(body.argv, env, body.entropy)
