"""Id formats of 18xx.games records, and models of the site's certificate and tile identities.

Formats (18xx-games-format.md section 4): shares ``"<corp>_<n>"``, trains ``"<name>-<n>"``, tiles
``"<name>-<n>"``, cities ``"<tile id>-<part>"``, route nodes ``"<hex>-<part>"``, share prices
``"<price>,<row>,<column>"``.

Our engine treats certificates of the same size, and copies of the same tile, as interchangeable; the site does
not: a record names the exact certificate sold and the exact tile copy laid, and refuses one that is elsewhere.
``ShareLedger`` and ``TileLedger`` therefore follow the site's conventions beside our game, so an importer can tell
where a named certificate or city is, and an exporter can name the one the site would use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ..errors import TextError
from ..messages import M

IPO = "ipo"
POOL = "pool"


class IdError(TextError):
    """An id that does not follow the record format, or names nothing."""


# -- plain formats ---------------------------------------------------------------------------------------------


@cache  # the reader reconciles its ledger after every action: the same few dozen ids, thousands of times
def split_share(share_id: str) -> tuple[str, int]:
    """``"B&O_3"`` -> ("B&O", 3)."""
    # a game's few dozen ids are read again after every action that moves a certificate: kept once read
    return _split_known(share_id) if share_id.__class__ is str else _split_share(share_id)


@cache
def _split_known(share_id: str) -> tuple[str, int]:
    return _split_share(share_id)


def _split_share(share_id: str) -> tuple[str, int]:
    corp, sep, n = str(share_id).rpartition("_")
    if not sep or not corp or not n.isdigit():
        raise IdError(M("{id} is not a share id (<corporation>_<n>)", id=repr(share_id)))
    return corp, int(n)


def share_id(corp: str, index: int) -> str:
    return f"{corp}_{index}"


def split_dashed(ident: str, what: str) -> tuple[str, int]:
    """``"443o-0"`` -> ("443o", 0): the part after the last dash is a number."""
    name, sep, n = str(ident).rpartition("-")
    if not sep or not name or not n.isdigit():
        raise IdError(M("{id} is not a {kind} id (<name>-<n>)", id=repr(ident), kind=what))
    return name, int(n)


def split_train(train_id: str) -> tuple[str, int]:
    return split_dashed(train_id, "train")


def split_tile(tile_id: str) -> tuple[str, int]:
    return split_dashed(tile_id, "tile")


def split_city(city_id: str) -> tuple[str, int]:
    """``"57-0-1"`` -> ("57-0", 1): the tile id and the part index of the city on it."""
    tile, part = split_dashed(city_id, "city")
    split_tile(tile)
    return tile, part


def split_node(node_id: str) -> tuple[str, int]:
    """``"B23-1"`` -> ("B23", 1)."""
    return split_dashed(node_id, "route node")


def parse_share_price(cell_id: str) -> tuple[int, int, int]:
    """``"90,0,5"`` -> (90, 0, 5): price, market row, column."""
    parts = str(cell_id).split(",")
    if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise IdError(M("{id} is not a share price id (<price>,<row>,<column>)", id=repr(cell_id)))
    price, row, col = (int(p) for p in parts)
    return price, row, col


def share_price_id(price: int, row: int, col: int) -> str:
    return f"{price},{row},{col}"


def seed_of(record: dict) -> int:
    """``settings.seed`` if set, else the first run of digits in the game id (section 3)."""
    seed = (record.get("settings") or {}).get("seed")
    if seed not in (None, ""):
        try:
            return int(seed)
        except (TypeError, ValueError):
            pass
    m = re.search(r"\d+", str(record.get("id", "")))
    return int(m.group()) if m else 0


# -- certificates ----------------------------------------------------------------------------------------------


@dataclass
class ShareLedger:
    """Where every certificate is on the site, and in which order each holder got its certificates.

    The site keeps a holder's certificates in the order they arrived; sales and presidency swaps take from the
    front of that list, IPO purchases take the lowest index, pool purchases the first certificate that came
    into the pool. ``shares_of(cert)`` gives the certificate's size in shares (2 for a President's certificate).
    """

    owner: dict[str, str] = field(default_factory=dict)
    held: dict[str, list[str]] = field(default_factory=dict)  # holder -> certificate ids in arrival order

    def add(self, cert: str, holder: str) -> None:
        self.owner[cert] = holder
        self.held.setdefault(holder, []).append(cert)

    def move(self, cert: str, holder: str) -> None:
        old = self.owner.get(cert)
        if old is None:
            raise IdError(M("there is no certificate {share}", share=cert))
        self.held[old].remove(cert)
        self.add(cert, holder)

    def exists(self, cert: str) -> bool:
        return cert in self.owner

    def of(self, holder: str, corp: str) -> list[str]:
        return [c for c in self.held.get(holder, []) if split_share(c)[0] == corp]

    def first_ipo(self, corp: str) -> str | None:
        certs = sorted((c for c in self.of(IPO, corp) if split_share(c)[1] != 0), key=lambda c: split_share(c)[1])
        return certs[0] if certs else None

    def first_pool(self, corp: str, president: bool = False) -> str | None:
        for c in self.of(POOL, corp):
            if (split_share(c)[1] == 0) == president:
                return c
        return None

    def singles_to_sell(self, holder: str, corp: str, count: int, size: Callable[[str], int]) -> list[str]:
        """The certificates the site sells for ``count`` shares: singles from the front of the holder's list."""
        out: list[str] = []
        total = 0
        for c in self.of(holder, corp):
            if split_share(c)[1] == 0 or total >= count:
                continue
            out.append(c)
            total += size(c)
        if total != count:
            raise IdError(M("{holder} does not hold {n} single shares of {corp}", holder=holder, n=count, corp=corp))
        return out

    def sale_bundle(self, holder: str, corp: str, count: int, dump: bool, size: Callable[[str], int]) -> list[str]:
        """The certificates named in a sale of ``count`` shares. A president selling below two shares (a dump)
        names all his singles and the President's certificate, which goes to the new president (``sell``)."""
        if not dump:
            return self.singles_to_sell(holder, corp, count, size)
        return [c for c in self.of(holder, corp) if split_share(c)[1] != 0] + [share_id(corp, 0)]

    def sell(self, holder: str, corp: str, certs: list[str], new_president: str | None, count: int,
             size: Callable[[str], int]) -> None:
        """Apply a sale naming ``certs`` (``count`` shares in all). In a dump the new president takes the
        President's certificate and gives singles worth as much: what the seller keeps goes back to him, the rest
        to the pool."""
        pres = share_id(corp, 0)
        for c in certs:
            if c != pres:
                self.move(c, POOL)
        if pres not in certs or new_president is None or new_president == holder:
            return
        sold_singles = sum(size(c) for c in certs if c != pres)
        keep = size(pres) - (count - sold_singles)
        self.move(pres, new_president)
        given = 0
        for c in list(self.of(new_president, corp)):
            if given >= size(pres):
                break
            if split_share(c)[1] != 0:
                self.move(c, holder if given < keep else POOL)
                given += size(c)

    def swap_president(self, corp: str, new: str, size: Callable[[str], int]) -> None:
        """``new`` takes the President's certificate and hands its first singles worth as much to the old holder."""
        pres = share_id(corp, 0)
        old = self.owner[pres]
        if old == new:
            return
        need = size(pres)
        given = 0
        for c in list(self.of(new, corp)):
            if given >= need:
                break
            if split_share(c)[1] != 0:
                self.move(c, old)
                given += size(c)
        self.move(pres, new)


