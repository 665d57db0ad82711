"""Across games and weeks (issue 19) through the real service on a real SQLite file: /mygames, reminders that
respect a member's quiet hours, absences and choice of DM, "Not now", stalled games, and one call to act per game."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.commands import encode_action
from bot.reminders import due_notices
from bot.service import Reply, Service, User
from bot.texts import turn_over_text
from tests.test_service import Clock

GUILD = 7
CH1, CH2 = 100, 200
ALICE, BOB, CAROL = User(1, "alice"), User(2, "bob"), User(3, "carol")
MOD = User(5, "mod", is_admin=True)
HOUR = 3600.0


@pytest.fixture
def clock() -> Clock:
    # a Monday at noon in Tokyo, so quiet hours in the tests fall where they say
    c = Clock()
    c.t = datetime(2026, 11, 23, 12, 0, tzinfo=ZoneInfo("Asia/Tokyo")).timestamp()
    return c


@pytest.fixture
async def svc(tmp_path: Path, clock: Clock) -> Any:
    service = await Service.open(str(tmp_path / "members.sqlite3"), now=clock, seed_source=lambda: 3)
    yield service
    await service.close()


async def do(svc: Service, who: User, path: str, channel: int = CH1, **opts: Any) -> Reply:
    return await svc.handle(channel, GUILD if channel else None, who, path, opts)


async def game_waiting_for_one(svc: Service, channel: int, seats: tuple[User, ...], **create: Any) -> User:
    """An 18FL game past the sealed bids: one player must choose a private. Returns that player."""
    assert (await do(svc, seats[0], "game create", channel, title="18FL", images="request", **create)).ok
    for u in seats[1:]:
        assert (await do(svc, u, "game join", channel)).ok
    assert (await do(svc, seats[0], "game start", channel)).ok
    for u in seats:
        assert (await do(svc, u, "private bid", channel, price=0)).ok
    cur = await svc.current_game(channel)
    assert cur is not None
    (name,) = cur[1].acting_players()
    return next(u for u in seats if u.name == name)


async def test_mygames_lists_every_game_with_your_turn_first(svc: Service, clock: Clock) -> None:
    first = await game_waiting_for_one(svc, CH1, (ALICE, BOB))
    clock.t += 5 * HOUR
    second = await game_waiting_for_one(svc, CH2, (BOB, CAROL))
    clock.t += 1 * HOUR
    r = await do(svc, BOB, "mygames", 0)  # from a DM with the bot: no guild, no game in that "channel"
    assert r.ok and r.ephemeral
    lines = [line for line in r.text.splitlines() if "game #" in line]
    assert len(lines) == 2
    mine = [line for line in lines if "your turn" in line]
    assert len(mine) == (first == BOB) + (second == BOB)
    assert lines[0].startswith("👉") == bool(mine)  # your turn first
    assert all("18FL · game #" in line and "https://discord.com/channels/7/" in line for line in lines)
    waited = {line.split("game #")[1][0]: line for line in lines}
    assert "for 6 h" in waited["1"] and "for 1 h" in waited["2"]
    none = await do(svc, User(9, "zed"), "mygames", 0)
    assert none.ok and "no seat" in none.text


async def test_reminders_preferences_are_validated_saved_and_shown(svc: Service) -> None:
    r = await do(svc, BOB, "reminders", 0, via="dm", time_zone="asia/tokyo", quiet="22-07")
    assert r.ok and "Asia/Tokyo" in r.text and "22:00–07:00" in r.text and "direct message" in r.text
    for bad in ({"quiet": "25-07"}, {"time_zone": "Mars/Olympus"}, {"away": "yesterday"}, {"away": "2020-01-01"}):
        refused = await do(svc, BOB, "reminders", 0, **bad)
        assert not refused.ok and refused.ephemeral, bad
    member = await svc.store.member(BOB.id)
    assert member is not None and (member.quiet_start, member.time_zone, member.away_until) == (1320, "Asia/Tokyo",
                                                                                                 None)
    shown = await do(svc, BOB, "reminders", 0)
    assert shown.ok and "quiet 22:00–07:00" in shown.text


async def test_quiet_hours_hold_a_reminder_until_morning_in_the_members_zone(svc: Service, clock: Clock) -> None:
    waiting = await game_waiting_for_one(svc, CH1, (ALICE, BOB), reminder_hours=12)
    assert (await do(svc, waiting, "reminders", 0, time_zone="Asia/Tokyo", quiet="22-07")).ok
    clock.t += 12 * HOUR  # midnight in Tokyo: quiet
    assert await due_notices(svc) == []
    reminder = await svc.store.reminder(1)
    morning = datetime(2026, 11, 24, 7, 0, tzinfo=ZoneInfo("Asia/Tokyo")).timestamp()
    assert reminder is not None and reminder.due_at == morning and reminder.sent_count == 0
    clock.t = morning
    notes = await due_notices(svc)
    assert len(notes) == 1 and notes[0].mentions == [waiting.id]
    assert "18FL · game #1" in notes[0].text and "has waited 19 h" in notes[0].text
    assert [b.label for row in notes[0].components for b in row] == ["Not now"]


async def test_away_pauses_reminders_and_the_table_sees_it(svc: Service, clock: Clock) -> None:
    waiting = await game_waiting_for_one(svc, CH1, (ALICE, BOB), reminder_hours=12)
    assert (await do(svc, waiting, "reminders", 0, away="3d")).ok
    cur = await svc.current_game(CH1)
    assert cur is not None
    prompt = svc._prompt(await _ctx(svc, CH1), cur[1], previous=[])
    assert f"{waiting.name} is away until" in str(prompt.text)
    for _ in range(5):
        clock.t += 12 * HOUR
        assert await due_notices(svc) == []
    clock.t += 13 * HOUR  # back after three days
    assert len(await due_notices(svc)) == 1


async def test_a_reminder_to_several_members_leaves_out_those_away_and_waits_when_all_are(svc: Service,
                                                                                          clock: Clock) -> None:
    """The sealed bids wait for both: bob is away, so alice alone is mentioned; with both away the reminder waits
    for the first back (the table still reads whom the game waits for)."""
    assert (await do(svc, ALICE, "game create", CH1, title="18FL", images="request", reminder_hours=12)).ok
    assert (await do(svc, BOB, "game join", CH1)).ok
    assert (await do(svc, ALICE, "game start", CH1)).ok
    assert (await do(svc, BOB, "reminders", 0, away="3d")).ok
    clock.t += 12 * HOUR
    (note,) = await due_notices(svc)
    assert note.mentions == [ALICE.id] and note.text.startswith(f"⏰ Reminder <@{ALICE.id}>: "), note.text
    assert "from bob, alice" in note.text or "from alice, bob" in note.text
    assert (await do(svc, ALICE, "reminders", 0, away="1d")).ok
    clock.t += 12 * HOUR
    assert await due_notices(svc) == []  # both away: nobody is told
    reminder = await svc.store.reminder(1)
    assert reminder is not None and reminder.due_at is not None and reminder.due_at > clock.t
    clock.t = reminder.due_at  # alice is back first
    (note,) = await due_notices(svc)
    assert note.mentions == [ALICE.id]


async def test_of_several_members_reminded_those_who_chose_dms_get_their_own(svc: Service, clock: Clock) -> None:
    """The sealed bids wait for three: bob chose DMs for all his games, carol for this game only; the channel's
    post mentions alice alone, and each of the others is told in a DM of their own."""
    assert (await do(svc, ALICE, "game create", CH1, title="18FL", images="request", reminder_hours=12)).ok
    for m in (BOB, CAROL):
        assert (await do(svc, m, "game join", CH1)).ok
    assert (await do(svc, ALICE, "game start", CH1)).ok
    assert (await do(svc, BOB, "reminders", 0, via="dm")).ok
    assert (await do(svc, CAROL, "game settings", CH1, dm=True)).ok
    clock.t += 12 * HOUR
    notes = await due_notices(svc)
    by_reader = {n.dm_user_id: n for n in notes}
    assert len(notes) == 3 and set(by_reader) == {None, BOB.id, CAROL.id}
    channel = by_reader[None]
    assert channel.mentions == [ALICE.id] and channel.text.startswith(f"⏰ Reminder <@{ALICE.id}>: "), channel.text
    for m in (BOB, CAROL):
        assert by_reader[m.id].mentions == [m.id] and by_reader[m.id].text.startswith(f"⏰ Reminder <@{m.id}>: ")
    assert (await do(svc, ALICE, "reminders", 0, via="dm")).ok  # now all three chose DMs: nothing in the channel
    clock.t += 12 * HOUR
    assert sorted(n.dm_user_id or 0 for n in await due_notices(svc)) == sorted([ALICE.id, BOB.id, CAROL.id])


async def test_an_undo_vote_during_one_players_turn_reaches_each_voter_their_own_way(svc: Service,
                                                                                     clock: Clock) -> None:
    """The player to act chose DMs and an undo's vote was open: the one reminder, voters' mentions inside it, went
    by DM to that player alone, and the voters reading the channel were never told."""
    waiting = await game_waiting_for_one(svc, CH1, (ALICE, BOB, CAROL), reminder_hours=12)
    cur = await svc.current_game(CH1)
    assert cur is not None
    bidders = [str(a.entity) for a in cur[1].actions if a.type == "bid"]
    asker = next(u for u in (ALICE, BOB, CAROL) if u.name != bidders[-1] and u != waiting)
    ask = await do(svc, asker, "undo", count=2)  # the last two bids: their bidders must agree
    assert ask.ok and ask.mentions, ask.text
    voters = set(ask.mentions)
    assert (await do(svc, waiting, "reminders", 0, via="dm")).ok
    clock.t += 12 * HOUR
    notes = await due_notices(svc)
    channel = [n for n in notes if n.dm_user_id is None]
    assert len(channel) == 1 and set(channel[0].mentions) == voters - {waiting.id}, notes
    assert "request to undo waits for the vote of" in channel[0].text
    mine = [n for n in notes if n.dm_user_id == waiting.id]
    assert len(mine) == 1 and waiting.id in mine[0].mentions, notes


async def test_dm_for_all_games_and_not_now_postpones_by_the_interval(svc: Service, clock: Clock) -> None:
    waiting = await game_waiting_for_one(svc, CH1, (ALICE, BOB), reminder_hours=10)
    assert (await do(svc, waiting, "reminders", 0, via="dm")).ok
    clock.t += 10 * HOUR
    (note,) = await due_notices(svc)
    assert note.dm_user_id == waiting.id
    not_now = note.components[0][0].custom_id
    other = ALICE if waiting != ALICE else BOB
    assert not (await svc.click(0, None, other, not_now)).ok  # not theirs to postpone
    r = await svc.click(0, None, waiting, not_now)  # clicked in the DM
    assert r.ok and r.ephemeral and "next reminder" in r.text
    clock.t += 10 * HOUR
    assert await due_notices(svc) == []  # the one due now moved ten hours on
    clock.t += 10 * HOUR
    assert len(await due_notices(svc)) == 1


async def test_a_stalled_game_is_told_to_the_creator_once_with_remedies(svc: Service, clock: Clock) -> None:
    waiting = await game_waiting_for_one(svc, CH1, (ALICE, BOB, CAROL), reminder_hours=1, stall_after=None)
    assert (await do(svc, ALICE, "game settings", stall_after=3)).ok
    notes = []
    for _ in range(5):
        clock.t += 1 * HOUR
        notes += await due_notices(svc)
    stalls = [n for n in notes if "has stalled" in n.text]
    assert len(notes) == 6 and len(stalls) == 1  # five reminders, one stall notice (after the third)
    stall = stalls[0]
    assert stall.mentions == [ALICE.id] and f"player:{waiting.name}" in stall.text and stall.dm_user_id is None
    labels = {b.label: b.custom_id for row in stall.components for b in row}
    assert set(labels) == {"End and score…", "Abandon…"}
    # the remedies answer as the commands do: only the creator or an administrator, and with a confirmation
    assert not (await svc.click(CH1, GUILD, BOB, labels["Abandon…"])).ok  # a player, neither creator nor admin
    ask = await svc.click(CH1, GUILD, MOD, labels["Abandon…"])
    assert ask.ok and ask.ephemeral and "Abandon game #1" in ask.text
    # a move resets the count: the next stall needs three more reminders
    cur = await svc.current_game(CH1)
    assert cur is not None
    choice = next(a for a in svc.legal(1, cur[1]) if a["type"] == "bid")
    assert (await do(svc, waiting, "act", action=encode_action(choice))).ok
    assert (await svc.store.reminder(1)).stall_noticed_at is None  # type: ignore[union-attr]


async def test_one_call_to_act_per_game_the_previous_is_marked_done(svc: Service) -> None:
    await game_waiting_for_one(svc, CH1, (ALICE, BOB))
    assert await svc.turn_posted(1, CH1, 501) is None
    assert await svc.turn_posted(1, CH1, 502) == 501
    assert await svc.turn_posted(1, CH1, 502) is None  # the same message again: nothing to mark
    text = "🪙 bob buys TR.\n\n➡️ 18FL · game #1 · <@1> — alice chooses a private company: POSC.\nmore lines"
    assert str(turn_over_text(text)) == "🪙 bob buys TR.\n\n~~➡️ 18FL · game #1 · <@1> — alice chooses a private " \
                                   "company: POSC.~~ ☑️ done"
    assert turn_over_text("no call here") == "no call here"


async def _ctx(svc: Service, channel: int) -> Any:
    from bot.service.table import Ctx

    ctx = Ctx(channel, GUILD, ALICE)
    await svc._load_ctx(ctx)
    return ctx
