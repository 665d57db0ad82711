"""Route search speed over real positions, per title, next to the targets and the Ruby auto-router.

Run: ``python benchmarks/routes.py [--games N] [--titles 18FL,18AL] [--worst K] [--longer]`` (from the repository root).

Positions (``benchmarks/route_positions.py``): every ``run_routes`` point of the reference records of the title, and
every route run of N seeded self-played games per title (default 30, spread over the player counts; captured once
and cached under ``.cache/``, which takes a while the first time). Each position is searched once with
``best_routes`` at its default budget. Printed per title and source: p50, p95 and max of the CPU time (steadier
than wall time on a shared machine; wall p95 beside it), the positions whose answer is not proven best, and the
ratios to the target (p95 20 ms, max 250 ms) and to the 18xx.games auto-router on the record points
(``../shared/reference/anchors/ruby-engine.md``; a ratio below 1 is faster). With ``--longer``, the positions not
proven are searched again as the bot's prompt does (``LONGER_SEARCH`` times the budget): how many are then proven,
how long that takes and how much their answers rise.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.route_positions import GAMES_PER_TITLE, Position, all_positions  # noqa: E402
from engine.routes import best_routes  # noqa: E402

TARGET_P95_MS, TARGET_MAX_MS = 20.0, 250.0
# The site's auto-router at every run_routes point of the public records: p50, p95, max in ms.
RUBY_MS = {"18FL": (63.0, 10_900.0, 39_500.0), "18AL": (6.8, 429.0, 553.0), "1830": (5.3, 122.0, 366.0)}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(positions: list[Position]) -> list[tuple[float, float, Position, int, bool]]:
    """(cpu ms, wall ms, position, revenue, proven) per position."""
    out = []
    for p in positions:
        w0, c0 = time.perf_counter(), time.process_time()
        rs = best_routes(p.board, p.corp, p.trains, p.rules)
        cpu, wall = (time.process_time() - c0) * 1000, (time.perf_counter() - w0) * 1000
        out.append((cpu, wall, p, rs.revenue, rs.proven))
        # Each captured board would keep its track graph and route links: thousands of them make the collector's
        # full passes (inside some later timed search) take hundreds of ms, which a game's one board never does.
        p.board.graph_cache.clear()
        gc.collect()  # outside the timing: the garbage of earlier searches is not this search's cost
    return out


def summary(rows: list[tuple[float, float, Position, int, bool]]) -> tuple[float, float, float, float, int]:
    """p50, p95 and max CPU ms, wall p95, and how many answers are not proven best."""
    cpu = [r[0] for r in rows]
    return (statistics.median(cpu), _pct(cpu, 0.95), max(cpu), _pct([r[1] for r in rows], 0.95),
            sum(1 for r in rows if not r[4]))


def report(title: str, source: str, rows: list[tuple[float, float, Position, int, bool]], worst: int) -> None:
    if not rows:
        print(f"{title:6s} {source:10s} no positions")
        return
    p50, p95, mx, wall95, unproven = summary(rows)
    line = (f"{title:6s} {source:10s} n={len(rows):4d}  p50 {p50:7.1f}  p95 {p95:7.1f} (wall {wall95:7.1f})  "
            f"max {mx:7.1f} ms  not proven {unproven:3d}  p95/target {p95 / TARGET_P95_MS:5.2f}  "
            f"max/target {mx / TARGET_MAX_MS:5.2f}")
    ruby = RUBY_MS.get(title)
    if ruby is not None and source == "records":
        line += f"  vs Ruby: p50 {p50 / ruby[0]:.3f} p95 {p95 / ruby[1]:.4f} max {mx / ruby[2]:.4f}"
    print(line)
    for cpu_ms, _, p, revenue, proven in sorted(rows, key=lambda r: -r[0])[:worst]:
        print(f"{'':18s}{cpu_ms:7.1f} ms  {revenue:4d}{'' if proven else ' (not proven)'}  {p.label()}")


def longer(title: str, rows: list[tuple[float, float, Position, int, bool]]) -> None:
    """The positions not proven, searched again as the bot's prompt does (``LONGER_SEARCH`` times the budget)."""
    from bot.service.table import LONGER_SEARCH
    from engine import routes

    again = []
    for _, _, p, revenue, proven in rows:
        if proven:
            continue
        c0 = time.process_time()
        rs = best_routes(p.board, p.corp, p.trains, p.rules, budget=LONGER_SEARCH * routes.DEFAULT_BUDGET)
        again.append(((time.process_time() - c0) * 1000, rs.proven, rs.revenue - revenue))
        p.board.graph_cache.clear()
    if again:
        ms = sorted(a[0] for a in again)
        print(f"{title:6s} {'':10s} searched again with {LONGER_SEARCH}x the budget (the bot's prompt): "
              f"{sum(a[1] for a in again)} of {len(again)} proven, p50 {ms[len(ms) // 2]:.0f} ms, max {ms[-1]:.0f} ms; "
              f"{sum(1 for a in again if a[2] > 0)} answers rise, by {sum(a[2] for a in again)} in all")


def figures(games: int = GAMES_PER_TITLE) -> list[tuple[str, str, str, str, str]]:
    """Rows for ``engine_speed.py``'s table: (work, figure, target, Ruby figure, ratios) per title and source."""
    out = []
    everything = all_positions(games)
    gc.collect()
    gc.freeze()
    for title, positions in everything.items():
        for source in ("records", "selfplay"):
            rows = measure([p for p in positions if p.source.startswith(source.rstrip("s"))])
            if not rows:
                continue
            p50, p95, mx, _wall95, unproven = summary(rows)
            ruby = RUBY_MS.get(title) if source == "records" else None
            out.append((
                f"best routes, {title} {source} ({len(rows)} searches)",
                f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {mx:.0f} ms, {unproven} not proven",
                f"p95 ≤ {TARGET_P95_MS:.0f} ms, max ≤ {TARGET_MAX_MS:.0f} ms, all proven",
                f"p95 {ruby[1]:.0f} ms, max {ruby[2]:.0f} ms" if ruby else "–",
                (f"p95/target {p95 / TARGET_P95_MS:.2f}, max/target {mx / TARGET_MAX_MS:.2f}"
                 + (f"; p95/Ruby {p95 / ruby[1]:.4f}, max/Ruby {mx / ruby[2]:.4f}" if ruby else "")),
            ))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=GAMES_PER_TITLE, help="self-played games per title")
    ap.add_argument("--titles", default="", help="comma-separated titles (default: every title)")
    ap.add_argument("--worst", type=int, default=3, help="slowest positions to list per line")
    ap.add_argument("--longer", action="store_true", help="search the positions not proven again, as the bot does")
    args = ap.parse_args(argv)
    wanted = [t for t in args.titles.split(",") if t]
    print(f"targets: p95 <= {TARGET_P95_MS:.0f} ms, max <= {TARGET_MAX_MS:.0f} ms; times are CPU ms per search")
    everything = all_positions(args.games, wanted or None)
    # the captured positions are millions of objects a full collection would walk inside some timed search
    gc.collect()
    gc.freeze()
    for title, positions in everything.items():
        for source in ("records", "selfplay"):
            rows = measure([p for p in positions if p.source.startswith(source.rstrip("s"))])
            report(title, source, rows, args.worst)
            if args.longer:
                longer(title, rows)


if __name__ == "__main__":
    main()
