"""Picture jobs for the views a table asks for: what the map shows at a track step, a zoomed region, the rotation
picture, and the sheets (tiles, trains, holdings, revenue).

Each job reads the game now and returns a function that renders later from a snapshot (the service runs it in a
worker thread), so nothing here holds on to the live game. ``lang`` is the language the picture speaks (the game's
language for a channel post, the reader's for a picture only they see); titles and captions passed in may be
messages (`engine.messages.Msg`) and are drawn in that language too. The texts of this module belong to the
``render`` catalogue.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.i18n import DEFAULT, catalog, tr
from engine import track
from engine.board import Board
from engine.describe import rotation_words
from engine.game import Game
from engine.messages import M, Msg, Text
from engine.wording import quoted

Job = Callable[[], bytes]
SHEETS = ("tiles", "trains", "holdings", "revenue")


class ViewError(ValueError):
    """A view cannot be shown as asked (an unknown place, a missing corporation). ``msg`` is the message in no
    language yet; ``str(error)`` is its English."""

    def __init__(self, msg: Msg) -> None:
        self.msg = msg
        super().__init__(str(msg))


def board_snapshot(game: Game) -> Any:
    board = game.board
    memo: dict[int, Any] = {id(board.title): board.title}
    return copy.deepcopy(board, memo)


def board_signature(game: Game) -> int:
    """What a map picture of the board shows (tiles, tokens, hotels, markers, phase values), as one number."""
    parts = [(h, st.tile, st.rotation, tuple(map(tuple, st.tokens)), tuple(st.extra_tokens),
              tuple(sorted(st.hotels.items())), tuple(sorted(st.markers.items())))
             for h, st in game.board.hexes.items() if st.tile is not None or any(any(t) for t in st.tokens)
             or st.extra_tokens or st.hotels or st.markers]
    return hash((tuple(parts), game.rules.late_values(game), tuple(sorted(kept_homes(game)))))


def corp_colors(game: Game) -> dict[str, tuple[str, str]]:
    return {c.sym: (c.color, c.text_color) for c in game.data.corporations}


def kept_homes(game: Game) -> dict[str, tuple[str, int | None]]:
    """Home circles still kept for corporations that have not operated: drawn alike in every title, whether the
    title puts the token down at the start (18FL) or when the corporation first operates (18AL)."""
    home = getattr(game.rules, "home", None)
    operating = getattr(game.round, "corp", None)
    out = {}
    for cd in game.data.corporations:
        corp = game.corps.get(cd.sym)
        if corp is None or corp.operated or cd.sym == operating:
            continue
        out[cd.sym] = home(game, cd.sym) if callable(home) else \
            (cd.home, None if cd.home_city is None else game.board.current_city(cd.home, cd.home_city))
    return out


def buildable_hexes(game: Game, legal: Sequence[Mapping[str, Any]]) -> set[str]:
    """Hexes where the operating corporation (or its private) may lay a tile now, from the legal moves."""
    if getattr(game.round, "step", None) != "track":
        return set()
    return {str(a["hex"]) for a in legal if a.get("type") == "lay_tile"}


def find_region(game: Game, text: str) -> str:
    """The hex a `region:` option names: a hex id or a place name (any case, a unique prefix will do)."""
    want = text.strip()
    hex_id = game.data.canonical_hex(want.upper())  # a hex as the rules print it in a second numbering too
    if game.data.has_hex(hex_id):
        return hex_id
    named = [(h.name or "", h.id) for h in game.data.hexes if h.name]
    exact = [i for n, i in named if n.lower() == want.lower()]
    if exact:
        return exact[0]
    prefix = sorted({i for n, i in named if n.lower().startswith(want.lower())})
    if len(prefix) == 1:
        return prefix[0]
    some = tuple(sorted({n for n, _ in named})[:12])  # a place on several hexes (an off-board) once
    raise ViewError(M("There is no hex or place called {name} on the {title} map. Use a hex id such as {hex} or a "
                      "place: {places} …", name=quoted(want), title=game.data.title, hex=game.data.hexes[0].id,
                      places=some))


def region_choices(game: Game, lang: str = DEFAULT) -> list[tuple[str, str]]:
    """(label, value) for the `region:` option: 'all', then every named place."""
    out = [(f"{h.name} ({h.id})", h.id) for h in sorted(game.data.hexes, key=lambda h: h.name or "") if h.name]
    return [(tr(M("The whole map"), lang), "all"), *out]


def map_job(game: Game, title: Text, *, routes: list[Any] | None = None, highlight: set[str] | None = None,
            region: str | None = None, crop: bool = False, lang: str = DEFAULT) -> Job:
    """The map: whole, cropped to where the action is (``crop``), or around one hex (``region``)."""
    from render.mapimg import render_map

    board = board_snapshot(game)
    late = game.rules.late_values(game)
    colors = corp_colors(game)
    homes = kept_homes(game)
    hexes = view_hexes(game, board, region=region, crop=crop, highlight=highlight)

    def render() -> bytes:
        return render_map(board, late=late, routes=routes, corp_colors=colors, title_text=title, hexes=hexes,
                          highlight=highlight, homes=homes, catalog=catalog(lang))

    return render


def view_hexes(game: Game, board: Board, *, region: str | None = None, crop: bool = False,
               highlight: set[str] | None = None) -> list[str] | None:
    """The hexes a map picture shows: around one hex (``region``; three steps, or fewer where that would show
    more than 40% of a small map), where the action is (``crop``), or all (None)."""
    from render.mapimg import focus_hexes, region_hexes

    if region:
        return region_hexes(board, region, 3, at_most=0.4)
    if crop:
        corp = getattr(game.round, "corp", None)
        around = set(highlight or ()) | ({h for h, _ in board.stations(corp)} if corp else set())
        return focus_hexes(board, around)
    return None


def rotation_job(game: Game, hex_id: str, tile: str, rotations: Sequence[int], title: Text = "",
                 lang: str = DEFAULT) -> Job:
    """The hex with the tile in each legal rotation, numbered and captioned with where the track goes."""
    from render.mapimg import render_rotations

    board = board_snapshot(game)
    choices = [(r, rotation_words(board, hex_id, tile, r), track.city_map(game, hex_id, tile, r))
               for r in rotations]
    colors = corp_colors(game)
    late = game.rules.late_values(game)

    def render() -> bytes:
        return render_rotations(board, hex_id, tile, choices, corp_colors=colors, late=late, title_text=title,
                                catalog=catalog(lang))

    return render


def rotation_lines(game: Game, hex_id: str, tile: str, rotations: Sequence[int]) -> list[Text]:
    """Each rotation in words, as messages (the reply renders them in its reader's language)."""
    return [rotation_words(game.board, hex_id, tile, r) for r in rotations]


def sheet_job(game: Game, name: str, corp: str | None = None, lang: str = DEFAULT) -> tuple[str, Job]:
    """A sheet view as (text, picture job), both in ``lang``: tiles, trains, holdings or a corporation's revenue."""
    from render import sheets

    cat = catalog(lang)
    if name == "tiles":
        sheet = sheets.tile_supply(game, cat)
    elif name == "trains":
        sheet = sheets.train_roster(game, cat)
    elif name == "holdings":
        sheet = sheets.holdings(game, cat)
    elif name == "revenue":
        if not corp or corp not in game.corps:
            raise ViewError(M("Which corporation? One of {corps}.", corps=tuple(game.corps)))
        sheet = sheets.revenue_history(game, corp, cat)
    else:
        raise ViewError(M("Unknown view {name}.", name=name))

    def render() -> bytes:
        return sheets.render_sheet(sheet)

    return sheets.sheet_text(sheet), render


def market_job(game: Game, caption: Text, lang: str = DEFAULT) -> Job:
    from render.market import render_market

    market = copy.deepcopy(game.market)
    data = game.data
    colors = corp_colors(game)
    floated = {s for s, c in game.corps.items() if c.floated}

    def render() -> bytes:
        return render_market(data, market, colors, caption=caption, floated=floated, catalog=catalog(lang))

    return render


def standings_job(game: Game, title: Text, lang: str = DEFAULT) -> Job:
    """Net worth over the game: one colour per seat, the x-axis naming the rounds, ending with now."""
    from render.charts import render_standings

    rows = sorted(game.result().items(), key=lambda kv: -kv[1])
    names = [p.name for p in game.players]
    history = {n: [h.get(n, 0) for h in game.history] for n in names}
    rounds: list[Text] = list(game.history_rounds)
    if not game.finished:  # the chart ends with the current worth; a finished game recorded it already
        for n in names:
            history[n].append(game.net_worth(n))
        rounds.append("now")
    currency = game.data.currency
    bankrupt = frozenset(p.name for p in game.players if p.bankrupt)

    def render() -> bytes:
        return render_standings(rows, history, title_text=title, currency=currency, seats=names, rounds=rounds,
                                catalog=catalog(lang), bankrupt=bankrupt)

    return render
