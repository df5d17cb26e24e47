"""The Finale's facts (Chapter 15): the Finale begun, Final Scenes, the World's turns with their
Maximized Subplots and Final Act, Gambits resisted, Stars finished, and The End.

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from ..dice import DiceSource
from ..errors import DomainError
from ..events import CampaignFact, RecapLine, Visibility
from ..names import name_key
from ..text import Name
from .actors import Actor
from .effects import Effect, apply_effects
from .finale import Finale, FinalScene, GambitDue, WorldTurnTier
from .ladder import Difficulty
from .state import ShowrunnerState
from .world_events import WorldRoll, _differs
from .writers_room import Subplot


def _finale(state: ShowrunnerState) -> Finale:
    finale = state.finale
    assert isinstance(finale, Finale), "a Finale fact applies only once the Finale has begun"
    return finale


def _with_finale(state: ShowrunnerState, finale: Finale) -> ShowrunnerState:
    return state.model_copy(update={"finale": finale})


def _with_actor(state: ShowrunnerState, actor: Actor | None) -> ShowrunnerState:
    if actor is None:
        return state
    return state.model_copy(update={"world": state.world.with_actor(actor)})


class FinaleBegan(CampaignFact[ShowrunnerState], topic="showrunner/FinaleBegan"):
    """15: the season's final climax is resolved; its last Episode becomes the Series Finale."""

    season: int = Field(ge=0)
    episode: int = Field(ge=1)

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_finale(state, Finale(episode=self.episode))

    def summary(self) -> str:
        return f"The Series Finale began: Episode {self.episode} is the season's last"

    phrasings = ("finale-began",)

    def recap(self) -> RecapLine | None:
        return RecapLine(weight=100, text="The Series Finale began.", kind="finale", phrase="finale-began")


