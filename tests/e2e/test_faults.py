"""Discord under load and faults, on the wire: rate limits (per route and global, 429 with retry_after), connection
resets, 5xx errors, a gateway disconnect and resume, and an outage during which a stored move waits in the outbox
(also across a restart). In every case a stored move is announced in the channel, and nobody is told that nothing
changed (issue 16 items 1 and 2)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import pytest

from bot.reminders import Notice

from .conftest import ALICE, BOB, CAROL, InProcessBot
from .driver import Driver, Exchange, Turn, draft, start_game
from .fake_discord import FakeDiscord, Limits, Message
from .test_interactions import action_count

CALLBACK = r"^POST interactions/"
EVERYTHING = r"^(POST|PATCH|DELETE) (interactions|webhooks|channels)/"
SORRY = "nothing was changed"


async def stock_round(driver: Driver, inproc: InProcessBot) -> Turn:
    await inproc.start(seed=11)
    turn = await start_game(driver, ALICE, [BOB, CAROL], images="request")
    return await draft(driver, turn, {ALICE: 10, BOB: 5, CAROL: 0})


async def channel_text(fake: FakeDiscord, wanted: str, timeout: float = 20.0) -> Message:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for m in fake.all_messages():
            if wanted in m.content and m.kind == "channel":  # a plain channel message, not an interaction's
                return m
        await asyncio.sleep(0.05)
    raise AssertionError(f"no message with {wanted!r}; {[m.content[:80] for m in fake.all_messages()][-5:]}")


async def died(ex: Exchange) -> None:
    """Until Discord has given up on the interaction (its 3 seconds passed without an answer getting through)."""
    while not ex.interaction.dead and ex.interaction.ack_type is None:
        await asyncio.sleep(0.05)


def nobody_was_lied_to(fake: FakeDiscord) -> None:
    assert not any(SORRY in m.content for m in fake.all_messages())


@pytest.mark.parametrize("fault", [
    {"kind": "429", "retry_after": 0.3},  # a rate limit discord.py does not retry itself (no Via header)
    {"kind": "429", "retry_after": 0.2, "scope": "global"},
    {"kind": "reset"},  # the connection cut before Discord read the answer
    {"kind": "5xx", "status": 502},
])
async def test_a_failed_first_answer_is_tried_again(inproc: InProcessBot, driver: Driver, fake: FakeDiscord,
                                                    fault: dict[str, Any]) -> None:
    turn = await stock_round(driver, inproc)
    user = fake.users[turn.acting[0]]
    before = await action_count(inproc)
    injected = fake.inject(route=CALLBACK, **fault)
    after = await driver.turn(await driver.slash(user, "pass"))
    assert injected.hits == 1 and await action_count(inproc) == before + 1
    assert after.acting and after.acting != turn.acting and "pass" in after.text.lower()
    if fault["kind"] == "429":
        assert fake.rate_limited
    nobody_was_lied_to(fake)


async def test_an_outage_keeps_the_announcement_until_the_gateway_resumes(inproc: InProcessBot, driver: Driver,
                                                                         fake: FakeDiscord) -> None:
    turn = await stock_round(driver, inproc)
    user = fake.users[turn.acting[0]]
    before = await action_count(inproc)
    # every way of posting is rate limited for a minute: the move is stored, the announcement waits
    fake.inject("429", EVERYTHING, count=1000, retry_after=60.0)
    ex = await driver.slash(user, "pass")
    deadline = time.monotonic() + 20
    assert inproc.service is not None
    while not await inproc.service.store.outbox():
        assert time.monotonic() < deadline, "nothing reached the outbox"
        await asyncio.sleep(0.05)
    assert await action_count(inproc) == before + 1
    kept = await inproc.service.store.outbox()
    assert any("➡️" in m.payload["content"] for m in kept)
    fake.clear_faults()
    await fake.drop_gateway()  # Discord is back: the bot reconnects, resumes, and posts what waited
    announced = await channel_text(fake, "➡️")
    assert fake.resumes == 1 and fake.identifies == 1  # resumed, not identified afresh
    assert set(announced.mentioned()) & {ALICE.id, BOB.id, CAROL.id}
    assert await inproc.service.store.outbox() == []
    nobody_was_lied_to(fake)
    # the dead interaction is the injected outage's doing, not the bot's
    await died(ex)
    assert all("no answer within" in v for v in fake.violations), fake.violations
    fake.violations.clear()


async def test_the_outbox_is_posted_after_a_restart(inproc: InProcessBot, driver: Driver, fake: FakeDiscord) -> None:
    turn = await stock_round(driver, inproc)
    user = fake.users[turn.acting[0]]
    fake.inject("reset", EVERYTHING, count=1000)
    ex = await driver.slash(user, "pass")
    assert inproc.service is not None
    deadline = time.monotonic() + 60
    while not await inproc.service.store.outbox():
        assert time.monotonic() < deadline, "nothing reached the outbox"
        await asyncio.sleep(0.1)
    await inproc.stop()
    fake.clear_faults()
    await inproc.start(seed=11)
    await channel_text(fake, "➡️")
    assert inproc.service is not None and await inproc.service.store.outbox() == []
    nobody_was_lied_to(fake)
    await died(ex)
    assert all("no answer within" in v for v in fake.violations), fake.violations
    fake.violations.clear()


@pytest.mark.parametrize("limits", [Limits(channel_posts=(2, 1.0))])
async def test_rate_limits_per_route_and_global_are_waited_out(inproc: InProcessBot, fake: FakeDiscord) -> None:
    bot = await inproc.start(seed=11)
    channel = int(fake.channel_id)

    async def burst(first: int) -> None:
        await asyncio.gather(*(bot.deliver(Notice(1, channel, None, f"reminder {i}", [], None))
                               for i in range(first, first + 5)))

    # a burst of reminders: Discord's buckets answer 429 through its proxy; every message still arrives
    await burst(0)
    assert any("(user)" in r for r in fake.rate_limited)
    fake.limits = dataclasses.replace(fake.limits, channel_posts=None, global_requests=(2, 1.0))
    await burst(5)
    assert any("(global)" in r for r in fake.rate_limited)
    # and a 429 without the proxy's header, which discord.py leaves to the bot
    fake.limits = dataclasses.replace(fake.limits, global_requests=None)
    fake.inject("429", r"^POST channels/", count=2, retry_after=0.2)
    await bot.deliver(Notice(1, channel, None, "reminder 10", [], None))
    texts = [m.content for m in fake.all_messages(fake.channel_id) if m.content.startswith("reminder")]
    assert sorted(texts) == sorted(f"reminder {i}" for i in range(11))
    assert inproc.service is not None and await inproc.service.store.outbox() == []
