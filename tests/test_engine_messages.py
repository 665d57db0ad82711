"""The engine speaks Japanese: its refusals, log lines and prompts come from the engine catalogue, and every one
of them is a template (never an f-string or a plain str, which no catalogue could translate)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LOCALE_DIR, tr
from engine.errors import GameError
from engine.game import Game
from engine.messages import Join, Msg
from tests.fl_helpers import act, drafted
from tools import i18n

ENGINE = Path(__file__).resolve().parent.parent / "engine"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")


def _engine_templates() -> set[str]:
    with (LOCALE_DIR / "engine.pot").open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}


def _printed_names(game: Game) -> set[str]:
    """Words that stay as printed in every language: players, places, companies (their names and ids)."""
    names = {p.name for p in game.players}
    names |= {h.name for h in game.data.hexes if h.name}
    names |= {c.name for c in game.data.companies} | {c.name for c in game.data.corporations}
    return {w for n in names for w in WORD.findall(n)}


def english_left(text: str, game: Game) -> list[str]:
    """English words in a rendered text, ids (all capitals: FEC, IPO) and printed names allowed."""
    allowed = _printed_names(game)
    return [w for w in WORD.findall(text) if not w.isupper() and w not in allowed and w[0] != "r"]


def _words_only(value: object) -> object:
    """The message with every printed value (an id, a name, an amount, a title's own text) blanked: what is left
    is the catalogue's words alone."""
    if isinstance(value, Msg):
        # a count stays: it chooses the form of a counted message
        return Msg(value.text, tuple((k, v if k == "n" else _words_only(v)) for k, v in value.args), value.plural)
    if isinstance(value, Join):
        return Join(tuple(_words_only(v) for v in value.parts), value.sep)
    if isinstance(value, (list, tuple)):
        return tuple(_words_only(v) for v in value)
    return "〇"


def _only_engine(value: object, templates: set[str]) -> bool:
    """The message and every message inside it are the engine's own (title texts are another catalogue's)."""
    if isinstance(value, Msg):
        return value.text in templates and all(_only_engine(v, templates) for _k, v in value.args)
    if isinstance(value, Join):
        return all(_only_engine(v, templates) for v in value.parts)
    if isinstance(value, (list, tuple)):
        return all(_only_engine(v, templates) for v in value)
    return True


def test_a_refusal_is_said_in_japanese_with_the_english_unchanged() -> None:
    g = drafted()
    with pytest.raises(GameError) as info:
        act(g, "par", "alice", corporation="SAL", price=7)
    assert str(info.value).startswith("$7 is not a starting value. Choose one of ")
    ja = tr(info.value.msg, "ja")
    assert JAPANESE.search(ja) and "$7" in ja and "初期価格" in ja
    assert not english_left(ja, g), ja
    with pytest.raises(GameError) as info:
        act(g, "pass", "bob")  # not bob's turn
    ja = tr(info.value.msg, "ja")
    assert "手番" in ja and "alice" in ja and not english_left(ja, g), ja


def test_log_lines_and_the_prompt_of_a_real_game_read_in_japanese(fl_played: Game) -> None:
    templates = _engine_templates()
    ours = [line for _i, line in fl_played.messages if isinstance(line, Msg) and _only_engine(line, templates)]
    assert len(ours) > 50  # buys, sales, operations, runs, dividends, phases of a self-played game
    assert len(set(ours)) > 10  # hashable (list values are tuples): the bot may dedupe lines
    kinds = {line.text for line in ours}
    assert {"{corp} runs {run}.", "{player} passes."} <= kinds or len(kinds) > 10
    for line in ours:
        assert JAPANESE.search(tr(line, "ja")), str(line)
        words = tr(_words_only(line), "ja")  # type: ignore[arg-type]
        assert not WORD.findall(words.replace("IPO", "")), (str(line), words)
    turn = fl_played.describe_turn()
    assert JAPANESE.search(tr(turn, "ja")), str(turn)


def test_the_table_log_keeps_the_values_the_bot_summaries_read() -> None:
    g = drafted()
    act(g, "par", "alice", corporation="SAL", price=100)
    act(g, "pass", "bob")
    act(g, "buy_shares", "carol", corporation="SAL", source="ipo")
    bought = g.round.summary[-1]
    assert isinstance(bought, Msg) and str(bought) == "carol bought SAL (ipo)"
    assert (bought.get("player"), bought.get("share"), bought.get("source")) == ("carol", "SAL", "ipo")


REFUSALS = ("GameError", "RouteError", "RecordError", "UnsupportedTitle", "IdError", "ExportError")


def _plain_text(node: ast.expr) -> bool:
    """An f-string, a str literal or a str built with + or %: English nobody can translate."""
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return True
    return isinstance(node, ast.BinOp) and (_plain_text(node.left) or _plain_text(node.right))


def test_no_engine_refusal_or_log_line_is_a_plain_string() -> None:
    bad = []
    files = [p for p in ENGINE.rglob("*.py") if "titles" not in p.parts and p.name not in
             ("__main__.py", "selfplay.py", "invariants.py")]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if (name in REFUSALS or name == "say") and _plain_text(node.args[0]):
                bad.append(f"{path.relative_to(ENGINE.parent)}:{node.lineno} {name}(...)")
    assert not bad, "plain strings where a message template belongs: " + ", ".join(bad)


def test_every_engine_template_reaches_the_catalogue() -> None:
    """The extractor misses a template nested in some calls (``M(..., x=tuple(M(...) for ...))``): every literal
    template of the engine's code must be in its catalogue all the same."""
    templates = {m.id if isinstance(m.id, str) else m.id[0] for m in i18n.template("engine") if m.id}
    missing = []
    for path in i18n.domain_files()["engine"]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("M", "MN") \
                    and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value not in templates:
                missing.append(f"{path.relative_to(i18n.ROOT)}:{node.lineno}")
    assert not missing, "templates the catalogue lacks (write them outside the nesting call): " + ", ".join(missing)


def test_a_sentence_given_as_a_value_ends_with_one_full_stop() -> None:
    """"refused: There is no hex Z99 on this map.. The action": the template ends the sentence its value ends."""
    from engine.messages import M

    reason = M("There is no hex {hex} on this map.", hex="Z99")
    assert str(M("The record cannot be imported: {reason}. The action: {action}", reason=reason, action="{}")) == \
        "The record cannot be imported: There is no hex Z99 on this map. The action: {}"
    assert str(M("({reason})", reason=reason)) == "(There is no hex Z99 on this map.)"  # not where it ends nothing
    assert str(M("{reason}.", reason=M("Wait..."))) == "Wait...."  # an ellipsis stays
    assert tr(M("{reason}。", reason=M("{x}です。", x="A")), "ja") == "Aです。"
