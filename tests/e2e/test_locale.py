"""Languages on the wire (issue 18): the locale and guild locale Discord sends with each interaction reach the
service through the real discord.py client. A game created in a Japanese guild speaks Japanese in the channel; a
member's private replies follow the member's own client language."""

from __future__ import annotations

import dataclasses

from .conftest import ALICE, BOB, InProcessBot
from .driver import Driver
from .fake_discord import FakeDiscord

HANAKO = dataclasses.replace(BOB, locale="ja")  # bob's Discord client is in Japanese


async def test_the_guilds_locale_sets_the_game_language_and_each_member_reads_their_own(
        inproc: InProcessBot, driver: Driver, fake: FakeDiscord) -> None:
    fake.guild_locale = "ja"
    await inproc.start(seed=3)
    created = await (await driver.slash(ALICE, "game create", title="18FL")).reply()
    assert not created.ephemeral and "を作成した" in created.content and "言語：日本語" in created.content
    joined = await (await driver.slash(HANAKO, "game join")).reply()
    assert not joined.ephemeral and "に参加した" in joined.content

    refused_en = await (await driver.slash(ALICE, "game join")).refused()
    assert refused_en.ephemeral and refused_en.content == "You are already seated as alice."
    refused_ja = await (await driver.slash(HANAKO, "game join")).refused()
    assert refused_ja.ephemeral and refused_ja.content == "あなたはすでにbobとして席についています。"

    assert inproc.service is not None
    member = await inproc.service.store.member(HANAKO.id)
    assert member is not None and member.locale == "ja"  # her DMs will speak Japanese
    assert not fake.problems(), fake.problems()
