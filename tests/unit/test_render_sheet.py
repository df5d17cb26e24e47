"""The Star Profile as text: what a player reads off the screen."""

import re
from pathlib import Path

import pytest
from rich.console import Console

from showrunner_ledger.cli.render_sheet import render_star_sheet
from showrunner_ledger.domain.showrunner.profile import star_profile
from showrunner_ledger.domain.showrunner.starfile import parse_star_file

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def star(name: str):
    return parse_star_file((EXAMPLES / name).read_bytes(), source=name)


def shown(sheet, **options) -> str:
    console = Console(record=True, width=120)
    console.print(render_star_sheet(star_profile(sheet), **options))
    return console.export_text()


@pytest.fixture(scope="module")
def mara() -> str:
    return shown(star("star-mara.toml"))


@pytest.fixture(scope="module")
def tobias() -> str:
    return shown(star("star-tobias.json"))


def test_header_names_the_star_player_and_concept(mara):
    assert "Star Profile" in mara
    assert "Mara Voss" in mara
    assert "Player: Jo" in mara
    assert "Concept: Disgraced duelist" in mara


def test_title_suffix_follows_the_title():
    assert "Star Profile — as of #12" in shown(star("star-mara.toml"), title_suffix=" — as of #12")


@pytest.mark.parametrize(
    ("ability", "row"),
    [
        ("Fight", r"Fight\s+2\s+★◌◌\s+1\s+⇧\s+1: Swords \+2  2: Broken Arm -1  5: Disarming \+1"),
        ("Move", r"Move\s+1\s+◌◌◌\s+2\s+✘\s+3: Footwork \+1"),
        ("Endure", r"Endure\s+1\s+◌◌◌\s+0 \+1 pen\s+\+1 pen"),
        ("Impress", r"Impress\s+1\s+★◌◌\s+0\s+1: Duelling Etiquette \+1  4: Public Disgrace -2"),
        ("Work", r"Work\s+0\s+◌◌◌\s+0\s*║"),
    ],
)
def test_ability_rows_show_dice_stars_xp_mastery_conditions_and_slots(mara, ability, row):
    assert re.search(row, mara), f"{ability} row not as expected"


def test_all_ten_abilities_are_listed_in_book_order(mara):
    names = ["Channel", "Endure", "Fight", "Move", "Impress", "Sense", "Talk", "Think", "Travel", "Work"]
    positions = [re.search(rf"║\s+{name}\s", mara).start() for name in names]
    assert positions == sorted(positions)


def test_influence_pools_show_filled_empty_and_crossed_off_icons(mara, tobias):
    assert re.search(r"♥ Grit\s+♥♥♥◌\s+3/4", mara)
    assert re.search(r"↺ Retake\s+↺↺\s+2/2", mara)
    assert re.search(r"☼ Spotlight\s+◌\s+0/1", mara)
    assert re.search(r"☠ Plot Armor\s+☠☠✕\s+2/2 \(1 exhausted\)", mara)
    assert re.search(r"□ Preparation\s+□\s+1/1", mara)
    assert re.search(r"♥ Grit\s+♥♥◌✕\s+2/3 \(1 exhausted\)", tobias)


def test_limit_track(tobias):
    assert re.search(r"⦸ Limit\s+⦸⦸◌\s+2/3", tobias)


def test_hero_prop_shows_wear_powers_and_milestones(mara, tobias):
    assert re.search(r"Father's Rapier\s+⛉⛉◌ 2/3\s+1\s+Riposte", mara)
    assert "(locked) Heirloom Blade" in mara
    assert "4: ⛉ 1st Power ⛉ N" in mara
    assert "+0 dice, up to N" in mara
    assert "⛉⛉⛉⛉⛉◌◌ 5/7" in tobias
    assert "(locked)" not in tobias
    assert "+2 dice, up to H" in tobias


def test_props_and_trinkets(mara):
    assert re.search(r"Weapons\s+HARD\s+◊ 1", mara)
    assert re.search(r"Money\s+NORMAL\s+◊◊◊ 3", mara)
    assert "Her mother's signet ring" in mara


def test_bonds_and_grudges_show_tiers_and_exhausted_marks(mara, tobias):
    assert re.search(r"Captain Ilse\s+H \(HARD\)\s+N◆ H◇", mara)
    assert re.search(r"Lord Aubrec\s+F \(FORMIDABLE\)\s+N◆ H◆ F◇", mara)
    assert re.search(r"Old Hesk the smith\s+E \(EPIC\)\s+N◆ H◇ F◆ E◆", tobias)


def test_acclaim_per_career_path(tobias):
    assert re.search(r"Persistence\s+▷▷▷\s+3", tobias)
    assert re.search(r"Destiny\s+▷\s+1", tobias)
    assert re.search(r"Training\s+0", tobias)


def test_written_off_banner_only_when_written_off(mara):
    assert "WRITTEN OFF" not in mara
    gone = shown(star("star-mara.toml").model_copy(update={"written_off": True}))
    assert "WRITTEN OFF" in gone
    assert gone.index("WRITTEN OFF") < gone.index("Abilities")


def test_fits_120_columns(mara, tobias):
    for text in (mara, tobias):
        assert max(len(line) for line in text.splitlines()) <= 120


def test_names_from_a_file_are_shown_literally_not_as_markup():
    sheet = star("star-mara.toml")
    odd = "[bold]Ilse[/]"
    sheet = sheet.model_copy(
        update={
            "trinkets": ["[/red] broken"],
            "bonds": [sheet.bonds[0].model_copy(update={"with_": odd})],
            "hero_props": [sheet.hero_props[0].model_copy(update={"name": "[i]Rapier"})],
        }
    )
    text = shown(sheet, title_suffix=" [#12]")
    assert odd in text
    assert "[/red] broken" in text
    assert "[i]Rapier" in text
    assert "Star Profile [#12]" in text
