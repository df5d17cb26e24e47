"""The roll index: one SQL row per die rolled, caught up from the notification log exactly once.

Tables live in the ledger's own database (SQLite file or PostgreSQL schema) next to
eventsourcing's, under an `srl_` prefix so the names never collide:

- `srl_roll_dice`: one row per die of every roll of any ruleset (every `RolledFact`);
- `srl_tracking`: per read model, the last notification id it has processed.

`catch_up` reads the notifications after the tracked position straight from the
recorder, in batches of `BATCH` (never through the 10-item notification log), keeps
only the check topics, and writes each batch's rows together with the new position
in ONE transaction. The position is advanced with a compare-and-set: if another
process moved it meanwhile, this batch is rolled back and the catch-up resumes from
where the other one got to. A crash mid-batch therefore leaves neither rows nor
position, and no die is ever counted twice. Positions are notification ids, which
may have gaps on PostgreSQL: nothing here assumes they are contiguous.

`rebuild` drops the roll index and its tracking row and catches up from zero.

SQLAlchemy is imported here, so import this module only when a read model is needed:
it costs about 0.3 s, which `showrunner --help` and every other command must not pay.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict
from uuid import UUID

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..domain.events import RolledFact, Visibility
from ..ledger.errors import LedgerBusy, LedgerError
from ..ledger.persistence import is_busy_error
from ..ledger.registry import Segment
from ..ledger.sql import engine_for as engine_for
from .stats import FaceCount

if TYPE_CHECKING:
    from eventsourcing.persistence import Notification

    from ..ledger.events import LedgerEvent
    from ..ledger.service import Ledger

NAME = "roll_index"
"""This read model's row in `srl_tracking`."""
MODEL_VERSION = 3
"""Bump when the rows change shape or meaning: an index of another version is rebuilt."""
BATCH = 500
COLOURS = ("action", "opposition", "script", "other")
"""Showrunner's dice colours come first in `dice stats`; other rulesets' groups follow by name."""


def rolled_topics() -> tuple[str, ...]:
    """The topics of every registered ruleset's rolls."""
    from ..ledger.facts import branch_fact_types

    return tuple(sorted(t for t, cls in branch_fact_types().items() if issubclass(cls, RolledFact)))


metadata = sa.MetaData()

