"""Names, free text and numbers a command brings in: refused with one line; recorded ones read as they were."""

import json
import uuid

import pytest
from pydantic import ValidationError

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.errors import InvalidSheet, InvalidText, RuleViolation
from showrunner_ledger.domain.inputs import MANY
from showrunner_ledger.domain.pool.charfile import parse_character_file as parse_pool
from showrunner_ledger.domain.resonance.actions import AdversaryInput, decide_adversary
from showrunner_ledger.domain.resonance.charfile import parse_character_file as parse_resonance
from showrunner_ledger.domain.resonance.state import ResonanceState
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.domain.showrunner.starfile import parse_star_file
from showrunner_ledger.domain.showrunner.world_events import ActorSpec
from showrunner_ledger.domain.structure import EpisodeStarted
from showrunner_ledger.domain.text import LINE, NAME, NOTE, TITLE, visible
from showrunner_ledger.ledger.codec import event_from_document
from showrunner_ledger.ledger.facts import NoteRecorded

HOSTILE = "Evil\x1b[2J\u202eknight\x00[bold]"

BAD_IN_ANY_TEXT = {
    "ESC (an ANSI escape)": ("\x1b", "control character (U+001B)"),
    "NUL": ("\x00", "control character (U+0000)"),
    "DEL": ("\x7f", "control character (U+007F)"),
    "a C1 control": ("\x9b", "control character (U+009B)"),
    "a carriage return": ("\r", "(U+000D)"),
    "a right-to-left override": ("\u202e", "invisible formatting character (U+202E)"),
    "a left-to-right embedding": ("\u202a", "invisible formatting character (U+202A)"),
    "a first-strong isolate": ("\u2068", "invisible formatting character (U+2068)"),
    "a pop directional isolate": ("\u2069", "invisible formatting character (U+2069)"),
    "a zero-width space": ("\u200b", "invisible formatting character (U+200B)"),
    "a byte order mark": ("\ufeff", "invisible formatting character (U+FEFF)"),
    "a soft hyphen": ("\xad", "invisible formatting character (U+00AD)"),
    "a line separator": ("\u2028", "(U+2028)"),
    "a lone surrogate": ("\ud800", "(U+D800)"),
    "a tag character": ("\U000e0041", "invisible formatting character (U+E0041)"),
}


@pytest.mark.parametrize("what", sorted(BAD_IN_ANY_TEXT))
@pytest.mark.parametrize("kind", [NAME, TITLE, LINE, NOTE], ids=["name", "title", "line", "note"])
def test_every_kind_of_text_refuses_control_and_format_characters(kind, what) -> None:
    ch, words = BAD_IN_ANY_TEXT[what]
    problem = kind.problem(f"Mara{ch}Voss")
    assert problem is not None and words in problem and "character 5" in problem, problem
    assert "\n" not in problem and ch not in problem


@pytest.mark.parametrize("ch", ["\n", "\t", "\x0b", "\x0c", "\x85", "\u2029"])
@pytest.mark.parametrize("kind", [NAME, TITLE, LINE], ids=["name", "title", "line"])
def test_a_name_a_title_and_a_line_are_one_line(kind, ch) -> None:
    assert kind.problem(f"Mara{ch}Voss").startswith("must be one line: character 5 is a ")


def test_a_note_may_hold_line_breaks_and_tabs_and_any_script() -> None:
    text = "Scene 1:\n\tthe vault floods.\nΑθήνα · 東京 · مرحبا · 🎭 · Zoë · non\xa0breaking"
    assert NOTE.problem(text) is None
    assert NAME.problem("Zoë Ñandú 東京 🎭") is None


@pytest.mark.parametrize(("kind", "limit"), [(NAME, 80), (TITLE, 120), (LINE, 300), (NOTE, 4000)])
def test_each_kind_has_a_length_limit(kind, limit) -> None:
    assert kind.problem("x" * limit) is None
    problem = kind.problem("x" * (limit + 1))
    assert problem == f"is {limit + 1} characters long; at most {limit} are allowed: shorten it"


def test_a_ten_megabyte_name_is_refused_at_once() -> None:
    with pytest.raises(ValidationError, match="is 10000000 characters long; at most 80"):
        ActorSpec(name="M" * 10_000_000)


def test_a_name_loses_the_spaces_at_its_ends() -> None:
    assert ActorSpec(name="  Iron Warden ").name == "Iron Warden"


def test_visible_writes_unsafe_characters_as_escapes() -> None:
    assert visible(HOSTILE) == "Evil\\x1b[2J\\u202eknight\\x00[bold]"
    assert visible("two\nlines\tand\r") == "two\nlines\tand\\x0d"
    assert visible("two\nlines\t", lines=False) == "two\\x0alines\\x09"
    assert visible("\U000e0041 \ud800") == "\\U000e0041 \\ud800"
    assert visible("Zoë 東京\xa0🎭") == "Zoë 東京\xa0🎭"


