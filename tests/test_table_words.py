"""What players read about the game's events: wrong rotations, phase changes, trains leaving, round names and
merged stock round summaries. Real engine games; the words come from the engine and bot/texts."""

from __future__ import annotations

import re

import pytest

from bot.texts import merge_purchases
from engine.errors import GameError
from engine.game import Game
from engine.state import Train
from engine.tiles import distinct_rotations
from engine.titledata import load_title
from engine.trains import losses, phase_text


@pytest.fixture
def played(fl_played: Game) -> Game:
    return fl_played


def test_a_wrong_rotation_is_refused_as_a_wrong_rotation(played: Game) -> None:
    seen = 0
    for i in range(len(played.actions)):
        g = played.replayed(i)
        if g.round.kind != "operating" or g.round.step != "track":
            continue
        lays = [a for a in g.legal_actions() if a.type == "lay_tile"]
        for a in lays:
            legal = {b.rotation for b in lays if b.hex == a.hex and b.tile == a.tile}
            wrong = [r for r in distinct_rotations(g.data.tiles[a.tile]) if r not in legal]
            if not wrong:
                continue
            act = a.model_copy(update={"rotation": wrong[0]})
            with pytest.raises(GameError) as err:
                g.process(act)
            text = str(err.value)
            assert f"Rotation {wrong[0]} of #{a.tile} is wrong here" in text, text
            assert "cannot reach" not in text
            # the hint names the legal rotations by where their track goes
            assert re.search(rf"#{a.tile} r{a.rotation}: \S", text), text
            seen += 1
            break
        if seen >= 3:
            break
    assert seen


def test_rounds_are_named_one_way(played: Game) -> None:
    names = {e["name"] for e in played.finished_rounds}
    assert any(re.fullmatch(r"OR \d+\.\d+", n) for n in names)
    assert all(not re.search(r"OR \d+/\d+", n) for n in names)
    said = [str(t) for _i, t in played.messages if str(t).startswith("Operating round ")]
    assert said and all(re.fullmatch(r"Operating round \d+\.\d+ begins\.", t) for t in said)


def test_a_new_phase_says_what_it_allows() -> None:
    fl = load_title("18FL")
    four = next(p for p in fl.phases if p.name == "4")
    text = str(phase_text(four))
    assert text.startswith("Phase 4 begins: yellow, green tiles")
    assert "train limit 3 for 10-share, 1 for 5-share" in text and "2 operating rounds per set" in text
    assert "5 or 10 shares" in text


def test_trains_leaving_are_said_per_owner_without_ids() -> None:
    trains = [Train("2-0", "2", "2", 2, 100, owner="SAL"), Train("2-1", "2", "2", 2, 100, owner="SAL"),
              Train("2-2", "2", "2", 2, 100, owner="ACL"), Train("2-3", "2", "2", 2, 100, owner="pool")]
    lines = [str(line) for line in losses(trains, "rusted and scrapped")]
    assert lines == ["SAL loses two 2-trains (rusted and scrapped).", "ACL loses a 2-train (rusted and scrapped).",
                     "The pool loses a 2-train (rusted and scrapped)."]
    assert not any(re.search(r"\d-\d", ln) for ln in lines)


def test_game_logs_never_show_train_ids(played: Game) -> None:
    ids = {f"{td.name}-{i}" for td in played.data.trains for i in range(td.count)}
    lines = [str(t) for _i, t in played.messages]
    said = [line for line in lines if " loses " in line or line.startswith("Phase ") or "-train" in line]
    assert any(line.startswith("Phase ") for line in said)
    for line in said:
        assert not any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", line) for i in ids), line


def test_repeated_purchases_are_merged() -> None:
    lines = ["bob bought L&N (ipo)", "amy started SAL at $70", "bob bought L&N (ipo)", "bob bought L&N (pool)",
             "bob bought L&N (ipo)", "amy sold 1× SAL", "amy sold 2× SAL", "cat holds the Priority Deal"]
    assert [str(x) for x in merge_purchases(lines)] == [
        "bob bought 3 shares of L&N from the IPO", "amy started SAL at $70", "bob bought a share of L&N from the pool",
        "amy sold 3 shares of SAL", "cat holds the Priority Deal"]
