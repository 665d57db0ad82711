"""The fake Discord itself: it answers rule breaks the way Discord does, and notes them so a test fails.

Here a plain aiohttp client plays the bot's part (as discord.py would send it); at the end the real bot breaks two
rules on purpose (an oversized file, a late answer) and the fake must catch both.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from .conftest import ALICE, BOB, InProcessBot
from .driver import Driver
from .fake_discord import APP_ID, TOKEN, FakeDiscord, Limits

AUTH = {"Authorization": f"Bot {TOKEN}"}


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A connected "bot": identified on the gateway, so interactions can be sent to it."""
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "properties": {}}})
        ready = await ws.receive_json()
        guild = await ws.receive_json()
        assert ready["t"] == "READY" and guild["t"] == "GUILD_CREATE"
        assert guild["d"]["member_count"] == len(guild["d"]["members"])
        yield session


async def answer(session: aiohttp.ClientSession, fake: FakeDiscord, iid: str, body: dict[str, Any],
                 files: dict[str, bytes] | None = None) -> tuple[int, Any]:
    inter = fake.interaction(iid)
    url = f"{fake.base_url}/interactions/{iid}/{inter.token}/callback?with_response=1"
    return await post(session, url, body, files)


async def post(session: aiohttp.ClientSession, url: str, body: dict[str, Any],
               files: dict[str, bytes] | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    if files:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body), content_type="application/json")
        for i, (name, data) in enumerate(files.items()):
            form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
        request = session.post(url, data=form, headers=headers)
    else:
        request = session.post(url, json=body, headers=headers)
    async with request as r:
        assert r.headers["Content-Type"] == "application/json" or r.status == 204
        return r.status, (await r.json() if r.status != 204 else None)


async def command(fake: FakeDiscord, kind: int = 2) -> str:
    return await fake.arun(fake.interact(ALICE, kind, {"id": "1", "name": "help", "type": 1, "options": []},
                                         label="/help", focused_type=3 if kind == 4 else None))


def error_codes(errors: dict[str, Any]) -> set[str]:
    out = set()
    for key, value in errors.items():
        if key == "_errors":
            out |= {e["code"] for e in value}
        else:
            out |= error_codes(value)
    return out


