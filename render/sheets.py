"""The views players ask for, as tables: tile supply, train roster, holdings, a corporation's revenue history.

Each view is built once as a ``Sheet`` (plain strings, read from the game, in the language of the catalog it is
built with) and then either drawn as a picture (``render_sheet``) or written as monospaced text (``sheet_text``),
so the picture and the text never disagree.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PIL import Image, ImageColor

from engine.messages import MN, Catalog, M, Text, render
from engine.state import IPO, POOL
from engine.tiles import distinct_rotations, keeps_track, tile_layout

from .fonts import Draw, font, text_size
from .mapstyle import HEX_FILL
from .png import encode_png
from .rounds import round_name

if TYPE_CHECKING:
    from engine.game import Game

RGB = tuple[int, int, int]
NEXT_COLOR = {"yellow": "green", "green": "brown", "brown": "gray"}
COLOR_WORDS = {"yellow": M("yellow"), "green": M("green"), "brown": M("brown"), "gray": M("gray")}


@dataclass
class Table:
    columns: list[str]
    rows: list[list[str]]
    swatches: list[RGB | None] = field(default_factory=list)  # a colour chip before each row's first cell
    bar: int | None = None  # column whose numbers are also drawn as bars (revenue history)
    heading: str = ""


@dataclass
class Sheet:
    title: str
    tables: list[Table]
    notes: list[str] = field(default_factory=list)


def _rgb(color: str) -> RGB:
    c = ImageColor.getrgb(color)
    return (c[0], c[1], c[2])


# -- building the sheets from a game -------------------------------------------------------------------------


def upgrades_of(game: Game, tile_id: str) -> list[str]:
    """Tiles of the next colour that can replace this one: same label and all of its track kept in a rotation."""
    tdef = game.data.tiles[tile_id]
    if tile_id in game.rules.permanent_tiles:
        return []
    nxt = NEXT_COLOR.get(tdef.color)
    old = tile_layout(tdef, 0)
    out = []
    for uid, udef in game.data.tiles.items():
        if udef.color != nxt or udef.label != tdef.label or len(udef.cities) != len(tdef.cities) \
                or len(udef.towns) != len(tdef.towns):
            continue
        if any(keeps_track(old, tile_layout(udef, r)) for r in distinct_rotations(udef)):
            out.append(uid)
    return out


def tile_supply(game: Game, catalog: Catalog | None = None) -> Sheet:
    """Every tile with the copies left and what it upgrades to, by colour; colours not yet allowed say so."""

    def t(text: Text) -> str:
        return render(text, catalog)

    allowed = set(game.phase.tiles)
    rows, swatches = [], []
    for color in ("yellow", "green", "brown", "gray"):
        ids = [tid for tid, d in game.data.tiles.items() if d.color == color]
        for tid in ids:
            d = game.data.tiles[tid]
            left = "∞" if d.unlimited else t(M("{left} of {count}", left=len(game.board.supply.get(tid, [])),
                                                count=d.count))
            ups = upgrades_of(game, tid)
            rows.append([f"#{tid}" + (f" {d.label}" if d.label else ""), left,
                         ", ".join(f"#{u}" for u in ups) or "–", t(M("yes") if color in allowed else M("later"))])
            swatches.append(HEX_FILL[color])
    table = Table([t(M("Tile")), t(M("Left")), t(M("Upgrades to")), t(M("Now"))], rows, swatches)
    colors = tuple(COLOR_WORDS.get(c, c) for c in game.phase.tiles)
    return Sheet(t(M("{title} · tile supply · phase {phase}", title=game.data.title, phase=game.phase.name)),
                 [table], [t(M("Phase {phase} allows {colors} tiles.", phase=game.phase.name, colors=colors))])


def train_roster(game: Game, catalog: Catalog | None = None) -> Sheet:
    """Each train type: price, copies left in the bank, in the pool, and when it rusts or goes."""

    def t(text: Text) -> str:
        return render(text, catalog)

    rows = []
    for td in game.data.trains:
        bank = sum(1 for t in game.trains if t.name == td.name and t.owner is None)
        pool = sum(1 for t in game.trains if t.name == td.name and t.owner == POOL)
        owned = sum(1 for t in game.trains if t.name == td.name and t.owner not in (None, POOL))
        fate = t(M("rusts with the first {train}", train=td.rusts_on) if td.rusts_on else
                 M("obsolete with the first {train}", train=td.obsolete_on) if td.obsolete_on else M("permanent"))
        names = "/".join([td.name] + [v.name for v in td.variants if v.name != td.name])
        rows.append([names, game.fmt(td.price), "∞" if td.unlimited else str(bank), str(pool), str(owned), fate])
    nxt = game.next_bank_trains()
    offers = tuple(sorted({f"{tr.name} ({game.fmt(tr.price)})" for tr in nxt}))
    notes = [t(M("Phase {phase}. Next from the bank: {trains}.", phase=game.phase.name, trains=offers or M("none")))]
    table = Table([t(M("Train")), t(M("Price")), t(M("Bank")), t(M("Pool")), t(M("Owned")), t(M("Rust"))], rows)
    return Sheet(t(M("{title} · trains", title=game.data.title)), [table], notes)


def _pct(game: Game, owner: str, corp: str) -> str:
    n = game.shares_held(owner, corp)
    return f"{game.percent_of(corp, n)}%" if n else ""


def holdings(game: Game, catalog: Catalog | None = None) -> Sheet:
    """Who holds what: players, IPO and pool by corporation, then each corporation's books (the 18xx spreadsheet)."""

    def t(text: Text) -> str:
        return render(text, catalog)

    started = [s for s, c in game.corps.items() if c.started]
    # a share a player holds of a corporation not started yet (an exchange of a private) has its column too
    corps = [s for s, c in game.corps.items() if c.started or any(game.shares_held(p.name, s) for p in game.players)]
    cols = ["", *corps, t(M("Cash")), t(M("Certs")), t(M("Worth")), t(M("Privates"))]
    rows: list[list[str]] = []
    # "P" marks the President's certificate wherever it lies: with the president, or in the pool while nobody
    # controls the corporation (18FL, after a bankruptcy)
    pres_holder = {s: game.certs_of(s)[0].owner for s in started}

    def mark(holder: str) -> list[str]:
        return [_pct(game, holder, s) + ("P" if pres_holder.get(s) == holder else "") for s in corps]

    def privates(owner: str) -> str:
        return " ".join(c.sym for c in game.companies.values() if c.owner == owner and not c.closed)

    for p in game.players:
        rows.append([p.name, *mark(p.name), game.fmt(p.cash), f"{game.cert_count(p.name)}/{game.cert_limit()}",
                     game.fmt(game.net_worth(p.name)), privates(p.name)])
    rows.append(["IPO", *mark(IPO), "", "", "", ""])
    rows.append([t(M("Pool")), *mark(POOL), "", "", "", ""])
    shares = Table(cols, rows, heading=t(M("Shares (P: president)")))

    last: dict[str, str] = {}
    for _rnd, sym, revenue, kind in game.revenues:
        last[sym] = game.fmt(revenue) + ("" if kind == "payout" or not revenue else " w")
    crows, swatches = [], []
    for s in started:
        c = game.corps[s]
        trains = " ".join(t.variant for t in game.trains_of(s)) or "–"
        state = t(M("no president: does not operate") if c.frozen else M("floated") if c.floated
                  else M("not floated"))
        crows.append([s, game.fmt(c.par_price or 0), game.fmt(game.price(s)), game.fmt(c.cash), trains,
                      str(c.tokens_left), privates(s) or "–", last.get(s, "–"), state])
        swatches.append(_rgb(game.data.corporation(s).color))
    books = Table([t(M("Corp")), t(M("Par")), t(M("Price")), t(M("Cash")), t(M("Trains")), t(M("Tokens left")),
                   t(M("Privates")), t(M("Last run")), t(M("Status"))], crows, swatches,
                  heading=t(M("Corporations (w: withheld)")))

    now = round_name(game.round.name) if game.round else ""
    notes = [t(M("Bank {cash} · phase {phase} · {round}", cash=game.fmt(game.bank), phase=game.phase.name,
                 round=now))]
    return Sheet(t(M("{title} · holdings", title=game.data.title)), [shares, books], notes)


