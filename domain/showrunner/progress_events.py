"""Progression between scenes as facts (Chapters 8-11, Appendices D and E): Props and
Preparation, Montage Sequences, Bonds and Grudges, Acclaim and the Career Paths, Awards, XP and
milestones, Limit Breaks, and the Ensemble.

Every fact records what the table asked (its inputs) and what the pure rules decided: the
sheets and the Ensemble Pool as they stand after (`changed`, only what changed) and the lines
the table reads aloud. Folding a fact puts those back; it never decides again. A fact that
rolls (`ProgressRoll`) also keeps its dice, in order, and `rejudge` decides again from its
inputs and those dice against the state just before it: the audit then names any difference.

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource, RecordingDice, ReplayDice, Roll
from ..errors import DomainError, RuleViolation
from ..events import CampaignFact, Fact, RecapLine, RolledFact, absent
from ..inputs import Many
from ..names import name_key
from ..text import Line, Name
from . import backpack as bp
from . import career
from . import ensemble as ens
from . import montage as mtg
from . import progression as prog
from . import relationships as rel
from .check import Outcome
from .flavour import ABILITY_BY_D10
from .influence import LABELS, PoolName
from .ladder import Difficulty, Quality
from .montage_claims import Claim
from .path_choices import PathChoice
from .sheet import AbilityName, Award, CareerPath, Holding, Mastery, PropType, StarSheet
from .state import EnsemblePool, ShowrunnerState
from .vocabulary import FlashbackAction, MontageAction

__all__ = [
    "PropsGained",
    "PropsGivenUp",
    "PropsPacked",
    "TrinketAdded",
    "TrinketRemoved",
    "PreparationSpent",
    "RandomPropFound",
    "MontageStarted",
    "MontageSceneShot",
    "MontageStopped",
    "RelationshipAdded",
    "RelationshipTraded",
    "RelationshipResolved",
    "AcclaimEarned",
    "CareerPathCompleted",
    "AwardsSeasonHeld",
    "AwardUsed",
    "XPGained",
    "MilestonesReached",
    "LimitBroken",
    "EnsembleInfluenceSpent",
    "EnsembleBackpackStocked",
    "EnsembleBackpackOpened",
    "HoldingAcquired",
    "EnsembleXPGained",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Changed(_Frozen):
    """The parts of a branch's state a fact changed, as they stand after it."""

    stars: tuple[StarSheet, ...] = ()
    ensemble: EnsemblePool | None = None

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        for sheet in self.stars:
            state = state.with_star(sheet)
        if self.ensemble is not None:
            state = state.model_copy(update={"ensemble": self.ensemble})
        return state


def changes(before: ShowrunnerState, after: ShowrunnerState) -> Changed:
    if after is before:
        return Changed(stars=(), ensemble=None)
    if after.world != before.world or after.studio_notes != before.studio_notes:
        raise AssertionError("a progression rule changed the world or the Studio Notes")  # pragma: no cover
    stars = tuple(sheet for key, sheet in after.stars.items() if before.stars.get(key) != sheet)
    return Changed(stars=stars, ensemble=after.ensemble if after.ensemble != before.ensemble else None)


Decision = tuple[ShowrunnerState, list[str], dict[str, Any]]
"""What `redo` returns: the state after, the lines for the table, and the fact's other outputs."""


class _Decides:
    """What every progression fact shares: decided once by `decided`, re-decided by `redo`."""

    lines: tuple[str, ...]

    if TYPE_CHECKING:
        # Provided by the pydantic fact it is mixed into.
        def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self: ...

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        raise NotImplementedError

    @classmethod
    def decided(cls, state: ShowrunnerState, dice: DiceSource | None = None, **inputs: Any) -> Self:
        draft = cls(**inputs)
        recorder = RecordingDice(dice) if dice is not None else None
        return draft.with_decision(state, draft.redo(state, recorder), recorder)

    def with_decision(self, state: ShowrunnerState, decision: Decision, recorder: RecordingDice | None) -> Self:
        """The drafted fact with what its `redo` decided on `state`, rolling on `recorder`."""
        after, lines, extra = decision
        update: dict[str, Any] = {"changed": changes(state, after), "lines": tuple(lines), **extra}
        if recorder is not None:
            update["rolls"] = tuple(recorder.rolls)
        return self.model_copy(update=update)

    def _text(self, head: str) -> str:
        return f"{head}: {'; '.join(self.lines)}" if self.lines else head


class ProgressFact(_Decides, CampaignFact[ShowrunnerState]):
    changed: Changed = Field(default_factory=Changed)
    lines: tuple[str, ...] = ()

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return self.changed.apply(state)


class OneStarFact(ProgressFact):
    """A progression fact about one Star's sheet."""

    star: str

    def stars(self) -> tuple[str, ...]:
        return (self.star,)


