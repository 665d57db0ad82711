"""Persistence of games, players, action logs and reminders on SQLite (aiosqlite).

A game is title + options + seed + seated players + an append-only action log; the engine state is the replay of
the live log, so this module never interprets actions (they are opaque JSON objects).

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
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, get_args

import aiosqlite

Status = Literal["lobby", "active", "finished", "abandoned"]
ReminderVia = Literal["channel", "dm"]
ImageMode = Literal["turn", "round", "request"]
ActionState = Literal["live", "undone", "discarded"]

STATUSES: tuple[str, ...] = get_args(Status)
IMAGE_MODES: tuple[str, ...] = get_args(ImageMode)
# A channel is occupied by a game that is gathering players or being played.
OCCUPYING_STATUSES: tuple[str, ...] = ("lobby", "active")
DEFAULT_REMINDER_INTERVAL = 12 * 60 * 60
DEFAULT_IMAGE_MODE: ImageMode = "turn"
DEFAULT_LANGUAGE = "en"
LANGUAGE_CODES: tuple[str, ...] = ("en", "ja")  # bot.i18n.LANGUAGES; the store checks what it keeps
DEFAULT_STALL_AFTER = 4  # reminders without a move before the game's creator and administrators are told
REMINDER_VIAS: tuple[str, ...] = get_args(ReminderVia)

# finished -> active lets an admin undo the move that ended a game; the partial unique index still refuses it when
# the channel has started another game meanwhile.
_TRANSITIONS: dict[str, frozenset[str]] = {
    "lobby": frozenset({"active", "abandoned"}),
    "active": frozenset({"finished", "abandoned"}),
    "finished": frozenset({"active"}),
    "abandoned": frozenset(),
}

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1

# Ordered schema migrations; migration i (1-based) brings a file from version i-1 to version i. Never edit a
# shipped migration: append a new one. Each is a list of single statements (not a script) so that it runs inside
# our own transaction; sqlite3's executescript would COMMIT first.
MIGRATIONS: list[tuple[str, ...]] = [
    # v1: games, seats and the action log.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id BIGINT,
            channel_id BIGINT NOT NULL,
            title TEXT NOT NULL,
            options TEXT NOT NULL,
            seed BIGINT NOT NULL,
            creator_id BIGINT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            result TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        # The database itself enforces one occupying game per channel, so two racing creates cannot both win.
        """CREATE UNIQUE INDEX games_one_occupying_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active')""",
        "CREATE INDEX games_by_channel ON games (channel_id, status, updated_at)",
        """CREATE TABLE players (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id BIGINT NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id),
            UNIQUE (game_id, name)
        )""",
        """CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            user_id BIGINT,
            created_at DOUBLE PRECISION NOT NULL,
            state TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'undone', 'discarded')),
            undone_at DOUBLE PRECISION,
            PRIMARY KEY (game_id, seq)
        )""",
    ),
    # v2: per-game settings, DM flag and reminders. Shipped together with v1; it is a separate step so that the
    # upgrade path of an existing file is exercised by the tests from the start, not first on a user's file.
    (
        """ALTER TABLE games ADD COLUMN reminder_interval INTEGER NOT NULL DEFAULT 43200
            CHECK (reminder_interval >= 0)""",
        """ALTER TABLE games ADD COLUMN image_mode TEXT NOT NULL DEFAULT 'turn'
            CHECK (image_mode IN ('turn', 'round', 'request'))""",
        "ALTER TABLE players ADD COLUMN dm_reminders BOOLEAN NOT NULL DEFAULT FALSE",
        """CREATE TABLE reminders (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            user_id BIGINT,
            due_at DOUBLE PRECISION,
            sent_count INTEGER NOT NULL DEFAULT 0,
            last_sent_at DOUBLE PRECISION
        )""",
        "CREATE INDEX reminders_due ON reminders (due_at) WHERE due_at IS NOT NULL",
    ),
    # v3: an imported record waiting in the lobby for its seats to be claimed, so that a restart does not lose it.
    # The claims themselves are the lobby's player rows (named after the record's seats); this row holds what the
    # players table cannot: the record's seat order and the action log to write when the last seat is claimed.
    (
        """CREATE TABLE pending_imports (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            seats TEXT NOT NULL,
            actions TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # v4: members across their games (reminder preferences, quiet hours, away), the stall threshold per game, and
    # the last "your turn" message per game so the next one replaces it instead of piling up.
    (
        """CREATE TABLE members (
            user_id BIGINT PRIMARY KEY,
            reminders_via TEXT CHECK (reminders_via IN ('channel', 'dm')),
            time_zone TEXT,
            quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
            quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
            away_until DOUBLE PRECISION,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        "ALTER TABLE games ADD COLUMN stall_after INTEGER NOT NULL DEFAULT 4 CHECK (stall_after >= 0)",
        "ALTER TABLE reminders ADD COLUMN stall_noticed_at DOUBLE PRECISION",
        "ALTER TABLE reminders ADD COLUMN waiting_since DOUBLE PRECISION",
        """CREATE TABLE turn_messages (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            channel_id BIGINT NOT NULL,
            message_id BIGINT NOT NULL,
            posted_at DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX players_by_user ON players (user_id)",
    ),
    # v5: checkpoints, a cache of the engine's state after the first `actions` live actions, so that a cold load or
    # an undo replays only the tail of the log. `last_seq` (the seq of the last action included) and `engine` (the
    # engine version and the game's set-up) tell whether a checkpoint still fits; the log stays the truth.
    (
        """CREATE TABLE checkpoints (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            actions INTEGER NOT NULL CHECK (actions > 0),
            last_seq INTEGER NOT NULL,
            engine TEXT NOT NULL,
            state BLOB NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, actions)
        )""",
    ),
    # v6: the outbox. A public message about a stored move that Discord could not take (rate limited, connection
    # reset, outage) waits here, in order per channel, and is posted when Discord is reachable again, also after a
    # restart: a stored move is always announced.
    (
        """CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            channel_id BIGINT NOT NULL,
            game_id INTEGER,
            payload TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # v7: languages. A game's channel posts follow its `language` (set at creation from the guild's preferred locale,
    # changed with /game settings); a member's last known Discord `locale` is the language of their direct messages.
    (
        "ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
        "ALTER TABLE members ADD COLUMN locale TEXT",
    ),
]
SCHEMA_VERSION = len(MIGRATIONS)