def revenue_history(game: Game, corp: str, catalog: Catalog | None = None) -> Sheet:
    """A corporation's runs, one row per operating round it ran in, with bars to compare them."""

    def t(text: Text) -> str:
        return render(text, catalog)

    # an operating turn with nothing to run (no train, no route) earned nothing: not a run, and nothing withheld
    rows = [[t(round_name(rnd)), game.fmt(revenue), t(M("no income") if not revenue else M("paid")
                                                       if kind == "payout" else M("withheld"))]
            for rnd, sym, revenue, kind in game.revenues if sym == corp]
    runs = sum(1 for _r, sym, revenue, _k in game.revenues if sym == corp and revenue)
    total = sum(revenue for _r, sym, revenue, _k in game.revenues if sym == corp)
    table = Table([t(M("Round")), t(M("Revenue")), ""], rows, bar=1)
    notes = [t(MN("{n} run, {total} in all.", "{n} runs, {total} in all.", n=runs, total=game.fmt(total))
               if runs else M("{corp} has not run yet.", corp=corp))]
    return Sheet(t(M("{title} · {corp} revenue", title=game.data.title, corp=corp)), [table], notes)


# -- text -----------------------------------------------------------------------------------------------------


def _width(text: str) -> int:
    """Columns a text takes in a monospaced font: Japanese characters take two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def sheet_text(sheet: Sheet, limit: int = 1900) -> str:
    """The sheet as monospaced columns in a code block, cut to ``limit`` characters (Discord's message size)."""
    out = [f"**{sheet.title}**"]
    for t in sheet.tables:
        if t.heading:
            out.append(t.heading)
        widths = [max(_width(r[i]) for r in [t.columns, *t.rows]) for i in range(len(t.columns))]
        lines = ["  ".join(_pad(c, w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [t.columns, *t.rows]]
        out.append("```\n" + "\n".join(lines) + "\n```")
    out += sheet.notes
    text = "\n".join(out)
    if len(text) > limit:
        cut = text[: limit - 6]
        cut = cut[: cut.rfind("\n")] if "\n" in cut else cut  # at a row's end, not in the middle of one
        text = cut.rstrip() + ("\n…```" if cut.count("```") % 2 else "\n…")
    return text


# -- picture --------------------------------------------------------------------------------------------------

SS = 2
PAGE = (250, 248, 243)
INK = (25, 25, 25)
MUTED = (110, 110, 110)
STRIPE = (238, 234, 224)
LINE = (200, 194, 180)
BAR = (31, 119, 180)
ROW_H = 34
PAD = 12
MAX_W = 1600
BAR_GAP, BAR_LEN = 14, 250  # a bar starts after the widest number of its column, whatever the language's header


def _col_widths(t: Table, size: int) -> list[int]:
    f, fb = font(size), font(size, "bold")
    widths = []
    for i, c in enumerate(t.columns):
        w = max([text_size(fb, c)[0]] + [text_size(f, r[i])[0] for r in t.rows]) + 2 * PAD
        if i == 0 and t.swatches:
            w += 26
        if t.bar == i:
            w += BAR_GAP + BAR_LEN
        widths.append(w)
    return widths


def render_sheet(sheet: Sheet) -> bytes:
    """The sheet as a PNG: each table with a bold header, striped rows and colour chips; at most MAX_W wide."""
    size = 20
    widths = [_col_widths(t, size) for t in sheet.tables]
    width = max([sum(w) for w in widths] + [text_size(font(26, "bold"), sheet.title)[0]] + [700]) + 2 * PAD
    if width > MAX_W:  # too wide: smaller type rather than a picture a phone shrinks to nothing
        size = max(12, int(size * MAX_W / width))
        widths = [_col_widths(t, size) for t in sheet.tables]
        width = min(MAX_W, max(sum(w) for w in widths) + 2 * PAD)
    row_h = round(ROW_H * size / 20)
    height = 56 + sum((row_h if t.heading else 0) + row_h * (len(t.rows) + 1) + 16 for t in sheet.tables)
    height += 30 * len(sheet.notes) + PAD
    s = SS
    im = Image.new("RGB", (width * s, height * s), PAGE)
    d = Draw(im)
    d.text((PAD * s, 28 * s), sheet.title, font=font(26 * s, "bold"), fill=INK, anchor="lm")
    f, fb = font(size * s), font(size * s, "bold")
    y = 56
    for t, ws in zip(sheet.tables, widths, strict=True):
        if t.heading:
            d.text((PAD * s, (y + row_h / 2) * s), t.heading, font=font(round(size * 0.85) * s, "bold"), fill=MUTED,
                   anchor="lm")
            y += row_h
        bar_max = max((_number(r[t.bar]) for r in t.rows), default=0) if t.bar is not None else 0
        bar_from = max((text_size(font(size), r[t.bar])[0] for r in t.rows), default=0) + BAR_GAP \
            if t.bar is not None else 0
        for k, row in enumerate([t.columns, *t.rows]):
            top = y + k * row_h
            if k > 0 and k % 2 == 0:
                d.rectangle((PAD * s, top * s, (PAD + sum(ws)) * s, (top + row_h) * s), fill=STRIPE)
            x = PAD
            for i, (cell, w) in enumerate(zip(row, ws, strict=True)):
                cx = x + PAD
                if i == 0 and t.swatches and k > 0 and t.swatches[k - 1] is not None:
                    sw = t.swatches[k - 1]
                    d.rounded_rectangle((cx * s, (top + 7) * s, (cx + 18) * s, (top + row_h - 7) * s), radius=3 * s,
                                        fill=sw, outline=(90, 90, 90), width=s)
                    cx += 26
                if i == t.bar and k > 0 and bar_max > 0:
                    n = _number(cell)
                    d.rectangle(((cx + bar_from) * s, (top + 8) * s, (cx + bar_from + BAR_LEN * n / bar_max) * s,
                                 (top + row_h - 8) * s), fill=BAR)
                d.text((cx * s, (top + row_h / 2) * s), cell, font=fb if k == 0 or i == 0 else f, fill=INK,
                       anchor="lm")
                x += w
            if k == 0:
                d.line((PAD * s, (top + row_h) * s, (PAD + sum(ws)) * s, (top + row_h) * s), fill=LINE, width=2 * s)
        y += row_h * (len(t.rows) + 1) + 16
    for note in sheet.notes:
        d.text((PAD * s, (y + 15) * s), note, font=font(17 * s), fill=MUTED, anchor="lm")
        y += 30
    return encode_png(im.reduce(SS))


def _number(text: str) -> int:
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits else 0
