"""A game's whole state as bytes: compact snapshots to resume from, and fingerprints to compare.

``dumps`` pickles everything the game holds except what the title and its rules define (the title's data and
the rules object are referred to by name and taken from the registry again on ``loads``), then compresses it.
A snapshot is only a cache of the replay of the log: callers key it with ``FORMAT`` and their own notion of the
engine's version, and replay the log whenever it does not fit.

``fingerprint`` is a canonical text of the same state (sets sorted, objects by class and fields) so that two
games reached by different paths (a snapshot and a replay, an action and its rollback) compare equal exactly when
they hold the same values.
"""

from __future__ import annotations

import io
import pickle
import zlib
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .titledata import TitleData, load_title

if TYPE_CHECKING:
    from .game import Game
    from .titles.base import TitleRules

__all__ = ["FORMAT", "dumps", "fingerprint", "loads"]

FORMAT = 1  # bump when the layout of a snapshot changes
_EXCLUDED = ("data", "rules")


class _Pickler(pickle.Pickler):
    def __init__(self, buf: io.BytesIO, data: TitleData | None) -> None:
        super().__init__(buf, protocol=pickle.HIGHEST_PROTOCOL)
        self._data = data

    def persistent_id(self, obj: Any) -> str | None:  # noqa: D102 - pickle's hook
        return "data" if self._data is not None and obj is self._data else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, buf: io.BytesIO, data: TitleData) -> None:
        super().__init__(buf)
        self._data = data

    def persistent_load(self, pid: Any) -> Any:  # noqa: D102 - pickle's hook
        if pid != "data":
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self._data


def dumps(game: Game) -> bytes:
    """The state of ``game`` as compressed bytes (the title's data by name when it is the registry's)."""
    state = {k: v for k, v in game.__dict__.items() if k not in _EXCLUDED}
    shared = game.data is load_title(game.title_name)
    buf = io.BytesIO()
    _Pickler(buf, game.data if shared else None).dump((shared, None if shared else game.data, state))
    return zlib.compress(buf.getvalue(), 1)


def loads(blob: bytes, rules: TitleRules) -> Game:
    """The game ``dumps`` saved, playing by ``rules`` (which must be those it was saved with)."""
    from .game import Game

    data = load_title(rules.title)
    shared, own, state = _Unpickler(io.BytesIO(zlib.decompress(blob)), data).load()
    game = Game.__new__(Game)
    game.__dict__.update(state)
    game.__dict__["data"] = data if shared else own
    game.__dict__["rules"] = rules
    return game


# ---------------------------------------------------------------------------------------------- fingerprints
def fingerprint(game: Game) -> str:
    """A canonical text of everything the game holds (the title's data and rules excepted)."""
    seen: set[int] = set()
    return repr(_canon({k: v for k, v in game.__dict__.items() if k not in _EXCLUDED}, game.data, seen))


def _canon(o: Any, data: TitleData, seen: set[int]) -> Any:
    if o is None or isinstance(o, (str, int, float)):
        return o
    if o is data:
        return "<title data>"
    if isinstance(o, (list, tuple)):
        return (type(o).__name__, tuple(_canon(v, data, seen) for v in o))
    if isinstance(o, dict):
        return ("dict", tuple((_canon(k, data, seen), _canon(v, data, seen)) for k, v in o.items()))
    if isinstance(o, (set, frozenset)):
        return ("set", tuple(sorted((_canon(v, data, seen) for v in o), key=repr)))
    if isinstance(o, BaseModel):
        return (type(o).__qualname__, _canon(o.model_dump(), data, seen))
    if id(o) in seen:
        raise ValueError(f"the state loops through a {type(o).__qualname__}")
    if getattr(o, "__dict__", None) is None:
        return (type(o).__qualname__, repr(o))
    fields = o.__getstate__()  # what a copy or a pickle keeps (derived caches are left out)
    if not isinstance(fields, dict):
        return (type(o).__qualname__, repr(fields))
    seen.add(id(o))
    out = (type(o).__qualname__, tuple((k, _canon(v, data, seen)) for k, v in sorted(fields.items())))
    seen.discard(id(o))
    return out
