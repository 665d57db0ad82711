"""18EZ's Share Price Index: a 2-D market whose tokens wait in the Par Values box until the end of the share
dealing round in which their railroad floats, and whose stacks order simultaneous arrivals (rule 1.11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..market import Cell, Market


@dataclass
class SharePriceIndex(Market):
    # railroads started but not yet on the SPI -> their par cell (the token in the Par Values box)
    parked: dict[str, tuple[int, int]] = field(default_factory=dict)
    # the event (one sale, the end-of-round rises) whose arrivals are being stacked, each token's place in its
    # stack when the event began (a mover's earlier fellow movers have left the stack by the time it moves), and
    # each mover's (previous value, previous column, previous place in its stack)
    event: Any = None
    places: dict[str, int] = field(default_factory=dict)
    movers: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, market: Market) -> SharePriceIndex:
        return cls(market.grid)

    def park(self, corp: str, cell: Cell) -> None:
        self.parked[corp] = (cell.row, cell.col)

    def is_parked(self, corp: str) -> bool:
        return corp in self.parked

    def cell_of(self, corp: str) -> Cell:
        if corp in self.parked:
            r, c = self.parked[corp]
            cell = self.grid[r][c]
            assert cell is not None
            return cell
        return super().cell_of(corp)

    def enter(self, corp: str) -> None:
        """The railroad's token leaves the Par Values box for its par cell, under any tokens already there."""
        r, c = self.parked.pop(corp)
        self.place(corp, r, c)

    def lowest_row(self, col: int) -> int:
        return max(r for r, row in enumerate(self.grid) if col < len(row) and row[col] is not None)

    def move_together(self, corp: str, row: int, col: int, event: Any) -> None:
        """Move as part of one event. Tokens already in the target cell stay on top; tokens arriving in the same
        event go below them, the higher previous value on top, then the one farther right, then the one that was
        higher in a shared stack (rule 1.11)."""
        if event != self.event:
            self.event, self.movers = event, {}
            self.places = {s: self.stack_index(s) for s in self.positions}
        r, c = self.positions[corp]
        if (r, c) == (row, col):
            return
        self.movers[corp] = (self.price(corp), c, self.places.get(corp, self.stack_index(corp)))
        self.place(corp, row, col)
        stack = self.stacks[(row, col)]
        m = self.movers
        settled = [s for s in stack if s not in m]
        arrivals = sorted((s for s in stack if s in m), key=lambda s: (-m[s][0], -m[s][1], m[s][2]))
        stack[:] = settled + arrivals
