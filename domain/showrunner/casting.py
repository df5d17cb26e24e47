"""Casting (Chapters 2-4): each step of building a Star as a pure function of the Star's
Casting record, the branch's state, the table's choices and the dice.

The step order is the book's (casting_record.Step); a step out of order, or one taken while a
roll's choices are still owed (`settle`), is refused with one line saying what comes next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..dice import DiceSource
from ..errors import RuleViolation, UnknownName
from ..names import name_key
from . import casting_tables as tables
from .advance import advance_ability, advance_career, advance_hero_prop, advance_relationship
from .casting_record import Casting, CastMember, Owed, OwedKind, Step, Wardrobe
from .check import CheckRequest, Resolution, resolved
from .flavour import ABILITY_BY_D10
from .ladder import Difficulty, Quality
from .progression import gain_ability_xp, gain_hero_prop_xp
from .sheet import (
    AbilityName,
    CareerPath,
    HeroProp,
    Influence,
    Mastery,
    Pool,
    Prop,
    PropType,
    Scar,
    Specialty,
    StarSheet,
)
from .state import ShowrunnerState
from .table_files import TableFile, TableName

STARTING_INFLUENCE = {"grit": 3, "retake": 2, "spotlight": 2, "plot_armor": 2, "preparation": 1}
"""A new Star's Influence before Casting. The book prints these only on the Star Profile; the
Social Class's Career Advances ("initial hardiness") raise them."""

PATH_MASTERIES = (Mastery.RETAKE, Mastery.GRIT, Mastery.SPOTLIGHT, Mastery.PLOT_ARMOR)
"""3A Youth and Teen: "Path Masteries (Retakes, Grit, Spotlight or Plot Armor)"."""

ROW = 5
"""3 Pack Your Bags: a Backpack row holds 5 units before the extra spill over."""

STEP_COMMAND = {
    Step.HERITAGE: "heritage",
    Step.SOCIAL_CLASS: "social-class",
    Step.PARENTS: "parents",
    Step.SIBLINGS: "siblings",
    Step.STARTING_AGE: "starting-age",
    Step.DEVELOP: "develop",
    Step.ENCOUNTER: "encounter",
    Step.WARDROBE: "wardrobe",
    Step.JOIN: "join",
}


def new_sheet(name: str, player: str | None, concept: str | None) -> StarSheet:
    pools = {pool: Pool(current=n, max=n) for pool, n in STARTING_INFLUENCE.items()}
    return StarSheet(name=name, player=player, concept=concept, influence=Influence(**pools))


def casting_of(state: ShowrunnerState, star: str) -> Casting:
    key = name_key(star)
    if key in state.casting:
        return state.casting[key]
    matches = [c for k, c in state.casting.items() if k.startswith(key)]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(c.sheet.name for c in state.casting.values()) or "none"
    joined = [sheet for k, sheet in state.stars.items() if k == key or k.startswith(key)]
    if len(joined) == 1:
        raise RuleViolation(f"{joined[0].name} has already joined the Show: Casting is over for them")
    raise UnknownName(f"no Star called '{star}' is in Casting (in Casting: {known}); start with `star create`")


def next_step(record: Casting) -> Step | None:
    """The step Casting expects next (None: the Star has joined); owed choices come first (settle)."""
    done = set(record.done)
    for step in (Step.SOCIAL_CLASS, Step.PARENTS, Step.SIBLINGS, Step.STARTING_AGE):
        if step not in done:
            return step
    if record.stages_done < record.life_stages:
        return Step.ENCOUNTER if record.done[-1] is Step.DEVELOP else Step.DEVELOP
    if Step.WARDROBE not in done:
        return Step.WARDROBE
    return Step.JOIN


def expect(record: Casting, step: Step) -> None:
    """Refuse `step` unless it is the one Casting expects now."""
    name = record.sheet.name
    if record.owed:
        owed = ", ".join(_owed_text(o) for o in record.owed)
        raise RuleViolation(f"{name} still owes choices ({owed}): settle them first (star casting settle)")
    due = next_step(record)
    if step is Step.HERITAGE:
        if Step.HERITAGE in record.done or record.done != (Step.STARTED,):
            raise RuleViolation(f"{name}'s Heritage comes first or not at all: Casting is at {_due(due)}")
        return
    if step is not due:
        raise RuleViolation(f"{name}'s Casting is at {_due(due)}, not {step.value}: {_due(due)} comes first")


def _due(step: Step | None) -> str:
    return "its end" if step is None else f"'{step.value}'"


