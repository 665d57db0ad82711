"""Pictures: properties of the PNGs built from real boards and markets (no golden bytes)."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageColor

from engine.board import Board
from engine.hexgrid import coords, neighbour
from engine.market import Market
from engine.titledata import MarketDef, TitleData, load_title
from render import RouteDraw, render_map, render_market, render_standings
from render import geometry as geo
from render.fonts import font, text_size
from render.mapimg import HEX_FILL, ROUTE_COLORS, hex_layout_of, map_geometry, plan_track

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
RGB = tuple[int, int, int]

# A board after a few operating rounds: (hex, tile, rotation, city map).
BUSY_LAYS: list[tuple[str, str, int, list[int]]] = [
    ("B3", "9", 1, []), ("B7", "4", 1, []), ("B9", "9", 1, []), ("B11", "9", 1, []), ("B13", "4", 1, []),
    ("B15", "15", 3, [0]), ("C14", "58", 1, []), ("B17", "8", 5, []), ("C18", "9", 2, []), ("D19", "3", 2, []),
    ("B21", "9", 1, []), ("B19", "4", 1, []), ("B23", "487", 4, [0, 1]), ("C22", "9", 0, []), ("D21", "9", 0, []),
    ("E20", "8", 3, []), ("F21", "8", 0, []), ("G20", "405", 4, [0]), ("C24", "58", 0, []), ("D23", "4", 0, []),
    ("E22", "8", 3, []), ("F23", "6o", 1, [0]), ("F25", "8", 5, []), ("G26", "9", 2, []), ("H27", "9", 2, []),
    ("I28", "58", 0, []), ("J27", "6fl", 2, [0]), ("L27", "9", 0, []), ("M26", "8", 1, []), ("M24", "58", 4, []),
    ("B9", "82", 1, []), ("B7", "146", 1, []), ("B11", "544", 0, []), ("F23", "443o", 1, [0]),
]


@pytest.fixture(scope="module")
def title() -> TitleData:
    return load_title("18FL")


def _busy_board(title: TitleData) -> Board:
    board = Board(title)
    for hex_id, tile, rot, city_map in BUSY_LAYS:
        board.place_tile(hex_id, tile, rot, city_map)
    for hex_id, city, slot, corp in [("B5", 0, 0, "L&N"), ("B15", 0, 0, "TPS"), ("B15", 0, 1, "SAL"),
                                     ("B23", 0, 0, "SAL"), ("B23", 1, 0, "SR"), ("G20", 0, 0, "ACL"),
                                     ("K28", 0, 0, "FEC"), ("F23", 0, 0, "ACL")]:
        board.hexes[hex_id].tokens[city][slot] = corp
    board.hexes["B23"].extra_tokens.append(("FEC", 0))
    board.hexes["M24"].hotels[0] = "FEC"
    board.hexes["G20"].markers["port"] = "ACL"
    return board


def _variant(title: TitleData, **changes: object) -> TitleData:
    """A changed copy of a title, validated afresh (model_copy would keep the title's cached hex index)."""
    return TitleData.model_validate(title.model_dump() | changes)


def _img(png: bytes) -> Image.Image:
    assert png[:8] == PNG_MAGIC
    im = Image.open(io.BytesIO(png))
    im.load()
    return im.convert("RGB")


def _rgb(color: str) -> RGB:
    c = ImageColor.getrgb(color)
    return (c[0], c[1], c[2])


def _count_near(im: Image.Image, color: RGB, box: tuple[int, int, int, int] | None = None, tol: int = 10) -> int:
    """Pixels within ``tol`` (per channel) of ``color``, optionally inside a box."""
    region = im.crop(box) if box else im
    colors = region.getcolors(maxcolors=1 << 24) or []
    return sum(n for n, c in colors if all(abs(a - b) <= tol for a, b in zip(c, color, strict=True)))


def _hex_box(board: Board, hex_id: str, frac: float = 0.55) -> tuple[int, int, int, int]:
    g, _ = map_geometry(board)
    x, y = g.centre(hex_id)
    r = g.size * frac
    return (round(x - r), round(y - r), round(x + r), round(y + r))


# -- geometry -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["pointy", "flat"])
def test_edge_directions_point_at_the_neighbour(layout: str) -> None:
    """Edge e of the drawing faces the hex that engine.hexgrid calls the neighbour across e."""
    g = geo.HexGeometry(layout, 10.0)
    here = "F11"
    assert (coords(here, layout)[0] + coords(here, layout)[1]) % 2 == 0
    c = g.centre(here)
    for e in range(6):
        n = g.centre(neighbour(here, e, layout))
        mx, my = geo.edge_mid(layout, e)
        # the neighbour's centre lies twice the apothem away in the direction of the edge midpoint
        assert math.isclose(n[0] - c[0], 2 * mx * 10.0, abs_tol=1e-6)
        assert math.isclose(n[1] - c[1], 2 * my * 10.0, abs_tol=1e-6)


@pytest.mark.parametrize("layout", ["pointy", "flat"])
def test_curves_meet_the_edges_at_their_midpoints(layout: str) -> None:
    for a in range(6):
        for b in range(6):
            if a == b:
                continue
            pts = geo.edge_to_edge(layout, a, b)
            assert pts[0] == geo.edge_mid(layout, a) and pts[-1] == geo.edge_mid(layout, b)
            assert all(geo.inside_hex(layout, p, -1e-9) for p in pts)
            length = geo.polyline_length(pts)
            # straight, gentle and sharp track have the lengths of their circle arcs
            expected = {3: math.sqrt(3), 2: 1.5 * math.pi / 3, 1: 0.5 * 2 * math.pi / 3}[min((b - a) % 6, (a - b) % 6)]
            assert math.isclose(length, expected, rel_tol=0.01)


def test_through_town_sits_on_its_track(title: TitleData) -> None:
    board = Board(title)
    board.place_tile("B19", "58", 0, [])  # gentle curve with a town on it
    plan = plan_track("pointy", hex_layout_of(board, "B19"))
    (pos, tangent), = plan.towns
    assert tangent is not None
    assert pos in plan.paths[0] and pos in plan.paths[1]


def test_towns_on_crossing_tracks_sit_apart_each_on_its_own_track() -> None:
    """1830's #56: two towns on gentle curves that cross. Each at its track's middle, both bars were drawn on the
    crossing, one over the other."""
    board = Board(load_title("1830"))
    board.place_tile("F20", "56", 0, [])
    plan = plan_track("pointy", hex_layout_of(board, "F20"))
    (a, ta), (b, tb) = plan.towns
    assert ta is not None and tb is not None and math.dist(a, b) > 0.5
    on_track = [sum(p in line for line in plan.paths) for p in (a, b)]
    assert on_track == [2, 2]  # each joins the two halves of its own track


def test_a_city_beside_track_that_bypasses_it_is_drawn_off_that_track() -> None:
    """1830's Altoona: a city on its own spur and a through track side to side. The city sat in the middle, on the
    through track, so a route along the bypass was drawn through PRR's full city."""
    from render.hexplan import CITY_R

    board = Board(load_title("1830"))
    lay = hex_layout_of(board, "H12")
    plan = plan_track("pointy", lay)
    (city,) = plan.cities
    through = next(line for line, (a, b) in zip(plan.paths, lay.paths, strict=True) if a[0] == b[0] == "edge")
    (x0, y0), (x1, y1) = through[0], through[-1]
    off = abs((x1 - x0) * (y0 - city[1]) - (x0 - city[0]) * (y1 - y0)) / math.dist(through[0], through[-1])
    assert off > CITY_R, off  # the circle clear of the line


def test_fonts_find_dejavu_or_fall_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from render import fonts

    w, h = text_size(font(14), "Jacksonville")
    assert w > 0 and h > 0
    monkeypatch.setattr(fonts, "FONT_DIRS", ("/nonexistent-font-dir",))
    fonts._find.cache_clear()
    fonts.font.cache_clear()
    try:
        assert fonts.font_path("bold") is None
        w2, _ = text_size(fonts.font(14, "bold"), "Jacksonville")
        assert w2 > 0
    finally:
        fonts._find.cache_clear()
        fonts.font.cache_clear()


# -- map ----------------------------------------------------------------------------------------------


def test_map_is_a_phone_sized_png(title: TitleData) -> None:
    png = render_map(_busy_board(title), title_text="18FL OR 3.2")
    im = _img(png)
    assert 1500 <= max(im.size) <= 1700
    assert len(png) < 600 * 1024


def test_laid_yellow_tile_shows_at_its_hex(title: TitleData) -> None:
    board = Board(title)
    yellow = HEX_FILL["yellow"]
    box = _hex_box(board, "C22")
    before = _img(render_map(board))
    assert _count_near(before, yellow, box) == 0
    board.place_tile("C22", "9", 0, [])
    after = _img(render_map(board))
    area = (box[2] - box[0]) * (box[3] - box[1])
    assert _count_near(after, yellow, box) > area * 0.3
    # the straight track crosses the centre
    g, _ = map_geometry(board)
    cx, cy = g.centre("C22")
    assert max(after.getpixel((round(cx), round(cy)))) < 80


def test_placed_token_shows_the_corporation_colour(title: TitleData) -> None:
    board = Board(title)
    fec = _rgb(title.corporation("FEC").color)
    box = _hex_box(board, "F23")
    assert _count_near(_img(render_map(board)), fec, box) == 0
    board.hexes["F23"].tokens[0][0] = "FEC"
    assert _count_near(_img(render_map(board)), fec, box) > 150


def test_custom_corporation_colours_are_used(title: TitleData) -> None:
    board = Board(title)
    board.hexes["F23"].tokens[0][0] = "FEC"
    colors = {c.sym: (c.color, c.text_color) for c in title.corporations} | {"FEC": ("#00ff00", "#000000")}
    im = _img(render_map(board, corp_colors=colors))
    assert _count_near(im, (0, 255, 0), _hex_box(board, "F23")) > 150


def test_extras_hotels_and_markers_are_drawn(title: TitleData) -> None:
    board = Board(title)
    board.place_tile("M24", "58", 4, [])
    board.hexes["M24"].hotels[0] = "SR"
    board.hexes["B23"].extra_tokens.append(("ACL", 0))
    board.hexes["G20"].markers["port"] = "FEC"
    board.hexes["K28"].markers["mystery"] = "TPS"  # unknown kinds still get a badge
    im = _img(render_map(board))
    for hex_id, corp in (("M24", "SR"), ("B23", "ACL"), ("G20", "FEC"), ("K28", "TPS")):
        assert _count_near(im, _rgb(title.corporation(corp).color), _hex_box(board, hex_id, 0.9)) > 30, corp


def test_every_marker_a_title_places_has_a_badge_in_no_language() -> None:
    """18AL's coal marker was drawn as the English word "coal" on maps read in Japanese. The kinds the engine puts
    in ``markers`` are found in its source, so a new kind without a badge fails here."""
    import re
    from pathlib import Path

    from render.mapstyle import marker_text

    source = "\n".join(p.read_text() for p in Path("engine").rglob("*.py"))
    kinds = set(re.findall(r"markers\[\"(\w+)\"\]\s*=", source))
    assert {"port", "coal"} <= kinds, kinds
    for kind in kinds:
        badge = marker_text(kind)
        assert badge != kind and not re.search(r"[a-z]{2}", badge), (kind, badge)


def test_18al_coal_field_cities_show_their_printed_pentagon() -> None:
    """18AL's rules send the coal token to "the cities marked on the map by pentagon symbols": the map drew none.
    The marks are data (HexDef.marks), the same five hexes the S&NA's ability names, and each is drawn."""
    from render.mapstyle import MARK_INK

    al = load_title("18AL")
    marked = {h.id for h in al.hexes if "pentagon" in h.marks}
    assert marked == set(al.company("SNAR").abilities["coal_field"]["hexes"])
    board = Board(al)
    im = _img(render_map(board))
    for hex_id in sorted(marked):
        assert _count_near(im, MARK_INK, _hex_box(board, hex_id, 0.9)) > 30, hex_id
    assert _count_near(im, MARK_INK, _hex_box(board, "K2", 0.9)) < 5  # York is no coal-field city


def test_a_city_value_by_phase_shows_the_one_in_use() -> None:
    """18AL's Nashville prints "40/50" in its revenue circle; the map showed both alike, where the off-board boxes
    highlight the value in use. The value in use is now in ink and the other greyed."""
    from PIL import ImageDraw

    from render.fonts import font
    from render.mapdraw import _draw_revenue_text
    from render.mapstyle import TRACK

    def ink_columns(late: bool) -> list[int]:
        im = Image.new("RGB", (200, 60), (255, 255, 255))
        _draw_revenue_text(ImageDraw.Draw(im), (100.0, 30.0), "40/50", font(40, "bold"), late)
        px = im.load()
        return [x for x in range(200)
                if any(max(abs(a - b) for a, b in zip(px[x, y], TRACK, strict=True)) <= 30 for y in range(60))]

    early, late = ink_columns(False), ink_columns(True)
    assert early and late and max(early) < 100 < min(late), (early[:3], late[:3])


def test_late_values_change_the_picture(title: TitleData) -> None:
    board = Board(title)
    assert render_map(board) != render_map(board, late=True)


def test_map_is_deterministic(title: TitleData) -> None:
    board = _busy_board(title)
    assert render_map(board, title_text="x") == render_map(board, title_text="x")
    again = _busy_board(title)
    assert render_map(board) == render_map(again)


def test_flat_layout_renders(title: TitleData) -> None:
    flat = _variant(title, layout="flat")
    board = Board(flat)
    board.place_tile("C22", "9", 0, [])
    board.hexes["G20"].tokens[0][0] = "ACL"
    im = _img(render_map(board))
    assert 1500 <= max(im.size) <= 1700
    assert _count_near(im, HEX_FILL["yellow"], _hex_box(board, "C22")) > 100
    assert _count_near(im, _rgb(title.corporation("ACL").color), _hex_box(board, "G20")) > 100


# -- routes -------------------------------------------------------------------------------------------


def _path(board: Board, hex_id: str, a: tuple[str, int], b: tuple[str, int]) -> tuple[str, int]:
    for i, p in enumerate(hex_layout_of(board, hex_id).paths):
        if p in ((a, b), (b, a)):
            return hex_id, i
    raise KeyError((hex_id, a, b))


def _routes(board: Board) -> list[RouteDraw]:
    r1 = [_path(board, "B23", ("edge", 1), ("city", 1)), ("B21", 0), ("B19", 0), ("B19", 1)]
    r2 = [_path(board, "B23", ("edge", 0), ("city", 0)), ("C22", 0), ("D21", 0), ("E20", 0), ("F21", 0),
          _path(board, "G20", ("edge", 3), ("city", 0))]
    r3 = [_path(board, "K28", ("edge", 0), ("city", 0)), ("L27", 0), ("M26", 0), ("M24", 0), ("M24", 1),
          ("N23", 0)]
    return [RouteDraw("3", 110, r1), RouteDraw("4", 180, r2), RouteDraw("2", 90, r3)]


def test_routes_are_drawn_in_their_colours(title: TitleData) -> None:
    board = _busy_board(title)
    routes = _routes(board)
    plain = _img(render_map(board))
    png = render_map(board, routes=routes)
    im = _img(png)
    assert len(png) < 600 * 1024
    for i, (route, hex_id) in enumerate(zip(routes, ("B21", "D21", "M26"), strict=True)):
        color = _rgb(ROUTE_COLORS[i])
        assert _count_near(im, color) > 200, route.label  # legend swatch
        # along the route the map is tinted towards the train's colour
        box = _hex_box(board, hex_id, 0.8)

        def dist(img: Image.Image, c: RGB = color, b: tuple[int, int, int, int] = box) -> float:
            stat = img.crop(b).resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
            return math.dist(stat, c)

        assert dist(im) < dist(plain) - 10, route.label
    assert render_map(board, routes=routes) == png


def test_route_with_an_unknown_path_is_refused(title: TitleData) -> None:
    board = _busy_board(title)
    with pytest.raises(ValueError):
        render_map(board, routes=[RouteDraw("2", 10, [("C12", 0)])])


# -- market -------------------------------------------------------------------------------------------


def test_market_shows_each_parked_corporation(title: TitleData) -> None:
    market = Market.from_def(title.market)
    colors = {c.sym: (c.color, c.text_color) for c in title.corporations}
    for sym, col in (("SAL", 6), ("SR", 6), ("ACL", 9), ("L&N", 3)):
        market.place(sym, 0, col)
    png = render_market(title, market, colors, caption="SR 3")
    im = _img(png)
    assert max(im.size) == 1600 and len(png) < 600 * 1024
    for sym in ("SAL", "SR", "ACL", "L&N"):
        assert _count_near(im, _rgb(colors[sym][0])) > 300, sym
    for sym in ("FEC", "TPS"):  # not parked: nowhere on the picture
        assert _count_near(im, _rgb(colors[sym][0])) == 0, sym
    assert render_market(title, market, colors, caption="SR 3") == png


def test_market_stack_order_is_drawn_top_first(title: TitleData) -> None:
    market = Market.from_def(title.market)
    colors = {"A": ("#ff0000", "#ffffff"), "B": ("#0000ff", "#ffffff")}
    market.place("A", 0, 6)
    market.place("B", 0, 6)
    im = _img(render_market(title, market, colors))
    ys_a = [y for y in range(im.height) for x in range(0, im.width, 4) if im.getpixel((x, y)) == (255, 0, 0)]
    ys_b = [y for y in range(im.height) for x in range(0, im.width, 4) if im.getpixel((x, y)) == (0, 0, 255)]
    # both tokens are in the market cell and in the operating-order line; compare the cell ones (upper)
    assert min(ys_a) < min(ys_b)


def test_two_dimensional_market(title: TitleData) -> None:
    rows = (("60", "65", "70p", "80", "90e"), ("55", "60p", "65", "70"), ("50y", "55y", "60"))
    market = Market.from_def(MarketDef(kind="2d", rows=rows))
    colors = {c.sym: (c.color, c.text_color) for c in title.corporations}
    for sym, (r, c) in (("SAL", (0, 2)), ("SR", (0, 2)), ("ACL", (0, 2)), ("FEC", (1, 1)), ("TPS", (2, 0))):
        market.place(sym, r, c)
    im = _img(render_market(title, market, colors))
    for sym in ("SAL", "SR", "ACL", "FEC", "TPS"):
        assert _count_near(im, _rgb(colors[sym][0])) > 100, sym


# -- standings ----------------------------------------------------------------------------------------


def test_standings_chart(title: TitleData) -> None:
    history = {"ann": [300, 420, 700, 1100], "bo": [300, 380, 650, 900], "cy": [300, 310, 500, 1150]}
    rows = sorted(((p, v[-1]) for p, v in history.items()), key=lambda r: -r[1])
    png = render_standings(rows, history, title_text="18FL final")
    im = _img(png)
    assert im.size == (1600, 900) and len(png) < 600 * 1024
    assert png == render_standings(rows, history, title_text="18FL final")
    # each player has a line of their own colour
    from render.charts import PLAYER_COLORS

    for i in range(len(rows)):
        assert _count_near(im, PLAYER_COLORS[i], tol=6) > 200


@pytest.mark.parametrize("history", [{}, {"solo": [500]}, {"a": [0, 0], "b": [0, 0]}])
def test_standings_edge_cases(history: dict[str, list[int]]) -> None:
    rows = [(p, v[-1]) for p, v in history.items()] or [("nobody", 0)]
    _img(render_standings(rows, history))


def _block_title(title: TitleData) -> TitleData:
    """A small rectangular map with no empty corner, named like 18FL but with its own hexes."""
    from engine.titledata import HexDef

    hexes = [HexDef(id=f"{row}{col}") for r, row in enumerate("ABCD") for col in range(1 + (r + 1) % 2, 14, 2)]
    return _variant(title, hexes=[h.model_dump() for h in hexes])


def test_legend_gets_a_band_when_no_corner_is_free(title: TitleData) -> None:
    block = _block_title(title)
    board = Board(block)
    board.place_tile("B5", "9", 1, [])
    plain = _img(render_map(board))
    with_routes = _img(render_map(board, routes=[RouteDraw("2", 20, [("B5", 0)])]))
    assert with_routes.width == plain.width and with_routes.height > plain.height
    assert _count_near(with_routes, _rgb(ROUTE_COLORS[0]), (0, plain.height, plain.width, with_routes.height)) > 100


def test_variant_title_with_the_same_name_is_planned_afresh(title: TitleData) -> None:
    renamed = _variant(title, hexes=[h.model_dump() | ({"name": "Gotham"} if h.id == "F23" else {})
                                     for h in title.hexes])
    assert renamed.title == title.title
    a, b = render_map(Board(title)), render_map(Board(renamed))
    assert a != b


# -- 18EZ: the hexagonal reconstructed board, Metropolis and the SPI ---------------------------------------------
def test_18ez_board_is_hexagonal_with_metropolis_in_the_centre() -> None:
    ez = load_title("18EZ")
    board = Board(ez)
    im = _img(render_map(board, title_text="18EZ"))
    assert 1500 <= max(im.size) <= 1700
    g, _ = map_geometry(board)
    centres = {h.id: g.centre(h.id) for h in ez.hexes if h.color not in ("red",)}
    mx, my = centres["F12"]
    xs = [x for x, _ in centres.values()]
    assert abs(mx - (min(xs) + max(xs)) / 2) < 1  # Metropolis in the middle of the widest row
    assert _count_near(im, HEX_FILL["yellow"], _hex_box(board, "F12")) > 0  # preprinted yellow
    for corner in ("A7", "A17", "F2", "F22", "K7", "K17"):
        assert _count_near(im, HEX_FILL["red"], _hex_box(board, corner)) > 0


def test_18ez_four_slot_metropolis_is_one_shape() -> None:
    ez = load_title("18EZ")
    board = Board(ez)
    board.place_tile("F12", "716", 0, [0])
    board.place_tile("F12", "717", 0, [0])
    im = _img(render_map(board))
    g, _ = map_geometry(board)
    cx, cy = g.centre("F12")
    # the middle of a 2 x 2 city is inside its white shape (a bow tie left it dark)
    assert min(im.getpixel((round(cx), round(cy)))) > 200


def test_18ez_market_shows_the_par_values_box() -> None:
    from engine import new_game

    g = new_game("18EZ", ["A", "B"])
    g.process({"type": "par", "entity": "A", "corporation": "PS&W", "price": 70})
    colors = {c.sym: (c.color, c.text_color) for c in g.data.corporations}
    with_box = _img(render_market(g.data, g.market, colors))
    plain = _img(render_market(g.data, Market.from_def(g.data.market), colors))
    assert with_box.size[1] > plain.size[1]
    assert _count_near(with_box, _rgb(g.data.corporation("PS&W").color), (0, plain.size[1] - 80,
                                                                           with_box.size[0], with_box.size[1])) > 50


@pytest.mark.parametrize(("title", "players", "phase"), [("1830", 3, "5"), ("18AL", 3, "5"), ("18FL", 3, "5")])
def test_the_map_shows_the_later_off_board_values_once_the_rules_pay_them(title: str, players: int,
                                                                          phase: str) -> None:
    """The picture takes the later value from the title's rules, as the routes do (1830's and 18AL's data name no
    phase for it: their maps showed the early values to the end of the game)."""
    from bot.pictures import map_job
    from engine import new_game

    g = new_game(title, [f"P{i}" for i in range(players)])
    early = map_job(g, "map")()
    assert not g.rules.late_values(g) and not g.rules.route_rules(g).late
    g.bought_train_types.add(phase)  # set-up: the first 5-train was bought
    g.phase_index = next(i for i, ph in enumerate(g.data.phases) if ph.name.startswith(phase))
    assert g.rules.late_values(g) and g.rules.route_rules(g).late
    assert map_job(g, "map")() != early


def test_the_phase_that_brings_the_later_off_board_values_says_so() -> None:
    from engine import new_game
    from tests.c1830_helpers import buy_privates

    g = buy_privates(new_game("1830", ["a", "b", "c"]))
    five = next(t for t in g.trains if t.name == "5")
    g.bought_train_types.update({"2", "3", "4"})  # set-up: the 4s are gone; the first 5 leaves the bank
    five.owner = "PRR"
    g.on_train_bought(five)
    said = [str(m) for _, m in g.messages if str(m).startswith("Phase 5 begins")]
    assert g.phase.name == "5" and len(said) == 1 and "off-boards pay their later values" in said[0]


def test_a_long_route_label_gives_up_stops_from_its_middle_so_the_amounts_show() -> None:
    """A D-train's dozen stops ran the legend off the picture, its amounts and the total with it."""
    from render.mapimg import _fit_label

    f = font(14)
    stops = "–".join(["Philadelphia & Trenton", "Atlantic City", "Baltimore", "Washington", "Pittsburgh",
                      "Cleveland", "Toledo", "Detroit & Windsor", "Hamilton & Toronto", "Kingston", "Montreal"])
    room = text_size(f, "Philadelphia & Trenton–Atlantic City–Baltimore–…–Montreal")[0] + 2
    fitted = _fit_label(stops, f, room)
    assert fitted.startswith("Philadelphia & Trenton–Atlantic City") and fitted.endswith("–…–Montreal")
    assert text_size(f, fitted)[0] <= room
    assert _fit_label("Gulf–Pittsburgh", f, 1000) == "Gulf–Pittsburgh"
    board = Board(load_title("1830"))
    _img(render_map(board, routes=[RouteDraw(stops, 550, [])], hexes=["F20", "G19", "E19"]))  # drawn, cut to fit
