"""The bot, started against the fake Discord, syncs its commands with their Japanese names and descriptions:
what a member whose Discord is in Japanese is shown."""

from __future__ import annotations

from typing import Any

from bot.commands import translated

from .conftest import InProcessBot
from .fake_discord import FakeDiscord


def _child(node: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in node.get("options") or [] if o["name"] == name)


async def test_the_synced_commands_carry_japanese(inproc: InProcessBot, fake: FakeDiscord) -> None:
    await inproc.start(seed=7)
    synced = {c["name"]: c for c in fake.commands[None]}
    track = synced["track"]
    lay = _child(track, "lay")
    assert track["name_localizations"] == {"ja": "線路"} and lay["name_localizations"] == {"ja": "配置"}
    assert _child(lay, "hex")["name_localizations"] == {"ja": "ヘクス"}
    assert lay["description_localizations"] == {"ja": translated("Lay or upgrade a tile", None, "ja")}
    images = _child(_child(synced["game"], "create"), "images")
    assert [(c["value"], c["name"], c["name_localizations"]) for c in images["choices"]] == [
        ("turn", "Every turn", {"ja": "毎手番"}), ("round", "Every round", {"ja": "毎ラウンド"}),
        ("request", "Only on request", {"ja": "要求時のみ"})]
    assert synced["mygames"]["name_localizations"] == {"ja": "自分のゲーム"}