def _owed_text(owed: Owed) -> str:
    return f"{owed.kind.replace('_', ' ')}" + (f" in {owed.ability.value.title()}" if owed.ability else "")


def _done(record: Casting, step: Step, **update: object) -> Casting:
    return record.model_copy(update={"done": (*record.done, step), **update})


def _owe(record: Casting, kind: OwedKind, count: int = 1, ability: AbilityName | None = None) -> Casting:
    return record.model_copy(update={"owed": (*record.owed, *([Owed(kind=kind, ability=ability)] * count))})


def _add_cast(record: Casting, member: CastMember) -> Casting:
    """A new member of the Supporting Cast; someone already on it (a family member who is also a
    parent or a sibling) takes the new role beside the old, and keeps their ties."""
    if name_key(member.name) == name_key(record.sheet.name):
        raise RuleViolation(f"{record.sheet.name} cannot be in their own Supporting Cast")
    known = record.member(member.name)
    if known is None:
        return record.model_copy(update={"cast": (*record.cast, member)})
    update: dict[str, object] = {"role": f"{known.role}, {member.role}"}
    for field in ("primary", "power_level", "bond", "grudge"):
        if getattr(known, field) is None and getattr(member, field) is not None:
            update[field] = getattr(member, field)
    if member.note:
        update["note"] = f"{known.note}; {member.note}" if known.note else member.note
    return _with_member(record, known, known.model_copy(update=update))


def _with_member(record: Casting, old: CastMember, new: CastMember) -> Casting:
    return record.model_copy(update={"cast": tuple(new if m is old else m for m in record.cast)})


# ------------------------------------------------------------------ Advances with the Slot Rule


def ability_advance(record: Casting, ability: AbilityName, lines: list[str], specialty: str | None = None) -> Casting:
    """An Ability Advance in Casting; the Slot Rule asks for a Specialty (+1): `specialty`, else owed.
    A show whose SFX Budget bars Channel in Casting gains no Channel Advance (and owes no Specialty)."""
    if record.channel_barred and ability is AbilityName.CHANNEL:
        lines.append("no Channel Advance: the SFX Budget bars Channel Advances in Casting")
        return record
    sheet, mark = advance_ability(record.sheet, ability)
    count = record.ability_advances.get(ability, 0) + 1
    record = record.model_copy(update={"sheet": sheet, "ability_advances": {**record.ability_advances, ability: count}})
    lines.append(f"{ability.value.title()} Advanced to {mark}")
    if specialty is None:
        return _owe(record, "specialty", ability=ability)
    return record.model_copy(update={"sheet": define_slot(record.sheet, ability, specialty, scar=False, lines=lines)})


def define_slot(
    sheet: StarSheet, ability: AbilityName, name: str, *, scar: bool, lines: list[str], by: int = 1
) -> StarSheet:
    """A Specialty (+`by`) or Scar (-`by`) under `ability`: one of that name already there goes up,
    else the lowest empty slot takes it."""
    held = sheet.abilities[ability]
    what = "Scar" if scar else "Specialty"
    for number, slot in held.slots.items():
        if name_key(slot.name) == name_key(name) and isinstance(slot, Scar) == scar:
            value = (slot.penalty if isinstance(slot, Scar) else slot.rank) + by
            if value > 5:
                raise RuleViolation(f"{sheet.name}'s {what} {slot.name} cannot go past 5")
            changed = slot.model_copy(update={"penalty" if scar else "rank": value})
            lines.append(f"{what} {slot.name} in {ability.value.title()} to {value}")
            return _slots(sheet, ability, {**held.slots, number: changed})
    free = next((n for n in range(1, 11) if n not in held.slots), None)
    if free is None:
        raise RuleViolation(f"{sheet.name}'s {ability.value.title()} has no empty slot for the {what} {name}")
    made = Scar(name=name, penalty=by) if scar else Specialty(name=name, rank=by)
    lines.append(f"{what} {name} ({'-' if scar else '+'}{by}) in {ability.value.title()} slot {free}")
    return _slots(sheet, ability, {**held.slots, free: made})


def _slots(sheet: StarSheet, ability: AbilityName, slots: dict[int, Specialty | Scar]) -> StarSheet:
    held = sheet.abilities[ability].model_copy(update={"slots": dict(sorted(slots.items()))})
    return sheet.model_copy(update={"abilities": {**sheet.abilities, ability: held}})


