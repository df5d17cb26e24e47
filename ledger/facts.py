"""The facts of the ledger itself and of the campaign's first chapter.

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from uuid import UUID

from pydantic import Field

from ..domain.campaign import CampaignState, Pitch
from ..domain.dice import Roll
from ..domain.showrunner.check import CheckRequest, Resolution, apply_resolution
from ..domain.showrunner.consequences import ConsequenceResolution, apply_consequence
from ..domain.showrunner.effects import Effect, apply_effects
from ..domain.showrunner.influence import LABELS, Regained, Spent, apply_regain, apply_spend
from ..domain.showrunner.sheet import StarSheet
from .events import Fact


class CampaignFact(Fact):
    """A fact that changes the campaign state of the branch it is recorded on."""

    def apply(self, state: CampaignState) -> CampaignState:
        return state


class CampaignStarted(CampaignFact, topic="ledger/CampaignStarted"):
    """Event #1 of a campaign's main branch: the pitch and the dice commitment."""

    name: str
    pitch: Pitch
    dice_commitment: str

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_pitch(self.pitch).model_copy(update={"dice_commitment": self.dice_commitment})

    def summary(self) -> str:
        return f"Campaign '{self.pitch.title}' started ({self.pitch.ruleset}); dice seed committed"


class BranchForked(CampaignFact, topic="ledger/BranchForked"):
    """The first event of a branch: it hashes in its parent, the fork point and its hash."""

    name: str
    parent_branch_id: UUID
    parent_name: str
    fork_version: int
    parent_hash: str
    dice_commitment: str | None = None
    """A fresh seed for the fork's ledger dice, so revealing the parent's seed exposes nothing here."""

    def apply(self, state: CampaignState) -> CampaignState:
        if self.dice_commitment is None:  # forked away from the Director's key file
            return state
        return state.model_copy(update={"dice_commitment": self.dice_commitment})

    def summary(self) -> str:
        return f"Branch '{self.name}' forked from '{self.parent_name}' at #{self.fork_version}"


class StarJoined(CampaignFact, topic="showrunner/StarJoined"):
    sheet: StarSheet

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_star(self.sheet)

    def summary(self) -> str:
        return f"Star '{self.sheet.name}' joined the cast"

    def stars(self) -> tuple[str, ...]:
        return (self.sheet.name,)


# The registry streams: which campaigns a database holds and which branches each has.


class CampaignRegistered(Fact, topic="ledger/CampaignRegistered"):
    campaign_id: UUID
    name: str
    title: str
    ruleset: str
    main_branch_id: UUID


class BranchRegistered(Fact, topic="ledger/BranchRegistered"):
    branch_id: UUID
    name: str
    parent_branch_id: UUID | None
    fork_version: int


class InfluenceSpent(CampaignFact, topic="showrunner/InfluenceSpent"):
    spent: Spent
    reason: str = ""

    def apply(self, state: CampaignState) -> CampaignState:
        return apply_spend(state, self.spent)

    def summary(self) -> str:
        s = self.spent
        pushed = f", {s.exhausted} by Pushing Their Limits" if s.exhausted else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"{s.star} spent {s.amount} {LABELS[s.pool]}{pushed}{why}"

    def stars(self) -> tuple[str, ...]:
        return (self.spent.star,)


class InfluenceRegained(CampaignFact, topic="showrunner/InfluenceRegained"):
    regained: Regained
    reason: str = ""

    def apply(self, state: CampaignState) -> CampaignState:
        return apply_regain(state, self.regained)

    def summary(self) -> str:
        r = self.regained
        extra = f", {r.to_ensemble} overflowed to the Ensemble" if r.to_ensemble else ""
        extra += f", {r.lost} lost" if r.lost else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"{r.star} regained {r.kept} {LABELS[r.pool]}{extra}{why}"

    def stars(self) -> tuple[str, ...]:
        return (self.regained.star,)


class NoteRecorded(CampaignFact, topic="ledger/NoteRecorded"):
    """A line of narration or a Director's private note; changes no state."""

    text: str = Field(min_length=1)

    def summary(self) -> str:
        return self.text


class CheckRolled(CampaignFact, topic="showrunner/CheckRolled"):
    """An Ability Check with everything needed to re-judge it: inputs, every die, every effect."""

    resolution: Resolution
    roll_number: int
    dice_commitment: str | None = None
    """For ledger dice: the commitment of the seed they were derived from."""

    def apply(self, state: CampaignState) -> CampaignState:
        return apply_resolution(state, self.resolution)

    def summary(self) -> str:
        r = self.resolution
        source = "ledger dice" if self.dice_commitment else "table dice"
        return (
            f"{r.star} rolled {r.request.ability.value.title()} at {r.original_difficulty.value}: "
            f"{r.outcome.label}, {r.mark.label} (kept {r.kept[0]},{r.kept[1]}; {source})"
        )

    def stars(self) -> tuple[str, ...]:
        return (self.resolution.star,)


class SeedRevealed(CampaignFact, topic="ledger/SeedRevealed"):
    """The Director reveals the dice seed: every ledger roll made with it can now be re-derived."""

    seed: str
    commitment: str

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"revealed_seeds": {**state.revealed_seeds, self.commitment: self.seed}})

    def summary(self) -> str:
        return f"Dice seed {self.commitment[:12]}… revealed"


class SeedCommitted(CampaignFact, topic="ledger/SeedCommitted"):
    """A fresh seed for the rolls after a reveal; only its commitment is in the log."""

    commitment: str

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"dice_commitment": self.commitment})

    def summary(self) -> str:
        return f"New dice seed committed ({self.commitment[:12]}…)"


class CheckAbandoned(CampaignFact, topic="showrunner/CheckAbandoned"):
    """A Star saw the dice and walked away: the roll is spent, and the table can see it."""

    request: CheckRequest
    rolls: tuple[Roll, ...]
    roll_number: int
    dice_commitment: str | None = None
    effects: tuple[Effect, ...] = ()
    """What was spent before walking away stays spent."""

    def apply(self, state: CampaignState) -> CampaignState:
        state = apply_effects(state, self.effects)
        return state.model_copy(update={"dice_rolls": state.dice_rolls + 1})

    def summary(self) -> str:
        return f"{self.request.star} abandoned a {self.request.ability.value.title()} check after the roll"

    def stars(self) -> tuple[str, ...]:
        return (self.request.star,)


class ConsequenceSuffered(CampaignFact, topic="showrunner/ConsequenceSuffered"):
    """A Consequence on a Star's sheet (14.3): the request, every step, the dice and the effects."""

    resolution: ConsequenceResolution
    roll_number: int | None = None
    """The roll number used when a die was rolled (a Plot Armor Scar's slot, Limit's Anomalies)."""
    dice_commitment: str | None = None
    """For ledger dice: the commitment of the seed they were derived from."""

    def apply(self, state: CampaignState) -> CampaignState:
        return apply_consequence(state, self.resolution)

    def summary(self) -> str:
        r = self.resolution
        if not r.rolls:
            return r.headline()
        return f"{r.headline()} ({'ledger dice' if self.dice_commitment else 'table dice'})"

    def stars(self) -> tuple[str, ...]:
        return (self.resolution.star,)
