"""The Showrunner ruleset's facts: what a Star did, rolled and suffered.

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..dice import ReplayDice, Roll
from ..errors import DomainError
from ..events import CampaignFact, RecapLine, RolledFact, absent
from ..text import Line
from .check import Abandoned, CheckRequest, Resolution, View, apply_resolution, resolve, roll_counted
from .consequences import ConsequenceResolution, apply_consequence
from .effects import Effect, apply_effects
from .influence import LABELS, Regained, Spent, apply_regain, apply_spend
from .phrases import DOING, LOSS
from .phrases import why as spoken_why
from .sfx import channel_checked
from .sheet import StarSheet
from .state import ShowrunnerState


class StarJoined(CampaignFact[ShowrunnerState], topic="showrunner/StarJoined"):
    sheet: StarSheet

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return state.with_star(self.sheet)

    def summary(self) -> str:
        return f"Star '{self.sheet.name}' joined the cast"

    def stars(self) -> tuple[str, ...]:
        return (self.sheet.name,)

    phrasings = ("cast",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=10, text=f"{self.sheet.name} joined the cast.", kind="cast", slots={"star": self.sheet.name}
        )


class InfluenceSpent(CampaignFact[ShowrunnerState], topic="showrunner/InfluenceSpent"):
    spent: Spent
    reason: Line = ""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return apply_spend(state, self.spent)

    def summary(self) -> str:
        s = self.spent
        pushed = f", {s.exhausted} by Pushing Their Limits" if s.exhausted else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"{s.star} spent {s.amount} {LABELS[s.pool]}{pushed}{why}"

    def stars(self) -> tuple[str, ...]:
        return (self.spent.star,)

    phrasings = ("spend", "spend-pushed")

    def recap(self) -> RecapLine | None:
        """Big spends (Plot Armor, Spotlight, Pushing Their Limits) are notable; a spend with a reason is routine."""
        s = self.spent
        why = f" ({self.reason})" if self.reason else ""
        pushed = ", pushing their limits" if s.exhausted else ""
        text = f"{s.star} spent {s.amount} {LABELS[s.pool]}{pushed}{why}."
        slots = {"star": s.star, "pool": LABELS[s.pool], "why": spoken_why(self.reason)}
        phrase = "spend-pushed" if s.exhausted else "spend"
        if s.pool in ("plot_armor", "spotlight") or s.exhausted:
            return RecapLine(weight=50, text=text, kind="spend", phrase=phrase, slots=slots)
        return RecapLine(weight=10, text=text, kind="spend", phrase=phrase, slots=slots) if self.reason else None


class InfluenceRegained(CampaignFact[ShowrunnerState], topic="showrunner/InfluenceRegained"):
    regained: Regained
    reason: Line = ""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return apply_regain(state, self.regained)

    def summary(self) -> str:
        r = self.regained
        extra = f", {r.to_ensemble} overflowed to the Ensemble" if r.to_ensemble else ""
        extra += f", {r.lost} lost" if r.lost else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"{r.star} regained {r.kept} {LABELS[r.pool]}{extra}{why}"

    def stars(self) -> tuple[str, ...]:
        return (self.regained.star,)

    phrasings = ("regain",)

    def recap(self) -> RecapLine | None:
        if not self.reason:
            return None
        r = self.regained
        return RecapLine(
            weight=10,
            text=f"{r.star} regained {r.kept} {LABELS[r.pool]} ({self.reason}).",
            kind="regain",
            slots={"star": r.star, "pool": LABELS[r.pool], "why": spoken_why(self.reason)},
            mood=1,
        )


# Dice purposes grouped as the book colours them, for `dice stats`.
_COLOUR_OF = {
    "action": "action",
    "retake": "action",  # Action Dice re-rolled with Retake
    "opposition": "opposition",
    "opposition_retake": "opposition",  # Opposition Dice re-rolled with Retake Mastery
    "script": "script",
}


def dice_colour(purpose: str) -> str:
    """The colour of the physical die a purpose is rolled with: action, opposition, script or other."""
    return _COLOUR_OF.get(purpose, "other")


class CheckRolled(RolledFact[ShowrunnerState], topic="showrunner/CheckRolled"):
    """An Ability Check with everything needed to re-judge it: inputs, every die, every effect."""

    resolution: Resolution

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return channel_checked(apply_resolution(state, self.resolution), self.resolution.request.ability)

    def apply_after_effects(self, effected: ShowrunnerState) -> ShowrunnerState:
        """What `apply` gives, from the state its resolution's effects are already applied to
        (`check.Resolved.after`, the state the check was decided on)."""
        return self.counted(roll_counted(channel_checked(effected, self.resolution.request.ability)))

    def summary(self) -> str:
        r = self.resolution
        source = "ledger dice" if self.dice_commitment else "table dice"
        return (
            f"{r.star} rolled {r.request.ability.value.title()} at {r.original_difficulty.value}: "
            f"{r.outcome.label}, {r.mark.label} (kept {r.kept[0]},{r.kept[1]}; {source})"
        )

    def stars(self) -> tuple[str, ...]:
        return (self.resolution.star,)

    phrasings = ("highlight-perfect", "highlight", "disaster", "perfect-take", "failure", "success", "partial")

    def recap(self) -> RecapLine | None:
        """Highlights, Disasters and Perfect Takes are decisive; a Failure or a big spend notable."""
        r = self.resolution
        req = r.request
        check = f"{r.original_difficulty.value} {req.ability.value.title()} check"
        spends = [
            name
            for name, used in (
                ("Plot Armor", req.plot_armor),
                ("Spotlight", req.spotlight_steps > 0 or any(a.kind == "spotlight" for a in req.after_roll)),
            )
            if used
        ]
        spending = f", spending {' and '.join(spends)}" if spends else ""
        perfect = r.mark.value == "perfect_take"
        outcome = r.outcome.value
        hard = r.original_difficulty.value not in ("EASY", "NORMAL")
        slots = {
            "star": r.star,
            "doing": DOING[req.ability],
            "odds": f" against {r.original_difficulty.value} odds" if hard else "",
            "cost": spending,
        }
        if outcome == "highlight":
            take = " with a Perfect Take" if perfect else ""
            return RecapLine(
                weight=100,
                text=f"{r.star} pulled off a Highlight{take} on a {check}{spending}.",
                kind="highlight",
                phrase="highlight-perfect" if perfect else "highlight",
                slots=slots,
                mood=1,
            )
        if outcome == "disaster":
            return RecapLine(
                weight=100,
                text=f"Disaster: {r.star}'s {check} went badly wrong{spending}.",
                kind="disaster",
                slots=slots,
                mood=-1,
            )
        if perfect:
            return RecapLine(
                weight=100,
                text=f"{r.star} nailed a Perfect Take: {r.outcome.label} on a {check}{spending}.",
                kind="perfect-take",
                slots=slots,
                mood=1,
            )
        if outcome == "failure":
            return RecapLine(
                weight=50, text=f"{r.star} failed a {check}{spending}.", kind="failure", slots=slots, mood=-1
            )
        verb = "succeeded at" if outcome == "success" else "partly succeeded at"
        return RecapLine(
            weight=50 if spends else 10,
            text=f"{r.star} {verb} a {check}{spending}.",
            kind=outcome,
            slots=slots,
            mood=1 if outcome == "success" else 0,
        )

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.resolution.rolls

    def dice_colour(self, purpose: str) -> str:
        return dice_colour(purpose)

    def explain(self) -> list[str]:
        return [step.text for step in self.resolution.steps]

    def rejudge(self, before: ShowrunnerState) -> str | None:
        return self.rejudged(before)[1]

    def audited(self, before: ShowrunnerState) -> dict[str, Any]:
        """The check as recorded, and re-judged (None when the engine cannot re-judge it)."""
        from .check_json import resolution_json

        recorded = self.resolution
        rejudged = self.rejudged(before)[0]
        return {
            "ability": recorded.request.ability.value,
            "difficulty": recorded.request.difficulty.value,
            "recorded": {
                "outcome": recorded.outcome.value,
                "mark": recorded.mark.value,
                "kept": list(recorded.kept),
                "effective_difficulty": recorded.effective_difficulty.value,
            },
            "rejudged": resolution_json(rejudged) if rejudged is not None else None,
        }

    def rejudged(self, before: ShowrunnerState) -> tuple[Resolution | None, str | None]:
        """The check decided again from its recorded request and dice, and the first difference."""
        recorded = self.resolution
        replay = ReplayDice(recorded.rolls)
        try:
            again = resolve(before, recorded.request, replay)
        except DomainError as e:
            return None, f"the current engine refuses the recorded check: {e}"
        if replay.left_over:
            return again, f"the record holds {replay.left_over} roll(s) the engine did not ask for"
        if again.judged() != recorded.judged():
            return again, _first_difference(recorded, again)
        return again, None


class _WalksAway:
    """The chooser of an abandoned check's re-judgement: it leaves where the Star left."""

    def choose(self, view: View) -> tuple[int, int]:
        raise Abandoned()


