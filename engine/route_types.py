"""What a route is and what a title decides about its revenue.

Trains (``TrainSpec``), stops, routes and route sets, the error naming the rule a submitted route breaks, and the
title hooks (``RouteHooks``; ``GenericRules`` is the default, titles subclass it). The search for the best routes is
``engine.routes`` (and ``route_network``, ``route_search``, ``route_sets``); checking submitted routes is
``engine.route_check``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .board import Board
from .messages import Msg
from .titledata import TitleData

# -- public data ------------------------------------------------------------------------------------------------


def _shared(cls: type) -> type:
    """Immutable values are shared, not copied, when a game state is snapshotted."""
    cls.__deepcopy__ = lambda self, memo: self  # type: ignore[attr-defined]
    cls.__copy__ = lambda self: self  # type: ignore[attr-defined]
    return cls


@_shared
@dataclass(frozen=True)
class TrainSpec:
    """How one train runs.

    ``distance`` counts cities and off-boards (and towns when ``towns_count``); None is unlimited. An
    ``express`` ignores towns entirely: they neither count nor score. ``multiplier`` applies to the value of
    cities and off-boards (18FL 3E and 18AL 4D double them).
    """

    id: str
    name: str
    distance: int | None
    multiplier: int = 1
    express: bool = False
    towns_count: bool = False

    def counted(self, majors: int, towns: int) -> int:
        return majors + (towns if self.towns_count and not self.express else 0)

    def fits(self, majors: int, towns: int) -> bool:
        return self.distance is None or self.counted(majors, towns) <= self.distance

    def scoring_stops(self, majors: int, towns: int) -> int:
        return majors if self.express else majors + towns


@_shared
@dataclass(frozen=True)
class Stop:
    """A city, town or off-board on a route.

    ``index`` counts within its kind on the hex (as in track endpoints); ``part`` is its node index on the hex
    (cities, then towns, then the off-board), which 18xx.games records use in route node ids.
    """

    kind: str
    hex: str
    index: int
    part: int | None = field(default=None, compare=False)

    def node_id(self) -> str:
        return f"{self.hex}-{self.index if self.part is None else self.part}"


@_shared
@dataclass(frozen=True)
class Route:
    train: str
    stops: tuple[Stop, ...]
    paths: tuple[tuple[str, int], ...]  # (hex, path index) of the segments used, in walk order
    revenue: int

    def node_ids(self) -> list[str]:
        return [s.node_id() for s in self.stops]


@_shared
@dataclass(frozen=True)
class RouteSet:
    """Routes and their total. ``proven`` is False when a search answered within its budget with the best set it had
    found, which may not be the maximum (``best_routes``)."""

    routes: tuple[Route, ...]
    revenue: int
    proven: bool = True


class RouteError(Exception):
    """A submitted route set breaks a rule; the message names it (``msg``, in no language yet). ``telling``: False
    where the refusal says little of what the player meant (a route through the wrong city of a two-city hex has no
    station there), so that a reader trying several readings of a written route reports another one's first."""

    def __init__(self, msg: Msg, telling: bool = True) -> None:
        self.msg = msg
        self.telling = telling
        super().__init__(str(msg))


# -- title hooks ------------------------------------------------------------------------------------------------


class RouteHooks(Protocol):
    """What a title decides about revenue. ``GenericRules`` is the default; titles subclass it."""

    def stop_value(self, stop: Stop, corp: str, train: TrainSpec, board: Board) -> int: ...

    def route_bonus(self, stops: tuple[Stop, ...], corp: str, train: TrainSpec, board: Board) -> int:
        """A bonus for the set of stops (their order must not matter): never negative, never smaller when stops are
        added (the route search bounds and prices walks on that)."""
        ...

    def location(self, hex_id: str) -> str | None: ...

    def stop_name(self, stop: Stop, board: Board) -> str: ...

    def prices_alike(self, a: TrainSpec, b: TrainSpec) -> bool: ...


def phase_value(value: int | Mapping[str, int], late: bool) -> int:
    """A printed value, or the early/late pair of an off-board ("yellow"/"brown")."""
    if isinstance(value, Mapping):
        return value["brown" if late else "yellow"]
    return value


@dataclass(frozen=True)
class GenericRules:
    """Printed values; off-boards (and any other two-valued stop) use their "brown" value when ``late``."""

    late: bool = False

    def stop_value(self, stop: Stop, corp: str, train: TrainSpec, board: Board) -> int:
        lay = board.layout(stop.hex)
        if stop.kind == "city":
            return phase_value(lay.cities[stop.index].revenue, self.late)
        if stop.kind == "town":
            return phase_value(lay.towns[stop.index].revenue, self.late)
        assert lay.offboard is not None
        return phase_value(lay.offboard.revenue, self.late)

    def route_bonus(self, stops: tuple[Stop, ...], corp: str, train: TrainSpec, board: Board) -> int:
        return 0

    def location(self, hex_id: str) -> str:
        return hex_id

    def stop_name(self, stop: Stop, board: Board) -> str:
        """A stop as players name it: by its hex, with the stop's number only where the hex has several."""
        name = board.title.hex(stop.hex).name
        lay = board.layout(stop.hex)
        where = stop.hex if len(lay.cities) + len(lay.towns) <= 1 else stop.node_id()
        return f"{name} ({where})" if name else where

    def prices_alike(self, a: TrainSpec, b: TrainSpec) -> bool:
        """Whether trains of kinds ``a`` and ``b`` earn the same on every route both may run (a 4 and a 6 do; a 4
        and a 3E do not). A title whose values or bonuses depend on anything else of a train overrides this."""
        return (a.multiplier, a.express, a.towns_count) == (b.multiplier, b.express, b.towns_count)


def train_spec(title: TitleData, train_id: str, name: str, *, express: bool = False,
               towns_count: bool = False) -> TrainSpec:
    """A TrainSpec from the title's train card or variant called ``name``."""
    card = title.train(name)
    distance: int | None = card.distance
    multiplier = 1
    for v in card.variants:
        if v.name == name:
            distance, multiplier = v.distance, v.multiplier
    if distance is not None and distance >= 99:  # "999" stands for unlimited (1830 D)
        distance = None
    return TrainSpec(train_id, name, distance, multiplier, express, towns_count)


def check_train_ids(trains: Sequence[TrainSpec]) -> None:
    ids = [t.id for t in trains]
    if len(set(ids)) != len(ids):
        raise ValueError(f"train ids must be unique: {ids}")
