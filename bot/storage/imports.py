"""Pending imports: a record waiting in the lobby for its seats to be claimed."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from .base import TransactionBase
from .errors import ConflictError
from .rows import (
    PendingImportRow,
    _pending_import_row,
    _to_json,
)


class ImportsTx(TransactionBase):
    """Pending imports inside one transaction."""

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
