"""Members across their games: preferences, last known locale, and the games they are seated in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .reminders import RemindersTx
from .rows import (
    _GAME_COLS,
    _MEMBER_COLS,
    _PLAYER_COLS,
    MEMBER_PREFERENCES,
    REMINDER_VIAS,
    MemberRow,
    SeatedGame,
    _check_int64,
    _game_row,
    _member_row,
    _player_row,
)


class MembersTx(RemindersTx):
    """Members inside one transaction."""

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
