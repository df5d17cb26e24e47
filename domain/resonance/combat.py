"""Turn order, Fronts, Harms outside a check, Kits, the ends of Scenes and Arcs, and rejoining.

Each `decide_*` checks its input against the state and returns what happened (refusing with
one clear line first); each `apply_*` folds that into the state. Nothing here rolls a die
except `resolve_initiative`, and it only through the dice source it is given.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource, RecordingDice, Roll
from ..errors import RuleViolation, UnknownName
from ..names import name_key
from .harms import HarmDealt, HarmSource, check_endurance, harm_type, inflict
from .rules import (
    MIN_ARC_SCENES,
    SIDES,
    healed_level,
    overkill_after_rejoining,
    overkill_after_scene,
    standing,
    turn_order,
)
from .sheet import Combatant, Harm, Kit, kit_named
from .state import Combat, ResonanceState

INITIATIVE_ENGINE = "resonance-initiative/1"
MAX_TIE_ROUNDS = 50
"""Ledger dice cannot tie forever in practice; a table that keeps typing ties is stopped here."""


def _clean(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ turn order


class TieRoll(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    names: tuple[str, ...]
    faces: tuple[int, ...]


class InitiativeResolution(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    engine: str = INITIATIVE_ENGINE
    combatants: tuple[str, ...]
    """As asked (names as typed); the order below uses the names on the sheets."""
    speeds: tuple[tuple[str, int], ...]
    ties: tuple[TieRoll, ...]
    order: tuple[str, ...]
    rolls: tuple[Roll, ...]
    steps: tuple[str, ...]
    turns: bool = False
    """Whether the combat keeps whose turn it is (a turn order recorded before turns were kept does not)."""

    def judged(self) -> tuple[object, ...]:
        return (self.speeds, self.ties, self.order)


def combatants_named(state: ResonanceState, names: list[str], doing: str) -> list[Combatant]:
    found: list[Combatant] = []
    for name in names:
        who = state.active(name, doing)
        if any(name_key(f.name) == name_key(who.name) for f in found):
            raise RuleViolation(f"{who.name} is named twice")
        found.append(who)
    return found


def resolve_initiative(
    state: ResonanceState, names: list[str], dice: DiceSource, *, turns: bool
) -> InitiativeResolution:
    """Order the combatants by Speed, highest first; tied combatants each roll a d4, highest first,
    and those still tied roll again."""
    chosen = (
        combatants_named(state, names, "take part in a combat")
        if names
        else [c for c in state.characters.values() if not c.removed]
    )
    if len(chosen) < 2:
        raise RuleViolation("a combat needs at least two combatants (--combatant NAME, once for each)")
    speeds: list[tuple[str, int]] = []
    for who in chosen:
        speed = who.sheet.rank("Speed")
        if speed is None:
            raise UnknownName(f"{who.name} has no Speed on their sheet; the turn order is by Speed")
        speeds.append((who.name, speed))
    recording = RecordingDice(dice)
    steps = ["Speed: " + ", ".join(f"{n} {s}" for n, s in speeds)]
    ties: list[TieRoll] = []
    tie_faces: dict[str, list[int]] = {}
    for speed in sorted({s for _, s in speeds}, reverse=True):
        group = [n for n, s in speeds if s == speed]
        pending = [group] if len(group) > 1 else []
        rounds = 0
        while pending:
            rounds += 1
            if rounds > MAX_TIE_ROUNDS:
                raise RuleViolation(f"the tie at Speed {speed} was still unbroken after {MAX_TIE_ROUNDS} rolls")
            tied = pending.pop(0)
            faces = recording.roll("initiative", len(tied), SIDES)
            ties.append(TieRoll(names=tuple(tied), faces=tuple(faces)))
            steps.append(
                f"tie at Speed {speed}: " + ", ".join(f"{n} rolled {f}" for n, f in zip(tied, faces, strict=True))
            )
            for name, face in zip(tied, faces, strict=True):
                tie_faces.setdefault(name, []).append(face)
            for face in sorted(set(faces), reverse=True):
                again = [n for n, f in zip(tied, faces, strict=True) if f == face]
                if len(again) > 1:
                    pending.append(again)
    order = tuple(turn_order(speeds, tie_faces))
    steps.append("turn order: " + ", ".join(order))
    return InitiativeResolution(
        combatants=tuple(names),
        speeds=tuple(speeds),
        ties=tuple(ties),
        order=order,
        rolls=tuple(recording.rolls),
        steps=tuple(steps),
        turns=turns,
    )


def apply_initiative(state: ResonanceState, resolution: InitiativeResolution) -> ResonanceState:
    """A new combat: the turn order (the first combatant's turn of round 1), no Fronts yet, and
    each combatant's Endurance full again."""
    for name in resolution.order:
        who = state.combatant(name)
        state = state.with_combatant(
            who.model_copy(
                update={
                    "physical_endurance": who.sheet.physical_endurance,
                    "magical_endurance": who.sheet.magical_endurance,
                }
            )
        )
    return state.model_copy(update={"combat": Combat(order=resolution.order, turns=resolution.turns)})


# ------------------------------------------------------------------ Fronts


def _combat(state: ResonanceState) -> Combat:
    if state.combat is None:
        raise RuleViolation("no combat is under way: start one with `resonance initiative`")
    return state.combat


def decide_fronts(state: ResonanceState, front: str, names: list[str]) -> tuple[str, tuple[str, ...]]:
    combat = _combat(state)
    front = _clean(front)
    if not front:
        raise RuleViolation('name the Front (e.g. --front "the bridge")')
    if not names:
        raise RuleViolation("name the combatants on the Front (--combatant NAME, once for each)")
    chosen = combatants_named(state, names, "be placed on a Front")
    for who in chosen:
        if not combat.takes_part(who.name):
            raise RuleViolation(f"{who.name} is not in this combat (its turn order: {', '.join(combat.order)})")
        now = combat.front_of(who.name)
        if now is not None:
            raise RuleViolation(
                f"{who.name} is already on {now}: moving between Fronts takes their full turn (`resonance move`)"
            )
    return front, tuple(w.name for w in chosen)


def apply_fronts(state: ResonanceState, front: str, names: tuple[str, ...]) -> ResonanceState:
    combat = _combat(state)
    fronts = {**combat.fronts, **{name_key(n): front for n in names}}
    return state.model_copy(update={"combat": combat.model_copy(update={"fronts": fronts})})


def decide_move(state: ResonanceState, name: str, front: str) -> tuple[str, str, str]:
    combat = _combat(state)
    who = state.active(name, "move between Fronts")
    now = combat.front_of(who.name)
    if now is None:
        raise RuleViolation(f"{who.name} is on no Front yet: the Director assigns one with `resonance front`")
    known = {name_key(f): f for f in combat.fronts.values()}
    wanted = known.get(name_key(front))
    if wanted is None:
        raise RuleViolation(
            f"there is no Front '{_clean(front)}' in this combat (Fronts: {', '.join(sorted(set(known.values())))})"
        )
    if wanted == now:
        raise RuleViolation(f"{who.name} is already on {now}")
    return who.name, now, wanted


# ------------------------------------------------------------------ Harms outside a check


def decide_harm(
    state: ResonanceState, name: str, kind: str | None, levels: int, source: HarmSource, endurance: int
) -> HarmDealt:
    target = state.active(name, "be harmed")
    if levels < 1:
        raise RuleViolation(f"a Harm has 1 level or more (got {levels})")
    check_endurance(target, source, endurance)
    return inflict(target, harm_type(kind), source, levels, endurance)


# ------------------------------------------------------------------ Kits


class KitUse(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    user: str
    kit: str
    index: int
    """Which of the user's Kits (0-based), as several may share a name."""
    charges_left: int
    target: str | None = None
    harm: str | None = None
    level_before: int = 0
    level_after: int = 0
    enchanted: bool = False


def decide_kit_use(state: ResonanceState, name: str, kit: str, on: str | None, harm: str | None) -> KitUse:
    user = state.active(name, "use a Kit")
    matching = [(i, k) for i, k in enumerate(user.kits) if name_key(k.name) == name_key(kit)]
    if not matching:
        carried = ", ".join(k.name for k in user.kits) or "none"
        raise UnknownName(f"{user.name} carries no '{_clean(kit)}' (their Kits: {carried})")
    magic = [(i, k) for i, k in matching if k.magic]
    if not magic:
        raise RuleViolation(f"{matching[0][1].name} is a mundane Kit: it has no charges to spend; narrate its use")
    charged = [(i, k) for i, k in magic if (k.charges or 0) > 0]
    if not charged:
        raise RuleViolation(
            f"{user.name}'s {magic[0][1].name} has no charges left; a market refills them at a Scene's end"
        )
    index, chosen = charged[0]
    key = name_key(chosen.name)
    if key == "healing potion kit":
        target = state.combatant(on) if on else user
        kind = _clean(harm or "")
        if not kind:
            raise RuleViolation("name the Harm the Healing Potion reduces (--harm bleeding)")
        level = target.harm_level(kind)
        if level == 0:
            held = ", ".join(f"{h.type} {h.level}" for h in target.harms) or "none"
            raise RuleViolation(f"{target.name} has no {kind} Harm to heal (their Harms: {held})")
        fortitude = user.sheet.rank("Fortitude")
        if fortitude is None:
            raise UnknownName(f"{user.name} has no Fortitude on their sheet; a Healing Potion heals by it")
        kind = next(h.type for h in target.harms if name_key(h.type) == name_key(kind))
        return KitUse(
            user=user.name,
            kit=chosen.name,
            index=index,
            charges_left=(chosen.charges or 0) - 1,
            target=target.name,
            harm=kind,
            level_before=level,
            level_after=healed_level(level, fortitude),
        )
    if on is not None or harm is not None:
        raise RuleViolation(f"--on and --harm belong to a Healing Potion Kit, not to {chosen.name}")
    if key == "weapon enchantment kit":
        if user.enchanted:
            raise RuleViolation(f"{user.name}'s weapon is already enchanted for this Scene")
        return KitUse(
            user=user.name, kit=chosen.name, index=index, charges_left=(chosen.charges or 0) - 1, enchanted=True
        )
    return KitUse(user=user.name, kit=chosen.name, index=index, charges_left=(chosen.charges or 0) - 1)


def apply_kit_use(state: ResonanceState, use: KitUse) -> ResonanceState:
    user = state.combatant(use.user)
    kits = list(user.kits)
    kits[use.index] = kits[use.index].model_copy(update={"charges": use.charges_left})
    state = state.with_combatant(
        user.model_copy(update={"kits": tuple(kits), "enchanted": user.enchanted or use.enchanted})
    )
    if use.target is not None and use.harm is not None:
        target = state.combatant(use.target)
        harms = tuple(
            Harm(type=h.type, level=use.level_after) if name_key(h.type) == name_key(use.harm) else h
            for h in target.harms
        )
        state = state.with_combatant(target.model_copy(update={"harms": tuple(h for h in harms if h.level > 0)}))
    return state


def parse_kit(entry: str) -> Kit:
    """'Climber's Kit', 'Healing Potion Kit' (its printed charges) or 'Wand of Sparks=3' (a magic Kit, 3 charges)."""
    name, equals, charges = entry.partition("=")
    if not _clean(name):
        raise RuleViolation(f"'{entry}' names no Kit")
    if not equals:
        return kit_named(name)
    if not charges.strip().isdigit():
        raise RuleViolation(f"'{entry}': the charges after '=' must be a whole number")
    return kit_named(name, int(charges))


def decide_trade(
    state: ResonanceState, name: str, give: list[str], take: list[str]
) -> tuple[str, tuple[Kit, ...], tuple[Kit, ...]]:
    who = state.active(name, "trade Kits")
    if not give and not take:
        raise RuleViolation("name the Kits given (--give) and taken (--take)")
    left = list(who.kits)
    given: list[Kit] = []
    for entry in give:
        found = next((k for k in left if name_key(k.name) == name_key(entry)), None)
        if found is None:
            carried = ", ".join(k.name for k in who.kits) or "none"
            raise UnknownName(f"{who.name} carries no '{_clean(entry)}' to give (their Kits: {carried})")
        left.remove(found)
        given.append(found)
    taken = [parse_kit(entry) for entry in take]
    brawn = who.sheet.rank("Brawn") or 0
    if len(left) + len(taken) > brawn:
        raise RuleViolation(
            f"{who.name} would carry {len(left) + len(taken)} Kits but can carry only as many as their Brawn rank ({brawn})"
        )
    return who.name, tuple(given), tuple(taken)


def apply_trade(state: ResonanceState, name: str, given: tuple[Kit, ...], taken: tuple[Kit, ...]) -> ResonanceState:
    who = state.combatant(name)
    kits = list(who.kits)
    for kit in given:
        kits.remove(next(k for k in kits if k.name == kit.name))
    return state.with_combatant(who.model_copy(update={"kits": (*kits, *taken)}))


# ------------------------------------------------------------------ Scenes and Arcs


class Reward(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    character: str
    reward: str


class ArcTrade(BaseModel):
    """A Kit traded 1 for 1 at an Arc's end."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    character: str
    given: Kit
    taken: Kit


class SceneEnd(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    scene: int
    arc: int
    arc_ends: bool
    market: bool
    scene_rewards: tuple[Reward, ...] = ()
    arc_rewards: tuple[Reward, ...] = ()
    healed: tuple[str, ...] = Field(default=())
    """The combatants whose Harms or Overkill this end healed."""
    arc_scenes: int | None = None
    """At an Arc's end, how many Scenes the Arc held (this one included); None in a record made
    before Arcs counted their Scenes."""
    single_session: bool = False
    """The Arc was a single session, which the book lets hold fewer Scenes than the minimum."""
    trades: tuple[ArcTrade, ...] = ()


def _rewards(state: ResonanceState, entries: list[str], what: str) -> tuple[Reward, ...]:
    rewards: list[Reward] = []
    for entry in entries:
        name, equals, reward = entry.partition("=")
        if not equals or not _clean(name) or not _clean(reward):
            raise RuleViolation(f"a {what} is written NAME=REWARD (got '{entry}')")
        who = state.combatant(name)
        if who.adversary:
            raise RuleViolation(f"{who.name} is an adversary: {what}s are for the players' characters")
        if any(name_key(r.character) == name_key(who.name) for r in rewards):
            raise RuleViolation(f"{who.name} gains one {what} at a time (named twice)")
        rewards.append(Reward(character=who.name, reward=_clean(reward)))
    return tuple(rewards)


def _arc_scenes(state: ResonanceState, single_session: bool) -> int:
    held = state.scene - state.arc_first_scene + 1
    if held < MIN_ARC_SCENES and not single_session:
        raise RuleViolation(
            f"Arc {state.arc} has held {held} Scene(s), this one included, and an Arc should have no less than "
            f"{MIN_ARC_SCENES}: end this Scene without --arc, or say --single-session for a one-session Arc"
        )
    return held


def _arc_trades(state: ResonanceState, entries: list[str]) -> tuple[ArcTrade, ...]:
    trades: list[ArcTrade] = []
    carried: dict[str, list[Kit]] = {}
    for entry in entries:
        name, equals, kits = entry.partition("=")
        give, arrow, take = kits.partition(">")
        if not equals or not arrow or not _clean(name) or not _clean(give) or not _clean(take):
            raise RuleViolation(
                f"an Arc's-end trade is written NAME=GIVEN KIT>TAKEN KIT, one Kit for one (got '{entry}')"
            )
        who = state.active(name, "trade Kits")
        left = carried.setdefault(name_key(who.name), list(who.kits))
        found = next((k for k in left if name_key(k.name) == name_key(give)), None)
        if found is None:
            held = ", ".join(k.name for k in left) or "none"
            raise UnknownName(f"{who.name} carries no '{_clean(give)}' to trade (their Kits: {held})")
        taken = parse_kit(take)
        if name_key(taken.name) == name_key(found.name):
            raise RuleViolation(f"{who.name} would trade {found.name} for itself")
        left.remove(found)
        trades.append(ArcTrade(character=who.name, given=found, taken=taken))
    return tuple(trades)


def decide_scene_end(
    state: ResonanceState,
    *,
    market: bool,
    arc_ends: bool,
    scene_rewards: list[str],
    arc_rewards: list[str],
    single_session: bool = False,
    trades: list[str] | None = None,
) -> SceneEnd:
    if arc_rewards and not arc_ends:
        raise RuleViolation("an Arc Reward is gained only when the Scene ends an Arc (--arc)")
    if single_session and not arc_ends:
        raise RuleViolation("--single-session says the Arc that ends was one session: give it with --arc")
    if trades and not arc_ends:
        raise RuleViolation(
            "trading Kits 1 for 1 comes with an Arc's end (--arc); at a market, `resonance trade-kit` trades them"
        )
    arc_scenes = _arc_scenes(state, single_session) if arc_ends else None
    scene = _rewards(state, scene_rewards, "Scene Reward")
    for r in scene:
        who = state.combatant(r.character)
        if any(name_key(chosen) == name_key(r.reward) for chosen in who.scene_rewards):
            raise RuleViolation(
                f"{who.name} already chose the Scene Reward '{r.reward}' this Arc; the same Scene Reward "
                "cannot be chosen twice in an Arc"
            )
    healed = tuple(c.name for c in state.characters.values() if c.harms or c.overkill)
    return SceneEnd(
        scene=state.scene,
        arc=state.arc,
        arc_ends=arc_ends,
        market=market,
        scene_rewards=scene,
        arc_rewards=_rewards(state, arc_rewards, "Arc Reward"),
        healed=healed,
        arc_scenes=arc_scenes,
        single_session=single_session,
        trades=_arc_trades(state, trades or []),
    )


def apply_scene_end(state: ResonanceState, end: SceneEnd) -> ResonanceState:
    characters: dict[str, Combatant] = {}
    for key, who in state.characters.items():
        changes: dict[str, object] = {
            "harms": (),
            "overkill": overkill_after_scene(who.overkill, arc_ends=end.arc_ends),
            "enchanted": False,
        }
        kits = list(who.kits)
        if end.market:
            kits = [k.model_copy(update={"charges": k.max_charges}) if k.magic else k for k in kits]
        for trade in (t for t in end.trades if name_key(t.character) == key):
            kits[next(i for i, k in enumerate(kits) if k.name == trade.given.name)] = trade.taken
        changes["kits"] = tuple(kits)
        chosen = [r.reward for r in end.scene_rewards if name_key(r.character) == key]
        won = [f"Scene {end.scene}: {r}" for r in chosen]
        won += [f"Arc {end.arc}: {r.reward}" for r in end.arc_rewards if name_key(r.character) == key]
        changes["rewards"] = (*who.rewards, *won)
        changes["scene_rewards"] = () if end.arc_ends else (*who.scene_rewards, *chosen)
        if end.arc_ends:
            changes["failed_intents"] = ()
        characters[key] = who.model_copy(update=changes)
    return state.model_copy(
        update={
            "characters": characters,
            "combat": None,
            "scene": state.scene + 1,
            "arc": state.arc + 1 if end.arc_ends else state.arc,
            "arc_first_scene": state.scene + 1 if end.arc_scenes is not None else state.arc_first_scene,
        }
    )


# ------------------------------------------------------------------ rejoining the narrative


def decide_rejoin(state: ResonanceState, name: str) -> tuple[str, int, int]:
    who = state.combatant(name)
    if not who.removed:
        raise RuleViolation(f"{who.name} has not been removed from the narrative")
    if any(h.level > 0 for h in who.harms):
        held = ", ".join(f"{h.type} {h.level}" for h in who.harms)
        raise RuleViolation(
            f"{who.name} can rejoin only once their harms are healed (still: {held}); a Scene's end heals them"
        )
    after = overkill_after_rejoining(who.overkill)
    if standing([], after, who.morale).removed:
        raise RuleViolation(
            f"rejoining would give {who.name} Overkill {after}, which at Morale {who.morale} removes them again; "
            "an Arc's end heals Overkill"
        )
    return who.name, who.overkill, after
