"""A Japanese table (issue 18): the opening of an 18FL game played through discord.py and the fake Discord by members
whose clients are in Japanese, in a guild whose preferred locale is Japanese. Everything the players see (channel
posts, their own ephemeral answers and refusals, embeds, buttons, menus and autocomplete choices) must be Japanese:
after taking out what is printed on the components (company, hex, tile and train ids, proper names), mentions,
money and numbers, not one English word may remain. The commands Discord shows them: test_commands_ja_sync.py."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterable

from engine.titledata import load_title
from engine.titles import TITLES

from .conftest import ALICE, BOB, CAROL, InProcessBot
from .driver import AutoPlayer, Driver, png_problem
from .fake_discord import FakeDiscord, Message
from .test_game import GAME_SEED, POLICY_SEED

HANAKO = dataclasses.replace(ALICE, locale="ja")
KENJI = dataclasses.replace(BOB, locale="ja")
YUKI = dataclasses.replace(CAROL, locale="ja")
PLAYERS = (HANAKO, KENJI, YUKI)
STEPS = 90  # the draft, the first stock round and into the first operating round

KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
# kept as printed (the I18N glossary): the product's and titles' names, IPO, the site, time zones, the option
# `dm` and the values a member types (`dm:true`), file names
ALLOWED = {"Stationmaster", "IPO", "xx", "games", "Discord", "UTC", "dm", "true", "false", "png",
           *(w for t in TITLES for w in WORD.findall(t)), *(w.lower() for t in TITLES for w in WORD.findall(t))}


def printed_words(title: str) -> set[str]:
    """Words printed on the title's components: ids and names of corporations, privates, hexes, tiles, trains."""
    data = load_title(title)
    words: set[str] = set(WORD.findall(title))
    for thing in (*data.corporations, *data.companies):
        for attr in ("sym", "name", "abbrev"):
            words.update(WORD.findall(str(getattr(thing, attr, "") or "")))
    for h in data.hexes:
        words.update(WORD.findall(str(h.id)))
        words.update(WORD.findall(str(getattr(h, "name", "") or "")))
    for t in data.trains:
        words.update(WORD.findall(str(t.name)))
    for tile in data.tiles:
        words.update(WORD.findall(str(tile)))
    return words


def english_words(text: str, allowed: set[str]) -> list[str]:
    text = re.sub(r"<[@#&!]*\d+>", " ", text)  # mentions and channel links
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"[\w.-]+\.png", " ", text)
    return [w for w in WORD.findall(text) if w not in allowed]


def shown(message: Message) -> Iterable[str]:
    """Every text of a message a member reads: content, embeds, buttons, menus."""
    yield message.content
    for e in message.embeds:
        yield e.get("title") or ""
        yield e.get("description") or ""
        for f in e.get("fields") or []:
            yield f.get("name") or ""
            yield f.get("value") or ""
        yield (e.get("footer") or {}).get("text") or ""
    for c in message.buttons():
        yield c.get("label") or ""
    for s in message.selects():
        yield s.get("placeholder") or ""
        for o in s.get("options") or []:
            yield o.get("label") or ""
            yield o.get("description") or ""


async def test_a_japanese_table_plays_the_opening_without_reading_english(
        inproc: InProcessBot, driver: Driver, fake: FakeDiscord) -> None:
    fake.guild_locale = "ja"
    await inproc.start(seed=GAME_SEED)
    created = await (await driver.slash(HANAKO, "game create", title="18FL", images="turn")).reply()
    assert not created.ephemeral and KANA.search(created.content), created.content
    for user in PLAYERS[1:]:
        assert KANA.search((await (await driver.slash(user, "game join")).reply()).content)
    turn = await driver.turn(await driver.slash(HANAKO, "game start"))
    auto = AutoPlayer(driver, {u.id: u for u in PLAYERS}, random.Random(POLICY_SEED))
    for _ in range(STEPS):
        if turn.over:
            break
        turn = await auto.step(turn)
    assert inproc.service is not None
    kinds = {AutoPlayer.kind(s.action) for s in auto.steps}
    assert {"bid", "par", "buy_shares", "lay_tile"} <= kinds, kinds  # the opening really was played

    # what a member looks up along the way, each answer only for them, and a refusal
    asked: list[Message] = []
    for path, opts in (("view players", {}), ("view corporations", {}), ("game status", {}), ("help", {}),
                       ("view history", {}), ("mygames", {}), ("reminders", {})):
        asked.append(await (await driver.slash(KENJI, path, **opts)).reply())
    waiting = next(u for u in PLAYERS if u.id not in turn.acting)
    asked.append(await (await driver.slash(waiting, "pass")).refused())
    choices = [c["name"] for path, option in (("act", "action"), ("stock buy", "corporation"), ("track lay", "hex"))
               for u in PLAYERS for c in await driver.complete(u, path, option, "")]
    await fake.wait_settled()

    allowed = ALLOWED | printed_words("18FL") | {u.name for u in PLAYERS}
    leaks: dict[str, set[str]] = {}
    for user in PLAYERS:
        for m in fake.seen_by(user.id, driver.channel_id):
            for text in shown(m):
                for w in english_words(text, allowed):
                    leaks.setdefault(w, set()).add(text[:160])
    for m in asked:
        assert m.ephemeral or m.content, m
        for text in shown(m):
            for w in english_words(text, allowed):
                leaks.setdefault(w, set()).add(text[:160])
    for name in choices:
        for w in english_words(name, allowed):
            leaks.setdefault(w, set()).add(name)
    report = "\n".join(f"{w}: {sorted(where)[:2]}" for w, where in sorted(leaks.items()))
    assert not leaks, f"English reached the Japanese players ({len(leaks)} words):\n{report}"
    pictures = [a for m in fake.all_messages() for a in m.attachments]
    assert pictures and all(png_problem(a.data) is None for a in pictures)
    assert not fake.problems(), fake.problems()
