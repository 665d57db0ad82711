"""bot.storage for members across games (issue 19): preferences, seated games, stall notices, turn messages."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import DEFAULT_STALL_AFTER, MIGRATIONS, SCHEMA_VERSION, Store

GUILD = 900
ALICE, BOB, CAROL = 11, 12, 13
T0 = 1_700_000_000.0


async def started(store: Store, channel: int, seats: list[tuple[int, str]], **settings: int) -> int:
    gid = await store.create_game(guild_id=GUILD, channel_id=channel, title="18FL", options={}, seed=1,
                                  creator_id=seats[0][0], now=T0, settings=settings or None)
    for uid, name in seats:
        await store.add_player(gid, uid, name)
    await store.set_status(gid, "active", T0)
    return gid


async def test_preferences_are_kept_changed_and_cleared(store: Store) -> None:
    assert await store.member(ALICE) is None
    m = await store.set_member(ALICE, T0, reminders_via="dm", time_zone="Asia/Tokyo", quiet_start=1320,
                               quiet_end=420)
    assert (m.reminders_via, m.time_zone, m.quiet_start, m.quiet_end, m.away_until) == ("dm", "Asia/Tokyo", 1320,
                                                                                         420, None)
    m = await store.set_member(ALICE, T0 + 1, away_until=T0 + 86400)
    assert m.time_zone == "Asia/Tokyo" and m.away_until == T0 + 86400 and m.updated_at == T0 + 1
    m = await store.set_member(ALICE, T0 + 2, quiet_start=None, quiet_end=None, away_until=None)
    assert (m.quiet_start, m.away_until, m.reminders_via) == (None, None, "dm")
    for bad in ({"reminders_via": "pigeon"}, {"quiet_start": 1440}, {"colour": "red"}):
        with pytest.raises(ValueError):
            await store.set_member(ALICE, T0 + 3, **bad)
    assert (await store.member(ALICE)) == m  # a refused change changed nothing


async def test_seated_games_across_channels_with_whom_each_waits_for(store: Store) -> None:
    g1 = await started(store, 100, [(ALICE, "Alice"), (BOB, "Bob")])
    g2 = await started(store, 200, [(BOB, "Bob"), (CAROL, "Carol")])
    lobby = await store.create_game(guild_id=GUILD, channel_id=300, title="18AL", options={}, seed=1,
                                    creator_id=BOB, now=T0)
    await store.add_player(lobby, BOB, "Bob")
    await store.set_reminder(g1, BOB, T0 + 100)
    await store.set_reminder(g2, CAROL, T0 + 100)
    seated = await store.seated_games(BOB)
    assert [(s.game.id, s.seat.name, s.reminder.user_id if s.reminder else None) for s in seated] == [
        (g1, "Bob", BOB), (g2, "Bob", CAROL)]
    assert [s.game.id for s in await store.seated_games(ALICE)] == [g1]
    assert await store.seated_games(999) == []


async def test_stall_is_noticed_once_per_wait_and_a_move_resets_it(store: Store) -> None:
    gid = await started(store, 100, [(ALICE, "Alice"), (BOB, "Bob")], stall_after=2)
    assert (await store.game(gid)).stall_after == 2  # type: ignore[union-attr]
    await store.set_reminder(gid, BOB, T0 + 10)
    assert await store.mark_stall_noticed(gid, T0 + 20)
    assert not await store.mark_stall_noticed(gid, T0 + 30)
    r = await store.reminder(gid)
    assert r is not None and r.stall_noticed_at == T0 + 20 and r.stall_after == 2
    await store.set_reminder(gid, ALICE, T0 + 40)  # the turn moved on
    assert (await store.reminder(gid)).stall_noticed_at is None  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        await store.update_settings(gid, T0, stall_after=-1)
    await store.update_settings(gid, T0, stall_after=0)
    assert (await store.game(gid)).stall_after == 0  # type: ignore[union-attr]


async def test_not_now_and_quiet_hours_move_the_reminder_without_counting_it(store: Store) -> None:
    gid = await started(store, 100, [(ALICE, "Alice"), (BOB, "Bob")])
    await store.set_reminder(gid, BOB, T0 + 100)
    assert await store.postpone_reminder(gid, ALICE, 50) is None  # not Alice's reminder
    assert await store.postpone_reminder(gid, BOB, 3600) == T0 + 3700
    seen = (await store.due_reminders(T0 + 4000))[0]
    assert await store.defer_reminder(gid, T0 + 9000, seen=seen)
    assert not await store.defer_reminder(gid, T0 + 9999, seen=seen)  # stale: it moved already
    r = await store.reminder(gid)
    assert r is not None and (r.due_at, r.sent_count) == (T0 + 9000, 0)


async def test_turn_message_is_remembered_per_game(store: Store) -> None:
    gid = await started(store, 100, [(ALICE, "Alice"), (BOB, "Bob")])
    assert await store.turn_message(gid) is None
    await store.set_turn_message(gid, 100, 555, T0)
    await store.set_turn_message(gid, 100, 556, T0 + 1)
    tm = await store.turn_message(gid)
    assert tm is not None and (tm.message_id, tm.posted_at) == (556, T0 + 1)
    await store.set_turn_message(gid, 100, None, T0 + 2)
    assert await store.turn_message(gid) is None


async def test_a_v3_file_gains_members_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "v3.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for statement in MIGRATIONS[0] + MIGRATIONS[1] + MIGRATIONS[2]:
        raw.execute(statement)
    raw.execute("INSERT INTO schema_version (version) VALUES (3)")
    raw.execute("INSERT INTO games (id, guild_id, channel_id, title, options, seed, creator_id, status, result, "
                "created_at, updated_at) VALUES (5, 1, 2, '18FL', '{}', 7, ?, 'active', NULL, ?, ?)", (ALICE, T0, T0))
    raw.execute("INSERT INTO players (game_id, seat, user_id, name) VALUES (5, 0, ?, 'Alice')", (ALICE,))
    raw.execute("INSERT INTO reminders (game_id, user_id, due_at, sent_count) VALUES (5, ?, ?, 3)", (ALICE, T0))
    raw.commit()
    raw.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        game = await store.game(5)
        assert game is not None and game.stall_after == DEFAULT_STALL_AFTER
        r = await store.reminder(5)
        assert r is not None and r.sent_count == 3 and r.stall_noticed_at is None
        assert [s.game.id for s in await store.seated_games(ALICE)] == [5]
    finally:
        await store.close()
