"""The d4 Resonance ruleset's facts. Topics are forever: never rename one; add a schema
version and an upcaster instead.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..dice import ReplayDice, Roll
from ..errors import DomainError
from ..events import CampaignFact, RecapLine, RolledFact
from ..phrasing import joined
from ..text import Line
from .check import CheckResolution, apply_resolution, first_difference, resolve
from .combat import (
    InitiativeResolution,
    KitUse,
    SceneEnd,
    apply_fronts,
    apply_initiative,
    apply_kit_use,
    apply_scene_end,
    apply_trade,
    resolve_initiative,
)
from .harms import HarmDealt, apply_harm
from .sheet import CharacterSheet, Combatant, Kit
from .state import ResonanceState
from .turns import TurnPassed, TurnUse, apply_turn_passed, apply_turn_use

ROUTINE, NOTABLE, DECISIVE = 10, 50, 100


def _source(commitment: str | None) -> str:
    return "ledger dice" if commitment else "table dice"


class _OptionalFieldsAdded:
    """Schema v2 of a fact that only added optional fields: their defaults read a v1 payload as
    it was decided, so the payload needs no change."""

    schema_version: ClassVar[int] = 2

    @classmethod
    def upcast_v1_v2(cls, payload: dict[str, Any]) -> dict[str, Any]:
        return payload


def _turn(use: TurnUse | None) -> str:
    if use is None:
        return ""
    parts = [f"{use.combatant}'s turn, round {use.round}"] if use.combatant else []
    parts += [f"{name}'s Check spent by the Support" for name in use.supporters]
    return " [" + "; ".join(parts) + "]"


def _rolls_left(replay: ReplayDice) -> str | None:
    if replay.left_over:
        return f"the record holds {replay.left_over} roll(s) the engine did not ask for"
    return None


class CharacterJoined(CampaignFact[ResonanceState], topic="resonance/CharacterJoined"):
    sheet: CharacterSheet

    def apply(self, state: ResonanceState) -> ResonanceState:
        return state.with_combatant(Combatant.of(self.sheet))

    def summary(self) -> str:
        return f"{self.sheet.name} joined the story"

    def stars(self) -> tuple[str, ...]:
        return (self.sheet.name,)

    phrasings = ("cast",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=ROUTINE, text=f"{self.sheet.name} joined the story", kind="cast", slots={"star": self.sheet.name}
        )


class AdversaryJoined(CampaignFact[ResonanceState], topic="resonance/AdversaryJoined"):
    """An adversary the Director brings in: their ranks are the Director's until the table meets them."""

    default_visibility = "director"

    sheet: CharacterSheet

    def apply(self, state: ResonanceState) -> ResonanceState:
        return state.with_combatant(Combatant.of(self.sheet, adversary=True))

    def summary(self) -> str:
        ranks = ", ".join(f"{s} {r}" for s, r in self.sheet.skills.items())
        return f"adversary {self.sheet.name} entered (Morale {self.sheet.morale}; {ranks})"

    def stars(self) -> tuple[str, ...]:
        return (self.sheet.name,)


