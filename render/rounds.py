"""Rounds as the pictures name them, in the reader's language.

The engine names a round by an id of its kind and number: "SR 3", "OR 3.2" (18EZ: "SDR 2"), and a history point
may be "start" or "now". These ids are data, not sentences, so they are read here by their parts. English keeps
the id as printed; Japanese readers get 株式ラウンド3 / 運営ラウンド3.2 in sheets and the short 株3 / 運3.2 on chart
axes, where the full words would leave room for a label every few rounds only. The placeholder names keep these
msgids apart from other catalogues' round texts (a msgid means one thing in every domain).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.messages import M, Msg, Text

# Short (axes) and full (sheets) words by the prefix of a round id; they get the round's number.
_SHORT: dict[str, Callable[[str], Msg]] = {
    "SR": lambda n: M("SR {stock_round}", stock_round=n),
    "SDR": lambda n: M("SDR {stock_round}", stock_round=n),
    "OR": lambda n: M("OR {operating_round}", operating_round=n),
}
_FULL: dict[str, Callable[[str], Msg]] = {
    "SR": lambda n: M("SR {stock_round_number}", stock_round_number=n),
    "SDR": lambda n: M("SDR {stock_round_number}", stock_round_number=n),
    "OR": lambda n: M("OR {operating_round_number}", operating_round_number=n),
}


def _words(name: str, table: dict[str, Callable[[str], Msg]]) -> Text:
    prefix, _, number = name.partition(" ")
    make = table.get(prefix)
    return make(number) if make is not None and number else name


def round_label(name: Text) -> Text:
    """The short name of a round for an axis ("SR 3" -> 株3)."""
    if not isinstance(name, str):
        return name
    if name == "start":
        return M("start")
    if name == "now":
        return M("now")
    return _words(name, _SHORT)


def round_name(name: Text) -> Text:
    """The full name of a round for a sheet ("OR 3.2" -> 運営ラウンド3.2)."""
    return _words(name, _FULL) if isinstance(name, str) else name
