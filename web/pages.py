"""The players' pages: phone first, readable without JavaScript, nothing loaded from elsewhere.

Forms post with the session's CSRF token; the event stream (/events) tells a page when an event
it may show has landed, and a few lines of same-origin JavaScript reload it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..ledger.identities import Identity
from ..projections.timeline import DEFAULT_MIN_WEIGHT
from .access import SESSION_COOKIE, Forbidden, Gate, Unauthorised, director_only
from .table import Table
from .who import Caller, FormWriter, caller, client_of, same_origin

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
POLL_SECONDS = 1.0


def error_page(request: Request, code: int, message: str) -> Response:
    return templates.TemplateResponse(
        request, "error.html", {"code": code, "message": message, "who": None}, status_code=code
    )


def add_pages(app: FastAPI, table: Table, gate: Gate) -> None:
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def render(request: Request, name: str, who: Identity, **context: Any) -> Response:
        return templates.TemplateResponse(
            request, name, {"who": who, "csrf": gate.csrf_token(who), "campaign": table.me(who), **context}
        )

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home(request: Request) -> Response:
        try:
            who = caller(request)
        except Unauthorised:
            return templates.TemplateResponse(request, "welcome.html", {"who": None})
        with table.turn():
            state = table.seen(who, table.ledger.view(table.ref(who)).state)
            stars = [c.name for c in state.roster().values()] if who.is_director else [who.star]
            return render(request, "home.html", who, stars=stars)

    @app.get("/join", response_class=HTMLResponse, include_in_schema=False)
    def join_form(request: Request) -> Response:
        return templates.TemplateResponse(request, "join.html", {"who": None})

    @app.post("/join", include_in_schema=False)
    def join(request: Request, token: Annotated[str, Form()]) -> Response:
        same_origin(request)
        with table.turn():
            _, cookie = gate.exchange(client_of(request), token)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            SESSION_COOKIE,
            cookie,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=int(gate.session_hours * 3600),
        )
        return response

    @app.post("/logout", include_in_schema=False)
    def logout(request: Request, who: FormWriter) -> Response:
        with table.turn():
            gate.store.revoke(who.id)
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(SESSION_COOKIE)
        return response

    @app.get("/sheet/{star}", response_class=HTMLResponse, include_in_schema=False)
    def sheet(request: Request, who: Caller, star: str) -> Response:
        with table.turn():
            document, profile = table.sheet(who, star)
        return render(request, "sheet.html", who, document=document, profile=profile, part="sheet")

    @app.get("/log", response_class=HTMLResponse, include_in_schema=False)
    def log(
        request: Request, who: Caller, type: str = "", star: str = "", page: int = 1, per_page: int = 50
    ) -> Response:
        with table.turn():
            found = table.log(
                who,
                types=[type] if type else [],
                star=star or None,
                page=max(1, page),
                per_page=min(max(1, per_page), 500),
            )
        return render(request, "log.html", who, log=found, type=type, star=star, part="log")

    @app.get("/recap", response_class=HTMLResponse, include_in_schema=False)
    def recap(request: Request, who: Caller, episode: int | None = None, director: bool = False) -> Response:
        if director:
            director_only(who, "include Director-only events in a recap")
        with table.turn():
            told = table.recap(who, episode=episode, director=director)
        return render(request, "recap.html", who, recap=told, part="recap")

    @app.get("/timeline", response_class=HTMLResponse, include_in_schema=False)
    def timeline(request: Request, who: Caller, director: bool = False) -> Response:
        if director:
            director_only(who, "include Director-only events in the timeline")
        with table.turn():
            shown = table.timeline(who, director=director, min_weight=DEFAULT_MIN_WEIGHT)
        return render(request, "timeline.html", who, timeline=shown, part="timeline")

    @app.get("/digest", response_class=HTMLResponse, include_in_schema=False)
    def digest(request: Request, who: Caller) -> Response:
        with table.turn():
            kept = table.digest(who)
        return render(request, "digest.html", who, digest=kept)

    @app.post("/forms/influence", include_in_schema=False)
    def influence(
        who: FormWriter,
        star: Annotated[str, Form()],
        pool: Annotated[str, Form()],
        action: Annotated[str, Form()],
        amount: Annotated[int, Form(ge=1)] = 1,
        reason: Annotated[str, Form()] = "",
    ) -> Response:
        if action not in ("spend", "regain"):
            raise Forbidden("the form's action is spend or regain")
        with table.turn():
            table.run(who, action, {"pool": pool, "amount": amount, "reason": reason}, star=star)
        return RedirectResponse(f"/sheet/{star}", status_code=303)

    @app.post("/forms/note", include_in_schema=False)
    def note(who: FormWriter, text: Annotated[str, Form()], private: Annotated[bool, Form()] = False) -> Response:
        if private:
            director_only(who, "record private notes")
        if text.strip():
            with table.turn():
                table.note(who, text.strip(), private=private)
        return RedirectResponse("/log", status_code=303)

    @app.get("/events", include_in_schema=False)
    async def events(request: Request, who: Caller) -> StreamingResponse:
        """Server-sent events: `seen` with a number that grows when an event the asker may see lands."""

        async def stream() -> AsyncIterator[str]:
            last: int | None = None
            yield "retry: 2000\n\n"
            while not await request.is_disconnected():
                current = await asyncio.to_thread(_seen, who)
                if current is None:
                    return  # revoked while listening: the stream ends with the identity
                if current != last:
                    last = current
                    yield f"event: seen\ndata: {json.dumps({'seen': current})}\n\n"
                await asyncio.sleep(POLL_SECONDS)

        return StreamingResponse(stream(), media_type="text/event-stream")

    def _seen(who: Identity) -> int | None:
        with table.turn():
            return table.seen_head(who) if gate.store.get(who.id).live else None
