"""The engine's speed figures of issue #11 in one run: each figure next to its target and the Ruby engine's.

Run: ``python benchmarks/engine_speed.py`` (from the repository root). ``--quick`` skips the whole self-played games
(minutes while route search is slow); ``--runs N`` sets the repetitions of the short measurements.

Rows:
* replay of each reference record in-process (``read_record(..., routes=False)``: an import, which checks every
  move and route once) and of the same game's own stored log (``Game(..., actions)``: the trusted replay a bot
  cold load does without a checkpoint), against the Ruby engine's load time of the same record;
* cold load and undo of a 600-action game through the bot's checkpoints and a real SQLite file;
* a whole self-played game (a subprocess, as ``python -m engine selfplay``): wall time and peak memory;
* the map picture of a late real game;
* the route rows, from the route benchmarks' ``figures()`` when they provide one.

Wall times on a shared machine are noisy: the CPU time of this process is printed too (``cpu``), and ratios use
the median wall time of several runs. Ruby figures: ../shared/reference/anchors/ruby-engine.md (±20%).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.checkpoints import load_game  # noqa: E402
from bot.storage import Store  # noqa: E402
from engine.errors import GameError  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.records import read_record  # noqa: E402
from engine.selfplay import selfplay  # noqa: E402
from engine.titles import TITLES  # noqa: E402
from render import render_map  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import repeat  # noqa: E402

RECORDS = ROOT.parent / "shared" / "reference" / "records"
# The Ruby engine's load of each record: (actions after undo/redo, milliseconds), ruby-engine.md
RUBY = {
    "18FL-2p-short": (20, 9.8),
    "18FL-4p-bankrupt": (280, 78.0),
    "18AL-4p-bank": (445, 147.6),
    "18AL-3p-bankrupt": (225, 77.1),
    "1830-3p-bank": (548, 144.2),
}
REPLAY_TARGET_MS_PER_ACTION = 0.3
LOAD_TARGET_MS = 50.0
SELFPLAY_TARGET_S, SELFPLAY_TARGET_MB = 15.0, 150.0
MAP_TARGET_MS = 80.0


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    """Median wall and CPU milliseconds of ``runs`` calls and the last result."""
    wall, cpu, out = repeat(fn, runs)
    return statistics.median(wall), statistics.median(cpu), out


def row(work: str, figure: str, target: str, ruby: str = "–", ratio: str = "–") -> None:
    print(f"| {work} | {figure} | {target} | {ruby} | {ratio} |")


def replay_rows(runs: int) -> None:
    for name, (ruby_actions, ruby_ms) in RUBY.items():
        path = RECORDS / f"{name}.json"
        if not path.exists():
            row(f"replay {name}", "record not found", "", f"{ruby_ms:.0f} ms")
            continue
        data = json.loads(path.read_text())
        try:
            wall, cpu, imported = timed(lambda data=data: read_record(data, routes=False), runs)
        except GameError as e:
            row(f"replay {name}", f"not replayed: {str(e)[:70]}", "", f"{ruby_ms:.0f} ms")
            continue
        game = imported.game
        n = len(game.actions)
        row(f"replay {name} (import, {n} actions)", f"{wall:.0f} ms, {wall / n:.2f} ms/action (cpu {cpu:.0f} ms)",
            f"≤ {ruby_ms:.0f} ms (Ruby), ~{REPLAY_TARGET_MS_PER_ACTION} ms/action",
            f"{ruby_ms:.0f} ms, {ruby_ms / ruby_actions:.2f} ms/action",
            f"{wall / ruby_ms:.2f} (cpu {cpu / ruby_ms:.2f})")
        log = game.action_log()
        names = [p.name for p in game.players]
        own = lambda g=game, log=log, names=names: Game(g.rules, names, g.seed, g.options, log)  # noqa: E731
        wall, cpu, _ = timed(own, runs)
        row(f"replay {name} (own stored log)", f"{wall:.0f} ms, {wall / n:.2f} ms/action (cpu {cpu:.0f} ms)",
            f"≤ {ruby_ms:.0f} ms", f"{ruby_ms:.0f} ms", f"{wall / ruby_ms:.2f} (cpu {cpu / ruby_ms:.2f})")


async def _load_rows(runs: int, length: int = 600) -> None:
    played = selfplay("18AL", 4, seed=5, max_actions=length, check=False)["game"]
    log = played.action_log()[:length]
    names = [p.name for p in played.players]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.db")
        try:
            gid = await store.create_game(guild_id=1, channel_id=1, title="18AL", options={}, seed=5, creator_id=1,
                                          now=0.0)
            for i, name in enumerate(names):
                await store.add_player(gid, 100 + i, name)
            await store.set_status(gid, "active", 0.0)
            async with store.transaction() as tx:
                for a in log:
                    await tx.append_action(gid, a, None, 0.0)

            async def load(upto: int | None = None) -> Game:
                row_ = await store.game(gid)
                assert row_ is not None
                players = [p.name for p in await store.players(gid)]
                return await load_game(store, row_, players, await store.actions(gid), 0.0, upto=upto)

            await store.drop_checkpoints(gid)
            t0 = time.perf_counter()
            await load()  # no checkpoint yet: the whole log (and the checkpoints are written)
            first = (time.perf_counter() - t0) * 1000
            cases = ((f"cold load, {len(log)}-action game", None), ("undo of its last action", len(log) - 1))
            for label, upto in cases:
                walls, cpus = [], []
                for _ in range(runs):
                    t0, c0 = time.perf_counter(), time.process_time()
                    await load(upto)
                    walls.append((time.perf_counter() - t0) * 1000)
                    cpus.append((time.process_time() - c0) * 1000)
                wall, cpu = statistics.median(walls), statistics.median(cpus)
                row(label + " (18AL 4p, SQLite, checkpoints)", f"{wall:.1f} ms (cpu {cpu:.1f} ms)",
                    f"≤ {LOAD_TARGET_MS:.0f} ms", "–", f"{wall / LOAD_TARGET_MS:.2f} of target")
            row("  the same load with no checkpoint (whole log)", f"{first:.0f} ms", "–")
        finally:
            await store.close()


def selfplay_rows(titles: list[tuple[str, int]]) -> None:
    for title, players in titles:
        cmd = [sys.executable, "-m", "engine", "selfplay", title, "--players", str(players), "--seed", "7", "--json"]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        out = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        peak_mb = usage.ru_maxrss / 1024
        try:
            actions = json.loads(out)["actions"]
        except (ValueError, KeyError):
            actions = "?"
        row(f"self-play {title} {players}p seed 7 ({actions} actions)",
            f"{wall:.1f} s, {peak_mb:.0f} MB peak (cpu {usage.ru_utime + usage.ru_stime:.1f} s)",
            f"≤ {SELFPLAY_TARGET_S:.0f} s, ≤ {SELFPLAY_TARGET_MB:.0f} MB", "–",
            f"{wall / SELFPLAY_TARGET_S:.2f} / {peak_mb / SELFPLAY_TARGET_MB:.2f} of target")


def map_rows(runs: int) -> None:
    path = RECORDS / "18FL-4p-bankrupt.json"
    if not path.exists():
        row("map picture", "record not found", f"≤ {MAP_TARGET_MS:.0f} ms")
        return
    game = read_record(json.loads(path.read_text()), routes=False).game
    wall, cpu, png = timed(lambda: render_map(game.board, late=True, title_text="18FL - final map"), runs)
    row("map picture (18FL 4p record, final map)", f"{wall:.0f} ms (cpu {cpu:.0f} ms), {len(png) / 1024:.0f} KB",
        f"≤ {MAP_TARGET_MS:.0f} ms", "–", f"{wall / MAP_TARGET_MS:.2f} of target")


def route_rows() -> None:
    """The route rows belong to the route benchmarks; they are printed here when those provide ``figures()``."""
    for module in ("routes",):  # every title's records and self-play (routes_18al.py is its 18AL part)
        try:
            mod = __import__(module)
        except ImportError as e:
            row(f"routes ({module}.py)", f"not importable: {e}", "p95 ≤ 20 ms, max ≤ 250 ms")
            continue
        figures = getattr(mod, "figures", None)
        if figures is None:
            row(f"routes ({module}.py)", f"run `python benchmarks/{module}.py`", "p95 ≤ 20 ms, max ≤ 250 ms")
            continue
        for line in figures():
            row(*line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="skip the whole self-played games")
    args = ap.parse_args(argv)
    print("| work | ours | target | Ruby engine | ratio (ours/Ruby or ours/target) |")
    print("| --- | --- | --- | --- | --- |")
    replay_rows(args.runs)
    asyncio.run(_load_rows(args.runs))
    map_rows(args.runs)
    if not args.quick:
        selfplay_rows([("18FL", 3)] + [(t, 4) for t in TITLES if t != "18FL"])
    route_rows()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