class RollsRedone:
    """A rolled fact that `redo` decides from its dice: its recorded rolls as shown, and its
    re-judging (the outcome `redo` gives on those rolls against the one recorded, `differs`)."""

    if TYPE_CHECKING:
        rolls: tuple[Roll, ...]

        def redo(self, state: ShowrunnerState, dice: Any) -> tuple[Any, list[str], dict[str, Any]]: ...
        def summary(self) -> str: ...

    def differs(self, before: ShowrunnerState, outcome: Any) -> str | None:
        """Why the outcome `redo` gives now differs from the one recorded; None if it does not."""
        raise NotImplementedError

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.rolls

    def dice_colour(self, purpose: str) -> str:
        return "other"

    def explain(self) -> list[str]:
        faces = [f"{r.purpose}: {','.join(map(str, r.faces))} (d{r.sides})" for r in self.rolls]
        return [self.summary(), *faces]

    def rejudge(self, before: ShowrunnerState) -> str | None:
        replay = ReplayDice(self.rolls)
        try:
            outcome, _, extra = self.redo(before, replay)
        except DomainError as e:
            return f"the current engine refuses the recorded roll: {e}"
        if replay.left_over:
            return f"the record holds {replay.left_over} roll(s) the engine did not ask for"
        if (why := self.differs(before, outcome)) is not None:
            return why
        for name, value in extra.items():
            if getattr(self, name) != value:
                return f"the {name.replace('_', ' ')} differs from the record"
        return None


class ProgressRoll(RollsRedone, _Decides, RolledFact[ShowrunnerState]):
    changed: Changed = Field(default_factory=Changed)
    lines: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return self.changed.apply(state)

    def differs(self, before: ShowrunnerState, outcome: Any) -> str | None:
        return "the sheets after the roll differ from the record" if changes(before, outcome) != self.changed else None


class OneStarRoll(ProgressRoll):
    """A rolled progression fact about one Star's sheet."""

    star: str

    def stars(self) -> tuple[str, ...]:
        return (self.star,)


def _active(state: ShowrunnerState, star: str) -> StarSheet:
    sheet = state.star(star)
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show")
    return sheet


def _placed(p: bp.Placement) -> str:
    parts = []
    if p.to_backpack:
        parts.append(f"{p.to_backpack} to the Backpack")
    if p.to_hand:
        parts.append(f"{p.to_hand} in hand")
    if p.left_behind:
        parts.append(f"{p.left_behind} left behind")
    return ", ".join(parts) or "nothing carried"


def _label(value: str) -> str:
    return value.replace("_", " ").title()


# ------------------------------------------------------------------ Props and Preparation (8.1)


