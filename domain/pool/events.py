"""The d10 Pool ruleset's facts: a character joined, a check, a contest, a Luck roll.

Topics are forever: never rename one; add a schema version and an upcaster instead. The
class names carry the ruleset's name (PoolCheckRolled) so that they stay distinct from
other rulesets' CheckRolled in the log's type names; the topics are `pool/<PastTense>`.
"""

from __future__ import annotations

from typing import Protocol

from ..dice import DiceSource, ReplayDice, Roll
from ..errors import DomainError
from ..events import CampaignFact, RecapLine, RolledFact
from .character import PoolCharacter
from .resolve import (
    DEFENDER,
    LUCK,
    POOL,
    CheckResolution,
    ContestResolution,
    LuckResolution,
    apply_check,
    apply_contest,
    apply_luck,
    explain_check,
    explain_contest,
    explain_luck,
    resolve_check,
    resolve_contest,
    resolve_luck,
)
from .rules import Degree, dc_name
from .state import PoolState

_COLOURS = {POOL: "pool", DEFENDER: "defender", LUCK: "luck"}


class _Resolution(Protocol):
    """What re-judging reads of a check's, a contest's or a Luck roll's resolution."""

    @property
    def rolls(self) -> tuple[Roll, ...]: ...

    def judged(self) -> tuple[tuple[str, object], ...]: ...


class PoolCharacterJoined(CampaignFact[PoolState], topic="pool/CharacterJoined"):
    character: PoolCharacter

    def apply(self, state: PoolState) -> PoolState:
        return state.with_character(self.character)

    def summary(self) -> str:
        return f"Character '{self.character.name}' joined the campaign"

    def stars(self) -> tuple[str, ...]:
        return (self.character.name,)

    phrasings = ("cast",)

    def recap(self) -> RecapLine | None:
        name = self.character.name
        return RecapLine(weight=10, text=f"{name} joined the story.", kind="cast", slots={"star": name})


class _PoolRolled(RolledFact[PoolState]):
    """What the three rolls share: the recorded rolls, re-judging from them, dice colours."""

    def _resolution(self) -> _Resolution:
        raise NotImplementedError

    def _resolve_again(self, before: PoolState, dice: DiceSource) -> _Resolution:
        """The recorded request decided again with `dice`."""
        raise NotImplementedError

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self._resolution().rolls

    def dice_colour(self, purpose: str) -> str:
        return _COLOURS.get(purpose, "other")

    def _source(self) -> str:
        return "ledger dice" if self.dice_commitment else "table dice"

    def rejudge(self, before: PoolState) -> str | None:
        recorded = self._resolution()
        replay = ReplayDice(recorded.rolls)
        try:
            rejudged = self._resolve_again(before, replay)
        except DomainError as e:
            return f"the current engine refuses the recorded roll: {e}"
        if replay.left_over:
            return f"the record holds {replay.left_over} roll(s) the engine did not ask for"
        for (name, was), (_, now) in zip(recorded.judged(), rejudged.judged(), strict=True):
            if was != now:
                return f"the {name} differ{'s' if not name.endswith(('dice', 's')) else ''}: recorded {_show(was)}, re-judged {_show(now)}"
        if rejudged != recorded:
            return "the re-judged roll differs from the record"
        return None


class PoolCheckRolled(_PoolRolled, topic="pool/CheckRolled"):
    """A check with everything needed to re-judge it: the request, the pool, every die, the degree."""

    resolution: CheckResolution

    def _resolution(self) -> CheckResolution:
        return self.resolution

    def _resolve_again(self, before: PoolState, dice: DiceSource) -> CheckResolution:
        return resolve_check(before, self.resolution.request, dice)

    def apply_roll(self, state: PoolState) -> PoolState:
        return apply_check(state, self.resolution, self.roll_number)

    def stars(self) -> tuple[str, ...]:
        return (self.resolution.star,)

    def summary(self) -> str:
        r = self.resolution
        critical = "critical " if r.request.critical else ""
        hidden = ", hidden" if r.request.hidden else ""
        return (
            f"{r.star} rolled {r.parts.label()} ({r.parts.size}d10) at DC {r.request.dc}, {critical}needing {r.need}: "
            f"{r.degree.label}, net {r.counted.net}, margin {r.margin:+d} ({self._source()}{hidden})"
        )

    def explain(self) -> list[str]:
        return explain_check(self.resolution, self._source())

    phrasings = ("botch", "critical", "check-plenty", "check-just", "check-short")

    def recap(self) -> RecapLine | None:
        r = self.resolution
        named = dc_name(r.request.dc)
        task = f"{'an' if named[0] in 'aeiou' else 'a'} {named} {r.parts.label()} roll"
        if r.request.critical:
            task = f"a critical {named} {r.parts.label()} roll"
        spare = f"{r.margin} success{'es' if r.margin != 1 else ''} to spare"
        slots = {"star": r.star, "what": r.parts.skill or r.parts.stat.label}
        if r.degree is Degree.BOTCH:
            return RecapLine(weight=100, text=f"{r.star} botched {task}", kind="botch", slots=slots, mood=-1)
        if r.degree is Degree.PLENTY:
            if r.request.critical:
                return RecapLine(
                    weight=100,
                    text=f"{r.star} pulled off {task} spectacularly, with {spare}",
                    kind="critical",
                    slots=slots,
                    mood=1,
                )
            return RecapLine(
                weight=50, text=f"{r.star} made {task} with {spare}", phrase="check-plenty", slots=slots, mood=1
            )
        if r.degree is Degree.JUST_ENOUGH:
            return RecapLine(
                weight=50 if r.request.critical else 10,
                text=f"{r.star} just made {task}",
                phrase="check-just",
                slots=slots,
                mood=1,
            )
        short = -r.margin
        return RecapLine(
            weight=50 if r.request.critical else 10,
            text=f"{r.star} fell {short} success{'es' if short != 1 else ''} short on {task}",
            phrase="check-short",
            slots=slots,
            mood=-1,
        )


