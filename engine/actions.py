"""Actions: the decisions players make, in the vocabulary of 18xx.games records.

Every action names its ``entity``: a player name, a corporation sym or a private
company sym (a private's owner using its bonus). Actions hold decisions only;
everything that follows from them (floating, phase changes, rusting, closing
privates) the engine derives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .messages import M, Msg
from .wording import quoted


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    entity: str


class Bid(_Action):
    """18FL: a sealed bid of 0/5/10 (no company), or the pick of a private (company set)."""

    type: Literal["bid"] = "bid"
    price: int = 0
    company: str | None = None


class Pass(_Action):
    type: Literal["pass"] = "pass"


class Par(_Action):
    type: Literal["par"] = "par"
    corporation: str
    price: int
    size: int | None = None  # 5 or 10 where the phase lets the president choose


class BuyShares(_Action):
    type: Literal["buy_shares"] = "buy_shares"
    corporation: str
    source: Literal["ipo", "pool"] = "ipo"
    president: bool = False  # buy the President's certificate from the pool (after a bankruptcy)


class SellShares(_Action):
    type: Literal["sell_shares"] = "sell_shares"
    corporation: str
    count: int = 1  # number of shares (the President's certificate is 2)


class LayTile(_Action):
    type: Literal["lay_tile"] = "lay_tile"
    hex: str
    tile: str
    rotation: int


class PlaceToken(_Action):
    type: Literal["place_token"] = "place_token"
    hex: str
    city: int = 0
    corporation: str | None = None  # when a private places it for a corporation (18FL TC)


class HexToken(_Action):
    """18FL: a Hotel in a town."""

    type: Literal["hex_token"] = "hex_token"
    hex: str
    town: int = 0


class Assign(_Action):
    """A private's marker on a hex (18FL Port)."""

    type: Literal["assign"] = "assign"
    target: str


class NameTrain(_Action):
    """18AL: put one of the Memphis & Charleston's name chits on a train of the corporation holding them, moving it
    from another train; ``train`` None takes it off (back on the charter). The entity is the private ("M&C", as
    for the other private abilities) or the corporation holding the chits."""

    type: Literal["name_train"] = "name_train"
    chit: str
    train: str | None = None


class RouteSpec(BaseModel):
    """One train's route by its stops. A run the engine accepted is logged with its revenue and track (``paths``:
    (hex, path index) in walk order), so that replaying the log does not walk it again."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    train: str
    nodes: list[str]
    revenue: int | None = None
    paths: list[tuple[str, int]] | None = None


class RunRoutes(_Action):
    """Run trains. ``routes`` None means: run the engine's optimal routes."""

    type: Literal["run_routes"] = "run_routes"
    routes: list[RouteSpec] | None = None


class Dividend(_Action):
    type: Literal["dividend"] = "dividend"
    kind: Literal["payout", "withhold"]


class BuyTrain(_Action):
    type: Literal["buy_train"] = "buy_train"
    train: str  # train id "3-1", or a bank train type "3" for the next one
    price: int | None = None  # required when buying from another corporation
    variant: str | None = None
    exchange: str | None = None  # id of the corporation's own train handed in (1830 Diesel trade-in)


class DiscardTrain(_Action):
    type: Literal["discard_train"] = "discard_train"
    train: str


class BuyCompany(_Action):
    """Buy a private company: from the bank, or from its owner at an agreed ``price`` (a corporation, 18AL)."""

    type: Literal["buy_company"] = "buy_company"
    company: str
    price: int


class Convert(_Action):
    type: Literal["convert"] = "convert"


class Bankrupt(_Action):
    type: Literal["bankrupt"] = "bankrupt"


class EndGame(_Action):
    type: Literal["end_game"] = "end_game"


Action = Annotated[
    Bid
    | Pass
    | Par
    | BuyShares
    | SellShares
    | LayTile
    | PlaceToken
    | HexToken
    | Assign
    | NameTrain
    | RunRoutes
    | Dividend
    | BuyTrain
    | DiscardTrain
    | BuyCompany
    | Convert
    | Bankrupt
    | EndGame,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: dict[str, Any] | Action) -> Action:
    if isinstance(data, BaseModel):
        return data  # type: ignore[return-value]
    return _ADAPTER.validate_python(data)


def shape_problems(error: ValidationError, action: Mapping[str, Any]) -> tuple[Msg, ...]:
    """What a validation error says of an action, in a player's words (the models would say it in a library's)."""
    problems = []
    for err in error.errors()[:3]:
        name = str(err["loc"][-1]) if err.get("loc") else ""
        if not name or name == str(action.get("type")):
            problems.append(M("there is no kind of move called {kind}", kind=quoted(str(action.get("type"))[:30])))
        elif err.get("type") == "missing":
            problems.append(M("{field} is missing", field=name))
        else:
            problems.append(M("{field} has the wrong kind of value ({value})", field=name,
                              value=quoted(str(action.get(name, ""))[:30])))
    return tuple(dict.fromkeys(problems))


def dump_action(action: Action) -> dict[str, Any]:
    return action.model_dump(exclude_defaults=False, exclude_none=True)
