"""The site's ledgers kept in line with our game: which certificate each holder has and which tile lies on each hex,
under the site's ids (the reader checks the record against them; the writer names what it exports by them)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from ..game import Game
from ..messages import M, Text
from . import ids
from .ids import IPO, POOL, ShareLedger, TileLedger
from .titles import TitleMap

_TILE = attrgetter("tile")


def cert_size(cert: str) -> int:
    """Shares in a certificate: two for the President's, one for any other (18FL, 18AL, 1830)."""
    return 2 if ids.split_share(cert)[1] == 0 else 1


def new_share_ledger(game: Game, tmap: TitleMap) -> ShareLedger:
    ledger = ShareLedger()
    for c in game.certs:
        if c.owner in (IPO,):
            ledger.add(ids.share_id(tmap.site_corp(c.corp), c.index), IPO)
    return ledger


def sync_shares(ledger: ShareLedger, game: Game, tmap: TitleMap, only: set[str] | None = None) -> list[Text]:
    """Bring the site model of certificates in line with our game after an action.

    Conversions create the new certificates in the IPO; presidency changes swap the President's certificate
    for the first singles of the new president. Any other difference (the private that comes with a share,
    bankruptcy sales) is settled by moving certificates from the front of the holder's list; the notes say so.
    Each corporation is settled on its own certificates alone, and settling it again changes nothing: ``only``
    names the corporations whose certificates moved on either side since the last sync (None: all).
    """
    notes: list[Text] = []
    from ..state import RESERVED

    # our certificates per corporation, and the site ids read once per sync rather than once per corporation
    todo = [sym for sym in game.corps if only is None or sym in only]
    certs: dict[str, list[Any]] = {sym: game.certs_of(sym) for sym in todo}
    # the ledger's single certificates of the site corporations at hand, in the ledger's order (a sync adds or moves
    # only the certificates of the corporation at hand, so one pass serves every corporation)
    sites = {tmap.site_corp(sym) for sym in todo}
    singles: dict[str, list[str]] = {}
    for cid in ledger.owner:
        corp, idx = ids.split_share(cid)
        if idx != 0 and corp in sites:
            singles.setdefault(corp, []).append(cid)
    for sym in game.corps:
        if only is not None and sym not in only:
            continue
        site = tmap.site_corp(sym)
        mine = singles.setdefault(site, [])
        for c in certs[sym]:
            cid = ids.share_id(site, c.index)
            if c.owner != RESERVED and not ledger.exists(cid):
                ledger.add(cid, IPO)
                if c.index != 0:
                    mine.append(cid)
        pres = certs[sym][0]
        pid = ids.share_id(site, 0)
        if ledger.owner.get(pid) != pres.owner and pres.owner not in (IPO, RESERVED):
            holder = ledger.owner.get(pid)
            if holder not in (IPO, POOL) and pres.owner != POOL:
                ledger.swap_president(site, pres.owner, cert_size)
            else:
                ledger.move(pid, pres.owner)
        # counts per holder
        ours: dict[str, int] = {}
        for c in certs[sym]:
            if c.owner != RESERVED and c.index != 0:
                ours[c.owner] = ours.get(c.owner, 0) + 1
        theirs: dict[str, int] = {}
        for cid in mine:
            holder = ledger.owner[cid]
            theirs[holder] = theirs.get(holder, 0) + 1
        surplus = [h for h in theirs if theirs[h] > ours.get(h, 0)]
        for h in surplus:
            while theirs[h] > ours.get(h, 0):
                need = next((k for k in ours if ours[k] > theirs.get(k, 0)), None)
                if need is None:
                    break
                cert = next(c for c in ledger.of(h, site) if ids.split_share(c)[1] != 0)
                ledger.move(cert, need)
                theirs[h] -= 1
                theirs[need] = theirs.get(need, 0) + 1
                notes.append(M("{share} moves from {holder} to {owner}", share=cert, holder=h, owner=need))
    return notes


def sync_tiles(ledger: TileLedger, game: Game) -> None:
    """Tiles our engine removed by itself (the 18FL hurricane) go back to the site's supply too."""
    hexes = game.board.hexes
    if None not in map(_TILE, map(hexes.__getitem__, ledger.on_hex)):
        return  # asked after every action: the common answer in one pass
    for hex_id in list(ledger.on_hex):
        if game.board.hexes[hex_id].tile is None:
            ledger.remove(hex_id)
