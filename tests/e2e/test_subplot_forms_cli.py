"""The Appendix F and G forms of a Subplot from the command line: rolled with the table's dice or
the ledger's, recorded on the Subplot, hidden from the Stars while it waits in stasis, and bad
input refused with nothing written."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign

MARA = "Mara Voss"
# Grim (Fight/Move) holds no Bond with Lady Shore nor Grudge against Mara: she must Curry Favor
# with him (13.2 Phase 3).
GRIM = ("actor", "create", "Grim", "--primary", "fight", "--secondary", "move", "--pips", "2")
GRIM_TIES = ("--bond", "N=Tobias", "--grudge", "N=Tobias")
# Lady Shore (Impress/Talk) at NORMAL: her Bond at NORMAL is Grim, her Grudge Mara.
SHORE = ("actor", "create", "Lady Shore", "--primary", "impress", "--secondary", "talk", "--pips", "3")
SHORE_TIES = ("--bond", "N=Grim", "--grudge", "N=Mara")
SUBPLOT = ("subplot", "generate", "--plotter", "Lady Shore", "--pre-production")
SUBPLOT_DICE = ("--power-level-dice", "1,1,2", "--event", "10")


def ok(result):
    assert result.code == 0, result
    return result


@pytest.fixture
def curried(run):
    """#1-#3 the campaign, #4 Grim, #5 Lady Shore, #6 her Subplot 1, Currying Favor with Grim."""
    new_campaign(run)
    ok(run(*GRIM, *GRIM_TIES))
    ok(run(*SHORE, *SHORE_TIES))
    written = ok(run(*SUBPLOT, *SUBPLOT_DICE, "--json")).json()
    assert written["facts"][0]["fact"]["subplot"]["approach"] == "curry_favor"
    return run


def test_the_scheme_form_is_rolled_on_the_tables_dice_and_kept_on_the_subplot(curried):
    run = curried
    # 3 Fight, 4 Impress: the Primary (Impress) is named, so it wins; row 2 of Impress is Scandal.
    filled = ok(run("subplot", "scheme", "1", "--scheme-dice", "3,4", "--form-die", "2", "--json")).json()
    assert [(f["type"], f["visibility"]) for f in filled["facts"]] == [("SubplotFormFilled", "director")]
    assert filled["form"]["ability"] == "impress" and filled["form"]["form"]["title"] == "Scandal"
    listed = ok(run("subplot", "list", "--json")).json()["subplots"]
    assert listed[0]["scheme_form"]["form"]["title"] == "Scandal"
    assert "Scheme: Impress (3,4), row 2, Scandal" in ok(run("subplot", "list")).out.replace("\n", " ")


def test_neither_ability_named_takes_the_directors_choice_of_the_two(curried):
    run = curried
    # 3 Fight, 10 Work: neither Impress nor Talk; the Director takes Fight, row 5: Duel.
    filled = ok(
        run("subplot", "scheme", "1", "--scheme-dice", "10,3", "--form-die", "5", "--choice", "fight", "--json")
    )
    assert filled.json()["form"]["form"]["title"] == "Duel"


def test_the_favor_form_picks_the_secondary_and_is_hidden_until_the_reveal(curried):
    run = curried
    # 6: the Secondary (Talk), which the book prints no table for.
    filled = ok(run("subplot", "favor", "1", "--favor-die", "6", "--form-die", "3", "--json")).json()
    assert filled["form"]["ability"] == "talk" and filled["form"]["form"] is None
    assert ok(run("--as", MARA, "subplot", "list", "--json")).json()["subplots"] == []
    assert "SubplotFormFilled" not in ok(run("--as", MARA, "log", "--json")).out

    ok(run("subplot", "reveal", "1", "--cliffhanger"))
    seen = ok(run("--as", MARA, "subplot", "list", "--json")).json()["subplots"]
    assert seen[0]["favor_form"]["ability"] == "talk"


def test_ledger_dice_fill_a_form_and_audit_decides_it_again(curried):
    run = curried
    filled = ok(run("subplot", "favor", "1", "--json")).json()
    assert filled["form"]["kind"] == "favor" and 1 <= filled["form"]["face"] <= 10
    audited = ok(run("audit", "--all", "--json")).json()
    assert audited["ok"] is True, audited
    assert [(a["event"], a["matches"]) for a in audited["audits"] if a["type"] == "SubplotFormFilled"] == [(7, True)]


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (("subplot", "scheme", "2"), 1, "there is no Subplot 2"),
        (("subplot", "scheme", "1", "--scheme-dice", "3"), 1, "needs 2 scheme dice but 1 was given (--scheme-dice)"),
        (("subplot", "scheme", "1", "--scheme-dice", "3,11", "--form-die", "1"), 2, "not a d10 face"),
        (("subplot", "scheme", "1", "--choice", "juggle"), 2, "unknown Ability 'juggle'"),
        (
            ("subplot", "scheme", "1", "--scheme-dice", "10,3", "--form-die", "5", "--choice", "move"),
            1,
            "choose one of them, not Move",
        ),
        (("subplot", "favor", "1", "--favor-die", "9", "--form-die", "1"), 1, "--ability-die"),
        (("--as", MARA, "subplot", "scheme", "1"), 1, "only the Director fills in a Subplot's forms"),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(curried, args, code, needle):
    run = curried
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before


def test_a_form_is_filled_once_and_appendix_g_only_for_curry_favor(run):
    new_campaign(run)
    # Lady Shore's Bond at NORMAL is Mara herself: she asks the Star for help, not Curry Favor.
    ok(run(*SHORE, "--bond", "N=Mara", "--grudge", "N=Mara"))
    ok(run(*SUBPLOT, *SUBPLOT_DICE, "--bounty", "4"))
    before = head(run)
    assert_refused(run("subplot", "favor", "1"), 1, "asks the Star for help", "Appendix G")
    assert head(run) == before
    ok(run("subplot", "scheme", "1", "--scheme-dice", "4,4", "--form-die", "1"))
    before = head(run)
    assert_refused(run("subplot", "scheme", "1"), 1, "already filled in: Denounce")
    assert head(run) == before
