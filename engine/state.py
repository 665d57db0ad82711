"""The things a game is made of: players, corporations, certificates, trains, privates."""

from __future__ import annotations

from dataclasses import dataclass, field

from .journal import Tracked

BANK = "bank"
IPO = "ipo"
POOL = "pool"
RESERVED = "reserved"  # certificates out of play (18FL unmarked shares before conversion)


@dataclass
class Player(Tracked):
    name: str
    cash: int = 0
    bankrupt: bool = False


@dataclass
class Certificate(Tracked):
    corp: str
    index: int  # 0 is the President's certificate
    shares: int  # 2 for the President's certificate, 1 for a single
    owner: str  # player name, IPO, POOL or RESERVED

    @property
    def id(self) -> str:
        return f"{self.corp}_{self.index}"

    @property
    def president(self) -> bool:
        return self.index == 0


@dataclass
class Train(Tracked):
    id: str  # "2-0"
    name: str  # type on the card ("6" for a 6/3E card)
    variant: str  # what it runs as ("3E")
    distance: int | None
    price: int
    multiplier: int = 1
    owner: str | None = None  # corporation sym, POOL, or None while in the bank
    ran: bool = False
    obsolete: bool = False  # runs once more in its owner's next turn, then leaves (18AL 4-trains)


@dataclass
class Company(Tracked):
    sym: str
    name: str
    value: int
    revenue: int
    owner: str | None = None  # player name or corporation sym
    closed: bool = False


@dataclass
class Corporation(Tracked):
    sym: str
    name: str
    size: int = 5  # shares: 5 or 10 (18FL); 10 for 1830-style titles
    par_price: int | None = None
    floated: bool = False
    operated: bool = False  # has operated at least once
    cash: int = 0
    tokens_left: int = 0
    president: str | None = None
    frozen: bool = False  # no president after a bankruptcy (18FL)
    tokens_used: list[str] = field(default_factory=list)  # "station" | "hotel" per token spent

    @property
    def started(self) -> bool:
        return self.par_price is not None
