"""Seats: who plays a game, in which order, and their per-game reminder flag."""

from __future__ import annotations

from collections.abc import Sequence

from .base import TransactionBase
from .errors import ConflictError, NotFoundError
from .rows import (
    _PLAYER_COLS,
    OCCUPYING_STATUSES,
    PlayerRow,
    _player_row,
)


class PlayersTx(TransactionBase):
    """Seats inside one transaction."""

    async def _renumber(self, game_id: int, user_ids: Sequence[int]) -> None:
        # Seats are unique and both SQLite and PostgreSQL check that per row during an UPDATE, so the permutation
        # goes through negative seats first; no intermediate state collides.
        for i, user_id in enumerate(user_ids):
            await self._exec(
                "UPDATE players SET seat = ? WHERE game_id = ? AND user_id = ?", (-1 - i, game_id, user_id)
            )
        await self._exec("UPDATE players SET seat = -1 - seat WHERE game_id = ? AND seat < 0", (game_id,))

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
