"""The Discord adapter without Discord: the real discord.py command tree and the translation of replies, checked
against Discord's published limits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.commands import COMMANDS, GROUPS, command_set_hash, decode_action, encode_action
from bot.config import Config
from bot.discord_app import StationmasterBot, build_tree, message_kwargs, to_embed, to_view
from bot.service import Button, Reply, Select, SelectOption, Service
from bot.texts import Embed, split_message

NAME = re.compile(r"^[-_\w]{1,32}$")


async def _noop_run(interaction: Any, spec: Any, kwargs: Any) -> None:
    return None


async def _noop_complete(interaction: Any, spec: Any, option: str, current: str) -> list[Any]:
    return []


@pytest.fixture
async def payload() -> list[dict[str, Any]]:
    client = discord.Client(intents=discord.Intents.none())
    tree = build_tree(client, _noop_run, _noop_complete)
    return [c.to_dict(tree) for c in tree.get_commands()]


def _chars(node: dict[str, Any]) -> int:
    total = len(node.get("name", "")) + len(node.get("description", ""))
    for c in node.get("choices", []) or []:
        total += len(c["name"]) + len(str(c["value"]))
    return total + sum(_chars(o) for o in node.get("options", []) or [])


async def test_command_tree_respects_discord_limits(payload: list[dict[str, Any]]) -> None:
    assert len(payload) <= 100  # global commands
    top = {c["name"] for c in payload}
    assert {g.name for g in GROUPS} <= top and {"pass", "act", "undo", "redo", "help"} <= top
    json.dumps(payload)
    for cmd in payload:
        assert cmd["name"] == cmd["name"].lower() and NAME.match(cmd["name"])
        assert 1 <= len(cmd["description"]) <= 100
        assert _chars(cmd) <= 4000, cmd["name"]
        assert cmd.get("contexts") == [0]  # servers only: a game lives in a channel
        subs = cmd.get("options", [])
        assert len(subs) <= 25
        for sub in subs:
            options = sub.get("options", []) if sub.get("type") == 1 else [sub]
            if sub.get("type") == 1:
                assert NAME.match(sub["name"]) and 1 <= len(sub["description"]) <= 100
            assert len(options) <= 25
            required = [o.get("required", False) for o in options]
            assert required == sorted(required, reverse=True), sub["name"]  # required options first
            for o in options:
                assert NAME.match(o["name"]) and o["name"] == o["name"].lower()
                assert 1 <= len(o["description"]) <= 100
                assert len(o.get("choices", []) or []) <= 25
                assert not (o.get("autocomplete") and o.get("choices"))


async def test_tree_matches_the_command_table(payload: list[dict[str, Any]]) -> None:
    by_name = {c["name"]: c for c in payload}
    for spec in COMMANDS:
        node = by_name[spec.group] if spec.group else by_name[spec.name]
        if spec.group:
            node = next(o for o in node["options"] if o["name"] == spec.name)
        options = {o["name"]: o for o in node.get("options", [])}
        assert set(options) == {o.name for o in spec.options}, spec.path
        for o in spec.options:
            got = options[o.name]
            assert bool(got.get("required", False)) == o.required
            assert bool(got.get("autocomplete", False)) == o.autocomplete, (spec.path, o.name)
            assert [c["value"] for c in got.get("choices", []) or []] == list(o.choices)
            kinds = {"str": 3, "int": 4, "bool": 5, "user": 6, "float": 10}
            assert got["type"] == kinds[o.type], (spec.path, o.name)
            if o.min_value is not None:
                assert got["min_value"] == o.min_value


def test_command_set_hash_is_stable_and_guild_specific() -> None:
    assert command_set_hash() == command_set_hash()
    assert command_set_hash("guild=1") != command_set_hash("guild=2")


async def test_sync_skipped_when_the_hash_is_unchanged(tmp_path: Path) -> None:
    config = Config(discord_token="x", database_path=str(tmp_path / "bot.sqlite3"), dev_guild_id=99,
                    log_level="INFO")
    service = await Service.open(config.database_path)
    try:
        bot = StationmasterBot(service, config)
        (tmp_path / "bot.sqlite3.commands").write_text(command_set_hash("guild=99"), encoding="utf-8")
        assert await bot.sync_commands() is False  # no request to Discord at all (there is no network here)
        assert {c.name for c in bot.tree.get_commands()} >= {"game", "stock", "pass"}
        await bot.close()
    finally:
        await service.close()


def test_encoded_actions_round_trip_and_fit_custom_ids() -> None:
    a = {"type": "buy_train", "entity": "L&N", "train": "6-0", "price": 600, "variant": "3E"}
    text = encode_action(a)
    assert decode_action(text) == {"type": "buy_train", "entity": "L&N", "train": "6-0", "price": "600",
                                   "variant": "3E"}
    assert len(f"sm:123456:12345x0a0b:a:{text}") <= 100
    assert decode_action(encode_action({"type": "buy_shares", "entity": "bob", "corporation": "SAL",
                                        "president": True}))["president"] == "1"


async def test_reply_translation_respects_limits() -> None:
    rows: list[list[Button | Select]] = [[Button(f"b{i}{j}", f"sm:1:s:a:{i}{j}") for j in range(5)] for i in range(4)]
    rows.append([Select("sm:1:s:s:buy", "Buy…", [SelectOption(f"opt {k}", f"v{k}") for k in range(30)])])
    rows.append([Button("seventh row", "sm:1:s:a:x")])
    reply = Reply(text="hello <@5>", mentions=[5], components=rows, ephemeral=True,
                  embeds=[Embed("t", "d", [(f"f{i}", "x" * 2000) for i in range(40)])],
                  files=[(f"p{i}.png", b"\x89PNG") for i in range(12)])
    kw = message_kwargs(reply.text, reply, last=True)
    assert kw["ephemeral"] is True and kw["content"] == "hello <@5>"
    assert [u.id for u in kw["allowed_mentions"].users] == [5] and kw["allowed_mentions"].everyone is False
    assert len(kw["files"]) == 10
    comps = kw["view"].to_components()
    assert len(comps) == 5 and all(len(r["components"]) <= 5 for r in comps)
    assert len(comps[4]["components"][0]["options"]) == 25
    assert kw["view"].is_finished()  # not kept by discord.py: clicks are handled by custom id
    emb = kw["embeds"][0]
    assert len(emb.fields) <= 25 and len(emb) <= 6000
    first_part = message_kwargs("part", reply, last=False)
    assert "view" not in first_part and "files" not in first_part
    assert to_view([]) is None
    assert to_embed(Embed("x" * 300, "y" * 5000)).title is not None


def test_split_message_keeps_parts_under_2000_and_code_blocks_closed() -> None:
    text = "\n".join(["intro"] + ["```"] + [f"line {i} " + "x" * 50 for i in range(100)] + ["```", "end"])
    parts = split_message(text)
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert all(p.count("```") % 2 == 0 for p in parts)
    assert split_message("short") == ["short"] and split_message("") == []
    assert all(len(p) <= 2000 for p in split_message("y" * 5000))


# -- end to end against a fake Discord on 127.0.0.1 (see shared/design/DISCORD-TESTING.md) ----------------------

APP_ID = "900000000000000001"
GUILD_ID = "900000000000000002"
CHANNEL_ID = "900000000000000003"
BOT_USER = {"id": APP_ID, "username": "stationmaster", "discriminator": "0", "avatar": None, "bot": True}
MANAGE_GUILD = 1 << 5


def _user(uid: int, name: str) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "discriminator": "0", "avatar": None, "global_name": name}


def _member(uid: int, name: str, perms: int = 0) -> dict[str, Any]:
    return {"user": _user(uid, name), "roles": [], "flags": 0, "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False, "mute": False, "permissions": str(perms)}


class FakeDiscord:
    """REST and gateway of a tiny Discord: records what the bot sends, lets the test send interactions."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, dict[str, Any] | None, list[str]]] = []
        self.ws: Any = None
        self.seq = 0
        self.next_id = 1000
        self.identified: asyncio.Event | None = None  # made in start(), inside the test's event loop
        self.synced: list[Any] = []

    def snowflake(self) -> str:
        self.next_id += 1
        return str(800000000000000000 + self.next_id)

    def message(self, payload: dict[str, Any] | None, channel: str = CHANNEL_ID) -> dict[str, Any]:
        p = payload or {}
        return {"id": self.snowflake(), "channel_id": channel, "type": 0, "content": p.get("content") or "",
                "author": BOT_USER, "attachments": [], "embeds": p.get("embeds") or [], "mentions": [],
                "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
                "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None, "flags": p.get("flags") or 0,
                "components": p.get("components") or []}

    async def start(self) -> str:
        from aiohttp import web

        self.identified = asyncio.Event()
        app = web.Application()
        app.router.add_route("*", "/gateway", self.gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"127.0.0.1:{port}"

    async def stop(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.runner.cleanup()

    async def rest(self, request: Any) -> Any:
        from aiohttp import web

        tail = request.match_info["tail"]
        body: dict[str, Any] | None = None
        files: list[str] = []
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append(part.filename or "")
                    await part.read()
        self.requests.append((request.method, tail, body, files))

        def reply(data: Any) -> Any:
            # exactly "application/json": with "; charset=utf-8" discord.py would read the body as text
            return web.Response(body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})

        if tail == "users/@me":
            return reply(BOT_USER)
        if tail == "oauth2/applications/@me":
            return reply({"id": APP_ID, "name": "Stationmaster", "description": "", "icon": None,
                          "bot_public": True, "bot_require_code_grant": False, "owner": _user(1, "owner"),
                          "verify_key": "k", "flags": 0})
        if tail.startswith(f"applications/{APP_ID}/") and tail.endswith("commands") and request.method == "PUT":
            out = [dict(c, id=self.snowflake(), application_id=APP_ID, version="1") for c in body or []]
            self.synced.append(out)
            return reply(out)
        if tail.startswith("interactions/") and tail.endswith("/callback"):
            data = (body or {}).get("data") or {}
            return reply({"interaction": {"id": tail.split("/")[1], "type": 2},
                          "resource": {"type": (body or {}).get("type"), "message": self.message(data)}})
        if tail.startswith("webhooks/") and request.method in ("POST", "PATCH"):
            return reply(self.message(body))
        if request.method == "DELETE":
            return web.Response(status=204)
        if tail.startswith("channels/") and request.method in ("POST", "PATCH"):
            return reply(self.message(body, channel=tail.split("/")[1]))
        return reply({})

    async def gateway(self, request: Any) -> Any:
        from aiohttp import web

        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.ws = ws
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}})
        async for msg in ws:
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_json({"op": 11})
            elif data["op"] == 2:
                await self.dispatch("READY", {
                    "v": 10, "user": BOT_USER, "guilds": [{"id": GUILD_ID, "unavailable": True}],
                    "session_id": "s", "resume_gateway_url": f"ws://{request.host}/gateway",
                    "application": {"id": APP_ID, "flags": 0}})
                await self.dispatch("GUILD_CREATE", {
                    "id": GUILD_ID, "name": "Trains", "owner_id": "1", "features": [], "emojis": [], "stickers": [],
                    "roles": [{"id": GUILD_ID, "name": "@everyone", "permissions": "0", "position": 0,
                               "color": 0, "hoist": False, "managed": False, "mentionable": False}],
                    "channels": [{"id": CHANNEL_ID, "type": 0, "name": "18xx", "position": 0,
                                  "permission_overwrites": []}],
                    "members": [_member(1, "alice", MANAGE_GUILD), _member(2, "bob")], "member_count": 2,
                    "threads": [], "voice_states": [], "presences": [], "large": False, "unavailable": False})
                self.identified.set()
        return ws

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        await self.ws.send_json({"op": 0, "t": event, "s": self.seq, "d": data})

    async def interaction(self, kind: int, uid: int, name: str, data: dict[str, Any], *, perms: int = 0,
                          message: dict[str, Any] | None = None) -> str:
        iid = self.snowflake()
        payload = {"id": iid, "application_id": APP_ID, "type": kind, "token": f"tok{iid}", "version": 1,
                   "attachment_size_limit": 10 * 1024 * 1024, "guild_id": GUILD_ID, "channel_id": CHANNEL_ID,
                   "channel": {"id": CHANNEL_ID, "type": 0, "name": "18xx", "position": 0, "guild_id": GUILD_ID},
                   "member": _member(uid, name, perms), "app_permissions": "0", "locale": "en-US",
                   "guild_locale": "en-US", "entitlements": [], "authorizing_integration_owners": {},
                   "context": 0, "data": data}
        if message is not None:
            payload["message"] = message
        await self.dispatch("INTERACTION_CREATE", payload)
        return iid

    async def wait_for(self, predicate: Any, timeout: float = 10.0) -> Any:
        deadline = asyncio.get_running_loop().time() + timeout
        seen = 0
        while asyncio.get_running_loop().time() < deadline:
            for req in self.requests[seen:]:
                if predicate(req):
                    return req
            await asyncio.sleep(0.02)
        raise AssertionError(f"no such request; got {[(m, t) for m, t, _b, _f in self.requests]}")


