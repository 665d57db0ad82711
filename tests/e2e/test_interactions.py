"""Interactions where Discord and the game meet: autocomplete offering only legal moves, private refusals with their
reason, undo by agreement, two clicks at once, slow work answered in time, reminders, and the server
administrator. Everything goes through the real discord.py client and the fake Discord."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from typing import Any

import pytest

import engine.rounds.operating_round as operating_round
import render.mapimg
import render.market
from bot.commands import encode_action
from bot.storage import Transaction
from engine.actions import dump_action

from .conftest import ALICE, BOB, CAROL, DAVE, EVE, MOD, Clock, InProcessBot
from .driver import AutoPlayer, Driver, Exchange, Turn, draft, png_problem, start_game
from .fake_discord import FakeDiscord, FakeUser

PLAYERS = (ALICE, BOB, CAROL)
SEED = 11


async def legal_for(inproc: InProcessBot, user: FakeUser) -> list[dict[str, Any]]:
    """The engine's legal actions (game.legal_actions()) for the entities the user decides for."""
    assert inproc.service is not None
    cur = await inproc.service.current_game(int(inproc.fake.channel_id))
    assert cur is not None
    row, game = cur
    players = await inproc.service.store.players(row.id)
    name = next((p.name for p in players if p.user_id == user.id), None)
    out = []
    for action in game.legal_actions():
        a = dump_action(action)
        if name is not None and game.player_for(a["entity"]) == name:
            out.append(a)
    return out


async def action_count(inproc: InProcessBot) -> int:
    assert inproc.service is not None
    cur = await inproc.service.current_game(int(inproc.fake.channel_id))
    assert cur is not None
    return len(cur[1].actions)


def offered(choices: list[dict[str, Any]], legal: set[Any]) -> None:
    """Autocomplete shows at most 25 choices: all the legal ones, or 25 of them."""
    values = [c["value"] for c in choices]
    assert len(values) == len(set(values)) and all(1 <= len(c["name"]) <= 100 for c in choices)
    if len(legal) <= 25:
        assert set(values) == legal
    else:
        assert len(values) == 25 and set(values) <= legal


async def stock_round(driver: Driver, inproc: InProcessBot, **create: Any) -> Turn:
    await inproc.start(seed=SEED)
    turn = await start_game(driver, ALICE, [BOB, CAROL], images="request", **create)
    return await draft(driver, turn, {ALICE: 10, BOB: 5, CAROL: 0})


async def refusal(sent: Awaitable[Exchange]) -> str:
    return (await (await sent).refused()).content


async def click_pass(driver: Driver, user: FakeUser, turn: Turn) -> Turn:
    assert turn.message is not None
    return await driver.turn(await driver.click(user, turn.message, driver.button(turn.message, "Pass")["custom_id"]))


def player(rng_seed: int, driver: Driver, inproc: InProcessBot) -> AutoPlayer:
    return AutoPlayer(driver, {u.id: u for u in PLAYERS}, random.Random(rng_seed), images="request",
                      expected_acting=inproc.acting)


# -- autocomplete ---------------------------------------------------------------------------------------------


