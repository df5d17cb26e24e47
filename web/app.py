"""The app: the JSON API (/api/v1/…), the players' pages, the event stream, and the rules every
response keeps (who is asking, security headers, one clear error)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..domain.errors import DomainError, UnknownName
from ..ledger.errors import EventNotFound, LedgerBusy, LedgerError
from ..ledger.identities import IdentityStore
from ..projections.audit import DirectorOnlyRoll
from ..projections.timeline import DEFAULT_MIN_WEIGHT
from .access import DEFAULT_SESSION_HOURS, SESSION_COOKIE, Forbidden, Gate, TooManyGuesses, Unauthorised, director_only
from .table import BadRequest, Table
from .who import Caller, Writer

if TYPE_CHECKING:
    from ..ledger.service import Ledger
    from ..ledger.settings import Settings
    from .post import AutoPost

API = "/api/v1"
SECURITY_HEADERS = {
    # Everything the pages load comes from this server; nothing may frame them.
    "Content-Security-Policy": "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
STATUS: list[tuple[type[Exception], int]] = [
    (Unauthorised, 401),
    (Forbidden, 403),
    (TooManyGuesses, 429),
    (BadRequest, 400),
    (UnknownName, 404),
    (EventNotFound, 404),
    (DirectorOnlyRoll, 403),
    (LedgerBusy, 503),
    (LedgerError, 422),
    (DomainError, 422),
]
"""What each refusal answers (the first kind that matches); anything else is a bug (500)."""


class Spend(BaseModel):
    model_config = ConfigDict(extra="forbid")
    star: str
    pool: str
    amount: int = Field(default=1, ge=1)
    push: bool = False
    reason: str = ""


class Regain(BaseModel):
    model_config = ConfigDict(extra="forbid")
    star: str
    pool: str
    amount: int = Field(default=1, ge=1)
    reason: str = ""


class Check(BaseModel):
    model_config = ConfigDict(extra="forbid")
    request: dict[str, Any]
    """The ruleset's check input, as recorded: for Showrunner `star`, `ability`, `difficulty`, …"""
    faces: dict[str, list[int]] | None = None
    """Table dice typed in, by purpose (`action`, `opposition`, `script`, …); none for ledger dice."""
    entropy: str | None = None
    """For ledger dice: text of 8 or more characters the roller typed, mixed into the dice."""


