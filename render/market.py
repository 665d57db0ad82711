"""The stock market picture: cells with prices, zones, par marks and corporation tokens.

One-row markets (18FL) stack tokens downwards in their cell, first token on
top; grid markets (18AL) lay a stack out left to right with the first token
in front. The operating order is spelled out under the track.
"""

from __future__ import annotations

import math

from PIL import Image, ImageColor, ImageDraw

from engine.market import Cell, Market
from engine.messages import Catalog, M, Msg, Text, render
from engine.titledata import TitleData

from .fonts import Draw, Font, font, text_size
from .png import encode_png

SS = 2
WIDTH = 1600
MARGIN = 16
HEADER = 40
WRAP_AFTER = 12  # a one-row market longer than this wraps onto several lines

PAGE = (246, 243, 236)
CELL = (255, 255, 255)
LINE = (120, 120, 120)
INK = (25, 25, 25)
PAR = (176, 32, 32)
# Zone fills by legend letter; letters not listed here leave the cell white.
ZONE_FILL = {"y": (255, 238, 140), "o": (255, 196, 120), "b": (214, 170, 125), "e": (240, 140, 140)}
ZONE_NAME = {"y": M("yellow zone"), "o": M("orange zone"), "b": M("brown zone"), "e": M("game ends")}
# Letters that get a tag in the cell, and what the tag means in the legend.
TAGS: dict[str, tuple[Msg, Msg]] = {"p": (M("PAR"), M("par value")), "e": (M("END"), M("game ends")),
                                    "m": (M("MAX"), M("5-share ceiling"))}


def _rgb(c: str) -> tuple[int, int, int]:
    v = ImageColor.getrgb(c)
    return (v[0], v[1], v[2])


def _fit(text: str, max_w: float, size: int) -> Font:
    while size > 6 and text_size(font(size, "condensed-bold"), text)[0] > max_w:
        size -= 1
    return font(size, "condensed-bold")



def _row_head(d: ImageDraw.ImageDraw, y: float, label: str, f: Font) -> tuple[float, float]:
    """A row of tokens under the chart starts with its label: where the tokens start and the row's middle."""
    x, yc = MARGIN * SS, (y + 16) * SS
    d.text((x, yc), label, font=f, fill=INK, anchor="lm")
    return x + text_size(f, label)[0] + 12 * SS, yc

def _token(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, sym: str, colors: tuple[str, str]) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_rgb(colors[0]), outline=(0, 0, 0), width=max(SS, round(r / 14)))
    d.text((cx, cy), sym, font=_fit(sym, r * 1.7, round(r * 0.8)), fill=_rgb(colors[1]), anchor="mm")


