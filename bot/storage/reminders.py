"""Reminders: whom a game waits for, when to remind them, and what was sent."""

from __future__ import annotations

from typing import Any

from .base import TransactionBase
from .rows import (
    _REMINDER_SELECT,
    ReminderRow,
    _reminder_row,
)


class RemindersTx(TransactionBase):
    """Reminders inside one transaction."""

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
