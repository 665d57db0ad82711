"""bot.storage on real SQLite files in tmp_path: lifecycle, restart, undo/redo, reminders, migrations, concurrency."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    DEFAULT_REMINDER_INTERVAL,
    MIGRATIONS,
    SCHEMA_VERSION,
    ChannelBusyError,
    ConflictError,
    NotFoundError,
    PendingImportRow,
    SchemaError,
    StorageError,
    Store,
)

GUILD = 900
CHANNEL = 100
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
T0 = 1_700_000_000.0


async def new_game(store: Store, channel: int = CHANNEL, now: float = T0) -> int:
    return await store.create_game(
        guild_id=GUILD,
        channel_id=channel,
        title="18FL",
        options={"optional_rules": ["two_player_share_limit"]},
        seed=42,
        creator_id=ALICE,
        now=now,
    )


async def started_game(store: Store, channel: int = CHANNEL, now: float = T0) -> int:
    game_id = await new_game(store, channel, now)
    await store.add_player(game_id, ALICE, "Alice")
    await store.add_player(game_id, BOB, "Bob")
    await store.add_player(game_id, CAROL, "Carol")
    await store.set_status(game_id, "active", now)
    return game_id


def names(rows: list) -> list[str]:
    return [r.action["n"] for r in rows]


# -- lifecycle ---------------------------------------------------------------------------------------------------


async def test_create_join_start(store: Store) -> None:
    game_id = await new_game(store)
    game = await store.game(game_id)
    assert game is not None
    assert (game.status, game.title, game.seed, game.creator_id) == ("lobby", "18FL", 42, ALICE)
    assert (game.guild_id, game.channel_id) == (GUILD, CHANNEL)
    assert game.options == {"optional_rules": ["two_player_share_limit"]}
    assert (game.reminder_interval, game.image_mode) == (DEFAULT_REMINDER_INTERVAL, "turn")
    assert game.result is None and game.created_at == game.updated_at == T0

    joined = [await store.add_player(game_id, uid, name) for uid, name in [(ALICE, "Alice"), (BOB, "Bob")]]
    assert [(p.seat, p.user_id) for p in joined] == [(0, ALICE), (1, BOB)]
    await store.add_player(game_id, CAROL, "  Carol ")
    await store.set_seat_order(game_id, [CAROL, ALICE, BOB])
    await store.set_status(game_id, "active", T0 + 5)

    players = await store.players(game_id)
    assert [(p.seat, p.user_id, p.name, p.dm_reminders) for p in players] == [
        (0, CAROL, "Carol", False),
        (1, ALICE, "Alice", False),
        (2, BOB, "Bob", False),
    ]
    active = await store.active_game(CHANNEL)
    assert active is not None and active.id == game_id and active.status == "active" and active.updated_at == T0 + 5
    assert [g.id for g in await store.active_games()] == [game_id]
    assert await store.active_game(CHANNEL + 1) is None


async def test_settings_given_at_creation_and_updated(store: Store) -> None:
    game_id = await store.create_game(
        guild_id=None,
        channel_id=CHANNEL,
        title="18FL",
        options={},
        seed=0,
        creator_id=ALICE,
        now=T0,
        settings={"reminder_interval": 0, "image_mode": "request"},
    )
    game = await store.game(game_id)
    assert game is not None and (game.guild_id, game.reminder_interval, game.image_mode) == (None, 0, "request")
    await store.update_settings(game_id, T0 + 1, image_mode="round")
    game = await store.game(game_id)
    assert game is not None and (game.reminder_interval, game.image_mode, game.updated_at) == (0, "round", T0 + 1)
    await store.update_settings(game_id, T0 + 2, reminder_interval=3600)
    game = await store.game(game_id)
    assert game is not None and (game.reminder_interval, game.image_mode) == (3600, "round")

    with pytest.raises(ValueError, match="image_mode"):
        await store.update_settings(game_id, T0, image_mode="always")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reminder_interval"):
        await store.update_settings(game_id, T0, reminder_interval=-1)
    with pytest.raises(ValueError, match="unknown game settings"):
        await store.create_game(
            guild_id=None, channel_id=7, title="18FL", options={}, seed=0, creator_id=ALICE, now=T0, settings={"x": 1}
        )
    with pytest.raises(NotFoundError):
        await store.update_settings(999, T0, image_mode="turn")


async def test_status_transitions_and_result(store: Store) -> None:
    game_id = await new_game(store)
    with pytest.raises(ConflictError, match="lobby and cannot become finished"):
        await store.set_status(game_id, "finished", T0)
    with pytest.raises(ValueError):
        await store.set_status(game_id, "paused", T0)  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        await store.set_status(12345, "active", T0)
    await store.set_status(game_id, "active", T0)
    with pytest.raises(ConflictError):
        await store.set_status(game_id, "lobby", T0)
    await store.set_status(game_id, "finished", T0 + 9, result={"Alice": 1234, "Bob": 999})
    game = await store.game(game_id)
    assert game is not None and game.status == "finished" and game.result == {"Alice": 1234, "Bob": 999}
    assert await store.active_game(CHANNEL) is None
    # An admin may reopen a finished game (undo of the final move); the result is cleared.
    await store.set_status(game_id, "active", T0 + 10)
    game = await store.game(game_id)
    assert game is not None and game.status == "active" and game.result is None


# -- one game per channel ----------------------------------------------------------------------------------------


async def test_one_active_game_per_channel(store: Store) -> None:
    first = await new_game(store)
    with pytest.raises(ChannelBusyError, match="already has a game") as info:
        await new_game(store)
    assert info.value.game_id == first and info.value.channel_id == CHANNEL
    other = await new_game(store, channel=CHANNEL + 1)  # other channels are independent
    assert other != first

    await store.set_status(first, "active", T0)
    with pytest.raises(ChannelBusyError):
        await new_game(store)
    await store.set_status(first, "finished", T0 + 1, result={"winner": "Alice"})
    second = await new_game(store, now=T0 + 2)
    await store.set_status(second, "abandoned", T0 + 3)
    third = await new_game(store, now=T0 + 4)

    # Finished and abandoned games are kept, most recent first.
    assert [g.id for g in await store.finished_games(CHANNEL)] == [second, first]
    assert [g.id for g in await store.finished_games(CHANNEL, limit=1)] == [second]
    assert await store.finished_games(CHANNEL + 1) == []
    # Reopening the finished game while `third` occupies the channel is refused by the database itself.
    with pytest.raises(ChannelBusyError) as info:
        await store.set_status(first, "active", T0 + 5)
    assert info.value.game_id == third
    game = await store.game(first)
    assert game is not None and game.status == "finished"


async def test_unique_index_guards_channel_below_the_api(store: Store, db_path: Path) -> None:
    await new_game(store)
    raw = sqlite3.connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(
                "INSERT INTO games (channel_id, title, options, seed, creator_id, status, created_at, updated_at) "
                "VALUES (?, '18FL', '{}', 1, 1, 'active', 0, 0)",
                (CHANNEL,),
            )
    finally:
        raw.close()


async def test_two_connections_race_for_a_channel(db_path: Path) -> None:
    """Two stores on one file (e.g. two processes): exactly one create wins, the other gets a clear error."""
    a, b = await Store.open(db_path), await Store.open(db_path)
    try:
        results = await asyncio.gather(new_game(a), new_game(b), return_exceptions=True)
        ids = [r for r in results if isinstance(r, int)]
        errors = [r for r in results if isinstance(r, BaseException)]
        assert len(ids) == 1 and len(errors) == 1 and isinstance(errors[0], ChannelBusyError)
        game = await b.active_game(CHANNEL)
        assert game is not None and game.id == ids[0]
    finally:
        await a.close()
        await b.close()


# -- players -----------------------------------------------------------------------------------------------------


async def test_player_rules(store: Store) -> None:
    game_id = await new_game(store)
    for uid, name in [(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")]:
        await store.add_player(game_id, uid, name)
    with pytest.raises(ConflictError, match="already has a seat"):
        await store.add_player(game_id, BOB, "Robert")
    with pytest.raises(ConflictError, match="already called"):
        await store.add_player(game_id, DAVE, "Bob")
    with pytest.raises(ValueError):
        await store.add_player(game_id, DAVE, "   ")

    await store.remove_player(game_id, ALICE)
    assert [(p.seat, p.user_id) for p in await store.players(game_id)] == [(0, BOB), (1, CAROL)]
    with pytest.raises(NotFoundError):
        await store.remove_player(game_id, ALICE)
    again = await store.add_player(game_id, ALICE, "Alice")
    assert again.seat == 2

    with pytest.raises(ValueError, match="once each"):
        await store.set_seat_order(game_id, [ALICE, BOB])
    with pytest.raises(ValueError, match="once each"):
        await store.set_seat_order(game_id, [ALICE, BOB, BOB])
    await store.set_seat_order(game_id, [ALICE, BOB, CAROL])
    assert [p.user_id for p in await store.players(game_id)] == [ALICE, BOB, CAROL]

    await store.set_status(game_id, "active", T0)
    with pytest.raises(ConflictError, match="cannot join"):
        await store.add_player(game_id, DAVE, "Dave")
    with pytest.raises(ConflictError, match="cannot leave"):
        await store.remove_player(game_id, BOB)
    await store.append_action(game_id, {"type": "pass"}, ALICE, T0)
    with pytest.raises(ConflictError, match="seat order is fixed"):
        await store.set_seat_order(game_id, [BOB, ALICE, CAROL])


async def test_dm_flag_and_replace_player(store: Store) -> None:
    game_id = await started_game(store)
    await store.set_dm_reminders(game_id, BOB, True)
    assert [p.dm_reminders for p in await store.players(game_id)] == [False, True, False]
    with pytest.raises(NotFoundError):
        await store.set_dm_reminders(game_id, DAVE, True)

    await store.set_reminder(game_id, BOB, T0 + 100)
    await store.mark_reminded(game_id, T0 + 100, T0 + 200)
    with pytest.raises(ConflictError, match="already has a seat"):
        await store.replace_player(game_id, BOB, CAROL)
    with pytest.raises(NotFoundError):
        await store.replace_player(game_id, DAVE, BOB)
    replaced = await store.replace_player(game_id, BOB, DAVE)
    assert (replaced.seat, replaced.user_id, replaced.name, replaced.dm_reminders) == (1, DAVE, "Bob", False)
    # The seat keeps its place and name; the pending reminder now targets the newcomer, counted afresh.
    seats = [(p.user_id, p.name) for p in await store.players(game_id)]
    assert seats == [(ALICE, "Alice"), (DAVE, "Bob"), (CAROL, "Carol")]
    reminder = await store.reminder(game_id)
    assert reminder is not None and (reminder.user_id, reminder.due_at, reminder.sent_count) == (DAVE, T0 + 200, 0)

    renamed = await store.replace_player(game_id, DAVE, DAVE, "Dave")
    assert renamed.name == "Dave"
    with pytest.raises(ConflictError, match="already called"):
        await store.replace_player(game_id, DAVE, BOB, "Alice")


# -- action log --------------------------------------------------------------------------------------------------


async def test_actions_survive_restart(db_path: Path) -> None:
    action = {"type": "lay_tile", "entity": "LN", "hex": "G7", "tile": "57-0", "rotation": 2, "note": "café ☕"}
    store = await Store.open(db_path)
    game_id = await started_game(store)
    seqs = [
        await store.append_action(game_id, action, ALICE, T0 + 1),
        await store.append_action(game_id, {"type": "pass", "entity": BOB}, BOB, T0 + 2),
        await store.append_action(game_id, {"type": "message", "text": "hi"}, None, T0 + 3),
    ]
    assert seqs == [1, 2, 3]
    await store.set_dm_reminders(game_id, CAROL, True)
    await store.close()

    store = await Store.open(db_path)
    try:
        game = await store.game(game_id)
        assert game is not None and game.status == "active" and game.updated_at == T0 + 3
        rows = await store.actions(game_id)
        assert [r.action for r in rows] == [action, {"type": "pass", "entity": BOB}, {"type": "message", "text": "hi"}]
        assert [(r.seq, r.user_id, r.created_at, r.state) for r in rows] == [
            (1, ALICE, T0 + 1, "live"),
            (2, BOB, T0 + 2, "live"),
            (3, None, T0 + 3, "live"),
        ]
        assert [p.dm_reminders for p in await store.players(game_id)] == [False, False, True]
        assert [g.id for g in await store.active_games()] == [game_id]
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()


async def test_append_rules(store: Store) -> None:
    game_id = await new_game(store)
    with pytest.raises(ConflictError, match="cannot record an action"):
        await store.append_action(game_id, {"type": "pass"}, ALICE, T0)
    with pytest.raises(NotFoundError):
        await store.append_action(4242, {"type": "pass"}, ALICE, T0)
    await store.set_status(game_id, "active", T0)
    with pytest.raises(ValueError):
        await store.append_action(game_id, {"type": "run_routes", "revenue": float("nan")}, ALICE, T0)
    with pytest.raises(TypeError):
        await store.append_action(game_id, ["pass"], ALICE, T0)  # type: ignore[arg-type]
    assert await store.actions(game_id) == []


async def test_undo_and_redo(store: Store) -> None:
    game_id = await started_game(store)
    for i in range(5):
        await store.append_action(game_id, {"n": f"a{i}"}, ALICE, T0 + i)

    assert await store.undo_to(game_id, 3, T0 + 10) == 2
    assert names(await store.actions(game_id)) == ["a0", "a1", "a2"]
    history = await store.history(game_id)
    assert [(r.action["n"], r.state, r.undone_at) for r in history] == [
        ("a0", "live", None),
        ("a1", "live", None),
        ("a2", "live", None),
        ("a3", "undone", T0 + 10),
        ("a4", "undone", T0 + 10),
    ]
    # A second undo stacks on the first; redo replays in log order.
    assert await store.undo_to(game_id, 2, T0 + 11) == 1
    redone = await store.redo(game_id, T0 + 12)
    assert redone is not None and redone.action == {"n": "a2"} and redone.state == "live" and redone.undone_at is None
    assert redone.user_id == ALICE and redone.created_at == T0 + 2
    redone = await store.redo(game_id, T0 + 13)
    assert redone is not None and redone.action == {"n": "a3"}
    assert names(await store.actions(game_id)) == ["a0", "a1", "a2", "a3"]

    # Appending ends the redo chain: a4 is discarded but kept for audit; numbering continues after it.
    seq = await store.append_action(game_id, {"n": "b4"}, BOB, T0 + 14)
    assert seq == 6
    assert await store.redo(game_id, T0 + 15) is None
    assert names(await store.actions(game_id)) == ["a0", "a1", "a2", "a3", "b4"]
    tail = [(r.action["n"], r.state) for r in await store.history(game_id)][-2:]
    assert tail == [("a4", "discarded"), ("b4", "live")]

    # Redo after undoing past the discarded row restores the undone action, never the discarded one.
    assert await store.undo_to(game_id, 4, T0 + 16) == 1
    redone = await store.redo(game_id, T0 + 17)
    assert redone is not None and redone.action == {"n": "b4"}
    assert await store.redo(game_id, T0 + 18) is None

    assert await store.undo_to(game_id, 99, T0 + 19) == 0
    with pytest.raises(ValueError):
        await store.undo_to(game_id, -1, T0)
    assert await store.undo_to(game_id, 0, T0 + 20) == 5
    assert await store.actions(game_id) == []
    game = await store.game(game_id)
    assert game is not None and game.updated_at == T0 + 20


async def test_undo_state_survives_restart(db_path: Path) -> None:
    store = await Store.open(db_path)
    game_id = await started_game(store)
    for i in range(4):
        await store.append_action(game_id, {"n": f"a{i}"}, ALICE, T0 + i)
    await store.undo_to(game_id, 1, T0 + 5)
    await store.close()

    store = await Store.open(db_path)
    try:
        assert names(await store.actions(game_id)) == ["a0"]
        for expected in ["a1", "a2", "a3"]:
            row = await store.redo(game_id, T0 + 6)
            assert row is not None and row.action["n"] == expected
        assert await store.redo(game_id, T0 + 7) is None
    finally:
        await store.close()


# -- transactions and concurrency --------------------------------------------------------------------------------


async def test_transaction_commits_together_or_not_at_all(store: Store, db_path: Path) -> None:
    game_id = await started_game(store)

    def committed_actions() -> int:
        # A separate connection sees only committed data (WAL readers), like a restarted bot would.
        raw = sqlite3.connect(db_path)
        try:
            return raw.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
        finally:
            raw.close()

    async with store.transaction() as tx:
        await tx.append_action(game_id, {"type": "pass"}, ALICE, T0 + 1)
        await tx.set_reminder(game_id, BOB, T0 + 1 + 3600)
        assert committed_actions() == 0  # not acknowledged before COMMIT
    assert committed_actions() == 1
    reminder = await store.reminder(game_id)
    assert reminder is not None and reminder.user_id == BOB

    with pytest.raises(RuntimeError, match="engine refused"):
        async with store.transaction() as tx:
            await tx.append_action(game_id, {"type": "pass"}, BOB, T0 + 2)
            await tx.set_reminder(game_id, CAROL, T0 + 2 + 3600)
            raise RuntimeError("engine refused")
    assert len(await store.actions(game_id)) == 1
    reminder = await store.reminder(game_id)
    assert reminder is not None and reminder.user_id == BOB
    with pytest.raises(StorageError, match="ended"):
        await tx.actions(game_id)  # a finished transaction object cannot be reused


async def test_nested_store_call_fails_instead_of_deadlocking(store: Store) -> None:
    game_id = await started_game(store)
    async with asyncio.timeout(5), store.transaction() as tx:
        with pytest.raises(StorageError, match="already open here"):
            await store.actions(game_id)
        # A task started inside the block inherits the context: it fails too instead of waiting forever.
        with pytest.raises(StorageError, match="already open here"):
            await asyncio.create_task(store.players(game_id))
        assert await tx.actions(game_id) == []
    # A task started inside a transaction but running after it ends works normally.
    async with store.transaction() as tx:
        later = asyncio.create_task(store.players(game_id))
    assert len(await later) == 3


async def test_cancelled_commands_leave_the_store_usable(store: Store) -> None:
    game_id = await started_game(store)
    entered = asyncio.Event()

    async def stalled() -> None:
        async with store.transaction() as tx:
            await tx.append_action(game_id, {"n": "never"}, ALICE, T0)
            entered.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(stalled())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.actions(game_id) == []

    # Deterministic worst case: the worker thread is busy, so the command's BEGIN is still queued when it is
    # cancelled; the cleanup must not conclude "no transaction open" and leave the BEGIN to run unmatched.
    busy = asyncio.create_task(
        store._conn.execute_fetchall(  # white-box: occupy aiosqlite's single worker thread
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT COUNT(*) FROM c"
        )
    )
    await asyncio.sleep(0.005)
    task = asyncio.create_task(store.append_action(game_id, {"n": "queued"}, ALICE, T0))
    await asyncio.sleep(0.005)
    assert not busy.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await busy
    assert await store.actions(game_id) == []
    assert await store.append_action(game_id, {"n": "after"}, BOB, T0) > 0
    await store.undo_to(game_id, 0, T0)

    # Cancel plain commands after growing delays, so that the cancellation lands before BEGIN, while it is queued,
    # mid-statement and during COMMIT: each either committed whole or left nothing, and the next command works.
    committed = 0
    for step in range(40):
        task = asyncio.create_task(store.append_action(game_id, {"n": step}, ALICE, T0))
        await asyncio.sleep(step * 0.0001)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        rows = await store.actions(game_id)
        assert len(rows) in (committed, committed + 1)
        committed = len(rows)
        assert await store.append_action(game_id, {"n": "ok"}, BOB, T0) > 0
        committed += 1
    assert len(await store.actions(game_id)) == committed


async def test_concurrent_appends_both_land_in_order(store: Store) -> None:
    game_id = await started_game(store)

    async def player(user_id: int, tag: str) -> list[int]:
        seqs = []
        for i in range(40):
            seqs.append(await store.append_action(game_id, {"n": f"{tag}{i}"}, user_id, T0 + i))
            await asyncio.sleep(0)
        return seqs

    async def reader() -> None:
        # Readers interleaved with the writers must only ever see committed, gap-free prefixes of the log.
        for _ in range(40):
            rows = await store.actions(game_id)
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
            await asyncio.sleep(0)

    a_seqs, b_seqs, _ = await asyncio.gather(player(ALICE, "a"), player(BOB, "b"), reader())
    rows = await store.actions(game_id)
    assert len(rows) == 80 and [r.seq for r in rows] == list(range(1, 81))
    assert sorted(a_seqs + b_seqs) == list(range(1, 81))
    assert [r.action["n"] for r in rows if r.user_id == ALICE] == [f"a{i}" for i in range(40)]
    assert [r.action["n"] for r in rows if r.user_id == BOB] == [f"b{i}" for i in range(40)]
    assert {r.seq: r.action["n"] for r in rows} == {s: f"a{i}" for i, s in enumerate(a_seqs)} | {
        s: f"b{i}" for i, s in enumerate(b_seqs)
    }


async def test_concurrent_transactions_are_serialised(store: Store) -> None:
    """Each transaction reads the log and appends based on what it read; serialisation keeps them consistent."""
    game_id = await started_game(store)

    async def step(user_id: int) -> None:
        async with store.transaction() as tx:
            count = len(await tx.actions(game_id))
            await asyncio.sleep(0)  # give the other task every chance to interleave
            await tx.append_action(game_id, {"after": count}, user_id, T0)
            await tx.set_reminder(game_id, user_id, T0 + count)

    await asyncio.gather(*(step(uid) for _ in range(10) for uid in (ALICE, BOB)))
    rows = await store.actions(game_id)
    assert [r.action["after"] for r in rows] == list(range(20))


# -- reminders ---------------------------------------------------------------------------------------------------


async def test_reminders_survive_restart_and_are_not_repeated(db_path: Path) -> None:
    store = await Store.open(db_path)
    game_id = await started_game(store)
    await store.set_dm_reminders(game_id, BOB, True)
    await store.set_reminder(game_id, BOB, T0 + 3600)
    assert await store.due_reminders(T0 + 3599) == []
    await store.close()

    store = await Store.open(db_path)  # restart before the reminder is due: not lost
    due = await store.due_reminders(T0 + 3600)
    assert len(due) == 1
    r = due[0]
    assert (r.game_id, r.guild_id, r.channel_id, r.user_id) == (game_id, GUILD, CHANNEL, BOB)
    assert (r.due_at, r.sent_count, r.last_sent_at, r.interval, r.dm) == (T0 + 3600, 0, None, 43200, True)
    assert await store.mark_reminded(game_id, T0 + 3601, T0 + 3601 + r.interval, seen=r)
    # Sending again is refused for the row already handled (e.g. a second worker with the same stale row).
    assert not await store.mark_reminded(game_id, T0 + 3602, T0 + 9999, seen=r)
    assert await store.due_reminders(T0 + 3601) == []
    await store.close()

    store = await Store.open(db_path)  # restart after sending: not repeated
    try:
        assert await store.due_reminders(T0 + 3602) == []
        assert await store.due_reminders(T0 + 3601 + 43199) == []
        due = await store.due_reminders(T0 + 3601 + 43200)
        assert len(due) == 1 and due[0].sent_count == 1 and due[0].last_sent_at == T0 + 3601
        # The player acts: the reminder moves to the next player with a fresh count.
        await store.set_reminder(game_id, CAROL, T0 + 50000 + 43200)
        stale = due[0]
        assert not await store.mark_reminded(game_id, T0 + 50001, T0 + 60000, seen=stale)
        reminder = await store.reminder(game_id)
        assert reminder is not None
        assert (reminder.user_id, reminder.due_at, reminder.sent_count, reminder.dm) == (
            CAROL,
            T0 + 50000 + 43200,
            0,
            False,
        )
        # next_due None: no more reminders until someone sets one.
        assert await store.mark_reminded(game_id, T0 + 93200, None)
        assert await store.due_reminders(T0 + 10**9) == []
    finally:
        await store.close()


async def test_due_reminders_only_for_games_in_play_with_reminders_on(store: Store) -> None:
    playing = await started_game(store, channel=1)
    quiet = await started_game(store, channel=2)
    ended = await started_game(store, channel=3)
    lobby = await new_game(store, channel=4)
    channel_wide = await started_game(store, channel=5)
    for game_id in (playing, quiet, ended, lobby):
        await store.set_reminder(game_id, ALICE, T0 + 10)
    await store.set_reminder(channel_wide, None, T0 + 5)
    await store.update_settings(quiet, T0, reminder_interval=0)
    await store.set_status(ended, "finished", T0, result={})

    due = await store.due_reminders(T0 + 10)
    assert [(r.game_id, r.user_id) for r in due] == [(channel_wide, None), (playing, ALICE)]  # earliest first
    assert [r.game_id for r in await store.due_reminders(T0 + 10, limit=1)] == [channel_wide]
    await store.set_reminder(playing, ALICE, None)
    assert [r.game_id for r in await store.due_reminders(T0 + 10)] == [channel_wide]
    with pytest.raises(NotFoundError):
        await store.set_reminder(9999, ALICE, T0)
    assert not await store.mark_reminded(9999, T0, None)


# -- pending imports ---------------------------------------------------------------------------------------------

SEATS = ["Player 1", "Player 2", "Player 3"]
RECORD_LOG = [
    {"type": "bid", "entity": "Player 1", "price": 0},
    {"type": "par", "entity": "Player 2", "corporation": "L&N", "price": 70},
    {"type": "lay_tile", "entity": "L&N", "hex": "B7", "tile": "4", "rotation": 1},
]


async def test_pending_import_round_trip_and_restart(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        game_id = await new_game(store)
        assert await store.pending_import(game_id) is None
        async with store.transaction() as tx:  # the service keeps it in the transaction that creates the lobby
            await tx.save_pending_import(game_id, SEATS, RECORD_LOG, T0 + 1)
        await store.add_player(game_id, BOB, "Player 2")  # a claim is a player row named after the seat
        game = await store.game(game_id)
        assert game is not None and game.updated_at == T0 + 1
    finally:
        await store.close()

    store = await Store.open(db_path)
    try:
        pending = await store.pending_import(game_id)
        assert pending == PendingImportRow(game_id, tuple(SEATS), RECORD_LOG, T0 + 1)
        assert [(p.name, p.user_id) for p in await store.players(game_id)] == [("Player 2", BOB)]
    finally:
        await store.close()


async def test_pending_import_rules(store: Store) -> None:
    game_id = await new_game(store)
    with pytest.raises(ValueError, match="non-empty"):
        await store.save_pending_import(game_id, [], RECORD_LOG, T0)
    with pytest.raises(ValueError, match="non-empty"):
        await store.save_pending_import(game_id, ["Player 1", " "], RECORD_LOG, T0)
    with pytest.raises(ValueError, match="different"):
        await store.save_pending_import(game_id, ["Player 1", "Player 1"], RECORD_LOG, T0)
    with pytest.raises(TypeError):
        await store.save_pending_import(game_id, SEATS, [["pass"]], T0)  # type: ignore[list-item]
    with pytest.raises(ValueError):
        await store.save_pending_import(game_id, SEATS, [{"price": float("nan")}], T0)
    with pytest.raises(NotFoundError):
        await store.save_pending_import(9999, SEATS, RECORD_LOG, T0)
    assert await store.pending_import(game_id) is None  # nothing half-written by the refusals

    # an empty log is a record imported before its first action
    await store.save_pending_import(game_id, SEATS, [], T0)
    with pytest.raises(ConflictError, match="already holds"):
        await store.save_pending_import(game_id, SEATS, RECORD_LOG, T0)
    pending = await store.pending_import(game_id)
    assert pending is not None and pending.actions == []

    # only a lobby waits for its seats
    playing = await started_game(store, channel=CHANNEL + 1)
    with pytest.raises(ConflictError, match="lobby"):
        await store.save_pending_import(playing, SEATS, RECORD_LOG, T0)

    # a rolled-back transaction keeps nothing
    other = await new_game(store, channel=CHANNEL + 2)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.save_pending_import(other, SEATS, RECORD_LOG, T0)
            raise RuntimeError("the reply failed")
    assert await store.pending_import(other) is None


@pytest.mark.parametrize("end", ["active", "abandoned", "deleted"])
async def test_pending_import_goes_with_the_lobby(store: Store, end: str) -> None:
    game_id = await new_game(store)
    kept = await new_game(store, channel=CHANNEL + 1)  # another channel's import is not touched
    for gid in (game_id, kept):
        await store.save_pending_import(gid, SEATS, RECORD_LOG, T0)
    if end == "deleted":
        async with store.transaction() as tx:
            await tx._exec("DELETE FROM games WHERE id = ?", (game_id,))
    else:
        async with store.transaction() as tx:
            assert await tx.pending_import(game_id) is not None  # read before activating, as the service does
            await tx.set_status(game_id, end, T0 + 1)  # type: ignore[arg-type]
            assert await tx.pending_import(game_id) is None
    assert await store.pending_import(game_id) is None
    assert await store.pending_import(kept) is not None
    async with store.transaction(write=False) as tx:
        assert await tx._one("SELECT COUNT(*) FROM pending_imports") == (1,)


async def test_refused_status_change_keeps_the_pending_import(store: Store) -> None:
    game_id = await new_game(store)
    await store.save_pending_import(game_id, SEATS, RECORD_LOG, T0)
    with pytest.raises(ConflictError):
        await store.set_status(game_id, "finished", T0 + 1)  # lobby cannot become finished
    assert await store.pending_import(game_id) is not None


# -- schema ------------------------------------------------------------------------------------------------------


async def test_wal_and_foreign_keys_enabled(store: Store, db_path: Path) -> None:
    await new_game(store)
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent property of the file
    finally:
        raw.close()
    assert (db_path.parent / (db_path.name + "-wal")).exists()
    async with store.transaction() as tx:
        assert (await tx._one("PRAGMA foreign_keys")) == (1,)
        with pytest.raises(sqlite3.IntegrityError):
            await tx._exec("INSERT INTO players (game_id, seat, user_id, name) VALUES (777, 0, 1, 'ghost')")


def make_v1_file(path: Path) -> None:
    """A database file as the first released schema left it, with a game in play."""
    raw = sqlite3.connect(path)
    try:
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statement in MIGRATIONS[0]:
            raw.execute(statement)
        raw.execute("INSERT INTO schema_version (version) VALUES (1)")
        raw.execute(
            "INSERT INTO games (id, guild_id, channel_id, title, options, seed, creator_id, status, result, "
            "created_at, updated_at) VALUES (5, ?, ?, '18FL', '{\"variant\":1}', 77, ?, 'active', NULL, ?, ?)",
            (GUILD, CHANNEL, ALICE, T0, T0 + 2),
        )
        raw.executemany(
            "INSERT INTO players (game_id, seat, user_id, name) VALUES (5, ?, ?, ?)",
            [(0, ALICE, "Alice"), (1, BOB, "Bob")],
        )
        raw.executemany(
            "INSERT INTO actions (game_id, seq, action, user_id, created_at, state, undone_at) "
            "VALUES (5, ?, ?, ?, ?, ?, ?)",
            [
                (1, '{"type":"par","price":100}', ALICE, T0 + 1, "live", None),
                (2, '{"type":"pass"}', BOB, T0 + 2, "undone", T0 + 3),
            ],
        )
        raw.commit()
    finally:
        raw.close()


async def test_v1_file_migrates(db_path: Path) -> None:
    make_v1_file(db_path)
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        game = await store.game(5)
        assert game is not None
        assert (game.status, game.options, game.seed, game.reminder_interval, game.image_mode) == (
            "active",
            {"variant": 1},
            77,
            DEFAULT_REMINDER_INTERVAL,
            "turn",
        )
        assert [(p.user_id, p.name, p.dm_reminders) for p in await store.players(5)] == [
            (ALICE, "Alice", False),
            (BOB, "Bob", False),
        ]
        assert [r.action for r in await store.actions(5)] == [{"type": "par", "price": 100}]
        # The old file's undone row is still redoable, and the new tables work on the old data.
        redone = await store.redo(5, T0 + 4)
        assert redone is not None and redone.action == {"type": "pass"}
        await store.set_dm_reminders(5, BOB, True)
        await store.set_reminder(5, BOB, T0 + 10)
        due = await store.due_reminders(T0 + 10)
        assert [(r.game_id, r.user_id, r.dm) for r in due] == [(5, BOB, True)]
        assert await store.append_action(5, {"type": "pass"}, ALICE, T0 + 11) == 3
    finally:
        await store.close()

    # Opening again does not re-apply anything.
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert len(await store.actions(5)) == 3
    finally:
        await store.close()


def create_schema(raw: sqlite3.Connection, version: int) -> None:
    """The tables a database file had at an older schema version (its migrations up to it), to test upgrades."""
    raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for migration in MIGRATIONS[:version]:
        for statement in migration:
            raw.execute(statement)
    raw.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))


def make_v2_file(path: Path) -> None:
    """A database file as schema version 2 left it: a game in play with a reminder, and an imported record's lobby
    with one seat claimed (version 2 kept the record itself in memory only)."""
    raw = sqlite3.connect(path)
    try:
        create_schema(raw, 2)
        raw.executemany(
            "INSERT INTO games (id, guild_id, channel_id, title, options, seed, creator_id, status, result, "
            "created_at, updated_at, reminder_interval, image_mode) VALUES (?, ?, ?, '18FL', ?, ?, ?, ?, NULL, ?, ?, "
            "?, ?)",
            [
                (5, GUILD, CHANNEL, '{"variant":1}', 77, ALICE, "active", T0, T0 + 2, 3600, "round"),
                (6, GUILD, CHANNEL + 1, '{"rules_profile":"18xx.games"}', 9, BOB, "lobby", T0, T0, 43200, "turn"),
            ],
        )
        raw.executemany(
            "INSERT INTO players (game_id, seat, user_id, name, dm_reminders) VALUES (?, ?, ?, ?, ?)",
            [(5, 0, ALICE, "Alice", True), (5, 1, BOB, "Bob", False), (6, 0, BOB, "Player 2", False)],
        )
        raw.execute(
            "INSERT INTO actions (game_id, seq, action, user_id, created_at, state, undone_at) "
            "VALUES (5, 1, '{\"type\":\"par\",\"price\":100}', ?, ?, 'live', NULL)",
            (ALICE, T0 + 1),
        )
        raw.execute("INSERT INTO reminders (game_id, user_id, due_at, sent_count) VALUES (5, ?, ?, 1)", (BOB, T0 + 9))
        raw.commit()
    finally:
        raw.close()


async def test_v2_file_migrates(db_path: Path) -> None:
    make_v2_file(db_path)
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        game = await store.game(5)
        assert game is not None
        assert (game.status, game.options, game.reminder_interval, game.image_mode) == ("active", {"variant": 1},
                                                                                        3600, "round")
        assert [(p.name, p.dm_reminders) for p in await store.players(5)] == [("Alice", True), ("Bob", False)]
        assert [r.action for r in await store.actions(5)] == [{"type": "par", "price": 100}]
        reminder = await store.reminder(5)
        assert reminder is not None and (reminder.user_id, reminder.due_at, reminder.sent_count) == (BOB, T0 + 9, 1)
        # The old lobby had no stored record (the service tells its members to import again); a new one can be kept.
        assert await store.pending_import(6) is None
        assert [p.name for p in await store.players(6)] == ["Player 2"]
        await store.save_pending_import(6, ["Player 1", "Player 2"], [{"type": "pass", "entity": "Player 1"}], T0 + 5)
    finally:
        await store.close()

    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        pending = await store.pending_import(6)
        assert pending is not None and pending.seats == ("Player 1", "Player 2")
        assert len(await store.actions(5)) == 1
    finally:
        await store.close()


@pytest.mark.parametrize("make_old", [make_v1_file, make_v2_file])
async def test_migrated_file_matches_fresh_file(tmp_path: Path, make_old: Any) -> None:
    old, fresh = tmp_path / "old.db", tmp_path / "fresh.db"
    make_old(old)
    for path in (old, fresh):
        await (await Store.open(path)).close()

    def columns(path: Path) -> dict[str, list[tuple]]:
        raw = sqlite3.connect(path)
        try:
            tables = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            info = {t: raw.execute(f"PRAGMA table_info({t})").fetchall() for t in tables}
            info["foreign keys"] = [raw.execute(f"PRAGMA foreign_key_list({t})").fetchall() for t in tables]
            return info
        finally:
            raw.close()

    assert columns(old) == columns(fresh)


async def test_newer_schema_is_refused(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    raw = sqlite3.connect(db_path)
    raw.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    raw.commit()
    raw.close()
    with pytest.raises(SchemaError, match="upgrade Stationmaster"):
        await Store.open(db_path)


async def test_closed_store_refuses_work(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        await new_game(store)
    with pytest.raises(StorageError, match="closed"):
        await store.active_game(CHANNEL)
    await store.close()  # harmless twice


async def test_v3_file_gains_an_outbox_that_survives_a_restart(db_path: Path) -> None:
    """The outbox migration on a file of the schema before it: old data kept, messages queued in order, kept across
    a reopen until marked sent."""
    make_v2_file(db_path)
    raw = sqlite3.connect(db_path)
    try:
        for statement in MIGRATIONS[2]:
            raw.execute(statement)
        raw.execute("UPDATE schema_version SET version = 3")
        raw.commit()
    finally:
        raw.close()
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert [r.action for r in await store.actions(5)] == [{"type": "par", "price": 100}]
        first = await store.queue_outbox(CHANNEL, 5, {"content": "Alice pars", "mentions": [BOB]}, T0)
        second = await store.queue_outbox(CHANNEL, 5, {"content": "Bob's turn"}, T0 + 1)
        with pytest.raises(ValueError):
            await store.queue_outbox(2**64, 5, {"content": "x"}, T0)
        await store.outbox_failed(first)
    finally:
        await store.close()
    store = await Store.open(db_path)
    try:
        waiting = await store.outbox()
        assert [(m.id, m.payload["content"], m.attempts) for m in waiting] == [(first, "Alice pars", 1),
                                                                              (second, "Bob's turn", 0)]
        assert waiting[0].payload["mentions"] == [BOB] and waiting[0].channel_id == CHANNEL
        await store.outbox_sent(first)
        assert [m.id for m in await store.outbox()] == [second]
    finally:
        await store.close()
