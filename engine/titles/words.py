"""Lists said in words ("5 or 10 shares", "ann and bob tie"), each in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..messages import Join, M, Msg, Text


def _one(item: Any) -> Text:
    return item if isinstance(item, (str, Msg, Join)) else str(item)


def either(items: Sequence[Any]) -> Text:
    """"a or b" ("a, b or c")."""
    if len(items) == 1:
        return _one(items[0])
    return M("{items} or {last}", items=tuple(items[:-1]), last=items[-1])


def both(items: Sequence[Any]) -> Text:
    """"a and b" ("a, b and c")."""
    if len(items) == 1:
        return _one(items[0])
    return M("{items} and {last}", items=tuple(items[:-1]), last=items[-1])


def colour_word(colour: str) -> Text:
    """A tile colour as a word ("yellow"); an unknown colour as printed."""
    return {
        "yellow": M("yellow"), "green": M("green"), "brown": M("brown"), "gray": M("gray"), "grey": M("grey"),
        "white": M("white"), "red": M("red"),
    }.get(colour, colour)
