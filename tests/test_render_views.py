"""Pictures a table reads over weeks: dead ends, home circles, highlights, crops, rotations, the sheet views,
standings colours and the market's operating order. Real engine, real boards, real Pillow images."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from engine.board import Board
from engine.describe import compass, rotation_words, track_words
from engine.game import Game
from engine.state import IPO, POOL
from engine.tiles import distinct_rotations, tile_layout
from engine.titledata import TitleData, load_title
from engine.titles import new_game
from render.charts import PLAYER_COLORS, player_colors, render_standings
from render.fonts import font, text_size
from render.mapimg import (
    HEX_FILL,
    HIGHLIGHT,
    LABEL_SIZE,
    TRACK,
    Rect,
    dead_ends,
    focus_hexes,
    map_geometry,
    plan_hex,
    plan_track,
    region_hexes,
    render_map,
    render_rotations,
)
from render.mapstyle import _rgb
from render.market import render_market
from render.sheets import holdings, render_sheet, revenue_history, sheet_text, tile_supply, train_roster, upgrades_of
from render.smallprint import _Extras, _Placer


def _img(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im.convert("RGB")


def _near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def fl() -> TitleData:
    return load_title("18FL")


@pytest.fixture
def played(fl_played: Game) -> Game:
    return fl_played


# -- map: dead ends -------------------------------------------------------------------------------------------


def test_track_against_a_neighbour_that_does_not_continue_it_is_a_dead_end(fl: TitleData) -> None:
    board = Board(fl)
    board.place_tile("D21", "9", 0, [])
    ends = dead_ends(board, "D21")
    assert ends == []  # both sides face hexes with no track yet: not built, not dead
    for e in sorted(set(board.layout("D21").exits)):
        other = board.neighbour("D21", e)
        assert other is not None
        # a straight in the neighbour that misses the shared side turns this end into a dead end
        for rot in range(6):
            board.place_tile(other, "9", rot, [])
            if (e + 3) % 6 not in board.layout(other).exits:
                break
        assert e in dead_ends(board, "D21")
        board.clear_tile(other)


def test_a_dead_end_is_drawn_with_a_gap_before_the_side(fl: TitleData) -> None:
    board = Board(fl)
    board.place_tile("D21", "9", 0, [])
    e = sorted(set(board.layout("D21").exits))[0]
    other = board.neighbour("D21", e)
    assert other is not None
    rot = next(r for r in range(6) if (e + 3) % 6 not in tile_layout(fl.tiles["9"], r).exits)
    board.place_tile(other, "9", rot, [])
    im = _img(render_map(board))
    g, _ = map_geometry(board)
    c = g.centre("D21")
    from render import geometry as geo

    mx, my = geo.edge_mid(g.layout, e)
    # just inside the side, on the track's line: hex colour (the gap), not track
    p = (round(c[0] + mx * g.size * 0.97), round(c[1] + my * g.size * 0.97))
    assert _near(im.getpixel(p), HEX_FILL["yellow"], 30)
    # further in, the track is there
    q = (round(c[0] + mx * g.size * 0.5), round(c[1] + my * g.size * 0.5))
    assert _near(im.getpixel(q), TRACK, 40)


# -- map: home circles, highlight, crops, labels --------------------------------------------------------------


@pytest.mark.parametrize("title", ["18FL", "18AL"])
def test_home_circles_of_corporations_yet_to_operate_look_the_same_in_every_title(title: str) -> None:
    """18FL puts home tokens down at the start, 18AL when the corporation first operates: both draw a home
    kept for a corporation that has not operated as a ring with its name, and a token once it has."""
    game = new_game(title, ["ann", "bob", "cat"], 1, {}, [])
    cd = game.data.corporations[0]
    board = game.board
    slots = board.hexes[cd.home].tokens[cd.home_city]
    kept = _img(render_map(board, homes={cd.sym: (cd.home, cd.home_city)}))
    if cd.sym not in slots:
        slots[0] = cd.sym
    token = _img(render_map(board, homes={}))
    g, _ = map_geometry(board)
    x, y = g.centre(cd.home)
    box = (round(x - g.size), round(y - g.size), round(x + g.size), round(y + g.size))
    corp_rgb = _rgb(cd.color)

    def coloured(im: Image.Image) -> int:
        return sum(n for n, c in im.crop(box).getcolors(1 << 20) or [] if _near(c, corp_rgb, 40))

    ring, disc = coloured(kept), coloured(token)
    assert 0 < ring < 0.6 * disc


def test_buildable_hexes_are_outlined(fl: TitleData) -> None:
    board = Board(fl)
    plain = _img(render_map(board))
    marked = _img(render_map(board, highlight={"C18"}))
    g, _ = map_geometry(board)
    x, y = g.centre("C18")
    box = (round(x - g.size), round(y - g.size), round(x + g.size), round(y + g.size))

    def pink(im: Image.Image, b: tuple[int, int, int, int] | None = None) -> int:
        region = im.crop(b) if b else im
        return sum(n for n, c in region.getcolors(1 << 20) or [] if _near(c, HIGHLIGHT, 20))

    assert pink(plain) == 0
    assert pink(marked, box) > 100
    assert pink(marked) == pink(marked, box)


def test_focus_crops_to_the_built_part_and_region_zooms(fl: TitleData) -> None:
    board = Board(fl)
    assert focus_hexes(board) is None  # nothing built: the whole map
    board.place_tile("B9", "9", 1, [])
    ids = focus_hexes(board)
    assert ids is not None and "B9" in ids and len(ids) < len(board.hexes) / 2
    assert all(board.neighbour("B9", e) in ids for e in range(6) if board.neighbour("B9", e))
    full = _img(render_map(board))
    crop = _img(render_map(board, hexes=ids))
    # the crop draws fewer hexes larger: B9's hex is bigger in the crop
    assert map_geometry(board, ids)[0].size > map_geometry(board)[0].size * 1.5
    assert max(crop.size) <= max(full.size) + 2
    zone = region_hexes(board, "F23", 2)
    assert "F23" in zone and "D23" in zone and "B9" not in zone


def test_the_header_names_the_values_in_use_only_where_the_view_shows_some() -> None:
    """A region around Birmingham showed "off-board values: early (yellow)" over a view with no off-board."""
    board = Board(load_title("18AL"))
    inland = region_hexes(board, "G4", 1)
    assert render_map(board, hexes=inland) == render_map(board, hexes=inland, note="")
    assert render_map(board) != render_map(board, note="")  # the whole map has its red areas


def test_a_region_of_a_small_map_is_still_a_zoom() -> None:
    """18AL's /view map region:Birmingham showed 44 of the map's 60 hexes: the view now takes fewer steps around
    the place where three would show most of a small map."""
    board = Board(load_title("18AL"))
    assert len(region_hexes(board, "G4", 3)) > 0.7 * len(board.hexes)
    zone = region_hexes(board, "G4", 3, at_most=0.4)
    assert "G4" in zone and len(zone) <= 0.4 * len(board.hexes)
    assert all(board.neighbour("G4", e) in zone for e in range(6) if board.neighbour("G4", e))
    big = Board(load_title("18FR-RCE"))  # a large map keeps its three steps
    assert region_hexes(big, "E15", 3, at_most=0.4) == region_hexes(big, "E15", 3)


def _tile_plans(data: TitleData, px: float, hex_id: str) -> Iterator[tuple[str, int, Any, Any, _Placer]]:
    """Every tile of the title in every rotation that draws differently: (number, rotation, layout, the hex's plan,
    a placer that knows only the track and the cities)."""
    for tile in data.tiles.values():
        for rot in distinct_rotations(tile):
            lay = tile_layout(tile, rot)
            plan = plan_hex(data.layout, px, lay, hex_id, None, None, _Extras())
            yield tile.number, rot, lay, plan, _Placer(data.layout, plan_track(data.layout, lay), lay)


@pytest.mark.parametrize("title", ["18FL", "18AL"])
def test_tile_labels_never_cover_track(title: str) -> None:
    px = 60.0
    checked = 0
    for number, rot, lay, plan, placer in _tile_plans(load_title(title), px, "A1"):
        if not lay.label:
            continue
        assert plan.label is not None and plan.label_size <= LABEL_SIZE
        w, h = text_size(font(round(plan.label_size * px), "bold"), lay.label)
        assert placer.cost(Rect(plan.label[0], plan.label[1], w / px, h / px), 0.0) == 0, (number, rot)
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("title", ["1830", "18FL"])
def test_hex_ids_move_off_a_city_drawn_over_their_spot(title: str) -> None:
    from render.smallprint import _id_spots

    data = load_title(title)
    px = 60.0
    w, h = text_size(font(round(0.165 * px)), "G19")
    spots = _id_spots(data.layout)
    moved = 0
    for number, rot, _lay, plan, placer in _tile_plans(data, px, "G19"):
        covered = [placer.cost(Rect(x, y, w / px + 0.04, h / px + 0.04), 0.0) for x, y in spots]
        at = spots.index(plan.id_at) if plan.id_at else 0
        assert covered[at] == min(covered), (number, rot)
        moved += plan.id_at is not None
    assert moved  # 1830's green and brown New York put a city under the top corner


def _name_reach(board: Board, px: float, hex_id: str) -> float:
    """How far (in hex sizes) the hex's printed name reaches into a neighbouring hex, as the map places it."""
    from render import geometry as geo
    from render.smallprint import _plan_for

    plan = _plan_for(board, hex_id, px)
    assert plan.name is not None
    (cx, cy), lines, size = plan.name
    f = font(round(size * px), "condensed")
    r = Rect(cx, cy, max(text_size(f, t)[0] for t in lines) / px, size * 1.12 * len(lines))
    dirs = [geo.edge_dir(board.layout_kind, e) for e in range(6) if board.neighbour(hex_id, e)]
    return max([x * dx + y * dy - geo.APOTHEM for x, y in r.corners() for dx, dy in dirs] + [0.0])