class Note(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    private: bool = False


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def status_of(error: BaseException) -> int | None:
    return next((code for kind, code in STATUS if isinstance(error, kind)), None)


def make_app(
    ledger: Ledger,
    settings: Settings,
    *,
    branch: str | None = None,
    session_hours: float = DEFAULT_SESSION_HOURS,
    auto_post: AutoPost | None = None,
) -> FastAPI:
    table = Table(ledger, branch)
    store = IdentityStore.open(settings)
    gate = Gate(store, store.server_key("csrf"), session_hours)
    app = FastAPI(
        title="showrunner-ledger",
        summary="The shared table's API: the same documents as the CLI's --json, as the token's identity sees them.",
        version="1",
        openapi_url=f"{API}/openapi.json",
        docs_url=None,  # the interactive docs load scripts from a CDN: no external resources
        redoc_url=None,
    )
    app.state.table = table
    app.state.gate = gate

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    async def refused(request: Request, error: Exception) -> Response:
        code = status_of(error)
        if code is None:
            raise error
        from .pages import error_page

        if request.url.path.startswith(API):
            answer: Response = JSONResponse({"error": one_line(error)}, status_code=code)
        else:
            answer = error_page(request, code, one_line(error))
        if code == 401 and SESSION_COOKIE in request.cookies:
            # A revoked, spent or expired session is forgotten, so the browser stops sending it.
            answer.delete_cookie(SESSION_COOKIE)
        return answer

    for kind, _ in STATUS:
        app.add_exception_handler(kind, refused)

    async def unreadable(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"] if part not in ("body", "query", "path"))
        message = f"{where}: {first['msg']}" if where else str(first["msg"])
        return JSONResponse({"error": message}, status_code=422)

    app.add_exception_handler(RequestValidationError, unreadable)

    async def invalid_input(request: Request, error: Exception) -> Response:
        # A command's input refused by its model, as the command line words it.
        assert isinstance(error, ValidationError)
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return JSONResponse({"error": f"{where}: {first['msg']}" if where else first["msg"]}, status_code=422)

    app.add_exception_handler(ValidationError, invalid_input)

    # ------------------------------------------------------------ reading

    @app.get(f"{API}/me", tags=["read"])
    def me(who: Caller) -> dict[str, Any]:
        """Who the token stands for: a Star of a campaign, or the Director."""
        with table.turn():
            return table.me(who)

    @app.get(f"{API}/log", tags=["read"])
    def log(
        who: Caller,
        type_: Annotated[list[str], Query(alias="type")] = [],  # noqa: B006 - FastAPI copies a query default
        star: str | None = None,
        page: Annotated[int, Query(ge=1)] = 1,
        per_page: Annotated[int, Query(ge=1, le=10000)] = 50,
    ) -> dict[str, Any]:
        """`showrunner log --json`: a Star's token sees only public events."""
        with table.turn():
            return table.log_json(who, types=type_, star=star, page=page, per_page=per_page)

    @app.get(f"{API}/sheet/{{star}}", tags=["read"])
    def sheet(who: Caller, star: str) -> dict[str, Any]:
        """`showrunner sheet STAR --json`: a Star's token reads only its own Star."""
        with table.turn():
            return table.sheet(who, star)[0]

    @app.get(f"{API}/recap", tags=["read"])
    def recap(
        who: Caller, episode: Annotated[int | None, Query(ge=1)] = None, director: bool = False
    ) -> dict[str, Any]:
        """`showrunner recap --json` (the last Episode that ended, or `episode`); `director` for the Director only."""
        if director:
            director_only(who, "include Director-only events in a recap")
        with table.turn():
            return table.recap(who, episode=episode, director=director)

    @app.get(f"{API}/timeline", tags=["read"])
    def timeline(
        who: Caller, director: bool = False, min_weight: Annotated[int, Query(ge=0)] = DEFAULT_MIN_WEIGHT
    ) -> dict[str, Any]:
        """`showrunner timeline --json`: every branch's beats; `director` for the Director only."""
        if director:
            director_only(who, "include Director-only events in the timeline")
        with table.turn():
            return table.timeline(who, director=director, min_weight=min_weight)

    @app.get(f"{API}/digest", tags=["read"])
    def digest(who: Caller) -> dict[str, Any]:
        """`showrunner head --campaign --json`: the campaign digest to keep."""
        with table.turn():
            return table.digest(who)

    # ------------------------------------------------------------ recording

    @app.post(f"{API}/spend", tags=["record"])
    def spend(who: Writer, body: Spend) -> dict[str, Any]:
        """`showrunner spend STAR POOL --json`: a Star spends only from their own Star."""
        with table.turn():
            return table.run(who, "spend", body.model_dump(exclude={"star"}), star=body.star)

    @app.post(f"{API}/regain", tags=["record"])
    def regain(who: Writer, body: Regain) -> dict[str, Any]:
        """`showrunner regain STAR POOL --json`."""
        with table.turn():
            return table.run(who, "regain", body.model_dump(exclude={"star"}), star=body.star)

    @app.post(f"{API}/check", tags=["record"])
    def check(who: Writer, body: Check) -> dict[str, Any]:
        """A check (`showrunner check … --json`'s record: events, type, outcome, summary); a Star
        rolls only for their own Star. A roll asked of the Director's machine answers `asked_for`."""
        with table.turn():
            return table.check(who, body.request, faces=body.faces, entropy=body.entropy)

    @app.post(f"{API}/note", tags=["record"])
    def note(who: Writer, body: Note) -> dict[str, Any]:
        """`showrunner note TEXT --json`; a private note is the Director's only."""
        if body.private:
            director_only(who, "record private notes")
        if not body.text.strip():
            raise BadRequest("a note needs some text")
        with table.turn():
            return table.note(who, body.text.strip(), private=body.private)

    from .pages import add_pages
    from .post_show import add_post_show
    from .remote import register
    from .rolls import add_rolls

    add_pages(app, table, gate)
    add_rolls(app, table, gate)
    add_post_show(app, table, gate)
    register(app, table, settings)
    if auto_post is not None:
        from .post import add_poster

        add_poster(app, table, settings, auto_post)
    return app
