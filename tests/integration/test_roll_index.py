"""The roll index on both backends: exactly once, rebuildable, scoped to a branch's lineage."""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.showrunner.check import Abandoned, CheckRequest, resolve
from showrunner_ledger.domain.showrunner.events import CheckAbandoned, CheckRolled, dice_colour
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.projections import roll_index
from tests.conftest import example_star

MARA, TOBIAS = "Mara Voss", "Tobias Quell"


# ------------------------------------------------------------------ helpers


def request(star: str, opposition: int) -> CheckRequest:
    # Mara rolls 3 Action Dice in Fight, Tobias 3 in Work (their sheets in docs/examples).
    ability = "fight" if star == MARA else "work"
    return CheckRequest(star=star, ability=ability, difficulty="NORMAL", opposition=opposition)


def table_check(ledger, ref, star: str, action, opposition, script):
    faces = {"action": list(action), "opposition": list(opposition), "script": list(script)}
    return ledger.run(ref, "ability-check", request(star, len(opposition)), faces=faces)


def director_only_check(ledger, ref, star: str, action, opposition, script):
    """A hidden roll: a CheckRolled with visibility 'director'."""
    faces = {"action": list(action), "opposition": list(opposition), "script": list(script)}

    def decide(state):
        resolution = resolve(state, request(star, len(opposition)), TableDice(faces))
        return [(CheckRolled(resolution=resolution, roll_number=state.dice_rolls + 1), "director")]

    return ledger.execute(ref, decide)


def new_campaign(ledger, title: str = "Neon Harbor"):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title=title)))
    ledger.add_character(ref, example_star("star-mara.toml"))  # #2
    ledger.add_character(ref, example_star("star-tobias.json"))  # #3
    return ref


def play(ledger, ref) -> None:
    """Five checks, table and ledger dice, with non-check events between them."""
    table_check(ledger, ref, MARA, [1, 2, 6], [3], [4, 5])
    ledger.note(ref, "Scene two")
    table_check(ledger, ref, TOBIAS, [6, 6, 1], [2, 2], [3, 3])
    ledger.run(ref, "ability-check", request(MARA, 2))  # ledger dice
    ledger.note(ref, "A secret", private=True)
    table_check(ledger, ref, TOBIAS, [5, 4, 3], [], [1, 6])
    ledger.run(ref, "ability-check", request(TOBIAS, 1))  # ledger dice


def expected(ledger, ref, *, director: bool = True) -> Counter:
    """The oracle, straight from the events of the branch's lineage (no SQL, no segments)."""
    counts: Counter = Counter()
    for event in ledger.events(ref):
        fact = event.fact
        if not director and event.visibility != "public":
            continue
        if isinstance(fact, CheckRolled):
            star, rolls = fact.resolution.star, fact.resolution.rolls
        elif isinstance(fact, CheckAbandoned):
            star, rolls = fact.request.star, fact.rolls
        else:
            continue
        for roll in rolls:
            for face in roll.faces:
                counts[(dice_colour(roll.purpose), star, roll.source, roll.sides, face)] += 1
    return counts


def indexed(engine, ref, **kw) -> Counter:
    return Counter(
        {
            (c.colour, c.star, c.source, c.sides, c.face): c.count
            for c in roll_index.face_counts(engine, ref.segments, **kw)
        }
    )


def all_rows(engine) -> list[tuple]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.select(roll_index.roll_dice).order_by("notification_id", "seq"))]


@pytest.fixture
def engine(settings):
    engine = roll_index.engine_for(settings)
    yield engine
    engine.dispose()


@pytest.fixture
def played(ledger):
    ref = new_campaign(ledger)
    play(ledger, ref)
    return ref


# ------------------------------------------------------------------ rows