async def test_messages_beyond_discords_limits_are_refused(client: aiohttp.ClientSession, fake: FakeDiscord) -> None:
    button = {"type": 2, "style": 1, "label": "ok", "custom_id": "x"}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"content": "x" * 2001}, "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"description": "d"}] * 11}, "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"description": "d" * 4097}]}, "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "MAX_EMBED_SIZE_EXCEEDED"),
        ({"components": [{"type": 1, "components": [dict(button, custom_id=f"b{i}")]} for i in range(6)]},
         "BASE_TYPE_MAX_LENGTH"),
        ({"components": [{"type": 1, "components": [dict(button, custom_id=f"b{i}") for i in range(6)]}]},
         "BASE_TYPE_MAX_LENGTH"),
        ({"components": [{"type": 1, "components": [dict(button, custom_id="c" * 101)]}]}, "BASE_TYPE_MAX_LENGTH"),
        ({"components": [{"type": 1, "components": [button, button]}]}, "COMPONENT_CUSTOM_ID_DUPLICATED"),
        ({"components": [{"type": 1, "components": [dict(button, label="l" * 81)]}]}, "BASE_TYPE_MAX_LENGTH"),
        ({"components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "m", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(26)]}]}]},
         "BASE_TYPE_MAX_LENGTH"),
        ({"components": [{"type": 1, "components": [
            button, {"type": 3, "custom_id": "m", "options": [{"label": "o", "value": "v"}]}]}]},
         "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ]
    for data, code in cases:
        iid = await command(fake)
        status, body = await answer(client, fake, iid, {"type": 4, "data": data})
        assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body", body
        assert code in error_codes(body["errors"]), (code, body)
    iid = await command(fake)
    status, body = await answer(client, fake, iid, {"type": 4, "data": {}})
    assert (status, body["code"]) == (400, 50006)  # an empty message
    # autocomplete: at most 25 choices, values of the option's type
    iid = await command(fake, kind=4)
    status, body = await answer(client, fake, iid, {"type": 8, "data": {"choices": [
        {"name": f"c{i}", "value": f"v{i}"} for i in range(26)]}})
    assert status == 400 and "BASE_TYPE_MAX_LENGTH" in error_codes(body["errors"])
    iid = await command(fake, kind=4)
    status, body = await answer(client, fake, iid, {"type": 8, "data": {"choices": [{"name": "one", "value": 1}]}})
    assert status == 400  # a number offered for a text option
    iid = await command(fake, kind=4)
    status, body = await answer(client, fake, iid, {"type": 4, "data": {"content": "hi"}})
    assert status == 400  # an autocomplete is answered with choices only
    # a file over the interaction's attachment_size_limit: 413, as Discord answers it
    iid = await command(fake)
    status, body = await answer(client, fake, iid, {"type": 4, "data": {"content": "map"}},
                                files={"big.png": b"\0" * (10 * 1024 * 1024 + 1)})
    assert (status, body["code"]) == (413, 40005)
    # each refusal was noted against the bot
    assert len(fake.violations) == len(cases) + 5
    # while a valid answer goes through and becomes a message everyone sees
    iid = await command(fake)
    status, body = await answer(client, fake, iid, {"type": 4, "data": {"content": "fine", "components": [
        {"type": 1, "components": [button]}]}})
    assert status == 200 and body["resource"]["message"]["content"] == "fine"
    assert fake.messages_of(iid)[0].visible_to(BOB.id)
    fake.violations.clear()


async def test_interactions_die_after_three_seconds_and_answer_once(client: aiohttp.ClientSession,
                                                                    fake: FakeDiscord) -> None:
    iid = await command(fake)
    status, _ = await answer(client, fake, iid, {"type": 5})
    assert status == 200
    status, body = await answer(client, fake, iid, {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060)  # already acknowledged
    # the first follow-up replaces the "thinking…" placeholder and keeps its visibility: a private answer would
    # be shown to everyone, which the fake notes
    token = fake.interaction(iid).token
    status, msg = await post(client, f"{fake.base_url}/webhooks/{APP_ID}/{token}?wait=1",
                             {"content": "secret", "flags": 64})
    assert status == 200 and msg["id"] == fake.interaction(iid).original_id and not msg["flags"] & 64
    assert any("shown to everyone" in v for v in fake.violations)
    fake.violations.clear()

    # no answer at all: dead after 3 s, then even a late answer is refused
    late = await command(fake)
    unanswered = await command(fake)
    await asyncio.sleep(3.2)
    status, body = await answer(client, fake, late, {"type": 4, "data": {"content": "late"}})
    assert (status, body["code"]) == (404, 10062)
    token = fake.interaction(unanswered).token
    status, body = await post(client, f"{fake.base_url}/webhooks/{APP_ID}/{token}?wait=1", {"content": "x"})
    assert (status, body["code"]) == (404, 10015)  # no follow-up for a dead interaction
    assert len([v for v in fake.violations if "no answer within 3 s" in v]) == 2
    # and REST calls need the bot's token
    status, body = await post(client, f"{fake.base_url}/channels/{fake.channel_id}/messages", {"content": "x"},
                              headers={"Authorization": "Bot wrong"})
    assert status == 401
    status, _ = await post(client, f"{fake.base_url}/channels/{fake.channel_id}/messages", {"content": "x" * 2001},
                           headers=AUTH)
    assert status == 400
    fake.violations.clear()


@pytest.mark.parametrize("limits", [Limits(attachment_size=20_000)])
async def test_the_bot_breaking_a_rule_is_caught(inproc: InProcessBot, driver: Driver, fake: FakeDiscord,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    await inproc.start(seed=3)
    await (await driver.slash(ALICE, "game create", title="18FL")).reply()
    await (await driver.slash(BOB, "game join")).reply()
    await driver.turn(await driver.slash(ALICE, "game start"))
    # a server whose uploads are capped at 20 kB (its tier; the interaction says so): the map is bigger, so the bot
    # leaves it out with a note instead of having the whole message refused
    ex = await driver.slash(BOB, "view map")
    note = await ex.reply()
    assert "larger than this server's" in note.content and note.audience == BOB.id and not note.attachments
    assert fake.problems() == []
    # the fake itself refuses an oversized file, as Discord does
    async with aiohttp.ClientSession() as client:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps({"content": "big"}), content_type="application/json")
        form.add_field("files[0]", b"x" * 20_001, filename="big.png", content_type="image/png")
        async with client.post(f"{fake.base_url}/channels/{fake.channel_id}/messages", data=form,
                               headers={"Authorization": f"Bot {fake.token}"}) as resp:
            assert resp.status == 413
    assert any("Request entity too large" in p for p in fake.problems()), fake.problems()
    fake.violations.clear()

    # an answer sent after Discord's 3 seconds (the reply held back from the test side)
    send = discord.InteractionResponse.send_message

    async def late(self: Any, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(3.3)
        return await send(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "send_message", late)
    await driver.slash(BOB, "help")
    await asyncio.sleep(3.6)
    await fake.wait_settled()
    assert any("no answer within 3 s" in p for p in fake.problems()), fake.problems()
    fake.violations.clear()
