"""Complete games of 18FL played through Discord, from /game create to the final standings.

Moves are chosen by a seeded policy among what the bot offers (the prompt's buttons and menus, `/act`'s
autocomplete), biased so that the game ends (trains bought, revenue paid out). At every step the player checks
what the channel shows (see `AutoPlayer._check`): a public answer, the ➡️ line naming exactly the players whose turn
it is (compared with the service's game in-process), pings only for them, the pictures a step promises as valid PNG
files. CI plays one whole three-player game in this process; the slow runs play four-player games through the
bot's real entry point in a subprocess (`pytest -m slow`).
"""

from __future__ import annotations

import random
import re

import pytest

from .conftest import ALICE, BOB, CAROL, DAVE, EVE, BotProcess, InProcessBot
from .driver import GAME_OVER, AutoPlayer, Driver, Turn, png_problem, start_game
from .fake_discord import FakeDiscord, FakeUser

GAME_SEED = 7  # the game's seed: seat order and anything the title draws
POLICY_SEED = 5  # the players' choices (this pair of seeds: a whole game in about 700 moves)


async def check_the_end(driver: Driver, fake: FakeDiscord, auto: AutoPlayer, end: Turn,
                        players: list[FakeUser]) -> None:
    """The final standings as everyone sees them, the pictures of the game, and the channel after the game."""
    assert end.over
    over = next(m for m in end.exchange.public() if GAME_OVER in m.content)
    assert all(over.visible_to(u.id) for u in (*players, EVE))
    reason = re.search(r"Game over\*\* — (.+)\.", over.content)
    assert reason and reason.group(1) in ("the bank broke", "a player went bankrupt"), over.content
    ranking = re.findall(r"^(?:🥇|🥈|🥉|\d+\.) \*\*(.+?)\*\* \$([\d,]+)(?: \(bankrupt\))?$", over.content,
                         re.MULTILINE)
    assert sorted(name for name, _ in ranking) == sorted(u.name for u in players), over.content
    worth = [int(v.replace(",", "")) for _, v in ranking]
    assert worth == sorted(worth, reverse=True)
    names = [n for n, _ in auto.pictures]
    assert any(n.endswith("-standings.png") for n in names) and any(n.endswith("-map.png") for n in names)

    # what the game showed along the way
    assert any(s.startswith("📋 **Draft over**") for s in auto.summaries)
    assert any(s.startswith("📋 **End of") and "operating" not in s for s in auto.summaries)  # a stock round
    assert any(s.startswith("📋 **End of the operating rounds") for s in auto.summaries)
    hows = {s.how.split(",")[0] for s in auto.steps}
    assert {"button", "menu", "/act"} <= hows, hows
    assert {s.user.id for s in auto.steps} == {u.id for u in players}
    await fake.wait_settled()
    attachments = [(a.filename, a.data) for m in fake.all_messages() for a in m.attachments]
    assert attachments and all(png_problem(d) is None for _n, d in attachments)

    # afterwards: the game is listed with its result, its standings stay viewable, and nobody can move
    listing = await (await driver.slash(EVE, "game finished", share=True)).reply()
    assert "#1 18FL" in listing.content and reason.group(1) in listing.content and not listing.ephemeral
    chart = driver.slash(EVE, "view standings")
    files = await (await chart).files(["-standings.png"])
    assert all(png_problem(d) is None for _n, d in files)
    refusal = await (await driver.slash(players[0], "pass")).refused()
    assert "the game of 18fl in this channel has ended" in refusal.content.lower()  # not "no game"
    again = await (await driver.slash(players[1], "game create", title="18FL")).reply()
    assert "game #2" in again.content  # the channel is free for the next game


async def test_a_complete_three_player_game(inproc: InProcessBot, driver: Driver, fake: FakeDiscord) -> None:
    players = [ALICE, BOB, CAROL]
    await inproc.start(seed=GAME_SEED)
    turn = await start_game(driver, ALICE, [BOB, CAROL], images="round")
    assert "Game #1 of 18FL starts" in turn.text and "Seat order" in turn.text
    assert sorted(turn.acting) == sorted(u.id for u in players)  # the sealed bids: everyone at once
    assert turn.message is not None and turn.message.pinged() == {u.id for u in players}
    auto = AutoPlayer(driver, {u.id: u for u in players}, random.Random(POLICY_SEED), images="round",
                      expected_acting=inproc.acting)
    end = await auto.play(turn, max_steps=2500)
    await check_the_end(driver, fake, auto, end, players)


@pytest.mark.slow
@pytest.mark.parametrize("policy", [2, 3])
async def test_a_complete_four_player_game_through_the_real_entry_point(process: BotProcess, driver: Driver,
                                                                        fake: FakeDiscord, policy: int) -> None:
    players = [ALICE, BOB, CAROL, DAVE]
    await process.start()
    turn = await start_game(driver, BOB, [ALICE, CAROL, DAVE])  # pictures after every turn (the default)
    auto = AutoPlayer(driver, {u.id: u for u in players}, random.Random(policy), images="turn")
    end = await auto.play(turn, max_steps=4000)
    await check_the_end(driver, fake, auto, end, players)
    assert "Traceback" not in process.output(), process.output()[-3000:]
