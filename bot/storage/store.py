"""The store: the connection, opening and migrating the file, transactions, and one-transaction shortcuts."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from .checkpoints import CheckpointsTx
from .errors import SchemaError, StorageError
from .games import GamesTx
from .imports import ImportsTx
from .log import ActionLogTx
from .members import MembersTx
from .outbox import OutboxTx
from .players import PlayersTx
from .rows import (
    ActionRow,
    CheckpointRow,
    GameRow,
    ImageMode,
    MemberRow,
    OutboxRow,
    PendingImportRow,
    PlayerRow,
    ReminderRow,
    SeatedGame,
    Status,
    TurnMessageRow,
)
from .schema import MIGRATIONS, SCHEMA_VERSION
from .turn_messages import TurnMessagesTx

# The transaction open in the current context. Tasks started inside a transaction inherit it, so they too get an
# error rather than a deadlock if they call the Store while it is still open.
_CURRENT_TX: ContextVar[Transaction | None] = ContextVar("stationmaster_storage_tx", default=None)


class Transaction(GamesTx, PlayersTx, ImportsTx, ActionLogTx, CheckpointsTx, MembersTx, TurnMessagesTx, OutboxTx):
    """Operations inside one open transaction; obtained from `Store.transaction()`, unusable after it ends."""


class Store:
    """The bot's database. Open with `await Store.open(path)`; every method is one committed transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed) the database file and bring its schema up to date."""
        if sqlite3.sqlite_version_info < (3, 35, 0):
            raise SchemaError(f"SQLite {sqlite3.sqlite_version} is too old; 3.35 or newer is needed (RETURNING)")
        # isolation_level=None: sqlite3 must not open transactions behind our back; we issue BEGIN/COMMIT ourselves.
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute("PRAGMA foreign_keys = ON")
            # Two processes on one file (a backup, a CLI) wait for each other instead of failing at once.
            await conn.execute("PRAGMA busy_timeout = 5000")
            mode_row = await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone()
            mode = str(mode_row[0]).lower() if mode_row else ""
            if mode not in ("wal", "memory"):
                raise SchemaError(f"could not switch {path} to WAL journal mode (got {mode!r})")
            # In WAL mode NORMAL could lose the last commits on power loss; an acknowledged action must survive.
            await conn.execute("PRAGMA synchronous = FULL")
            store = cls(conn)
            await store._migrate()
        except BaseException:
            await conn.close()
            raise
        return store

    async def _migrate(self) -> None:
        async with self.transaction() as tx:
            await tx._exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = await tx._one("SELECT MAX(version) FROM schema_version")
            version = 0 if row is None or row[0] is None else int(row[0])
            if version == 0:
                await tx._exec("DELETE FROM schema_version")
                await tx._exec("INSERT INTO schema_version (version) VALUES (0)")
        if version > SCHEMA_VERSION:
            raise SchemaError(
                f"the database is at schema version {version} but this code knows only up to {SCHEMA_VERSION}; "
                "upgrade Stationmaster"
            )
        # One transaction per migration: a failure leaves the file at the last complete version.
        for number in range(version + 1, SCHEMA_VERSION + 1):
            async with self.transaction() as tx:
                for statement in MIGRATIONS[number - 1]:
                    await tx._exec(statement)
                await tx._exec("UPDATE schema_version SET version = ?", (number,))

    async def schema_version(self) -> int:
        async with self.transaction(write=False) as tx:
            row = await tx._one("SELECT version FROM schema_version")
        assert row is not None
        return int(row[0])

    async def close(self) -> None:
        """Close the connection after any running transaction; calling it twice is harmless."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._conn.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _raw(self, sql: str) -> None:
        cursor = await self._conn.execute(sql)
        await cursor.close()

    @asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[Transaction]:
        """One atomic unit of work: COMMIT when the block exits normally, ROLLBACK when it raises.

        Transactions are serialised; keep the block short (no network calls inside). Inside the block use the
        `tx` methods: a Store method called from inside the block (or from a task started in it) would wait for
        the block itself, so it raises instead of deadlocking."""
        current = _CURRENT_TX.get()
        if current is not None and current._open and current._owner is self:
            raise StorageError("a transaction of this store is already open here; use its tx object")
        async with self._lock:
            if self._closed:
                raise StorageError("the store is closed")
            tx = Transaction(self._conn, owner=self)
            token = _CURRENT_TX.set(tx)
            try:
                # IMMEDIATE takes the write lock up front, so a writer never fails half-way on a lock upgrade.
                await self._raw("BEGIN IMMEDIATE" if write else "BEGIN")
                yield tx
                tx._open = False
                await self._raw("COMMIT")
            except BaseException:
                tx._open = False
                # Unconditional: after a cancellation our BEGIN may still be queued in aiosqlite's thread, and the
                # queue is FIFO, so this ROLLBACK runs after it (a no-op when no transaction is open). Shielded so
                # that a second cancellation cannot drop it.
                await asyncio.shield(self._conn.rollback())
                raise
            finally:
                tx._open = False
                _CURRENT_TX.reset(token)

    # -- one-transaction shortcuts (see Transaction for the documentation) -------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        title: str,
        options: Mapping[str, Any],
        seed: int,
        creator_id: int,
        now: float,
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        async with self.transaction() as tx:
            return await tx.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                title=title,
                options=options,
                seed=seed,
                creator_id=creator_id,
                now=now,
                settings=settings,
            )

    async def game(self, game_id: int) -> GameRow | None:
        async with self.transaction(write=False) as tx:
            return await tx.game(game_id)

    async def active_game(self, channel_id: int) -> GameRow | None:
        async with self.transaction(write=False) as tx:
            return await tx.active_game(channel_id)

    async def finished_games(self, channel_id: int, limit: int = 10) -> list[GameRow]:
        async with self.transaction(write=False) as tx:
            return await tx.finished_games(channel_id, limit)

    async def active_games(self) -> list[GameRow]:
        async with self.transaction(write=False) as tx:
            return await tx.active_games()

    async def set_status(
        self, game_id: int, status: Status, now: float, result: Mapping[str, Any] | None = None
    ) -> None:
        async with self.transaction() as tx:
            await tx.set_status(game_id, status, now, result)

    async def update_settings(
        self,
        game_id: int,
        now: float,
        *,
        reminder_interval: int | None = None,
        image_mode: ImageMode | None = None,
        stall_after: int | None = None,
        language: str | None = None,
    ) -> None:
        async with self.transaction() as tx:
            await tx.update_settings(game_id, now, reminder_interval=reminder_interval, image_mode=image_mode,
                                     stall_after=stall_after, language=language)

    async def players(self, game_id: int) -> list[PlayerRow]:
        async with self.transaction(write=False) as tx:
            return await tx.players(game_id)

    async def add_player(self, game_id: int, user_id: int, name: str) -> PlayerRow:
        async with self.transaction() as tx:
            return await tx.add_player(game_id, user_id, name)

    async def remove_player(self, game_id: int, user_id: int) -> None:
        async with self.transaction() as tx:
            await tx.remove_player(game_id, user_id)

    async def set_seat_order(self, game_id: int, user_ids: Sequence[int]) -> None:
        async with self.transaction() as tx:
            await tx.set_seat_order(game_id, user_ids)

    async def replace_player(
        self, game_id: int, old_user_id: int, new_user_id: int, new_name: str | None = None
    ) -> PlayerRow:
        async with self.transaction() as tx:
            return await tx.replace_player(game_id, old_user_id, new_user_id, new_name)

    async def set_dm_reminders(self, game_id: int, user_id: int, on: bool) -> None:
        async with self.transaction() as tx:
            await tx.set_dm_reminders(game_id, user_id, on)

    async def save_pending_import(
        self, game_id: int, seats: Sequence[str], actions: Sequence[Mapping[str, Any]], now: float
    ) -> None:
        async with self.transaction() as tx:
            await tx.save_pending_import(game_id, seats, actions, now)

    async def pending_import(self, game_id: int) -> PendingImportRow | None:
        async with self.transaction(write=False) as tx:
            return await tx.pending_import(game_id)

    async def append_action(self, game_id: int, action: Mapping[str, Any], user_id: int | None, now: float) -> int:
        async with self.transaction() as tx:
            return await tx.append_action(game_id, action, user_id, now)

    async def actions(self, game_id: int) -> list[ActionRow]:
        async with self.transaction(write=False) as tx:
            return await tx.actions(game_id)

    async def history(self, game_id: int) -> list[ActionRow]:
        async with self.transaction(write=False) as tx:
            return await tx.history(game_id)

    async def undo_to(self, game_id: int, keep: int, now: float) -> int:
        async with self.transaction() as tx:
            return await tx.undo_to(game_id, keep, now)

    async def redo(self, game_id: int, now: float) -> ActionRow | None:
        async with self.transaction() as tx:
            return await tx.redo(game_id, now)

    async def save_checkpoint(
        self, game_id: int, actions: int, last_seq: int, engine: str, state: bytes, now: float
    ) -> None:
        async with self.transaction() as tx:
            await tx.save_checkpoint(game_id, actions, last_seq, engine, state, now)

    async def checkpoint(self, game_id: int, at_most: int) -> CheckpointRow | None:
        async with self.transaction(write=False) as tx:
            return await tx.checkpoint(game_id, at_most)

    async def drop_checkpoints(self, game_id: int, from_actions: int = 0) -> int:
        async with self.transaction() as tx:
            return await tx.drop_checkpoints(game_id, from_actions)

    async def set_reminder(
        self, game_id: int, user_id: int | None, due: float | None, since: float | None = None
    ) -> None:
        async with self.transaction() as tx:
            await tx.set_reminder(game_id, user_id, due, since)

    async def reminder(self, game_id: int) -> ReminderRow | None:
        async with self.transaction(write=False) as tx:
            return await tx.reminder(game_id)

    async def due_reminders(self, now: float, limit: int = 100) -> list[ReminderRow]:
        async with self.transaction(write=False) as tx:
            return await tx.due_reminders(now, limit)

    async def mark_reminded(
        self, game_id: int, now: float, next_due: float | None, *, seen: ReminderRow | None = None
    ) -> bool:
        async with self.transaction() as tx:
            return await tx.mark_reminded(game_id, now, next_due, seen=seen)

    async def queue_outbox(self, channel_id: int, game_id: int | None, payload: Mapping[str, Any], now: float) -> int:
        async with self.transaction() as tx:
            return await tx.queue_outbox(channel_id, game_id, payload, now)

    async def outbox(self, limit: int = 100) -> list[OutboxRow]:
        async with self.transaction(write=False) as tx:
            return await tx.outbox(limit)

    async def outbox_sent(self, message_id: int) -> None:
        async with self.transaction() as tx:
            await tx.outbox_sent(message_id)

    async def outbox_failed(self, message_id: int) -> None:
        async with self.transaction() as tx:
            await tx.outbox_failed(message_id)

    async def postpone_reminder(self, game_id: int, user_id: int, by: float) -> float | None:
        async with self.transaction() as tx:
            return await tx.postpone_reminder(game_id, user_id, by)

    async def defer_reminder(self, game_id: int, due: float, *, seen: ReminderRow) -> bool:
        async with self.transaction() as tx:
            return await tx.defer_reminder(game_id, due, seen=seen)

    async def mark_stall_noticed(self, game_id: int, now: float) -> bool:
        async with self.transaction() as tx:
            return await tx.mark_stall_noticed(game_id, now)

    async def member(self, user_id: int) -> MemberRow | None:
        async with self.transaction(write=False) as tx:
            return await tx.member(user_id)

    async def set_member(self, user_id: int, now: float, **changes: Any) -> MemberRow:
        async with self.transaction() as tx:
            return await tx.set_member(user_id, now, **changes)

    async def remember_locale(self, user_id: int, locale: str, now: float) -> None:
        async with self.transaction() as tx:
            await tx.remember_locale(user_id, locale, now)

    async def members(self, user_ids: Sequence[int]) -> list[MemberRow]:
        async with self.transaction(write=False) as tx:
            return await tx.members(user_ids)

    async def seated_games(self, user_id: int) -> list[SeatedGame]:
        async with self.transaction(write=False) as tx:
            return await tx.seated_games(user_id)

    async def turn_message(self, game_id: int) -> TurnMessageRow | None:
        async with self.transaction(write=False) as tx:
            return await tx.turn_message(game_id)

    async def set_turn_message(self, game_id: int, channel_id: int, message_id: int | None, now: float) -> None:
        async with self.transaction() as tx:
            await tx.set_turn_message(game_id, channel_id, message_id, now)
