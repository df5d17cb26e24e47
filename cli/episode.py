"""`showrunner season|episode|scene …`: the shape of the Show, and the Post-Show.

Ending an Episode prints the branch's digest (VERSION:HASH) for the players to keep and
walks the Post-Show: the Acclaim of the Relationship Phase, each Star's new Bond or
Grudge, and the two Ensemble XP questions. Answers given as options are not asked; at a
terminal the rest are asked, and `--no-input` asks nothing. The answers are recorded as
the table gave them; no sheet is changed.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .errors import Refused, UsageProblem
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console

if TYPE_CHECKING:
    from ..domain.structure import PostShow
    from ..ledger.service import BranchRef, CommandResult
    from .session import Session

season_app = typer.Typer(
    help="Start and end Seasons of the Show.",
    epilog="Example: showrunner season start 'The Drowned City'",
    no_args_is_help=True,
)
episode_app = typer.Typer(
    help="Start and end Episodes (with the Cliffhanger and the Post-Show), and list them.",
    epilog="Example: showrunner episode end --cliffhanger 'Lady Shore's fleet is in the bay'",
    no_args_is_help=True,
)
scene_app = typer.Typer(
    help="Start and end Scenes: a goal, a location and an aesthetic.",
    epilog="Example: showrunner scene start --location 'the Customs House' --goal 'crack the flooded vault'",
    no_args_is_help=True,
)


def _director_target(s: Session, what: str) -> BranchRef:
    ref = s.target()
    if not s.is_director:
        raise Refused(f"only the Director can {what}")
    return ref


def _versions(result: CommandResult) -> list[int]:
    return [e.version for e in result.events]


def _quoted(title: str) -> str:
    return f" “{markup(title)}”" if title else ""


# ----------------------------------------------------------------------- seasons


@season_app.command("start")
@writes
def season_start(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(help="The Season's title (optional).")] = "",
    as_json: JsonOption = False,
) -> None:
    """Start the next Season. The first `episode start` opens Season 1 by itself.

    Example: showrunner season start 'The Drowned City'
    """
    from ..domain.structure import SeasonStarted

    s = session(ctx)
    ref = _director_target(s, "start a Season")
    result = s.ledger.run(ref, "season-start", {"title": title}, by=s.recorded_by(ref))
    fact = result.events[-1].fact
    assert isinstance(fact, SeasonStarted)
    if as_json:
        print_json({"branch": ref.branch.name, "season": fact.number, "title": fact.title, "events": _versions(result)})
        return
    stdout_console().print(f"#{result.events[-1].version} Season {fact.number}{_quoted(fact.title)} started.")


@season_app.command("end")
@writes
def season_end(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """End the running Season (its last Episode must have ended).

    Example: showrunner season end
    """
    from ..domain.structure import SeasonEnded

    s = session(ctx)
    ref = _director_target(s, "end a Season")
    result = s.ledger.run(ref, "season-end", {}, by=s.recorded_by(ref))
    fact = result.events[-1].fact
    assert isinstance(fact, SeasonEnded)
    if as_json:
        print_json({"branch": ref.branch.name, "season": fact.number, "events": _versions(result)})
        return
    stdout_console().print(f"#{result.events[-1].version} Season {fact.number} ended.")


# ----------------------------------------------------------------------- episodes


@episode_app.command("start")
@writes
def episode_start(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(help="The Episode's title (optional).")] = "",
    as_json: JsonOption = False,
) -> None:
    """Start the next Episode (Episodes are numbered across the whole Show).

    Example: showrunner episode start 'The Flooded Vault'
    """
    from ..domain.structure import EpisodeStarted

    s = session(ctx)
    ref = _director_target(s, "start an Episode")
    result = s.ledger.run(ref, "episode-start", {"title": title}, by=s.recorded_by(ref))
    fact = result.events[-1].fact
    assert isinstance(fact, EpisodeStarted)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "season": fact.season,
                "episode": fact.number,
                "title": fact.title,
                "events": _versions(result),
            }
        )
        return
    console = stdout_console()
    for event in result.events[:-1]:
        console.print(f"#{event.version} {markup(event.fact.summary())}.")
    console.print(
        f"#{result.events[-1].version} Episode {fact.number}{_quoted(fact.title)} started (Season {fact.season})."
    )


def _pairs(values: list[str] | None, option: str, example: str) -> list[tuple[str, str]]:
    pairs = []
    for value in values or []:
        star, sep, rest = value.partition("=")
        if not sep or not star.strip() or not rest.strip():
            raise UsageProblem(f"{option} takes STAR=VALUE, like {option} {example!r}; got {value!r}")
        pairs.append((star.strip(), rest.strip()))
    return pairs


def _post_show_options(
    acclaim: list[str] | None,
    bond: list[str] | None,
    grudge: list[str] | None,
    entertaining: bool | None,
    premise: bool | None,
) -> dict[str, Any]:
    answers: dict[str, Any] = {"acclaim": [], "connections": [], "entertaining": entertaining, "premise": premise}
    for star, amount in _pairs(acclaim, "--acclaim", "Mara=1"):
        if not amount.isdigit():
            raise UsageProblem(
                f"--acclaim takes a whole number of Acclaim after '=', like --acclaim 'Mara=1'; got {amount!r}"
            )
        answers["acclaim"].append({"star": star, "amount": int(amount)})
    for kind, values in (("bond", bond), ("grudge", grudge)):
        for star, target in _pairs(values, f"--{kind}", "Mara=Lady Shore"):
            answers["connections"].append({"star": star, "kind": kind, "target": target})
    return answers


class _Asker:
    """The Post-Show questions at a terminal, for what the options did not answer."""

    def __init__(self, console: Any) -> None:
        self.console = console

    def text(self, question: str) -> str:
        from rich.prompt import Prompt

        return Prompt.ask(question, console=self.console, default="", show_default=False).strip()

    def whole(self, question: str) -> int:
        from rich.prompt import IntPrompt

        while True:
            value = IntPrompt.ask(question, console=self.console, default=0)
            if value >= 0:
                return value
            self.console.print("Give 0 or more.")

    def connection(self, star: str) -> tuple[str, str] | None:
        while True:
            answer = self.text(
                f"New Bond or Grudge for {markup(star)}? ('bond NAME', 'grudge NAME', or empty for none)"
            )
            if not answer:
                return None
            kind, _, target = answer.partition(" ")
            if kind.lower() in ("bond", "grudge") and target.strip():
                return kind.lower(), target.strip()
            self.console.print("Answer like 'bond Lady Shore' or 'grudge The Harbourmaster', or leave it empty.")

    def yes_no(self, question: str) -> bool:
        from rich.prompt import Confirm

        return Confirm.ask(question, console=self.console)


def _ask_post_show(
    asker: _Asker, answers: dict[str, Any], stars: list[str], cliffhanger: str | None, ensemble: bool = True
) -> str | None:
    """Ask what is still open; returns the Cliffhanger (asked when None)."""
    from ..domain.names import name_key
    from ..domain.structure import ENSEMBLE_QUESTIONS

    if cliffhanger is None:
        cliffhanger = asker.text("Cliffhanger (the Subplot revealed to end the Episode; empty for none)")
    asker.console.print("[bold]Post-Show[/]: the Relationship Phase, then the Ensemble questions.")
    given_acclaim = {name_key(a["star"]) for a in answers["acclaim"]}
    given_connection = {name_key(c["star"]) for c in answers["connections"]}
    for star in stars:
        if not any(name_key(star).startswith(k) for k in given_acclaim):
            amount = asker.whole(f"Acclaim {markup(star)} earned in the Relationship Phase")
            if amount:
                answers["acclaim"].append({"star": star, "amount": amount})
        if not any(name_key(star).startswith(k) for k in given_connection):
            chosen = asker.connection(star)
            if chosen is not None:
                answers["connections"].append({"star": star, "kind": chosen[0], "target": chosen[1]})
    for key, question in ENSEMBLE_QUESTIONS.items():
        if ensemble and answers[key] is None:
            answers[key] = asker.yes_no(question)
    return cliffhanger


def _interactive(no_input: bool, as_json: bool) -> bool:
    return not no_input and not as_json and sys.stdin.isatty() and sys.stdout.isatty()


AcclaimOption = Annotated[
    list[str] | None,
    typer.Option("--acclaim", metavar="STAR=N", help="Acclaim a Star earned in the Relationship Phase (repeatable)."),
]
BondOption = Annotated[
    list[str] | None,
    typer.Option(
        "--bond", metavar="STAR=NAME", help="A Star's new Bond, starting at NORMAL (one new Bond or Grudge per Star)."
    ),
]
GrudgeOption = Annotated[
    list[str] | None, typer.Option("--grudge", metavar="STAR=NAME", help="A Star's new Grudge, starting at NORMAL.")
]
EntertainingOption = Annotated[
    bool | None,
    typer.Option(
        "--entertaining/--not-entertaining",
        help="Did the Cast work together to make the Show entertaining? (1 Ensemble XP if so)",
        show_default=False,
    ),
]
PremiseOption = Annotated[
    bool | None,
    typer.Option(
        "--premise/--no-premise",
        help="Did the Cast actively pursue the Show's Premise(s)? (1 Ensemble XP if so)",
        show_default=False,
    ),
]
NoInputOption = Annotated[bool, typer.Option("--no-input", help="Never ask: record only what the options say.")]


def _post_show_json(post_show: PostShow | None) -> dict[str, Any] | None:
    return post_show.model_dump(mode="json") | {"ensemble_xp": post_show.ensemble_xp} if post_show else None


@episode_app.command("end")
@writes
def episode_end(
    ctx: typer.Context,
    cliffhanger: Annotated[
        str | None,
        typer.Option("--cliffhanger", help="How the Episode ends: the Subplot revealed, the hook left hanging."),
    ] = None,
    acclaim: AcclaimOption = None,
    bond: BondOption = None,
    grudge: GrudgeOption = None,
    entertaining: EntertainingOption = None,
    premise: PremiseOption = None,
    skip_post_show: Annotated[
        bool,
        typer.Option(
            "--skip-post-show", help="Record no Post-Show answers now (`episode post-show` records them later)."
        ),
    ] = False,
    no_cliffhanger: Annotated[
        bool,
        typer.Option("--no-cliffhanger", help="End the Episode without a Cliffhanger (none can be added after)."),
    ] = False,
    no_input: NoInputOption = False,
    as_json: JsonOption = False,
) -> None:
    """End the Episode on its Cliffhanger, record the Post-Show, and print the digest to keep.

    With no terminal to ask (a pipe, a script, --no-input, --json), give the Cliffhanger with
    --cliffhanger or end without one with --no-cliffhanger: it cannot be added later.

    Two digests: the branch's head (VERSION:HASH) once the Episode is recorded, and
    the campaign digest (c1:…) over every branch; `showrunner verify --against DIGEST`
    later proves the log still extends it.

    Example: showrunner episode end --cliffhanger "Lady Shore's fleet is in the bay" --acclaim Mara=1 --bond "Tobias=the Harbourmaster" --entertaining --premise
    """
    from ..domain.structure import EpisodeEnded, PostShow, decide_end_episode
    from ..ledger.integrity import Digest
    from ..ledger.verification import campaign_digest

    s = session(ctx)
    ref = _director_target(s, "end an Episode")
    answers = _post_show_options(acclaim, bond, grudge, entertaining, premise)
    if skip_post_show and (
        answers["acclaim"] or answers["connections"] or entertaining is not None or premise is not None
    ):
        raise UsageProblem(
            "--skip-post-show records no answers: leave out --acclaim, --bond, --grudge and the Ensemble questions"
        )
    state = s.ledger.view(ref).state
    # Refuse (a closed Episode, an open Scene, an unknown Star) before any question is asked.
    decide_end_episode(state, "", PostShow.model_validate(answers))
    if cliffhanger is not None and no_cliffhanger:
        raise UsageProblem("--cliffhanger and --no-cliffhanger: give one of them")
    asking = _interactive(no_input, as_json)
    if cliffhanger is None and not no_cliffhanger and not (asking and not skip_post_show):
        raise UsageProblem(
            "no Cliffhanger given and no terminal to ask for one: pass --cliffhanger TEXT, "
            "or --no-cliffhanger to end the Episode without one (it cannot be added later)"
        )
    if asking and not skip_post_show:
        stars = sorted(state.stars_on_the_show(), key=str.casefold)
        cliffhanger = _ask_post_show(_Asker(stdout_console()), answers, stars, cliffhanger)
    post_show = None if skip_post_show else PostShow.model_validate(answers)
    ended = s.ledger.run(
        ref, "episode-end", {"cliffhanger": cliffhanger or "", "post_show": post_show}, by=s.recorded_by(ref)
    )
    whole = campaign_digest(s.ledger, ref.campaign)
    head = Digest(ended.events[-1].version, ended.events[-1].hash)  # the players keep it
    facts = [e.fact for e in ended.events]
    end_fact = facts[0]
    assert isinstance(end_fact, EpisodeEnded)
    recorded_post_show = next((f.answers for f in facts if hasattr(f, "answers")), None)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "season": end_fact.season,
                "episode": end_fact.number,
                "cliffhanger": end_fact.cliffhanger or None,
                "post_show": _post_show_json(recorded_post_show),
                "events": _versions(ended),
                "digest": str(head),
                "head": {"version": head.version, "hash": head.hash},
                "campaign_digest": str(whole),
            }
        )
        return
    console = stdout_console()
    for event in ended.events:
        console.print(f"#{event.version} {markup(event.fact.summary())}.", highlight=False)
    console.print("Keep these digests (`showrunner verify --against DIGEST` proves the log still extends them):")
    console.print(f"this branch:    {head}", highlight=False, soft_wrap=True)
    console.print(f"every branch:   {whole}", highlight=False, soft_wrap=True)


@episode_app.command("post-show")
@writes
def episode_post_show(
    ctx: typer.Context,
    acclaim: AcclaimOption = None,
    bond: BondOption = None,
    grudge: GrudgeOption = None,
    entertaining: EntertainingOption = None,
    premise: PremiseOption = None,
    close: Annotated[
        bool,
        typer.Option("--close", help="The Director closes the Post-Show, whoever has not answered yet."),
    ] = False,
    no_input: NoInputOption = False,
    as_json: JsonOption = False,
) -> None:
    """Record your part of the Post-Show of the Episode that just ended.

    A Star (--as STAR) answers their own Acclaim and new Bond or Grudge, once; the Director
    the Ensemble questions, and any Star's part. The Post-Show is complete when every Star
    and the Director have answered, or when the Director closes it with --close.

    Example: showrunner --as Tobias episode post-show --acclaim Tobias=1 --grudge "Tobias=Lady Shore"
    """
    from ..domain.structure import DIRECTOR, PostShow, PostShowAnswered, check_may_answer, check_post_show

    s = session(ctx)
    ref = s.target()
    by = s.recorded_by(ref)
    answers = _post_show_options(acclaim, bond, grudge, entertaining, premise)
    state = s.ledger.view(ref).state
    asking = _interactive(no_input, as_json) and not close
    if asking:
        # Refuse what cannot be answered before any question is asked.
        check_may_answer(state, by)
        check_post_show(state, PostShow.model_validate(answers))
        stars = sorted(state.stars_on_the_show(), key=str.casefold) if by == DIRECTOR else [by]
        stars = [x for x in stars if x not in state.structure.post_show_answered]
        _ask_post_show(_Asker(stdout_console()), answers, stars, "", ensemble=by == DIRECTOR)
    given = {"post_show": PostShow.model_validate(answers), "by": by, "closes": close}
    result = s.ledger.run(ref, "post-show", given, by=by)
    event = result.events[-1]
    fact = event.fact
    assert isinstance(fact, PostShowAnswered)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "episode": fact.episode,
                "by": by,
                "post_show": _post_show_json(fact.answers),
                "complete": not s.ledger.view(ref).state.structure.post_show_due,
                "events": _versions(result),
            }
        )
        return
    stdout_console().print(f"#{event.version} {markup(fact.summary())}.", highlight=False)


@episode_app.command("list")
def episode_list(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The branch's Episodes: Season, title, Scenes, first and last events, Cliffhanger.

    Example: showrunner episode list --json
    """
    from rich.table import Table

    from ..projections.log import visible
    from ..projections.recap import shape_of

    s = session(ctx)
    ref = s.target()
    shape = shape_of(e for e in s.ledger.events(ref) if visible(e, director=s.is_director))
    state = s.ledger.view(ref).state.structure
    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                "branch": ref.branch.name,
                "now": state.model_dump(),
                "episodes": [e.as_json() for e in shape.episodes],
            }
        )
        return
    table = Table(title=f"{ref.campaign.name}/{ref.branch.name}: {len(shape.episodes)} Episode(s)")
    for column in ("Episode", "Season", "title", "Scenes", "events", "Cliffhanger"):
        table.add_column(column, justify="right" if column in ("Episode", "Season", "Scenes") else "left")
    for e in shape.episodes:
        span = f"#{e.start}–#{e.end}" if e.end is not None else f"#{e.start}– (on)"
        table.add_row(str(e.number), str(e.season), markup(e.title), str(len(e.scenes)), span, markup(e.cliffhanger))
    stdout_console().print(table)


