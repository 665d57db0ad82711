"""End of game: final standings beside a line chart of each player's net worth per round."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.messages import Catalog, M, Text, render
from engine.titledata import money

from .fonts import Draw, Font, font, text_size
from .png import encode_png
from .rounds import round_label

SS = 2
WIDTH, HEIGHT = 1600, 900
MARGIN = 24
TABLE_W = 470

PAGE = (250, 248, 243)
INK = (25, 25, 25)
GRID = (222, 218, 208)
AXIS = (110, 110, 110)
# Player colours: distinct hues that stay readable as thin lines on a light page.
PLAYER_COLORS = (
    (214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 127, 14), (148, 103, 189), (23, 190, 207),
    (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34),
)


def nice_ticks(lo: float, hi: float, target: int = 6) -> list[float]:
    """Round axis values covering [lo, hi]: steps of 1, 2 or 5 times a power of ten."""
    if hi <= lo:
        hi = lo + 1
    raw = max((hi - lo) / max(target - 1, 1), 1.0)  # money is whole: no fractional steps
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v < hi + step * 0.999:
        ticks.append(round(v, 6))
        v += step
    return ticks


def _fmt(currency: str, v: float) -> str:
    """Money in the title's currency format ("$%d" -> "$1,790")."""
    return money(currency, int(v))


