"""Certificates and presidency: who holds which shares, the certificate and holding limits, and the President's
certificate changing hands when another player holds more.

``Certificates`` is a part of ``Game`` (a mixin) working on the game's certificates, corporations and market.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from .market import Market
from .messages import M
from .state import IPO, POOL, RESERVED, Certificate, Corporation, Player
from .titledata import TitleData

if TYPE_CHECKING:
    from .titles.base import TitleRules

_OWNER = attrgetter("owner")


class Certificates:
    """The share certificates of every corporation and the presidency they decide."""

    data: TitleData
    rules: TitleRules
    players: list[Player]
    corps: dict[str, Corporation]
    certs: list[Certificate]
    market: Market


    def _corp_certs(self, corp: str) -> list[Certificate]:
        """The corporation's certificates in the game's order. A game makes its certificates as it starts, each of
        one corporation for good, so each corporation's are listed once, kept on the corporation as a cache (not
        journalled, not in a snapshot or fingerprint), rather than sought among all of them at each of the
        thousand holdings an 1830 import asks for."""
        certs = self.certs
        holder = self.corps.get(corp)
        if holder is None:
            return [c for c in certs if c.corp == corp]
        index = holder.__dict__.get("_certs")
        if index is None or index[0] is not certs or index[1] != len(certs):
            index = holder.__dict__["_certs"] = (certs, len(certs), [c for c in certs if c.corp == corp])
        return index[2]  # type: ignore[no-any-return]

    def certs_of(self, corp: str, owner: str | None = None) -> list[Certificate]:
        return [c for c in self._corp_certs(corp) if owner is None or c.owner == owner]

    def shares_held(self, owner: str, corp: str) -> int:
        return sum(c.shares for c in self._corp_certs(corp) if c.owner == owner)

    def percent_of(self, corp: str, shares: int) -> int:
        return shares * 100 // self.corps[corp].size

    def cert_count(self, player: str) -> int:
        certs = sum(1 for c in self.certs if c.owner == player and self.rules.counts_for_cert_limit(self, c))
        return certs + self.rules.company_cert_count(self, player)

    def cert_count_bound(self, player: str) -> int:
        """At least ``cert_count``: every certificate the player holds, whether the title counts it or not. Far
        cheaper (1830 asks the market of each certificate), it settles most checks against the limit."""
        return list(map(_OWNER, self.certs)).count(player) + self.rules.company_cert_count(self, player)

    def cert_limit(self) -> int:
        return self.data.cert_limit[str(len(self.players))]

    def holding_limit_percent(self) -> int:
        return self.rules.holding_limit_percent(self)

    def price(self, corp: str) -> int:
        return self.market.price(corp)

    def sold_shares(self, corp: str) -> int:
        """Shares out of the IPO: held by players or in the pool."""
        return sum(c.shares for c in self.certs if c.corp == corp and c.owner not in (IPO, RESERVED))

    def transfer_cert(self, cert: Certificate, owner: str) -> None:
        cert.owner = owner

    def update_presidency(self, corp_sym: str, after: str | None = None) -> None:
        """Swap the President's certificate if another player now holds strictly more shares.

        Ties keep the current president; among tied challengers the first in
        seat order after the current president wins.
        """
        corp = self.corps[corp_sym]
        pres_cert = self.certs_of(corp_sym)[0]
        current = corp.president
        holders = self._holders_after(current or after, corp_sym)
        if current is None:
            # a President's certificate left in the pool after a bankruptcy
            if pres_cert.owner == POOL:
                for name in holders:
                    if self.shares_held(name, corp_sym) >= 2:
                        self._swap_president(corp_sym, POOL, name)
                        corp.president, corp.frozen = name, False
                        self.say(M("{player} exchanges two shares for the {corp} President's certificate.",
                                   player=name, corp=corp_sym))
                        self.check_train_limits()  # a discard waited for a president to choose it
                        return
            elif pres_cert.owner not in (IPO, RESERVED, POOL):
                corp.president, corp.frozen = pres_cert.owner, False
                self.check_train_limits()
            return
        best, best_n = current, self.shares_held(current, corp_sym)
        for name in holders:
            n = self.shares_held(name, corp_sym)
            if n > best_n:
                best, best_n = name, n
        if best != current:
            self._swap_president(corp_sym, current, best)
            corp.president = best
            self.say_new_president(best, corp_sym)

    def say_new_president(self, player: str, corp_sym: str) -> None:
        """A change of president, in the log and in the round's summary (a deal of the round, as a sale is)."""
        self.say(M("{player} becomes president of {corp}.", player=player, corp=corp_sym))
        self.summarise(M("{player} became president of {corp}", player=player, corp=corp_sym))

    def _holders_after(self, start: str | None, corp_sym: str) -> list[str]:
        # seat order from the seat after ``start``, who may have just gone bankrupt himself (18FL 8.4.3)
        names = [p.name for p in self.players]
        if start in names:
            i = names.index(start)
            names = names[i + 1 :] + names[:i]
        return [n for n in names if not self.player(n).bankrupt]

    def _swap_president(self, corp_sym: str, old: str, new: str) -> None:
        pres = self.certs_of(corp_sym)[0]
        singles = [c for c in self.certs_of(corp_sym, new) if not c.president][:2]
        if len(singles) < 2:
            raise AssertionError("presidency swap needs two singles")
        for c in singles:
            c.owner = old
        pres.owner = new
        self.rules.on_president_change(self, corp_sym, old, new)