# The transaction open in the current context. Tasks started inside a transaction inherit it, so they too get an
# error rather than a deadlock if they call the Store while it is still open.
_CURRENT_TX: ContextVar[Transaction | None] = ContextVar("stationmaster_storage_tx", default=None)


class StorageError(Exception):
    """Base of every error this module raises on purpose; messages are meant for the service to pass on."""


class NotFoundError(StorageError):
    """The game or player does not exist."""


class ConflictError(StorageError):
    """The request contradicts stored data (already seated, name taken, wrong game status, ...)."""


class ChannelBusyError(ConflictError):
    """The channel already has a game in the lobby or in play."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        self.channel_id = channel_id
        self.game_id = game_id
        which = f" (game {game_id})" if game_id is not None else ""
        super().__init__(
            f"channel {channel_id} already has a game in the lobby or in play{which}; "
            "finish or abandon it before creating another"
        )


class SchemaError(StorageError):
    """The database file cannot be used by this version of the code."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    title: str
    options: dict[str, Any]
    seed: int
    creator_id: int
    status: Status
    reminder_interval: int
    image_mode: ImageMode
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    stall_after: int = DEFAULT_STALL_AFTER
    language: str = DEFAULT_LANGUAGE  # the language of the game's channel posts (bot.i18n.LANGUAGES)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    game_id: int
    seat: int
    user_id: int
    name: str
    dm_reminders: bool


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int  # per-game storage number, counts undone rows too; not the index in the live log
    action: dict[str, Any]
    user_id: int | None
    created_at: float
    state: ActionState
    undone_at: float | None


@dataclass(frozen=True, slots=True)
class CheckpointRow:
    game_id: int
    actions: int  # live actions included
    last_seq: int  # storage seq of the last of them
    engine: str  # engine version and game set-up it was written by
    state: bytes


@dataclass(frozen=True, slots=True)
class PendingImportRow:
    game_id: int
    seats: tuple[str, ...]  # the record's player names in its seat order (the replay's player order)
    actions: list[dict[str, Any]]  # the normalised action log, written to the game's log on activation
    created_at: float


@dataclass(frozen=True, slots=True)
class ReminderRow:
    game_id: int
    guild_id: int | None
    channel_id: int
    user_id: int | None  # None: remind the channel rather than one person
    due_at: float | None
    sent_count: int
    last_sent_at: float | None
    interval: int  # the game's reminder interval, so the reminder task can compute the next due time
    dm: bool  # the reminded player asked to be reminded by DM
    stall_after: int = DEFAULT_STALL_AFTER  # the game's threshold: reminders without a move before it is stalled
    stall_noticed_at: float | None = None  # when the creator was told the game stalls (since the last move)
    waiting_since: float | None = None  # when the game began to wait for this reminder's player (None: unknown)
    language: str = DEFAULT_LANGUAGE  # the game's language: a reminder in its channel speaks it


@dataclass(frozen=True, slots=True)
class MemberRow:
    """A member's preferences across all their games (no row: the defaults)."""

    user_id: int
    reminders_via: ReminderVia | None  # None: as each game's seat says (channel unless /game settings dm:true)
    time_zone: str | None  # IANA name such as Europe/Paris; None: UTC
    quiet_start: int | None  # minutes after local midnight; quiet hours run from start to end (may wrap midnight)
    quiet_end: int | None
    away_until: float | None  # reminders pause until then
    updated_at: float
    locale: str | None = None  # the Discord locale of the member's last command ("ja", "en-US"): their DMs' language

    @property
    def has_preferences(self) -> bool:
        """Whether the member chose anything (a row may hold only the locale they were last seen with)."""
        return any(getattr(self, k) is not None for k in MEMBER_PREFERENCES)


@dataclass(frozen=True, slots=True)
class TurnMessageRow:
    game_id: int
    channel_id: int
    message_id: int
    posted_at: float