def test_one_row_per_die_with_its_provenance(ledger, engine):
    ref = new_campaign(ledger)
    result = table_check(ledger, ref, MARA, [1, 2, 6], [3], [4, 5])
    event = result.events[0]
    report = roll_index.catch_up(ledger, engine)
    assert (report.events, report.dice) == (1, 6)
    rows = [r._asdict() for r in _select(engine)]
    assert [(r["purpose"], r["colour"], r["face"]) for r in rows] == [
        ("action", "action", 1),
        ("action", "action", 2),
        ("action", "action", 6),
        ("opposition", "opposition", 3),
        ("script", "script", 4),
        ("script", "script", 5),
    ]
    for seq, row in enumerate(rows):
        assert row["seq"] == seq
        assert row["stream_id"] == ref.branch.id
        assert row["campaign_id"] == ref.campaign.id
        assert row["version"] == event.version == 4
        assert (row["star"], row["kind"], row["sides"], row["source"]) == (MARA, "CheckRolled", 6, "table")
        assert (row["visibility"], row["roll_number"]) == ("public", 1)
    assert [r["roll_seq"] for r in rows] == [0, 0, 0, 1, 2, 2]


class WalkAway:
    """A Star who sees the dice and abandons the check."""

    def choose(self, view):
        raise Abandoned()


def test_the_dice_of_an_abandoned_check_count(ledger, engine):
    ref = new_campaign(ledger)
    faces = {"action": [2, 3, 4], "opposition": [5], "script": [1, 1]}
    result = ledger.run(
        ref,
        "ability-check",
        CheckRequest(star="mara", ability="fight", difficulty="NORMAL", opposition=1),
        faces=faces,
        chooser=WalkAway(),
    )
    assert isinstance(result.events[0].fact, CheckAbandoned)
    roll_index.catch_up(ledger, engine)
    rows = _select(engine)
    assert [(r.kind, r.purpose, r.face) for r in rows] == [
        ("CheckAbandoned", "action", 2),
        ("CheckAbandoned", "action", 3),
        ("CheckAbandoned", "action", 4),
        ("CheckAbandoned", "opposition", 5),
        ("CheckAbandoned", "script", 1),
        ("CheckAbandoned", "script", 1),
    ]
    # Recorded as the Star was named at the table; `dice stats` maps it to the sheet's name.
    assert {r.star for r in rows} == {"mara"}
    assert indexed(engine, ref) == expected(ledger, ref)


def _select(engine):
    with engine.connect() as conn:
        return list(conn.execute(sa.select(roll_index.roll_dice).order_by("notification_id", "seq")))


def test_colours_of_purposes():
    assert [dice_colour(p) for p in ("action", "retake", "opposition", "opposition_retake", "script")] == [
        "action",
        "action",
        "opposition",
        "opposition",
        "script",
    ]
    assert {dice_colour(p) for p in ("spotlight", "anomaly", "scar_slot", "anything")} == {"other"}


def test_the_tables_live_in_the_ledgers_own_database(ledger, engine, settings):
    ref = new_campaign(ledger)
    table_check(ledger, ref, MARA, [1, 2, 6], [3], [4, 5])
    roll_index.catch_up(ledger, engine)
    if settings.is_postgres:
        query = parse_qs(urlsplit(settings.db_url).query)
        schema = query["schema"][0]
        plain = sa.create_engine(sa.make_url(str(engine.url)), poolclass=sa.NullPool)
        try:
            inspector = sa.inspect(plain)
            tables = set(inspector.get_table_names(schema=schema))
        finally:
            plain.dispose()
    else:
        with sqlite3.connect(settings.sqlite_file) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    events = "showrunnerledger_events" if settings.is_postgres else "stored_events"
    assert {"srl_roll_dice", "srl_tracking", events} <= tables


# ------------------------------------------------------------------ exactly once


def test_catching_up_twice_counts_once(ledger, engine, played):
    first = roll_index.catch_up(ledger, engine)
    assert first.events == 5 and first.dice == sum(expected(ledger, played).values())
    counts = indexed(engine, played)
    assert counts == expected(ledger, played)
    again = roll_index.catch_up(ledger, engine)
    assert (again.events, again.dice, again.batches) == (0, 0, 0)
    assert indexed(engine, played) == counts
    # The position is the last notification id, not a count of anything.
    assert again.position == roll_index.position(engine) == ledger.app.recorder.max_notification_id()