class CheckRolled(_OptionalFieldsAdded, RolledFact[ResonanceState], topic="resonance/CheckRolled"):
    """A check with everything needed to re-judge it: the request, every die, the Harm it did,
    and in a combat that keeps turns the turn's Check it used (v2)."""

    resolution: CheckResolution
    turn: TurnUse | None = None

    def apply_roll(self, state: ResonanceState) -> ResonanceState:
        state = apply_resolution(state, self.resolution)
        return state if self.turn is None else apply_turn_use(state, self.turn)

    def summary(self) -> str:
        r = self.resolution
        what = f"struck {r.opponent} with {r.skill}" if r.strike else f"rolled {r.skill}"
        return (
            f"{r.roller} {what} ({r.dice_count} d4s: {_kept(r.kept)} = {r.result}) against "
            f"{r.difficulty_source}, Difficulty {r.difficulty}: {r.outcome()}"
            + (f"; {r.harm.levels} {r.harm.type} Harm" if r.harm else "")
            + "".join(f"; against {o.opponent}, Difficulty {o.difficulty}: {o.outcome()}" for o in r.others)
            + f" ({_source(self.dice_commitment)})"
            + _turn(self.turn)
        )

    def stars(self) -> tuple[str, ...]:
        r = self.resolution
        named = (
            r.roller,
            r.opponent,
            *(o.opponent for o in r.others),
            r.supporter,
            r.opposed_supporter,
            *(o.supporter for o in r.others),
        )
        return tuple(dict.fromkeys(n for n in named if n))

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.resolution.rolls

    def explain(self) -> list[str]:
        r = self.resolution
        return [f"{r.engine}: {r.roller}'s {r.skill} check ({_source(self.dice_commitment)})", *r.steps]

    def rejudge(self, before: ResonanceState) -> str | None:
        recorded = self.resolution
        replay = ReplayDice(recorded.rolls)
        try:
            rejudged = resolve(before, recorded.request, replay)
        except DomainError as e:
            return f"the current engine refuses the recorded check: {e}"
        left = _rolls_left(replay)
        if left:
            return left
        if rejudged.judged() != recorded.judged():
            return first_difference(recorded, rejudged)
        return None

    phrasings = (
        "strike",
        "removal",
        "strike-miss",
        "spellcraft",
        "spellcraft-plain",
        "spellcraft-failed",
        "check-success",
        "check-failure",
    )

    def recap(self) -> RecapLine | None:
        r = self.resolution
        if r.harm is not None:
            text = f"{r.roller} struck {r.harm.target} for {r.harm.levels} {r.harm.type} Harm"
            slots = {"star": r.roller, "target": r.harm.target, "harm": f"{r.harm.type} Harm"}
            if r.harm.newly_removed:
                return RecapLine(
                    weight=DECISIVE,
                    text=f"{text} and removed them from the narrative",
                    kind="removal",
                    slots=slots,
                    mood=1,
                )
            return RecapLine(weight=NOTABLE, text=text, kind="strike", slots=slots, mood=1)
        if r.strike:
            return RecapLine(
                weight=ROUTINE,
                text=f"{r.roller} struck at {r.opponent} and missed",
                kind="strike",
                phrase="strike-miss",
                slots={"star": r.roller, "target": r.opponent or "the enemy"},
                mood=-1,
            )
        if r.failed_intent is not None:
            return RecapLine(
                weight=NOTABLE,
                text=f"{r.roller}'s Spellcraft failed to {r.failed_intent}",
                kind="spellcraft",
                phrase="spellcraft-failed",
                slots={"star": r.roller, "intent": r.failed_intent},
                mood=-1,
            )
        if r.request.spellcraft is not None:
            return RecapLine(
                weight=NOTABLE,
                text=f"{r.roller} used Spellcraft to {r.request.intent}",
                kind="spellcraft",
                phrase="spellcraft" if r.request.intent else "spellcraft-plain",
                slots={"star": r.roller, "intent": r.request.intent},
                mood=1,
            )
        verb = (
            f"succeeded at a {r.skill} check with Resonance {r.resonance}"
            if r.success
            else f"failed a {r.skill} check by {r.dissonance}"
        )
        return RecapLine(
            weight=ROUTINE,
            text=f"{r.roller} {verb}",
            kind="check",
            phrase="check-success" if r.success else "check-failure",
            slots={"star": r.roller, "skill": r.skill},
            mood=1 if r.success else -1,
        )


class InitiativeRolled(_OptionalFieldsAdded, RolledFact[ResonanceState], topic="resonance/InitiativeRolled"):
    """A combat began: the turn order by Speed, ties broken by the recorded d4s; from v2, whether
    it keeps whose turn it is."""

    resolution: InitiativeResolution

    def apply_roll(self, state: ResonanceState) -> ResonanceState:
        return apply_initiative(state, self.resolution)

    def summary(self) -> str:
        ties = (
            f"; ties broken by {len(self.resolution.ties)} roll(s), {_source(self.dice_commitment)}"
            if self.resolution.ties
            else ""
        )
        first = f"; {self.resolution.order[0]}'s turn, round 1" if self.resolution.turns else ""
        return f"combat began; turn order {', '.join(self.resolution.order)}{ties}{first}"

    def stars(self) -> tuple[str, ...]:
        return self.resolution.order

    def roller(self) -> str:
        return "director"

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.resolution.rolls

    def explain(self) -> list[str]:
        return [
            f"{self.resolution.engine}: turn order by Speed ({_source(self.dice_commitment)})",
            *self.resolution.steps,
        ]

    def rejudge(self, before: ResonanceState) -> str | None:
        recorded = self.resolution
        replay = ReplayDice(recorded.rolls)
        try:
            rejudged = resolve_initiative(before, list(recorded.combatants), replay, turns=recorded.turns)
        except DomainError as e:
            return f"the current engine refuses the recorded turn order: {e}"
        left = _rolls_left(replay)
        if left:
            return left
        for name, was, now in zip(
            ("Speeds", "tie rolls", "turn order"), recorded.judged(), rejudged.judged(), strict=True
        ):
            if was != now:
                return f"the {name} differ: recorded {was}, re-judged {now}"
        return None

    phrasings = ("combat",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=ROUTINE,
            text=f"Combat broke out: {', '.join(self.resolution.order)}",
            kind="combat",
            slots={"who": joined(self.resolution.order)},
        )