@dataclass(frozen=True, slots=True)
class SeatedGame:
    """One active game a member is seated in, with whom it waits for (its reminder row)."""

    game: GameRow
    seat: PlayerRow
    reminder: ReminderRow | None


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    channel_id: int
    game_id: int | None
    payload: dict[str, Any]  # the message as the Discord adapter will post it (content, embeds, mentions)
    attempts: int
    created_at: float


_GAME_COLS = (
    "id, guild_id, channel_id, title, options, seed, creator_id, status, reminder_interval, image_mode, result, "
    "created_at, updated_at, stall_after, language"
)
_PLAYER_COLS = "game_id, seat, user_id, name, dm_reminders"
_ACTION_COLS = "game_id, seq, action, user_id, created_at, state, undone_at"
_REMINDER_SELECT = (
    "SELECT r.game_id, g.guild_id, g.channel_id, r.user_id, r.due_at, r.sent_count, r.last_sent_at, "
    "g.reminder_interval, p.dm_reminders, g.stall_after, r.stall_noticed_at, r.waiting_since, g.language "
    "FROM reminders r JOIN games g ON g.id = r.game_id "
    "LEFT JOIN players p ON p.game_id = r.game_id AND p.user_id = r.user_id"
)


def _game_row(r: Sequence[Any]) -> GameRow:
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        title=r[3],
        options=json.loads(r[4]),
        seed=r[5],
        creator_id=r[6],
        status=r[7],
        reminder_interval=r[8],
        image_mode=r[9],
        result=None if r[10] is None else json.loads(r[10]),
        created_at=r[11],
        updated_at=r[12],
        stall_after=r[13],
        language=r[14],
    )


def _player_row(r: Sequence[Any]) -> PlayerRow:
    return PlayerRow(game_id=r[0], seat=r[1], user_id=r[2], name=r[3], dm_reminders=bool(r[4]))


def _action_row(r: Sequence[Any]) -> ActionRow:
    return ActionRow(
        game_id=r[0], seq=r[1], action=json.loads(r[2]), user_id=r[3], created_at=r[4], state=r[5], undone_at=r[6]
    )


def _reminder_row(r: Sequence[Any]) -> ReminderRow:
    return ReminderRow(
        game_id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        user_id=r[3],
        due_at=r[4],
        sent_count=r[5],
        last_sent_at=r[6],
        interval=r[7],
        dm=bool(r[8]),
        stall_after=r[9],
        stall_noticed_at=r[10],
        waiting_since=r[11],
        language=r[12],
    )


_MEMBER_COLS = "user_id, reminders_via, time_zone, quiet_start, quiet_end, away_until, updated_at, locale"
MEMBER_PREFERENCES = frozenset({"reminders_via", "time_zone", "quiet_start", "quiet_end", "away_until"})


def _member_row(r: Sequence[Any]) -> MemberRow:
    return MemberRow(user_id=r[0], reminders_via=r[1], time_zone=r[2], quiet_start=r[3], quiet_end=r[4],
                     away_until=r[5], updated_at=r[6], locale=r[7])


def _pending_import_row(r: Sequence[Any]) -> PendingImportRow:
    return PendingImportRow(game_id=r[0], seats=tuple(json.loads(r[1])), actions=json.loads(r[2]), created_at=r[3])


def _to_json(value: Mapping[str, Any], what: str) -> str:
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a JSON object (dict), not {type(value).__name__}")
    # NaN/Infinity are not JSON and PostgreSQL's jsonb would refuse them; fail here instead of later.
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _check_int64(value: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{what} must be an integer that fits in 64 bits, got {value!r}")
    return value


def _check_settings(reminder_interval: object, image_mode: object, stall_after: object = None,
                    language: object = None) -> None:
    if reminder_interval is not None and (
        not isinstance(reminder_interval, int) or isinstance(reminder_interval, bool) or reminder_interval < 0
    ):
        raise ValueError(f"reminder_interval must be whole seconds >= 0 (0 = off), got {reminder_interval!r}")
    if image_mode is not None and image_mode not in IMAGE_MODES:
        raise ValueError(f"image_mode must be one of {', '.join(IMAGE_MODES)}, got {image_mode!r}")
    if stall_after is not None and (not isinstance(stall_after, int) or isinstance(stall_after, bool)
                                    or not 0 <= stall_after <= 100):
        raise ValueError(f"stall_after must be a whole number of reminders from 0 (never) to 100, got {stall_after!r}")
    if language is not None and language not in LANGUAGE_CODES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGE_CODES)}, got {language!r}")


