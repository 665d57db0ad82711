"""Route-search positions of real games: every ``run_routes`` point of the reference records and every route run of
seeded self-played games, captured as (board, corporation, trains, revenue rules) while the games are played.

Positions are captured by wrapping ``best_routes`` where the engine calls it (the operating round, the record reader
and title hooks such as 18AL's chit placement), so the games themselves are played exactly as always. A capture is
kept as a pickle under ``.cache/route-positions/`` keyed on the engine's source, so later runs of the benchmarks and
the slow tests reuse it until the engine changes.

Used by ``benchmarks/routes.py`` (and ``routes_18al.py``) and the slow route soak in ``tests/test_routes.py``.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import pickle
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import routes as routes_mod  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.errors import GameError  # noqa: E402
from engine.routes import TrainSpec  # noqa: E402

RECORDS = ROOT.parent / "shared" / "reference" / "records"
CACHE = ROOT / ".cache" / "route-positions"
# Players per title for self-play: every count the title allows (30+ games per title split over them).
GAMES_PER_TITLE = 30


@dataclass
class Position:
    source: str  # "record 18FL-4p-bankrupt.json" or "selfplay 18FL 3p seed 5"
    title: str
    board: Board
    corp: str
    trains: list[TrainSpec]
    rules: Any

    def label(self) -> str:
        return f"{self.source}: {self.corp} {'+'.join(t.name for t in self.trains)}"


_CALL_SITES = ("engine.rounds.operating_round", "engine.records.reader")


@contextlib.contextmanager
def capturing(out: list[Position], source: Callable[[], str], title: str) -> Iterator[None]:
    """While active, every best_routes call the engine makes appends its position to ``out``."""
    real = routes_mod.best_routes

    def spy(board: Board, corp: str, trains: Any, rules: Any, **kw: Any) -> Any:
        if trains:
            # the title's data is shared, as in a game, not copied with the board
            out.append(Position(source(), title, copy.deepcopy(board, {id(board.title): board.title}), corp,
                                list(trains), rules))
        return real(board, corp, trains, rules, **kw)

    modules = [sys.modules[m] for m in _CALL_SITES if m in sys.modules]
    saved = [(m, m.best_routes) for m in modules]  # type: ignore[attr-defined]
    routes_mod.best_routes = spy  # type: ignore[assignment]
    for m in modules:
        m.best_routes = spy  # type: ignore[attr-defined]
    try:
        yield
    finally:
        routes_mod.best_routes = real  # type: ignore[assignment]
        for m, f in saved:
            m.best_routes = f  # type: ignore[attr-defined]


def titles() -> tuple[str, ...]:
    from engine.titles import TITLES

    return TITLES


def record_positions() -> list[Position]:
    """Every run_routes point of every reference record whose title the engine knows."""
    import engine.records.reader  # noqa: F401  (the call site must be loaded to be wrapped)
    from engine.records import read_record

    out: list[Position] = []
    if not RECORDS.exists():
        return out
    for path in sorted(RECORDS.glob("*.json")):
        data = json.loads(path.read_text())
        title = str(data.get("title", ""))
        if title not in titles():
            continue
        with capturing(out, lambda p=path: f"record {p.name}", title):
            try:
                read_record(data, routes=True, optimum=True)
            except GameError as e:  # a record the importer cannot finish yet still gives the points before
                print(f"{path.name}: replay stops early ({e}); its earlier route points are kept", file=sys.stderr)
    return out


def _player_counts(title: str) -> list[int]:
    from engine.titledata import load_title

    d = load_title(title)
    return list(range(d.min_players, d.max_players + 1))


def selfplay_positions(title: str, games: int = GAMES_PER_TITLE, first_seed: int = 1) -> list[Position]:
    """Every route run of ``games`` seeded self-played games of ``title``, spread over its player counts."""
    import engine.rounds.operating_round  # noqa: F401
    from engine.selfplay import selfplay

    out: list[Position] = []
    counts = _player_counts(title)
    for g in range(games):
        players, seed = counts[g % len(counts)], first_seed + g
        with capturing(out, lambda p=players, s=seed: f"selfplay {title} {p}p seed {s}", title):
            selfplay(title, players, seed, check=False)
    return out


def _engine_key() -> str:
    h = hashlib.sha256()
    # the route search itself is left out: it changes no game's course, only how fast the maximum is found
    for p in sorted((ROOT / "engine").rglob("*")):
        if p.suffix in (".py", ".json") and p.name not in ("routes.py", "route_search.py", "route_walks.py",
                                                             "route_sets.py"):
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


class _Unpickler(pickle.Unpickler):
    """Reads our own cache files, also those written while this module ran as a script (``__main__.Position``)."""

    def find_class(self, module: str, name: str) -> Any:
        if name == "Position":
            return Position
        return super().find_class(module, name)


def cached(name: str, make: Callable[[], list[Position]]) -> list[Position]:
    """``make()``'s positions, from the cache when the engine's source is unchanged."""
    path = CACHE / f"{name}-{_engine_key()}.pickle"
    if path.exists():
        with path.open("rb") as f:
            return _Unpickler(f).load()
    positions = make()
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(positions, f)
    return positions


def all_positions(games: int = GAMES_PER_TITLE, only: list[str] | None = None) -> dict[str, list[Position]]:
    """Record points and self-play runs per title (every title the engine knows, or ``only`` these)."""
    chosen = [t for t in titles() if only is None or t in only]
    out: dict[str, list[Position]] = {t: [] for t in chosen}
    for p in cached("records", record_positions):
        if p.title in out:
            out[p.title].append(p)
    for title in chosen:
        runs = cached(f"selfplay-{title}-{games}", lambda t=title: selfplay_positions(t, games))
        out.setdefault(title, []).extend(runs)
    return out


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES_PER_TITLE
    for title, ps in all_positions(n).items():
        print(title, len(ps), "positions")
