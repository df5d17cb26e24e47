"""The SFX Budget (Chapter 1 Step 2B) named on the Pitch, and No Magic's rule: "The Channel
Ability doesn't exist and can never be used or advanced. Always re-roll it if it comes up randomly"."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner import casting
from showrunner_ledger.domain.showrunner import progression as pg
from showrunner_ledger.domain.showrunner.actors import roll_abilities
from showrunner_ledger.domain.showrunner.casting_record import Step
from showrunner_ledger.domain.showrunner.check import CheckRequest, resolve
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sfx import ChannelRerolls
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.sheet import CareerPath
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from tests.conftest import example_star

MARA = example_star()


def NO_MAGIC() -> ChannelRerolls:
    return ChannelRerolls(always=True)


def pitched(sfx: str | None) -> ShowrunnerState:
    return ShowrunnerState(pitch=Pitch(title="Precinct 9", sfx=sfx)).with_star(MARA)


def test_a_pitch_without_a_named_budget_dumps_as_before():
    assert "sfx" not in Pitch(title="Precinct 9").model_dump(mode="json")
    assert Pitch(title="Precinct 9", sfx="no-magic").no_magic


def test_no_magic_refuses_a_channel_check():
    request = CheckRequest(star="Mara", ability="channel", difficulty="NORMAL")
    with pytest.raises(RuleViolation, match="No Magic: the Channel Ability does not exist"):
        resolve(pitched("no-magic"), request, TableDice({"action": [5, 2], "script": [6, 6]}))
    high = resolve(pitched("high-magic"), request, TableDice({"action": [5], "script": [6, 6]}))
    assert high.request.ability is A.CHANNEL


def test_no_magic_rolls_a_random_channel_again():
    """Appendix A's d10 names Channel on a 1: rolled again under No Magic, kept otherwise."""
    assert roll_abilities("Vex", TableDice({"ability": [1, 3]}), None, None) == (A.CHANNEL, A.FIGHT)
    assert roll_abilities("Vex", TableDice({"ability": [1, 3, 1, 4]}), None, None, channel=NO_MAGIC()) == (
        A.FIGHT,
        A.IMPRESS,
    )


def test_no_magic_rolls_a_limit_breaks_random_channel_again():
    sheet = MARA.model_copy(update={"limit": MARA.limit.model_copy(update={"marked": MARA.limit.max})})
    state = ShowrunnerState(pitch=Pitch(title="P", sfx="no-magic")).with_star(sheet)
    dice = TableDice({"random_ability": [1, 4], "major_anomaly": [3, 4]})
    broke = pg.limit_break(state, "Mara", dice, resist=D.HARD, fixed_overload=14)
    after = broke.state.star("Mara")
    assert after.ability(A.IMPRESS).extra_xp_boxes == 1 and after.ability(A.CHANNEL).extra_xp_boxes == 0


def test_low_magic_rolls_the_first_random_channel_again_once():
    """ "The first time Channel is randomly rolled for any reason, re-roll it once"."""
    low = ChannelRerolls.of(pitched("low-magic"))
    # The first Channel is rolled again; the re-roll naming Channel again stands.
    assert roll_abilities("Vex", TableDice({"ability": [1, 1, 3]}), None, None, channel=low) == (A.CHANNEL, A.FIGHT)
    assert low.recorded() is True
    later = ChannelRerolls.of(pitched("low-magic").model_copy(update={"channel_rolled": True}))
    assert roll_abilities("Vex", TableDice({"ability": [1, 3]}), None, None, channel=later) == (A.CHANNEL, A.FIGHT)
    assert later.recorded() is None
    high = ChannelRerolls.of(pitched("high-magic"))
    assert roll_abilities("Vex", TableDice({"ability": [1, 3]}), None, None, channel=high) == (A.CHANNEL, A.FIGHT)


def test_unknown_rolls_the_first_random_channel_again_until_a_star_channels():
    unknown = pitched("unknown")
    first = ChannelRerolls.of(unknown)
    assert roll_abilities("Vex", TableDice({"ability": [1, 4, 3]}), None, None, channel=first) == (A.IMPRESS, A.FIGHT)
    request = CheckRequest(star="Mara", ability="channel", difficulty="NORMAL")
    checked = resolve(unknown, request, TableDice({"action": [5], "script": [6, 6]}))
    revealed = CheckRolled(resolution=checked, roll_number=1).apply(unknown)
    assert revealed.channel_rolled
    fight = CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")
    fought = resolve(unknown, fight, TableDice({"action": [5, 2, 3], "script": [6, 6]}))
    assert not CheckRolled(resolution=fought, roll_number=1).apply(unknown).channel_rolled
    low = pitched("low-magic")
    low_checked = resolve(low, request, TableDice({"action": [5], "script": [6, 6]}))
    assert not CheckRolled(resolution=low_checked, roll_number=1).apply(low).channel_rolled


def test_a_limit_breaks_first_random_channel_is_rolled_again_under_low_magic_and_the_show_remembers():
    sheet = MARA.model_copy(update={"limit": MARA.limit.model_copy(update={"marked": MARA.limit.max})})
    state = ShowrunnerState(pitch=Pitch(title="P", sfx="low-magic")).with_star(sheet)
    dice = TableDice({"random_ability": [1, 4], "major_anomaly": [3, 4]})
    broke = pg.limit_break(state, "Mara", dice, resist=D.HARD, fixed_overload=14)
    after = broke.state.star("Mara")
    assert after.ability(A.IMPRESS).extra_xp_boxes == 1 and after.ability(A.CHANNEL).extra_xp_boxes == 0
    assert broke.channel_rerolled is True
    again = pg.limit_break(
        state.model_copy(update={"channel_rolled": True}),
        "Mara",
        TableDice({"random_ability": [1], "major_anomaly": [3, 4]}),
        resist=D.HARD,
        fixed_overload=14,
    )
    assert again.state.star("Mara").ability(A.CHANNEL).extra_xp_boxes == 1 and again.channel_rerolled is None


def test_unknown_bars_channel_advances_and_a_mastered_channel_in_casting():
    """Unknown: "During Casting, players cannot gain Channel advances or have Channel as a
    Mastered Ability"; No Magic's "can never be … advanced" bars them too."""
    for sfx, barred in (("unknown", True), ("no-magic", True), ("low-magic", False)):
        record = casting.start(ShowrunnerState(pitch=Pitch(title="P", sfx=sfx)), "Ada", None, None, CareerPath.TRAINING)
        assert record.channel_barred is barred
        lines: list[str] = []
        after = casting.ability_advance(record, A.CHANNEL, lines)
        assert (after.ability_advances.get(A.CHANNEL, 0), after.owed == ()) == ((0, True) if barred else (1, False))
        assert lines[0].startswith("no Channel Advance" if barred else "Channel Advanced")
    record = casting.start(pitched("unknown"), "Ada", None, None, CareerPath.TRAINING)
    record = casting.ability_advance(record, A.FIGHT, [], "Brawling")
    at_wardrobe = record.model_copy(update={"done": tuple(s for s in Step if s.value not in ("wardrobe", "join"))})
    with pytest.raises(RuleViolation, match="bars a Mastered Channel in Casting"):
        casting.finish_wardrobe(
            at_wardrobe,
            look="",
            mannerism="",
            agenda="",
            archetype="",
            primary=A.FIGHT,
            secondary=A.CHANNEL,
            trinkets=(),
        )
    assert "channel_barred" not in casting.start(ShowrunnerState(), "Bo", None, None, CareerPath.TRAINING).model_dump()