class FrontsAssigned(CampaignFact[ResonanceState], topic="resonance/FrontsAssigned"):
    front: str
    combatants: tuple[str, ...]

    def apply(self, state: ResonanceState) -> ResonanceState:
        return apply_fronts(state, self.front, self.combatants)

    def summary(self) -> str:
        return f"{', '.join(self.combatants)} assigned to the Front {self.front}"

    def stars(self) -> tuple[str, ...]:
        return self.combatants


class FrontChanged(CampaignFact[ResonanceState], topic="resonance/FrontChanged"):
    """A combatant spent their full turn moving to another Front."""

    combatant: str
    from_front: str
    to_front: str

    def apply(self, state: ResonanceState) -> ResonanceState:
        return apply_fronts(state, self.to_front, (self.combatant,))

    def summary(self) -> str:
        return f"{self.combatant} spent their turn moving from {self.from_front} to {self.to_front}"

    def stars(self) -> tuple[str, ...]:
        return (self.combatant,)

    phrasings = ("front",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=ROUTINE,
            text=f"{self.combatant} moved from {self.from_front} to {self.to_front}",
            kind="combat",
            phrase="front",
            slots={"star": self.combatant, "from": self.from_front, "to": self.to_front},
        )


class TurnEnded(CampaignFact[ResonanceState], topic="resonance/TurnEnded"):
    """A combatant's turn ended (by `end-turn`, or a move taking it whole): the next still in the
    narrative takes theirs, a new round after the last."""

    passed: TurnPassed

    def apply(self, state: ResonanceState) -> ResonanceState:
        return apply_turn_passed(state, self.passed)

    def summary(self) -> str:
        p = self.passed
        skipped = f" ({', '.join(p.skipped)} out of the narrative)" if p.skipped else ""
        spent = "; their Check is already spent by a Support" if p.check_spent else ""
        return f"{p.ended}'s turn ended; {p.next}'s turn, round {p.round}{skipped}{spent}"

    def stars(self) -> tuple[str, ...]:
        return (self.passed.ended, self.passed.next)


class CombatEnded(CampaignFact[ResonanceState], topic="resonance/CombatEnded"):
    def apply(self, state: ResonanceState) -> ResonanceState:
        return state.model_copy(update={"combat": None})

    def summary(self) -> str:
        return "the combat ended"


class HarmSuffered(CampaignFact[ResonanceState], topic="resonance/HarmSuffered"):
    """A Harm the Director inflicts outside a Strike (a fall, a poison, an effect of a Strike)."""

    dealt: HarmDealt
    cause: Line = ""

    def apply(self, state: ResonanceState) -> ResonanceState:
        return apply_harm(state, self.dealt)

    def summary(self) -> str:
        cause = f" ({self.cause})" if self.cause else ""
        removed = "; removed from the narrative" if self.dealt.newly_removed else ""
        return f"{self.dealt.target} suffered {self.dealt.describe()}{cause}{removed}"

    def stars(self) -> tuple[str, ...]:
        return (self.dealt.target,)

    phrasings = ("harm", "harm-removal")

    def recap(self) -> RecapLine | None:
        d = self.dealt
        cause = f" from {self.cause}" if self.cause else ""
        slots = {"target": d.target, "harm": f"{d.type} Harm", "cause": cause}
        if d.newly_removed:
            return RecapLine(
                weight=DECISIVE,
                text=f"{d.target} suffered {d.levels} {d.type} Harm{cause} and was removed from the narrative",
                kind="removal",
                phrase="harm-removal",
                slots=slots,
                mood=-1,
            )
        return RecapLine(
            weight=NOTABLE if d.major else ROUTINE,
            text=f"{d.target} suffered {d.levels} {d.type} Harm{cause}",
            kind="harm",
            slots=slots,
            mood=-1,
        )


