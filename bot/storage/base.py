"""An open transaction: running statements in it and finding the game an operation is about."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import aiosqlite

from .errors import ConflictError, NotFoundError, StorageError
from .rows import _GAME_COLS, GameRow, _game_row

if TYPE_CHECKING:
    from .store import Store


class TransactionBase:
    """The statements of one open transaction, and the game lookups every operation starts from."""

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

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game_row(row)