def relationship_advance(record: Casting, kind: str, with_: str, lines: list[str]) -> Casting:
    assert kind in ("bond", "grudge")
    sheet, tier, path = advance_relationship(
        record.sheet, "bond" if kind == "bond" else "grudge", with_, casting=True, acclaim_path=record.acclaim_path
    )
    acclaim = f", 1 Acclaim on {path.value.title()}" if path else ", no Path had room for its Acclaim"
    lines.append(f"{kind.title()} with {with_} to {tier.value}{acclaim}")
    return record.model_copy(update={"sheet": sheet})


def career_advance(record: Casting, path: CareerPath, lines: list[str]) -> Casting:
    sheet, major = advance_career(record.sheet, path)
    lines.append(f"Career Advance on {path.value.title()}" + (": a Major Milestone" if major else ""))
    majors = (*record.majors, path) if major else record.majors
    return record.model_copy(update={"sheet": sheet, "majors": majors})


def pack(sheet: StarSheet, prop_type: PropType, count: int, quality: Quality = Quality.NORMAL) -> StarSheet:
    """3 Pack Your Bags: a row past 5 units spills its extra into 1 Prop of the next Quality up."""
    props = list(sheet.props)
    order = list(Quality)
    while count > 0:
        row = next((p for p in props if p.type is prop_type and p.quality is quality), None)
        have = row.count if row else 0
        total = have + count
        kept = min(total, ROW)
        new_row = Prop(type=prop_type, quality=quality, count=kept)
        props = [new_row if p is row else p for p in props] if row else [*props, new_row]
        extra = total - kept
        if extra == 0 or quality is order[-1]:
            break
        quality, count = order[order.index(quality) + 1], 1
    return sheet.model_copy(update={"props": props})


# ------------------------------------------------------------------ Chapter 2: Origins


def start(
    state: ShowrunnerState, name: str, player: str | None, concept: str | None, acclaim_path: CareerPath
) -> Casting:
    state.check_character_is_new(name)
    if name_key(name) in state.casting:
        raise RuleViolation(f"{state.casting[name_key(name)].sheet.name} is already in Casting")
    barred = state.pitch is not None and state.pitch.sfx in ("unknown", "no-magic")
    return Casting(sheet=new_sheet(name, player, concept), acclaim_path=acclaim_path, channel_barred=barred)


def choose_heritage(
    record: Casting,
    heritage: tables.Heritage,
    specialty_abilities: tuple[AbilityName, AbilityName],
    scar_abilities: tuple[AbilityName, AbilityName],
    bond_face: str,
    grudge_face: str,
) -> tuple[Casting, list[str]]:
    """2.1: Specialties +2 and +1, Scars -2 and -1 (in the order given), a Bond and a Grudge with
    the two face Actors (1 Advance each), who gain the matching Advance with the Star."""
    expect(record, Step.HERITAGE)
    lines: list[str] = []
    sheet = record.sheet
    for (name, ability), by in zip(zip(heritage.specialties, specialty_abilities, strict=True), (2, 1), strict=True):
        sheet = define_slot(sheet, ability, name, scar=False, lines=lines, by=by)
    for (name, ability), by in zip(zip(heritage.scars, scar_abilities, strict=True), (2, 1), strict=True):
        sheet = define_slot(sheet, ability, name, scar=True, lines=lines, by=by)
    record = record.model_copy(update={"sheet": sheet, "heritage": heritage.name})
    record = relationship_advance(record, "bond", bond_face, lines)
    record = relationship_advance(record, "grudge", grudge_face, lines)
    record = _add_cast(record, CastMember(name=bond_face, role=f"face of {heritage.bond}", bond=Difficulty.NORMAL))
    record = _add_cast(
        record, CastMember(name=grudge_face, role=f"face of {heritage.grudge}", grudge=Difficulty.NORMAL)
    )
    return _done(record, Step.HERITAGE), lines


def roll_social_class(record: Casting, dice: DiceSource) -> tuple[Casting, list[str]]:
    """2.2: the d10, then the Starting Money's d6; Hero Prop, Career and family Advances are owed."""
    expect(record, Step.SOCIAL_CLASS)
    (face,) = dice.roll("social_class", 1, 10)
    row = tables.social_class(face)
    money = sum(dice.roll("money", row.money_dice, 6)) if row.money_dice else 0
    sheet = pack(record.sheet, PropType.MONEY, money) if money else record.sheet
    lines = [f"d10 {face}: {row.name}", f"Starting Money {money}"]
    record = record.model_copy(update={"sheet": sheet, "social_class": row.name, "money": money})
    record = _owe(record, "hero_prop", row.hero_prop_advances)
    record = _owe(record, "career", row.career_advances)
    record = _owe(record, "family_bond", row.family_bonds)
    record = _owe(record, "family_grudge", row.family_grudges)
    lines.append(
        f"owed: {row.hero_prop_advances} Hero Prop, {row.career_advances} Career Advances, "
        f"{row.family_bonds} family Bonds, {row.family_grudges} family Grudges"
    )
    return _done(record, Step.SOCIAL_CLASS), lines