@pytest.mark.parametrize("title", ["18FL", "18AL", "18EZ", "18FR-RCE", "1830"])
def test_place_names_stay_out_of_their_neighbours(title: str) -> None:
    from render.mapdraw import _Canvas

    board = Board(load_title(title))
    px = _Canvas(board, {}, False).px  # the whole map, as the bot posts it
    reach = {h: _name_reach(board, px, h) for h in board.hexes if board.title.hex(h).name}
    # a crowded hex may lend its name a sliver of the next one (18FR-RCE Calais & Dunkerque: 0.11), no more;
    # the map's edge is free (1830's Canadian West reaches into the lake)
    assert max(reach.values()) <= 0.12, sorted(reach.items(), key=lambda kv: -kv[1])[:3]


def test_long_names_take_a_third_line_only_at_hyphens_and_ampersands() -> None:
    from render.smallprint import _wrap_narrow

    f = font(20, "condensed")
    assert _wrap_narrow("Saint-Germain & Versailles", f) == ["Saint-", "Germain", "& Versailles"]
    assert _wrap_narrow("Nantes & Saint-Nazaire", f) == ["Nantes", "& Saint-", "Nazaire"]
    assert _wrap_narrow("New York & Newark", f) == ["New York & Newark"]  # "New York" is one name


