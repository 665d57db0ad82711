"""What 18xx.games would make of a record we wrote of a game played here by the rulebook: the site ignores our
block (our rules profile, our decisions it has no action for) and replays the record by its own rules, which our
"18xx.games" rules profile models. The bot's `/game export` says so before a table takes such a record there."""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..messages import M, Text
from .errors import RecordError
from .reader import read_record
from .seats import META_KEY


def site_reading(record: dict[str, Any], game: Game) -> list[Text]:
    """What 18xx.games would make of ``record``, written by us of ``game``: the site ignores our block (our rules
    profile, our decisions it has no action for) and plays by its own rules, which our "18xx.games" profile models.
    Empty where the record replays so, without a repair, to the same holdings and money; else where it parts: the
    action it would refuse, the repairs, another end or other scores (of a finished record), other holdings."""
    site = {k: v for k, v in record.items() if k != META_KEY}
    try:
        imported = read_record(site, routes=False)
    except RecordError as e:
        return [e.msg]
    out = imported.divergences()
    if not out and _position(imported.game) != _position(game):
        # scores are not compared: what counts toward them is itself one of the profiles' differences
        out.append(M("by its rules the same moves leave other holdings or sums of money"))
    return out


def _position(game: Game) -> tuple[Any, ...]:
    """Who holds what: money, certificates, privates and trains (the seats in order: a record names seats)."""
    seat = {p.name: i for i, p in enumerate(game.players)}

    def who(owner: Any) -> str:
        return str(seat.get(owner, owner))

    return (tuple(p.cash for p in game.players), tuple(sorted((s, c.cash) for s, c in game.corps.items())),
            tuple(sorted((c.corp, c.index, who(c.owner)) for c in game.certs)),
            tuple(sorted((s, who(c.owner), c.closed) for s, c in game.companies.items())),
            tuple(sorted((t.id, who(t.owner)) for t in game.trains)), game.finished)
