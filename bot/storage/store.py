"""The store: the connection, opening and migrating the file, transactions, and one-transaction shortcuts."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiosqlite

from .checkpoints import CheckpointsTx
from .errors import SchemaError, StorageError
from .games import GamesTx
from .imports import ImportsTx
from .log import ActionLogTx
from .members import MembersTx
from .outbox import OutboxTx
from .players import PlayersTx
from .schema import MIGRATIONS, SCHEMA_VERSION
from .turn_messages import TurnMessagesTx

# The transaction open in the current context. Tasks started inside a transaction inherit it, so they too get an
# error rather than a deadlock if they call the Store while it is still open.
P = ParamSpec("P")
R = TypeVar("R")

_CURRENT_TX: ContextVar[Transaction | None] = ContextVar("stationmaster_storage_tx", default=None)


class Transaction(GamesTx, PlayersTx, ImportsTx, ActionLogTx, CheckpointsTx, MembersTx, TurnMessagesTx, OutboxTx):
    """Operations inside one open transaction; obtained from `Store.transaction()`, unusable after it ends."""


def _one_transaction(method: Callable[Concatenate[Transaction, P], Awaitable[R]], *,
                     write: bool = True) -> Callable[Concatenate[Store, P], Coroutine[Any, Any, R]]:
    """A Store shortcut: ``method`` of a Transaction (documented there), run in a transaction of its own."""

    async def shortcut(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self.transaction(write=write) as tx:
            return await method(tx, *args, **kwargs)

    functools.update_wrapper(shortcut, method)
    return shortcut


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

    # -- one-transaction shortcuts: each is the Transaction method of its name, in a transaction of its own ---

    create_game = _one_transaction(Transaction.create_game)
    game = _one_transaction(Transaction.game, write=False)
    active_game = _one_transaction(Transaction.active_game, write=False)
    finished_games = _one_transaction(Transaction.finished_games, write=False)
    active_games = _one_transaction(Transaction.active_games, write=False)
    set_status = _one_transaction(Transaction.set_status)
    update_settings = _one_transaction(Transaction.update_settings)
    players = _one_transaction(Transaction.players, write=False)
    add_player = _one_transaction(Transaction.add_player)
    remove_player = _one_transaction(Transaction.remove_player)
    set_seat_order = _one_transaction(Transaction.set_seat_order)
    replace_player = _one_transaction(Transaction.replace_player)
    set_dm_reminders = _one_transaction(Transaction.set_dm_reminders)
    save_pending_import = _one_transaction(Transaction.save_pending_import)
    pending_import = _one_transaction(Transaction.pending_import, write=False)
    append_action = _one_transaction(Transaction.append_action)
    actions = _one_transaction(Transaction.actions, write=False)
    history = _one_transaction(Transaction.history, write=False)
    undo_to = _one_transaction(Transaction.undo_to)
    redo = _one_transaction(Transaction.redo)
    save_checkpoint = _one_transaction(Transaction.save_checkpoint)
    checkpoint = _one_transaction(Transaction.checkpoint, write=False)
    drop_checkpoints = _one_transaction(Transaction.drop_checkpoints)
    set_reminder = _one_transaction(Transaction.set_reminder)
    reminder = _one_transaction(Transaction.reminder, write=False)
    due_reminders = _one_transaction(Transaction.due_reminders, write=False)
    mark_reminded = _one_transaction(Transaction.mark_reminded)
    queue_outbox = _one_transaction(Transaction.queue_outbox)
    outbox = _one_transaction(Transaction.outbox, write=False)
    outbox_sent = _one_transaction(Transaction.outbox_sent)
    outbox_failed = _one_transaction(Transaction.outbox_failed)
    postpone_reminder = _one_transaction(Transaction.postpone_reminder)
    defer_reminder = _one_transaction(Transaction.defer_reminder)
    mark_stall_noticed = _one_transaction(Transaction.mark_stall_noticed)
    member = _one_transaction(Transaction.member, write=False)
    set_member = _one_transaction(Transaction.set_member)
    remember_locale = _one_transaction(Transaction.remember_locale)
    members = _one_transaction(Transaction.members, write=False)
    seated_games = _one_transaction(Transaction.seated_games, write=False)
    turn_message = _one_transaction(Transaction.turn_message, write=False)
    set_turn_message = _one_transaction(Transaction.set_turn_message)