async def test_autocomplete_offers_only_legal_choices(inproc: InProcessBot, driver: Driver, fake: FakeDiscord) -> None:
    await inproc.start(seed=SEED)
    turn = await start_game(driver, ALICE, [BOB, CAROL], images="request")
    for user in PLAYERS:  # the sealed bids: each player may bid, nothing else
        legal = await legal_for(inproc, user)
        offered(await driver.complete(user, "private bid", "price"), {a["price"] for a in legal if a["type"] == "bid"})
        offered(await driver.complete(user, "act", "action"), {encode_action(a) for a in legal})
    assert await driver.complete(EVE, "act", "action") == []  # not a player
    assert await driver.complete(EVE, "private bid", "price") == []

    turn = await draft(driver, turn, {ALICE: 10, BOB: 5, CAROL: 0})
    user = fake.users[turn.acting[0]]
    for other in PLAYERS:  # /act lists exactly each player's own legal moves (none for those not on turn)
        mine = {encode_action(a) for a in await legal_for(inproc, other)}
        offered(await driver.complete(other, "act", "action"), mine)
    legal = await legal_for(inproc, user)
    pars = [a for a in legal if a["type"] == "par"]
    assert pars
    offered(await driver.complete(user, "stock par", "corporation"), {a["corporation"] for a in pars})
    corp = (await driver.complete(user, "stock par", "corporation"))[0]["value"]
    prices = await driver.complete(user, "stock par", "price", corporation=corp)
    offered(prices, {a["price"] for a in pars if a["corporation"] == corp})
    assert all(isinstance(c["value"], int) for c in prices)  # an integer option gets integers (the fake checks)
    offered(await driver.complete(user, "stock buy", "corporation"),
            {a["corporation"] for a in legal if a["type"] == "buy_shares"})
    price = prices[0]["value"]
    sizes = {a.get("size") for a in pars if a["corporation"] == corp and a["price"] == price} - {None}
    extra = {"size": max(sizes)} if sizes else {}
    turn = await driver.turn(await driver.slash(user, "stock par", corporation=corp, price=price, **extra))
    assert f"{corp}" in turn.text

    # the operating round's track step: hex, then tile for that hex, then rotation for both
    auto = player(3, driver, inproc)
    turn = await auto.play_until(turn, lambda t: "lay a yellow tile" in t.line)
    user = fake.users[turn.acting[0]]
    # the operating corporation's lays (a private company's own lays are offered under /private use)
    corp_lays = [a for a in await legal_for(inproc, user) if a["type"] == "lay_tile" and a["entity"] == corp_of(turn)]
    hexes = await driver.complete(user, "track lay", "hex")
    offered(hexes, {a["hex"] for a in corp_lays})
    for other in PLAYERS:
        if other != user:
            assert await driver.complete(other, "track lay", "hex") == []
    hex_id = hexes[0]["value"]
    tiles = await driver.complete(user, "track lay", "tile", hex=hex_id)
    offered(tiles, {str(a["tile"]) for a in corp_lays if a["hex"] == hex_id})
    tile = tiles[0]["value"]
    rotations = await driver.complete(user, "track lay", "rotation", hex=hex_id, tile=tile)
    offered(rotations, {int(a["rotation"]) for a in corp_lays if a["hex"] == hex_id and str(a["tile"]) == tile})
    n = await action_count(inproc)
    turn = await driver.turn(await driver.slash(user, "track lay", hex=hex_id, tile=tile,
                                                rotation=rotations[0]["value"]))
    assert await action_count(inproc) == n + 1 and hex_id in turn.text

    # the token and train steps
    turn = await auto.play_until(turn, lambda t: "buy a train" in t.line)
    user = fake.users[turn.acting[0]]
    legal = await legal_for(inproc, user)
    buys = [a for a in legal if a["type"] == "buy_train" and a["entity"] == corp_of(turn)]
    offered(await driver.complete(user, "train buy", "train"), {str(a["train"]) for a in buys})
    turn = await auto.play_until(turn, lambda t: "station token" in t.line)
    user = fake.users[turn.acting[0]]
    tokens = [a for a in await legal_for(inproc, user) if a["type"] == "place_token"
              and a["entity"] == corp_of(turn)]
    offered(await driver.complete(user, "token place", "hex"), {a["hex"] for a in tokens})


def corp_of(turn: Turn) -> str:
    """The corporation named in the ➡️ line ("bob, for L&N (OR 1/2): ...")."""
    return turn.line.split(", for ")[1].split(" ")[0]


# -- refusals -------------------------------------------------------------------------------------------------


