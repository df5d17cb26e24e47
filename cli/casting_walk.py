"""`showrunner star create` at a terminal: every step of Casting asked for in the book's order,
each rolled with ledger dice or with table dice typed in, and its result shown.

A step the rules refuse says why on stderr and is asked again; nothing is written for it.
"""

from collections.abc import Callable
from typing import Any

import typer

from .choices import ability, difficulty, prop
from .dice_flags import read_faces
from .errors import UsageProblem
from .progress_common import path, recording
from .session import stderr_console, stdout_console


class _Walk:
    def __init__(self, ctx: typer.Context, star: str) -> None:
        self.s, self.ref, self.by = recording(ctx)
        self.star = star
        self.out = stdout_console()
        self.table = False

    def ask(self, text: str, default: str | None = None) -> str:
        """One answer; Enter gives `default` (asked again when there is none)."""
        shown = f"{text} [{default}]: " if default else f"{text}: "
        while True:
            try:
                # The console writes the prompt: input()'s own prompt goes to stderr off readline.
                answer = self.out.input(shown, markup=False).strip()
            except EOFError:
                raise typer.Abort() from None
            if answer or default is not None:
                return answer or (default or "")

    def faces(self, what: str, sides: int, count: int | None = None) -> list[int]:
        while True:
            typed = self.ask(f"  {what} (d{sides} faces)" + (f", {count}" if count is not None else ""), "")
            try:
                found = read_faces(what, [typed], sides) if typed else []
            except UsageProblem as e:
                stderr_console().print(str(e), markup=False, highlight=False)
                continue
            if count is None or len(found) == count:
                return found
            stderr_console().print(f"{count} faces, please", markup=False, highlight=False)

    def record(self, command: str, request: Any, faces: dict[str, list[int]] | None = None) -> Any:
        from rich.panel import Panel

        result = self.s.ledger.run(self.ref, command, request, faces=faces if self.table else None, by=self.by)
        for event in result.events:
            fact = event.fact
            lines = getattr(fact, "lines", ())
            body = "\n".join(lines) if lines else fact.summary()
            self.out.print(
                Panel(body, title=f"#{event.version} {getattr(fact, 'step', type(fact).__name__)}"), markup=False
            )
        return result

    def step(self, run: Callable[[], Any]) -> Any:
        """Ask for a step until the rules take it."""
        from ..domain.errors import DomainError

        while True:
            try:
                return run()
            except (DomainError, UsageProblem) as e:
                stderr_console().print(f"showrunner: {e}", markup=False, highlight=False)

    def record_of(self) -> Any:
        from ..domain.showrunner.casting import casting_of

        return casting_of(self.s.ledger.view(self.ref).state, self.star)


