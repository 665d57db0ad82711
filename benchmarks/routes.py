"""Timings of route search on dense late-game 18FL positions.

Run: ``python benchmarks/routes.py`` (from the repository root).

* "dense" positions are built programmatically: every hex gets the highest-colour tile of its kind that the
  supply allows, turned to connect to as many neighbours as possible (denser than any real game, so these
  figures are an upper bound), then tokens, hotels and trains;
* "record" positions are the final map of a real 4-player game from 18xx.games (the reference records, if
  present), each corporation with its last trains and with late-game pairs.

Each line prints the median and worst wall time of several runs of ``best_routes`` (and the median CPU time,
steadier on a busy machine), the time of ``reach``, and the revenue and routes found.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.board import Board  # noqa: E402
from engine.graph import reach  # noqa: E402
from engine.hexgrid import opposite  # noqa: E402
from engine.routes import TrainSpec, best_routes  # noqa: E402
from engine.tiles import distinct_rotations, keeps_track, tile_layout  # noqa: E402
from engine.titledata import load_title  # noqa: E402
from engine.titles.g18fl_routes import FLRouteRules, train_spec  # noqa: E402

TITLE = load_title("18FL")

# Upgrade families by hex kind, most exits first within a colour.
PLAIN = {"yellow": ["9", "8"], "green": ["82", "83", "81", "80"], "brown": ["545", "544", "546"]}
TOWN = {"yellow": ["4", "58", "3"], "green": ["141", "142", "143"], "brown": ["146"]}
CITY = {
    "F23": ["6o", "443o", "63"],
    "J27": ["6fl", "443fl", "611"],
    "G20": ["405", "431"],
    "K28": ["405", "431"],
    "B5": ["15"],
    "B15": ["15"],
    "B23": ["487", "488"],
}
KEYS = {"L27": ("9", {0, 3}), "M26": ("8", {1, 3}), "M24": ("58", {4, 0})}


def _score(board: Board, hex_id: str, tile: str, rot: int) -> int:
    """How many of the tile's exits meet an open side (track-bearing neighbours count double)."""
    score = 0
    for e in tile_layout(TITLE.tiles[tile], rot).exits:
        if not board.edge_open(hex_id, e):
            return -1
        other = board.neighbour(hex_id, e)
        assert other is not None
        color = TITLE.hex(other).color
        if color in ("gray",) and opposite(e) not in board.layout(other).exits:
            return -1
        if color == "red" and opposite(e) not in board.layout(other).exits:
            return -1
        score += 2 if opposite(e) in board.layout(other).exits else 1
    return score


def _upgrade(board: Board, hex_id: str, choices: list[str]) -> bool:
    old = board.layout(hex_id)
    best: tuple[int, str, int] | None = None
    for tile in choices:
        if not board.supply[tile] and not TITLE.tiles[tile].unlimited:
            continue
        for rot in distinct_rotations(TITLE.tiles[tile]):
            if not keeps_track(old, tile_layout(TITLE.tiles[tile], rot)):
                continue
            s = _score(board, hex_id, tile, rot)
            if s >= 0 and (best is None or s > best[0]):
                best = (s, tile, rot)
    if best is None:
        return False
    _, tile, rot = best
    n_old = len(board.hexes[hex_id].tokens)
    n_new = len(TITLE.tiles[tile].cities)
    board.place_tile(hex_id, tile, rot, [min(i, n_new - 1) for i in range(n_old)])
    return True


def dense_board(colours: tuple[str, ...] = ("yellow", "green", "brown")) -> Board:
    board = Board(TITLE)
    for hex_id, (tile, exits) in KEYS.items():
        for rot in range(6):
            if tile_layout(TITLE.tiles[tile], rot).exits == frozenset(exits):
                board.place_tile(hex_id, tile, rot, [])
                break
    for colour in colours:
        # two sweeps: a tile laid later can make an earlier hex's best rotation different
        for hex_def in TITLE.hexes:
            h = hex_def.id
            if h in KEYS or not hex_def.buildable:
                continue
            if h in CITY:
                fam = [t for t in CITY[h] if TITLE.tiles[t].color == colour]
                if fam:
                    _upgrade(board, h, fam)
            elif hex_def.towns:
                _upgrade(board, h, TOWN[colour])
            elif not hex_def.cities:
                _upgrade(board, h, PLAIN[colour])
    return board


