"""The bot's real entry point (`python -m bot discord` in a subprocess) killed in the middle of a game and started
again on the same SQLite file: play continues, buttons sent before the restart still work."""

from __future__ import annotations

import random

from .conftest import ALICE, BOB, CAROL, BotProcess
from .driver import AutoPlayer, Driver, draft, start_game
from .fake_discord import FakeDiscord

PLAYERS = {u.id: u for u in (ALICE, BOB, CAROL)}


async def status(driver: Driver) -> str:
    return (await (await driver.slash(ALICE, "game status")).reply()).text()


async def test_a_restart_in_the_middle_of_a_game(process: BotProcess, driver: Driver, fake: FakeDiscord) -> None:
    await process.start()
    assert fake.command_puts == 1
    turn = await start_game(driver, ALICE, [BOB, CAROL], images="request")
    turn = await draft(driver, turn, {ALICE: 10, BOB: 5, CAROL: 0})
    auto = AutoPlayer(driver, PLAYERS, random.Random(4), images="request")
    turn = await auto.play_until(turn, lambda t: "(OR " in t.line and len(auto.steps) >= 25)
    before = await status(driver)
    assert "actions" in before

    await process.kill()  # as a crash: nothing is closed
    await process.start()
    assert fake.identifies == 2 and fake.command_puts == 1  # the command set had not changed: no second sync
    assert await status(driver) == before  # replayed from the log, exactly

    # a button on a message sent before the restart still works (its custom id carries the game and state)
    assert turn.message is not None
    user = fake.users[turn.acting[0]]
    offered = {c["value"] for c in await driver.complete(user, "act", "action")}
    button = next(b for b in turn.message.buttons() if b["custom_id"].split(":a:", 1)[-1] in offered)
    turn = await driver.turn(await driver.click(user, turn.message, button["custom_id"]))
    assert turn.acting and turn.line

    # and play goes on, through another restart, this time a clean stop
    turn = await auto.play_until(turn, lambda t: len(auto.steps) >= 45)
    assert await fake.wait_settled()  # a clean stop between moves (the old buttons are cleared by then)
    await process.stop()
    assert process.exit_codes[-1] == 0
    await process.start()
    turn = await auto.play_until(turn, lambda t: len(auto.steps) >= 55)
    assert fake.identifies == 3
    assert "Traceback" not in process.output(), process.output()[-3000:]
