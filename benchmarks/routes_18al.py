"""Timings of route search on late-game 18AL positions (7 and 4D trains).

Run: ``python benchmarks/routes_18al.py [games]`` (from the repository root).

Positions come from seeded self-played 18AL games (``engine.selfplay``'s random player): each game is played
until its last operating round and the final map is kept. On it, every corporation with a station is timed with
late-game train sets: its own trains, then (7, 4D), (4D, 4D) and (7, 4D, 4D) as if it owned them (the last is
above the phase-5 limit of two, an upper bound). Each line prints the median and worst wall time of several runs
of ``best_routes`` and the revenue found. The random player builds sparser maps than people do, so denser
positions are also timed: the same map with every free city circle tokened for the corporation.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, new_game  # noqa: E402
from engine.routes import TrainSpec, best_routes  # noqa: E402
from engine.selfplay import choose  # noqa: E402
from engine.tiles import distinct_rotations, keeps_track, tile_layout  # noqa: E402
from engine.track import city_map, exit_problem, next_color, special_tile_problem  # noqa: E402

SETS = {
    "7+4D": [TrainSpec("a", "7", 7), TrainSpec("b", "4D", 4, multiplier=2)],
    "4D+4D": [TrainSpec("a", "4D", 4, multiplier=2), TrainSpec("b", "4D", 4, multiplier=2)],
    "7+4D+4D": [TrainSpec("a", "7", 7), TrainSpec("b", "4D", 4, multiplier=2), TrainSpec("c", "4D", 4, multiplier=2)],
}


def late_game(seed: int, players: int = 4, title: str = "18AL") -> Game:
    game = new_game(title, [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    while not game.finished and len(game.actions) < 6000:
        act = choose(rng, game.legal_actions(), game)
        if act.type == "bankrupt":
            break  # keep the richest map: stop before a bankruptcy ends the game
        game.process(act)
    return game


def timed(game: Game, corp: str, trains: list[TrainSpec], runs: int = 3) -> tuple[float, float, int]:
    times, revenue = [], 0
    rules = game.rules.route_rules(game)
    for _ in range(runs):
        t0 = time.perf_counter()
        revenue = best_routes(game.board, corp, trains, rules).revenue
        times.append(time.perf_counter() - t0)
    return statistics.median(times), max(times), revenue


def dense_game(seed: int = 1, title: str = "18AL") -> Game:
    """A built-up late-game map: every buildable hex carries the best-connected tile of each colour in turn.

    Tiles are chosen with the engine's own checks (label, towns and cities, kept track, no exit into a blank side),
    ignoring who could have reached the hex, so the map is as dense as the tile manifest allows; every free city
    circle then holds a token of some corporation. This is harder than any real game's map.
    """
    game = late_game(seed, title=title)
    board, data = game.board, game.data
    game.phase_index = len(data.phases) - 1
    for colour in ("yellow", "green", "brown", "gray"):
        for h in data.hexes:
            if not h.buildable:
                continue
            old = board.layout(h.id)
            if next_color(old) != colour:
                continue
            best: tuple[int, str, int] | None = None
            for tid, tdef in data.tiles.items():
                if tdef.color != colour or (tdef.label or None) != (h.label or None) or \
                        (not board.supply.get(tid) and not tdef.unlimited):
                    continue
                for rot in distinct_rotations(tdef):
                    if special_tile_problem(game, h.id, tid, rot):
                        continue
                    new = tile_layout(tdef, rot)
                    if len(new.towns) != len(old.towns) or bool(new.cities) != bool(old.cities) or \
                            (old.color == "white" and len(new.cities) != len(old.cities)):
                        continue
                    if not keeps_track(old, new) or exit_problem(game, h.id, new):
                        continue
                    score = len(new.exits) * 10 + sum(c.slots for c in new.cities)
                    if best is None or score > best[0]:
                        best = (score, tid, rot)
            if best is not None:
                board.place_tile(h.id, best[1], best[2], city_map(game, h.id, best[1], best[2]))
    corps = list(game.corps)
    k = 0
    for st in board.hexes.values():
        for slots in st.tokens:
            for i, v in enumerate(slots):
                if v is None:
                    slots[i] = corps[k % len(corps)]
                    k += 1
    return game


def train_sets(game: Game, sets: dict[str, list[TrainSpec]]) -> list[tuple[str, str, list[TrainSpec]]]:
    """(corporation, label, trains) to time on a game's map: each stationed corporation's own trains, then the
    late-game sets as if it owned them."""
    out = []
    for corp in game.corps:
        if not game.board.stations(corp):
            continue
        own = game.rules.train_specs(game, corp)
        for label, trains in [("own " + ",".join(t.name for t in own), own), *sets.items()]:
            if trains:
                out.append((corp, label, trains))
    return out


RECORD = Path(__file__).resolve().parents[2] / "shared" / "reference" / "records" / "18AL-4p-bank.json"


def record_positions() -> None:
    """The real late game of the 18AL reference record (a 4-player game the bank broke): every corporation's
    trains in the last operating rounds, timed before the record's own run_routes."""
    import json

    from engine.records import read_record

    if not RECORD.exists():
        print(f"(no reference record at {RECORD})")
        return
    data = json.loads(RECORD.read_text())
    ids = [a["id"] for a in data["actions"] if a.get("type") == "run_routes" and a["id"] >= 320]
    print(f"18AL reference record, {len(ids)} late runs (7, 6, 5 and 4D trains)")
    for aid in ids:
        game = read_record(data, before=aid, routes=False).game
        corp = game.round.corp
        trains = game.rules.train_specs(game, corp)
        med, worst, rev = timed(game, corp, trains)
        label = "+".join(t.name for t in trains)
        print(f"  before {aid:3} {corp:4} {label:14} median {med * 1000:8.1f} ms  worst {worst * 1000:8.1f} ms  ${rev}")


def main() -> int:  # noqa: C901
    record_positions()
    dense = dense_game()
    tiles = sum(1 for st in dense.board.hexes.values() if st.tile)
    print(f"dense built-up map: {tiles} tiles, phase {dense.phase.name}")
    for corp in dense.corps:
        for label, trains in SETS.items():
            med, worst, rev = timed(dense, corp, trains)
            print(f"  {corp:4} {label:14} median {med * 1000:8.1f} ms  worst {worst * 1000:8.1f} ms  ${rev}")
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    for seed in range(1, games + 1):
        game = late_game(seed)
        tiles = sum(1 for st in game.board.hexes.values() if st.tile)
        print(f"seed {seed}: phase {game.phase.name}, {tiles} tiles laid, {len(game.actions)} actions")
        for corp, label, trains in train_sets(game, SETS):
            med, worst, rev = timed(game, corp, trains)
            print(f"  {corp:4} {label:14} median {med * 1000:8.1f} ms  worst {worst * 1000:8.1f} ms  ${rev}")
        # denser: every corporation tokened in every free circle
        for st in game.board.hexes.values():
            for slots in st.tokens:
                for i, v in enumerate(slots):
                    if v is None:
                        slots[i] = "ABC"
        med, worst, rev = timed(game, "ABC", SETS["7+4D+4D"])
        print(f"  ABC  all circles, 7+4D+4D median {med * 1000:8.1f} ms  worst {worst * 1000:8.1f} ms  ${rev}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
