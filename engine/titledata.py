"""Title data: the published facts of a title, validated at load.

The JSON files under ``engine/data`` are transcriptions of the published
components (see ``tools/transcribe.py``). Nothing here holds rules; the rules
live in the round and step modules and in each title's small hook module.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Color = Literal["white", "yellow", "green", "brown", "gray", "red", "blue"]
TILE_COLORS: tuple[str, ...] = ("yellow", "green", "brown", "gray")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Endpoint(_Model):
    """One end of a track path on a tile or hex."""

    edge: int | None = None
    city: int | None = None
    town: int | None = None
    offboard: int | None = None
    junction: int | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Endpoint:
        if sum(v is not None for v in (self.edge, self.city, self.town, self.offboard, self.junction)) != 1:
            raise ValueError("an endpoint names exactly one of edge, city, town, offboard, junction")
        if self.edge is not None:
            object.__setattr__(self, "edge", self.edge % 6)
        return self

    @property
    def kind(self) -> str:
        for k in ("edge", "city", "town", "offboard", "junction"):
            if getattr(self, k) is not None:
                return k
        raise AssertionError

    @property
    def index(self) -> int:
        v = getattr(self, self.kind)
        assert v is not None
        return v


class CityDef(_Model):
    revenue: int | dict[str, int]  # a dict holds values by phase ("yellow"/"brown"): 18AL Nashville, Meridian
    slots: int = 1
    name: str | None = None  # a named city on a multi-city tile (18FR-RCE Montparnasse)
    slot_kinds: tuple[str, ...] = ()  # per slot, e.g. ("normal", "port"): 18FR-RCE's port side of a port city

    def __hash__(self) -> int:
        rev = tuple(sorted(self.revenue.items())) if isinstance(self.revenue, dict) else self.revenue
        return hash((rev, self.slots))


class TownDef(_Model):
    revenue: int


class OffboardDef(_Model):
    revenue: dict[str, int]
    stub: bool = False
    visitable: bool = True
    pass_through: bool = False  # a route may enter by one track side and leave by another (18FR-RCE Genève)
    group: str | None = None  # hexes of one group are one revenue location (a multi-hex off-board)

    def __hash__(self) -> int:
        # the revenue dict is unhashable; hexes with an off-board must hash for the cached hex_layout
        return hash((tuple(sorted(self.revenue.items())), self.stub, self.visitable))


class Border(_Model):
    edge: int
    type: str = "impassable"


class TileDef(_Model):
    color: Literal["yellow", "green", "brown", "gray"]
    cities: tuple[CityDef, ...] = ()
    towns: tuple[TownDef, ...] = ()
    paths: tuple[tuple[Endpoint, Endpoint], ...] = ()
    label: str | None = None
    number: str | None = None
    count: int = 0
    unlimited: bool = False
    only_hexes: tuple[str, ...] = ()  # a special tile that may go only to these hexes
    fixed_rotation: int | None = None  # the one rotation it may be laid at (18FR-RCE Lille/Lyon yellow)
    upgrade_cost: int = 0  # paid by the corporation each time this tile is laid as an upgrade (Paris 40fr)
    provenance: str | None = None  # GIVEN / SOURCED / INFERRED / ASSUMPTION, for reconstructed titles


class HexDef(_Model):
    id: str
    name: str | None = None
    color: Color = "white"
    cost: int = 0
    terrain: str | None = None
    label: str | None = None
    cities: tuple[CityDef, ...] = ()
    towns: tuple[TownDef, ...] = ()
    offboard: OffboardDef | None = None
    paths: tuple[tuple[Endpoint, Endpoint], ...] = ()
    borders: tuple[Border, ...] = ()
    # the rulebook's hex type where tiles must match it (18EZ: large_city, small_city, open, metropolis, gray,
    # offboard); informative: the tile checks read the hex's cities, towns and label
    hex_type: str | None = None
    home_of: str | None = None
    only_tiles: tuple[str, ...] = ()  # the hex takes only these tiles (special cities); empty: any that fits
    port: str | None = None  # the name of the port marker printed beside this hex (18FR-RCE)
    tags: tuple[str, ...] = ()  # title roles of the hex, read by its rules (18FR-RCE "town_merge", rule 21)
    # symbols printed on the hex that the rules name, drawn on the map (18AL's coal-field "pentagon")
    marks: tuple[str, ...] = ()
    provenance: str | None = None

    @property
    def buildable(self) -> bool:
        """White hexes take yellow tiles; preprinted yellow ones take upgrades."""
        return self.color in ("white", "yellow", "green", "brown")


class CompanyDef(_Model):
    sym: str
    name: str
    value: int
    revenue: int
    blocks_hexes: tuple[str, ...] = ()
    min_players: int = 1
    # structured data of a special ability (18AL coal_field, tile_lay, name_chits, train_discount), by kind
    abilities: dict[str, Any] = Field(default_factory=dict)
    number: int | None = None  # the number printed on the card (18FR-RCE #0-#6)
    provenance: str | None = None


class CorporationDef(_Model):
    sym: str
    name: str
    sym_18xx_games: str | None = None
    home: str
    home_city: int | None = 0  # None: the corporation chooses its home city on the hex (1830 Erie)
    tokens: tuple[int, ...]
    shares: tuple[int, ...]
    shares_after_conversion: tuple[int, ...] = ()
    float_percent: int
    color: str
    text_color: str = "#ffffff"
    objective: str | None = None
    objective_bonus: int = 0
    provenance: str | None = None

    @property
    def record_sym(self) -> str:
        return self.sym_18xx_games or self.sym


class TrainVariant(_Model):
    name: str
    distance: int
    price: int
    multiplier: int = 1
    express: bool = False  # towns neither count nor score (18FL 3E)


class TrainDef(_Model):
    name: str
    distance: int
    price: int
    count: int
    unlimited: bool = False
    # the first purchase of this train type (or of any of them, for a list) scraps every card of this type
    rusts_on: str | tuple[str, ...] | None = None
    obsolete_on: str | None = None
    variants: tuple[TrainVariant, ...] = ()
    events: tuple[str, ...] = ()
    multiplier: int = 1
    express: bool = False
    # price when the buyer hands in one of its own trains of the named type (1830 Diesel: 4, 5 or 6 for $800)
    trade_in: dict[str, int] = Field(default_factory=dict)
    # on sale beside the current type once a train of this name has been bought (1830 Diesel: after the first 6)
    available_on: str | None = None
    provenance: str | None = None

    @property
    def rust_triggers(self) -> tuple[str, ...]:
        if self.rusts_on is None:
            return ()
        return (self.rusts_on,) if isinstance(self.rusts_on, str) else tuple(self.rusts_on)

    def kind(self, name: str) -> TrainVariant:
        """The card as the named side: itself or one of its variants."""
        for v in self.variants:
            if v.name == name:
                return v
        return TrainVariant(name=self.name, distance=self.distance, price=self.price,
                            multiplier=self.multiplier, express=self.express)


class PhaseDef(_Model):
    name: str
    on: str | tuple[str, ...] | None = None
    train_limit: dict[str, int]
    tiles: tuple[str, ...]
    operating_rounds: int
    corporation_sizes: tuple[int, ...] = ()
    offboard_and_hotel_values: str = "top"
    provenance: str | None = None

    @property
    def triggers(self) -> tuple[str, ...]:
        if self.on is None:
            return ()
        return (self.on,) if isinstance(self.on, str) else tuple(self.on)

    @property
    def late_values(self) -> bool:
        """Off-boards use their second ('brown') value from this phase on."""
        return self.offboard_and_hotel_values.startswith("bottom")


class MarketDef(_Model):
    kind: Literal["1d", "2d"]
    rows: tuple[tuple[str, ...], ...]
    legend: dict[str, str] = Field(default_factory=dict)
    end_game_value: int | None = None  # a price reaching this ends the game (18AL $300)
    provenance: str | None = None


class OptionalRule(_Model):
    id: str
    rules_ref: str = ""
    text: str


class TitleData(_Model):
    title: str
    full_title: str | None = None
    layout: Literal["flat", "pointy"]
    # which of letter/number is the column (x); None keeps the layout's usual reading (see engine.hexgrid)
    axes: dict[str, str] | None = None
    players: dict[str, int]
    currency: str = "$%d"
    bank: int
    starting_cash: dict[str, int]
    cert_limit: dict[str, int]
    market: MarketDef
    companies: tuple[CompanyDef, ...]
    corporations: tuple[CorporationDef, ...]
    trains: tuple[TrainDef, ...]
    phases: tuple[PhaseDef, ...]
    tiles: dict[str, TileDef]
    hexes: tuple[HexDef, ...]
    optional_rules: tuple[OptionalRule, ...] = ()
    assumptions: tuple[str, ...] = Field(default=())
    # where the data comes from, shown to players when part of it is reconstructed (18EZ, 18FR-RCE): status, ...
    provenance: dict[str, str] = Field(default_factory=dict)
    # other printed ids of a hex (a second numbering in the rules) -> the hex's id here; accepted in commands
    id_aliases: dict[str, str] = Field(default_factory=dict)
    rules: dict[str, Any] = Field(default_factory=dict)  # the title's rule parameters, read by its rules module

    @property
    def reconstructed(self) -> str | None:
        """A line telling players the board is a reconstruction, or None for a published one."""
        return self.provenance.get("status")

    def canonical_hex(self, hex_id: str) -> str:
        return self.id_aliases.get(hex_id, hex_id)

    @property
    def min_players(self) -> int:
        return self.players["min"]

    @property
    def max_players(self) -> int:
        return self.players["max"]

    def hex(self, hex_id: str) -> HexDef:
        return self._hex_index()[hex_id]

    def _hex_index(self) -> dict[str, HexDef]:
        idx = self.__dict__.get("_hexidx")
        if idx is None:
            idx = {h.id: h for h in self.hexes}
            self.__dict__["_hexidx"] = idx
        return idx

    def hex_ids(self) -> Iterable[str]:
        """The hexes' ids in the title's order (a board's order)."""
        return self._hex_index().keys()

    def has_hex(self, hex_id: str) -> bool:
        return hex_id in self._hex_index()

    def corporation(self, sym: str) -> CorporationDef:
        return self._by_sym("_corpidx", self.corporations)[sym]  # type: ignore[no-any-return]

    def company(self, sym: str) -> CompanyDef:
        return self._by_sym("_companyidx", self.companies)[sym]  # type: ignore[no-any-return]

    def _by_sym(self, name: str, items: list[Any]) -> dict[str, Any]:
        """The first of ``items`` with each sym, kept (like the hex index) under ``name``."""
        idx = self.__dict__.get(name)
        if idx is None:
            idx = self.__dict__[name] = {}
            for c in items:
                idx.setdefault(c.sym, c)
        return idx  # type: ignore[no-any-return]

    def train(self, name: str) -> TrainDef:
        """The card named so or carrying a variant so named (the first such card)."""
        idx = self.__dict__.get("_trainidx")
        if idx is None:
            idx = {}
            for t in self.trains:
                idx.setdefault(t.name, t)
                for v in t.variants:
                    idx.setdefault(v.name, t)
            self.__dict__["_trainidx"] = idx
        return idx[name]

    def fmt(self, amount: int) -> str:
        return money(self.currency, amount)


def money(currency: str, amount: int) -> str:
    """An amount in a title's currency format, with thousands separators as the rulebooks print them ("$12,000",
    "1,200fr"); a broken bank's negative cash reads "−$318" (a minus sign), not "$-318"."""
    text = currency.replace("%d", f"{abs(amount):,}")
    return "−" + text if amount < 0 else text


def _data_text(*parts: str) -> str:
    return resources.files("engine").joinpath("data/" + "/".join(parts)).read_text(encoding="utf-8")


@cache
def standard_tiles() -> dict[str, dict]:
    return json.loads(_data_text("tiles.json"))


@cache
def load_title(name: str) -> TitleData:
    raw = json.loads(_data_text("titles", f"{name}.json"))
    lib = standard_tiles()
    tiles: dict[str, dict] = {}
    for tid, entry in raw["tiles"].items():
        if entry is None:  # an unlimited standard tile
            tiles[tid] = dict(lib[tid], count=0, unlimited=True, number=tid)
        elif isinstance(entry, int):
            tiles[tid] = dict(lib[tid], count=entry, number=tid)
        else:
            tiles[tid] = dict(entry)
    raw["tiles"] = tiles
    return TitleData.model_validate(raw)