# -- rotations ------------------------------------------------------------------------------------------------


def test_rotations_are_described_by_where_the_track_goes(fl: TitleData) -> None:
    assert [compass("pointy", e) for e in range(6)] == ["SW", "W", "NW", "NE", "E", "SE"]
    assert [compass("flat", e) for e in range(6)] == ["S", "SW", "NW", "N", "NE", "SE"]
    # the names agree with the drawing: the side's direction on screen (y down) is within 45° of the name's
    from render import geometry as geo

    vectors = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
    for layout in ("pointy", "flat"):
        for e in range(6):
            dx, dy = geo.edge_dir(layout, e)
            for letter in compass(layout, e):
                vx, vy = vectors[letter]
                assert dx * vx + dy * vy > 0.4
    board = Board(fl)
    # a straight through D21 in the rotation that points at named places on both sides says their names
    words = {r: str(rotation_words(board, "D21", "9", r)) for r in range(3)}
    assert all(w.startswith(f"r{r}: ") and "–" in w for r, w in words.items())
    assert len(set(words.values())) == 3
    names = {board.title.hex(h).name for e in range(6) if (h := board.neighbour("D21", e)) and board.title.hex(h).name}
    assert any(n in " ".join(words.values()) for n in names)
    assert str(track_words(board, "D21", board.layout("D21"))) == "no track"