def _slash(group: str, name: str, **options: Any) -> dict[str, Any]:
    types = {str: 3, int: 4, bool: 5}
    opts = [{"name": k, "type": types[type(v)], "value": v} for k, v in options.items()]
    return {"id": "1", "name": group, "type": 1, "options": [{"name": name, "type": 1, "options": opts}]}


async def test_end_to_end_through_a_fake_discord(tmp_path: Path) -> None:
    fake = FakeDiscord()
    host = await fake.start()
    old_base, old_gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = f"http://{host}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = discord.gateway.yarl.URL(f"ws://{host}/gateway")
    config = Config(discord_token="t", database_path=str(tmp_path / "bot.sqlite3"), dev_guild_id=None,
                    log_level="INFO")
    service = await Service.open(config.database_path, seed_source=lambda: 7)
    bot = StationmasterBot(service, config)
    bot._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(bot.start("token"))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 15)
        assert fake.synced and {c["name"] for c in fake.synced[0]} >= {"game", "pass"}  # first start: synced
        assert (tmp_path / "bot.sqlite3.commands").read_text() == command_set_hash("guild=None")

        def callback(iid: str) -> Any:
            return lambda r: r[1].startswith(f"interactions/{iid}/") and r[1].endswith("/callback")

        # a slash command answered at once, in public
        iid = await fake.interaction(2, 1, "alice", _slash("game", "create", title="18FL"), perms=MANAGE_GUILD)
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        assert body["type"] == 4 and "created a game of **18FL**" in body["data"]["content"]
        assert not (body["data"].get("flags") or 0) & 64
        # a refusal is ephemeral
        iid = await fake.interaction(2, 2, "bob", _slash("game", "start"))
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        assert body["type"] == 4 and body["data"]["flags"] & 64 and "Only a seated player" in body["data"]["content"]
        iid2 = await fake.interaction(2, 2, "bob", _slash("game", "join"))
        _m, _t, body, _f = await fake.wait_for(callback(iid2))
        assert "joins game #1" in body["data"]["content"]
        # autocomplete answers with choices (type 8)
        data = _slash("game", "create", title="18")
        data["options"][0]["options"][0]["focused"] = True
        iid = await fake.interaction(4, 2, "bob", data)
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        assert body["type"] == 8 and body["data"]["choices"] == [{"name": "18FL", "value": "18FL"}]
        # start: the prompt carries the bid buttons
        iid = await fake.interaction(2, 1, "alice", _slash("game", "start"), perms=MANAGE_GUILD)
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        buttons = [c for row in body["data"]["components"] for c in row["components"]]
        assert [b["label"] for b in buttons] == ["Bid $0", "Bid $5", "Bid $10"]
        assert all(len(b["custom_id"]) <= 100 for b in buttons)
        # a click: the sealed bid is answered privately, the log follows in public
        msg = fake.message(body["data"])
        iid = await fake.interaction(3, 2, "bob", {"custom_id": buttons[1]["custom_id"], "component_type": 2},
                                     message=msg)
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        assert body["data"]["flags"] & 64 and "Your sealed bid of $5" in body["data"]["content"]
        token = f"tok{iid}"
        _m, _t, follow, _f = await fake.wait_for(lambda r: r[0] == "POST" and r[1].startswith(f"webhooks/{APP_ID}/"
                                                                                              f"{token}"))
        assert "bob has made a sealed bid" in follow["content"] and not (follow.get("flags") or 0) & 64
        # alice bids too; the reveal's prompt offers the privates; a public click clears the old message's buttons
        data = {"id": "1", "name": "private", "type": 1,
                "options": [{"name": "bid", "type": 1, "options": [{"name": "price", "type": 4, "value": 10}]}]}
        iid = await fake.interaction(2, 1, "alice", data, perms=MANAGE_GUILD)
        _m, _t, follow, _f = await fake.wait_for(lambda r: r[0] == "POST" and r[1].startswith(f"webhooks/{APP_ID}/tok"
                                                                                              f"{iid}"))
        assert "Bids revealed" in follow["content"] and "<@1>" in follow["content"]
        assert [int(u) for u in follow["allowed_mentions"]["users"]] == [1]  # only alice, who chooses now, is pinged
        picks = [c for row in follow["components"] for c in row["components"]]
        msg = fake.message(follow)
        iid = await fake.interaction(3, 1, "alice", {"custom_id": picks[0]["custom_id"], "component_type": 2},
                                     message=msg, perms=MANAGE_GUILD)
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        assert body["type"] == 4 and "alice buys" in body["data"]["content"]
        _m, _t, edit, _f = await fake.wait_for(lambda r: r[0] == "PATCH" and r[1] == f"channels/{CHANNEL_ID}/"
                                                                                      f"messages/{msg['id']}")
        assert edit["components"] == []
        # a slow command defers in public; when the answer is a refusal, the placeholder goes and the answer is private
        data = {"id": "1", "name": "train", "type": 1, "options": [{"name": "run", "type": 1, "options": []}]}
        iid = await fake.interaction(2, 2, "bob", data)
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        assert body["type"] == 5 and not (body.get("data") or {}).get("flags")
        token = f"tok{iid}"
        await fake.wait_for(lambda r: r[0] == "DELETE" and r[1] == f"webhooks/{APP_ID}/{token}/messages/@original")
        _m, _t, follow, _f = await fake.wait_for(lambda r: r[0] == "POST" and r[1].startswith(f"webhooks/{APP_ID}/"
                                                                                              f"{token}"))
        assert follow["flags"] & 64 and "run-trains step" in follow["content"]
        # a slow view defers first, then sends the picture as a file
        data = {"id": "1", "name": "view", "type": 1, "options": [{"name": "market", "type": 1, "options": []}]}
        iid = await fake.interaction(2, 2, "bob", data)
        _m, _t, body, _f = await fake.wait_for(callback(iid))
        assert body["type"] == 5 and body["data"]["flags"] & 64  # "thinking", privately
        token = f"tok{iid}"
        _m, _t, follow, files = await fake.wait_for(lambda r: r[1].startswith(f"webhooks/{APP_ID}/{token}")
                                                    and r[0] in ("POST", "PATCH"))
        assert files and files[0].endswith("-market.png")
    finally:
        await bot.close()
        runner.cancel()
        with contextlib.suppress(BaseException):
            await runner
        await service.close()
        await fake.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway
