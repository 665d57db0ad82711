"""The Discord conversation of a game's opening: command sync, replies, refusals, sealed bids, clicks, deferrals.

(Moved here from tests/test_discord_app.py, which keeps the adapter's unit tests.)
"""

from __future__ import annotations

from pathlib import Path

from bot.commands import command_set_hash
from engine.titles import TITLES

from .conftest import ALICE, BOB, EVE, InProcessBot
from .driver import Driver, png_problem
from .fake_discord import EPHEMERAL, FakeDiscord


async def test_opening_of_a_game_through_discord(inproc: InProcessBot, driver: Driver, fake: FakeDiscord,
                                                 db_path: Path) -> None:
    await inproc.start(seed=7)
    # first start: the command set is synced once, and its hash remembered beside the database
    assert fake.command_puts == 1
    assert {c["name"] for c in fake.commands[None]} >= {"game", "pass", "act", "undo", "view", "train"}
    assert db_path.with_name(db_path.name + ".commands").read_text() == command_set_hash("guild=None")

    # a slash command answered at once, in public
    ex = await driver.slash(ALICE, "game create", title="18FL")
    msg = await ex.reply()
    assert ex.interaction.ack_type == 4 and "created a game of **18FL**" in msg.content and not msg.ephemeral
    assert all(m.visible_to(EVE.id) for m in ex.messages())

    # a refusal is private, with its reason
    refusal = await (await driver.slash(BOB, "game start")).refused()
    assert "Only a seated player" in refusal.content
    assert not refusal.visible_to(ALICE.id)
    assert "joins game #1" in (await (await driver.slash(BOB, "game join")).reply()).content

    # autocomplete answers with the titles matching what is typed
    choices = await driver.complete(BOB, "game create", "title", "18F")
    assert [c["value"] for c in choices] == [t for t in TITLES if "18f" in t.lower()]

    # start: the prompt carries the sealed-bid buttons
    start = await driver.turn(await driver.slash(ALICE, "game start"))
    assert start.message is not None and sorted(start.acting) == sorted([ALICE.id, BOB.id])
    buttons = start.message.buttons()
    assert [b["label"] for b in buttons] == ["Bid $0", "Bid $5", "Bid $10"]
    assert all(len(b["custom_id"]) <= 100 for b in buttons)

    # a click: the sealed bid is acknowledged privately, the log follows in public without the amount
    ex = await driver.click(BOB, start.message, buttons[1]["custom_id"])
    msgs = await ex.until(lambda ms: len(ms) >= 2, what="acknowledgement and log")
    ack, log = msgs[0], msgs[1]
    assert ack.ephemeral and ack.audience == BOB.id and "Your sealed bid of $5" in ack.content
    assert log.content.startswith("bob has made a sealed bid.\n") and not log.ephemeral
    assert "$5" not in log.content.splitlines()[0]
    assert all("$5 is in" not in m.content for m in fake.seen_by(ALICE.id))
    # the bid buttons stay on the opening message: alice has not bid yet
    assert len(fake.message(start.message.id).buttons()) == 3

    # alice bids by command; the reveal's prompt pings only alice, who chooses now
    turn = await driver.turn(await driver.slash(ALICE, "private bid", price=10))
    assert "Bids revealed" in turn.text and turn.acting == [ALICE.id]
    assert turn.message is not None and turn.message.pinged() == {ALICE.id}
    picks = turn.message.buttons()
    assert picks and all(b["label"].startswith("Choose") for b in picks)

    # a click in public: the answer is public and the buttons just used leave the old message
    ex = await driver.click(ALICE, turn.message, picks[0]["custom_id"])
    after = await driver.turn(ex)
    assert "alice buys" in after.text and ex.interaction.ack_type == 4
    await fake.wait_settled()
    assert fake.message(turn.message.id).components == []

    # a slow command defers in public; a refusal then replaces the placeholder by a private answer
    ex = await driver.slash(BOB, "train run")
    msg = await ex.reply()
    inter = ex.interaction
    assert inter.ack_type == 5 and inter.latency is not None and inter.latency < 3
    assert msg.ephemeral and msg.audience == BOB.id and "run-trains step" in msg.content
    assert [m.id for m in ex.messages()] == [msg.id]  # the public "thinking…" message is gone
    assert all(not m.loading for m in fake.all_messages())

    # a slow view defers privately, then sends the picture as a PNG file
    ex = await driver.slash(BOB, "view market")
    files = await ex.files(["-market.png"])
    assert ex.interaction.ack_type == 5
    assert all(m.flags & EPHEMERAL and m.audience == BOB.id for m in ex.messages())
    assert all(png_problem(data) is None for _n, data in files)