class PropsGained(OneStarFact, topic="showrunner/PropsGained"):
    """Props found, bought or given: into the Backpack while a slot has room, then in hand (8.1D)."""

    type: PropType
    quality: Quality = Quality.NORMAL
    count: Many = Field(ge=1)
    leave_behind: bool = False
    """What cannot be carried is left behind (else the gain is refused)."""
    reason: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        sheet, placed = bp.stow(
            _active(state, self.star), self.type, self.quality, self.count, leave_behind=self.leave_behind
        )
        return state.with_star(sheet), [_placed(placed)], {}

    def summary(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return self._text(f"{self.star} gained {self.count} {self.quality.value} {self.type.value}{why}")


class PropsGivenUp(OneStarFact, topic="showrunner/PropsGivenUp"):
    """Props spent, given away or dropped: those in hand first, then the Backpack."""

    type: PropType
    quality: Quality = Quality.NORMAL
    count: Many = Field(ge=1)
    reason: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        return state.with_star(bp.take(_active(state, self.star), self.type, self.quality, self.count)), [], {}

    def summary(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.star} gave up {self.count} {self.quality.value} {self.type.value}{why}"


class PropsPacked(OneStarFact, topic="showrunner/PropsPacked"):
    """Props moved from the hands into the Backpack once a slot has room."""

    type: PropType
    quality: Quality = Quality.NORMAL
    count: Many = Field(ge=1)

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        return state.with_star(bp.to_backpack(_active(state, self.star), self.type, self.quality, self.count)), [], {}

    def summary(self) -> str:
        return f"{self.star} packed {self.count} {self.quality.value} {self.type.value} from hand into the Backpack"


class TrinketAdded(OneStarFact, topic="showrunner/TrinketAdded"):
    trinket: Line

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        return state.with_star(bp.add_trinket(_active(state, self.star), self.trinket)), [], {}

    def summary(self) -> str:
        return f"{self.star} keeps a Trinket: {self.trinket}"


class TrinketRemoved(OneStarFact, topic="showrunner/TrinketRemoved"):
    trinket: str

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        return state.with_star(bp.remove_trinket(_active(state, self.star), self.trinket)), [], {}

    def summary(self) -> str:
        return f"{self.star} no longer keeps the Trinket {self.trinket}"


class PreparationSpent(OneStarFact, topic="showrunner/PreparationSpent"):
    """8.1E: 1 Preparation for a NORMAL Prop produced on-screen, or for a Flashback (the Method
    Actor's Award may pay a Flashback instead, once per Episode)."""

    use: Literal["prop", "flashback"]
    prop_type: PropType | None = None
    flashback: FlashbackAction | None = None
    bonus_type: PropType | None = None
    """Mastered Preparation's free NORMAL Prop."""
    award: bool = False
    push: bool = False

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        if self.use == "prop":
            if self.prop_type is None or self.flashback is not None or self.award:
                raise RuleViolation("Preparation produces one NORMAL Prop: name its Type (and no Flashback or Award)")
            used = bp.produce_prop(state, self.star, self.prop_type, bonus_type=self.bonus_type, push=self.push)
        else:
            if self.flashback is None or self.prop_type is not None:
                raise RuleViolation("a Flashback names its action (and produces no Prop)")
            used = bp.flashback(
                state, self.star, self.flashback, award=self.award, bonus_type=self.bonus_type, push=self.push
            )
        lines = []
        if used.placement is not None:
            lines.append(f"1 NORMAL {used.placement.type.value}: {_placed(used.placement)}")
        if used.bonus is not None:
            lines.append(f"free NORMAL {used.bonus.type.value} (Mastered Preparation): {_placed(used.bonus)}")
        return used.state, lines, {}

    def summary(self) -> str:
        if self.use == "prop":
            head = f"{self.star} spent 1 Preparation to produce a NORMAL {self.prop_type.value if self.prop_type else 'Prop'}"
        else:
            paid = "the Method Actor's Award" if self.award else "1 Preparation"
            head = f"{self.star} spent {paid} on a Flashback ({_label(self.flashback.value) if self.flashback else ''})"
        return self._text(head)

    phrasings = ("flashback",)

    def recap(self) -> RecapLine | None:
        if self.use != "flashback":
            return None
        return RecapLine(
            weight=50, text=f"{self.star} cut to a Flashback.", kind="flashback", slots={"star": self.star}
        )


class RandomPropFound(OneStarRoll, topic="showrunner/RandomPropFound"):
    """Appendix E: a random Prop (its Type by d10 and the sub-table, its Quality by d10), or a
    random Quality for a Prop of a given Type; what cannot be carried is left behind."""

    type: PropType | None = None
    """Given: only the Quality is rolled."""
    count: Many = Field(default=1, ge=1)
    found: PropType | None = None
    quality: Quality | None = None

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        assert dice is not None
        sheet = _active(state, self.star)
        if self.type is None:
            rolled = bp.random_prop(dice)
            found, quality = rolled.type, rolled.quality
        else:
            found, quality = self.type, bp.random_quality(dice)
        sheet, placed = bp.stow(sheet, found, quality, self.count, leave_behind=True)
        return state.with_star(sheet), [_placed(placed)], {"found": found, "quality": quality}

    def summary(self) -> str:
        what = f"{self.quality.value if self.quality else '?'} {self.found.value if self.found else '?'}"
        return self._text(f"{self.star} found {self.count} {what}")


# ------------------------------------------------------------------ Montage Sequences (9)


def running_montage(state: ShowrunnerState) -> mtg.MontageSequence:
    sequence: mtg.MontageSequence | None = state.ensemble.montage  # typed loosely in state.py
    structure = state.structure
    if sequence is None or not structure.episode_open or sequence.episode != structure.episode:
        raise RuleViolation("no Montage Sequence is running: start one with `showrunner montage start`")
    return sequence


def with_montage(state: ShowrunnerState, sequence: mtg.MontageSequence | None) -> ShowrunnerState:
    return state.model_copy(update={"ensemble": state.ensemble.model_copy(update={"montage": sequence})})


class MontageStarted(ProgressFact, topic="showrunner/MontageStarted"):
    """Chapter 9: the Cast begins the Episode's Montage Sequence (once per Episode; a Sequence a
    Disaster ended does not count)."""

    episode: int = 0

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        current = state.ensemble.montage
        if current is not None and current.episode == state.structure.episode and state.structure.episode_open:
            raise RuleViolation(
                f"a Montage Sequence is already running in Episode {current.episode}: shoot its scenes or stop it"
            )
        sequence = mtg.begin_montage(state)
        return with_montage(state, sequence), [], {"episode": sequence.episode}

    def summary(self) -> str:
        return f"The Cast began a Montage Sequence (Episode {self.episode})"

    phrasings = ("montage-start",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=10, text="The Cast took time out for a Montage.", kind="montage", phrase="montage-start"
        )


def claims_for(outcome: Outcome, claims: tuple[Claim, ...]) -> tuple[Claim, ...]:
    """The claims an outcome pays, in the order given: all on a Success or Highlight, the first on
    a Partial Success, none on a Failure or Disaster (9.1 Exchange Rates)."""
    if outcome in (Outcome.HIGHLIGHT, Outcome.SUCCESS):
        return claims
    if outcome is Outcome.PARTIAL:
        return claims[:1]
    return ()


class MontageSceneShot(ProgressRoll, topic="showrunner/MontageSceneShot"):
    """9.1: one Montage Action of the running Sequence: the lead's outcome (the check recorded
    just before, or given), the claims it paid with their Props, and the 1d6 (2d6) of each benefit."""

    action: MontageAction
    lead: str
    outcome: Outcome
    tier: Quality | None = None
    claims: tuple[Claim, ...] = ()
    """As asked, in priority order; `scene.lines` says what each was paid."""
    scene: mtg.SceneShot | None = None

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        assert dice is not None
        sequence = running_montage(state)
        paid = mtg.shoot_scene(
            state,
            sequence,
            self.action,
            self.lead,
            self.outcome,
            claims_for(self.outcome, self.claims),
            dice,
            tier=self.tier,
        )
        after = paid.sequence if paid.sequence.ended is None else None
        return with_montage(paid.state, after), list(paid.scene.lines), {"scene": paid.scene}

    def summary(self) -> str:
        head = f"Montage scene: {self.lead} led {_label(self.action.value)}, {self.outcome.label}"
        if self.outcome is Outcome.DISASTER:
            head += " (the Montage Sequence ends with nothing)"
        return self._text(head)

    def stars(self) -> tuple[str, ...]:
        names = [self.lead] + [c.beneficiary for c in self.claims if c.beneficiary != mtg.ENSEMBLE]
        return tuple(dict.fromkeys(names))

    phrasings: ClassVar[tuple[str, ...]] = (
        "montage-disaster",
        "montage-scene-good",
        "montage-scene-mixed",
        "montage-scene-bad",
    )

    def recap(self) -> RecapLine | None:
        slots = {"star": self.lead, "action": _label(self.action.value).lower()}
        if self.outcome is Outcome.DISASTER:
            return RecapLine(
                weight=50,
                text=f"A Montage went wrong: {self.lead}'s {_label(self.action.value)} scene ended in Disaster.",
                kind="montage",
                phrase="montage-disaster",
                slots=slots,
                mood=-1,
            )
        turn = _turn(self.outcome)
        return RecapLine(
            weight=50,
            text=f"Montage: {self.lead} led a {_label(self.action.value)} scene ({self.outcome.label}).",
            kind="montage",
            phrase=f"montage-scene-{turn}",
            slots=slots,
            mood={"good": 1, "mixed": 0, "bad": -1}[turn],
        )


class FlashbackMontageShot(MontageSceneShot, topic="showrunner/FlashbackMontageShot"):
    """8.1E Flashbacks, "Montage Action: Perform a single Montage Action": one Montage Action shot
    in a Flashback (paid by the PreparationSpent just before), as the first scene of a Montage of
    its own: 1 Opposition Die, the same exchange rates and claims. It neither opens, joins nor
    spends the Episode's Montage Sequence."""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        assert dice is not None
        paid = mtg.shoot_scene(
            state,
            mtg.flashback_montage(state),
            self.action,
            self.lead,
            self.outcome,
            claims_for(self.outcome, self.claims),
            dice,
            tier=self.tier,
        )
        return paid.state, list(paid.scene.lines), {"scene": paid.scene}

    def summary(self) -> str:
        return self._text(f"Flashback: {self.lead} led {_label(self.action.value)}, {self.outcome.label}")

    phrasings: ClassVar[tuple[str, ...]] = ("flashback-montage",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"In a Flashback, {self.lead} led a {_label(self.action.value)} scene ({self.outcome.label}).",
            kind="flashback",
            phrase="flashback-montage",
            slots={"star": self.lead, "action": _label(self.action.value).lower()},
            mood={"good": 1, "mixed": 0, "bad": -1}[_turn(self.outcome)],
        )


class MontageStopped(ProgressFact, topic="showrunner/MontageStopped"):
    """9.1 step 7: the Cast stops; every Star gains the benefit of each Mastery they hold."""

    prop_choices: dict[str, PropType] = Field(default_factory=dict)
    """Prop Mastery: the Type of each such Star's free NORMAL Prop."""
    episode: int = 0
    scenes: int = 0

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        sequence = running_montage(state)
        stopped = mtg.stop_montage(state, sequence, prop_choices=self.prop_choices)
        return (
            with_montage(stopped.state, None),
            list(stopped.lines),
            {"episode": sequence.episode, "scenes": len(sequence.scenes)},
        )

    def summary(self) -> str:
        plural = "s" if self.scenes != 1 else ""
        return self._text(f"The Cast stopped the Montage Sequence after {self.scenes} scene{plural}")

    def stars(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.changed.stars)

    phrasings = ("montage-end",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"The Cast wrapped a Montage of {self.scenes} scene{'s' if self.scenes != 1 else ''}.",
            kind="montage",
            phrase="montage-end",
        )


# ------------------------------------------------------------------ Bonds and Grudges (10.1, 10.2)


class RelationshipAdded(OneStarFact, topic="showrunner/RelationshipAdded"):
    """10.2D: at the end of an Episode, one new Bond OR Grudge, at N."""

    kind: rel.Kind
    name: Name
    """Who it is with."""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        return rel.add_relationship(state, self.star, self.kind, self.name), [], {}

    def summary(self) -> str:
        verb = "formed a Bond with" if self.kind == "bond" else "took a Grudge against"
        return f"{self.star} {verb} {self.name} ({rel.tier_name(self.kind, Difficulty.NORMAL)})"

    phrasings = ("relationship-bond", "relationship-grudge")

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=self.summary() + ".",
            kind="relationship",
            phrase=f"relationship-{self.kind}",
            slots={"star": self.star, "name": self.name},
        )


