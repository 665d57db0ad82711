"""1830's privates (NOTES 4, Private companies), read from the companies' ``abilities`` data: a corporation buys
one in phases 3 and 4 for half to double its face value; the M&H is exchanged for a share; a player-owned private
blocks its hex; the C&StL and the D&H lay their tiles (the D&H with its free station token).

``Privates1830`` is a part of ``Rules1830`` (a mixin); 18FR-RCE changes its hooks in turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import stock
from ..actions import Action, BuyShares, LayTile, PlaceToken
from ..errors import GameError
from ..messages import M
from ..state import BANK, IPO, Certificate
from .g1830_state import state

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound


class Privates1830:
    """The privates' abilities and the M&H exchange; the turn's steps call them (company_action, special_lays)."""

    def company_price_range(self, game: Game, corp: str, company: str) -> tuple[int, int] | None:
        """NOTES 4, Private companies: phases 3 and 4, half to double face value (at least half: an odd face value,
        18FR-RCE's 15fr #0, rounds up); never the B&O private."""
        if "3" not in game.bought_train_types or game.data.company(company).abilities.get("no_sale_to_corporation"):
            return None
        value = game.companies[company].value
        return max(1, -(-value // 2)), value * 2

    def exchange_options(self, game: Game, company: str) -> list[Certificate]:
        c = game.companies.get(company)
        ex = game.data.company(company).abilities.get("exchange") if c else None
        if c is None or ex is None or c.closed or c.owner is None or not game.has_player(c.owner):
            return []
        corp = ex["corporation"]
        if game.percent_of(corp, game.shares_held(c.owner, corp) + 1) > game.holding_limit_percent() and \
                not self.holding_limit_waived(game, corp):
            return []
        out = []
        for source in ex["from"]:
            cert = stock.ipo_cert(game, corp) if source == IPO else stock.pool_cert(game, corp)
            if cert is not None:
                out.append(cert)
        return out

    def exchange_company(self, game: Game, act: BuyShares) -> None:
        """NOTES 4 (M&H): its owner exchanges it for a 10% share from the IPO or the pool; the private closes."""
        c = game.company(act.entity)
        opts = self.exchange_options(game, act.entity)
        corp = game.corp(act.corporation).sym
        source = act.source
        match = [cert for cert in opts if cert.corp == corp and cert.owner == source]
        if not match:
            where = tuple(M("{corp} from the IPO", corp=cert.corp) if cert.owner == IPO
                          else M("{corp} from the pool", corp=cert.corp) for cert in opts) or M("nothing now")
            raise GameError(M("{company} can be exchanged for: {options}.", company=act.entity, options=where))
        cert = match[0]
        owner = c.owner
        assert owner is not None
        cert.owner = owner
        c.closed = True
        if source == IPO:
            game.say(M("{player} exchanges {name} ({company}) for a share of {corp} from the IPO; {company} closes.",
                       player=owner, name=c.name, company=c.sym, corp=corp))
        else:
            game.say(M("{player} exchanges {name} ({company}) for a share of {corp} from the pool; {company} closes.",
                       player=owner, name=c.name, company=c.sym, corp=corp))
        game.summarise(M("{player} exchanged {company} for a share of {corp}", player=owner, company=c.sym, corp=corp))
        game.update_presidency(corp)
        stock.check_float(game, corp)

    def anytime_company(self, game: Game, company: str) -> bool:
        """title.json (M&H): in the owner's stock turn or between other players' and corporations' turns, in stock
        and operating rounds."""
        return bool(game.data.company(company).abilities.get("exchange"))

    def anytime_company_actions(self, game: Game, rnd: Any) -> list[Action]:
        if rnd.kind == "stock":
            if getattr(rnd, "auction", None) is not None or rnd.selling_privates(game) or \
                    self.pending_par(game) is not None:
                return []
        elif rnd.kind != "operating":
            return []
        return [BuyShares(entity=c.sym, corporation=cert.corp, source=cert.owner)  # type: ignore[arg-type]
                for c in game.companies.values() for cert in self.exchange_options(game, c.sym)]

    def stock_company_action(self, game: Game, rnd: Any, act: Action) -> None:
        if isinstance(act, BuyShares) and game.data.company(act.entity).abilities.get("exchange"):
            self.exchange_company(game, act)
            return
        super().stock_company_action(game, rnd, act)

    def blocker(self, game: Game, hex_id: str) -> str | None:
        """The player-owned private that keeps tiles off the hex, if any."""
        for c in game.companies.values():
            if not c.closed and c.owner is not None and game.has_player(c.owner) and \
                    hex_id in game.data.company(c.sym).blocks_hexes:
                return c.sym
        return None

    def _owned_by_operating(self, game: Game, rnd: OperatingRound, sym: str) -> bool:
        c = game.companies.get(sym)
        return c is not None and not c.closed and c.owner == rnd.corp

    def special_lays(self, game: Game, rnd: OperatingRound) -> list[LayTile]:
        """The private tile lays the operating corporation may make now (C&StL, D&H)."""
        from ..tiles import distinct_rotations, tile_layout
        from ..track import exit_problem

        out: list[LayTile] = []
        st = state(game)
        for c in game.companies.values():
            lay = game.data.company(c.sym).abilities.get("tile_lay")
            if lay is None or c.sym in st.used or not self._owned_by_operating(game, rnd, c.sym):
                continue
            # an extra lay (C&StL) comes at any point of the owner's turn; one that is the turn's lay (D&H) in
            # the track step, before the turn's own lay (18FR-RCE #0's lay may come first)
            if not lay.get("extra") and ([k for k in rnd.lays if k != "private"] or rnd.step != "track"):
                continue
            for h in lay["hexes"]:
                if game.board.hexes[h].tile is not None:
                    continue
                cost = 0 if lay.get("free") else self.lay_cost(game, h)
                token = game.data.company(c.sym).abilities.get("token")
                if token is not None and token["hex"] == h:
                    # the tile comes with a station (D&H, 18FR-RCE's Le Havre): only with a token left, a free circle
                    # for it, and the station's price in hand too
                    corp = game.corps[rnd.corp or ""]
                    slots = [t for city in game.board.hexes[h].tokens for t in city]
                    if corp.tokens_left <= 0 or None not in slots or corp.sym in slots:
                        continue
                    cost += token.get("price", 0)
                if game.corps[rnd.corp or ""].cash < cost:
                    continue
                for tid in lay["tiles"]:
                    tdef = game.data.tiles[tid]
                    if not game.board.supply.get(tid) or tdef.color not in game.phase.tiles:
                        continue
                    old = game.board.layout(h)
                    for r in distinct_rotations(tdef):
                        new = tile_layout(tdef, r)
                        if len(new.towns) != len(old.towns) or len(new.cities) != len(old.cities):
                            continue
                        if exit_problem(game, h, new) is None:
                            out.append(LayTile(entity=c.sym, hex=h, tile=tid, rotation=r))
        return out

    def _special_lay(self, game: Game, rnd: OperatingRound, act: LayTile) -> None:
        from ..track import city_map

        sym = rnd.corp or ""
        opts = self.special_lays(game, rnd)
        if act not in opts:
            listing = tuple(M("#{tile} r{rotation} at {hex}", tile=o.tile, rotation=o.rotation, hex=o.hex)
                            for o in opts) or M("none now")
            raise GameError(M("{company} lays its tile where its ability says: {options}.", company=act.entity,
                              options=listing))
        lay = game.data.company(act.entity).abilities["tile_lay"]
        cost = 0 if lay.get("free") else self.lay_cost(game, act.hex)
        if cost:
            game.pay(sym, BANK, cost)
        game.board.place_tile(act.hex, act.tile, act.rotation, city_map(game, act.hex, act.tile, act.rotation))
        state(game).used.add(act.entity)
        name = game.data.hex(act.hex).name
        where = f"{act.hex} ({name})" if name else act.hex  # as an ordinary lay names it
        if cost:
            game.say(M("{corp} (with {company}) lays #{tile} at {hex} for {cost}.", corp=sym, company=act.entity,
                       tile=act.tile, hex=where, cost=game.fmt(cost)))
        else:
            game.say(M("{corp} (with {company}) lays #{tile} at {hex}.", corp=sym, company=act.entity, tile=act.tile,
                       hex=where))
        if not lay.get("extra"):
            rnd.lays.append("yellow")
            token = game.data.company(act.entity).abilities.get("token")
            if token is not None and token["hex"] == act.hex:
                # The tile and the station are one purchase (18FR-RCE #3: both for 80fr): the station is paid with
                # the tile, so that nothing bought before the token step can leave it unpaid.
                if token.get("price"):
                    game.pay(sym, BANK, token["price"])
                    game.say(M("{corp} pays {price} for the {company} station in {hex}, placed in its token step.",
                               corp=sym, price=game.fmt(token["price"]), company=act.entity, hex=act.hex))
                state(game).dh_token_due = sym
            # it is the turn's lay: what may follow a lay follows it (18FR-RCE: a second yellow lay, #0's)
            if not self.more_lays_possible(game, rnd):
                rnd.advance(game)

    def _dh_token(self, game: Game, rnd: OperatingRound, act: PlaceToken) -> None:
        sym = rnd.corp or ""
        st = state(game)
        company = next(c for c in game.companies if c in st.used and
                       game.data.company(c).abilities.get("token"))
        token = game.data.company(company).abilities["token"]
        if act.hex != token["hex"]:
            raise GameError(M("{corp} places the {company} station token in {hex} now.", corp=sym, company=company,
                              hex=token["hex"]))
        self.put_station(game, sym, act.hex, act.city, 0)  # paid with the tile
        st.dh_token_due = None
        rnd.token_placed = True
        rnd.advance(game)

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        if isinstance(act, LayTile):
            if not self._owned_by_operating(game, rnd, act.entity):
                raise GameError(M("{company}'s ability is used only by the corporation owning it, in its turn.",
                                  company=act.entity))
            self._special_lay(game, rnd, act)
            return
        if isinstance(act, PlaceToken) and state(game).dh_token_due == rnd.corp and rnd.step == "token":
            self._dh_token(game, rnd, act)
            return
        if isinstance(act, BuyShares) and game.data.company(act.entity).abilities.get("exchange"):
            self.exchange_company(game, act)
            return
        raise GameError(M("{company} has no ability usable now.", company=act.entity))