class PoolContestRolled(_PoolRolled, topic="pool/ContestRolled"):
    """A contest: both pools, both counts, the winner (ties to the defender) and the margin."""

    resolution: ContestResolution

    def _resolution(self) -> ContestResolution:
        return self.resolution

    def _resolve_again(self, before: PoolState, dice: DiceSource) -> ContestResolution:
        return resolve_contest(before, self.resolution.request, dice)

    def apply_roll(self, state: PoolState) -> PoolState:
        return apply_contest(state, self.resolution, self.roll_number)

    def stars(self) -> tuple[str, ...]:
        r = self.resolution
        return (r.star, r.defender_name) if r.defender is not None else (r.star,)

    def summary(self) -> str:
        r = self.resolution
        a, d = r.attacker_counted.kept, r.defender_counted.kept
        tie = ", a tie to the defender" if r.margin == 0 else ""
        botched = "".join(
            f", {name} botched"
            for name, c in ((r.star, r.attacker_counted), (r.defender_name, r.defender_counted))
            if c.botched
        )
        hidden = ", hidden" if r.request.hidden else ""
        return (
            f"{r.star} contested {r.defender_name} ({r.attacker.label()} {r.attacker.size}d10 against "
            f"{r.defender_size}d10): {r.winner_name} won, {a} to {d}{tie}{botched} ({self._source()}{hidden})"
        )

    def explain(self) -> list[str]:
        return explain_contest(self.resolution, self._source())

    phrasings = ("contest-won", "contest-held", "contest-lost")

    def recap(self) -> RecapLine | None:
        r = self.resolution
        a, d = r.attacker_counted.kept, r.defender_counted.kept
        botched = [
            name for name, c in ((r.star, r.attacker_counted), (r.defender_name, r.defender_counted)) if c.botched
        ]
        if r.winner == "attacker":
            text = f"{r.star} beat {r.defender_name} in a contest of {r.attacker.label()}, {a} successes to {d}"
        elif r.margin == 0:
            text = f"{r.defender_name} held off {r.star} in a contest of {r.attacker.label()}: a tie at {a}, and ties go to the defender"
        else:
            text = f"{r.defender_name} beat {r.star}'s {r.attacker.label()} in a contest, {d} successes to {a}"
        outcome = "won" if r.winner == "attacker" else "held" if r.margin == 0 else "lost"
        slots = {
            "star": r.star,
            "rival": r.defender_name,
            "what": r.attacker.label(),
            "aside": f", and {' and '.join(botched)} botched" if botched else "",
        }
        mood = 1 if outcome == "won" else -1
        if botched:
            text += f"; {' and '.join(botched)} botched"
            return RecapLine(
                weight=100, text=_sentence(text), kind="botch", phrase=f"contest-{outcome}", slots=slots, mood=mood
            )
        return RecapLine(
            weight=50, text=_sentence(text), kind="contest", phrase=f"contest-{outcome}", slots=slots, mood=mood
        )


class PoolLuckRolled(_PoolRolled, topic="pool/LuckRolled"):
    """A Luck roll: one d10 against the character's Luck; after a failure, a fortunate mistake at best."""

    resolution: LuckResolution

    def _resolution(self) -> LuckResolution:
        return self.resolution

    def _resolve_again(self, before: PoolState, dice: DiceSource) -> LuckResolution:
        return resolve_luck(before, self.resolution.request, dice)

    def apply_roll(self, state: PoolState) -> PoolState:
        return apply_luck(state, self.resolution)

    def stars(self) -> tuple[str, ...]:
        return (self.resolution.character,)

    def summary(self) -> str:
        r = self.resolution
        about = f" ({r.request.question})" if r.request.question else ""
        hidden = ", hidden" if r.hidden else ""
        return f"{r.character} rolled Luck {r.luck}{about}: {r.face}, {r.meaning} ({self._source()}{hidden})"

    def explain(self) -> list[str]:
        return explain_luck(self.resolution, self._source())

    phrasings = ("luck-mistake", "luck-favoured", "luck-passed")

    def recap(self) -> RecapLine | None:
        r = self.resolution
        about = f" ({r.request.question})" if r.request.question else ""
        question = r.request.question.rstrip(" ?.")
        slots = {"star": r.character, "about": f", on {question}" if question else ""}
        if r.after is not None and r.lucky:
            return RecapLine(
                weight=50,
                text=f"Luck turned {r.character}'s failure into a fortunate mistake{about}",
                kind="luck",
                phrase="luck-mistake",
                slots=slots,
                mood=1,
            )
        if r.lucky:
            return RecapLine(
                weight=10,
                text=f"Luck favoured {r.character}{about}",
                kind="luck",
                phrase="luck-favoured",
                slots=slots,
                mood=1,
            )
        return RecapLine(
            weight=10,
            text=f"Luck passed {r.character} by{about}",
            kind="luck",
            phrase="luck-passed",
            slots=slots,
            mood=-1,
        )


def _sentence(text: str) -> str:
    """A recap line starts with a capital, even when it starts with "the Watcher"."""
    return text[:1].upper() + text[1:]


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) or "none"
    return str(value)
