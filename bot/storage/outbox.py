"""The outbox: public messages about stored moves that wait for Discord to take them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .base import TransactionBase
from .rows import (
    OutboxRow,
    _check_int64,
    _to_json,
)


class OutboxTx(TransactionBase):
    """The outbox inside one transaction."""

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
