"""The titles speak Japanese: their log lines, refusals and option descriptions come from the titles catalogue,
and no refusal or log line in engine/titles is a plain English string."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.i18n import tr
from engine.errors import GameError
from engine.messages import Msg
from engine.selfplay import selfplay
from engine.titles import PROFILES, TITLES, new_game, rules_for
from engine.titles.texts import catalogue_texts, data_text
from tools import i18n

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
P3 = ["ann", "bob", "cy"]
TITLES_DIR = Path(i18n.ROOT) / "engine" / "titles"


def _titles_msgids() -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in i18n.template("titles") if m.id}


def _in_japanese(msg: Msg) -> str:
    ja = tr(msg, "ja")
    assert JAPANESE.search(ja), f"no Japanese in {ja!r} (from {msg.text!r})"
    assert ja != str(msg)
    return ja


@pytest.mark.parametrize("title", TITLES)
def test_a_played_titles_own_log_lines_read_in_japanese(title: str) -> None:
    game = selfplay(title, 3, seed=1, max_actions=300, check=False)["game"]
    ours = _titles_msgids()
    lines = [line for _i, line in game.messages if isinstance(line, Msg) and line.text in ours]
    assert lines, f"{title} said nothing of its own in 300 actions"
    for line in lines:
        _in_japanese(line)


def _title_refusal(title: str) -> Msg | None:
    """A refusal reason of the title's own rules on a new game."""
    g = new_game(title, P3)
    if title == "18FL":
        with pytest.raises(GameError) as err:
            g.process({"type": "bid", "entity": g.current_entity, "price": 7})
        return err.value.msg if isinstance(err.value.msg, Msg) else None
    if title == "18AL":
        return g.rules.label_problem(g, "G2", "445")  # the Lumber Terminal is laid only with its private
    if title == "1830":
        return g.rules.player_trade_problem(g, g.round)  # no trades between players in the first stock round
    if title == "18EZ":
        return g.rules.tile_lay_problem(g, "PS&W", "F4", "9", 1)  # the first tile goes on the home hex
    merge_tile = g.data.rules["town_merge_tile"]
    return g.rules.tile_lay_problem(g, "MID", "K7", merge_tile, 0)  # 18FR-RCE rule 21's tile, out of place


@pytest.mark.parametrize("title", TITLES)
def test_a_titles_refusals_read_in_japanese(title: str) -> None:
    own = _title_refusal(title)
    assert isinstance(own, Msg) and own.text in _titles_msgids()
    _in_japanese(own)
    with pytest.raises(GameError) as err:
        new_game(title, P3, options={"no_such_option": True})
    assert isinstance(err.value.msg, Msg)
    assert "no_such_option" in _in_japanese(err.value.msg)
    assert str(err.value) == str(err.value.msg)  # English for logs and the tests that read it


def test_every_option_description_is_in_the_catalogue_and_reads_in_japanese() -> None:
    listed = {text for text, _plural, _ctx in catalogue_texts()}
    for title in TITLES:
        for profile in PROFILES:
            try:
                options = rules_for(title, profile).options
            except GameError:
                continue
            for description in options.values():
                assert description in listed
                assert str(data_text(description)) == description
                _in_japanese(data_text(description))


def test_every_title_template_reaches_the_catalogue() -> None:
    """The extractor misses a template nested in another call's values: every literal template of engine/titles
    must be in the titles catalogue all the same."""
    templates = _titles_msgids()
    missing = []
    for path in sorted(TITLES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("M", "MN") \
                    and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value not in templates:
                missing.append(f"{path.name}:{node.lineno}")
    assert not missing, "templates the catalogue lacks (write them outside the nesting call): " + ", ".join(missing)


def _first_argument_is_plain_text(call: ast.Call) -> bool:
    if not call.args:
        return False
    arg = call.args[0]
    return isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)) or \
        (isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add))


def test_no_refusal_or_log_line_of_a_title_is_plain_english() -> None:
    bad = []
    for path in sorted(TITLES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in ("GameError", "say") and _first_argument_is_plain_text(node):
                bad.append(f"{path.name}:{node.lineno}")
    assert not bad, "GameError(...)/say(...) with an f-string or plain string (use M(...)): " + ", ".join(bad)
