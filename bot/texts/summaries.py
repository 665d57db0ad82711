"""Summaries posted as rounds end: a stock round's deals (repeated buys and sales said once) and prices, the
draft's result, a set of operating rounds with its events."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import Game
from engine.messages import MN, Join, M, Msg, Text

from .actions import share_source
from .form import bullets
from .views import round_name

# The engine's stock round lines as messages (their templates), and as the plain strings older records hold.
BOUGHT = "{player} bought {share} ({source})"
SOLD = "{player} sold {n}× {corp}"
_BOUGHT = re.compile(r"^(.+) bought (\S+) \((ipo|pool)\)$")
_SOLD = re.compile(r"^(.+) sold (\d+)× (\S+)$")


def _deal(line: Text) -> tuple[str, str, str, Any, int] | None:
    """A purchase or sale of a line: (kind, player, corporation, source, count); None for any other line."""
    if isinstance(line, Msg):
        if line.text == BOUGHT:
            return "buy", str(line.get("player")), str(line.get("share")), line.get("source"), 1
        if line.text == SOLD:
            return "sell", str(line.get("player")), str(line.get("corp")), None, int(line.get("n") or 1)
        return None
    if not isinstance(line, str):
        return None
    if m := _BOUGHT.match(line):
        return "buy", m[1], m[2], m[3], 1
    if m := _SOLD.match(line):
        return "sell", m[1], m[3], None, int(m[2])
    return None


def merge_purchases(lines: Sequence[Text]) -> list[Text]:
    """A stock round's lines with repeated buys and sales of one corporation by one player said once, at the
    first of them: "bob bought 3 shares of L&N from the IPO"."""
    counts: dict[tuple[str, ...], int] = {}
    sources: dict[tuple[str, ...], Any] = {}
    order: list[tuple[str, ...] | Text] = []
    for line in lines:
        deal = _deal(line)
        if deal is None:
            order.append(line)
            continue
        kind, player, corp, source, n = deal
        source = share_source(source) if source in ("ipo", "pool") else source
        key = (kind, player, corp, str(source))
        if key not in counts:
            order.append(key)
            sources[key] = source
        counts[key] = counts.get(key, 0) + n
    out: list[Text] = []
    for item in order:
        if not isinstance(item, tuple):
            out.append(item)
            continue
        n = counts[item]
        if item[0] == "buy":
            out.append(MN("{player} bought a share of {corp} from {source}",
                          "{player} bought {n} shares of {corp} from {source}",
                          player=item[1], corp=item[2], source=sources[item], n=n))
        else:
            out.append(MN("{player} sold a share of {corp}", "{player} sold {n} shares of {corp}",
                          player=item[1], corp=item[2], n=n))
    return out


def stock_round_summary(game: Game, entry: Mapping[str, Any]) -> Join:
    lines = merge_purchases(list(entry.get("summary") or []))
    prices = tuple(f"{s} {game.fmt(game.price(s))}" for s in game.corps if s in game.market.positions)
    parts: list[Text] = [M("📋 **End of {round}**", round=round_name(entry)),
                         bullets(lines) if lines else M("· Everyone passed.")]
    if prices:
        parts.append(M("Prices: {prices}", prices=prices))
    return Join(tuple(parts))


def draft_summary(game: Game) -> Msg:
    owned = tuple(f"{c.owner} {c.sym}" for c in game.companies.values() if c.owner)
    if not owned:
        return M("📋 **Draft over**: no private sold.")
    return M("📋 **Draft over**: {owned}.", owned=owned)


def _template(line: Text) -> str:
    """What a line says in English words, to sort it: a message's template, never its values."""
    return line.text if isinstance(line, Msg) else str(line)


def _is_event(line: Text) -> bool:
    said = _template(line)
    return said.startswith("Phase ") or " loses " in said or said.endswith(" closes.") or "hurricane" in said


TRAIN_BOUGHT = "{corp} bought a {train}-train ({source})"


def merge_train_runs(lines: Sequence[Text]) -> list[Text]:
    """An operating round's lines with a run of one corporation's purchases of one kind of train from one source
    said once: "PRR bought 4 2-trains (bank)"."""
    out: list[Text] = []
    run: list[Msg] = []

    def flush() -> None:
        if len(run) > 1:
            first = run[0]
            out.append(MN("{corp} bought {n} {train}-train ({source})", "{corp} bought {n} {train}-trains ({source})",
                          corp=first.get("corp"), train=first.get("train"), source=first.get("source"), n=len(run)))
        else:
            out.extend(run)
        run.clear()

    for line in lines:
        if isinstance(line, Msg) and line.text == TRAIN_BOUGHT and line.plural is None:
            if run and run[0] != line:
                flush()
            run.append(line)
            continue
        flush()
        out.append(line)
    flush()
    return out


def or_set_summary(game: Game, entries: Sequence[Mapping[str, Any]], since_message: int) -> Join:
    """The end of a set of operating rounds: each OR's revenues, dividends, price moves and trains, then phases."""
    names = tuple(round_name(e) for e in entries)
    parts: list[Text] = [M("📋 **End of the operating rounds** ({rounds})", rounds=names) if names
                         else M("📋 **End of the operating rounds**")]
    for e in entries:
        lines = merge_train_runs(e.get("summary") or [])
        if lines:
            parts.append(Join((M("__{round}__", round=round_name(e)), bullets(lines))))
    # the rounds' lines already tell what a new train did (rusting, privates closing): events add only the rest
    said = [line for e in entries for line in e.get("summary") or [] if isinstance(line, Msg)]  # values may be lists
    events = [t for _i, t in game.messages[since_message:] if _is_event(t) and t not in said]
    if events:
        parts.append(Join((M("__Events__"), bullets(events))))
    if len(parts) == 1:
        parts.append(M("· No corporation operated."))  # none had floated: only the privates paid
    return Join(tuple(parts))
