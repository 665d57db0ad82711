"""18FL revenue rules (rules 7.4, reference NOTES sections 7 and 8) on top of the generic route engine.

- Off-map areas pay their top ("yellow") value in phases 2-4 and their bottom ("brown") value from phase 5.
- Hotels: a town with the corporation's Hotel is worth +$10 (+$20 from phase 5) to that corporation's regular
  trains only.
- Port (POSC): +$20 to a route of the marker's corporation that visits a city on the marked hex. The marker is
  gone in phase 5, before any 3E exists, so whether a 3E would double it never arises; it is a route bonus.
- 3E: an express of distance 3 that ignores towns and Hotels and doubles its cities and off-maps; it needs two of
  them to score. All of this is the generic express behaviour, so only the train spec says it.
- Towns never count toward a train's number.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Board
from ..routes import GenericRules, Stop, TrainSpec
from ..titledata import TitleData

HOTEL_BONUS_EARLY = 10
HOTEL_BONUS_LATE = 20
PORT_BONUS = 20

# Jacksonville keeps city 0 = South and city 1 = North through #487 and #488 (NOTES 1.1).
_JAX = "B23"


@dataclass(frozen=True)
class FLRouteRules(GenericRules):
    """18FL stop values and bonuses; ``late`` is true from phase 5."""

    def stop_value(self, stop: Stop, corp: str, train: TrainSpec, board: Board) -> int:
        value = super().stop_value(stop, corp, train, board)
        if stop.kind == "town" and not train.express and board.hexes[stop.hex].hotels.get(stop.index) == corp:
            value += HOTEL_BONUS_LATE if self.late else HOTEL_BONUS_EARLY
        return value

    def route_bonus(self, stops: tuple[Stop, ...], corp: str, train: TrainSpec, board: Board) -> int:
        for stop in stops:
            if stop.kind == "city" and board.hexes[stop.hex].markers.get("port") == corp:
                return PORT_BONUS
        return 0

    def stop_name(self, stop: Stop, board: Board) -> str:
        if stop.hex == _JAX and stop.kind == "city" and len(board.layout(_JAX).cities) == 2:
            # as the route lines name them (``G18FL.stop_name``), with the hex as every stop here has it
            return f"Jacksonville {'S' if stop.index == 0 else 'N'} ({stop.hex})"
        return super().stop_name(stop, board)


def rules_for_phase(title: TitleData, phase: str) -> FLRouteRules:
    """The revenue rules in force in the named phase ("2" ... "6/3E")."""
    for p in title.phases:
        if p.name == phase:
            return FLRouteRules(late=p.late_values)
    raise KeyError(phase)


def train_spec(train_id: str, variant: str) -> TrainSpec:
    """The spec of an 18FL train: ``variant`` is "2", "3", "4", "5", "6" or "3E"."""
    if variant == "3E":
        return TrainSpec(train_id, "3E", 3, multiplier=2, express=True)
    if variant not in ("2", "3", "4", "5", "6"):
        raise KeyError(variant)
    return TrainSpec(train_id, variant, int(variant))

