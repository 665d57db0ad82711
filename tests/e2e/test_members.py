"""Across games and weeks on the wire (issue 19): the previous call to act is struck out when the turn moves on,
reminders by DM with a "Not now" button clicked in the DM, `/mygames` in a DM with the bot, a stalled game's notice.
Everything through the real discord.py client and the fake Discord."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .conftest import ALICE, BOB, DAVE, Clock, InProcessBot
from .driver import Driver, Exchange, start_game
from .fake_discord import FakeDiscord, FakeUser

SEED = 11


async def dm_slash(driver: Driver, fake: FakeDiscord, user: FakeUser, path: str, **options: Any) -> Exchange:
    """A slash command typed in the member's DM with the bot."""
    channel = next((c for c, u in fake.dm_channels.items() if u == user.id), None)
    assert channel is not None, f"{user.name} has no DM channel with the bot yet"
    data, _ = driver._data(path, options, None, "")
    iid = await fake.arun(fake.interact(user, 2, data, label=f"/{path} (DM)", channel_id=channel))
    return Exchange(driver, iid, user)


async def wait_for(check: Any, what: str, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"no {what}"
        await asyncio.sleep(0.02)
    return found


async def test_calls_to_act_dm_reminders_not_now_and_mygames(inproc: InProcessBot, driver: Driver,
                                                             fake: FakeDiscord) -> None:
    clock = Clock()
    await inproc.start(now=clock, seed=SEED, reminder_period=0.05)
    turn = await start_game(driver, ALICE, [BOB, DAVE], images="request", reminder_hours=1)
    first_call = turn.message
    assert first_call is not None and "18FL · game #1 ·" in turn.line  # the call names the game

    # the sealed bids: when the turn moves on, the earlier call to act is struck out and loses its buttons
    for user, price in ((ALICE, 10), (BOB, 5), (DAVE, 0)):
        latest = turn.message
        assert latest is not None
        turn = await driver.turn(await driver.click(user, latest, driver.button(latest, f"Bid ${price}")["custom_id"]))
    assert turn.acting == [ALICE.id]
    old = await wait_for(lambda: (m := fake.message(first_call.id)).edited and m, "edit of the first call")
    assert "☑️ done" in old.content and "~~➡️" in old.content and not old.buttons()
    assert "☑️" not in fake.message(turn.message.id).content  # type: ignore[union-attr]

    # alice wants her reminders by DM in all her games; the reminder carries "Not now", clicked in the DM
    saved = await (await driver.slash(ALICE, "reminders", via="dm", time_zone="Europe/Paris")).reply()
    assert saved.ephemeral and "direct message" in saved.content
    clock.advance(3601)
    dm = await wait_for(lambda: [m for m in fake.all_messages() if m.kind == "dm" and "⏰" in m.content], "DM")
    reminder = dm[0]
    assert reminder.audience == ALICE.id and "18FL · game #1" in reminder.content
    not_now = driver.button(reminder, "Not now")["custom_id"]
    answer = await (await driver.click(ALICE, reminder, not_now)).reply()
    assert "next reminder" in answer.content and answer.ephemeral
    clock.advance(3601)
    await asyncio.sleep(0.4)
    assert len([m for m in fake.all_messages() if "⏰" in m.content]) == 1  # postponed by one interval
    clock.advance(3601)
    await wait_for(lambda: len([m for m in fake.all_messages() if "⏰" in m.content]) == 2, "second reminder")

    # /mygames in the DM: the game, her turn first, a link to the channel
    mine = await (await dm_slash(driver, fake, ALICE, "mygames")).reply()
    assert "your turn" in mine.content and "/channels/" in mine.content and str(fake.channel_id) in mine.content
    assert "Europe/Paris" in mine.content
    theirs = await (await dm_slash(driver, fake, ALICE, "game status")).reply()
    assert theirs.ephemeral  # a game command in a DM is refused politely, not crashed
    assert not fake.problems(), fake.problems()
