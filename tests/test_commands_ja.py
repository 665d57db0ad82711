"""The slash commands in Japanese: the command table's names are valid Discord names in every language we speak,
the real discord.py tree, synced through our translator, carries the Japanese names and descriptions, and the
local simulator's reverse lookup finds every path and option from its Japanese words."""

from __future__ import annotations

import unicodedata
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.commands import (
    COMMANDS,
    GROUPS,
    OptionError,
    command,
    command_set_hash,
    localized_option,
    localized_path,
    resolve_option,
    resolve_path,
    translated,
    validate,
)
from bot.discord_app import build_tree
from bot.i18n import LANGUAGES, Tr
from bot.translator import CatalogueTranslator

OTHER = sorted(lang for lang in LANGUAGES if lang != "en")


def discord_name_ok(name: str) -> bool:
    """Discord's rule for command and option names: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case
    (Python's re has no \\p{...}: the Unicode categories say the same for the scripts we use)."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" or "DEVANAGARI" in unicodedata.name(ch, "")
               or "THAI" in unicodedata.name(ch, "") for ch in name)


def test_the_name_rule_refuses_what_discord_refuses() -> None:
    assert discord_name_ok("線路") and discord_name_ok("自分のゲーム") and discord_name_ok("time_zone")
    assert not discord_name_ok("Track") and not discord_name_ok("静かな 時間帯") and not discord_name_ok("a" * 33)
    assert not discord_name_ok("") and not discord_name_ok("価格:") and not discord_name_ok("株。")


@pytest.mark.parametrize("lang", ["en", *OTHER])
def test_names_are_valid_and_unique_in_their_scope(lang: str) -> None:
    top = [translated(g.name, "command", lang) for g in GROUPS]
    top += [translated(c.name, "command", lang) for c in COMMANDS if c.group is None]
    assert len(set(top)) == len(top), sorted(top)
    for g in GROUPS:
        subs = [translated(c.name, "command", lang) for c in COMMANDS if c.group == g.name]
        assert subs and len(set(subs)) == len(subs), (g.name, subs)
    for name in top:
        assert discord_name_ok(name), name
    for c in COMMANDS:
        assert discord_name_ok(translated(c.name, "command", lang)), c.path
        options = [translated(o.name, "option", lang) for o in c.options]
        assert len(set(options)) == len(options), (c.path, options)
        for o, name in zip(c.options, options, strict=True):
            assert discord_name_ok(name), (c.path, o.name, name)
            choices = [translated(o.choice_name(v), "choice", lang) for v in o.choices]
            assert len(set(choices)) == len(choices), (c.path, o.name, choices)
            assert all(1 <= len(ch) <= 100 for ch in choices), choices


@pytest.mark.parametrize("lang", ["en", *OTHER])
def test_descriptions_fit_discord(lang: str) -> None:
    texts = [g.description for g in GROUPS] + [c.description for c in COMMANDS]
    texts += [o.description for c in COMMANDS for o in c.options]
    for text in texts:
        got = translated(text, None, lang)
        assert 1 <= len(got) <= 100, (text, got)


def test_every_japanese_name_and_description_is_japanese() -> None:
    """A translation that is still the English words would pass the catalogue test only if someone copied the
    msgid; names and descriptions must contain Japanese, except the few kept as printed (ids, "dm", "IPO")."""
    kept = {("option", "dm"), ("choice", "18xx.games"), ("choice", "Stationmaster"), ("choice", "IPO"),
            ("choice", "English"), ("choice", "日本語")}
    from bot.commands import catalogue_texts

    for text, _plural, context in catalogue_texts():
        got = translated(text, context, "ja")
        if (context, text) in kept:
            continue
        assert any(unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA")) for ch in got), (text, got)


async def _payload(lang_client: discord.Client) -> list[dict[str, Any]]:
    async def run(interaction: Any, spec: Any, kwargs: Any) -> None:
        return None

    async def complete(interaction: Any, spec: Any, option: str, current: str) -> list[Any]:
        return []

    tree = build_tree(lang_client, run, complete)
    await tree.set_translator(CatalogueTranslator())
    assert tree.translator is not None
    return [await cmd.get_translated_payload(tree, tree.translator) for cmd in tree.get_commands()]


def _chars(node: dict[str, Any], locale: str) -> int:
    """Characters Discord counts against a command's 4000, in one locale."""
    total = len((node.get("name_localizations") or {}).get(locale, node["name"]))
    total += len((node.get("description_localizations") or {}).get(locale, node.get("description", "")))
    for c in node.get("choices") or []:
        total += len((c.get("name_localizations") or {}).get(locale, c["name"])) + len(str(c["value"]))
    return total + sum(_chars(o, locale) for o in node.get("options") or [])


