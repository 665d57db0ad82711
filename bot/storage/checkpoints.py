"""Checkpoints: cached engine states after a number of live actions, so a load replays only the log's tail."""

from __future__ import annotations

from .base import TransactionBase
from .rows import (
    CheckpointRow,
)


class CheckpointsTx(TransactionBase):
    """Checkpoints inside one transaction."""

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