async def test_refusals_are_private_and_give_the_reason(inproc: InProcessBot, driver: Driver,
                                                        fake: FakeDiscord) -> None:
    turn = await stock_round(driver, inproc)
    assert turn.message is not None
    acting = fake.users[turn.acting[0]]
    idle = next(u for u in (BOB, CAROL) if u != acting)
    before = await action_count(inproc)

    out_of_turn = await (await driver.slash(idle, "pass")).refused()
    assert "It is not your turn" in out_of_turn.content and acting.name in out_of_turn.content
    outsider = await (await driver.click(EVE, turn.message, driver.button(turn.message, "Pass")["custom_id"])).refused()
    assert "You are not playing in this game" in outsider.content
    not_admin = await (await driver.slash(idle, "game end")).refused()
    assert "Only the game's creator or a member with the Manage Server permission" in not_admin.content
    legal = await legal_for(inproc, acting)
    corp = next(a["corporation"] for a in legal if a["type"] == "par")
    bad_price = await (await driver.slash(acting, "stock par", corporation=corp, price=1)).refused()
    assert "$1 is not a starting value" in bad_price.content  # the engine's reason
    not_offered = await (await driver.slash(acting, "act", action="fly to the moon")).refused()
    assert "Choose one of the actions the list offers" in not_offered.content
    await fake.wait_settled()
    # nothing changed, nobody else saw any of it, and the prompt keeps its buttons
    assert await action_count(inproc) == before
    refusals = {m.id for m in (out_of_turn, outsider, not_admin, bad_price, not_offered)}
    for user in (*PLAYERS, EVE, MOD):
        seen = {m.id for m in fake.seen_by(user.id)}
        mine = {m.id for m in (out_of_turn, outsider, not_admin, bad_price, not_offered) if m.audience == user.id}
        assert seen & refusals == mine
    assert fake.message(turn.message.id).buttons()

    # once the game has moved on, the old call to act is struck out and loses its buttons; a click from a client
    # that still shows them (Discord delivers it) is refused
    old_pass = driver.button(turn.message, "Pass")["custom_id"]
    await driver.turn(await driver.slash(acting, "pass"))
    await fake.wait_settled()
    assert not fake.message(turn.message.id).buttons() and "☑️ done" in fake.message(turn.message.id).content
    stale = await (await driver._component(acting, fake.message(turn.message.id),
                                           {"custom_id": old_pass, "component_type": 2}, "stale click")).refused()
    assert "Too late" in stale.content


# -- undo -----------------------------------------------------------------------------------------------------


async def test_undo_with_the_agreement_of_two_players(inproc: InProcessBot, driver: Driver, fake: FakeDiscord) -> None:
    turn = await stock_round(driver, inproc)
    first = fake.users[turn.acting[0]]
    legal = await legal_for(inproc, first)
    par = next(a for a in legal if a["type"] == "par")
    turn = await driver.turn(await driver.slash(first, "act", action=encode_action(par)))
    others = []
    for _ in range(2):  # the two others pass, by button
        user = fake.users[turn.acting[0]]
        others.append(user)
        assert turn.message is not None
        turn = await click_pass(driver, user, turn)
    assert turn.acting == [first.id] and set(others) == set(PLAYERS) - {first}
    n = await action_count(inproc)

    ask = await (await driver.slash(first, "undo")).reply()
    assert "asks to undo 3 actions" in ask.content and not ask.ephemeral
    assert ask.pinged() == {u.id for u in others}
    agree = driver.button(ask, "Agree")["custom_id"]
    assert "Only the players whose actions would be undone" in (await refusal(driver.click(EVE, ask, agree)))
    one = await (await driver.click(others[0], ask, agree)).reply()
    assert f"{others[0].name} agrees" in one.content and f"<@{others[1].id}>" in one.content
    assert await action_count(inproc) == n  # not yet: the second player has to agree too
    # the second player agrees on the newest message that carries the vote's buttons
    await fake.wait_settled()
    vote = next(m for m in reversed(fake.seen_by(others[1].id)) if m.component(agree) is not None)
    done = await driver.turn(await driver.click(others[1], vote, agree))
    assert "Everyone agreed; undoing 3 actions" in done.text and done.acting == [first.id]
    assert await action_count(inproc) == n - 3

    # a refusal cancels
    turn = await driver.turn(await driver.slash(first, "act", action=encode_action(par)))
    second = fake.users[turn.acting[0]]
    assert turn.message is not None
    turn = await click_pass(driver, second, turn)
    ask = await (await driver.slash(first, "undo")).reply()
    assert ask.pinged() == {second.id}
    no = await (await driver.click(second, ask, driver.button(ask, "Refuse")["custom_id"])).reply()
    assert "the undo is cancelled" in no.content
    assert await action_count(inproc) == n - 1

    # a server administrator undoes at once; a player may not force it
    assert "Only the game's creator or a member" in (await refusal(driver.slash(second, "undo", force=True)))
    forced = await (await driver.slash(MOD, "undo", force=True)).reply()
    assert forced.content.startswith("↩️ mod undoes an action")
    assert await action_count(inproc) == n - 2