# ----------------------------------------------------------------------- where the checks run


def test_facts_made_by_a_decision_check_their_text() -> None:
    with pytest.raises(ValidationError, match="text\n.*character 1 is a control character"):
        NoteRecorded(text="\x1b[2J")
    with pytest.raises(ValidationError, match="title\n.*invisible formatting character"):
        EpisodeStarted(season=1, number=1, title="The \u202eVault")


def test_inputs_check_their_text_however_they_are_made() -> None:
    for make in (lambda: ActorSpec(name=HOSTILE), lambda: ActorSpec.model_validate({"name": HOSTILE})):
        with pytest.raises(ValidationError, match="name\n.*character 5 is a control character"):
            make()
    with pytest.raises(InvalidText, match="a bond's name must be plain text"):
        ActorSpec(name="Grim", bonds={"NORMAL": {"name": "Ma\x1bra"}})


def test_numbers_a_command_gives_are_bounded() -> None:
    assert Pitch(title="Neon", sfx_budget=MANY).sfx_budget == MANY
    with pytest.raises(ValidationError, match="sfx_budget\n  must be at most 1000 .got a number of about 24 digits"):
        Pitch(title="Neon", sfx_budget=10**23)


# ----------------------------------------------------------------------- Director is reserved

MARA = 'name = "{name}"\n[influence]\ngrit = 3\nretake = 2\nspotlight = 1\nplot_armor = 2\npreparation = 1\n'
POOL = 'name = "{name}"\n[stats]\npower = 2\nagility = 4\nendurance = 3\nintellect = 3\nperception = 4\nsocial = 2\nwill = 3\n'
RESONANCE = 'name = "{name}"\n[skills]\nBrawn = 2\n'
READERS = {
    "showrunner": lambda text: parse_star_file(text.encode(), source="star.toml"),
    "pool": lambda text: parse_pool(text.encode(), "character.toml"),
    "resonance": lambda text: parse_resonance(text.encode(), "character.toml"),
}
FILES = {"showrunner": MARA, "pool": POOL, "resonance": RESONANCE}


@pytest.mark.parametrize("ruleset", sorted(READERS))
@pytest.mark.parametrize("name", ["Director", "director", "  DIRECTOR "])
def test_no_character_of_any_ruleset_may_be_called_director(ruleset, name) -> None:
    with pytest.raises(InvalidSheet) as refused:
        READERS[ruleset](FILES[ruleset].format(name=name))
    assert str(refused.value).endswith(
        f"name: '{name.strip()}' is reserved: `--as director` means the Director; choose another name"
    )
    assert READERS[ruleset](FILES[ruleset].format(name="Director Voss")).name == "Director Voss"


def test_a_d4_adversary_may_not_be_called_director_either() -> None:
    with pytest.raises(ValidationError, match="is reserved"):
        AdversaryInput(character="director")
    with pytest.raises(ValidationError, match="is reserved"):
        AdversaryInput.model_validate({"character": "Director"})


@pytest.mark.parametrize("ruleset", sorted(READERS))
def test_a_character_file_refuses_hostile_text_and_huge_numbers(ruleset) -> None:
    with pytest.raises(InvalidSheet, match=r"name: must be plain text: character 5 is a control character \(U\+001B\)"):
        READERS[ruleset](FILES[ruleset].format(name="Mara\\u001b[2J"))
    with pytest.raises(InvalidSheet, match="name: is 100000 characters long; at most 80"):
        READERS[ruleset](FILES[ruleset].format(name="M" * 100_000))


def test_a_star_file_refuses_counts_past_the_cap() -> None:
    text = MARA.format(name="Mara") + "[abilities.fight]\nxp = 9223372036854775807\n"
    with pytest.raises(InvalidSheet, match=r"abilities.fight.xp: must be at most 1000 \(got 9223372036854775807\)"):
        READERS["showrunner"](text)


@pytest.mark.parametrize("suffix", [".json", ".toml"])
@pytest.mark.parametrize("depth", [40, 5000])
def test_a_file_nested_too_deeply_is_one_line(suffix, depth) -> None:
    if suffix == ".json":
        text = '{"name": "Mara", "notes": ' + "[" * depth + "]" * depth + "}"
    else:
        text = 'name = "Mara"\nnotes = ' + "[" * depth + "]" * depth + "\n"
    kind = suffix[1:].upper()
    for parse in (
        lambda: parse_star_file(text.encode(), source="deep" + suffix),
        lambda: parse_pool(text.encode(), "deep" + suffix),
        lambda: parse_resonance(text.encode(), "deep" + suffix),
    ):
        with pytest.raises(InvalidSheet) as refused:
            parse()
        assert str(refused.value) == f"deep{suffix}: invalid {kind} (nested too deeply: at most 32 levels)"


