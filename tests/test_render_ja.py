"""Pictures in Japanese: the bundled font draws the glyphs, every title's pictures render in Japanese, and no English
word of the picture catalogue is drawn in a Japanese picture."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot import pictures as jobs
from bot.i18n import catalog
from engine.game import Game
from engine.messages import render
from engine.selfplay import selfplay
from render import fonts
from render.rounds import round_label, round_name
from tools import i18n

MISSING = "\U0010fffd"  # no font here has it: drawn as the .notdef box


def _drawn(text: str, draw: type[ImageDraw.ImageDraw]) -> bytes:
    im = Image.new("L", (120, 60), 0)
    draw(im).text((10, 10), text, fill=255, font=fonts.font(36))
    return im.tobytes()


def test_japanese_glyphs_come_from_the_bundled_font_not_the_missing_glyph_box() -> None:
    # DejaVu alone draws 株 as the box it draws for any glyph it lacks: the check below can fail
    assert _drawn("株", ImageDraw.ImageDraw) == _drawn(MISSING, ImageDraw.ImageDraw)
    assert fonts.needs_cjk("株式ラウンド2") and not fonts.needs_cjk("SR 2 · $40 — ⚓+20")
    kabu = _drawn("株", fonts.Draw)
    assert kabu != _drawn(MISSING, fonts.Draw) and any(kabu)
    assert kabu != _drawn("式", fonts.Draw)  # real, distinct glyphs
    assert fonts.face(fonts.font(36), "株").path.endswith("ipaexg.ttf")  # type: ignore[union-attr]
    # text DejaVu covers keeps DejaVu, so English pictures keep their pixels
    assert fonts.face(fonts.font(36, "bold"), "B23") is fonts.font(36, "bold")
    assert fonts.text_size(fonts.font(36), "株")[0] > 20


def test_cached_labels_draw_japanese_as_pillow_does_with_the_bundled_font() -> None:
    im_a = Image.new("RGB", (200, 60), (255, 255, 255))
    im_b = im_a.copy()
    fonts.CachedDraw(im_a).text((100.3, 30.6), "運営ラウンド2.1", fill=(0, 0, 0), font=fonts.font(20), anchor="mm")
    ImageDraw.ImageDraw(im_b).text((100.3, 30.6), "運営ラウンド2.1", fill=(0, 0, 0), font=fonts.cjk_font(20),
                                   anchor="mm")
    assert im_a.tobytes() == im_b.tobytes()


def test_round_ids_read_as_japanese_words() -> None:
    ja = catalog("ja")
    assert [render(round_label(r), ja) for r in ("start", "SR 3", "OR 3.2", "SDR 2", "now")] == \
        ["開始", "株3", "運3.2", "株2", "現在"]
    assert render(round_name("OR 3.2"), ja) == "運営ラウンド3.2"
    assert [str(round_label(r)) for r in ("SR 3", "OR 3.2", "start")] == ["SR 3", "OR 3.2", "start"]
    assert str(round_name("OR 3.2")) == "OR 3.2"


# -- every title in Japanese ---------------------------------------------------------------------------------

GAMES = [("18FL", 3, 4, 110), ("18AL", 3, 3, 110), ("1830", 3, 1, 110), ("18FR-RCE", 4, 2, 110), ("18EZ", 3, 1, 110)]


@pytest.fixture(scope="module", params=GAMES, ids=[g[0] for g in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    title, players, seed, actions = request.param
    return selfplay(title, players, seed, max_actions=actions, check=False)["game"]


def _english_words() -> set[str]:
    """The words of the picture catalogue's English templates (placeholders left out)."""
    words: set[str] = set()
    for m in i18n.template("render"):
        for msgid in ([m.id] if isinstance(m.id, str) else list(m.id)) if m.id else []:
            words |= set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", " ", msgid)))
    return words


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string drawn in the pictures rendered meanwhile."""
    seen: list[str] = []
    original, original_label = ImageDraw.ImageDraw.text, fonts.CachedDraw._label

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(text))
        original(self, xy, text, *args, **kwargs)

    def label(self: fonts.CachedDraw, xy: Any, text: str, *args: Any) -> None:
        seen.append(text)
        original_label(self, xy, text, *args)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    monkeypatch.setattr(fonts.CachedDraw, "_label", label)
    yield seen


def test_every_picture_of_every_title_renders_in_japanese(game: Game, drawn: list[str]) -> None:
    title = game.data.title
    corp = next((s for _, s, _, _ in game.revenues), next(iter(game.corps)))
    pictures = {
        "map": jobs.map_job(game, title, lang="ja"),
        "crop": jobs.map_job(game, title, crop=True, highlight={game.data.hexes[0].id}, lang="ja"),
        "market": jobs.market_job(game, "", lang="ja"),
        "standings": jobs.standings_job(game, "", lang="ja"),
    }
    texts = []
    for name in jobs.SHEETS:
        text, job = jobs.sheet_job(game, name, corp, lang="ja")
        pictures[name] = job
        texts.append(text)
    for name, job in pictures.items():
        im = Image.open(io.BytesIO(job()))
        assert im.width >= 300 and im.height >= 100, name
    # the Japanese words are there, and no word of the English templates is left
    assert any(fonts.needs_cjk(s) for s in drawn) and all(fonts.needs_cjk(t) for t in texts)
    english = _english_words()
    allowed = {w for h in game.data.hexes for w in re.findall(r"[A-Za-z]{3,}", h.name or "")}
    allowed |= {title, "IPO"} | {p.name for p in game.players} | set(game.corps)
    leaks = {w for s in [*drawn, *texts] for w in re.findall(r"[A-Za-z]{3,}", s)} & english - allowed
    assert not leaks, f"English words in {title}'s Japanese pictures: {sorted(leaks)}"


def test_a_japanese_sheet_text_keeps_its_columns(fl_played: Game) -> None:
    text = jobs.sheet_job(fl_played, "holdings", lang="ja")[0]
    block = text.split("```")[1].strip("\n").splitlines()
    # a monospaced Japanese character is two columns wide: the money column starts at one place on every row
    starts = {sum(2 if ord(ch) > 0x2E80 else 1 for ch in line[: line.index("$")]) for line in block if "$" in line}
    assert len(starts) == 1, block


def test_rotation_picture_in_japanese(fl_played: Game, drawn: list[str]) -> None:
    board = fl_played.board
    hex_id = next(h for h, st in board.hexes.items() if st.tile is None and not fl_played.data.hex(h).cities
                  and not fl_played.data.hex(h).towns and fl_played.data.hex(h).color == "white")
    png = jobs.rotation_job(fl_played, hex_id, "9", [0, 1, 2], lang="ja")()
    assert Image.open(io.BytesIO(png)).width > 300
    assert any(s.endswith("回転を選んでください") for s in drawn)
