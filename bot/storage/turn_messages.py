"""The last "your turn" message of each game, so that the next one replaces it."""

from __future__ import annotations

from .base import TransactionBase
from .rows import (
    TurnMessageRow,
    _check_int64,
)


class TurnMessagesTx(TransactionBase):
    """Turn messages inside one transaction."""

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
