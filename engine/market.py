"""The stock market: cells, price tokens and their stacks.

One grid serves 1-D markets (a single row) and 2-D ones. A cell is
(row, column); stacks keep arrival order, the first token on top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .journal import Tracked
from .titledata import MarketDef


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    price: int
    kinds: str  # legend letters after the number, e.g. "p" for par

    @property
    def is_par(self) -> bool:
        return "p" in self.kinds


def _parse(raw: str, row: int, col: int) -> Cell | None:
    if not raw:
        return None
    digits = "".join(ch for ch in raw if ch.isdigit())
    kinds = "".join(ch for ch in raw if not ch.isdigit())
    return Cell(row, col, int(digits), kinds)


@dataclass
class Market(Tracked):
    grid: list[list[Cell | None]]
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    stacks: dict[tuple[int, int], list[str]] = field(default_factory=dict)

    @classmethod
    def from_def(cls, d: MarketDef) -> Market:
        grid = [[_parse(raw, r, c) for c, raw in enumerate(row)] for r, row in enumerate(d.rows)]
        return cls(grid)

    def cell(self, row: int, col: int) -> Cell | None:
        if 0 <= row < len(self.grid) and 0 <= col < len(self.grid[row]):
            return self.grid[row][col]
        return None

    def par_cells(self) -> list[Cell]:
        return [c for row in self.grid for c in row if c is not None and c.is_par]

    def cell_of(self, corp: str) -> Cell:
        r, c = self.positions[corp]
        cell = self.grid[r][c]
        assert cell is not None
        return cell

    def price(self, corp: str) -> int:
        return self.cell_of(corp).price

    def place(self, corp: str, row: int, col: int) -> None:
        self._remove(corp)
        self.positions[corp] = (row, col)
        self.stacks.setdefault((row, col), []).append(corp)

    def _remove(self, corp: str) -> None:
        pos = self.positions.pop(corp, None)
        if pos is not None:
            stack = self.stacks[pos]
            stack.remove(corp)
            if not stack:
                del self.stacks[pos]

    def remove(self, corp: str) -> None:
        self._remove(corp)

    def move(self, corp: str, drow: int, dcol: int, max_price: int | None = None) -> bool:
        """Move by one step; stays put at the edge of the grid. Returns True if moved."""
        r, c = self.positions[corp]
        target = self.cell(r + drow, c + dcol)
        if target is None or (max_price is not None and target.price > max_price):
            return False
        self.place(corp, target.row, target.col)
        return True

    def move_right_or_up(self, corp: str) -> bool:
        """2-D pay-out move: one cell right; at the end of its row one cell up instead (stays at the top end)."""
        return self.move(corp, 0, 1) or self.move(corp, -1, 0)

    def move_left_or_down(self, corp: str) -> bool:
        """2-D withhold move: one cell left; in the first column one cell down instead (stays in the corner)."""
        return self.move(corp, 0, -1) or self.move(corp, 1, 0)

    def in_zone(self, corp: str, letter: str) -> bool:
        """The corporation's cell carries the legend letter (e.g. "y" for 18AL's yellow zone)."""
        return letter in self.cell_of(corp).kinds

    def stack_index(self, corp: str) -> int:
        return self.stacks[self.positions[corp]].index(corp)

    def operating_order(self, corps: list[str]) -> list[str]:
        """Highest price first; then further right, then further up; then stack top first."""

        def key(sym: str) -> tuple[int, int, int, int]:
            r, c = self.positions[sym]
            return (-self.price(sym), -c, r, self.stack_index(sym))

        return sorted(corps, key=key)

    def record_id(self, corp: str) -> str:
        """18xx.games share-price id "price,row,col"."""
        r, c = self.positions[corp]
        return f"{self.price(corp)},{r},{c}"