def test_deep_dotted_toml_keys_and_numbers_of_thousands_of_digits_are_one_line() -> None:
    dotted = 'name = "Mara"\n' + ".".join(["a"] * 5000) + " = 1\n"
    with pytest.raises(InvalidSheet, match="^deep.toml: invalid TOML .nested too deeply"):
        parse_star_file(dotted.encode(), source="deep.toml")
    for suffix, text in (
        (".toml", 'name = "Mara"\nx = ' + "1" * 5000),
        (".json", '{"name": "Mara", "x": ' + "1" * 5000 + "}"),
    ):
        with pytest.raises(
            InvalidSheet, match=f"^long{suffix}: invalid {suffix[1:].upper()} .a number with more than 4300 digits.$"
        ):
            parse_star_file(text.encode(), source="long" + suffix)


# ----------------------------------------------------------------------- what is recorded stays readable


def _document(payload: dict, topic_schema: int = 1) -> dict:
    return {
        "campaign": str(uuid.uuid4()),
        "schema": topic_schema,
        "timestamp": "2024-05-01T20:00:00+00:00",
        "recorded_by": "director",
        "visibility": "public",
        "command_id": "c1",
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
        "payload": payload,
    }


def test_events_recorded_before_the_rules_still_load() -> None:
    branch = uuid.uuid4()
    note = event_from_document(branch, 4, "ledger/NoteRecorded", _document({"text": HOSTILE + "x" * 5000}))
    assert note.fact.text.startswith(HOSTILE)
    sheet = json.loads(
        StarSheet.model_validate(
            {
                "name": "Mara",
                "influence": {
                    p: {"current": 1, "max": 1} for p in ("grit", "retake", "spotlight", "plot_armor", "preparation")
                },
            },
        ).model_dump_json()
    )
    sheet["name"] = "Director"
    sheet["abilities"] = {"fight": {"xp": 2**62}}
    joined = event_from_document(branch, 2, "showrunner/StarJoined", _document({"sheet": sheet}))
    assert joined.fact.sheet.name == "Director" and joined.fact.sheet.abilities["fight"].xp == 2**62
    pitch = {"title": "T\x1b[31m", "high_concept": "", "premise": "", "sfx_budget": 10**23, "ruleset": "showrunner"}
    started = event_from_document(
        branch, 1, "ledger/CampaignStarted", _document({"name": "neon", "pitch": pitch, "dice_commitment": "0" * 64})
    )
    assert started.fact.pitch.sfx_budget == 10**23
    state = joined.fact.apply(started.fact.apply(CampaignState()))
    # A snapshot holds the state as JSON and reads it back by its ruleset's state model.
    loaded = type(state).model_validate(json.loads(json.dumps(state.model_dump(mode="json"))))
    assert loaded.stars["director"].name == "Director" and loaded.pitch.sfx_budget == 10**23


def test_a_d10_and_a_d4_character_recorded_as_director_still_load() -> None:
    for topic, key in (("pool/CharacterJoined", "character"), ("resonance/CharacterJoined", "sheet")):
        fields = {
            "pool/CharacterJoined": {
                "name": "Director",
                "stats": dict.fromkeys(
                    ("power", "agility", "endurance", "intellect", "perception", "social", "will"), 3
                ),
            },
            "resonance/CharacterJoined": {"name": "Director", "skills": {"Brawn\u202e": 2}},
        }[topic]
        event = event_from_document(uuid.uuid4(), 2, topic, _document({key: fields}))
        assert getattr(event.fact, key).name == "Director"


def test_a_new_fact_copied_from_a_recorded_one_is_not_checked_again() -> None:
    old = StarJoined.model_validate(
        {
            "sheet": {
                "name": "Director",
                "influence": {
                    p: {"current": 1, "max": 1} for p in ("grit", "retake", "spotlight", "plot_armor", "preparation")
                },
            }
        }
    )
    again = StarJoined(sheet=old.sheet)  # a decision passing a recorded sheet on
    assert again.sheet.name == "Director"


def test_a_d4_adversary_is_checked_as_the_directors_input() -> None:
    unchecked = AdversaryInput.model_construct(
        character="Gate\x1bWarden", skill=[], morale=4, physical_endurance=0, magical_endurance=0
    )
    with pytest.raises(RuleViolation, match="name: must be plain text: character 5 is a control character"):
        decide_adversary(ResonanceState(), unchecked, None)


@pytest.mark.parametrize(
    "text",
    ["Mara \U0001f468\u200d\U0001f469\u200d\U0001f467", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "Zoë"],
    ids=["a family emoji", "Persian with a non-joiner", "a diaeresis"],
)
@pytest.mark.parametrize("kind", [NAME, TITLE, LINE, NOTE], ids=["name", "title", "line", "note"])
def test_emoji_and_scripts_that_need_joiners_are_welcome(kind, text) -> None:
    assert kind.problem(text) is None
