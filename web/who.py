"""The request's identity, as FastAPI dependencies: `Caller` for reading, `Writer` for an API
write, `FormWriter` for a page's form."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Form, Request

from ..ledger.identities import Identity
from .access import SESSION_COOKIE, Forbidden, Gate
from .table import Table


def gate_of(request: Request) -> Gate:
    gate = request.app.state.gate
    assert isinstance(gate, Gate)
    return gate


def table_of(request: Request) -> Table:
    table = request.app.state.table
    assert isinstance(table, Table)
    return table


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def caller(request: Request) -> Identity:
    with table_of(request).turn():
        return gate_of(request).identify(
            client_of(request), request.headers.get("authorization"), request.cookies.get(SESSION_COOKIE)
        )


Caller = Annotated[Identity, Depends(caller)]


def writer(request: Request, who: Caller) -> Identity:
    """A write by a browser session must carry the session's CSRF token (a script's Bearer
    token is never sent by a browser on its own, so it needs none)."""
    if request.headers.get("authorization") is None:
        same_origin(request)
        gate_of(request).check_csrf(who, request.headers.get("x-csrf-token"))
    return who


Writer = Annotated[Identity, Depends(writer)]


def same_origin(request: Request) -> None:
    """A browser's post must not come from another site (SameSite=Strict cookies and the forms'
    CSRF tokens are the first guards). Under `Referrer-Policy: no-referrer` a browser names its
    own pages' origin "null", so only another site named outright is refused here."""
    origin = request.headers.get("origin")
    if origin not in (None, "null") and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise Forbidden("this form was posted from another site")


def form_writer(request: Request, who: Caller, csrf: Annotated[str, Form()] = "") -> Identity:
    same_origin(request)
    gate_of(request).check_csrf(who, csrf)
    return who


FormWriter = Annotated[Identity, Depends(form_writer)]