# ----------------------------------------------------------------------- scenes


@scene_app.command("start")
@writes
def scene_start(
    ctx: typer.Context,
    goal: Annotated[str, typer.Option("--goal", "-g", help="What the Stars want out of the Scene.")] = "",
    location: Annotated[str, typer.Option("--location", "-l", help="Where it happens.")] = "",
    aesthetic: Annotated[str, typer.Option("--aesthetic", "-a", help="How it looks and feels.")] = "",
    as_json: JsonOption = False,
) -> None:
    """Start the next Scene of the Episode that is on.

    Example: showrunner scene start --location 'the Customs House' --goal 'crack the flooded vault' --aesthetic 'neon rain'
    """
    from ..domain.structure import SceneStarted

    s = session(ctx)
    ref = _director_target(s, "start a Scene")
    result = s.ledger.run(
        ref, "scene-start", {"goal": goal, "location": location, "aesthetic": aesthetic}, by=s.recorded_by(ref)
    )
    event = result.events[-1]
    fact = event.fact
    assert isinstance(fact, SceneStarted)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "episode": fact.episode,
                "scene": fact.number,
                "goal": fact.goal,
                "location": fact.location,
                "aesthetic": fact.aesthetic,
                "events": _versions(result),
            }
        )
        return
    stdout_console().print(f"#{event.version} {markup(fact.summary())}.", highlight=False)


@scene_app.command("end")
@writes
def scene_end(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """End the Scene that is open.

    Example: showrunner scene end
    """
    from ..domain.structure import SceneEnded

    s = session(ctx)
    ref = _director_target(s, "end a Scene")
    result = s.ledger.run(ref, "scene-end", {}, by=s.recorded_by(ref))
    event = result.events[-1]
    fact = event.fact
    assert isinstance(fact, SceneEnded)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "episode": fact.episode,
                "scene": fact.number,
                "events": _versions(result),
            }
        )
        return
    stdout_console().print(f"#{event.version} {markup(fact.summary())}.", highlight=False)


def register(root: typer.Typer) -> None:
    root.add_typer(season_app, name="season")
    root.add_typer(episode_app, name="episode")
    root.add_typer(scene_app, name="scene")