class RelationshipTraded(OneStarFact, topic="showrunner/RelationshipTraded"):
    """10.2A outside a check (a check records its Trade in its own effects): an Action Sequence,
    or a check rolled away from the ledger. When every box is marked the relationship Advances."""

    kind: rel.Kind
    name: str
    difficulty: Difficulty
    acclaim_path: CareerPath | None = None
    reason: Line = ""
    effective: Difficulty | None = None
    advanced_to: Difficulty | None = None

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        sheet = _active(state, self.star)
        advances = rel.trade_advances(sheet, self.kind, self.name, self.difficulty)
        if advances and self.acclaim_path is None:
            raise RuleViolation(
                f"this Trade completes the {self.kind.title()} with {self.name} and it Advances: "
                "name the Career Path for its 1 Acclaim (--acclaim)"
            )
        traded = rel.trade(
            sheet,
            self.kind,
            self.name,
            self.difficulty,
            rel.INTENT[self.kind],
            acclaim_path=self.acclaim_path if advances else None,
        )
        lines = [f"rolled at {traded.effective.value}"]
        if traded.advanced_to is not None:
            lines.append(
                f"Advanced to {traded.advanced_to.letter} ({rel.tier_name(self.kind, traded.advanced_to)}), "
                f"1 Acclaim on the Path of {traded.acclaim_path.value.title() if traded.acclaim_path else ''}"
            )
        return state.with_star(traded.sheet), lines, {"effective": traded.effective, "advanced_to": traded.advanced_to}

    def summary(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return self._text(
            f"{self.star} traded the {self.kind.title()} with {self.name} at {self.difficulty.value}{why}"
        )

    phrasings = ("leaned-bond", "leaned-grudge", "grew-bond", "grew-grudge")

    def recap(self) -> RecapLine | None:
        slots = {"star": self.star, "name": self.name}
        if self.advanced_to is None:
            return RecapLine(
                weight=10,
                text=f"{self.star} leaned on the {self.kind.title()} with {self.name}.",
                kind="relationship",
                phrase=f"leaned-{self.kind}",
                slots=slots,
            )
        tier = rel.tier_name(self.kind, self.advanced_to)
        return RecapLine(
            weight=50,
            text=f"{self.star}'s {self.kind.title()} with {self.name} grew to {tier}.",
            kind="relationship",
            phrase=f"grew-{self.kind}",
            slots=slots | {"tier": tier.lower()},
        )


class RelationshipResolved(OneStarFact, topic="showrunner/RelationshipResolved"):
    """10.2E: the Think check's result (the CheckRolled just before it, or given) applied."""

    kind: rel.Kind
    name: str
    outcome: Outcome
    new_with: Name | None = None
    """A Highlight's new Star or Actor."""
    other: tuple[rel.Kind, str] | None = None
    """A Disaster's other Bond or Grudge, lowered one Tier."""
    result: str = ""
    text: str = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        resolved = rel.resolve_relationship(
            state,
            self.star,
            self.kind,
            self.name,
            self.outcome,
            new_with=self.new_with if self.outcome is Outcome.HIGHLIGHT else None,
            other=self.other if self.outcome is Outcome.DISASTER else None,
        )
        return resolved.state, [], {"result": resolved.result, "text": resolved.text}

    def summary(self) -> str:
        return (
            f"{self.star} tried to resolve the {self.kind.title()} with {self.name}: {self.outcome.label}. {self.text}"
        )

    phrasings = tuple(f"resolved-{how}" for how in ("shifted", "removed", "reduced", "kept", "renewed"))

    def recap(self) -> RecapLine | None:
        how = _RESOLVED[self.outcome]
        tie = "bond with" if self.kind == "bond" else "grudge against"
        slots = {"star": self.star, "tie": tie, "name": self.name}
        if self.new_with:
            slots["new"] = self.new_with
        return RecapLine(
            weight=50,
            text=f"{self.star}: {self.text}.",
            kind="relationship",
            phrase=f"resolved-{how}",
            slots=slots,
            mood=-1 if how in ("kept", "renewed") else 1,
        )


_RESOLVED = {
    Outcome.HIGHLIGHT: "shifted",
    Outcome.SUCCESS: "removed",
    Outcome.PARTIAL: "reduced",
    Outcome.FAILURE: "kept",
    Outcome.DISASTER: "renewed",
}
"""What resolving a Bond or Grudge did, by the Think check's outcome (10.2E), as a recap tells it."""


def _turn(outcome: Outcome) -> str:
    return (
        "good" if outcome in (Outcome.HIGHLIGHT, Outcome.SUCCESS) else "mixed" if outcome is Outcome.PARTIAL else "bad"
    )


# ------------------------------------------------------------------ Acclaim, Career Paths, Awards (11)


class AcclaimEarned(OneStarFact, topic="showrunner/AcclaimEarned"):
    """Acclaim marked on a Path (11): from the Post-Show, a relationship with every Tier used, …
    (a Perfect Take's Acclaim is part of its check)."""

    path: CareerPath
    amount: Many = Field(default=1, ge=1)
    reason: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        sheet = career.mark_acclaim(_active(state, self.star), self.path, self.amount)
        have, cost = sheet.acclaim.get(self.path, 0), career.path_cost(sheet, self.path)
        lines = [f"{have} of {cost}" + (": the Path is full, complete it" if have >= cost else "")]
        return state.with_star(sheet), lines, {}

    def summary(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return self._text(f"{self.star} earned {self.amount} Acclaim on the Path of {self.path.value.title()}{why}")

    phrasings = ("acclaim",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=10, text=f"{self.star} earned Acclaim.", kind="acclaim", slots={"star": self.star}, mood=1
        )


class CareerPathCompleted(OneStarRoll, topic="showrunner/CareerPathCompleted"):
    """11.1: a full Path cleared for the Actor's or the Character's Choice, and a Minor Milestone
    (every third a Major Milestone, which grows the Ensemble Pool)."""

    path: CareerPath
    choice: PathChoice
    roll: int | None = None
    minor: int = 0
    major_milestone: bool = False
    nomination: bool = False

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        assert dice is not None
        done = career.complete_path(state, self.star, self.path, self.choice, dice)
        return (
            done.state,
            list(done.lines),
            {
                "roll": done.roll,
                "minor": done.minor,
                "major_milestone": done.major_milestone,
                "nomination": done.nomination,
            },
        )

    def summary(self) -> str:
        choice = (
            "the Actor's Choice"
            if self.choice.kind == "actor"
            else f"the Character's Choice ({_label(self.choice.kind)})"
        )
        rolled = f", rolled {self.roll}" if self.roll is not None else ""
        nominated = "; nominated: Awards Season is due" if self.nomination else ""
        return self._text(
            f"{self.star} completed the Path of {self.path.value.title()} with {choice}{rolled}{nominated}"
        )

    phrasings = ("path-major", "path-complete")

    def recap(self) -> RecapLine | None:
        slots = {"star": self.star, "path": f"the Path of {self.path.value.title()}"}
        if self.major_milestone:
            return RecapLine(
                weight=100,
                text=f"{self.star} reached a Major Milestone on the Path of {self.path.value.title()}.",
                kind="milestone",
                phrase="path-major",
                slots=slots,
                mood=1,
            )
        return RecapLine(
            weight=50,
            text=f"{self.star} completed the Path of {self.path.value.title()}.",
            kind="milestone",
            phrase="path-complete",
            slots=slots,
            mood=1,
        )


class AwardsSeasonHeld(OneStarFact, topic="showrunner/AwardsSeasonHeld"):
    """11.2: a nomination (the second Major Milestone on a Path) won as that Path's Award (once
    ever) or a Mastery (each once; an Ability's ⇧ names the Ability)."""

    path: CareerPath
    award: Award | None = None
    mastery: Mastery | None = None
    ability: AbilityName | None = None

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        chosen: list[Award | Mastery | career.MasterAbility] = [c for c in (self.award, self.mastery) if c is not None]
        if self.ability is not None:
            chosen.append(career.MasterAbility(ability=self.ability))
        if len(chosen) != 1:
            raise RuleViolation("a nomination is won as one Award, one Mastery or one Mastered Ability")
        won = career.awards_season(state, self.star, self.path, chosen[0])
        return won.state, list(won.lines), {}

    def what(self) -> str:
        if self.award is not None:
            return f"the {_label(self.award.value)}'s Award"
        if self.mastery is not None:
            return f"{_label(self.mastery.value)} Mastery"
        return f"Mastered {self.ability.value.title() if self.ability else ''}"

    def summary(self) -> str:
        return self._text(f"Awards Season: {self.star} won {self.what()} (Path of {self.path.value.title()})")

    phrasings = ("award-won",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=100,
            text=f"Awards Season: {self.star} won {self.what()}.",
            kind="award",
            phrase="award-won",
            slots={"star": self.star, "award": self.what()},
            mood=1,
        )


class AwardUsed(OneStarFact, topic="showrunner/AwardUsed"):
    """An Award's power, once per Episode (11.2); the Method Actor's Flashback is a PreparationSpent."""

    award: Award
    note: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        return career.use_award(state, self.star, self.award), [career.AWARD_POWER[self.award]], {}

    def summary(self) -> str:
        note = f" ({self.note})" if self.note else ""
        return self._text(f"{self.star} used the {_label(self.award.value)}'s Award{note}")

    phrasings = ("award-used",)

    def recap(self) -> RecapLine | None:
        award = f"the {_label(self.award.value)}'s Award"
        return RecapLine(
            weight=50,
            text=f"{self.star} called on {award}.",
            kind="award",
            phrase="award-used",
            slots={"star": self.star, "award": award},
        )


# ------------------------------------------------------------------ XP, milestones and Limit Breaks


class XPGained(OneStarFact, topic="showrunner/XPGained"):
    """XP marked on an Ability or a Hero Prop (in pen when permanent), every milestone it fills crossed."""

    ability: AbilityName | None = None
    hero_prop: str | None = None
    amount: Many = Field(ge=1)
    permanent: bool = False
    reason: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        sheet = _active(state, self.star)
        if (self.ability is None) == (self.hero_prop is None):
            raise RuleViolation("XP goes to one Ability or one Hero Prop")
        if self.ability is not None:
            sheet, gained = prog.gain_ability_xp(sheet, self.ability, self.amount, permanent=self.permanent)
            lines = _ability_lines(gained)
        else:
            sheet, hero = prog.gain_hero_prop_xp(sheet, self.hero_prop or "", self.amount, permanent=self.permanent)
            lines = _hero_lines(hero)
        return state.with_star(sheet), lines, {}

    def summary(self) -> str:
        target = self.ability.value.title() if self.ability is not None else self.hero_prop
        pen = " in pen" if self.permanent else ""
        why = f" ({self.reason})" if self.reason else ""
        return self._text(f"{self.star} marked {self.amount} XP{pen} in {target}{why}")


def _ability_lines(p: prog.AbilityProgress) -> list[str]:
    lines = []
    if p.reached:
        lines.append(f"{p.ability.value.title()} reached {' '.join(p.reached)}")
    if p.limit_boxes:
        lines.append(f"{p.limit_boxes} Limit box{'es' if p.limit_boxes > 1 else ''} traced")
    if p.lost:
        lines.append(f"{p.lost} XP lost: the {p.ability.value.title()} track is complete")
    return lines


def _hero_lines(p: prog.HeroPropProgress) -> list[str]:
    lines = []
    if p.reached:
        lines.append(f"{p.hero_prop} unlocked {' '.join(p.reached)}")
    if p.needs_second_power:
        lines.append(f"{p.hero_prop}: define its second Power")
    if p.lost:
        lines.append(f"{p.lost} XP lost: the {p.hero_prop} track is complete")
    return lines


def settle(state: ShowrunnerState, star: str | None = None) -> tuple[ShowrunnerState, list[str]]:
    """Cross every milestone the XP already marked fills (a check marks XP without crossing them).
    With nothing to cross, the state returned is `state` itself."""
    lines: list[str] = []
    for kept in list(state.stars.values()):
        if kept.written_off or (star is not None and name_key(kept.name) != name_key(star)):
            continue
        if all(map(prog.ability_settled, kept.abilities.values())) and all(
            map(prog.hero_prop_settled, kept.hero_props)
        ):
            continue  # the usual case: every track of the sheet is settled already
        sheet = kept
        # Only what has XP to settle is marked: copying the sheet for each Ability and Hero Prop
        # was most of the cost of a check.
        for name, ability in list(sheet.abilities.items()):
            if not prog.ability_settled(ability):
                sheet, gained = prog.gain_ability_xp(sheet, name, 0)
                lines += [f"{sheet.name}: {line}" for line in _ability_lines(gained)]
        for prop in list(sheet.hero_props):
            if not prog.hero_prop_settled(prop):
                sheet, hero = prog.gain_hero_prop_xp(sheet, prop.name, 0)
                lines += [f"{sheet.name}: {line}" for line in _hero_lines(hero)]
        if sheet is not kept:  # a settled sheet leaves the state as it is (what `changes` compares)
            state = state.with_star(sheet)
    return state, lines


class MilestonesReached(ProgressFact, topic="showrunner/MilestonesReached"):
    """The milestones that XP marked by a check (or Wear on a Hero Prop) filled, crossed."""

    star: str | None = None

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        after, lines = settle(state, self.star)
        return after, lines, {}

    @classmethod
    def crossed(cls, state: ShowrunnerState, star: str) -> MilestonesReached | None:
        """What `decided` gives for `star`'s sheet, or None when its XP fills no milestone (most
        checks): the sheet is settled once, and no fact is made to be left out."""
        after, lines = settle(state, star)
        if after is state:
            return None
        return cls(star=star).with_decision(state, (after, lines, {}), None)

    def summary(self) -> str:
        return self._text("Milestones reached")

    def stars(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.changed.stars)

    phrasings = ("milestone", "milestone-cast")

    def recap(self) -> RecapLine | None:
        if not self.lines:
            return None
        return RecapLine(
            weight=50,
            text="; ".join(self.lines) + ".",
            kind="milestone",
            phrase="milestone" if self.star else "milestone-cast",
            slots={"star": self.star} if self.star else {},
            mood=1,
        )


def with_milestones(after: ShowrunnerState, facts: Sequence[CampaignFact[ShowrunnerState]], star: str) -> list[Fact]:
    """The facts of a check, and after them the milestones its XP filled, crossed in the same save.
    `after` is the state once `facts` are applied (the command has it at hand)."""
    settled = MilestonesReached.crossed(after, star)
    return [*facts, settled] if settled is not None and settled.changed.stars else list(facts)


class LimitBroken(OneStarRoll, topic="showrunner/LimitBroken"):
    """Appendix D: the Limit overflowed: an Internal Overload (2d10) marked on the sheet in pen,
    and a Major Anomaly (2d10) for the Director to stage at the resist Difficulty."""

    resist: Difficulty
    fixed_overload: int | None = None
    fixed_anomaly: int | None = None
    overloads: tuple[prog.Overload, ...] = ()
    anomalies: tuple[prog.Anomaly, ...] = ()
    ability_d10: Literal["alphabetical"] | None = Field(default=None, exclude_if=absent)
    """A random Ability's d10 counted as the Appendices count it (one numbering everywhere), and
    Burnout and Jinxed marked where checks read them; None for a Limit Break recorded before,
    which counted in the sheet's order and left checks as they were."""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        assert dice is not None
        _active(state, self.star)
        broken = prog.limit_break(
            state,
            self.star,
            dice,
            resist=self.resist,
            fixed_overload=self.fixed_overload,
            fixed_anomaly=self.fixed_anomaly,
            numbering=prog.SHEET_ORDER if self.ability_d10 is None else ABILITY_BY_D10,
            reaches_checks=self.ability_d10 is not None,
        )
        lines = [
            f"Overload {o.roll} {o.name}" + (f" ({'; '.join(o.changes)})" if o.changes else "")
            for o in broken.overloads
        ]
        lines += [f"Major Anomaly {a.roll} {a.name} (resist {a.resist.value})" for a in broken.anomalies]
        return broken.state, lines, {"overloads": broken.overloads, "anomalies": broken.anomalies}

    def summary(self) -> str:
        return self._text(f"{self.star}'s Limit broke")

    phrasings = ("limit-break",)

    def recap(self) -> RecapLine | None:
        names = ", ".join(o.name for o in self.overloads)
        return RecapLine(
            weight=100,
            text=f"{self.star}'s Limit broke ({names}).",
            kind="limit-break",
            slots={"star": self.star},
            mood=-1,
        )


# ------------------------------------------------------------------ the Ensemble (10.3)


class EnsembleInfluenceSpent(ProgressFact, topic="showrunner/EnsembleInfluenceSpent"):
    """10.3A.1: shared Influence spent, with who was present and who consented."""

    star: str
    pool: PoolName
    amount: Many = Field(default=1, ge=1)
    present_with: tuple[str, ...] = ()
    consent: tuple[str, ...] = ()
    reason: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        spent = ens.spend_from_ensemble(
            state, self.star, self.pool, self.amount, present_with=self.present_with, consent=self.consent
        )
        return spent.state, [], {"star": spent.star, "present_with": spent.present_with, "consent": spent.consent}

    def summary(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        with_ = ", ".join(self.present_with) or "nobody"
        return (
            f"{self.star} spent {self.amount} {LABELS[self.pool]} from the Ensemble Pool{why}; "
            f"with {with_}; consent of {', '.join(self.consent)}"
        )

    def stars(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.star, *self.present_with, *self.consent)))

    phrasings = ("ensemble-drew",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=10,
            text=f"{self.star} drew on the Ensemble's {LABELS[self.pool]}.",
            kind="ensemble",
            phrase="ensemble-drew",
            slots={"star": self.star, "pool": LABELS[self.pool]},
        )


class EnsembleBackpackStocked(OneStarFact, topic="showrunner/EnsembleBackpackStocked"):
    """10.3B: a Star adds Props to the Ensemble Backpack (any time during an Episode)."""

    type: PropType
    quality: Quality = Quality.NORMAL
    count: Many = Field(default=1, ge=1)

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        _active(state, self.star)
        return ens.add_to_ensemble_backpack(state, self.star, self.type, self.quality, self.count), [], {}

    def summary(self) -> str:
        return f"{self.star} put {self.count} {self.quality.value} {self.type.value} in the Ensemble Backpack"


class EnsembleBackpackOpened(OneStarFact, topic="showrunner/EnsembleBackpackOpened"):
    """10.3B: Props taken out of the Ensemble Backpack, only during a Montage Sequence."""

    type: PropType
    quality: Quality = Quality.NORMAL
    count: Many = Field(default=1, ge=1)

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        _active(state, self.star)
        during = state.ensemble.montage is not None
        if during:
            try:
                running_montage(state)
            except RuleViolation:
                during = False
        return (
            ens.take_from_ensemble_backpack(
                state, self.star, self.type, self.quality, self.count, during_montage=during
            ),
            [],
            {},
        )

    def summary(self) -> str:
        return f"{self.star} took {self.count} {self.quality.value} {self.type.value} from the Ensemble Backpack"


class HoldingAcquired(ProgressFact, topic="showrunner/HoldingAcquired"):
    """10.3C: a Holding fills an empty Holding Slot (a Shop Montage buys one itself)."""

    holding: Holding
    reason: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        return state.model_copy(update={"ensemble": ens.add_holding(state.ensemble, self.holding)}), [], {}

    def summary(self) -> str:
        kind = f", {self.holding.kind}" if self.holding.kind else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"The Cast acquired the {self.holding.quality.value} Holding {self.holding.name}{kind}{why}"

    phrasings = ("holding",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"The Cast acquired {self.holding.name}.",
            kind="ensemble",
            phrase="holding",
            slots={"holding": self.holding.name},
            mood=1,
        )


class EnsembleXPGained(ProgressFact, topic="showrunner/EnsembleXPGained"):
    """10.3D: the two questions at the end of an Episode, 1 Ensemble XP per Yes; a Level reached
    unlocks the Ensemble Benefits the table names, a Backpack slot and (even Levels) a Holding Slot."""

    episode: int = 0
    entertaining: bool
    premise: bool
    benefits: tuple[Line, ...] = ()
    levels: tuple[int, ...] = ()

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        structure = state.structure
        if structure.episode < 1 or structure.episode_open:
            raise RuleViolation("Ensemble XP is earned at the end of an Episode: end the Episode first")
        if state.ensemble.xp_episode == structure.episode:
            raise RuleViolation(
                f"the Cast already earned its Ensemble XP for Episode {structure.episode} (once per Episode)"
            )
        grown = ens.episode_end(
            state.ensemble, entertaining=self.entertaining, premise=self.premise, benefits=self.benefits
        )
        pool = grown.ensemble.model_copy(update={"xp_episode": structure.episode})
        lines = [f"Level {level}" for level in grown.levels]
        return (
            state.model_copy(update={"ensemble": pool}),
            lines,
            {"episode": structure.episode, "levels": grown.levels, "benefits": grown.benefits},
        )

    def summary(self) -> str:
        xp = int(self.entertaining) + int(self.premise)
        reached = (
            f"; reached Level {', '.join(map(str, self.levels))} ({', '.join(self.benefits)})" if self.levels else ""
        )
        return f"The Cast earned {xp} Ensemble XP at the end of Episode {self.episode}{reached}"

    phrasings = ("ensemble-level",)

    def recap(self) -> RecapLine | None:
        if not self.levels:
            return None
        return RecapLine(
            weight=100,
            text=f"The Ensemble reached Level {self.levels[-1]}.",
            kind="ensemble",
            phrase="ensemble-level",
            slots={"level": str(self.levels[-1])},
            mood=1,
        )


def prop_choices(choices: Mapping[str, PropType], state: ShowrunnerState) -> dict[str, PropType]:
    """Prop Mastery's free Prop Types by the Stars' full names."""
    return {state.star(name).name: kind for name, kind in choices.items()}