def tokens(board: Board) -> None:
    homes = {"ACL": ("G20", 0), "FEC": ("K28", 0), "L&N": ("B5", 0), "TPS": ("B15", 0), "SAL": ("B23", 0),
             "SR": ("B23", 1)}
    for corp, (h, ci) in homes.items():
        slots = board.hexes[h].tokens[ci]
        slots[slots.index(None)] = corp
    extra = {"SAL": [("F23", 0), ("J27", 0)], "ACL": [("B15", 0), ("F23", 0)], "FEC": [("G20", 0)]}
    for corp, places in extra.items():
        for h, ci in places:
            slots = board.hexes[h].tokens[ci]
            if None in slots:
                slots[slots.index(None)] = corp
    board.hexes["C24"].hotels[0] = "SAL"
    board.hexes["D25"].hotels[0] = "SAL"
    board.hexes["I28"].hotels[0] = "FEC"


def positions() -> list[tuple[str, Board, str, list[TrainSpec], bool]]:
    brown = dense_board()
    tokens(brown)
    green = dense_board(("yellow", "green"))
    tokens(green)
    return [
        ("dense green map, SAL 4+4", green, "SAL", [train_spec("4-0", "4"), train_spec("4-1", "4")], False),
        ("dense brown map, SAL 5+6", brown, "SAL", [train_spec("5-0", "5"), train_spec("6-0", "6")], True),
        ("dense brown map, SAL 6+3E", brown, "SAL", [train_spec("6-0", "6"), train_spec("6-1", "3E")], True),
        ("dense brown map, ACL 5+6", brown, "ACL", [train_spec("5-0", "5"), train_spec("6-0", "6")], True),
        ("dense brown map, FEC 6+6", brown, "FEC", [train_spec("6-0", "6"), train_spec("6-1", "6")], True),
        ("dense brown map, ACL 4+4+3 (stress)", brown, "ACL",
         [train_spec("4-0", "4"), train_spec("4-1", "4"), train_spec("3-0", "3")], True),
    ]


RECORD = Path("/work/shared/reference/records/18FL-4p-bankrupt.json")


def record_positions() -> list[tuple[str, Board, str, list[TrainSpec], bool]]:
    if not RECORD.exists():
        return []
    from tests.test_routes import replay_record

    board, runs = replay_record(RECORD)
    last = {run.corp: run for run in runs}
    out = []
    for corp, run in sorted(last.items()):
        names = "+".join(t.name for t in run.trains)
        out.append((f"record map, {corp} {names}", board, corp, run.trains, run.rules.late))
    for corp in sorted(last):
        out.append((f"record map, {corp} 5+6", board, corp, [train_spec("5-0", "5"), train_spec("6-0", "6")], True))
        out.append((f"record map, {corp} 6+3E", board, corp, [train_spec("6-0", "6"), train_spec("6-1", "3E")], True))
    return out


def main(repeat: int = 5) -> None:
    for label, board, corp, trains, late in positions() + record_positions():
        rules = FLRouteRules(late=late)
        times, cpu = [], []
        result = None
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            result = best_routes(board, corp, trains, rules)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        assert result is not None
        t0 = time.perf_counter()
        reach(board, corp)
        t_reach = time.perf_counter() - t0
        stops = " | ".join("-".join(r.node_ids()) for r in result.routes)
        wall, proc = statistics.median(times) * 1000, statistics.median(cpu) * 1000
        print(f"{label:34s} median {wall:6.1f} ms (cpu {proc:6.1f})  max {max(times) * 1000:6.1f} ms  "
              f"reach {t_reach * 1000:4.1f} ms  revenue {result.revenue:4d}  {stops}")


if __name__ == "__main__":
    main()
