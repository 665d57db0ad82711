"""What bot/texts.py says, in Japanese: real games of every title, played forward by the engine, their menus,
embeds, summaries and the whole /help rendered with the Japanese catalogue, in which no English word may remain
but ids and names (companies, hexes, players, trains), money and IPO. English stays as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import texts
from bot.commands import COMMANDS, GROUPS, command_words, option_word
from bot.i18n import EN, Tr, tr
from bot.service import Service
from engine.actions import dump_action
from engine.game import Game
from engine.messages import M, Msg
from engine.selfplay import selfplay
from engine.titles import TITLES, new_game, rules_for
from tests.test_service import Clock
from tests.test_service_ja import ALICE, HANAKO, KENJI, do

JA = Tr("ja")
COMMANDS_BY_PATH = {c.path: c for c in COMMANDS}
WORD = re.compile(r"[A-Za-z]{2,}")
# words that stay as printed in every language (I18N.md): IPO, the site's and the bot's names, the "fr" of 18FR-RCE
# money, the options and topics players type as they are, compass sides of a rotation and an example hex's names
ALWAYS = {"IPO", "xx", "games", "Discord", "Stationmaster", "fr", "true", "pictures", "track", "undo", "options",
          "stock", "ez", "name", "NE", "NW", "SE", "SW", "Jacksonville", "Daytona"}


def _names(game: Game) -> set[str]:
    """Every word of an id or a name of the game: they are printed as they are in every language."""
    words: list[str] = [game.data.title]
    words += [p.name for p in game.players]
    for sym, c in game.corps.items():
        words += [sym, c.name]
    for sym, comp in game.companies.items():
        words += [sym, comp.name]
    words += [h.id for h in game.data.hexes] + [h.name or "" for h in game.data.hexes]
    words += [t.name for t in game.data.trains] + [t.variant for t in game.trains]
    words += list(game.data.tiles)  # tile ids (#57, #PORT-G)
    return {w for text in words for w in WORD.findall(str(text))}


def english_words(text: str, allowed: set[str]) -> list[str]:
    return [w for w in WORD.findall(text) if w not in allowed and w not in ALWAYS]


def _forward(title: str, players: int, seed: int, actions: int, every: int) -> Iterator[Game]:
    """A self-played game replayed forward action by action, seen every few actions and at its end."""
    played = selfplay(title, players, seed, max_actions=actions, check=False)["game"]
    game = new_game(title, [p.name for p in played.players], seed=seed, options=played.options)
    log = played.action_log()
    for i, act in enumerate(log):
        if i % every == 0:
            yield game
        game.process(act)
    yield game


def _not_ours(game: Game) -> list[str]:
    """Texts the other rooms put into ours (the titles' charter notes, the engine's log lines and round summaries)
    as the Japanese reader sees them: their rooms and catalogues answer for their words, so they are taken out
    before looking for English (what texts.py makes of them, merged purchases, is ours and stays)."""
    theirs = [n for sym in game.corps for n in game.rules.charter_notes(game, sym)]
    theirs += [t for _i, t in game.messages]
    theirs += [line for e in game.finished_rounds for line in e.get("summary") or []]
    theirs += [texts.round_name(e) for e in game.finished_rounds]
    theirs.append(getattr(game.round, "display_name", None) or game.round.name)
    return sorted({JA(t) for t in theirs}, key=len, reverse=True)


def _without(text: str, parts: list[str]) -> str:
    for p in parts:
        if p:
            text = text.replace(p, " ")
    return text


def _seen(game: Game) -> list[tuple[str, str]]:
    """(what, Japanese text) of everything texts.py says about this moment of the game."""
    out: list[tuple[str, str]] = [("round", JA(texts.round_line(game)))]
    for a in (dump_action(x) for x in game.legal_actions()):
        out.append((f"action {a}", JA(texts.describe_action(game, a, with_entity=True))))
        out.append((f"undo {a}", JA(texts.action_summary(game, a, drafting=True))))
    for emb in (texts.players_embed(game), texts.corporations_embed(game)):
        out.append(("embed", emb.render(JA).as_text()))
    for e in game.finished_rounds[-3:]:
        if e["kind"] == "stock":
            out.append(("stock round summary", JA(texts.stock_round_summary(game, e))))
        elif e["kind"] == "draft":
            out.append(("draft summary", JA(texts.draft_summary(game))))
    ors = [e for e in game.finished_rounds[-3:] if e["kind"] == "operating"]
    if ors:
        out.append(("OR summary", JA(texts.or_set_summary(game, ors, max(0, len(game.messages) - 30)))))
    if game.finished:
        out.append(("game over", JA(texts.game_over_text(game))))
    return out


GAMES = [("18FL", 3, 4, 400, 40), ("18EZ", 3, 1, 6000, 90), ("1830", 4, 2, 400, 40), ("18AL", 3, 3, 400, 40),
         ("18FR-RCE", 3, 5, 400, 40)]


@pytest.mark.parametrize(("title", "players", "seed", "actions", "every"), GAMES, ids=[g[0] for g in GAMES])
def test_games_of_every_title_read_in_japanese(title: str, players: int, seed: int, actions: int, every: int) -> None:
    kinds: set[str] = set()
    problems: list[str] = []
    for game in _forward(title, players, seed, actions, every):
        allowed = _names(game)
        foreign = _not_ours(game)
        for what, text in _seen(game):
            kinds.add(what.split(" {")[0])
            if english := english_words(_without(text, foreign), allowed):
                problems.append(f"{what}: {english} in {text!r}")
    assert not problems, f"{len(problems)} texts with English words, first ones:\n" + "\n".join(problems[:10])
    assert {"round", "action", "undo", "embed", "stock round summary"} <= kinds
    if title == "18EZ":
        assert {"game over", "OR summary"} <= kinds


def _command_texts() -> list[str]:
    """The descriptions the commands room gives the help (commands, groups, title options) as the Japanese reader
    sees them: the commands and titles catalogues translate them, not ours."""
    out = [JA(Msg(c.description)) for c in COMMANDS] + [JA(Msg(g.description)) for g in GROUPS]
    out += [JA(Msg(str(d))) for t in TITLES for d in rules_for(t).options.values()]
    return sorted(out, key=len, reverse=True)


def _command_words() -> set[str]:
    """Command and option names as the Japanese reader's Discord shows them (the commands catalogue's words)."""
    names = [JA(command_words(w)) for c in COMMANDS for w in c.path.split()]
    names += [JA(option_word(o.name)) for c in COMMANDS for o in c.options]
    return {w for n in names for w in WORD.findall(n)}


TOPICS = [None, "18ez", "pictures", "undo", "track", "options", *(g.name for g in GROUPS)]


@pytest.mark.parametrize("topic", TOPICS)
def test_help_reads_in_japanese(topic: str | None) -> None:
    options = {t: rules_for(t).options for t in TITLES}
    ja = JA(texts.help_text(topic, options))
    en = EN(texts.help_text(topic, options))
    assert ja and (ja != en or topic in {g.name for g in GROUPS})  # a group's help is the commands room's words
    allowed = {w for t in TITLES for w in WORD.findall(t)} | {w for t in TITLES for k in rules_for(t).options
                                                               for w in WORD.findall(k)}
    words = english_words(_without(ja, _command_texts()), allowed | _command_words())
    assert not words, f"English in the Japanese help ({topic}): {words}\n{ja}"
    assert "/ゲーム 作成" in ja or topic not in (None, "options")  # commands named as the Japanese Discord shows


def test_help_names_commands_as_the_readers_discord_does() -> None:
    """A group's help lists its commands and options in the reader's words (the commands catalogue's names)."""
    assert JA(texts.help_text("train")).splitlines()[1:] == [
        "`/列車 運行 [確認] [経路]` — " + JA(Msg(COMMANDS_BY_PATH["train run"].description)),
        "`/列車 購入 列車:… [価格] [種類] [交換]` — " + JA(Msg(COMMANDS_BY_PATH["train buy"].description)),
        "`/列車 廃棄 列車:…` — " + JA(Msg(COMMANDS_BY_PATH["train discard"].description))]
    first = str(texts.help_text("train")).splitlines()[1]
    assert first.startswith("`/train run [confirm] [routes]` — Show the best routes")


def test_embeds_render_every_part_for_the_reader(fl_played: Game) -> None:
    emb = texts.players_embed(fl_played)
    ja = emb.render(JA)
    assert all(isinstance(x, str) for x in (ja.title, ja.description, *(p for f in ja.fields for p in f)))
    assert ja.title.startswith("プレイヤー — ") and "所持金" in ja.as_text()
    assert emb.as_text() == emb.render(EN).as_text()  # unrendered, the card reads English (logs, tests)
    assert emb.as_text().startswith("**Players — ") and "Cash " in emb.as_text()
    assert ja.clipped().title == ja.title


def test_rounds_are_named_in_the_engines_words(fl_played: Game) -> None:
    """Round names come from the engine (its label of a finished round, its display name of the current one); an
    entry recorded before rounds had labels shows its id."""
    entry = next(e for e in fl_played.finished_rounds if e["kind"] == "stock")
    number = entry["name"].split()[1]
    assert JA(texts.stock_round_summary(fl_played, entry)).startswith(f"📋 **株式ラウンド{number}終了**")
    assert str(texts.stock_round_summary(fl_played, entry)).startswith(f"📋 **End of {entry['name']}**")
    old = {k: v for k, v in entry.items() if k != "label"}
    assert str(texts.round_name(old)) == entry["name"]
    assert JA(texts.round_line(fl_played)).startswith("運営ラウンド")


def test_the_engines_purchase_lines_are_the_ones_merged(fl_played: Game) -> None:
    said = [line for e in fl_played.finished_rounds if e["kind"] == "stock" for line in e["summary"]]
    texts_of = {line.text for line in said if isinstance(line, Msg)}
    assert {texts.BOUGHT, texts.SOLD} <= texts_of
    merged = texts.merge_purchases(said)
    assert len(merged) < len(said) and not any(isinstance(x, Msg) and x.text == texts.BOUGHT for x in merged)


def test_purchases_said_by_the_engine_as_messages_are_merged_like_plain_lines() -> None:
    said: list[Any] = [M(texts.BOUGHT, player="bob", share="L&N", source="ipo"), "amy started SAL at $70",
                       M(texts.BOUGHT, player="bob", share="L&N", source="ipo"),
                       M(texts.BOUGHT, player="bob", share="L&N", source=M("the pool")),
                       M(texts.SOLD, player="amy", n=1, corp="SAL"), M(texts.SOLD, player="amy", n=2, corp="SAL")]
    merged = texts.merge_purchases(said)
    assert [str(x) for x in merged] == ["bob bought 2 shares of L&N from the IPO", "amy started SAL at $70",
                                        "bob bought a share of L&N from the pool", "amy sold 3 shares of SAL"]
    assert JA(merged[0]) == "bobがIPOからL&Nの株を2株購入した"
    assert JA(merged[3]) == "amyがSALの株を3株売却した"


def test_words_of_time_in_japanese() -> None:
    assert [JA(texts.duration_text(s)) for s in (30, 40 * 60, 5 * 3600, 51 * 3600)] == [
        "1分未満", "40分", "5時間", "2日3時間"]
    assert [str(texts.duration_text(s)) for s in (30, 40 * 60, 5 * 3600, 51 * 3600, 48 * 3600)] == [
        "less than a minute", "40 min", "5 h", "2 d 3 h", "2 d"]
    assert [JA(texts.hours_text(s)) for s in (0, 1800, 5400, 36000)] == ["オフ", "30分", "1.5時間", "10時間"]
    assert [str(texts.hours_text(s)) for s in (0, 1800, 5400, 36000)] == ["off", "30 min", "1.5 h", "10 h"]


async def test_a_japanese_table_reads_our_texts_through_the_service(tmp_path: Path) -> None:
    """Through the real service: the call to act names the game in Japanese, the views and /help are Japanese for a
    Japanese reader, and an English reader still reads today's English."""
    service = await Service.open(str(tmp_path / "texts.sqlite3"), now=Clock(), seed_source=lambda: 5)
    try:
        assert (await do(service, ALICE, "game create", title="18FL", images="request", language="ja")).ok
        assert (await do(service, HANAKO, "game join")).ok
        assert (await do(service, KENJI, "game join")).ok
        start = await do(service, ALICE, "game start")
        assert "➡️ 18FL · ゲーム#1 · " in start.text and "game #" not in start.text
        players = await do(service, HANAKO, "view players")
        card = players.embeds[0]
        assert card.title.startswith("プレイヤー — ") and "所持金" in card.as_text() and "Cash" not in card.as_text()
        assert (await do(service, ALICE, "view players")).embeds[0].title.startswith("Players — ")
        assert "**コマンド**" in (await do(service, HANAKO, "help")).text
        assert "**Commands**" in (await do(service, ALICE, "help")).text
    finally:
        await service.close()


def test_help_topics_are_named_and_understood_in_each_language() -> None:
    from bot.texts import HELP_GROUPS, HELP_TOPICS, help_text, help_topic_key, help_topic_word

    for key in (*HELP_TOPICS, *HELP_GROUPS):
        for lang in ("en", "ja"):
            assert help_topic_key(tr(help_topic_word(key), lang)) == key
    assert help_topic_key("線路") == "track" and help_topic_key("/Track") == "track"
    assert tr(help_text("線路"), "ja") == tr(help_text("track"), "ja")
    assert "`/ヘルプ 項目:線路`" in tr(help_text(None), "ja")
    # a topic we do not have is said to be none, with the topics, before the overview (it was the overview alone)
    unknown = tr(help_text("いろいろ"), "ja")
    first = unknown.splitlines()[0]
    assert first.startswith("ヘルプの項目「いろいろ」はありません") and "線路" in first
    assert unknown.splitlines()[1:] == tr(help_text(None), "ja").splitlines()
    assert tr(help_text("commands"), "en") == tr(help_text(None), "en")


def test_a_routes_legend_and_the_routes_line_read_in_japanese(fl_played: Game) -> None:
    """The legend's label and the routes line's prefix were put together in code ("2: Miami–…", "🚂 **FEC**: "):
    Japanese reads "2列車：…" and a full-width colon."""
    from bot.service.views import route_draws, routes_text
    from engine.routes import best_routes

    corp = next(s for s in fl_played.corps if fl_played.trains_of(s) and fl_played.board.stations(s))
    best = best_routes(fl_played.board, corp, fl_played.rules.train_specs(fl_played, corp),
                       fl_played.rules.route_rules(fl_played))
    draws = route_draws(fl_played, best)
    assert draws and all(re.fullmatch(r"\S+列車：.+", JA(d.label)) for d in draws), [JA(d.label) for d in draws]
    assert all(re.fullmatch(r"\S+: .+", str(d.label)) for d in draws)
    assert JA(M("🚂 **{corp}**: {routes}", corp=corp, routes=routes_text(fl_played, best))).startswith(
        f"🚂 **{corp}**：")


def test_what_a_player_typed_is_quoted_in_the_readers_way() -> None:
    """Typed values were shown with Python's quotes in Japanese too (「会社 'XYZ'」); a Japanese sentence quotes
    with 「」."""
    from bot.commands import Option, OptionError, coerce

    with pytest.raises(OptionError) as e:
        coerce(Option("count", "int", "how many"), "回数:1")
    assert JA(e.value.msg) == "「数」は整数でなければなりません（「回数:1」は不可）", JA(e.value.msg)
    assert str(e.value.msg) == "count must be a whole number, not '回数:1'"