async def test_the_synced_tree_carries_japanese_for_every_name_description_and_choice() -> None:
    payload = await _payload(discord.Client(intents=discord.Intents.none()))
    seen_paths: set[str] = set()
    seen_choices = 0

    def check_named(node: dict[str, Any], context: str) -> None:
        # only Japanese: every other locale falls back to the English default
        assert set(node.get("name_localizations") or {}) == {"ja"}, node["name"]
        assert set(node.get("description_localizations") or {}) == {"ja"}, node["name"]
        assert node["name_localizations"]["ja"] == translated(node["name"], context, "ja")
        assert node["description_localizations"]["ja"] == translated(node["description"], None, "ja")

    def walk(node: dict[str, Any], path: str) -> None:
        nonlocal seen_choices
        check_named(node, "command")
        kids = node.get("options") or []
        if kids and kids[0].get("type") == 1:  # a group: subcommands
            for sub in kids:
                walk(sub, f"{path} {sub['name']}")
            return
        seen_paths.add(path)
        spec = command(path)
        assert [o["name"] for o in kids] == [o.name for o in spec.options]
        for o in kids:
            check_named(o, "option")
            opt = spec.option(o["name"])
            assert opt is not None
            for choice in o.get("choices") or []:
                assert choice["name"] == opt.choice_name(choice["value"])
                assert choice["name_localizations"] == {"ja": translated(choice["name"], "choice", "ja")}
                seen_choices += 1

    for cmd in payload:
        walk(cmd, cmd["name"])
        assert _chars(cmd, "ja") <= 4000, cmd["name"]  # Discord's limit per command, in each locale
    assert seen_paths == {c.path for c in COMMANDS}
    assert seen_choices == sum(len(o.choices) for c in COMMANDS for o in c.options) > 0
    track = next(c for c in payload if c["name"] == "track")
    lay = next(s for s in track["options"] if s["name"] == "lay")
    assert (track["name_localizations"]["ja"], lay["name_localizations"]["ja"]) == ("線路", "配置")
    assert lay["options"][0]["name_localizations"]["ja"] == "ヘクス"


async def test_the_translator_answers_only_for_languages_we_speak() -> None:
    translator = CatalogueTranslator()
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    lay = app_commands.locale_str("lay", context="command")
    assert await translator.translate(lay, discord.Locale.japanese, ctx) == "配置"
    assert await translator.translate(lay, discord.Locale.american_english, ctx) is None
    assert await translator.translate(lay, discord.Locale.french, ctx) is None
    described = app_commands.locale_str("Buy one share")
    assert await translator.translate(described, discord.Locale.japanese, ctx) == "株を1株購入します"


def test_paths_and_options_round_trip_in_every_language() -> None:
    for lang in ["en", *OTHER]:
        for c in COMMANDS:
            words = localized_path(c.path, lang).split()
            assert resolve_path([*words, "x:1"], lang) == (c, ["x:1"]), (lang, c.path)
            # English always works, whatever the reader's language
            assert resolve_path(c.path.split(), lang)[0] is c
            for o in c.options:
                assert resolve_option(c, localized_option(o.name, lang), lang) is o
                assert resolve_option(c, o.name, lang) is o
    assert localized_path("track lay", "ja") == "線路 配置"
    assert localized_path("view trains", "ja") == "表示 列車"
    assert resolve_path(["線路", "配置", "ヘクス:G22"], "ja") == (command("track lay"), ["ヘクス:G22"])
    assert resolve_path(["列車"], "ja") == (None, ["列車"])  # a group alone is no command
    assert resolve_path(["線路", "配置"], "en")[0] is None  # Japanese words are not read as English


def test_a_refused_option_names_it_in_the_readers_language() -> None:
    with pytest.raises(OptionError) as e:
        validate(command("stock par"), {"price": 100})
    assert str(e.value) == "/stock par needs corporation"
    assert Tr("ja")(e.value.msg) == "/株 初期価格 には 会社 が必要です"
    with pytest.raises(OptionError) as e:
        validate(command("game create"), {"title": "18FL", "images": "often"})
    assert str(e.value) == "images must be one of turn, round, request, not 'often'"
    assert Tr("ja")(e.value.msg) == "「画像」はturn、round、requestのいずれかでなければなりません（「often」は不可）"
    with pytest.raises(ValueError):  # callers that catch ValueError keep working
        validate(command("view history"), {"lines": "many"})


def test_the_sync_hash_follows_the_translations(monkeypatch: pytest.MonkeyPatch) -> None:
    before = command_set_hash()
    monkeypatch.setattr("bot.commands.pgettext", lambda context, text, lang: text)
    assert command_set_hash() != before  # a changed catalogue re-syncs the commands
