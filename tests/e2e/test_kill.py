"""kill -9 during play (issue 16 item 10): the real entry point in a subprocess, killed at a random moment while a
move is in flight, started again on the same file. Every move whose answer a player saw is still in the log, the
in-flight one is there at most once, the file passes SQLite's integrity check, and play goes on. The default set
kills twice; `pytest -m slow` kills many times."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.service import Service

from .conftest import ALICE, BOB, CAROL, BotProcess
from .driver import AutoPlayer, Driver, Turn, draft, start_game
from .fake_discord import FakeDiscord

PLAYERS = {u.id: u for u in (ALICE, BOB, CAROL)}


def stored(db: Path) -> tuple[int, str]:
    """Live actions in the log and SQLite's own verdict on the file (read beside the running bot: WAL)."""
    raw = sqlite3.connect(db)
    try:
        n = raw.execute("SELECT COUNT(*) FROM actions WHERE state = 'live'").fetchone()[0]
        check = raw.execute("PRAGMA integrity_check").fetchone()[0]
        return int(n), str(check)
    finally:
        raw.close()


def live_types(db: Path) -> list[str]:
    raw = sqlite3.connect(db)
    try:
        rows = raw.execute("SELECT action FROM actions WHERE state = 'live' ORDER BY seq").fetchall()
        return [json.loads(r[0]).get("type", "") for r in rows]
    finally:
        raw.close()


async def acting(db: Path, channel: int) -> list[int]:
    service = await Service.open(str(db))
    try:
        cur = await service.current_game(channel)
        assert cur is not None
        row, game = cur
        ids = {p.name: p.user_id for p in await service.store.players(row.id)}
        return [ids[n] for n in game.acting_players()]
    finally:
        await service.close()


async def kill_probe(process: BotProcess, driver: Driver, fake: FakeDiscord, db: Path, kills: int,
                     seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    await process.start()
    turn = await start_game(driver, ALICE, [BOB, CAROL], images="request")
    turn = await draft(driver, turn, {ALICE: 10, BOB: 5, CAROL: 0})
    auto = AutoPlayer(driver, PLAYERS, rng, images="request", button_share=0.0)
    figures = {"kills": 0, "acknowledged": 0, "in_flight_kept": 0, "in_flight_lost": 0}
    for _ in range(kills):
        goal = len(auto.steps) + rng.randint(1, 4)
        turn = await auto.play_until(turn, lambda t, goal=goal: len(auto.steps) >= goal)
        await fake.wait_settled()
        acknowledged, _ = stored(db)
        user = PLAYERS[turn.acting[0]]
        choices = await auto.options(user)
        ex = await driver.slash(user, "act", action=rng.choice(choices)["value"])
        await asyncio.sleep(rng.uniform(0.0, 0.4))
        await process.kill()
        after, check = stored(db)
        assert check == "ok"
        # the move in flight is kept whole or not at all: itself, then only the passes that followed by themselves
        assert after == acknowledged or (after > acknowledged and set(live_types(db)[acknowledged + 1:]) <= {"pass"}), \
            (acknowledged, after, live_types(db)[acknowledged:])
        figures["kills"] += 1
        figures["acknowledged"] = acknowledged
        figures["in_flight_kept" if after > acknowledged else "in_flight_lost"] += 1
        with fake.lock:  # the killed bot could not answer: that is the kill's doing, not a rule it broke
            inter = ex.interaction
            inter.dead, inter.placeholder_open = True, False
        await process.start()
        after_restart, _ = stored(db)
        assert after_restart == after
        turn = Turn(ex, await acting(db, int(fake.channel_id)), "", None, False, "")
    turn = await auto.play_until(turn, lambda t: True)
    fake.violations[:] = [v for v in fake.violations if "no answer within" not in v]
    print(f"\nkill -9 probe: {figures}")
    return figures


async def test_kill_9_during_play_sample(process: BotProcess, driver: Driver, fake: FakeDiscord,
                                         db_path: Path) -> None:
    figures = await kill_probe(process, driver, fake, db_path, 2, 1)
    assert figures["kills"] == 2


@pytest.mark.slow
async def test_kill_9_during_play_soak(process: BotProcess, driver: Driver, fake: FakeDiscord,
                                       db_path: Path) -> None:
    figures = await kill_probe(process, driver, fake, db_path, 30, 2)
    assert figures["kills"] == 30