def test_new_events_are_picked_up_incrementally(ledger, engine, played):
    roll_index.catch_up(ledger, engine)
    table_check(ledger, played, MARA, [6, 6, 6], [1], [6, 6])
    report = roll_index.catch_up(ledger, engine)
    assert (report.events, report.dice) == (1, 6)
    assert indexed(engine, played) == expected(ledger, played)


def test_a_crash_in_the_middle_of_a_batch_leaves_nothing_half_done(ledger, engine, played, monkeypatch):
    real = roll_index._write_batch
    written: list[int] = []

    def crash_in_the_third_batch(conn, old, new, rows):
        real(conn, old, new, rows)  # the rows and the position are written ...
        written.append(new)
        if len(written) == 3:
            raise RuntimeError("power cut")  # ... and never committed

    monkeypatch.setattr(roll_index, "_write_batch", crash_in_the_third_batch)
    with pytest.raises(RuntimeError, match="power cut"):
        roll_index.catch_up(ledger, engine, batch_size=1)
    monkeypatch.setattr(roll_index, "_write_batch", real)

    # Two batches (one check each) committed; the third left neither rows nor position.
    assert roll_index.position(engine) == written[1]
    committed = {row.notification_id for row in _select(engine)}
    assert len(committed) == 2 and max(committed) == written[1]

    report = roll_index.catch_up(ledger, engine, batch_size=1)
    assert report.start == written[1] and report.events == 3
    assert indexed(engine, played) == expected(ledger, played)
    clean = all_rows(engine)
    roll_index.rebuild(ledger, engine)
    assert all_rows(engine) == clean


def test_a_catch_up_that_loses_the_race_writes_nothing_twice(ledger, settings, engine, played, monkeypatch):
    """Another process indexes everything between our read and our write: our batch is dropped."""
    real = roll_index._write_batch
    other = roll_index.engine_for(settings)
    raced: list[bool] = []

    def another_process_first(conn, old, new, rows):
        if not raced:
            raced.append(True)
            roll_index.catch_up(ledger, other)
        real(conn, old, new, rows)

    monkeypatch.setattr(roll_index, "_write_batch", another_process_first)
    try:
        report = roll_index.catch_up(ledger, engine, batch_size=2)
    finally:
        other.dispose()
    assert raced and report.events == 0  # everything was the other's
    assert indexed(engine, played) == expected(ledger, played)


def test_readers_starting_together_on_a_fresh_database_count_once(ledger, settings, played):
    """Four processes' worth of catch-ups at once: tables created once, every die once."""
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def reader() -> None:
        mine = bootstrap(settings)
        engine = roll_index.engine_for(settings)
        try:
            start.wait()
            roll_index.catch_up(mine, engine, batch_size=1)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            engine.dispose()
            mine.close()

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    engine = roll_index.engine_for(settings)
    try:
        assert indexed(engine, played) == expected(ledger, played)
        assert roll_index.position(engine) == ledger.app.recorder.max_notification_id()
    finally:
        engine.dispose()


def test_rebuild_equals_incremental(ledger, engine):
    ref = new_campaign(ledger)
    roll_index.catch_up(ledger, engine)
    for action in ([1, 2, 3], [4, 5, 6], [6, 6, 6]):
        table_check(ledger, ref, MARA, action, [2], [1, 1])
        roll_index.catch_up(ledger, engine, batch_size=1)
        ledger.run(ref, "ability-check", request(TOBIAS, 2))
        roll_index.catch_up(ledger, engine)
    incremental = all_rows(engine)
    assert len(incremental) == sum(expected(ledger, ref).values())
    report = roll_index.rebuild(ledger, engine, batch_size=4)
    assert report.start == 0 and report.events == 6 and report.batches == 2
    assert all_rows(engine) == incremental


def test_an_index_of_another_model_version_is_rebuilt(ledger, engine, played):
    roll_index.catch_up(ledger, engine)
    rows = all_rows(engine)
    with engine.begin() as conn:
        conn.execute(sa.update(roll_index.tracking).values(model_version=0))
        conn.execute(sa.delete(roll_index.roll_dice).where(roll_index.roll_dice.c.seq == 0))
    report = roll_index.catch_up(ledger, engine)
    assert report.start == 0 and report.events == 5
    assert all_rows(engine) == rows