def roll_parents(
    record: Casting,
    parents: Sequence[tuple[str, str, AbilityName, AbilityName]],
    lost_parent: Sequence[str],
    orphan_status: str,
    dice: DiceSource,
    table_files: Mapping[TableName, TableFile] | None = None,
) -> tuple[Casting, list[str]]:
    """2.3A: the Parental Status d10; each parent given as (name, Archetype, Primary, Secondary),
    the main guardian first. Lost Parent and Orphan Status rolls are recorded with the table's
    answer: the row of the group's table file when one is loaded (`table_files`), else the text given."""
    expect(record, Step.PARENTS)
    if len(parents) != 2:
        raise RuleViolation(
            "name both parents (name, Archetype, Primary and Secondary Ability), the main guardian first"
        )
    loaded = table_files or {}
    for table, given in ((TableName.LOST_PARENT, bool(lost_parent)), (TableName.ORPHAN_STATUS, bool(orphan_status))):
        if given and table in loaded:
            raise RuleViolation(f"the {table.label} table is loaded: its row is the answer, give no text for it")
    (face,) = dice.roll("parental_status", 1, 10)
    row = tables.upbringing(face)
    lines = [f"d10 {face}: {row.status.value.replace('_', ' ')}"]
    for (_, _, primary, secondary), gives in zip(parents, row.parents, strict=False):
        for _ in range(gives.primary):
            record = ability_advance(record, primary, lines)
        for _ in range(gives.secondary):
            record = ability_advance(record, secondary, lines)
    lost = dice.roll("lost_parent", row.lost_parent_rolls, 10) if row.lost_parent_rolls else []
    orphan = dice.roll("orphan_status", row.orphan_status_rolls, 10) if row.orphan_status_rolls else []
    if TableName.LOST_PARENT in loaded:
        lost_parent = [loaded[TableName.LOST_PARENT].row(face).text for face in lost]
    if orphan and TableName.ORPHAN_STATUS in loaded:
        orphan_status = loaded[TableName.ORPHAN_STATUS].row(orphan[0]).text
    for number, (name, archetype, primary, _) in enumerate(parents):
        raised = number < len(row.parents)
        note = archetype
        if not raised:
            index = number - len(row.parents)
            answer = lost_parent[index] if index < len(lost_parent) else ""
            note = f"{archetype}; Lost Parent d10 {lost[index]}" + (f": {answer}" if answer else "")
        record = _add_cast(
            record, CastMember(name=name, role="parent" if raised else "lost parent", primary=primary, note=note)
        )
    if orphan:
        lines.append(f"Orphan Status d10 {orphan[0]}" + (f": {orphan_status}" if orphan_status else ""))
    for index, face_lost in enumerate(lost):
        answer = lost_parent[index] if index < len(lost_parent) else ""
        lines.append(f"Lost Parent d10 {face_lost}" + (f": {answer}" if answer else ""))
    record = record.model_copy(update={"parental_status": row.status.value})
    return _done(record, Step.PARENTS), lines


def roll_siblings(record: Casting, names: Sequence[str], dice: DiceSource) -> tuple[Casting, list[str]]:
    """2.3B: a d10 for how many, a d10 each for their age; each joins the Supporting Cast."""
    expect(record, Step.SIBLINGS)
    (face,) = dice.roll("siblings", 1, 10)
    count = tables.sibling_count(face)
    ages = dice.roll("sibling_age", count, 10)
    lines = [f"d10 {face}: {count} sibling{'s' if count != 1 else ''}"]
    if len(names) > count:
        raise RuleViolation(f"{len(names)} sibling names given and {count} rolled")
    for number, age_face in enumerate(ages, start=1):
        age = tables.sibling_age(age_face)
        name = names[number - 1] if number <= len(names) else f"{record.sheet.name}'s sibling {number}"
        record = _add_cast(record, CastMember(name=name, role=f"{age} sibling", note=f"age d10 {age_face}"))
        lines.append(f"{name}: {age} (d10 {age_face})")
    return _done(record, Step.SIBLINGS), lines