def render_market(title: TitleData, market: Market, corp_colors: dict[str, tuple[str, str]],
                  caption: Text = "", *, floated: set[str] | None = None, catalog: Catalog | None = None) -> bytes:
    """The market as PNG bytes: every cell, par cells marked, token stacks in order.

    The operating order lists the ``floated`` corporations only (default: every corporation on the market):
    one that has a price but has not floated does not operate. Texts are drawn in the language of ``catalog``
    (English without one).
    """

    def t(text: Text) -> str:
        return render(text, catalog)

    grid = market.grid
    one_row = len(grid) == 1
    if one_row:
        # a long track wraps like a line of text, so cells and tokens stay large on a phone
        n = len(grid[0])
        lines = 1 if n <= WRAP_AFTER else math.ceil(n / 10)
        per_line = math.ceil(n / lines)
        place = {(0, c): divmod(c, per_line) for c in range(n)}
        n_rows, n_cols = lines, per_line
    else:
        place = {(r, c): (r, c) for r, row in enumerate(grid) for c in range(len(row))}
        n_rows, n_cols = len(grid), max((len(r) for r in grid), default=1)
    gap = 14.0 if one_row and n_rows > 1 else 0.0  # between the lines of a wrapped track
    cw = (WIDTH - 2 * MARGIN) / n_cols
    token_d = min(cw * 0.7, 64.0 if one_row else 56.0)
    price_h = min(40.0, max(30.0, cw * 0.24))
    max_stack = max((len(s) for s in market.stacks.values()), default=0)
    tag_h = 20.0  # room under the tokens for PAR / END tags
    if one_row:
        ch = price_h + max(2, max_stack) * (token_d + 4) + tag_h + 6
    else:
        ch = max(price_h + token_d + tag_h + 6, cw * 0.8)

    legend_kinds = sorted({k for row in grid for c in row if c is not None for k in c.kinds if k in TAGS or
                           k in ZONE_FILL})
    order = market.operating_order(sorted(s for s in market.positions if floated is None or s in floated))
    # tokens not yet on the grid (18EZ: started railroads wait in the Par Values box until they float)
    waiting = sorted(getattr(market, "parked", {}))
    footer = 34 + (38 if order else 0) + (38 if waiting else 0)
    height = math.ceil(HEADER + n_rows * ch + (n_rows - 1) * gap + footer + MARGIN)

    im = Image.new("RGB", (WIDTH * SS, height * SS), PAGE)
    d = Draw(im)
    f_price = font(round(min(28, cw * 0.28)) * SS, "bold")
    f_tag = font(round(min(15, cw * 0.17)) * SS, "bold")
    d.text((MARGIN * SS, HEADER / 2 * SS), t(caption or M("{title} stock market", title=title.title)),
           font=font(22 * SS, "bold"), fill=INK, anchor="lm")

    def box(cell: Cell) -> tuple[float, float, float, float]:
        row, col = place[(cell.row, cell.col)]
        x0 = MARGIN + col * cw
        y0 = HEADER + row * (ch + gap)
        return (x0 * SS, y0 * SS, (x0 + cw) * SS, (y0 + ch) * SS)

    cells = [c for row in grid for c in row if c is not None]
    for cell in cells:
        fill = CELL
        for k in cell.kinds:
            fill = ZONE_FILL.get(k, fill)
        d.rectangle(box(cell), fill=fill, outline=LINE, width=SS)
    for cell in cells:
        x0, y0, x1, _ = box(cell)
        y1 = box(cell)[3]
        if cell.is_par:
            inset = 2 * SS
            d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=PAR, width=3 * SS)
        d.text(((x0 + x1) / 2, y0 + price_h / 2 * SS + 2 * SS), str(cell.price), font=f_price,
               fill=PAR if cell.is_par else INK, anchor="mm")
        tags = [t(TAGS[k][0]) for k in cell.kinds if k in TAGS]
        if tags:
            # inside a par cell's frame, not on it (a Japanese tag's glyphs reach lower than "PAR")
            lift = 5 * SS if cell.is_par else 0
            d.text(((x0 + x1) / 2, y1 - tag_h / 2 * SS - lift), " ".join(tags), font=f_tag,
                   fill=PAR if cell.is_par else INK, anchor="mm")

    r = token_d / 2 * SS
    for (row, col), stack in sorted(market.stacks.items()):
        cell = market.cell(row, col)
        if cell is None or not stack:
            continue
        x0, y0, x1, y1 = box(cell)
        cx = (x0 + x1) / 2
        if one_row:
            for i, sym in enumerate(stack):
                cy = y0 + (price_h + 6 + token_d / 2 + i * (token_d + 4)) * SS
                _token(d, cx, cy, r, sym, corp_colors.get(sym, ("#808080", "#ffffff")))
        else:
            # a grid cell is short: the stack goes in reading order (top of stack first), in one row
            # if the tokens stay large enough, else in two
            n = len(stack)
            room_w = (x1 - x0) / SS - 8
            room_h = ch - price_h - tag_h
            one = min(token_d, room_w / n)
            per_row = math.ceil(n / 2)
            two = min(token_d, room_w / per_row, room_h / 2)
            rows_n, per_row, dd = (1, n, one) if one >= two or n == 1 else (2, per_row, two)
            rr = (dd / 2 - 1) * SS
            top = y0 + (price_h + (room_h - rows_n * dd) / 2) * SS
            for i, sym in enumerate(stack):
                row_i, col_i = divmod(i, per_row)
                in_row = min(per_row, n - row_i * per_row)
                left = cx - (in_row - 1) * dd / 2 * SS
                _token(d, left + col_i * dd * SS, top + (row_i + 0.5) * dd * SS, rr, sym,
                       corp_colors.get(sym, ("#808080", "#ffffff")))

    y = HEADER + n_rows * ch + (n_rows - 1) * gap + 8
    f_small = font(18 * SS)
    f_small_b = font(18 * SS, "bold")
    if order:
        x, yc = _row_head(d, y, t(M("Operating order:")), f_small_b)
        for i, sym in enumerate(order):
            colors = corp_colors.get(sym, ("#808080", "#ffffff"))
            _token(d, x + 15 * SS, yc, 15 * SS, sym, colors)
            x += 34 * SS
            label = f"{title.fmt(market.price(sym))}" + ("" if i == len(order) - 1 else "  ›")
            d.text((x, yc), label, font=f_small, fill=INK, anchor="lm")
            x += text_size(f_small, label)[0] + 14 * SS
        y += 38
    if waiting:
        x, yc = _row_head(d, y, t(M("Par Values box (enters the index at the end of the round it floats in):")),
                          f_small_b)
        for sym in waiting:
            _token(d, x + 15 * SS, yc, 15 * SS, sym, corp_colors.get(sym, ("#808080", "#ffffff")))
            x += 34 * SS
            par = f"{title.fmt(market.price(sym))}"
            d.text((x, yc), par, font=f_small, fill=INK, anchor="lm")
            x += text_size(f_small, par)[0] + 18 * SS
        y += 38
    x = MARGIN * SS
    for k in legend_kinds:
        sw = 18 * SS
        yc = (y + 12) * SS
        if k in ZONE_FILL:
            d.rectangle((x, yc - sw / 2, x + sw, yc + sw / 2), fill=ZONE_FILL[k], outline=LINE, width=SS)
            label = t(ZONE_NAME[k])
        else:
            d.rectangle((x, yc - sw / 2, x + sw, yc + sw / 2), fill=CELL, outline=PAR if k == "p" else LINE,
                        width=2 * SS)
        if k in TAGS:
            label = t(M("{tag}: {meaning}", tag=TAGS[k][0], meaning=TAGS[k][1]))
        x += sw + 6 * SS
        d.text((x, yc), label, font=f_small, fill=INK, anchor="lm")
        x += text_size(f_small, label)[0] + 22 * SS

    return encode_png(im.reduce(SS))
