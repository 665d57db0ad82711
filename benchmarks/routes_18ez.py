"""Route search and whole-game timings on 18EZ positions (issue 11's targets).

Run: ``python benchmarks/routes_18ez.py [games]`` (from the repository root).

Seeded self-play games for 2 to 6 players (``engine.selfplay``'s random player). At every ``run_routes`` point the
best routes are searched once more outside the game and timed (wall and CPU). Prints p95 and max against the
targets (p95 <= 20 ms, max <= 250 ms), the whole game's time against its target (<= 15 s), and the revenue found.
There is no reference-engine figure: 18xx.games has no 18EZ.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import new_game  # noqa: E402
from engine.routes import best_routes  # noqa: E402
from engine.selfplay import choose  # noqa: E402

P95_MS, MAX_MS, GAME_S = 20.0, 250.0, 15.0


def play(players: int, seed: int) -> tuple[list[tuple[float, int, int]], float, int]:
    """(ms, revenue, trains) per route run, the game's wall time, and its number of actions."""
    game = new_game("18EZ", [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    runs: list[tuple[float, int, int]] = []
    start = time.perf_counter()
    searched = 0.0
    while not game.finished and len(game.actions) < 6000:
        act = choose(rng, game.legal_actions(), game)
        if act.type == "run_routes":
            corp = game.round.corp
            specs = game.rules.train_specs(game, corp)
            t0 = time.perf_counter()
            res = best_routes(game.board, corp, specs, game.rules.route_rules(game))
            ms = (time.perf_counter() - t0) * 1000
            searched += ms / 1000
            runs.append((ms, res.revenue, len(specs)))
        game.process(act)
    # the extra searches made here are not part of the game's own time
    return runs, time.perf_counter() - start - searched, len(game.actions)


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    all_ms: list[float] = []
    worst_game = 0.0
    for i in range(games):
        players = 2 + i % 5
        runs, wall, n = play(players, 100 + i)
        ms = [r[0] for r in runs]
        all_ms += ms
        worst_game = max(worst_game, wall)
        best = max((r[1] for r in runs), default=0)
        print(f"game {i + 1}: {players} players, {n} actions in {wall:.1f} s; {len(runs)} route runs, median "
              f"{statistics.median(ms) if ms else 0:.1f} ms, max {max(ms, default=0):.1f} ms, best revenue ${best}")
    all_ms.sort()
    p95 = all_ms[int(0.95 * (len(all_ms) - 1))] if all_ms else 0.0
    worst = all_ms[-1] if all_ms else 0.0
    print(f"route search over {len(all_ms)} runs: p95 {p95:.1f} ms (target {P95_MS:.0f} ms, ratio "
          f"{p95 / P95_MS:.2f}); max {worst:.1f} ms (target {MAX_MS:.0f} ms, ratio {worst / MAX_MS:.2f}); "
          "reference engine: no 18EZ")
    print(f"slowest whole game: {worst_game:.1f} s (target {GAME_S:.0f} s, ratio {worst_game / GAME_S:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
