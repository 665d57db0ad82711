"""Checkpoints (bot/checkpoints.py): a game loaded from a stored snapshot and the tail of its log is the game the
whole log replays to, for every title and at many points; stale or foreign checkpoints are never used."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import checkpoints
from bot.checkpoints import INTERVAL, load_game
from bot.storage import MIGRATIONS, SCHEMA_VERSION, Store
from engine import snapshot
from engine.selfplay import selfplay
from engine.titledata import load_title
from engine.titles import TITLES, new_game

T0 = 1_700_000_000.0


async def stored_game(store: Store, title: str, names: list[str], seed: int, log: list[dict[str, Any]],
                      channel: int = 1) -> int:
    gid = await store.create_game(guild_id=1, channel_id=channel, title=title, options={}, seed=seed, creator_id=1,
                                  now=T0)
    for i, name in enumerate(names):
        await store.add_player(gid, 100 + i, name)
    await store.set_status(gid, "active", T0)
    async with store.transaction() as tx:
        for a in log:
            await tx.append_action(gid, a, None, T0)
    return gid


async def load(store: Store, gid: int, upto: int | None = None) -> Any:
    row = await store.game(gid)
    assert row is not None
    names = [p.name for p in await store.players(gid)]
    return await load_game(store, row, names, await store.actions(gid), T0, upto=upto)


async def count_checkpoints(store: Store, gid: int) -> int:
    async with store.transaction(write=False) as tx:
        rows = await tx._all("SELECT COUNT(*) FROM checkpoints WHERE game_id = ?", (gid,))
    return int(rows[0][0])


@pytest.mark.parametrize("title", TITLES)
async def test_loaded_from_checkpoints_equals_replayed_from_the_log(store: Store, title: str) -> None:
    players = load_title(title).min_players + 1
    played = selfplay(title, players, seed=3, max_actions=400, check=False)["game"]
    log = played.action_log()
    names = [p.name for p in played.players]
    gid = await stored_game(store, title, names, 3, log)
    n = len(log)
    points = sorted({0, 1, INTERVAL - 1, INTERVAL, INTERVAL + 1, 2 * INTERVAL + 7, n // 2, n - INTERVAL, n - 1, n})
    # the reference: the log replayed from the start, fingerprinted at each point
    ref = new_game(title, names, seed=3)
    expected = {}
    for k in points:
        ref.replay(log[len(ref.actions):k])
        expected[k] = snapshot.fingerprint(ref)
    assert expected[n] == snapshot.fingerprint(played)
    first = await load(store, gid)  # no checkpoint yet: the whole log, writing one every INTERVAL actions
    assert snapshot.fingerprint(first) == expected[n]
    assert await count_checkpoints(store, gid) == n // INTERVAL
    for k in points:
        assert snapshot.fingerprint(await load(store, gid, upto=k)) == expected[k], f"{title} after {k} actions"
    # a loaded game plays on like the original
    again = await load(store, gid)
    nxt = played.legal_actions()
    if nxt:
        assert snapshot.fingerprint(again.process(nxt[0])) == snapshot.fingerprint(played.process(nxt[0]))


async def test_stale_checkpoints_are_not_used_and_are_rewritten(store: Store) -> None:
    played = selfplay("18AL", 3, seed=4, max_actions=3 * INTERVAL + 5, check=False)["game"]
    log = played.action_log()
    names = [p.name for p in played.players]
    gid = await stored_game(store, "18AL", names, 4, log)
    await load(store, gid)
    assert await count_checkpoints(store, gid) == 3
    # undo back before the second checkpoint, then a different move: checkpoints 2 and 3 no longer fit the log
    keep = 2 * INTERVAL - 3
    await store.undo_to(gid, keep, T0)
    other = new_game("18AL", names, seed=4, actions=log[:keep])
    alternative = next(a for a in other.legal_actions() if a.model_dump() != log[keep])
    other.process(alternative)
    await store.append_action(gid, other.action_log()[-1], None, T0)
    while len(other.actions) < 2 * INTERVAL + 2:
        other.process(other.legal_actions()[0])
        await store.append_action(gid, other.action_log()[-1], None, T0)
    stale = await store.checkpoint(gid, 2 * INTERVAL)
    assert stale is not None and stale.actions == 2 * INTERVAL
    loaded = await load(store, gid)
    assert snapshot.fingerprint(loaded) == snapshot.fingerprint(other)
    fresh = await store.checkpoint(gid, 2 * INTERVAL)  # the stale one was dropped and written again from the log
    live = await store.actions(gid)
    assert fresh is not None and fresh.last_seq == live[2 * INTERVAL - 1].seq != stale.last_seq
    # a checkpoint of another engine (or another set-up) is ignored and replaced
    async with store.transaction() as tx:
        await tx._exec("UPDATE checkpoints SET engine = 'another:engine' WHERE game_id = ?", (gid,))
    assert snapshot.fingerprint(await load(store, gid)) == snapshot.fingerprint(other)
    row = await store.checkpoint(gid, INTERVAL)
    assert row is not None and row.engine == checkpoints.setup_key("18AL", names, 4, {})
    # an unreadable one too
    async with store.transaction() as tx:
        await tx._exec("UPDATE checkpoints SET state = X'00' WHERE game_id = ?", (gid,))
    assert snapshot.fingerprint(await load(store, gid)) == snapshot.fingerprint(other)
    # and one whose tail does not replay (it holds another position): the whole log is replayed instead
    async with store.transaction() as tx:
        await tx._exec("UPDATE checkpoints SET state = ? WHERE game_id = ?", (snapshot.dumps(other), gid))
    assert snapshot.fingerprint(await load(store, gid)) == snapshot.fingerprint(other)


async def test_a_file_from_before_checkpoints_gains_their_table(tmp_path: Path) -> None:
    before = next(i for i, m in enumerate(MIGRATIONS) if any("CREATE TABLE checkpoints" in s for s in m))
    path = tmp_path / "old.db"
    played = selfplay("18AL", 3, seed=5, max_actions=INTERVAL + 3, check=False)["game"]
    raw = sqlite3.connect(path)
    try:
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for migration in MIGRATIONS[:before]:
            for statement in migration:
                raw.execute(statement)
        raw.execute("INSERT INTO schema_version (version) VALUES (?)", (before,))
        raw.execute("INSERT INTO games (id, guild_id, channel_id, title, options, seed, creator_id, status, "
                    "created_at, updated_at) VALUES (7, 1, 1, '18AL', '{}', 5, 1, 'active', ?, ?)", (T0, T0))
        raw.executemany("INSERT INTO players (game_id, seat, user_id, name) VALUES (7, ?, ?, ?)",
                        [(i, 100 + i, p.name) for i, p in enumerate(played.players)])
        import json

        raw.executemany("INSERT INTO actions (game_id, seq, action, user_id, created_at) VALUES (7, ?, ?, NULL, ?)",
                        [(i + 1, json.dumps(a), T0) for i, a in enumerate(played.action_log())])
        raw.commit()
    finally:
        raw.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        game = await load(store, 7)
        assert snapshot.fingerprint(game) == snapshot.fingerprint(played)
        assert await count_checkpoints(store, 7) == 1
    finally:
        await store.close()
