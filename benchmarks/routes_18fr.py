"""Timings of route search on late-game 18FR-RCE positions (Diesels, 7s, the pass-through Genève and Brest).

Run: ``python benchmarks/routes_18fr.py [games]`` (from the repository root).

The same method as ``routes_18al.py``: a densely built map (every buildable hex at its best-connected tile of each
colour, every free circle tokened), then the final maps of seeded self-played games, each corporation timed with
its own trains and with late-game sets. Each line prints the median and worst wall time of ``best_routes``, the
target (the README's: a real map's late-game search in under 50 ms median) as a ratio, and the revenue. There is
no reference engine figure: 18xx.games has no 18FR-RCE.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.routes_18al import dense_game, late_game, timed, train_sets  # noqa: E402
from engine.routes import TrainSpec  # noqa: E402

TARGET_MS = 50.0
SETS = {
    "D": [TrainSpec("a", "D", None)],
    "7+D": [TrainSpec("a", "7", 7), TrainSpec("b", "D", None)],
    "D+D": [TrainSpec("a", "D", None), TrainSpec("b", "D", None)],
    "6+7": [TrainSpec("a", "6", 6), TrainSpec("b", "7", 7)],
}


def line(corp: str, label: str, med: float, worst: float, rev: int) -> str:
    return (f"  {corp:4} {label:12} median {med * 1000:8.1f} ms  worst {worst * 1000:8.1f} ms  "
            f"target {TARGET_MS:.0f} ms (x{med * 1000 / TARGET_MS:.2f})  {rev}fr")


def main() -> int:
    dense = dense_game(title="18FR-RCE")
    tiles = sum(1 for st in dense.board.hexes.values() if st.tile)
    print(f"18FR-RCE dense built-up map: {tiles} tiles, phase {dense.phase.name}")
    for corp in dense.corps:
        for label, trains in SETS.items():
            print(line(corp, label, *timed(dense, corp, trains)))
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for seed in range(1, games + 1):
        game = late_game(seed, title="18FR-RCE")
        tiles = sum(1 for st in game.board.hexes.values() if st.tile)
        print(f"seed {seed}: phase {game.phase.name}, {tiles} tiles laid, {len(game.actions)} actions")
        for corp, label, trains in train_sets(game, SETS):
            print(line(corp, label, *timed(game, corp, trains)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
