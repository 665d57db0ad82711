"""The map drawn over the cached static layer of the printed board is the picture drawn whole, byte for byte."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

import render.mapimg as mapimg
from bot import pictures as jobs
from engine.board import Board
from engine.game import Game
from engine.selfplay import selfplay
from engine.titledata import load_title
from render import RouteDraw, render_map
from tests.test_render import _busy_board


@pytest.fixture
def whole_and_static(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[], bytes]], None]]:
    def check(draw: Callable[[], bytes]) -> None:
        monkeypatch.setattr(mapimg, "STATIC_LAYER", False)
        whole = draw()
        monkeypatch.setattr(mapimg, "STATIC_LAYER", True)
        assert draw() == whole  # the first one builds the static layer
        assert draw() == whole  # the next ones find it

    yield check


def test_a_busy_board_with_routes_outlines_and_late_values(whole_and_static: Callable) -> None:
    board = _busy_board(load_title("18FL"))
    whole_and_static(lambda: render_map(board, title_text="18FL OR 3.2"))
    whole_and_static(lambda: render_map(board, late=True, highlight={"C20", "D21", "E20"}, homes={"FEC": ("K28", 0)}))
    routes = [RouteDraw("2-train", 40, [("B15", 0), ("B17", 0)]), RouteDraw("3-train", 70, [("B23", 0)])]
    whole_and_static(lambda: render_map(board, routes=routes, title_text="SAL runs"))


def test_an_empty_board_and_one_changed_hex(whole_and_static: Callable) -> None:
    board = Board(load_title("1830"))
    whole_and_static(lambda: render_map(board))
    board.place_tile("F20", "57", 0, [0])  # a lone tile: one hex and its neighbours redrawn
    whole_and_static(lambda: render_map(board))


@pytest.mark.parametrize("title, players, seed", [("18FL", 3, 4), ("18FR-RCE", 4, 2), ("18AL", 3, 3)])
def test_self_played_maps_whole_cropped_and_by_region(title: str, players: int, seed: int,
                                                     whole_and_static: Callable) -> None:
    g: Game = selfplay(title, players, seed, max_actions=100, check=False)["game"]
    whole_and_static(jobs.map_job(g, title))
    whole_and_static(jobs.map_job(g, "crop", crop=True, highlight={g.data.hexes[7].id}, lang="ja"))
    whole_and_static(jobs.map_job(g, "region", region=g.data.hexes[12].id))
