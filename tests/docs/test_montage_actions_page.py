"""The Montage how-to's table of Montage Actions says what the rules say: the Ability each
action's lead rolls, its Difficulty, the Prop a claim pays and the benefit."""

from __future__ import annotations

from showrunner_ledger.domain.showrunner.montage import ACTIONS

from .console_pages import DOCS


def _documented() -> dict[str, tuple[str, str, str, str]]:
    rows = {}
    for line in (DOCS / "how-to" / "run-a-montage.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (cells[1], cells[2], cells[3], cells[4])
    return rows


def test_the_table_names_every_action_with_its_ability_difficulty_prop_and_benefit() -> None:
    expected = {
        action.value: (
            rule.ability.value.title() if rule.ability else "any: `--ability`",
            rule.difficulty.name if rule.difficulty else "the Tier: `--tier`",
            rule.required.value if rule.required else "any",
            rule.benefit,
        )
        for action, rule in ACTIONS.items()
    }
    assert _documented() == expected