def test_a_city_of_a_hex_with_several_is_named_where_the_map_draws_it() -> None:
    """Every tile with two or more cities, in every rotation, of every title: the compass word that names a city
    (token menus, refusals) points where the picture draws that city, and no two cities of a hex share a name."""
    import math

    from engine.describe import city_sides
    from engine.tiles import hex_layout

    vectors = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
    checked = 0
    for title in ("1830", "18FL", "18AL", "18EZ", "18FR-RCE"):
        data = load_title(title)
        kind = Board(data).layout_kind
        printed = [(h.id, 0, hex_layout(h)) for h in data.hexes if len(h.cities) > 1]
        tiles = [(t, r, tile_layout(tile, r)) for t, tile in data.tiles.items() if len(tile.cities) > 1
                 for r in range(6)]
        for tile_id, r, lay in printed + tiles:
            sides = city_sides(kind, lay)
            drawn = plan_track(kind, lay).cities
            named = [s for s in sides if s]
            assert len(named) == len(set(named)), (title, tile_id, r, sides)
            for side, (x, y) in zip(sides, drawn, strict=True):
                if side is None:
                    continue
                for letter in side:
                    vx, vy = vectors[letter]
                    assert (x * vx + y * vy) / math.hypot(x, y) > 0.3, (title, tile_id, r, side, (x, y))
                checked += 1
    assert checked > 20


def test_every_city_circle_of_a_tile_stays_inside_its_hex() -> None:
    """1830's brown New York (#62) drew its two-circle cities half over the neighbours' hexes, covering their track
    and names: a city of several circles comes in from the side it faces until all of them fit."""
    from engine.tiles import hex_layout
    from render import geometry as geo
    from render.hexplan import slot_offsets
    from render.mapstyle import CITY_R

    checked = 0
    for title in ("1830", "18FL", "18AL", "18EZ", "18FR-RCE"):
        data = load_title(title)
        kind = Board(data).layout_kind
        printed = [(h.id, 0, hex_layout(h)) for h in data.hexes if h.cities and not h.offboard]
        tiles = [(t, r, tile_layout(tile, r)) for t, tile in data.tiles.items() for r in range(6)]
        for tile_id, r, lay in printed + tiles:
            for city, (x, y) in zip(lay.cities, plan_track(kind, lay).cities, strict=True):
                for ox, oy in slot_offsets(city.slots):
                    assert geo.inside_hex(kind, (x + ox, y + oy), CITY_R - 1e-9), (title, tile_id, r, (x, y))
                checked += 1
    assert checked > 500