class CheckAbandoned(RolledFact[ShowrunnerState], topic="showrunner/CheckAbandoned"):
    """A Star saw the dice and walked away: the roll is spent, and the table can see it."""

    request: CheckRequest
    rolls: tuple[Roll, ...]
    effects: tuple[Effect, ...] = ()
    """What was spent before walking away stays spent."""

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        state = apply_effects(state, self.effects)
        return state.model_copy(update={"dice_rolls": state.dice_rolls + 1})

    def summary(self) -> str:
        return f"{self.request.star} abandoned a {self.request.ability.value.title()} check after the roll"

    def stars(self) -> tuple[str, ...]:
        return (self.request.star,)

    phrasings = ("abandoned",)

    def recap(self) -> RecapLine | None:
        what = f"{self.request.difficulty.value} {self.request.ability.value.title()} check"
        return RecapLine(
            weight=10,
            text=f"{self.request.star} walked away from a {what} after seeing the dice.",
            kind="abandoned",
            slots={"star": self.request.star, "doing": DOING[self.request.ability]},
        )

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.rolls

    def dice_colour(self, purpose: str) -> str:
        return dice_colour(purpose)

    def audited(self, before: ShowrunnerState) -> dict[str, Any]:
        """Rolled, but no outcome: the request and what stayed spent."""
        return {
            "ability": self.request.ability.value,
            "difficulty": self.request.difficulty.value,
            "recorded": None,
            "rejudged": None,
            "effects": [e.model_dump(mode="json") for e in self.effects],
        }

    def rejudge(self, before: ShowrunnerState) -> str | None:
        """Re-run the request up to the choice: the engine must ask for exactly the recorded rolls."""
        replay = ReplayDice(self.rolls)
        try:
            resolve(before, self.request, replay, _WalksAway())
        except Abandoned as walked:
            if replay.left_over:
                return f"the record holds {replay.left_over} roll(s) the engine did not ask for"
            if walked.effects != self.effects:
                return (
                    f"the effects differ: recorded {len(self.effects)} effects, re-judged {len(walked.effects)} effects"
                )
            return None
        except DomainError as e:
            return f"the current engine refuses the recorded check: {e}"
        return "the recorded request resolves without a choice, so it cannot have been abandoned"