def _spread(ys: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Move label positions apart by at least ``gap``, keeping order and staying within [lo, hi]."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    out = list(ys)
    prev = -math.inf
    for i in order:
        out[i] = max(out[i], prev + gap, lo)
        prev = out[i]
    over = prev - hi
    if over > 0:
        for i in order:
            out[i] -= over
        nxt = math.inf
        for i in reversed(order):
            out[i] = min(out[i], nxt - gap)
            nxt = out[i]
    return out


def player_colors(seats: list[str]) -> dict[str, tuple[int, int, int]]:
    """One colour per player for the whole game: by seat, so it does not change when the ranking does."""
    return {p: PLAYER_COLORS[i % len(PLAYER_COLORS)] for i, p in enumerate(seats)}


def _x_axis(d: ImageDraw.ImageDraw, rounds: list[Text], px: Callable[[int], float], bottom: float, f: Font,
            catalog: Catalog | None) -> None:
    """Ticks under the chart, labelled with the rounds; as many labels as fit without touching."""
    names = [render(round_label(r), catalog) for r in rounds]
    s = SS
    n = len(names)
    widest = max(text_size(f, t)[0] for t in names) + 10 * s
    gap = (px(1) - px(0)) if n > 1 else widest
    step = max(1, math.ceil(widest / gap)) if gap > 0 else 1
    for i in range(n):
        d.line([(px(i), bottom * s), (px(i), (bottom + (6 if i % step == 0 else 3)) * s)], fill=AXIS, width=s)
        if i % step == 0:
            # stock rounds darker: they are where the money moves between players
            stock = isinstance(rounds[i], str) and rounds[i].startswith("SR")
            d.text((px(i), (bottom + 18) * s), names[i], font=f, fill=INK if stock else AXIS, anchor="mm")


def render_standings(rows: list[tuple[str, int]], history: dict[str, list[int]], title_text: Text = "",
                     *, currency: str = "$%d", seats: list[str] | None = None,
                     rounds: list[Text] | None = None, catalog: Catalog | None = None,
                     bankrupt: frozenset[str] = frozenset()) -> bytes:
    """Standings (rows best first) and net worth after each round (history) as PNG bytes.

    Colours follow ``seats`` (default: the order of ``history``), so a player keeps one colour all game;
    ``rounds`` names each history point ("SR 3", "OR 3.2") for the x-axis. A player in ``bankrupt`` is out of
    the game: the name is greyed and struck through. Texts are drawn in the language of ``catalog`` (English
    without one).
    """
    players = [p for p, _ in rows] + sorted(p for p in history if p not in {q for q, _ in rows})
    colors = player_colors(list(seats) if seats is not None else list(history))
    for p in players:
        colors.setdefault(p, PLAYER_COLORS[len(colors) % len(PLAYER_COLORS)])

    im = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), PAGE)
    d = Draw(im)
    s = SS
    f_title = font(28 * s, "bold")
    d.text((MARGIN * s, (MARGIN + 14) * s), render(title_text or M("Final standings"), catalog), font=f_title,
           fill=INK, anchor="lm")

    # standings table
    f_row = font(24 * s)
    f_row_b = font(24 * s, "bold")
    row_h = 50
    y = MARGIN + 70
    d.text((MARGIN * s, y * s), render(M("Net worth"), catalog), font=font(18 * s), fill=AXIS, anchor="lm")
    y += 34
    rank = 0
    prev_value: int | None = None
    for i, (player, value) in enumerate(rows):
        if value != prev_value:
            rank = i + 1
            prev_value = value
        cy = (y + row_h / 2) * s
        if rank == 1:
            d.rounded_rectangle((MARGIN * s, y * s, (MARGIN + TABLE_W - 20) * s, (y + row_h - 4) * s),
                                radius=8 * s, fill=(255, 236, 170))
        fb = f_row_b if rank == 1 else f_row
        d.text(((MARGIN + 12) * s, cy), f"{rank}.", font=fb, fill=INK, anchor="lm")
        d.ellipse(((MARGIN + 56) * s, cy - 9 * s, (MARGIN + 74) * s, cy + 9 * s), fill=colors[player])
        name = player
        max_name = (TABLE_W - 250) * s
        while len(name) > 1 and text_size(fb, name)[0] > max_name:
            name = name[:-1]
        if name != player:
            name = name[:-1] + "…"
        out = player in bankrupt
        d.text(((MARGIN + 86) * s, cy), name, font=fb, fill=AXIS if out else INK, anchor="lm")
        if out:
            w = text_size(fb, name)[0]
            d.line([((MARGIN + 86) * s, cy), ((MARGIN + 86) * s + w, cy)], fill=AXIS, width=2 * s)
        d.text(((MARGIN + TABLE_W - 34) * s, cy), _fmt(currency, value), font=fb, fill=INK, anchor="rm")
        y += row_h

    # chart
    left, right = MARGIN + TABLE_W + 70, WIDTH - MARGIN - 150
    top, bottom = MARGIN + 70, HEIGHT - MARGIN - 60
    series = {p: history[p] for p in players if history.get(p)}
    n = max((len(v) for v in series.values()), default=0)
    values = [v for vs in series.values() for v in vs]
    lo = min(0, min(values, default=0))
    hi = max(values, default=1)
    ticks = nice_ticks(lo, hi)
    y_lo, y_hi = ticks[0], ticks[-1]
    f_axis = font(16 * s)

    def px(i: int) -> float:
        return (left + (right - left) * (i / (n - 1) if n > 1 else 0.5)) * s

    def py(v: float) -> float:
        return (bottom - (bottom - top) * (v - y_lo) / (y_hi - y_lo)) * s

    # points are recorded after each stock round and after the last operating round of each set
    subtitle = M("Net worth after each stock round and each set of operating rounds")
    d.text((left * s, (top - 30) * s), render(subtitle, catalog), font=font(18 * s), fill=AXIS, anchor="lm")
    for t in ticks:
        d.line([(left * s, py(t)), (right * s, py(t))], fill=GRID, width=s)
        d.text(((left - 10) * s, py(t)), _fmt(currency, t), font=f_axis, fill=AXIS, anchor="rm")
    if n:
        names: list[Text] = list(rounds or [])[:n] + [str(i + 1) for i in range(len(rounds or []), n)]
        _x_axis(d, names, px, bottom, f_axis, catalog)
    d.line([(left * s, top * s), (left * s, bottom * s), (right * s, bottom * s)], fill=AXIS, width=2 * s)
    axis_name = M("after round") if rounds else M("round")
    d.text((((left + right) / 2) * s, (bottom + 44) * s), render(axis_name, catalog), font=f_axis, fill=AXIS,
           anchor="mm")

    # the leader is drawn last so it stays on top where lines cross
    for p in reversed([p for p in players if p in series]):
        pts = [(px(i), py(v)) for i, v in enumerate(series[p])]
        if len(pts) > 1:
            d.line(pts, fill=colors[p], width=5 * s, joint="curve")
        for x, yv in pts:
            d.ellipse((x - 5 * s, yv - 5 * s, x + 5 * s, yv + 5 * s), fill=colors[p])

    ends = [p for p in players if p in series]
    f_end = font(17 * s, "bold")
    label_y = _spread([py(series[p][-1]) for p in ends], 22 * s, top * s, bottom * s)
    for p, ly in zip(ends, label_y, strict=True):
        last = (px(len(series[p]) - 1), py(series[p][-1]))
        x = (right + 14) * s
        d.line([(last[0] + 6 * s, last[1]), (x - 4 * s, ly)], fill=colors[p], width=s)
        name = p if len(p) <= 12 else p[:11] + "…"
        d.text((x, ly), name, font=f_end, fill=colors[p], anchor="lm")

    return encode_png(im.reduce(SS))