def test_the_rotation_picture_has_one_numbered_panel_per_rotation(played: Game) -> None:
    from engine import track

    g = played
    game = g.replayed(next(i for i in range(len(g.actions)) if g.replayed(i).round.kind == "operating"))
    board = game.board
    hex_id, tile = "C18", "9"
    rots = distinct_rotations(board.title.tiles[tile])
    before = board.hexes[hex_id].tile
    one = _img(render_rotations(board, hex_id, tile, [(rots[0], "r0", track.city_map(game, hex_id, tile, 0))]))
    three = _img(render_rotations(board, hex_id, tile, [(r, str(rotation_words(board, hex_id, tile, r)),
                                                         track.city_map(game, hex_id, tile, r)) for r in rots]))
    assert board.hexes[hex_id].tile == before  # drawn on copies
    assert three.size[0] > one.size[0] * 2
    assert sum(n for n, c in three.getcolors(1 << 20) or [] if _near(c, HIGHLIGHT, 20)) > 3 * 500
    assert max(three.size) <= 1200


# -- sheets ---------------------------------------------------------------------------------------------------


def test_tile_supply_counts_and_upgrades(played: Game) -> None:
    sheet = tile_supply(played)
    rows = {r[0].split()[0]: r for r in sheet.tables[0].rows}
    for tid, d in played.data.tiles.items():
        left = len(played.board.supply.get(tid, []))
        laid = sum(1 for st in played.board.hexes.values() if st.tile == tid)
        if not d.unlimited:
            assert rows[f"#{tid}"][1] == f"{left} of {d.count}" and left + laid == d.count
    assert {"82", "83"} <= set(upgrades_of(played, "9"))
    assert all(played.data.tiles[u].color == "green" for u in upgrades_of(played, "9"))
    assert _img(render_sheet(sheet)).size[1] > 30 * len(rows)


def test_train_roster_counts_every_train(played: Game) -> None:
    sheet = train_roster(played)
    for row, td in zip(sheet.tables[0].rows, played.data.trains, strict=True):
        if td.unlimited:
            continue
        # bank + pool + owned: the rest have rusted or left the game
        assert int(row[2]) + int(row[3]) + int(row[4]) <= td.count
        assert int(row[2]) == sum(1 for t in played.trains if t.name == td.name and t.owner is None)
        assert row[1] == played.fmt(td.price)
        assert ("rusts" in row[5]) == bool(td.rusts_on)


def test_holdings_add_up_to_every_share(played: Game) -> None:
    sheet = holdings(played)
    shares = sheet.tables[0]
    assert shares.columns[-1] == "Privates"
    # the count is of the tokens still on the charter, as /view corporations says ("Tokens" read as those placed)
    books = sheet.tables[1]
    i = books.columns.index("Tokens left")
    assert [r[i] for r in books.rows] == [str(played.corps[r[0]].tokens_left) for r in books.rows]
    for row in shares.rows[:len(played.players)]:
        assert row[-1].split() == [c.sym for c in played.companies.values() if c.owner == row[0] and not c.closed]
    for i, sym in enumerate(shares.columns[1:-4], start=1):
        total = sum(int(re.sub(r"\D", "", r[i]) or 0) for r in shares.rows)
        reserved = 100 - sum(played.percent_of(sym, played.shares_held(o, sym))
                             for o in [p.name for p in played.players] + [IPO, POOL])
        assert total + reserved == 100
        pres = played.corps[sym].president or "Pool"  # a corporation left without one: its certificate in the pool
        books = {r[0]: r[-1] for r in sheet.tables[1].rows}
        assert (books[sym] == "no president: does not operate") == (pres == "Pool")
        assert sum(r[i].endswith("P") for r in shares.rows) == 1
        assert any(r[0] == pres and r[i].endswith("P") for r in shares.rows)
    text = sheet_text(sheet)
    assert all(p.name in text for p in played.players) and "Pool" in text
    assert _img(render_sheet(sheet)).size[0] <= 1600


