"""The d4 Resonance ruleset's commands besides a check, each an input model and a decision.

The CLI offers each as `showrunner resonance <name>`, one option per field (a `character`
field is the positional argument).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError, model_validator

from ..errors import RuleViolation
from ..inputs import INPUT, Input, Many
from ..ruleset import Action, Decided, RollContext
from ..text import CharacterName, Line, LineList, Name, NameList
from .combat import (
    decide_fronts,
    decide_harm,
    decide_kit_use,
    decide_move,
    decide_rejoin,
    decide_scene_end,
    decide_trade,
    resolve_initiative,
)
from .events import (
    AdversaryJoined,
    CharacterRejoined,
    CombatEnded,
    FrontChanged,
    FrontsAssigned,
    HarmSuffered,
    InitiativeRolled,
    KitsTraded,
    KitUsed,
    SceneEnded,
    TurnEnded,
)
from .sheet import MAX_RANK, CharacterSheet
from .state import ResonanceState
from .turns import check_whole_turn, decide_end_turn, decide_turn_use, keeping_turns, pass_turn

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class AdversaryInput(Input):
    model_config = _FROZEN

    character: CharacterName = Field(description="the adversary's name")
    skill: NameList = Field(default_factory=list, description="a Skill and its rank, as SKILL=RANK (repeat for each)")
    morale: int = Field(default=4, description="the adversary's Morale (4 unless the Director says otherwise)")
    physical_endurance: Many = Field(default=0, description="Physical Endurance for each combat")
    magical_endurance: Many = Field(default=0, description="Magical Endurance for each combat")


def decide_adversary(state: ResonanceState, request: AdversaryInput, roll: RollContext | None) -> Decided:
    skills: dict[str, int] = {}
    for entry in request.skill:
        name, equals, rank = entry.partition("=")
        if not equals or not name.strip() or not rank.strip().isdigit():
            raise RuleViolation(f"a Skill is written SKILL=RANK, e.g. Brawn=3 (got '{entry}')")
        if int(rank) > MAX_RANK:
            raise RuleViolation(f"{name.strip()}: a rank must be between 0 and {MAX_RANK} (got {rank.strip()})")
        skills[name.strip()] = int(rank)
    fields = dict(
        name=request.character,
        skills=skills,
        morale=request.morale,
        physical_endurance=request.physical_endurance,
        magical_endurance=request.magical_endurance,
    )
    try:
        sheet = CharacterSheet.model_validate(fields, context=INPUT)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RuleViolation(f"adversary {request.character}: {where}: {first['msg']}") from None
    state.check_character_is_new(sheet.name)
    return [AdversaryJoined(sheet=sheet)]


class InitiativeInput(Input):
    model_config = _FROZEN

    combatant: list[str] = Field(
        default_factory=list,
        description="a combatant taking part (repeat for each); none named: everyone still in the narrative",
    )
    turns: bool = Field(
        default=True,
        description="keep whose turn it is: one Check or Ability a turn, passed on with end-turn",
    )

    @model_validator(mode="before")
    @classmethod
    def _recorded_before_turns(cls, data: Any) -> Any:
        # A recorded request is the whole model dumped, so one without `turns` was recorded before
        # turns were kept, and must be decided again as it was: without them.
        if isinstance(data, dict) and "turns" not in data:
            return {**data, "turns": False}
        return data


def decide_initiative(state: ResonanceState, request: InitiativeInput, roll: RollContext | None) -> Decided:
    assert roll is not None
    resolution = resolve_initiative(state, request.combatant, roll.dice, turns=request.turns)
    return [InitiativeRolled(resolution=resolution, roll_number=roll.roll_number, **roll.seal())]


class FrontInput(Input):
    model_config = _FROZEN

    front: Name = Field(description="the Front's name (a cluster of allies and enemies, e.g. 'the bridge')")
    combatant: list[str] = Field(
        default_factory=list, description="a combatant the Director places there (repeat for each)"
    )


def decide_front(state: ResonanceState, request: FrontInput, roll: RollContext | None) -> Decided:
    front, names = decide_fronts(state, request.front, request.combatant)
    return [FrontsAssigned(front=front, combatants=names)]


class MoveInput(Input):
    model_config = _FROZEN

    character: str = Field(description="the combatant who spends their full turn moving")
    front: Name = Field(description="the Front they move to")


def decide_move_front(state: ResonanceState, request: MoveInput, roll: RollContext | None) -> Decided:
    name, was, now = decide_move(state, request.character, request.front)
    moved = FrontChanged(combatant=name, from_front=was, to_front=now)
    combat = keeping_turns(state)
    if combat is None:
        return [moved]
    check_whole_turn(combat, name)
    return [moved, TurnEnded(passed=pass_turn(moved.apply(state), combat))]


class EndTurnInput(Input):
    model_config = _FROZEN

    character: str = Field(description="the combatant whose turn ends (it must be theirs)")


def decide_end_turn_action(state: ResonanceState, request: EndTurnInput, roll: RollContext | None) -> Decided:
    return [TurnEnded(passed=decide_end_turn(state, request.character))]


class CombatEndInput(Input):
    model_config = _FROZEN


def decide_combat_end(state: ResonanceState, request: CombatEndInput, roll: RollContext | None) -> Decided:
    if state.combat is None:
        raise RuleViolation("no combat is under way")
    return [CombatEnded()]


class HarmInput(Input):
    model_config = _FROZEN

    character: str = Field(description="who is harmed (a character or an adversary)")
    harm: Name = Field(description="the type of Harm (e.g. bleeding, burned, shaken)")
    levels: Many = Field(default=1, description="levels of Harm inflicted (cumulative with that type's level)")
    source: Literal["physical", "magical", "other"] = Field(
        default="physical", description="physical or magical (Endurance of that kind may reduce it), or other"
    )
    endurance: Many = Field(default=0, description="Endurance points the harmed spends to reduce the levels, 1 each")
    cause: Line = Field(default="", description="what caused the Harm, for the log")


def decide_harm_action(state: ResonanceState, request: HarmInput, roll: RollContext | None) -> Decided:
    dealt = decide_harm(state, request.character, request.harm, request.levels, request.source, request.endurance)
    return [HarmSuffered(dealt=dealt, cause=" ".join(request.cause.split()))]


class UseKitInput(Input):
    model_config = _FROZEN

    character: str = Field(description="who uses the Kit")
    kit: str = Field(description="the magic item Kit whose charge is spent")
    on: str | None = Field(default=None, description="Healing Potion Kit: whom it heals (the user if omitted)")
    harm: str | None = Field(
        default=None, description="Healing Potion Kit: the Harm whose level it reduces by the user's Fortitude"
    )


def decide_use_kit(state: ResonanceState, request: UseKitInput, roll: RollContext | None) -> Decided:
    turn = decide_turn_use(state, state.combatant(request.character).name, (), "use a Kit")
    use = decide_kit_use(state, request.character, request.kit, request.on, request.harm)
    return [KitUsed(use=use, turn=turn)]


class TradeKitInput(Input):
    model_config = _FROZEN

    character: str = Field(description="who trades Kits at a market")
    give: list[str] = Field(default_factory=list, description="a Kit given up (repeat for each)")
    take: NameList = Field(
        default_factory=list, description="a Kit taken: its name, or NAME=CHARGES for a magic Kit (repeat for each)"
    )


def decide_trade_kit(state: ResonanceState, request: TradeKitInput, roll: RollContext | None) -> Decided:
    name, given, taken = decide_trade(state, request.character, request.give, request.take)
    return [KitsTraded(character=name, given=given, taken=taken)]


class SceneEndInput(Input):
    model_config = _FROZEN

    market: bool = Field(
        default=False, description="the characters have a trader or market: magic Kits' charges refill"
    )
    arc: bool = Field(default=False, description="this Scene ends the Arc: harms and Overkill heal to 0")
    scene_reward: LineList = Field(
        default_factory=list, description="a Scene Reward gained, as NAME=REWARD (repeat for each character)"
    )
    arc_reward: LineList = Field(default_factory=list, description="an Arc Reward gained (with --arc), as NAME=REWARD")
    single_session: bool = Field(
        default=False, description="with --arc: the Arc was a single session, so it may hold fewer than 3 Scenes"
    )
    trade: LineList = Field(
        default_factory=list,
        description="with --arc: a Kit traded 1 for 1, as NAME=GIVEN KIT>TAKEN KIT (repeat for each)",
    )


def decide_scene_end_action(state: ResonanceState, request: SceneEndInput, roll: RollContext | None) -> Decided:
    end = decide_scene_end(
        state,
        market=request.market,
        arc_ends=request.arc,
        scene_rewards=request.scene_reward,
        arc_rewards=request.arc_reward,
        single_session=request.single_session,
        trades=request.trade,
    )
    return [SceneEnded(end=end)]


class RejoinInput(Input):
    model_config = _FROZEN

    character: str = Field(description="the character who rejoins the narrative (their harms healed)")


def decide_rejoin_action(state: ResonanceState, request: RejoinInput, roll: RollContext | None) -> Decided:
    name, before, after = decide_rejoin(state, request.character)
    return [CharacterRejoined(character=name, overkill_before=before, overkill_after=after)]


ACTIONS: dict[str, Action] = {
    "adversary": Action(
        help="Bring in an adversary (a non-player combatant) with Skills, Morale and Endurance; "
        "recorded for the Director only.\n"
        'Example: showrunner resonance adversary "Gate Warden" --skill Brawn=3 --skill Agility=2 --skill Speed=2 --morale 2',
        input=AdversaryInput,
        decide=decide_adversary,
    ),
    "initiative": Action(
        help="Begin a combat: the turn order by Speed, ties broken by a d4 each (rolled); Endurance refills.\n"
        'Example: showrunner resonance initiative --combatant Kestrel --combatant "Gate Warden" --initiative 3,1',
        input=InitiativeInput,
        decide=decide_initiative,
        rolls=True,
        table_dice={"initiative": "one d4 per tied combatant, highest first (those still tied roll again)"},
    ),
    "front": Action(
        help="Assign combatants to a Front: attacks cannot target enemies on other Fronts.\n"
        'Example: showrunner resonance front --front "the bridge" --combatant Kestrel --combatant "Gate Warden"',
        input=FrontInput,
        decide=decide_front,
    ),
    "move": Action(
        help="Move a combatant to another Front: it takes their full turn, and the turn passes on.\n"
        'Example: showrunner resonance move Orrin --front "the bridge"',
        input=MoveInput,
        decide=decide_move_front,
    ),
    "end-turn": Action(
        help="End a combatant's turn: the next in the turn order still in the narrative takes theirs "
        "(a new round after the last).\n"
        "Example: showrunner resonance end-turn Kestrel",
        input=EndTurnInput,
        decide=decide_end_turn_action,
    ),
    "combat-end": Action(
        help="End the combat: no turn order, no Fronts.\nExample: showrunner resonance combat-end",
        input=CombatEndInput,
        decide=decide_combat_end,
    ),
    "harm": Action(
        help="Inflict a Harm outside a Strike; Endurance of the matching kind may reduce it.\n"
        "Example: showrunner resonance harm Kestrel --harm burned --levels 2 --source magical --endurance 1",
        input=HarmInput,
        decide=decide_harm_action,
    ),
    "use-kit": Action(
        help="Spend a charge of a magic item Kit (a Healing Potion heals a Harm by the user's Fortitude; "
        "a Weapon Enchantment gives +1 die on Strikes this Scene).\n"
        'Example: showrunner resonance use-kit Orrin --kit "Healing Potion Kit" --on Kestrel --harm bleeding',
        input=UseKitInput,
        decide=decide_use_kit,
    ),
    "trade-kit": Action(
        help="Trade Kits at a market; a character carries at most their Brawn rank in Kits.\n"
        'Example: showrunner resonance trade-kit Kestrel --give "Climber\'s Kit" --take "Healing Potion Kit"',
        input=TradeKitInput,
        decide=decide_trade_kit,
    ),
    "scene-end": Action(
        help="End a Scene (and, with --arc, its Arc of 3 Scenes or more): harms heal, Overkill -1 "
        "(all at an Arc's end), a market refills magic Kits, rewards are gained, and at an Arc's end "
        "Kits may be traded 1 for 1.\n"
        "Example: showrunner resonance scene-end --market --scene-reward Kestrel=Insight",
        input=SceneEndInput,
        decide=decide_scene_end_action,
    ),
    "rejoin": Action(
        help="A character removed from the narrative rejoins it, their harms healed: they gain 1 Overkill.\n"
        "Example: showrunner resonance rejoin Kestrel",
        input=RejoinInput,
        decide=decide_rejoin_action,
    ),
}