def choose_starting_age(record: Casting, age: tables.StartingAge | None, dice: DiceSource) -> tuple[Casting, list[str]]:
    """3A: the age chosen, or the d10 rolled; its effects; the Life Stages on the schedule."""
    expect(record, Step.STARTING_AGE)
    lines: list[str] = []
    if age is None:
        (face,) = dice.roll("starting_age", 1, 10)
        row = tables.age_by_face(face)
        lines.append(f"d10 {face}: {row.age.value.replace('_', ' ')}")
    else:
        row = tables.age_row(age)
        lines.append(row.age.value.replace("_", " "))
    sheet = record.sheet
    if row.permanent_xp:
        for ability in AbilityName:
            sheet, _ = gain_ability_xp(sheet, ability, row.permanent_xp, permanent=True)
        for prop in sheet.hero_props:
            sheet, _ = gain_hero_prop_xp(sheet, prop.name, row.permanent_xp, permanent=True)
        lines.append(f"+{row.permanent_xp} permanent XP in every Ability and Hero Prop")
    record = record.model_copy(update={"sheet": sheet, "life_stages": row.life_stages})
    record = _owe(record, "mastery", row.path_masteries)
    for _ in range(row.decades_beyond_young_adult):
        armor = record.sheet.influence.plot_armor
        if armor.max == 0:
            raise RuleViolation(f"{record.sheet.name} has no Plot Armor left to cross off")
        crossed = Pool(current=min(armor.current, armor.max - 1), max=armor.max - 1, exhausted=armor.exhausted + 1)
        influence = record.sheet.influence.model_copy(update={"plot_armor": crossed})
        (face,) = dice.roll("random_ability", 1, 10)
        ability = ABILITY_BY_D10[face - 1]  # one numbering for every random-Ability d10
        record = record.model_copy(update={"sheet": record.sheet.model_copy(update={"influence": influence})})
        record = _owe(record, "scar", ability=ability)
        lines.append(
            f"a decade beyond Young Adult: 1 Plot Armor crossed off, a Scar in {ability.value.title()} (d10 {face})"
        )
    lines.append(f"{row.life_stages} Life Stage{'s' if row.life_stages != 1 else ''}, from -{10 * row.life_stages}Y")
    return _done(record, Step.STARTING_AGE), lines


# ------------------------------------------------------------------ settling what a roll left owed


def settle(
    record: Casting,
    *,
    specialties: Sequence[tuple[AbilityName, str]] = (),
    scars: Sequence[tuple[AbilityName, str]] = (),
    hero_props: Sequence[tuple[str, str | None]] = (),
    careers: Sequence[CareerPath] = (),
    masteries: Sequence[Mastery] = (),
    family_bonds: Sequence[str] = (),
    family_grudges: Sequence[str] = (),
) -> tuple[Casting, list[str]]:
    """Make the choices a roll left owed, in any order; each must be owed."""
    lines: list[str] = []
    owed = list(record.owed)

    def take(kind: OwedKind, ability: AbilityName | None = None) -> None:
        for item in owed:
            if item.kind == kind and (ability is None or item.ability is ability):
                owed.remove(item)
                return
        where = f" in {ability.value.title()}" if ability else ""
        left = ", ".join(_owed_text(o) for o in owed) or "nothing"
        raise RuleViolation(f"{record.sheet.name} owes no {kind.replace('_', ' ')}{where} (owed: {left})")

    sheet = record.sheet
    for ability, name in specialties:
        take("specialty", ability)
        sheet = define_slot(sheet, ability, name, scar=False, lines=lines)
    for ability, name in scars:
        take("scar", ability)
        sheet = define_slot(sheet, ability, name, scar=True, lines=lines)
    for mastery in masteries:
        take("mastery")
        if mastery not in PATH_MASTERIES:
            raise RuleViolation(f"{mastery.value} is not a Path Mastery (retake, grit, spotlight or plot_armor)")
        if mastery in sheet.masteries:
            raise RuleViolation(f"{sheet.name} already has {mastery.value} Mastery")
        sheet = sheet.model_copy(update={"masteries": sheet.masteries | {mastery}})
        lines.append(f"{mastery.value.replace('_', ' ').title()} Mastery")
    record = record.model_copy(update={"sheet": sheet})
    for name, power in hero_props:
        take("hero_prop")
        record = hero_prop_advance(record, name, power, lines)
    for path in careers:
        take("career")
        record = career_advance(record, path, lines)
    for kind, names in (("bond", family_bonds), ("grudge", family_grudges)):
        for name in names:
            take("family_bond" if kind == "bond" else "family_grudge")
            record = relationship_advance(record, kind, name, lines)
            member = record.member(name)
            if member is None:
                tie = {"bond": Difficulty.NORMAL} if kind == "bond" else {"grudge": Difficulty.NORMAL}
                record = _add_cast(record, CastMember(name=name, role="family", **tie))
    return record.model_copy(update={"owed": tuple(owed)}), lines