def test_revenue_history_lists_each_run(played: Game) -> None:
    runs = [(r, s, v) for r, s, v, _k in played.revenues]
    assert runs, "the game has operated"
    corp = runs[0][1]
    sheet = revenue_history(played, corp)
    assert [row[0] for row in sheet.tables[0].rows] == [r for r, s, _ in runs if s == corp]
    assert all(re.fullmatch(r"OR \d+\.\d+", r) for r, _, _ in runs)
    # a turn that earned nothing is no run and withheld nothing
    mine = [v for _r, s, v in runs if s == corp]
    assert [row[2] == "no income" for row in sheet.tables[0].rows] == [not v for v in mine]
    n = sum(1 for v in mine if v)
    assert sheet.notes[0].startswith(f"{n} run") if n else "has not run yet" in sheet.notes[0]
    _img(render_sheet(sheet))


def test_history_points_name_their_rounds(played: Game) -> None:
    assert len(played.history_rounds) == len(played.history)
    assert all(re.fullmatch(r"(SR \d+|OR \d+\.\d+|.+)", r) for r in played.history_rounds)
    assert any(r.startswith("OR ") for r in played.history_rounds)


# -- standings and market ------------------------------------------------------------------------------------


def test_a_player_keeps_one_colour_whatever_the_ranking() -> None:
    seats = ["ann", "bob", "cat"]
    assert player_colors(seats)["bob"] == PLAYER_COLORS[1]
    history = {"ann": [100, 300], "bob": [200, 100], "cat": [150, 150]}
    early = _img(render_standings([("bob", 200), ("cat", 150), ("ann", 100)], history, seats=seats,
                                  rounds=["SR 1", "OR 1.1"]))
    late = _img(render_standings([("ann", 300), ("cat", 150), ("bob", 100)], history, seats=seats,
                                 rounds=["SR 1", "OR 1.1"]))
    # the dot in the first row of the table has the leader's seat colour
    dot = (24 + 65, 24 + 70 + 34 + 25)
    assert _near(early.getpixel(dot), PLAYER_COLORS[1], 30)
    assert _near(late.getpixel(dot), PLAYER_COLORS[0], 30)


def test_operating_order_lists_floated_corporations_only(played: Game) -> None:
    colors = {c.sym: (c.color, c.text_color) for c in played.data.corporations}
    on_market = set(played.market.positions)
    assert on_market
    with_order = _img(render_market(played.data, played.market, colors, floated=on_market))
    without = _img(render_market(played.data, played.market, colors, floated=set()))
    assert with_order.size[1] > without.size[1]


def test_a_picture_drawn_without_homes_keeps_the_erie_s_circle_as_the_bot_s_does() -> None:
    from bot.pictures import kept_homes
    from render.mapdraw import default_homes

    g = new_game("1830", ["a", "b", "c"], seed=1)
    assert default_homes(g.board)["ERIE"] == kept_homes(g)["ERIE"] == ("E11", None)  # either city of E11
    bare, told = _img(render_map(g.board, hexes=["E11"])), _img(render_map(g.board, hexes=["E11"], homes={}))
    assert bare.tobytes() != told.tobytes()  # the ring is drawn


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_revenue_bars_stay_in_their_column(played: Game, lang: str) -> None:
    """The bars started a fixed 90 px into their column, which was wide enough only where the header ("Revenue") was
    wider than the numbers: under 収益 the longest bars ran into 内部留保 and 配当."""
    from bot.i18n import catalog
    from render.sheets import BAR, PAD, _col_widths

    corp = max({s for _r, s, v, _k in played.revenues if v}, key=lambda s: max(
        v for _r, c, v, _k in played.revenues if c == s))
    sheet = revenue_history(played, corp, catalog(lang) if lang != "en" else None)
    im = _img(render_sheet(sheet)).convert("RGB")
    widths = _col_widths(sheet.tables[0], 20)
    last_column = PAD + sum(widths[:2])
    bar_x = [x for x in range(im.width) for y in range(60, im.height, 7) if im.getpixel((x, y)) == BAR]
    assert bar_x and max(bar_x) < last_column, (max(bar_x), last_column)
