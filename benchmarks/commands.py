"""Command handling time of the bot's service, without rendering pictures.

    python benchmarks/commands.py [--actions 400] [--seed 1] [--json]

Plays an 18FL game through `Service.handle` on a real SQLite file in a temporary folder (three players, the
engine's seeded random policy choosing among legal moves, each move sent as the seated player would send it), and
times every command from its arrival to the reply being ready: channel lock, game lookup, authorisation, the
engine's move, the SQLite commit, the log lines, the next player's prompt with its buttons. Pictures are described
but not drawn (the Discord adapter draws them in a worker thread after replying). Also timed: read-only views,
autocomplete, and a cold load (replaying the whole log after a restart). Target: median under 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.commands import encode_action  # noqa: E402
from bot.service import Service, User  # noqa: E402
from engine.actions import parse_action  # noqa: E402
from engine.selfplay import choose  # noqa: E402

CHANNEL = 1


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {"n": len(values), "median_ms": round(statistics.median(values) * 1000, 2),
            "p90_ms": round(values[int(0.9 * (len(values) - 1))] * 1000, 2), "max_ms": round(values[-1] * 1000, 2)}


async def run(actions: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.sqlite3")
        svc = await Service.open(path, seed_source=lambda: seed)
        users = {n: User(i + 1, n) for i, n in enumerate(("ann", "ben", "cat"))}
        await svc.handle(CHANNEL, 1, users["ann"], "game create", {"title": "18FL", "images": "turn"})
        for n in ("ben", "cat"):
            await svc.handle(CHANNEL, 1, users[n], "game join", {})
        await svc.handle(CHANNEL, 1, users["ann"], "game start", {})
        rng = random.Random(seed)
        by_type: dict[str, list[float]] = defaultdict(list)
        views: dict[str, list[float]] = defaultdict(list)
        done = 0
        while done < actions:
            cur = await svc.current_game(CHANNEL)
            if cur is None:
                break
            row, game = cur
            legal = svc.legal(row.id, game)
            a = choose(rng, [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
            user = users[game.player_for(a["entity"]) or "ann"]
            t = time.perf_counter()
            reply = await svc.handle(CHANNEL, 1, user, "act", {"action": encode_action(a)})
            by_type[a["type"]].append(time.perf_counter() - t)
            if not reply.ok:
                raise SystemExit(f"refused: {a}: {reply.text}")
            done += 1
            if done % 25 == 0:
                for view in ("view players", "view corporations", "view history", "game status"):
                    t = time.perf_counter()
                    await svc.handle(CHANNEL, 1, user, view, {})
                    views[view].append(time.perf_counter() - t)
                t = time.perf_counter()
                await svc.autocomplete(CHANNEL, user, "act", "action", "")
                views["autocomplete /act"].append(time.perf_counter() - t)
        n_actions = len(game.actions)
        await svc.close()
        t = time.perf_counter()
        cold = await Service.open(path)
        await cold.current_game(CHANNEL)
        cold_load = time.perf_counter() - t
        await cold.close()
    all_actions = [v for vs in by_type.values() for v in vs]
    return {
        "actions": done,
        "game_actions_at_end": n_actions,
        "all_actions": _ms(all_actions),
        "by_action": {k: _ms(v) for k, v in sorted(by_type.items())},
        "views": {k: _ms(v) for k, v in views.items()},
        "cold_load_ms": round(cold_load * 1000, 1),
        "target_median_ms": 20,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = asyncio.run(run(args.actions, args.seed))
    if args.json:
        print(json.dumps(res, indent=1))
        return 0
    a = res["all_actions"]
    print(f"{res['actions']} game commands: median {a['median_ms']} ms, p90 {a['p90_ms']} ms, max {a['max_ms']} ms "
          f"(target: median under {res['target_median_ms']} ms, pictures excluded)")
    for k, v in res["by_action"].items():
        print(f"  {k:14} n={v['n']:4}  median {v['median_ms']:7} ms  p90 {v['p90_ms']:7} ms  max {v['max_ms']:8} ms")
    for k, v in res["views"].items():
        print(f"  {k:20} n={v['n']:3}  median {v['median_ms']:7} ms  max {v['max_ms']:8} ms")
    print(f"cold load after a restart ({res['game_actions_at_end']} actions replayed): {res['cold_load_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