def hero_prop_advance(record: Casting, name: str, power: str | None, lines: list[str]) -> Casting:
    """Gear Up (3) and Social Class: 1 Advance to a Hero Prop held, or, with a Power, a new Hero
    Prop at its start (an empty slot; one slot before Utility Bundles)."""
    from .backpack import hero_prop_slots

    sheet = record.sheet
    held = next((p for p in sheet.hero_props if name_key(p.name) == name_key(name)), None)
    if held is not None:
        if power is not None:
            raise RuleViolation(f"{sheet.name} already has the Hero Prop {held.name}: name a new one to give a Power")
        sheet, mark = advance_hero_prop(sheet, held.name)
        lines.append(f"{held.name} Advanced to {mark}")
    else:
        if power is None:
            known = ", ".join(p.name for p in sheet.hero_props) or "none"
            raise RuleViolation(
                f"{sheet.name} has no Hero Prop '{name}' (Hero Props: {known}); a new one needs its first Power"
            )
        if len(sheet.hero_props) >= hero_prop_slots(sheet):
            raise RuleViolation(
                f"{sheet.name} has no empty Hero Prop slot for {name}: Advance {sheet.hero_props[0].name}"
            )
        sheet = sheet.model_copy(update={"hero_props": [*sheet.hero_props, HeroProp(name=name, powers=[power])]})
        lines.append(f"new Hero Prop {name} ({power})")
    return record.model_copy(update={"sheet": sheet})


# ------------------------------------------------------------------ Chapter 3: the Life Stages


def waiting_for(state: ShowrunnerState, record: Casting) -> Casting | None:
    """3B Advance the Clock: another Star in Casting whose Life Stage in a more remote decade
    comes before this Star's next one; None when this Star's may be played now."""
    for other in state.casting.values():
        if other.sheet.name == record.sheet.name or Step.STARTING_AGE not in other.done:
            continue
        if other.decade > record.decade:
            return other
    return None


def _schedule(state: ShowrunnerState, record: Casting) -> None:
    other = waiting_for(state, record)
    if other is not None:
        raise RuleViolation(
            f"the clock is at -{other.decade}Y: {other.sheet.name}'s Life Stage there comes before "
            f"{record.sheet.name}'s at -{record.decade}Y"
        )


def develop(
    state: ShowrunnerState,
    record: Casting,
    ability: AbilityName,
    specialty: str,
    hero_prop: str,
    power: str | None,
    prop_type: PropType,
    dice: DiceSource,
) -> tuple[Casting, list[str]]:
    """3 Part 1: Hone Your Skills (with the Slot Rule), Gear Up, Pack Your Bags (1d6 NORMAL)."""
    expect(record, Step.DEVELOP)
    _schedule(state, record)
    lines = [f"Life Stage {record.stages_done + 1} of {record.life_stages} (-{record.decade}Y)"]
    record = ability_advance(record, ability, lines, specialty)
    record = hero_prop_advance(record, hero_prop, power, lines)
    (count,) = dice.roll("pack", 1, 6)
    record = record.model_copy(update={"sheet": pack(record.sheet, prop_type, count)})
    lines.append(f"packed {count} NORMAL {prop_type.value}")
    return _done(record, Step.DEVELOP), lines


def _someone(state: ShowrunnerState, record: Casting, name: str) -> bool:
    """Whether `name` is already on a Supporting Cast list: this Star's, another's in Casting, the world's."""
    if record.member(name) is not None or name_key(name) in state.world.actors:
        return True
    return any(c.member(name) is not None for c in state.casting.values())


