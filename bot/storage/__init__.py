"""Persistence of games, players, action logs and reminders on SQLite (aiosqlite).

A game is title + options + seed + seated players + an append-only action log; the engine state is the replay of
the live log, so this package never interprets actions (they are opaque JSON objects).

Design decisions:
- One connection per `Store`, guarded by an asyncio lock: every call, read or write, runs in its own transaction
  and only one transaction is open at a time. Sharing one connection without the lock would let a reader in one
  task see another task's uncommitted (possibly rolled back) rows.
- `async with store.transaction() as tx:` groups several operations atomically (append an action and move the
  reminder); the caller acknowledges only after the block has exited, i.e. after COMMIT.
- Undo never deletes: undone rows keep their data and are marked `undone`; redo restores them in order while
  nothing new has been appended. Appending turns the remaining undone rows into `discarded` (kept for audit).
- Time is always passed in (`now`, seconds), never read here, so tests and replays control it.
- SQL stays close to what PostgreSQL accepts (partial unique index, ON CONFLICT upsert, RETURNING, BIGINT ids,
  DOUBLE PRECISION times). The known SQLite-isms are the `?` placeholders, `INTEGER PRIMARY KEY` as auto id,
  `BEGIN IMMEDIATE` and the PRAGMAs in `Store.open`.

Modules: `store` (the connection, transactions, one-transaction shortcuts; `Transaction` gathers the parts below),
`schema` (migrations), `rows` (the records returned and their SQL columns), `errors`, `base` (running statements in
an open transaction), and one part of `Transaction` per table: `games`, `players` (seats), `imports` (pending
imports), `log` (the action log, undo, redo), `checkpoints`, `reminders`, `members`, `turn_messages`, `outbox`.
"""

from __future__ import annotations

from .errors import ChannelBusyError, ConflictError, NotFoundError, SchemaError, StorageError
from .rows import (
    DEFAULT_IMAGE_MODE,
    DEFAULT_LANGUAGE,
    DEFAULT_REMINDER_INTERVAL,
    DEFAULT_STALL_AFTER,
    IMAGE_MODES,
    LANGUAGE_CODES,
    MEMBER_PREFERENCES,
    OCCUPYING_STATUSES,
    REMINDER_VIAS,
    STATUSES,
    ActionRow,
    ActionState,
    CheckpointRow,
    GameRow,
    ImageMode,
    MemberRow,
    OutboxRow,
    PendingImportRow,
    PlayerRow,
    ReminderRow,
    ReminderVia,
    SeatedGame,
    Status,
    TurnMessageRow,
)
from .schema import MIGRATIONS, SCHEMA_VERSION
from .store import Store, Transaction

__all__ = [
    "ActionRow",
    "ActionState",
    "ChannelBusyError",
    "CheckpointRow",
    "ConflictError",
    "DEFAULT_IMAGE_MODE",
    "DEFAULT_LANGUAGE",
    "DEFAULT_REMINDER_INTERVAL",
    "DEFAULT_STALL_AFTER",
    "GameRow",
    "IMAGE_MODES",
    "ImageMode",
    "LANGUAGE_CODES",
    "MEMBER_PREFERENCES",
    "MIGRATIONS",
    "MemberRow",
    "NotFoundError",
    "OCCUPYING_STATUSES",
    "OutboxRow",
    "PendingImportRow",
    "PlayerRow",
    "REMINDER_VIAS",
    "ReminderRow",
    "ReminderVia",
    "SCHEMA_VERSION",
    "STATUSES",
    "SchemaError",
    "SeatedGame",
    "Status",
    "StorageError",
    "Store",
    "Transaction",
    "TurnMessageRow",
]
