"""The Discord adapter without Discord: the real discord.py command tree and the translation of replies, checked
against Discord's published limits."""

from __future__ import annotations

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
        # servers only (a game lives in a channel), except a member's own commands, which also work in a DM
        assert cmd.get("contexts") == ([0, 1, 2] if cmd["name"] in ("mygames", "reminders") else [0]), cmd["name"]
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
            kinds = {"str": 3, "int": 4, "bool": 5, "user": 6, "float": 10, "attachment": 11}
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


# The end-to-end test through a fake Discord lives in tests/e2e/ (test_discord_flow.py and the others).
