"""Games: creating them, finding them, their status (lobby, active, finished, abandoned) and settings."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from .base import TransactionBase
from .errors import ChannelBusyError, ConflictError
from .rows import (
    _GAME_COLS,
    DEFAULT_IMAGE_MODE,
    DEFAULT_LANGUAGE,
    DEFAULT_REMINDER_INTERVAL,
    DEFAULT_STALL_AFTER,
    IMAGE_MODES,
    LANGUAGE_CODES,
    STATUSES,
    GameRow,
    ImageMode,
    Status,
    _check_int64,
    _game_row,
    _to_json,
)

# finished -> active lets an admin undo the move that ended a game; the partial unique index still refuses it when
# the channel has started another game meanwhile.
_TRANSITIONS: dict[str, frozenset[str]] = {
    "lobby": frozenset({"active", "abandoned"}),
    "active": frozenset({"finished", "abandoned"}),
    "finished": frozenset({"active"}),
    "abandoned": frozenset(),
}


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


class GamesTx(TransactionBase):
    """Games inside one transaction."""

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
        options: Mapping[str, Any] | None = None,
    ) -> None:
        """Change the given settings; None leaves a setting as it is. An interval of 0 turns reminders off. The
        title's options change only in the lobby: the game is played by the options it started with."""
        _check_settings(reminder_interval, image_mode, stall_after, language)
        game = await self._game_or_raise(game_id)
        if options is not None:
            if game.status != "lobby":
                raise ConflictError(f"game {game_id} has started: its options are fixed")
            await self._exec("UPDATE games SET options = ? WHERE id = ?", (_to_json(options, "options"), game_id))
        if reminder_interval is not None:
            await self._exec("UPDATE games SET reminder_interval = ? WHERE id = ?", (reminder_interval, game_id))
        if image_mode is not None:
            await self._exec("UPDATE games SET image_mode = ? WHERE id = ?", (image_mode, game_id))
        if stall_after is not None:
            await self._exec("UPDATE games SET stall_after = ? WHERE id = ?", (stall_after, game_id))
        if language is not None:
            await self._exec("UPDATE games SET language = ? WHERE id = ?", (language, game_id))
        await self._touch(game_id, now)