class KitUsed(_OptionalFieldsAdded, CampaignFact[ResonanceState], topic="resonance/KitUsed"):
    """A magic Kit's charge spent; in a combat that keeps turns, as the turn's Ability (v2)."""

    use: KitUse
    turn: TurnUse | None = None

    def apply(self, state: ResonanceState) -> ResonanceState:
        state = apply_kit_use(state, self.use)
        return state if self.turn is None else apply_turn_use(state, self.turn)

    def summary(self) -> str:
        u = self.use
        text = f"{u.user} used a charge of their {u.kit} ({u.charges_left} left)"
        if u.harm is not None:
            text += f": {u.target}'s {u.harm} {u.level_before} -> {u.level_after}"
        if u.enchanted:
            text += ": +1 die on Strikes this Scene"
        return text + _turn(self.turn)

    def stars(self) -> tuple[str, ...]:
        return (self.use.user,) + ((self.use.target,) if self.use.target and self.use.target != self.use.user else ())

    phrasings = ("kit-heal", "kit-use")

    def recap(self) -> RecapLine | None:
        u = self.use
        if u.harm is not None:
            whom = "their" if u.target == u.user else f"{u.target}'s"
            own = "their own" if u.target == u.user else f"{u.target}'s"
            slots = {"star": u.user, "whom": own, "harm": u.harm, "kit": u.kit}
            return RecapLine(
                weight=ROUTINE,
                text=f"{u.user} healed {whom} {u.harm} with a {u.kit}",
                kind="kit",
                phrase="kit-heal",
                slots=slots,
                mood=1,
            )
        return RecapLine(
            weight=ROUTINE,
            text=f"{u.user} used a {u.kit}",
            kind="kit",
            phrase="kit-use",
            slots={"star": u.user, "kit": u.kit},
        )


class KitsTraded(CampaignFact[ResonanceState], topic="resonance/KitsTraded"):
    character: str
    given: tuple[Kit, ...]
    taken: tuple[Kit, ...]

    def apply(self, state: ResonanceState) -> ResonanceState:
        return apply_trade(state, self.character, self.given, self.taken)

    def summary(self) -> str:
        given = ", ".join(k.name for k in self.given) or "nothing"
        taken = ", ".join(k.label() for k in self.taken) or "nothing"
        return f"{self.character} traded {given} for {taken}"

    def stars(self) -> tuple[str, ...]:
        return (self.character,)


class SceneEnded(_OptionalFieldsAdded, CampaignFact[ResonanceState], topic="resonance/SceneEnded"):
    """A Scene's end; from v2, at an Arc's end, the Scenes the Arc held and the Kits traded."""

    end: SceneEnd

    def apply(self, state: ResonanceState) -> ResonanceState:
        return apply_scene_end(state, self.end)

    def summary(self) -> str:
        e = self.end
        text = f"Scene {e.scene} ended" + (f", and with it Arc {e.arc}" if e.arc_ends else "")
        if e.arc_scenes is not None:
            scenes = "1 Scene" if e.arc_scenes == 1 else f"{e.arc_scenes} Scenes"
            text += f" ({scenes}" + (", a single session)" if e.single_session else ")")
        text += ": harms and Overkill healed" if e.arc_ends else ": harms healed, Overkill -1"
        if e.market:
            text += "; magic Kits refilled at a market"
        if e.trades:
            text += "; Kits traded " + ", ".join(
                f"{t.character}: {t.given.name} for {t.taken.label()}" for t in e.trades
            )
        rewards = [f"{r.character}: {r.reward}" for r in e.scene_rewards]
        rewards += [f"{r.character}: {r.reward} (Arc)" for r in e.arc_rewards]
        if rewards:
            text += "; rewards " + ", ".join(rewards)
        return text

    def stars(self) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(
                [r.character for r in (*self.end.scene_rewards, *self.end.arc_rewards)]
                + [t.character for t in self.end.trades]
            )
        )

    phrasings = ("arc", "scene-end")

    def recap(self) -> RecapLine | None:
        e = self.end
        if e.arc_ends:
            return RecapLine(
                weight=NOTABLE,
                text=f"Arc {e.arc} came to its end with Scene {e.scene}",
                kind="arc",
                slots={"arc": str(e.arc)},
            )
        return RecapLine(weight=ROUTINE, text=f"Scene {e.scene} came to an end", kind="scene", phrase="scene-end")


class CharacterRejoined(CampaignFact[ResonanceState], topic="resonance/CharacterRejoined"):
    character: str
    overkill_before: int
    overkill_after: int

    def apply(self, state: ResonanceState) -> ResonanceState:
        return state.updated(self.character, removed=False, overkill=self.overkill_after)

    def summary(self) -> str:
        return f"{self.character} rejoined the narrative (Overkill {self.overkill_before} -> {self.overkill_after})"

    def stars(self) -> tuple[str, ...]:
        return (self.character,)

    phrasings = ("rejoin",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=NOTABLE,
            text=f"{self.character} rejoined the narrative",
            kind="rejoin",
            slots={"star": self.character},
            mood=1,
        )


def _kept(kept: tuple[int, ...]) -> str:
    return "+".join(str(k) for k in kept) if kept else "no dice"