class ConsequenceSuffered(CampaignFact[ShowrunnerState], topic="showrunner/ConsequenceSuffered"):
    """A Consequence on a Star's sheet (14.3): the request, every step, the dice and the effects."""

    resolution: ConsequenceResolution
    roll_number: int | None = None
    """The roll number used when a die was rolled (a Plot Armor Scar's slot, Limit's Anomalies)."""

    def numbered_rolls(self) -> tuple[int, tuple[Roll, ...]] | None:
        return None if self.roll_number is None else (self.roll_number, self.resolution.rolls)

    dice_commitment: str | None = None
    """For ledger dice: the commitment of the seed they were derived from."""
    dice_entropy: str | None = Field(default=None, exclude_if=absent)
    """For ledger dice v2: the entropy given for the roll (RolledFact.dice_entropy)."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return apply_consequence(state, self.resolution)

    def summary(self) -> str:
        r = self.resolution
        if not r.rolls:
            return r.headline()
        return f"{r.headline()} ({'ledger dice' if self.dice_commitment else 'table dice'})"

    def stars(self) -> tuple[str, ...]:
        return (self.resolution.star,)

    phrasings = ("written-off", "scar", "consequence")

    def recap(self) -> RecapLine | None:
        """Being written off the Show is decisive; a Scar notable; any other Consequence routine."""
        r = self.resolution
        slots = {"star": r.star, "loss": LOSS[r.request.kind.value]}
        if r.written_off:
            return RecapLine(
                weight=100, text=f"{r.star} was written off the Show.", kind="written-off", slots=slots, mood=-1
            )
        what = f"{r.star} suffered {r.request.kind.label} at {r.request.difficulty.value}"
        if any(getattr(e, "kind", "") == "scar" for e in r.effects):
            return RecapLine(
                weight=50,
                text=f"{what}, and carries a new Scar.",
                kind="consequence",
                phrase="scar",
                slots=slots,
                mood=-1,
            )
        return RecapLine(weight=10, text=f"{what}.", kind="consequence", slots=slots, mood=-1)


def _first_difference(recorded: Resolution, rejudged: Resolution) -> str:
    names = (
        "action dice",
        "opposition dice",
        "script dice",
        "blocked dice",
        "remaining dice",
        "kept pair",
        "effective Difficulty",
        "outcome",
        "mark",
        "effects",
    )
    for name, was, now in zip(names, recorded.judged(), rejudged.judged(), strict=True):
        if was != now:
            verb = "differ" if name.endswith(("dice", "effects")) else "differs"
            return f"the {name} {verb}: recorded {_show(was)}, re-judged {_show(now)}"
    return "the re-judged check differs from the record"


def _show(value: object) -> str:
    if isinstance(value, tuple) and value and hasattr(value[0], "model_dump"):
        return f"{len(value)} effects"
    return str(getattr(value, "value", value))