roll_dice = sa.Table(
    "srl_roll_dice",
    metadata,
    sa.Column("notification_id", sa.BigInteger, primary_key=True, autoincrement=False),
    # The die's place among all the dice of its event, from 0.
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("stream_id", sa.Uuid, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("campaign_id", sa.Uuid, nullable=False),
    # The fact's type, e.g. CheckRolled, or CheckAbandoned (the dice were seen, so they count).
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("visibility", sa.String(16), nullable=False),
    sa.Column("recorded_by", sa.String(200), nullable=False),
    sa.Column("roll_number", sa.Integer, nullable=False),
    sa.Column("star", sa.String(200), nullable=False),
    # Which roll of the check (its index in the event's rolls) the die belongs to.
    sa.Column("roll_seq", sa.Integer, nullable=False),
    sa.Column("purpose", sa.String(32), nullable=False),
    sa.Column("colour", sa.String(16), nullable=False),
    sa.Column("sides", sa.Integer, nullable=False),
    sa.Column("face", sa.Integer, nullable=False),
    sa.Column("source", sa.String(16), nullable=False),
    sa.Index("srl_roll_dice_stream_version", "stream_id", "version"),
)

tracking = sa.Table(
    "srl_tracking",
    metadata,
    sa.Column("projection", sa.String(64), primary_key=True),
    # The last notification id this read model has processed (0: none yet).
    sa.Column("position", sa.BigInteger, nullable=False),
    sa.Column("model_version", sa.Integer, nullable=False),
)


# ---------------------------------------------------------------------- rows


class DiceRow(TypedDict):
    """One row of `srl_roll_dice`."""

    notification_id: int
    seq: int
    stream_id: UUID
    version: int
    campaign_id: UUID
    kind: str
    visibility: Visibility
    recorded_by: str
    roll_number: int
    star: str
    roll_seq: int
    purpose: str
    colour: str
    sides: int
    face: int
    source: str


def dice_rows(notification_id: int, event: LedgerEvent) -> list[DiceRow]:
    """The roll index rows of one decoded event; none for other facts, and none for a roll
    replayed from another event (`what-if`, `branch replay`): its faces are that event's dice,
    counted where they were rolled, not new dice."""
    fact = event.fact
    if not isinstance(fact, RolledFact) or fact.replayed_from is not None:
        return []
    kind, star = type(fact).__name__, fact.roller()
    rows: list[DiceRow] = []
    for roll_seq, roll in enumerate(fact.recorded_rolls()):
        for face in roll.faces:
            rows.append(
                {
                    "notification_id": notification_id,
                    "seq": len(rows),
                    "stream_id": event.originator_id,
                    "version": event.originator_version,
                    "campaign_id": event.campaign_id,
                    "kind": kind,
                    "visibility": event.visibility,
                    "recorded_by": event.recorded_by,
                    "roll_number": fact.roll_number,
                    "star": star,
                    "roll_seq": roll_seq,
                    "purpose": roll.purpose,
                    "colour": fact.dice_colour(roll.purpose),
                    "sides": roll.sides,
                    "face": face,
                    "source": roll.source,
                }
            )
    return rows


# ---------------------------------------------------------------------- catching up


@dataclass(frozen=True)
class CatchUp:
    """What one catch-up did."""

    start: int
    """The tracked position before it."""
    position: int
    """The tracked position after it: every notification up to this id is in the index."""
    events: int
    """Check events indexed by this catch-up."""
    dice: int
    """Dice rows written by this catch-up."""
    batches: int


class _PositionMoved(Exception):
    """Another process advanced (or reset) the tracking position first."""


Progress = Callable[[int, int], None]
"""progress(done, total), both in notification ids past the starting position."""


def catch_up(
    ledger: Ledger, engine: sa.Engine, *, batch_size: int = BATCH, progress: Progress | None = None
) -> CatchUp:
    """Bring the roll index up to the last notification recorded when the call starts."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    recorder = ledger.app.recorder
    mapper = ledger.app.mapper
    with _database_errors():
        position = ensure_tables(engine)
        start = position
        stop = recorder.max_notification_id() or 0
        events = dice = batches = 0
        while position < stop:
            notifications: Sequence[Notification] = recorder.select_notifications(
                position, batch_size, stop=stop, topics=rolled_topics(), inclusive_of_start=False
            )
            rows: list[DiceRow] = []
            for notification in notifications:
                rows.extend(dice_rows(notification.id, mapper.to_domain_event(notification)))
            # A short batch is everything matching up to `stop`: the events between the
            # last check and `stop` need no rows, so the position jumps to `stop`.
            new_position = notifications[-1].id if len(notifications) == batch_size else stop
            try:
                with engine.begin() as conn:
                    _write_batch(conn, position, new_position, rows)
            except _PositionMoved:
                position = ensure_tables(engine)  # resume after whoever moved it
                continue
            batches += 1
            events += len(notifications)
            dice += len(rows)
            position = new_position
            if progress is not None:
                progress(position - start, stop - start)
        return CatchUp(start, position, events, dice, batches)


def _write_batch(conn: sa.Connection, old: int, new: int, rows: list[DiceRow]) -> None:
    """One batch, inside the caller's transaction: move the position first, then the rows.

    Moving the position first takes the write lock at once (a SQLite transaction that
    read first and wrote later could fail busy at once), and a compare-and-set makes a
    concurrent catch-up that already wrote this batch roll this one back.
    """
    moved = conn.execute(
        sa.update(tracking).where(tracking.c.projection == NAME, tracking.c.position == old).values(position=new)
    )
    if moved.rowcount != 1:
        raise _PositionMoved
    if rows:
        conn.execute(sa.insert(roll_dice), rows)


_ATTEMPTS = 8


def ensure_tables(engine: sa.Engine) -> int:
    """Create the tables and the tracking row if missing; return the tracked position.

    An index written by another MODEL_VERSION is dropped and started again from zero.
    """
    for attempt in range(_ATTEMPTS):
        if attempt:
            time.sleep(random.uniform(0.005, 0.05) * attempt)
        try:
            with engine.begin() as conn:
                metadata.create_all(conn, checkfirst=True)
                row = conn.execute(
                    sa.select(tracking.c.position, tracking.c.model_version).where(tracking.c.projection == NAME)
                ).first()
                if row is None:
                    # The insert first: if another process got there first, it fails before
                    # the delete could touch that process's rows. No position means nothing
                    # counted: rows left without one (the tracking row deleted by hand)
                    # would be counted twice, so they go.
                    conn.execute(sa.insert(tracking).values(projection=NAME, position=0, model_version=MODEL_VERSION))
                    conn.execute(sa.delete(roll_dice))
                    return 0
                if row.model_version != MODEL_VERSION:
                    roll_dice.drop(conn, checkfirst=True)
                    roll_dice.create(conn)
                    conn.execute(
                        sa.update(tracking)
                        .where(tracking.c.projection == NAME)
                        .values(position=0, model_version=MODEL_VERSION)
                    )
                    return 0
                return int(row.position)
        except (sa_exc.IntegrityError, sa_exc.ProgrammingError, sa_exc.OperationalError) as e:
            # Two processes created the tables, or the tracking row, at the same moment
            # (or SQLite saw the other's write between our read and our write): the other
            # one won, so look again.
            lost_race = is_busy_error(e) or "already exists" in str(e.orig).lower()
            if attempt == _ATTEMPTS - 1 or (isinstance(e, sa_exc.OperationalError) and not lost_race):
                raise
    raise AssertionError("unreachable")


def backlog(ledger: Ledger, engine: sa.Engine) -> int:
    """How far behind the log the index is, in notification ids (an upper bound on the work)."""
    head = ledger.app.recorder.max_notification_id() or 0
    return max(0, head - (position(engine) or 0))


def position(engine: sa.Engine) -> int | None:
    """The tracked position, or None when the roll index does not exist (yet, or after a drop)."""
    with _database_errors(), engine.connect() as conn:
        if not _has_table(conn, tracking):
            return None
        value = conn.execute(sa.select(tracking.c.position).where(tracking.c.projection == NAME)).scalar()
        return None if value is None else int(value)


def check(ledger: Ledger, engine: sa.Engine) -> str | None:
    """The roll index against the log: exactly the rows the events give, up to its tracked position.

    `dice stats` reads its counts from here, so an edited row would change what it shows;
    `verify` recomputes the rows and names the first that differs. None when it holds (or
    when there is no index: then nothing is read from it).
    """
    at = position(engine)
    if at is None:
        return None
    recorder, mapper = ledger.app.recorder, ledger.app.mapper
    head = recorder.max_notification_id() or 0
    if at > head:
        return (
            f"the roll index (dice stats) claims the log up to notification {at}, but the log ends at {head}: "
            "it was changed outside the ledger; `showrunner dice stats --rebuild` rebuilds it"
        )
    columns = [c.name for c in roll_dice.columns]
    expected: list[tuple[object, ...]] = []
    done = 0
    while done < at:
        batch = recorder.select_notifications(done, BATCH, stop=at, topics=rolled_topics(), inclusive_of_start=False)
        for notification in batch:
            expected += [
                _row_key(row, columns) for row in dice_rows(notification.id, mapper.to_domain_event(notification))
            ]
        if len(batch) < BATCH:
            break
        done = batch[-1].id
    with _database_errors(), engine.connect() as conn:
        query = sa.select(roll_dice).order_by(roll_dice.c.notification_id, roll_dice.c.seq)
        actual = [_row_key(dict(row._mapping), columns) for row in conn.execute(query)]
    if actual == expected:
        return None
    first = next(
        (i for i, (a, e) in enumerate(zip(actual, expected, strict=False)) if a != e), min(len(actual), len(expected))
    )
    where = (actual[first] if first < len(actual) else expected[first])[0]
    return (
        f"the roll index (dice stats) differs from the log at notification {where}: it was changed outside "
        "the ledger; `showrunner dice stats --rebuild` rebuilds it"
    )


def _row_key(row: Mapping[str, object], columns: list[str]) -> tuple[object, ...]:
    # The backends hand back ids as UUID or as text: compare them as text.
    return tuple(str(row[c]) if c.endswith("_id") and c != "notification_id" else row[c] for c in columns)


def _has_table(conn: sa.Connection, table: sa.Table) -> bool:
    # The inspector ignores schema_translate_map: name the ledger's schema to it.
    schema = conn.get_execution_options().get("schema_translate_map", {}).get(None)
    return sa.inspect(conn).has_table(table.name, schema=schema)


def drop(engine: sa.Engine) -> None:
    """Forget the roll index: its rows and its tracking row (other read models keep theirs)."""
    with _database_errors(), engine.begin() as conn:
        roll_dice.drop(conn, checkfirst=True)
        if _has_table(conn, tracking):
            conn.execute(sa.delete(tracking).where(tracking.c.projection == NAME))


def rebuild(ledger: Ledger, engine: sa.Engine, *, batch_size: int = BATCH, progress: Progress | None = None) -> CatchUp:
    """Drop the roll index and catch up again from the first notification."""
    drop(engine)
    return catch_up(ledger, engine, batch_size=batch_size, progress=progress)


@contextmanager
def _database_errors() -> Iterator[None]:
    """Database trouble as the ledger's errors: busy (exit 75) or refused, never a traceback."""
    try:
        yield
    except sa_exc.DBAPIError as error:
        if is_busy_error(error):
            raise LedgerBusy("the database is busy (another writer held it past the lock timeout); try again") from None
        text = str(error.orig).strip()
        first = text.splitlines()[0] if text else type(error.orig).__name__
        raise LedgerError(f"the roll index could not be updated: {first}") from None


# ---------------------------------------------------------------------- reading


def _in_lineage(segments: Iterable[Segment]) -> sa.ColumnElement[bool] | None:
    """Rows whose (stream id, version) fall in one of the segments of a branch's lineage."""
    clauses = [
        sa.and_(
            roll_dice.c.stream_id == segment.branch_id,
            roll_dice.c.version > segment.after,
            *([] if segment.upto is None else [roll_dice.c.version <= segment.upto]),
        )
        for segment in segments
    ]
    return sa.or_(*clauses) if clauses else None


def face_counts(
    engine: sa.Engine,
    segments: Iterable[Segment],
    *,
    director: bool = True,
    source: str | None = None,
    colour: str | None = None,
) -> list[FaceCount]:
    """Counts of faces on one branch's lineage, by colour, Star, source, die size and face.

    A branch's lineage is its parent's events up to the fork point, then its own: rows
    are kept when their (stream id, version) lie in one of its segments. A Star
    (director=False) sees only the dice of public events.
    """
    where = _in_lineage(segments)
    if where is None:
        return []
    if not director:
        where = sa.and_(where, roll_dice.c.visibility == "public")
    if source is not None:
        where = sa.and_(where, roll_dice.c.source == source)
    if colour is not None:
        where = sa.and_(where, roll_dice.c.colour == colour)
    keys = (roll_dice.c.colour, roll_dice.c.star, roll_dice.c.source, roll_dice.c.sides, roll_dice.c.face)
    query = sa.select(*keys, sa.func.count().label("count")).where(where).group_by(*keys)
    with _database_errors(), engine.connect() as conn:
        return [
            FaceCount(colour, star, source, sides, face, int(count))
            for colour, star, source, sides, face, count in conn.execute(query)
        ]