def encounter(
    state: ShowrunnerState,
    record: Casting,
    *,
    ally: tuple[str, AbilityName, Difficulty],
    rival: tuple[str, AbilityName, Difficulty],
    ally_specialty: str,
    move: str,
    move_ability: AbilityName,
    move_difficulty: Difficulty,
    rival_opposition: int,
    move_opposition: int,
    dice: DiceSource,
) -> tuple[Casting, list[str], list[Resolution]]:
    """3 Part 2, the three-act Encounter: the Dilemma d10 and its Career Advance, the Choice and
    its Connection, the Rival's Move (a Gambit at the Rival's Power Level) and the Character's Move."""
    expect(record, Step.ENCOUNTER)
    _schedule(state, record)
    (ally_name, ally_primary, ally_level), (rival_name, rival_primary, rival_level) = ally, rival
    if name_key(ally_name) == name_key(rival_name):
        raise RuleViolation("the Ally and the Rival are two different Actors")
    known = [_someone(state, record, n) for n in (ally_name, rival_name)]
    if not any(known):
        raise RuleViolation(
            f"one of {ally_name} and {rival_name} must already be on the Supporting Cast list (3, Act I.2)"
        )
    if rival_level.rank > Difficulty.EPIC.rank:
        raise RuleViolation(
            f"a {rival_level.value} Rival's Move is a Set Piece, not one Gambit: a Rival is EPIC at most here"
        )
    if move not in ("aid", "harm"):
        raise RuleViolation(f"the Character's Move is aid or harm (got {move})")
    target_level = ally_level if move == "aid" else rival_level
    if not Difficulty.NORMAL.rank <= move_difficulty.rank <= min(target_level.rank, Difficulty.EPIC.rank):
        raise RuleViolation(
            f"the Character's Move is NORMAL up to the target's Power Level {target_level.value} (got {move_difficulty.value})"
        )
    lines = [f"Life Stage {record.stages_done + 1} of {record.life_stages} (-{record.decade}Y)"]
    (face,) = dice.roll("dilemma", 1, 10)
    theme = tables.dilemma(face)
    lines.append(f"Dilemma d10 {face}: {theme.name}")
    record = career_advance(record, theme.path, lines)
    for (name, primary, level), is_known, role in ((ally, known[0], "ally"), (rival, known[1], "rival")):
        if not is_known:
            record = _add_cast(record, CastMember(name=name, role=role, primary=primary, power_level=level))
    record = relationship_advance(record, "bond", ally_name, lines)
    record = relationship_advance(record, "grudge", rival_name, lines)
    record = ability_advance(record, ally_primary, lines, ally_specialty)
    rival_ability = record.sheet.abilities[rival_primary]
    conditions = rival_ability.model_copy(update={"conditions": rival_ability.conditions + 1})
    record = record.model_copy(
        update={
            "sheet": record.sheet.model_copy(
                update={"abilities": {**record.sheet.abilities, rival_primary: conditions}}
            )
        }
    )
    lines.append(f"1 Condition in {rival_primary.value.title()}")
    record = _ripple(record, ally_name, rival_name)
    gambit = CheckRequest(
        star=record.sheet.name, ability=rival_primary, difficulty=rival_level, opposition=rival_opposition
    )
    record, first = _check(state, record, gambit, dice)
    lines.append(f"Rival's Move: {rival_primary.value.title()} {rival_level.value}: {first.outcome.value}")
    own = CheckRequest(
        star=record.sheet.name, ability=move_ability, difficulty=move_difficulty, opposition=move_opposition
    )
    record, second = _check(state, record, own, dice)
    lines.append(f"Character's Move ({move} {ally_name if move == 'aid' else rival_name}): {second.outcome.value}")
    target = record.member(ally_name if move == "aid" else rival_name)
    if target is not None:
        record = _with_member(record, target, _tie_up(target, "bond" if move == "aid" else "grudge"))
    record = record.model_copy(update={"stages_done": record.stages_done + 1})
    return _done(record, Step.ENCOUNTER), lines, [first, second]


def _tie_up(member: CastMember, kind: str) -> CastMember:
    tier = getattr(member, kind)
    return member.model_copy(update={kind: Difficulty.NORMAL if tier is None else tier.step(1)})


def _ripple(record: Casting, ally: str, rival: str) -> Casting:
    """The Ripple Effect: Ally and Rival each Advance a Grudge with the other; the Ally's Bond and
    the Rival's Grudge with the Star Advance."""
    for name, other, kind in ((ally, rival, "bond"), (rival, ally, "grudge")):
        member = record.member(name)
        if member is None:  # an Actor of the world or of another Star's Casting: the Director moves their ties
            continue
        grudges = dict(member.grudges)
        grudges[other] = Difficulty.NORMAL if other not in grudges else grudges[other].step(1)
        record = _with_member(record, member, _tie_up(member, kind).model_copy(update={"grudges": grudges}))
    return record