def walk_casting(ctx: typer.Context, started: Any) -> None:
    from ..domain.showrunner import casting_tables as tables
    from ..domain.showrunner.commands import casting as c

    w = _Walk(ctx, started.star)
    w.out.print(f"Casting {started.star}: Chapters 2-4, step by step.", markup=False)
    w.table = w.ask("Roll ledger dice, or type table dice?", "ledger").lower().startswith("t")
    w.record("casting-start", started)

    samples = ", ".join(h.name for h in tables.SAMPLE_HERITAGES)

    def heritage() -> Any:
        w.out.print(f"Sample Heritages: {samples}.", markup=False, highlight=False)
        chosen = w.ask("Heritage (2.1, optional: a sample, one of your own, or Enter for none)", "")
        if not chosen:
            return None
        own: dict[str, Any] = {}
        if tables.heritage_named(chosen) is None:
            own = {
                "specialties": tuple(w.ask(f"  Specialty {n}") for n in (1, 2)),
                "scars": tuple(w.ask(f"  Scar {n}") for n in (1, 2)),
                "bond": w.ask("  Bond with (allies)"),
                "grudge": w.ask("  Grudge with (foes)"),
            }
        asked = c.CastingHeritage(
            star=started.star,
            heritage=chosen,
            specialty_abilities=tuple(
                ability(w.ask(f"  Ability of Specialty {n} ({by})"), "--specialty-in")
                for n, by in ((1, "+2"), (2, "+1"))
            ),
            scar_abilities=tuple(
                ability(w.ask(f"  Ability of Scar {n} ({by})"), "--scar-in") for n, by in ((1, "-2"), (2, "-1"))
            ),
            bond_face=w.ask("  The Actor who is the face of the allies", "") or None,
            grudge_face=w.ask("  The Actor who is the face of the foes", "") or None,
            **own,
        )
        return w.record("casting-heritage", asked)

    if started.heritage is None:  # else taken with the start, from the flags
        w.step(heritage)

    def social_class() -> Any:
        faces: dict[str, list[int]] = {}
        if w.table:
            faces["social_class"] = w.faces("Social Class", 10, 1)
            money = tables.social_class(faces["social_class"][0]).money_dice
            faces["money"] = w.faces("Starting Money", 6, money) if money else []
        return w.record("casting-social-class", c.StarInCasting(star=started.star), faces)

    w.step(social_class)
    _settle(w)

    def parents() -> Any:
        given = []
        for n in (1, 2):
            label = "main guardian" if n == 1 else "other parent"
            given.append(
                c.ParentIn(
                    name=w.ask(f"Parent {n} ({label}): name"),
                    archetype=w.ask("  Archetype (your Random Archetype Table)"),
                    primary=ability(w.ask("  Primary Ability"), "--parent"),
                    secondary=ability(w.ask("  Secondary Ability"), "--parent"),
                )
            )
        faces: dict[str, list[int]] = {}
        if w.table:
            faces["parental_status"] = w.faces("Parental Status", 10, 1)
            row = tables.upbringing(faces["parental_status"][0])
            faces["lost_parent"] = w.faces("Lost Parent", 10, row.lost_parent_rolls) if row.lost_parent_rolls else []
            faces["orphan_status"] = (
                w.faces("Orphan Status", 10, row.orphan_status_rolls) if row.orphan_status_rolls else []
            )
        return w.record("casting-parents", c.CastingParents(star=started.star, parents=tuple(given)), faces)

    w.step(parents)
    _settle(w)

    def siblings() -> Any:
        faces: dict[str, list[int]] = {}
        if w.table:
            faces["siblings"] = w.faces("Siblings", 10, 1)
            faces["sibling_age"] = w.faces("Each sibling's age", 10, tables.sibling_count(faces["siblings"][0]))
        names = [n.strip() for n in w.ask("Siblings' names, comma-separated (optional)", "").split(",") if n.strip()]
        return w.record("casting-siblings", c.CastingSiblings(star=started.star, names=tuple(names)), faces)

    w.step(siblings)

    def starting_age() -> Any:
        typed = w.ask("Starting Age (youth, teen, young_adult, adult, mature_adult, or roll)", "young_adult").lower()
        age = None if typed == "roll" else tables.StartingAge(typed)
        faces: dict[str, list[int]] = {}
        if w.table:
            row = tables.age_row(age) if age else None
            if age is None:
                faces["starting_age"] = w.faces("Starting Age", 10, 1)
                row = tables.age_by_face(faces["starting_age"][0])
            assert row is not None
            beyond = row.decades_beyond_young_adult
            faces["random_ability"] = w.faces("Random Ability for each Scar", 10, beyond) if beyond else []
        return w.record("casting-starting-age", c.CastingAge(star=started.star, age=age), faces)

    w.step(starting_age)
    _settle(w)

    record = w.record_of()
    for _ in range(record.life_stages - record.stages_done):
        if _waits(w):
            return

        def develop() -> Any:
            record = w.record_of()
            w.out.print(
                f"Life Stage {record.stages_done + 1} of {record.life_stages} (-{record.decade}Y)", markup=False
            )
            held = ", ".join(p.name for p in record.sheet.hero_props) or "none yet"
            hero = w.ask(f"  Gear Up: Hero Prop ({held}; a new name to acquire one)")
            power = None
            if all(p.name.casefold() != hero.casefold() for p in record.sheet.hero_props):
                power = w.ask("  Its first Power")
            asked = c.CastingDevelop(
                star=started.star,
                ability=ability(w.ask("  Hone Your Skills: Ability"), "--ability"),
                specialty=w.ask("  The Slot Rule: its Specialty"),
                hero_prop=hero,
                power=power,
                prop_type=prop("--prop-type", w.ask("  Pack Your Bags: Prop Type", "Gear"))[0],
            )
            faces = {"pack": w.faces("Pack Your Bags", 6, 1)} if w.table else {}
            return w.record("casting-develop", asked, faces)

        w.step(develop)

        def encounter() -> Any:
            def actor(role: str) -> Any:
                return c.ActorIn(
                    name=w.ask(f"  {role}: name"),
                    primary=ability(w.ask(f"  {role}: Primary Ability"), "--ally"),
                    power_level=difficulty("--ally", w.ask(f"  {role}: Power Level", "NORMAL")),
                )

            w.out.print("The Encounter: one Actor already on the Supporting Cast, one new.", markup=False)
            ally, rival = actor("Ally"), actor("Rival")
            move = w.ask("  Act III: aid the Ally or harm the Rival?", "harm").lower()
            asked = c.CastingEncounter(
                star=started.star,
                ally=ally,
                rival=rival,
                ally_specialty=w.ask("  The Slot Rule: a Specialty in the Ally's Primary Ability"),
                move="aid" if move.startswith("a") else "harm",
                move_ability=ability(w.ask("  Act III: your Ability"), "--move-ability"),
                move_difficulty=difficulty("--move-difficulty", w.ask("  Act III: Difficulty", "NORMAL")),
            )
            faces: dict[str, list[int]] = {}
            if w.table:
                faces["dilemma"] = w.faces("Dilemma", 10, 1)
                faces["action"] = w.faces("Action Dice of both checks, the Rival's Move first", 6)
                faces["opposition"] = []
                faces["script"] = w.faces("Script Dice of both checks", 6, 4)
            return w.record("casting-encounter", asked, faces)

        w.step(encounter)
        _settle(w)

    def wardrobe() -> Any:
        from ..domain.showrunner.state import ShowrunnerState
        from ..domain.showrunner.table_files import TableName

        state = w.s.ledger.view(w.ref).state
        # A loaded Random Archetype table names the Archetype itself: nothing to ask.
        from_table = isinstance(state, ShowrunnerState) and TableName.ARCHETYPE in state.tables
        asked = c.CastingWardrobe(
            star=started.star,
            look=w.ask("Wardrobe: Look"),
            mannerism=w.ask("  Mannerism"),
            agenda=w.ask("  Agenda"),
            archetype="" if from_table else w.ask("  Archetype (Primary x Secondary on your table)"),
            primary=ability(p, "--primary")
            if (p := w.ask("  Primary Ability (blank: the most Advanced)", ""))
            else None,
            secondary=ability(p, "--secondary") if (p := w.ask("  Secondary Ability (blank: the next)", "")) else None,
            trinkets=tuple(
                t.strip() for t in w.ask("  Trinkets, comma-separated (optional)", "").split(",") if t.strip()
            ),
        )
        return w.record("casting-wardrobe", asked)

    w.step(wardrobe)
    w.record("casting-join", c.StarInCasting(star=started.star))