def test_drop_forgets_the_index(ledger, engine, played):
    roll_index.catch_up(ledger, engine)
    roll_index.drop(engine)
    assert roll_index.position(engine) is None
    assert roll_index.backlog(ledger, engine) == ledger.app.recorder.max_notification_id()
    roll_index.drop(engine)  # twice is fine
    assert roll_index.catch_up(ledger, engine).events == 5


def test_dice_left_without_a_tracking_row_are_not_counted_twice(ledger, engine, played):
    roll_index.catch_up(ledger, engine)
    rows = all_rows(engine)
    with engine.begin() as conn:
        conn.execute(sa.delete(roll_index.tracking))
    assert roll_index.catch_up(ledger, engine).events == 5
    assert all_rows(engine) == rows


def test_progress_is_reported_in_notification_ids(ledger, engine, played):
    seen: list[tuple[int, int]] = []
    roll_index.catch_up(ledger, engine, batch_size=2, progress=lambda done, total: seen.append((done, total)))
    head = ledger.app.recorder.max_notification_id()
    assert len(seen) == 3
    assert all(total == head for _, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen) and seen[-1][0] == head


@pytest.mark.postgres
@pytest.mark.parametrize("db_url", ["postgres"], indirect=True)  # where ids have gaps
def test_notification_id_gaps_are_not_a_problem(ledger, engine, settings):
    import psycopg
    from psycopg import sql

    schema = parse_qs(urlsplit(settings.db_url).query)["schema"][0]
    base = settings.db_url.split("?")[0]
    ref = new_campaign(ledger)
    with psycopg.connect(base, autocommit=True) as conn:
        sequence = conn.execute(
            "SELECT pg_get_serial_sequence(%s, 'notification_id')", (f'"{schema}".showrunnerledger_events',)
        ).fetchone()[0]
        for action in ([1, 2, 3], [4, 5, 6], [2, 2, 5]):
            table_check(ledger, ref, MARA, action, [1], [3, 4])
            roll_index.catch_up(ledger, engine, batch_size=1)
            for _ in range(7):  # a rolled-back insert consumes ids the same way
                conn.execute(sql.SQL("SELECT nextval({})").format(sql.Literal(sequence)))
    table_check(ledger, ref, TOBIAS, [6, 5, 4], [], [1, 2])
    report = roll_index.catch_up(ledger, engine, batch_size=1)
    assert report.events == 1
    assert indexed(engine, ref) == expected(ledger, ref)
    assert roll_index.position(engine) == ledger.app.recorder.max_notification_id()


# ------------------------------------------------------------------ scoping


def test_a_fork_counts_its_parents_rolls_before_the_fork_and_not_after(ledger, engine):
    main = new_campaign(ledger)
    table_check(ledger, main, MARA, [1, 1, 1], [2], [3, 3])  # #4: before the fork
    table_check(ledger, main, TOBIAS, [2, 2, 2], [], [4, 4])  # #5: before the fork
    table_check(ledger, main, MARA, [5, 5, 5], [], [6, 6])  # #6: after the fork point
    what_if = ledger.create_branch(main, "what-if", at=5)
    table_check(ledger, what_if, MARA, [6, 6, 6], [4], [4, 4])  # what-if #7
    table_check(ledger, main, TOBIAS, [3, 3, 3], [], [2, 2])  # main #7
    deeper = ledger.create_branch(what_if, "deeper", at=4)  # below what-if's own fork point
    table_check(ledger, deeper, TOBIAS, [4, 4, 4], [1], [1, 1])  # deeper #6
    roll_index.catch_up(ledger, engine)

    def action_faces(ref) -> Counter:
        return Counter({k[4]: v for k, v in indexed(engine, ref, colour="action").items()})

    assert action_faces(main) == Counter({1: 3, 2: 3, 5: 3, 3: 3})
    assert action_faces(what_if) == Counter({1: 3, 2: 3, 6: 3})
    assert action_faces(deeper) == Counter({1: 3, 4: 3})
    for ref in (main, what_if, deeper):
        assert indexed(engine, ref) == expected(ledger, ref)


