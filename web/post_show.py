"""The Post-Show from the phone: `POST /api/v1/post-show`, and the page `/post-show` with its form.

Recorded by the same command as `showrunner episode post-show`, with its refusals (an Episode
still on, none ended, its Post-Show complete, no answer, a part answered twice). Each Star answers
their own part from their own phone (their Acclaim, their new Bond or Grudge), once; the Ensemble
questions are the Director's to record for the whole Cast.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..domain.errors import RuleViolation
from ..domain.structure import PostShow, PostShowAnswered, check_may_answer
from ..ledger.identities import Identity
from .access import Gate, director_only, may_read_star
from .pages import templates
from .table import BadRequest, Table
from .who import Caller, FormWriter, Writer

API = "/api/v1"


class Acclaim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    star: str
    amount: int = Field(ge=0)


class Connection(BaseModel):
    model_config = ConfigDict(extra="forbid")
    star: str
    kind: str
    """`bond` or `grudge`."""
    target: str


class Answers(BaseModel):
    """The Post-Show's answers, as `episode post-show` takes them; a question left out is not answered."""

    model_config = ConfigDict(extra="forbid")
    acclaim: list[Acclaim] = []
    connections: list[Connection] = []
    entertaining: bool | None = None
    premise: bool | None = None


def add_post_show(app: FastAPI, table: Table, gate: Gate) -> None:
    def record(who: Identity, answers: Answers) -> dict[str, Any]:
        if not who.is_director and (answers.entertaining is not None or answers.premise is not None):
            director_only(who, "answer the Ensemble questions of the Post-Show")
        with table.turn():
            ref = table.ref(who)
            named = answers.model_dump()
            for answer in (*named["acclaim"], *named["connections"]):
                answer["star"] = table.star_name(who, ref, answer["star"])
                may_read_star(who, answer["star"])
            given = {"post_show": PostShow.model_validate(named), "by": who.who}
            result = table.ledger.run(ref, "post-show", given, by=who.who)
            complete = not table.ledger.view(ref).state.structure.post_show_due
        fact = result.events[-1].fact
        assert isinstance(fact, PostShowAnswered)
        return {
            "branch": ref.branch.name,
            "episode": fact.episode,
            "by": who.who,
            "post_show": fact.answers.model_dump(mode="json") | {"ensemble_xp": fact.answers.ensemble_xp},
            "complete": complete,
            "events": [e.version for e in result.events],
        }

    @app.post(f"{API}/post-show", tags=["record"])
    def post_show(who: Writer, body: Answers) -> dict[str, Any]:
        """`showrunner episode post-show --json`: a part of the Post-Show of the Episode that just
        ended. A Star answers only for their own Star, once, and not the Ensemble questions."""
        return record(who, body)

    @app.get("/post-show", response_class=HTMLResponse, include_in_schema=False)
    def page(request: Request, who: Caller) -> Response:
        with table.turn():
            state = table.seen(who, table.ledger.view(table.ref(who)).state)
            campaign = table.me(who)
        try:
            check_may_answer(state, who.who)
            closed = None
        except RuleViolation as why:
            closed = str(why)
        stars = sorted(state.stars_on_the_show(), key=str.casefold) if who.is_director else [who.star]
        return templates.TemplateResponse(
            request,
            "post_show.html",
            {
                "who": who,
                "csrf": gate.csrf_token(who),
                "campaign": campaign,
                "episode": state.structure.episode,
                "closed": closed,
                "stars": stars,
            },
        )

    @app.post("/forms/post-show", include_in_schema=False)
    def form(
        who: FormWriter,
        star: Annotated[str, Form()],
        acclaim: Annotated[str, Form()] = "",
        connection: Annotated[str, Form()] = "",
        target: Annotated[str, Form()] = "",
        entertaining: Annotated[str, Form()] = "",
        premise: Annotated[str, Form()] = "",
    ) -> Response:
        answers = Answers(
            acclaim=[Acclaim(star=star, amount=_whole(acclaim))] if acclaim.strip() else [],
            connections=[Connection(star=star, kind=connection, target=target)] if connection else [],
            entertaining=_yes_no(entertaining),
            premise=_yes_no(premise),
        )
        record(who, answers)
        return RedirectResponse("/log", status_code=303)


def _whole(text: str) -> int:
    if not text.strip().isdigit():
        raise BadRequest(f"Acclaim is a whole number of 0 or more; got {text.strip()!r}")
    return int(text)


def _yes_no(text: str) -> bool | None:
    answers = {"": None, "yes": True, "no": False}
    if text not in answers:
        raise BadRequest(f"an Ensemble question is answered yes or no; got {text!r}")
    return answers[text]