class FinalSceneResolved(WorldRoll, topic="showrunner/FinalSceneResolved"):
    """15.1 and 15.2: a Final Scene settled, what it wrote into the world, and its Ultimate Stakes.

    Follows the `CheckRolled` of its check; `rolled` is False when the Action Sequence of a Final
    Scene above EPIC was played and its Climax's outcome given."""

    scene: FinalScene
    rolled: bool = True
    actor: Actor | None = None
    """The Actor targeted, after the Final Scene."""
    actor_change: str = ""
    effects: tuple[Effect, ...] = ()
    """The Ultimate Stakes on the Star's sheet: Plot Armor damage, a write-off."""
    stakes: str = ""

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        finale = _finale(state)
        state = apply_effects(_with_actor(state, self.actor), self.effects)
        return _with_finale(
            state, finale.model_copy(update={"scenes": (*finale.scenes, self.scene), "turn_for": self.scene.star})
        )

    def summary(self) -> str:
        s = self.scene
        against = f"against {s.actor} ({s.intent})" if s.actor else "against the World"
        said = f' "{s.declaration}"' if s.declaration else ""
        how = "" if self.rolled else ", its Action Sequence's Climax"
        change = f": {self.actor_change}" if self.actor_change else ""
        return (
            f"Final Scene {s.number}, {s.star}{said} {against} at {s.difficulty.value} "
            f"({s.outcome.label}{how}){change}; {self.stakes}"
        )

    def stars(self) -> tuple[str, ...]:
        return (self.scene.star,)

    def roller(self) -> str:
        return self.scene.star

    phrasings = ("final-scene-won", "final-scene-lost")

    def recap(self) -> RecapLine | None:
        from .finale import carries

        s = self.scene
        won = carries(s.outcome)
        if s.declaration:
            what = f"“{s.declaration}”"
        elif s.actor:
            what = f"{s.actor}'s {'rise' if s.intent == 'aid' else 'downfall'}"
        else:
            what = "a change in the world"
        return RecapLine(
            weight=100,
            text=f"In the Finale, {s.star} played out {what}, {'and it came true' if won else 'but it was not to be'}.",
            kind="final-scene",
            phrase="final-scene-won" if won else "final-scene-lost",
            slots={"star": s.star, "what": what},
            mood=1 if won else -1,
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        from .commands.finale import scene_outcome

        try:
            again = scene_outcome(before, self.scene, dice)
        except DomainError as e:
            return f"the current engine refuses the Final Scene: {e}"
        return _differs("Final Scene", (self.actor, self.effects), (again.actor, again.effects))


class FinaleSubplotMaximized(CampaignFact[ShowrunnerState], topic="showrunner/FinaleSubplotMaximized"):
    """15.3 Maximized Threat: a Subplot in stasis raised to its Plotter's Power Level before its
    Reveal. Director-only: the Power it was written at stays the Director's."""

    default_visibility: ClassVar[Visibility] = "director"

    star: Name | None = None
    """The Star whose Final Scene the World answers; None for a `subplot reveal` in the Finale."""
    tier: WorldTurnTier | None = None
    before: Difficulty
    subplot: Subplot
    """The Subplot maximized, still in stasis."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return state.model_copy(update={"world": state.world.with_subplot(self.subplot)})

    def summary(self) -> str:
        s = self.subplot
        turn = f"The World turns on {self.star}: " if self.star else "In the Finale, "
        return f"{turn}Subplot {s.number} ({s.plotter}) maximized from {self.before.value} to {s.power.value}"


class FinalActPlayed(WorldRoll, topic="showrunner/FinalActPlayed"):
    """15.3 The Final Act of a Subplot the World Revealed after a Final Scene: the Event on the
    Plotter, a Gambit the Star must resist, or Plot Armor granted."""

    star: Name
    number: int = Field(ge=1)
    plotter: Name
    plotter_after: Actor | None = None
    plotter_change: str = ""
    gambit: GambitDue | None = None
    effects: tuple[Effect, ...] = ()
    granted: int = Field(default=0, ge=0)

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        finale = _finale(state)
        state = apply_effects(_with_actor(state, self.plotter_after), self.effects)
        gambits = (*finale.gambits, self.gambit) if self.gambit else finale.gambits
        return _with_finale(state, finale.model_copy(update={"turn_for": None, "gambits": gambits}))

    def summary(self) -> str:
        parts = [self.plotter_change] if self.plotter_change else []
        if self.gambit:
            parts.append(f"{self.star} must resist {self.plotter}'s {self.gambit.level.value} Gambit")
        if self.granted:
            parts.append(f"{self.star} is granted {self.granted} Plot Armor")
        return f"The Final Act of Subplot {self.number}: " + ("; ".join(parts) or "nothing more")

    def stars(self) -> tuple[str, ...]:
        return (self.star,)

    phrasings = ("final-act",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"The world answered {self.star}: {self.plotter} made a final move.",
            kind="final-act",
            phrase="final-act",
            slots={"star": self.star, "plotter": self.plotter},
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        from .commands.finale import final_act

        try:
            again = final_act(before, self.star, self.number, dice)
        except DomainError as e:
            return f"the current engine refuses the Final Act: {e}"
        return _differs(
            "Final Act",
            (self.plotter_after, self.gambit, self.effects),
            (again.plotter_after, again.gambit, again.effects),
        )


class FinaleTurnPassed(CampaignFact[ShowrunnerState], topic="showrunner/FinaleTurnPassed"):
    """15.3: the Director spends no Studio Note on the World's turn after a Final Scene.
    Director-only: whether a Subplot was there to Reveal is the Director's."""

    default_visibility: ClassVar[Visibility] = "director"

    star: Name

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_finale(state, _finale(state).model_copy(update={"turn_for": None}))

    def summary(self) -> str:
        return f"The World let {self.star}'s Final Scene stand: no Subplot Revealed"


class FinaleGambitResisted(CampaignFact[ShowrunnerState], topic="showrunner/FinaleGambitResisted"):
    """15.3 The Final Act: a Star resisted a Gambit; a failed check is Plot Armor damage (15.2).
    Follows the `CheckRolled` of the check, unless the Gambit was above EPIC and its outcome given."""

    gambit: GambitDue
    outcome: str
    rolled: bool = True
    damage: int = Field(ge=0)
    effects: tuple[Effect, ...] = ()
    stakes: str = ""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        finale = _finale(state)
        gambits = tuple(g for g in finale.gambits if name_key(g.star) != name_key(self.gambit.star))
        return _with_finale(apply_effects(state, self.effects), finale.model_copy(update={"gambits": gambits}))

    def summary(self) -> str:
        g = self.gambit
        return f"{g.star} resisted {g.by}'s {g.level.value} Gambit ({self.outcome}): {self.stakes}"

    def stars(self) -> tuple[str, ...]:
        return (self.gambit.star,)

    phrasings = ("gambit-resisted",)

    def recap(self) -> RecapLine | None:
        g = self.gambit
        return RecapLine(
            weight=50,
            text=f"{g.star} stood against {g.by}'s last gambit.",
            kind="final-act",
            phrase="gambit-resisted",
            slots={"star": g.star, "plotter": g.by},
        )


class FinaleStarFinished(CampaignFact[ShowrunnerState], topic="showrunner/FinaleStarFinished"):
    """15.4: a Star declares they are finished with their epilogue."""

    star: Name

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        finale = _finale(state)
        return _with_finale(state, finale.model_copy(update={"finished": (*finale.finished, self.star)}))

    def summary(self) -> str:
        return f"{self.star} declared their epilogue finished"

    def stars(self) -> tuple[str, ...]:
        return (self.star,)

    phrasings = ("star-finished",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"{self.star}'s story was told.",
            kind="finale",
            phrase="star-finished",
            slots={"star": self.star},
        )


class FinaleEnded(CampaignFact[ShowrunnerState], topic="showrunner/FinaleEnded"):
    """15.4 The End: the closing montage, and the credits roll."""

    scenes: int = Field(ge=0)

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_finale(state, _finale(state).model_copy(update={"ended": True, "turn_for": None}))

    def summary(self) -> str:
        return (
            f"The End: the Show is over after {self.scenes} Final Scene{'s' if self.scenes != 1 else ''}. Roll credits"
        )

    phrasings = ("the-end",)

    def recap(self) -> RecapLine | None:
        return RecapLine(weight=100, text="The screen faded to black. The End.", kind="finale", phrase="the-end")
