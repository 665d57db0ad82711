"""Timings of route search on 1830 positions: the reference record's runs, and late self-played maps with
Diesels (D, 6+D, D+D), where the Altoona through track and the paired off-boards apply.

Run: ``python benchmarks/routes_1830.py [games]`` (from the repository root). Prints each figure, the target of the
engine-speed issue (p95 ≤ 20 ms, max ≤ 250 ms) and the ratio figure/target. The 18xx.games auto-router gives no
exact maximum to compare with; its figures on 18FL/18AL are in README "Known limits".
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, new_game  # noqa: E402
from engine.actions import parse_action  # noqa: E402
from engine.routes import TrainSpec, best_routes  # noqa: E402
from engine.selfplay import choose  # noqa: E402

RECORD = Path(__file__).resolve().parents[2] / "shared" / "reference" / "records" / "1830-3p-bank.json"
P95_TARGET, MAX_TARGET = 0.020, 0.250
SETS = {
    "D": [TrainSpec("a", "D", None)],
    "6+D": [TrainSpec("a", "6", 6), TrainSpec("b", "D", None)],
    "D+D": [TrainSpec("a", "D", None), TrainSpec("b", "D", None)],
}


def timed(game: Game, corp: str, trains: list[TrainSpec]) -> tuple[float, int]:
    rules = game.rules.route_rules(game)
    t0 = time.perf_counter()
    revenue = best_routes(game.board, corp, trains, rules).revenue
    return time.perf_counter() - t0, revenue


def record_times() -> list[float]:
    """Every run_routes point of the reference record, timed before the record's own run."""
    from engine.records import read_record

    if not RECORD.exists():
        print(f"(no reference record at {RECORD})")
        return []
    done = read_record(json.loads(RECORD.read_text()), routes=False).game
    game = Game(done.rules, [p.name for p in done.players], done.seed, done.options)
    times = []
    for a in done.actions:
        if a.type == "run_routes":
            corp = game.round.corp
            times.append(timed(game, corp, game.rules.train_specs(game, corp))[0])
        game.replaying = True
        game.process(parse_action(a))
    return times


def late_game(seed: int, players: int = 4) -> Game:
    game = new_game("1830", [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    while not game.finished and len(game.actions) < 6000:
        act = choose(rng, game.legal_actions(), game)
        if act.type == "bankrupt":
            break  # keep the richest map
        game.process(act)
    return game


def report(label: str, times: list[float]) -> None:
    if not times:
        return
    p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
    worst = max(times)
    print(f"{label}: {len(times)} searches, p95 {p95 * 1000:.1f} ms (target {P95_TARGET * 1000:.0f} ms, ratio "
          f"{p95 / P95_TARGET:.2f}), max {worst * 1000:.1f} ms (target {MAX_TARGET * 1000:.0f} ms, ratio "
          f"{worst / MAX_TARGET:.2f})")


def main() -> int:
    report("1830 reference record, every run", record_times())
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    times = []
    for seed in range(1, games + 1):
        game = late_game(seed)
        for corp in game.corps:
            if not game.board.stations(corp):
                continue
            for trains in SETS.values():
                t, _rev = timed(game, corp, trains)
                times.append(t)
    report(f"late self-played maps ({games} games), D, 6+D, D+D for every corporation", times)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
