"""The words around the map: the header (title and note) and the legend of the routes."""

from __future__ import annotations

from PIL import ImageDraw

from engine.board import Board
from engine.messages import Catalog, M, render

from .fonts import font, text_size
from .mapdraw import RouteDraw
from .mapstyle import HEADER, MARGIN, OUTLINE, ROUTE_COLORS, SS, TRACK, _rgb


def _legend_rows(routes: list[RouteDraw], board: Board,
                 catalog: Catalog | None = None) -> list[tuple[str, str, tuple[int, int, int] | None]]:
    rows: list[tuple[str, str, tuple[int, int, int] | None]] = []
    for i, r in enumerate(routes):
        rows.append((render(r.label, catalog), board.title.fmt(r.revenue), _rgb(ROUTE_COLORS[i % len(ROUTE_COLORS)])))
    rows.append((render(M("Total"), catalog), board.title.fmt(sum(r.revenue for r in routes)), None))
    return rows


def _draw_legend(d: ImageDraw.ImageDraw, x: float, y: float, rows: list, w: float, row_h: float) -> None:
    f = font(round(row_h * 0.6 * SS))
    fb = font(round(row_h * 0.6 * SS), "bold")
    pad = 10
    d.rounded_rectangle(((x) * SS, y * SS, (x + w) * SS, (y + row_h * len(rows) + 2 * pad) * SS), radius=8 * SS,
                        fill=(255, 255, 255), outline=OUTLINE, width=SS)
    for k, (label, value, color) in enumerate(rows):
        cy = (y + pad + row_h * (k + 0.5)) * SS
        if color is not None:
            d.line([((x + pad) * SS, cy), ((x + pad + 34) * SS, cy)], fill=color, width=round(row_h * 0.45 * SS))
        fk = fb if color is None else f
        d.text(((x + pad + 44) * SS, cy), label, font=fk, fill=TRACK, anchor="lm")
        d.text(((x + w - pad) * SS, cy), value, font=fb, fill=TRACK, anchor="rm")


def _draw_header(d: ImageDraw.ImageDraw, width: int, title: str, note: str) -> None:
    """The title on the left and the note on the right; on a narrow picture (a crop) the note gives way and the
    title shrinks until it fits, so the two never overlap."""
    y = (MARGIN + HEADER / 2 - 4) * SS
    room = (width - 2 * MARGIN) * SS
    f_note = font(15 * SS)
    note_w = text_size(f_note, note)[0] + 16 * SS
    size = 22
    while size > 11 and text_size(font(size * SS, "bold"), title)[0] > room - note_w and \
            text_size(font(size * SS, "bold"), title)[0] > room:
        size -= 1
    title_w = text_size(font(size * SS, "bold"), title)[0]
    d.text((MARGIN * SS, y), title, font=font(size * SS, "bold"), fill=(25, 25, 25), anchor="lm")
    if title_w + note_w <= room:
        d.text(((width - MARGIN) * SS, y), note, font=f_note, fill=(60, 60, 60), anchor="rm")