class Transaction:
    """Operations inside one open transaction; obtained from `Store.transaction()`, unusable after it ends."""

    def __init__(self, conn: aiosqlite.Connection, owner: Store) -> None:
        self._conn = conn
        self._owner = owner
        self._open = True

    # -- low level ---------------------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if not self._open:
            raise StorageError("this transaction has ended; open a new one with store.transaction()")

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        self._check_open()
        # Fetching everything also completes RETURNING statements, which must finish before COMMIT.
        return list(await self._conn.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement and return the number of rows it changed."""
        self._check_open()
        cursor = await self._conn.execute(sql, params)
        try:
            return cursor.rowcount
        finally:
            await cursor.close()

    async def _game_or_raise(self, game_id: int) -> GameRow:
        game = await self.game(game_id)
        if game is None:
            raise NotFoundError(f"there is no game {game_id}")
        return game

    async def _require_status(self, game_id: int, allowed: Iterable[str], doing: str) -> GameRow:
        game = await self._game_or_raise(game_id)
        needed = tuple(allowed)
        if game.status not in needed:
            raise ConflictError(f"cannot {doing}: game {game_id} is {game.status} (needs {' or '.join(needed)})")
        return game

    async def _touch(self, game_id: int, now: float) -> None:
        await self._exec("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))

    async def _renumber(self, game_id: int, user_ids: Sequence[int]) -> None:
        # Seats are unique and both SQLite and PostgreSQL check that per row during an UPDATE, so the permutation
        # goes through negative seats first; no intermediate state collides.
        for i, user_id in enumerate(user_ids):
            await self._exec(
                "UPDATE players SET seat = ? WHERE game_id = ? AND user_id = ?", (-1 - i, game_id, user_id)
            )
        await self._exec("UPDATE players SET seat = -1 - seat WHERE game_id = ? AND seat < 0", (game_id,))

    # -- games -------------------------------------------------------------------------------------------------

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
        """Create a game in the lobby and return its id; raises ChannelBusyError if the channel is occupied."""
        settings = dict(settings or {})
        unknown = set(settings) - {"reminder_interval", "image_mode", "stall_after", "language"}
        if unknown:
            raise ValueError(f"unknown game settings: {', '.join(sorted(unknown))}")
        reminder_interval = settings.get("reminder_interval", DEFAULT_REMINDER_INTERVAL)
        image_mode = settings.get("image_mode", DEFAULT_IMAGE_MODE)
        stall_after = settings.get("stall_after", DEFAULT_STALL_AFTER)
        language = settings.get("language", DEFAULT_LANGUAGE)
        _check_settings(reminder_interval, image_mode, stall_after, language)
        _check_int64(seed, "seed")
        if not title:
            raise ValueError("title must not be empty")
        options_json = _to_json(options, "options")
        existing = await self.active_game(channel_id)
        if existing is not None:
            raise ChannelBusyError(channel_id, existing.id)
        try:
            row = await self._one(
                "INSERT INTO games (guild_id, channel_id, title, options, seed, creator_id, status, "
                "reminder_interval, image_mode, stall_after, language, result, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, NULL, ?, ?) RETURNING id",
                (guild_id, channel_id, title, options_json, seed, creator_id, reminder_interval, image_mode,
                 stall_after, language, now, now),
            )
        except sqlite3.IntegrityError as exc:
            # Another connection (another process on the same file) won the race for the channel.
            raise ChannelBusyError(channel_id, None) from exc
        assert row is not None
        return int(row[0])

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game_row(row)

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or in play, if any (at most one exists)."""
        row = await self._one(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return None if row is None else _game_row(row)

    async def finished_games(self, channel_id: int, limit: int = 10) -> list[GameRow]:
        """The channel's finished and abandoned games, most recently ended first."""
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? AND status IN ('finished', 'abandoned') "
            "ORDER BY updated_at DESC, id DESC LIMIT ?",
            (channel_id, limit),
        )
        return [_game_row(r) for r in rows]

    async def active_games(self) -> list[GameRow]:
        """Every game in play, oldest first, to resume after a restart."""
        rows = await self._all(f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' ORDER BY id")
        return [_game_row(r) for r in rows]

    async def set_status(
        self, game_id: int, status: Status, now: float, result: Mapping[str, Any] | None = None
    ) -> None:
        """Move a game along lobby -> active -> finished/abandoned (finished -> active reopens it).

        `result` is stored as given (None clears it, e.g. when a finished game is reopened). A game leaving the
        lobby (started or abandoned) loses its pending import in the same transaction: only a lobby has one."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, got {status!r}")
        game = await self._game_or_raise(game_id)
        if status not in _TRANSITIONS[game.status]:
            raise ConflictError(f"game {game_id} is {game.status} and cannot become {status}")
        result_json = None if result is None else _to_json(result, "result")
        try:
            await self._exec(
                "UPDATE games SET status = ?, result = ?, updated_at = ? WHERE id = ?",
                (status, result_json, now, game_id),
            )
        except sqlite3.IntegrityError as exc:
            occupying = await self.active_game(game.channel_id)
            raise ChannelBusyError(game.channel_id, None if occupying is None else occupying.id) from exc
        if game.status == "lobby":
            await self._exec("DELETE FROM pending_imports WHERE game_id = ?", (game_id,))

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
        """Change the given settings; None leaves a setting as it is. An interval of 0 turns reminders off."""
        _check_settings(reminder_interval, image_mode, stall_after, language)
        await self._game_or_raise(game_id)
        if reminder_interval is not None:
            await self._exec("UPDATE games SET reminder_interval = ? WHERE id = ?", (reminder_interval, game_id))
        if image_mode is not None:
            await self._exec("UPDATE games SET image_mode = ? WHERE id = ?", (image_mode, game_id))
        if stall_after is not None:
            await self._exec("UPDATE games SET stall_after = ? WHERE id = ?", (stall_after, game_id))
        if language is not None:
            await self._exec("UPDATE games SET language = ? WHERE id = ?", (language, game_id))
        await self._touch(game_id, now)

    # -- players -----------------------------------------------------------------------------------------------

    async def players(self, game_id: int) -> list[PlayerRow]:
        """Seated players in seat order (seats are 0, 1, 2, ...)."""
        rows = await self._all(f"SELECT {_PLAYER_COLS} FROM players WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_player_row(r) for r in rows]

    async def _player(self, game_id: int, user_id: int) -> PlayerRow | None:
        row = await self._one(
            f"SELECT {_PLAYER_COLS} FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return None if row is None else _player_row(row)

    async def _check_free(self, game_id: int, user_id: int | None, name: str | None) -> None:
        if user_id is not None and await self._player(game_id, user_id) is not None:
            raise ConflictError(f"user {user_id} already has a seat in game {game_id}")
        if name is not None and await self._one(
            "SELECT 1 FROM players WHERE game_id = ? AND name = ?", (game_id, name)
        ):
            raise ConflictError(f"another player of game {game_id} is already called {name!r}")

    async def add_player(self, game_id: int, user_id: int, name: str) -> PlayerRow:
        """Seat a user at the end of the table (lobby only)."""
        name = name.strip()
        if not name:
            raise ValueError("player name must not be empty")
        await self._require_status(game_id, ["lobby"], "join")
        await self._check_free(game_id, user_id, name)
        row = await self._one("SELECT COALESCE(MAX(seat) + 1, 0) FROM players WHERE game_id = ?", (game_id,))
        assert row is not None
        seat = int(row[0])
        await self._exec(
            "INSERT INTO players (game_id, seat, user_id, name, dm_reminders) VALUES (?, ?, ?, ?, FALSE)",
            (game_id, seat, user_id, name),
        )
        return PlayerRow(game_id=game_id, seat=seat, user_id=user_id, name=name, dm_reminders=False)

    async def remove_player(self, game_id: int, user_id: int) -> None:
        """Unseat a user (lobby only); the players after them move up a seat."""
        await self._require_status(game_id, ["lobby"], "leave")
        if await self._exec("DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 0:
            raise NotFoundError(f"user {user_id} has no seat in game {game_id}")
        await self._renumber(game_id, [p.user_id for p in await self.players(game_id)])

    async def set_seat_order(self, game_id: int, user_ids: Sequence[int]) -> None:
        """Reorder the seats; `user_ids` must list every seated user exactly once.

        The seat order is an input of the replay, so it can change only while the log is empty."""
        await self._game_or_raise(game_id)
        seated = [p.user_id for p in await self.players(game_id)]
        if len(user_ids) != len(seated) or set(user_ids) != set(seated):
            raise ValueError(f"seat order must list the seated users {sorted(seated)} once each, got {list(user_ids)}")
        if await self._one("SELECT 1 FROM actions WHERE game_id = ? LIMIT 1", (game_id,)):
            raise ConflictError(f"game {game_id} already has actions; its seat order is fixed")
        await self._renumber(game_id, user_ids)

    async def replace_player(
        self, game_id: int, old_user_id: int, new_user_id: int, new_name: str | None = None
    ) -> PlayerRow:
        """Give a seat to another user (an admin's substitution); the seat number stays.

        `new_name` None keeps the seat's name, which matters if the engine identifies players by name. The DM flag
        is reset (the newcomer has not opted in); a pending reminder and the seat's moves move to the new one."""
        if new_name is not None:
            new_name = new_name.strip()
            if not new_name:
                raise ValueError("player name must not be empty")
        await self._require_status(game_id, OCCUPYING_STATUSES, "replace a player")
        old = await self._player(game_id, old_user_id)
        if old is None:
            raise NotFoundError(f"user {old_user_id} has no seat in game {game_id}")
        name = old.name if new_name is None else new_name
        await self._check_free(
            game_id,
            None if new_user_id == old_user_id else new_user_id,
            None if name == old.name else name,
        )
        dm = old.dm_reminders if new_user_id == old_user_id else False
        await self._exec(
            "UPDATE players SET user_id = ?, name = ?, dm_reminders = ? WHERE game_id = ? AND seat = ?",
            (new_user_id, name, dm, game_id, old.seat),
        )
        if new_user_id != old_user_id:
            await self._exec(
                "UPDATE reminders SET user_id = ?, sent_count = 0 WHERE game_id = ? AND user_id = ?",
                (new_user_id, game_id, old_user_id),
            )
            # moves belong to seats: the seat's earlier moves (undone ones too) are now answered for by its new
            # holder, so an undo or redo of them asks the newcomer, never nobody
            await self._exec(
                "UPDATE actions SET user_id = ? WHERE game_id = ? AND user_id = ?", (new_user_id, game_id, old_user_id)
            )
        return PlayerRow(game_id=game_id, seat=old.seat, user_id=new_user_id, name=name, dm_reminders=dm)

    async def set_dm_reminders(self, game_id: int, user_id: int, on: bool) -> None:
        """Set a seated player's "remind me by DM" flag."""
        changed = await self._exec(
            "UPDATE players SET dm_reminders = ? WHERE game_id = ? AND user_id = ?", (bool(on), game_id, user_id)
        )
        if changed == 0:
            raise NotFoundError(f"user {user_id} has no seat in game {game_id}")

    # -- pending imports ---------------------------------------------------------------------------------------

    async def save_pending_import(
        self, game_id: int, seats: Sequence[str], actions: Sequence[Mapping[str, Any]], now: float
    ) -> None:
        """Keep an imported record for a lobby game until its seats are claimed (the claims are player rows).

        `seats` are the record's player names in its seat order; `actions` the log to write on activation. Starting
        or abandoning the game removes the row (see set_status), and so does deleting the game."""
        seats = list(seats)
        if not seats or any(not isinstance(n, str) or not n.strip() for n in seats):
            raise ValueError(f"seats must be non-empty player names, got {seats!r}")
        if len(set(seats)) != len(seats):
            raise ValueError(f"seat names must be different, got {seats!r}")
        actions_json = "[" + ",".join(_to_json(a, "each action") for a in actions) + "]"
        await self._require_status(game_id, ["lobby"], "keep an imported record")
        try:
            await self._exec(
                "INSERT INTO pending_imports (game_id, seats, actions, created_at) VALUES (?, ?, ?, ?)",
                (game_id, json.dumps(seats, separators=(",", ":")), actions_json, now),
            )
        except sqlite3.IntegrityError as exc:
            raise ConflictError(f"game {game_id} already holds an imported record") from exc
        await self._touch(game_id, now)

    async def pending_import(self, game_id: int) -> PendingImportRow | None:
        """The record a lobby game is waiting to activate, if it is an import that has not started yet."""
        row = await self._one(
            "SELECT game_id, seats, actions, created_at FROM pending_imports WHERE game_id = ?", (game_id,)
        )
        return None if row is None else _pending_import_row(row)

    # -- action log --------------------------------------------------------------------------------------------

    async def append_action(self, game_id: int, action: Mapping[str, Any], user_id: int | None, now: float) -> int:
        """Append an action to the live log of a game in play and return its storage sequence number.

        Actions undone before this append can no longer be redone (they become `discarded`)."""
        action_json = _to_json(action, "action")
        await self._require_status(game_id, ["active"], "record an action")
        await self._exec("UPDATE actions SET state = 'discarded' WHERE game_id = ? AND state = 'undone'", (game_id,))
        row = await self._one("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,))
        assert row is not None
        seq = int(row[0])
        await self._exec(
            "INSERT INTO actions (game_id, seq, action, user_id, created_at, state, undone_at) "
            "VALUES (?, ?, ?, ?, ?, 'live', NULL)",
            (game_id, seq, action_json, user_id, now),
        )
        await self._touch(game_id, now)
        return seq

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The live log (not undone) in order; its list index is the action's index in the game."""
        rows = await self._all(
            f"SELECT {_ACTION_COLS} FROM actions WHERE game_id = ? AND state = 'live' ORDER BY seq", (game_id,)
        )
        return [_action_row(r) for r in rows]

    async def history(self, game_id: int) -> list[ActionRow]:
        """Every row ever appended, undone and discarded ones included, in order (for audit)."""
        rows = await self._all(f"SELECT {_ACTION_COLS} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [_action_row(r) for r in rows]

    async def undo_to(self, game_id: int, keep: int, now: float) -> int:
        """Keep the first `keep` live actions and mark the later ones undone; return how many were undone."""
        if keep < 0:
            raise ValueError(f"keep must be >= 0, got {keep}")
        await self._require_status(game_id, ["active"], "undo")
        first = await self._one(
            "SELECT seq FROM actions WHERE game_id = ? AND state = 'live' ORDER BY seq LIMIT 1 OFFSET ?",
            (game_id, keep),
        )
        if first is None:
            return 0
        # Live rows past `keep` are exactly those from `first` on, because live seqs are in log order.
        undone = await self._exec(
            "UPDATE actions SET state = 'undone', undone_at = ? WHERE game_id = ? AND state = 'live' AND seq >= ?",
            (now, game_id, first[0]),
        )
        await self._touch(game_id, now)
        return undone

    async def redo(self, game_id: int, now: float) -> ActionRow | None:
        """Restore the next undone action to the end of the live log, or return None if there is none to redo.

        Undone rows always lie after every live row (undo takes a suffix, append discards them), so the lowest
        undone seq is the action that followed the live log: repeated redos replay undone actions in order."""
        await self._require_status(game_id, ["active"], "redo")
        row = await self._one(
            f"SELECT {_ACTION_COLS} FROM actions WHERE game_id = ? AND state = 'undone' ORDER BY seq LIMIT 1",
            (game_id,),
        )
        if row is None:
            return None
        undone = _action_row(row)
        await self._exec(
            "UPDATE actions SET state = 'live', undone_at = NULL WHERE game_id = ? AND seq = ?", (game_id, undone.seq)
        )
        await self._touch(game_id, now)
        return ActionRow(
            game_id=undone.game_id,
            seq=undone.seq,
            action=undone.action,
            user_id=undone.user_id,
            created_at=undone.created_at,
            state="live",
            undone_at=None,
        )

    # -- checkpoints -------------------------------------------------------------------------------------------

    async def save_checkpoint(
        self, game_id: int, actions: int, last_seq: int, engine: str, state: bytes, now: float
    ) -> None:
        """Store (or replace) the snapshot of a game after its first `actions` live actions."""
        await self._exec(
            "INSERT OR REPLACE INTO checkpoints (game_id, actions, last_seq, engine, state, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, actions, last_seq, engine, state, now),
        )

    async def checkpoint(self, game_id: int, at_most: int) -> CheckpointRow | None:
        """The checkpoint covering the most live actions, but no more than `at_most`."""
        row = await self._one(
            "SELECT game_id, actions, last_seq, engine, state FROM checkpoints WHERE game_id = ? AND actions <= ? "
            "ORDER BY actions DESC LIMIT 1",
            (game_id, at_most),
        )
        return None if row is None else CheckpointRow(int(row[0]), int(row[1]), int(row[2]), str(row[3]),
                                                      bytes(row[4]))

    async def drop_checkpoints(self, game_id: int, from_actions: int = 0) -> int:
        """Forget the checkpoints covering `from_actions` or more actions (all by default)."""
        return await self._exec(
            "DELETE FROM checkpoints WHERE game_id = ? AND actions >= ?", (game_id, from_actions)
        )

    # -- reminders ---------------------------------------------------------------------------------------------

    async def set_reminder(
        self, game_id: int, user_id: int | None, due: float | None, since: float | None = None
    ) -> None:
        """Set who is to be reminded and when (due None: no reminder); restarts the count of reminders sent.
        `since`: when the game began to wait for them (the move that passed the turn)."""
        await self._game_or_raise(game_id)
        await self._exec(
            "INSERT INTO reminders (game_id, user_id, due_at, sent_count, last_sent_at, waiting_since) "
            "VALUES (?, ?, ?, 0, NULL, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET user_id = excluded.user_id, due_at = excluded.due_at, "
            "sent_count = 0, last_sent_at = NULL, stall_noticed_at = NULL, waiting_since = excluded.waiting_since",
            (game_id, user_id, due, since),
        )

    async def reminder(self, game_id: int) -> ReminderRow | None:
        """The game's reminder row, due or not."""
        row = await self._one(f"{_REMINDER_SELECT} WHERE r.game_id = ?", (game_id,))
        return None if row is None else _reminder_row(row)

    async def due_reminders(self, now: float, limit: int = 100) -> list[ReminderRow]:
        """Reminders due at `now` of games in play whose reminders are on, earliest first."""
        rows = await self._all(
            f"{_REMINDER_SELECT} WHERE r.due_at IS NOT NULL AND r.due_at <= ? AND g.status = 'active' "
            "AND g.reminder_interval > 0 ORDER BY r.due_at, r.game_id LIMIT ?",
            (now, limit),
        )
        return [_reminder_row(r) for r in rows]

    async def mark_reminded(
        self, game_id: int, now: float, next_due: float | None, *, seen: ReminderRow | None = None
    ) -> bool:
        """Count one reminder sent at `now` and set the next due time (None: no more); return whether it applied.

        With `seen` (the row from due_reminders) nothing changes if the reminder moved on meanwhile (the player
        acted, or another worker already sent it), so a stale reminder never overwrites a fresh one. Marking before
        sending gives at-most-once delivery across a crash; marking after gives at-least-once."""
        sql = "UPDATE reminders SET sent_count = sent_count + 1, last_sent_at = ?, due_at = ? WHERE game_id = ?"
        params: list[Any] = [now, next_due, game_id]
        if seen is not None:
            sql += (
                " AND sent_count = ? AND (due_at = ? OR (due_at IS NULL AND ? IS NULL))"
                " AND (user_id = ? OR (user_id IS NULL AND ? IS NULL))"
            )
            params += [seen.sent_count, seen.due_at, seen.due_at, seen.user_id, seen.user_id]
        return await self._exec(sql, params) == 1

    async def postpone_reminder(self, game_id: int, user_id: int, by: float) -> float | None:
        """Move the next reminder of `user_id` in the game `by` seconds later ("not now"); return the new due time,
        or None when the game no longer waits for that member (the reminder moved on)."""
        changed = await self._exec(
            "UPDATE reminders SET due_at = due_at + ? WHERE game_id = ? AND user_id = ? AND due_at IS NOT NULL",
            (by, game_id, user_id),
        )
        if changed != 1:
            return None
        row = await self.reminder(game_id)
        return None if row is None else row.due_at

    async def defer_reminder(self, game_id: int, due: float, *, seen: ReminderRow) -> bool:
        """Move a due reminder to `due` without counting it as sent (quiet hours, away); False if it moved on."""
        return await self._exec(
            "UPDATE reminders SET due_at = ? WHERE game_id = ? AND sent_count = ? AND due_at = ? "
            "AND (user_id = ? OR (user_id IS NULL AND ? IS NULL))",
            (due, game_id, seen.sent_count, seen.due_at, seen.user_id, seen.user_id),
        ) == 1

    async def mark_stall_noticed(self, game_id: int, now: float) -> bool:
        """Record that the creator was told the game stalls; False if that was already done since the last move."""
        return await self._exec(
            "UPDATE reminders SET stall_noticed_at = ? WHERE game_id = ? AND stall_noticed_at IS NULL", (now, game_id)
        ) == 1

    # -- members across their games ----------------------------------------------------------------------------

    async def member(self, user_id: int) -> MemberRow | None:
        row = await self._one(f"SELECT {_MEMBER_COLS} FROM members WHERE user_id = ?", (user_id,))
        return None if row is None else _member_row(row)

    async def set_member(self, user_id: int, now: float, **changes: Any) -> MemberRow:
        """Change a member's preferences (a field given as None is cleared; fields not given stay as they are)."""
        _check_int64(user_id, "user_id")
        unknown = set(changes) - MEMBER_PREFERENCES
        if unknown:
            raise ValueError(f"unknown member preferences: {', '.join(sorted(unknown))}")
        via = changes.get("reminders_via")
        if via is not None and via not in REMINDER_VIAS:
            raise ValueError(f"reminders_via must be one of {', '.join(REMINDER_VIAS)}, got {via!r}")
        for key in ("quiet_start", "quiet_end"):
            minute = changes.get(key)
            if minute is not None and (not isinstance(minute, int) or not 0 <= minute <= 1439):
                raise ValueError(f"{key} must be minutes after midnight (0-1439), got {minute!r}")
        await self._exec(
            "INSERT INTO members (user_id, updated_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING", (user_id, now)
        )
        for key, value in changes.items():
            await self._exec(f"UPDATE members SET {key} = ? WHERE user_id = ?", (value, user_id))
        await self._exec("UPDATE members SET updated_at = ? WHERE user_id = ?", (now, user_id))
        member = await self.member(user_id)
        assert member is not None
        return member

    async def remember_locale(self, user_id: int, locale: str, now: float) -> None:
        """The Discord locale a member used last (their direct messages speak it); preferences stay as they are."""
        _check_int64(user_id, "user_id")
        await self._exec(
            "INSERT INTO members (user_id, updated_at, locale) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale", (user_id, now, locale[:16])
        )

    async def members(self, user_ids: Sequence[int]) -> list[MemberRow]:
        """The preferences of those of `user_ids` who have any."""
        ids = [_check_int64(u, "user_id") for u in user_ids]
        if not ids:
            return []
        rows = await self._all(
            f"SELECT {_MEMBER_COLS} FROM members WHERE user_id IN ({', '.join('?' * len(ids))}) ORDER BY user_id", ids
        )
        return [_member_row(r) for r in rows]

    async def seated_games(self, user_id: int) -> list[SeatedGame]:
        """Every game in play in which the member holds a seat, in any channel or server, oldest first."""
        rows = await self._all(
            f"SELECT {', '.join('g.' + c for c in _GAME_COLS.split(', '))}, "
            f"{', '.join('p.' + c for c in _PLAYER_COLS.split(', '))} "
            "FROM games g JOIN players p ON p.game_id = g.id WHERE p.user_id = ? AND g.status = 'active' "
            "ORDER BY g.id",
            (user_id,),
        )
        width = len(_GAME_COLS.split(", "))
        out = []
        for r in rows:
            game = _game_row(r[:width])
            out.append(SeatedGame(game, _player_row(r[width:]), await self.reminder(game.id)))
        return out

    # -- the last "your turn" message of a game ----------------------------------------------------------------

    async def turn_message(self, game_id: int) -> TurnMessageRow | None:
        row = await self._one(
            "SELECT game_id, channel_id, message_id, posted_at FROM turn_messages WHERE game_id = ?", (game_id,)
        )
        return None if row is None else TurnMessageRow(*row)

    async def set_turn_message(self, game_id: int, channel_id: int, message_id: int | None, now: float) -> None:
        """Remember the game's newest "your turn" message (None: forget it)."""
        if message_id is None:
            await self._exec("DELETE FROM turn_messages WHERE game_id = ?", (game_id,))
            return
        _check_int64(message_id, "message_id")
        await self._exec(
            "INSERT INTO turn_messages (game_id, channel_id, message_id, posted_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id, posted_at = excluded.posted_at",
            (game_id, channel_id, message_id, now),
        )


    # -- outbox ------------------------------------------------------------------------------------------------

    async def queue_outbox(self, channel_id: int, game_id: int | None, payload: Mapping[str, Any], now: float) -> int:
        """Keep a message that could not be posted; returns its id (messages of a channel go out in id order)."""
        _check_int64(channel_id, "channel_id")
        row = await self._one(
            "INSERT INTO outbox (channel_id, game_id, payload, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            (channel_id, game_id, _to_json(payload, "payload"), now),
        )
        assert row is not None
        return int(row[0])

    async def outbox(self, limit: int = 100) -> list[OutboxRow]:
        """Messages waiting to be posted, oldest first."""
        rows = await self._all(
            "SELECT id, channel_id, game_id, payload, attempts, created_at FROM outbox ORDER BY id LIMIT ?", (limit,)
        )
        return [OutboxRow(id=r[0], channel_id=r[1], game_id=r[2], payload=json.loads(r[3]), attempts=r[4],
                          created_at=r[5]) for r in rows]

    async def outbox_sent(self, message_id: int) -> None:
        await self._exec("DELETE FROM outbox WHERE id = ?", (message_id,))

    async def outbox_failed(self, message_id: int) -> None:
        await self._exec("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (message_id,))


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