def _check(
    state: ShowrunnerState, record: Casting, request: CheckRequest, dice: DiceSource
) -> tuple[Casting, Resolution]:
    """An Ability Check of a Star in Casting: rolled on the sheet being built, its effects kept."""
    trial = state.model_copy(update={"stars": {name_key(record.sheet.name): record.sheet}, "casting": {}})
    done = resolved(trial, request, dice)
    return record.model_copy(update={"sheet": done.after.star(record.sheet.name)}), done.resolution


# ------------------------------------------------------------------ Chapter 4: Ready for the Show


def finish_wardrobe(
    record: Casting,
    *,
    look: str,
    mannerism: str,
    agenda: str,
    archetype: str,
    primary: AbilityName | None,
    secondary: AbilityName | None,
    trinkets: Sequence[str],
    archetypes: TableFile | None = None,
) -> tuple[Casting, list[str]]:
    """4.1 Steps 1-3: Look, Mannerism, Agenda; the Primary and Secondary Abilities (most Advances
    in Casting; ties are the player's choice) auto-Mastered; the Archetype at their intersection:
    the row of the group's Random Archetype table file when one is loaded (`archetypes`), else
    the text the table gives."""
    expect(record, Step.WARDROBE)
    # Every Ability counts, those with no Advance at 0: all of them may tie for Secondary.
    counts = {a: record.ability_advances.get(a, 0) for a in AbilityName}
    ranked = sorted(counts, key=lambda a: -counts[a])
    top = counts[ranked[0]]
    tied_top = [a for a in ranked if counts[a] == top]
    first = primary or (tied_top[0] if len(tied_top) == 1 else None)
    if first is None:
        raise RuleViolation(f"{_names(tied_top)} are tied for Primary: choose one (--primary)")
    if first not in tied_top:
        raise RuleViolation(f"the Primary Ability has the most Advances: {_names(tied_top)}, not {first.value}")
    rest = [a for a in ranked if a is not first]
    best = counts[rest[0]]
    tied = [a for a in rest if counts[a] == best]
    second = secondary or (tied[0] if len(tied) == 1 else None)
    if second is None:
        raise RuleViolation(f"{_names(tied)} are tied for Secondary: choose one (--secondary)")
    if second not in tied:
        raise RuleViolation(f"the Secondary Ability has the second-most Advances: {_names(tied)}, not {second.value}")
    if record.channel_barred and AbilityName.CHANNEL in (first, second):
        raise RuleViolation("the SFX Budget bars a Mastered Channel in Casting: choose another Ability")
    label = TableName.ARCHETYPE.label
    if archetypes is not None and archetype:
        raise RuleViolation(f"the {label} table is loaded: its row is the Archetype, give no text for it")
    if archetypes is None and not archetype:
        raise RuleViolation(f"name the Archetype (--archetype): no {label} table is loaded")
    from_table = f" (the {label} table's row)" if archetypes is not None else ""
    if archetypes is not None:
        archetype = archetypes.pair(first, second)
    sheet = record.sheet
    abilities = dict(sheet.abilities)
    for ability in (first, second):
        abilities[ability] = abilities[ability].model_copy(update={"mastered": True})
    sheet = sheet.model_copy(update={"abilities": abilities, "trinkets": [*sheet.trinkets, *trinkets]})
    from .backpack import trinket_slots

    if len(sheet.trinkets) > trinket_slots(sheet):
        raise RuleViolation(f"{sheet.name} has {trinket_slots(sheet)} Trinket slots, not {len(sheet.trinkets)}")
    wardrobe = Wardrobe(
        look=look, mannerism=mannerism, agenda=agenda, archetype=archetype, primary=first, secondary=second
    )
    concept = sheet.concept or archetype
    record = record.model_copy(update={"sheet": sheet.model_copy(update={"concept": concept}), "wardrobe": wardrobe})
    lines = [f"Archetype {archetype}{from_table}: {first.value.title()} and {second.value.title()} Mastered"]
    return _done(record, Step.WARDROBE), lines


def _names(abilities: Sequence[AbilityName]) -> str:
    return ", ".join(a.value for a in abilities)


def join(state: ShowrunnerState, record: Casting) -> StarSheet:
    """The end of Casting: the sheet the Star joins with."""
    expect(record, Step.JOIN)
    state.check_character_is_new(record.sheet.name)
    return record.sheet