def test_replayed_faces_count_once_where_they_were_rolled(ledger, engine):
    from showrunner_ledger.ledger.replay import Alternative, replay_onto, what_if

    main = new_campaign(ledger)
    table_check(ledger, main, MARA, [1, 1, 1], [2], [3, 3])  # #4
    table_check(ledger, main, TOBIAS, [2, 2, 2], [], [4, 4])  # #5
    ledger.run(main, "ability-check", request(MARA, 1))  # #6, ledger dice
    what_if(
        ledger,
        main,
        4,
        Alternative(faces={"action": [6, 6, 6], "opposition": [5], "script": [5, 5]}),
        name="wi",
        write=True,
    )
    fork = ledger.resolve(main.campaign, "wi")
    again = ledger.create_branch(main, "again", at=6)
    replay_onto(ledger, main, again, 5, write=True)  # #5 and #6 again, onto a branch whose history holds them
    roll_index.catch_up(ledger, engine)

    # The fork: main's rolls up to the fork point (none), and its alternative's dice; not #5's and #6's again.
    assert Counter({k[4]: v for k, v in indexed(engine, fork, colour="action").items()}) == Counter({6: 3})
    assert indexed(engine, again) == indexed(engine, main) == expected(ledger, main)
    assert sum(1 for e in ledger.events(again, after=7) if getattr(e.fact, "replayed_from", None)) == 2


def test_campaigns_do_not_mix(ledger, engine, played):
    other = new_campaign(ledger, "Other Show")
    table_check(ledger, other, MARA, [3, 3, 3], [], [3, 3])
    roll_index.catch_up(ledger, engine)
    assert indexed(engine, played) == expected(ledger, played)
    assert sum(indexed(engine, other).values()) == 5


def test_a_star_does_not_see_director_only_checks(ledger, engine):
    ref = new_campaign(ledger)
    table_check(ledger, ref, MARA, [1, 2, 3], [4], [5, 6])
    director_only_check(ledger, ref, TOBIAS, [6, 6, 6], [6], [6, 6])
    roll_index.catch_up(ledger, engine)
    director = indexed(engine, ref)
    star = indexed(engine, ref, director=False)
    assert sum(director.values()) == 12 and sum(star.values()) == 6
    assert star == expected(ledger, ref, director=False)
    assert all(k[1] == MARA for k in star)


def test_filters_by_source_and_colour(ledger, engine, played):
    roll_index.catch_up(ledger, engine)
    everything = expected(ledger, played)
    table = indexed(engine, played, source="table")
    assert table == Counter({k: v for k, v in everything.items() if k[2] == "table"})
    script = indexed(engine, played, colour="script")
    assert script == Counter({k: v for k, v in everything.items() if k[0] == "script"})
    assert sum(script.values()) == 10  # two Script Dice per check


def test_check_holds_for_a_faithful_index_and_names_an_edited_one(ledger, engine, played):
    assert roll_index.check(ledger, engine) is None  # no index yet: nothing is read from one
    roll_index.catch_up(ledger, engine)
    assert roll_index.check(ledger, engine) is None
    with engine.begin() as conn:
        conn.execute(sa.update(roll_index.roll_dice).where(roll_index.roll_dice.c.seq == 0).values(face=6))
    assert "differs from the log" in roll_index.check(ledger, engine)
    roll_index.rebuild(ledger, engine)
    assert roll_index.check(ledger, engine) is None
    with engine.begin() as conn:
        conn.execute(sa.delete(roll_index.roll_dice).where(roll_index.roll_dice.c.seq == 1))
    assert "differs from the log" in roll_index.check(ledger, engine)
    roll_index.rebuild(ledger, engine)
    with engine.begin() as conn:
        conn.execute(sa.update(roll_index.tracking).values(position=10**9))  # new rolls would never be counted
    assert "claims the log up to notification 1000000000" in roll_index.check(ledger, engine)