def _waits(w: _Walk) -> bool:
    """Whether the Production Schedule holds this Star's next Life Stage for another Star's:
    the walk stops there, and says how to go on."""
    from ..domain.showrunner.casting import waiting_for

    record = w.record_of()
    other = waiting_for(w.s.ledger.view(w.ref).state, record)
    if other is None:
        return False
    stderr_console().print(
        f"The clock is at -{other.decade}Y: {other.sheet.name}'s Life Stage comes first. Go on with "
        f"`showrunner star casting develop '{record.sheet.name}' …` when it reaches -{record.decade}Y.",
        markup=False,
        highlight=False,
    )
    return True


def _settle(w: _Walk) -> None:
    """Ask for every choice the last roll left owed, then record them together."""
    from ..domain.showrunner.commands import casting as c
    from ..domain.showrunner.sheet import Mastery

    def settle() -> Any:
        owed = w.record_of().owed
        if not owed:
            return None
        given: dict[str, list[Any]] = {}
        for item in owed:
            kind = item.kind
            if kind == "specialty":
                given.setdefault("specialties", []).append(
                    (item.ability, w.ask(f"Specialty in {item.ability.value.title()}"))
                )
            elif kind == "scar":
                given.setdefault("scars", []).append((item.ability, w.ask(f"Scar in {item.ability.value.title()}")))
            elif kind == "hero_prop":
                record = w.record_of()
                named = w.ask("Hero Prop Advance: a Hero Prop held, or a new one's name")
                known = any(p.name.casefold() == named.casefold() for p in record.sheet.hero_props)
                known = known or any(n.casefold() == named.casefold() for n, _ in given.get("hero_props", []))
                power = None if known else w.ask("  Its first Power")
                given.setdefault("hero_props", []).append((named, power))
            elif kind == "career":
                given.setdefault("careers", []).append(path("--career", w.ask("Career Advance: Path", "training")))
            elif kind == "mastery":
                given.setdefault("masteries", []).append(
                    Mastery(w.ask("Path Mastery (retake, grit, spotlight, plot_armor)"))
                )
            elif kind == "family_bond":
                given.setdefault("family_bonds", []).append(w.ask("A family member you have a Bond with"))
            else:
                given.setdefault("family_grudges", []).append(w.ask("A family member you have a Grudge with"))
        asked = c.CastingSettle(star=w.star, **{k: tuple(v) for k, v in given.items()})
        return w.record("casting-settle", asked)

    w.step(settle)
