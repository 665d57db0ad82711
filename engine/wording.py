"""Words for the things of a game in the reader's language: tile colours, counted trains, and the joints of a
sentence built from parts ("a and b", "a or b", "a; b"), each a `Msg` so that Japanese joins them its own way."""

from __future__ import annotations

from collections.abc import Sequence

from .messages import M, Msg, Text

__all__ = ["and_list", "clauses", "color_word", "or_list", "quoted", "trains_text"]


# count words as a Msg each: "two 2-trains" reads 「2列車2両」 in Japanese
_COUNT_WORDS = (M("no"), M("one"), M("two"), M("three"), M("four"), M("five"), M("six"), M("seven"), M("eight"),
                M("nine"), M("ten"))


def trains_text(n: int, variant: str) -> Msg:
    """``n`` trains of a kind in words: "a 2-train", "an 8-train", "two 3-trains"."""
    if n == 1:
        return M("an {train}-train", train=variant) if variant[0] == "8" else M("a {train}-train", train=variant)
    count = _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)
    return M("{count} {train}-trains", count=count, train=variant)


def quoted(value: object) -> Msg:
    """Something a player typed, quoted as the reader's language quotes ('XYZ' in English, 「XYZ」 in Japanese)."""
    return M("'{text}'", text=str(value))


def and_list(parts: Sequence[Text]) -> Text:
    """Parts said as one: "a and b and c"."""
    out = parts[0]
    for p in parts[1:]:
        out = M("{first} and {second}", first=out, second=p)
    return out


def clauses(parts: Sequence[Text]) -> Text:
    """Clauses of one sentence kept apart with semicolons (「；」 in Japanese)."""
    out = parts[0]
    for p in parts[1:]:
        out = M("{first}; {second}", first=out, second=p)
    return out


def or_list(parts: Sequence[Text]) -> Text:
    """Choices said as one: "a or b or c"."""
    out = parts[0]
    for p in parts[1:]:
        out = M("{first} or {second}", first=out, second=p)
    return out



_COLORS = {"yellow": M("yellow"), "green": M("green"), "brown": M("brown"), "gray": M("gray"),
           "grey": M("grey"), "white": M("white"), "red": M("red"), "blue": M("blue")}
_COLORS_CAPITAL = {"yellow": M("Yellow"), "green": M("Green"), "brown": M("Brown"), "gray": M("Gray"),
                   "grey": M("Grey"), "white": M("White"), "red": M("Red"), "blue": M("Blue")}


def color_word(color: str, *, capital: bool = False) -> Text:
    """A tile colour as a word of the reader's language ("yellow" / 黄)."""
    return (_COLORS_CAPITAL if capital else _COLORS).get(color, color.capitalize() if capital else color)
