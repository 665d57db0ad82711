"""Hex coordinates and neighbours.

Hex ids are the printed ones ("B23"). Internally a hex is a point in the
doubled coordinate system: on a pointy map x steps by 2 along a row, on a
flat map y steps by 2 down a column. Edge numbers follow the convention the
title data and 18xx.games records use (see the reference SCHEMA).
"""

from __future__ import annotations

import re
from functools import cache

_ID = re.compile(r"^([A-Z]+)(-?\d+)$")

# (dx, dy) in doubled coordinates for edges 0..5.
_POINTY = ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1))
_FLAT = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))


def _letters_to_int(s: str) -> int:
    n = 0
    for ch in s:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def _int_to_letters(n: int) -> str:
    if n < 0:
        return f"?{n}"  # beyond the first letter: no such hex (an id that matches none)
    n += 1
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def letters_are_x(layout: str, axes: dict[str, str] | None = None) -> bool:
    """Whether the letter of a hex id names its column: a title's ``axes`` decide, else the layout's usual way.

    Usual: pointy maps letter their rows, flat maps their columns (18FL). 18AL is flat with lettered rows.
    """
    if axes and "x" in axes:
        return axes["x"] == "letter"
    return layout != "pointy"


@cache
def coords(hex_id: str, layout: str, letters_x: bool | None = None) -> tuple[int, int]:
    """(x, y) in doubled coordinates for a hex id."""
    m = _ID.match(hex_id)
    if not m:
        raise ValueError(f"not a hex id: {hex_id!r}")
    letter, number = _letters_to_int(m.group(1)), int(m.group(2))
    if letters_x is None:
        letters_x = letters_are_x(layout)
    return (letter, number) if letters_x else (number, letter)


def hex_id(x: int, y: int, layout: str, letters_x: bool | None = None) -> str:
    if letters_x is None:
        letters_x = letters_are_x(layout)
    if letters_x:
        return f"{_int_to_letters(x)}{y}"
    return f"{_int_to_letters(y)}{x}"


@cache
def neighbour(hex_id_: str, edge: int, layout: str, letters_x: bool | None = None) -> str:
    x, y = coords(hex_id_, layout, letters_x)
    dx, dy = (_POINTY if layout == "pointy" else _FLAT)[edge % 6]
    return hex_id(x + dx, y + dy, layout, letters_x)


def opposite(edge: int) -> int:
    return (edge + 3) % 6