# -- tiles -----------------------------------------------------------------------------------------------------


@dataclass
class TileLedger:
    """Which tile copy lies on which hex, and the order in which the site hands out free copies.

    A free copy is taken from the front of its supply list; an upgraded tile goes back to the end of it
    (section 4.4). ``preprinted`` maps a preprinted city id to (hex, part).
    """

    supply: dict[str, list[str]] = field(default_factory=dict)
    on_hex: dict[str, str] = field(default_factory=dict)  # hex -> tile id laid there
    preprinted: dict[str, tuple[str, int]] = field(default_factory=dict)

    @classmethod
    def for_counts(cls, counts: dict[str, int], preprinted: dict[str, tuple[str, int]]) -> TileLedger:
        return cls({name: [f"{name}-{i}" for i in range(n)] for name, n in counts.items()}, {}, dict(preprinted))

    def lay(self, hex_id: str, tile_id: str) -> None:
        name, _ = split_tile(tile_id)
        free = self.supply.setdefault(name, [])
        if tile_id not in free:
            where = next((h for h, t in self.on_hex.items() if t == tile_id), None)
            raise IdError(M("tile {tile} is not in the supply (it lies on {hex})", tile=tile_id, hex=where) if where
                          else M("tile {tile} is not in the supply", tile=tile_id))
        self.remove(hex_id)
        free.remove(tile_id)
        self.on_hex[hex_id] = tile_id

    def remove(self, hex_id: str) -> None:
        """The tile on the hex goes back to the supply (an upgrade, or the 18FL hurricane)."""
        old = self.on_hex.pop(hex_id, None)
        if old is not None:
            self.supply.setdefault(split_tile(old)[0], []).append(old)

    def next_copy(self, name: str) -> str:
        free = self.supply.get(name) or []
        if free:
            return free[0]
        # unlimited tiles: a copy number not used yet
        used = [split_tile(t)[1] for t in self.on_hex.values() if split_tile(t)[0] == name]
        n = max(used, default=-1) + 1
        self.supply.setdefault(name, []).append(f"{name}-{n}")
        return f"{name}-{n}"

    def city(self, city_id: str) -> tuple[str, int]:
        """(hex, part) of a city id, resolved against the tile's current hex."""
        tile, part = split_city(city_id)
        for hex_id, t in self.on_hex.items():
            if t == tile:
                return hex_id, part
        if city_id in self.preprinted:
            hex_id, part = self.preprinted[city_id]
            if hex_id not in self.on_hex:
                return hex_id, part
            raise IdError(M("city {city} was printed on {hex}, which now holds tile {tile}", city=city_id, hex=hex_id,
                            tile=self.on_hex[hex_id]))
        raise IdError(M("no tile {tile} is on the map, so there is no city {city}", tile=tile, city=city_id))

    def city_id(self, hex_id: str, part: int) -> str:
        tile = self.on_hex.get(hex_id)
        if tile is not None:
            return f"{tile}-{part}"
        for cid, (h, p) in self.preprinted.items():
            if h == hex_id and p == part:
                return cid
        raise IdError(M("no preprinted city {hex} part {part}", hex=hex_id, part=part))
