"""The Director's seeds in the ledger database, sealed with AES-256-GCM, for several machines.

Every server process given the key encryption key (SHOWRUNNER_KEY_ENCRYPTION_KEY: 32
random bytes in base64, read from the environment only, never from config.toml or the
database) can roll ledger dice; the database alone, or a dump of it, opens no seed.

One row per seed: campaign, position (oldest first), the seed's public commitment, the
id of the key that sealed it, a fresh 96-bit nonce, and the ciphertext with its tag. The
associated data binds a ciphertext to its campaign, position and commitment, so a row
copied onto another campaign is refused as an edited one is. `rotate` re-seals every
row under a new key in one transaction.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, IntegrityError
from eventsourcing.sqlite import SQLiteAggregateRecorder

from .errors import LedgerError, SettingsError
from .persistence import INIT_LOCK_KEY, database_recorder
from .seeds import FileKeyStore, commitment

TABLE = "showrunnerledger_dice_keys"
KEY_ENV = "SHOWRUNNER_KEY_ENCRYPTION_KEY"
OLD_KEY_ENV = "SHOWRUNNER_KEY_ENCRYPTION_KEY_OLD"
_AAD_TAG = b"showrunner-ledger/dice-key/v1\x00"
_KEY_ID_TAG = b"showrunner-ledger/key-id/v1\x00"
_NEW_KEY = "make one with: openssl rand -base64 32"


def parse_key(text: str | None, name: str = KEY_ENV) -> bytes:
    if not text:
        raise SettingsError(f"the database key store needs {name} (32 random bytes in base64; {_NEW_KEY})")
    try:
        key = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise SettingsError(f"{name} is not base64; {_NEW_KEY}") from None
    if len(key) != 32:
        raise SettingsError(f"{name} must be 32 bytes in base64 (it holds {len(key)}); {_NEW_KEY}")
    return key


def key_id(key: bytes) -> str:
    """A name for a key that reveals nothing of it: which key sealed a row, for error messages."""
    return hashlib.sha256(_KEY_ID_TAG + key).hexdigest()[:16]


def _aad(campaign_id: str, position: int, committed: str) -> bytes:
    return _AAD_TAG + f"{campaign_id}/{position}/{committed}".encode()


class _Sealer:
    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self.id = key_id(key)
        self._aead = AESGCM(key)

    def seal(self, campaign_id: str, position: int, seed: bytes) -> tuple[str, str, bytes, bytes]:
        committed = commitment(seed)
        nonce = os.urandom(12)
        return committed, self.id, nonce, self._aead.encrypt(nonce, seed, _aad(campaign_id, position, committed))

    def open(self, row: Any) -> bytes:
        from cryptography.exceptions import InvalidTag

        campaign, position = row["campaign_id"], int(row["position"])
        if row["key_id"] != self.id:
            raise LedgerError(
                f"the dice seeds in the database were sealed with another key (key id {row['key_id']}) than "
                f"{KEY_ENV} (key id {self.id}): set the key they were sealed with, or re-seal them with "
                "showrunner keys rotate"
            )
        try:
            seed = self._aead.decrypt(
                bytes(row["nonce"]), bytes(row["sealed"]), _aad(campaign, position, row["commitment"])
            )
        except InvalidTag:
            seed = None
        if seed is None or commitment(seed) != row["commitment"]:
            raise LedgerError(
                f"the sealed dice seed {position} of campaign {campaign} does not open: it was changed in the "
                "database; restore the key table from a backup"
            )
        return seed


class _Table:
    """The key table on either backend: its quoted name, its parameter mark, its transactions."""

    def __init__(self, recorder: AggregateRecorder) -> None:
        database = database_recorder(recorder)
        datastore: Any = database.datastore
        self.datastore = datastore
        self.sqlite = isinstance(database, SQLiteAggregateRecorder)
        self.name = TABLE if self.sqlite else f'"{datastore.schema or "public"}"."{TABLE}"'
        self._made = False

    def sql(self, statement: str) -> str:
        """`statement` with {t} for the table and ? for parameters."""
        text = statement.replace("{t}", self.name)
        return text if self.sqlite else text.replace("?", "%s")

    def transaction(self) -> Any:
        if not self._made:
            self._make()
        return self.datastore.transaction(commit=True)

    def _make(self) -> None:
        blob = "BLOB" if self.sqlite else "bytea"
        create = self.sql(
            "CREATE TABLE IF NOT EXISTS {t} (campaign_id text NOT NULL, position integer NOT NULL, "
            f"commitment text NOT NULL, key_id text NOT NULL, nonce {blob} NOT NULL, sealed {blob} NOT NULL, "
            "PRIMARY KEY (campaign_id, position))"
        )
        with self.datastore.transaction(commit=True) as cursor:
            if not self.sqlite:
                cursor.execute("SELECT to_regclass(%s) IS NOT NULL AS made", (self.name,))
                if cursor.fetchone()["made"]:
                    self._made = True
                    return
                # PostgreSQL races concurrent CREATE TABLE IF NOT EXISTS: one creator at a time.
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (INIT_LOCK_KEY,))
            cursor.execute(create)
        self._made = True


class DatabaseKeyStore:
    """The `KeyStore` of a server farm: seeds sealed in a table of the ledger database."""

    def __init__(self, recorder: AggregateRecorder, key: str | None) -> None:
        self._table = _Table(recorder)
        self._key_text = key
        self._sealer: _Sealer | None = None

    @property
    def sealer(self) -> _Sealer:
        if self._sealer is None:
            self._sealer = _Sealer(parse_key(self._key_text))
        return self._sealer

    def where(self, campaign_id: UUID) -> str:
        return f"the ledger database, table {TABLE} (sealed)"

    def holds(self, campaign_id: UUID) -> bool:
        """Only a process given the key can roll ledger dice, whatever the table holds."""
        if not self._key_text:
            return False
        with self._table.transaction() as cursor:
            cursor.execute(self._table.sql("SELECT 1 FROM {t} WHERE campaign_id = ? LIMIT 1"), (str(campaign_id),))
            return cursor.fetchone() is not None

    def save(self, campaign_id: UUID, seed: bytes) -> None:
        try:
            with self._table.transaction() as cursor:
                self._insert(cursor, str(campaign_id), 0, seed)
        except IntegrityError:
            raise LedgerError(f"campaign {campaign_id} already has a dice seed in the key table") from None

    def add(self, campaign_id: UUID, seed: bytes) -> None:
        self.load(campaign_id)  # the campaign must have its seeds, and they must open with this key
        for _ in range(5):  # two branches created at once take the same next position: one tries again
            try:
                with self._table.transaction() as cursor:
                    cursor.execute(
                        self._table.sql("SELECT MAX(position) AS last FROM {t} WHERE campaign_id = ?"),
                        (str(campaign_id),),
                    )
                    self._insert(cursor, str(campaign_id), int(cursor.fetchone()["last"]) + 1, seed)
                return
            except IntegrityError:
                continue
        raise LedgerError(f"the key table of campaign {campaign_id} kept changing; try again")

    def load(self, campaign_id: UUID, committed: str | None = None) -> bytes:
        sealer = self.sealer
        query = "SELECT * FROM {t} WHERE campaign_id = ?"
        params: tuple[str, ...] = (str(campaign_id),)
        if committed is not None:
            query, params = query + " AND commitment = ?", (*params, committed)
        with self._table.transaction() as cursor:
            cursor.execute(self._table.sql(query + " ORDER BY position LIMIT 1"), params)
            row = cursor.fetchone()
        if row is None:
            if committed is not None and self.holds(campaign_id):
                raise LedgerError(f"the key table holds no seed for the commitment {committed[:12]}…")
            raise LedgerError(
                f"the key table holds no dice seed for campaign {campaign_id}: ledger dice need the Director's "
                "seeds; roll physical dice and type the faces in instead"
            )
        return sealer.open(row)

    def discard(self, campaign_id: UUID) -> None:
        with self._table.transaction() as cursor:
            cursor.execute(self._table.sql("DELETE FROM {t} WHERE campaign_id = ?"), (str(campaign_id),))

    def _insert(self, cursor: Any, campaign: str, position: int, seed: bytes) -> None:
        committed, sealed_by, nonce, sealed = self.sealer.seal(campaign, position, seed)
        cursor.execute(
            self._table.sql(
                "INSERT INTO {t} (campaign_id, position, commitment, key_id, nonce, sealed) VALUES (?, ?, ?, ?, ?, ?)"
            ),
            (campaign, position, committed, sealed_by, nonce, sealed),
        )

    def rotate(self, old_key: str | None) -> tuple[int, int]:
        """Re-seal every seed sealed with `old_key` under this store's key, all or none.

        Rows already under the new key are left as they are, so a rotation can be run again.
        Returns (seeds re-sealed, campaigns)."""
        old, new = _Sealer(parse_key(old_key, OLD_KEY_ENV)), self.sealer
        lock = "" if self._table.sqlite else " FOR UPDATE"
        resealed, campaigns = 0, set()
        with self._table.transaction() as cursor:
            cursor.execute(self._table.sql("SELECT * FROM {t} ORDER BY campaign_id, position" + lock))
            for row in cursor.fetchall():
                if row["key_id"] == new.id:
                    continue
                seed = old.open(row)
                committed, sealed_by, nonce, sealed = new.seal(row["campaign_id"], int(row["position"]), seed)
                cursor.execute(
                    self._table.sql(
                        "UPDATE {t} SET key_id = ?, nonce = ?, sealed = ? WHERE campaign_id = ? AND position = ?"
                    ),
                    (sealed_by, nonce, sealed, row["campaign_id"], row["position"]),
                )
                resealed += 1
                campaigns.add(row["campaign_id"])
        return resealed, len(campaigns)

    def take_in(self, files: FileKeyStore, campaigns: Iterable[UUID]) -> tuple[int, int]:
        """Copy the key files' seeds into the table, all or none; files already copied are skipped.

        Returns (campaigns copied, campaigns already here with the same seeds)."""
        copied = same = 0
        with self._table.transaction() as cursor:
            for campaign_id in campaigns:
                seeds = files.seeds(campaign_id)
                cursor.execute(
                    self._table.sql("SELECT * FROM {t} WHERE campaign_id = ? ORDER BY position"), (str(campaign_id),)
                )
                here = [self.sealer.open(row) for row in cursor.fetchall()]
                if here == seeds:
                    same += 1
                    continue
                if here:
                    raise LedgerError(
                        f"campaign {campaign_id} has other seeds in the key table than in {files.where(campaign_id)}; "
                        "nothing was copied"
                    )
                for position, seed in enumerate(seeds):
                    self._insert(cursor, str(campaign_id), position, seed)
                copied += 1
        return copied, same
