"""The action log: append, undo (marking, never deleting) and redo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import TransactionBase
from .rows import (
    _ACTION_COLS,
    ActionRow,
    _action_row,
    _to_json,
)


class ActionLogTx(TransactionBase):
    """The action log inside one transaction."""

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
