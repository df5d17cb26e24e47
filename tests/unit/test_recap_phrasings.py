"""Every fact kind a recap can tell has its own phrasings, several of each, in its ruleset's book.

The topic registry is walked, so a fact added with a recap line and no phrasings fails here
rather than being read aloud as its log line.
"""

from __future__ import annotations

from showrunner_ledger.domain.events import CampaignFact
from showrunner_ledger.domain.phrasing import SHARED_PHRASES
from showrunner_ledger.domain.rulesets import all_rulesets
from showrunner_ledger.ledger.facts import branch_fact_types

TOLD_AS_WRITTEN = {"ledger/NoteRecorded"}
"""A note is the table's own narration: it is read as written, in no phrasing of ours."""


def told_facts() -> dict[str, type[CampaignFact]]:
    """The shipped facts (not a test's own) that give a recap line."""
    for ruleset in all_rulesets():
        ruleset.load_facts()
    return {
        topic: cls
        for topic, cls in branch_fact_types().items()
        if cls.__module__.startswith("showrunner_ledger.")
        and issubclass(cls, CampaignFact)
        and cls.recap is not CampaignFact.recap
    }


def book_of(cls: type) -> dict[str, tuple[str, ...]]:
    """The phrasebook a fact is told from: its ruleset's over the shared one, or the shared one."""
    for ruleset in all_rulesets():
        if cls.__module__.startswith(ruleset.package + "."):
            return {**SHARED_PHRASES, **ruleset.phrasebook}
    return dict(SHARED_PHRASES)


def test_every_fact_with_a_recap_line_names_phrasings_its_book_holds_three_times_over() -> None:
    facts = told_facts()
    assert {"showrunner/ThreatCreated", "resonance/KitUsed", "pool/CharacterJoined"} <= facts.keys()
    missing = []
    for topic, cls in sorted(facts.items()):
        if topic in TOLD_AS_WRITTEN:
            assert not cls.phrasings, topic
            continue
        if not cls.phrasings:
            missing.append(f"{topic}: no phrasings")
        book = book_of(cls)
        for name in cls.phrasings:
            templates = set(book.get(name, ()))
            if len(templates) < 3:
                missing.append(f"{topic}: {name!r} has {len(templates)} phrasing(s)")
    assert not missing, "\n".join(missing)


def test_the_recaps_own_phrasings_hold_three_times_over_and_fill_their_slots() -> None:
    from showrunner_ledger.domain.events import RecapLine
    from showrunner_ledger.domain.phrasing import RECAP_PHRASES, phrased

    line = RecapLine(weight=0, text="", kind="counterfactual", slots={"version": "4", "parent": "main"})
    said: set[str] = set()
    told = [phrased(RECAP_PHRASES, line, 0, said) for _ in range(3)]
    assert len(RECAP_PHRASES["counterfactual"]) == 3
    assert len({t[0] for t in told if t}) == 3 and all(t and "event #4 on 'main'" in t[0] for t in told)


def test_every_phrasing_of_a_ruleset_is_named_by_one_of_its_facts() -> None:
    """No phrasing is left in a book that no fact can ask for."""
    facts = told_facts()
    for ruleset in all_rulesets():
        named = {
            name for cls in facts.values() if cls.__module__.startswith(ruleset.package + ".") for name in cls.phrasings
        }
        assert set(ruleset.phrasebook) <= named, (ruleset.name, set(ruleset.phrasebook) - named)
    shared = {name for cls in facts.values() if book_of(cls) == SHARED_PHRASES for name in cls.phrasings}
    assert set(SHARED_PHRASES) == shared