async def test_a_server_administrator_gives_a_seat_to_another_member(inproc: InProcessBot, driver: Driver,
                                                                    fake: FakeDiscord) -> None:
    turn = await stock_round(driver, inproc)
    acting = fake.users[turn.acting[0]]
    names = await driver.complete(MOD, "game replace", "player")
    assert {c["value"] for c in names} == {u.name for u in PLAYERS}
    assert "Only the game's creator" in (await (await driver.slash(
        next(u for u in PLAYERS if u not in (acting, ALICE)), "game replace", player=acting.name,
        user=DAVE)).refused()).content
    handed = await (await driver.slash(MOD, "game replace", player=acting.name, user=DAVE)).reply()
    assert f"<@{DAVE.id}> takes over **{acting.name}**'s seat" in handed.content and handed.pinged() == {DAVE.id}
    assert "not playing" in (await (await driver.slash(acting, "pass")).refused()).content
    after = await driver.turn(await driver.slash(DAVE, "pass"))
    assert f"{acting.name} passes" in after.text

    # abandoning asks first, privately; the buttons work on that private message
    ask = await (await driver.slash(MOD, "game abandon")).reply()
    assert ask.ephemeral and ask.audience == MOD.id and "Abandon game #1" in ask.content
    kept = await (await driver.click(MOD, ask, driver.button(ask, "Keep playing")["custom_id"])).reply()
    assert kept.ephemeral and "Nothing changed" in kept.content
    ask = await (await driver.slash(MOD, "game abandon")).reply()
    gone = await (await driver.click(MOD, ask, driver.button(ask, "Abandon the game")["custom_id"])).reply()
    assert not gone.ephemeral and "mod abandoned game #1" in gone.content
    assert "There is no game" in (await (await driver.slash(ALICE, "game status")).reply()).content


# -- two clicks at once -------------------------------------------------------------------------------------------


async def test_two_simultaneous_clicks_apply_exactly_once(inproc: InProcessBot, driver: Driver,
                                                          fake: FakeDiscord) -> None:
    turn = await stock_round(driver, inproc)
    first = fake.users[turn.acting[0]]
    par = next(a for a in await legal_for(inproc, first) if a["type"] == "par")
    turn = await driver.turn(await driver.slash(first, "act", action=encode_action(par)))
    assert turn.message is not None
    user = fake.users[turn.acting[0]]
    n = await action_count(inproc)
    cid = driver.button(turn.message, "Pass")["custom_id"]
    # a double click: both interactions are on the wire before the bot answers either
    a, b = await asyncio.gather(driver.click(user, turn.message, cid), driver.click(user, turn.message, cid))
    replies = [await a.reply(), await b.reply()]
    assert sorted(m.ephemeral for m in replies) == [False, True]
    loser = next(m for m in replies if m.ephemeral)
    assert "Too late" in loser.content and loser.audience == user.id
    await fake.wait_settled()
    assert await action_count(inproc) == n + 1

    # two different choices of one prompt at once: passing, and buying a share from the menu
    turn = await driver.turn(a if not replies[0].ephemeral else b)
    assert turn.message is not None
    user = fake.users[turn.acting[0]]
    menu = next(s for s in turn.message.selects() if "share" in (s.get("placeholder") or ""))
    x, y = await asyncio.gather(
        driver.click(user, turn.message, driver.button(turn.message, "Pass")["custom_id"]),
        driver.pick(user, turn.message, menu["custom_id"], menu["options"][0]["value"]))
    replies = [await x.reply(), await y.reply()]
    assert sorted(m.ephemeral for m in replies) == [False, True]
    assert "Too late" in next(m for m in replies if m.ephemeral).content
    await fake.wait_settled()
    assert await action_count(inproc) == n + 2


# -- slow work is answered in time -------------------------------------------------------------------------------


async def test_a_slow_picture_is_deferred_and_follows(inproc: InProcessBot, driver: Driver, fake: FakeDiscord,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # rendering slowed from the test side: every map and market picture takes 3.5 s
    def slow(render: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> bytes:
            time.sleep(3.5)
            return render(*args, **kwargs)
        return run

    monkeypatch.setattr(render.mapimg, "render_map", slow(render.mapimg.render_map))
    monkeypatch.setattr(render.market, "render_market", slow(render.market.render_market))
    await inproc.start(seed=SEED)
    turn = await start_game(driver, ALICE, [BOB, CAROL], images="turn")

    started = time.monotonic()
    ex = await driver.slash(BOB, "view map")
    inter = await ex.answered()
    assert inter.ack_type == 5 and inter.latency is not None and inter.latency < 3  # "thinking…" at once
    files = await ex.files(["-map.png"])
    assert time.monotonic() - started >= 3.5 and all(png_problem(d) is None for _n, d in files)

    # an action whose answer carries a picture: the text at once, the picture when drawn
    turn = await draft(driver, turn, {ALICE: 10, BOB: 5, CAROL: 0})
    user = fake.users[turn.acting[0]]
    par = next(a for a in await legal_for(inproc, user) if a["type"] == "par")
    started = time.monotonic()
    ex = await driver.slash(user, "act", action=encode_action(par))
    inter = await ex.answered()
    assert inter.ack_type == 4 and inter.latency is not None and inter.latency < 3
    assert "➡️" in (await ex.reply()).content
    files = await ex.files(["-market.png"])
    assert time.monotonic() - started >= 3.5 and all(png_problem(d) is None for _n, d in files)


async def test_slow_work_behind_an_action_is_deferred(inproc: InProcessBot, driver: Driver, fake: FakeDiscord,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    turn = await stock_round(driver, inproc)
    # a slow database: the bot says "thinking…" after 2 s and answers when the work is done
    append = Transaction.append_action

    async def slow_append(self: Transaction, *args: Any, **kwargs: Any) -> int:
        await asyncio.sleep(2.6)
        return await append(self, *args, **kwargs)

    monkeypatch.setattr(Transaction, "append_action", slow_append)
    user = fake.users[turn.acting[0]]
    ex = await driver.slash(user, "pass")
    inter = await ex.answered()
    assert inter.ack_type == 5 and inter.latency is not None and 1.5 < inter.latency < 3
    turn = await driver.turn(ex)
    assert f"{user.name} passes" in turn.text and not any(m.loading for m in ex.messages())
    monkeypatch.setattr(Transaction, "append_action", append)

    # a slow route search (it takes seconds late in a game): the action leading to a run-trains step must still
    # be answered within 3 s, so the search may not hold the bot's event loop
    search = operating_round.best_routes

    def slow_search(*args: Any, **kwargs: Any) -> Any:
        time.sleep(3.5)
        return search(*args, **kwargs)

    monkeypatch.setattr(operating_round, "best_routes", slow_search)
    auto = player(5, driver, inproc)
    turn = await auto.play_until(turn, lambda t: "run trains" in t.line, max_steps=600)
    last = auto.steps[-1].turn.exchange.interaction
    assert last.latency is not None and last.latency < 3
    assert "Best routes" in turn.text


# -- reminders ------------------------------------------------------------------------------------------------


async def test_reminders_after_the_interval_in_the_channel_and_by_dm(inproc: InProcessBot, driver: Driver,
                                                                     fake: FakeDiscord) -> None:
    clock = Clock()
    await inproc.start(now=clock, seed=SEED, reminder_period=0.05)
    turn = await start_game(driver, ALICE, [BOB, DAVE], images="request", reminder_hours=1)

    def reminders() -> list[Any]:
        return [m for m in fake.all_messages() if "⏰ Reminder" in m.content]

    async def next_reminder(count: int) -> Any:
        deadline = time.monotonic() + 10
        while len(reminders()) < count:
            assert time.monotonic() < deadline, "no reminder"
            await asyncio.sleep(0.02)
        return reminders()[count - 1]

    clock.advance(3600 - 60)
    await asyncio.sleep(0.4)
    assert reminders() == []  # not before the interval
    clock.advance(61)
    first = await next_reminder(1)
    assert first.channel_id == fake.channel_id and first.interaction_id is None and not first.ephemeral
    assert first.pinged() == set(turn.acting) == {ALICE.id, BOB.id, DAVE.id}
    assert "has waited 1" in first.content and "sealed bids" in first.content
    await asyncio.sleep(0.4)
    assert len(reminders()) == 1  # once per interval, not at every check
    clock.advance(3600)
    assert (await next_reminder(2)).pinged() == {ALICE.id, BOB.id, DAVE.id}

    # by direct message for a player who asked for it; in the channel when the member refuses DMs
    for user in (ALICE, DAVE):
        settings = await (await driver.slash(user, "game settings", dm=True)).reply()
        assert "reminders come by direct message" in settings.content
    turn = await draft_bids_only(driver, turn, {ALICE: 10, DAVE: 5, BOB: 0})
    assert turn.acting == [ALICE.id]
    clock.advance(3601)
    dm = await next_reminder(3)
    assert dm.kind == "dm" and dm.audience == ALICE.id and dm.channel_id != fake.channel_id
    assert dm not in fake.seen_by(BOB.id)
    assert turn.message is not None
    turn = await driver.turn(await driver.click(ALICE, turn.message, turn.message.buttons()[0]["custom_id"]))
    assert turn.acting == [DAVE.id]
    clock.advance(3601)
    fallback = await next_reminder(4)
    assert fallback.kind == "channel" and fallback.pinged() == {DAVE.id}
    assert any("Cannot send messages to this user" in r for r in fake.refusals)


async def draft_bids_only(driver: Driver, turn: Turn, bids: dict[FakeUser, int]) -> Turn:
    assert turn.message is not None
    for user, price in bids.items():
        after = await driver.turn(await driver.click(user, turn.message,
                                                     driver.button(turn.message, f"Bid ${price}")["custom_id"]))
    return after


# -- routes a player gives ------------------------------------------------------------------------------------


async def test_a_player_gives_own_routes_and_runs_them_with_the_button(inproc: InProcessBot, driver: Driver,
                                                                       fake: FakeDiscord) -> None:
    """`/train run routes:` through Discord: a mistake is refused privately with its reason, good routes are shown
    privately with their revenue and a button, and the president's click runs them in public."""
    turn = await stock_round(driver, inproc)
    auto = player(4, driver, inproc)
    turn = await auto.play_until(turn, lambda t: "run trains" in t.line, max_steps=600)
    assert inproc.service is not None
    cur = await inproc.service.current_game(int(inproc.fake.channel_id))
    assert cur is not None
    _row, game = cur
    corp = game.current_entity
    pres = next(u for u in PLAYERS if u.name == game.player_for(corp))
    best = game.round.best(game)
    assert best.routes
    text = "; ".join("-".join(s.hex for s in r.stops) for r in best.routes)
    n = await action_count(inproc)
    why = await refusal(driver.slash(pres, "train run", routes="Q99-" + text))
    assert "Q99 is not a hex id or the name of a place on the map" in why
    shown = await (await driver.slash(pres, "train run", routes=text)).reply()
    assert shown.ephemeral and shown.audience == pres.id and "Your routes:" in shown.content
    assert await action_count(inproc) == n
    run = driver.button(shown, "Run these routes")
    ran = await driver.turn(await driver.click(pres, shown, run["custom_id"]))
    assert f"{corp} runs" in ran.text and await action_count(inproc) == n + 1
