"""18AL's private abilities (Table III): the Warrior Coal Field token (SNAR), the Lumber Terminal (B&SLC), New
Decatur Yards' half-price train, and what buying the SNAR or the M&C brings its corporation. The private is the
acting entity, as in 18xx.games records; the M&C's name chits are g18al_chits.

``ALPrivates`` is a part of ``Rules18AL`` (a mixin).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Assign, BuyTrain, LayTile, NameTrain
from ..errors import GameError
from ..messages import M, Text
from ..state import BANK, Train
from .g18al_state import state
from .words import both

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound

LUMBER_TILE = "445"


class ALPrivates:
    """The abilities of 18AL's privates owned by a corporation, used in its own turn."""

    def on_company_bought(self, game: Game, corp: str, company: str) -> None:
        st = state(game)
        if company == "SNAR" and not st.coal_gone:
            st.coal_corp = corp
            game.say(M("{corp} receives the two Warrior Coal Field tokens.", corp=corp))
        if company == "M&C":
            st.chit_corp, st.chits = corp, {}
            game.say(M("{corp} receives the name chits {chits}.", corp=corp, chits=both(self.chit_names(game))))

    def _owned_by_operating(self, game: Game, rnd: OperatingRound, sym: str) -> bool:
        c = game.companies.get(sym)
        return c is not None and not c.closed and c.owner == rnd.corp

    def _lumber_usable(self, game: Game, rnd: OperatingRound) -> bool:
        st = state(game)
        return (self._owned_by_operating(game, rnd, "BLC") and not st.lumber_gone
                and bool(game.board.supply.get(LUMBER_TILE)))

    def _lumber_buyable(self, game: Game, rnd: OperatingRound) -> bool:
        """4.2(h) and Table III: a corporation may buy the B&SLC after its lay and still lay the Lumber Terminal in
        that step, so the step stays open (a pass ends it) while a player holds the B&SLC and the corporation
        could buy it."""
        blc = game.companies.get("BLC")
        sym = rnd.corp or ""
        if blc is None or blc.closed or blc.owner is None or not game.has_player(blc.owner):
            return False
        if state(game).lumber_gone or not game.board.supply.get(LUMBER_TILE):
            return False
        rng = self.company_price_range(game, sym, "BLC")
        return rng is not None and game.corps[sym].cash >= rng[0]

    def lumber_options(self, game: Game) -> list[tuple[str, int]]:
        from ..tiles import distinct_rotations, tile_layout
        from ..track import exit_problem

        blc = game.data.company("BLC").abilities.get("tile_lay", {})
        tdef = game.data.tiles[LUMBER_TILE]
        out = []
        for h in blc.get("hexes", ()):
            if game.board.hexes[h].tile is not None:
                continue
            for r in distinct_rotations(tdef):
                if exit_problem(game, h, tile_layout(tdef, r)) is None:
                    out.append((h, r))
        return out

    def coal_options(self, game: Game, corp: str) -> list[str]:
        from ..route_network import Network  # the walk enumeration answers "a train can reach this city" exactly

        st = state(game)
        if st.coal_corp != corp or st.coal_hex is not None or st.coal_gone:
            return []
        trains = self.train_specs(game, corp)
        if not trains:
            return []
        hexes = game.data.company("SNAR").abilities.get("coal_field", {}).get("hexes", ())
        net = Network(game.board, corp, self.route_rules(game))
        seen = {net.stops[i].hex for w in net.walks(trains) for i in w.seq if net.stops[i].kind == "city"}
        return [h for h in hexes if h in seen]

    def _coal_bonus(self, game: Game) -> int:
        return int(game.data.company("SNAR").abilities.get("coal_field", {}).get("bonus", 10))

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        sym = act.entity
        st = state(game)
        if sym == "M&C" and isinstance(act, NameTrain):
            # the chits belong to the corporation that bought the M&C and outlive the private (closed in phase 5)
            self._name_train(game, rnd, act)
            return
        if not self._owned_by_operating(game, rnd, sym):
            raise GameError(M("{company}'s ability is used only by the corporation owning it, in its own turn.",
                              company=sym))
        if sym == "BLC" and isinstance(act, LayTile):
            if rnd.step != "track":
                raise GameError(M("The Lumber Terminal is laid during the tile-laying step."))
            if not self._lumber_usable(game, rnd):
                raise GameError(M("The Lumber Terminal tile is not available."))
            if act.tile != LUMBER_TILE or (act.hex, act.rotation) not in self.lumber_options(game):
                opts = tuple(f"{h} r{r}" for h, r in self.lumber_options(game)) or M("none")
                raise GameError(M("B&SLC lays tile #{tile} in an empty swamp hex, not running off the map or into a "
                                  "blank red or gray side. Options: {options}.", tile=LUMBER_TILE, options=opts))
            game.board.place_tile(act.hex, LUMBER_TILE, act.rotation, [])
            game.say(M("{corp} (with B&SLC) lays the Lumber Terminal #{tile} at {hex}.", corp=rnd.corp,
                       tile=LUMBER_TILE, hex=act.hex))
            if not self.more_lays_possible(game, rnd) and rnd.lays:
                rnd.advance(game)
            return
        if sym == "SNAR" and isinstance(act, Assign):
            corp = rnd.corp or ""
            if act.target not in self.coal_options(game, corp):
                opts = tuple(self.coal_options(game, corp)) or M("none")
                raise GameError(M("The coal token goes on a pentagon city one of {corp}'s trains can reach. "
                                  "Options: {options}.", corp=corp, options=opts))
            st.coal_hex = act.target
            game.board.hexes[act.target].markers["coal"] = corp
            game.say(M("{corp} places a Warrior Coal Field token in {place}: +{bonus} for its trains there.",
                       corp=corp, place=game.data.hex(act.target).name, bonus=game.fmt(self._coal_bonus(game))))
            return
        if sym == "NDY" and isinstance(act, BuyTrain):
            self._ndy_buy(game, rnd, act)
            return
        raise GameError(M("{company} cannot do that now.", company=sym))

    def ndy_offers(self, game: Game, rnd: OperatingRound) -> list[tuple[Train, str]]:
        """Trains New Decatur Yards may buy at half price now: the next new train (Table III)."""
        return [(t, src) for t, src in rnd.available_trains(game) if src == "bank"][:1]

    def _ndy_buy(self, game: Game, rnd: OperatingRound, act: BuyTrain) -> None:
        from ..rounds.train_buying import names_train

        if rnd.step != "buy_train":
            raise GameError(M("New Decatur Yards is used in the train-buying step."))
        committed = rnd.committed_problem(game)
        if committed is not None:
            raise GameError(committed)
        offers = self.ndy_offers(game, rnd)
        match = [(t, src) for t, src in offers if names_train(act, t) and act.exchange is None]
        if not match:
            what = tuple(M("a {train} for {price}", train=t.name, price=game.fmt(t.price // 2))
                         for t, _src in offers) or M("nothing now")
            raise GameError(M("New Decatur Yards buys {trains} at half price: {offers}.", trains=self.ndy_text,
                              offers=what))
        t, src = match[0]
        half = t.price // 2
        if act.price not in (None, half):
            raise GameError(M("With New Decatur Yards the {train}-train costs {price}.", train=t.name,
                              price=game.fmt(half)))
        corp = game.corps[rnd.corp or ""]
        if len(game.trains_of(corp.sym)) >= game.train_limit(corp.sym):
            raise GameError(M("{corp} is at its train limit.", corp=corp.sym))
        if corp.cash < half:
            raise GameError(M("{corp} has {cash}; the train costs {price}.", corp=corp.sym, cash=game.fmt(corp.cash),
                              price=game.fmt(half)))
        game.companies["NDY"].closed = True
        real = t if src == "pool" else game.train(t.id)
        game.pay(corp.sym, BANK, half)
        real.owner = corp.sym
        rnd.bank_types_bought.append(t.name)
        if src == "bank":
            game.ensure_unlimited_stock()
        game.say(M("{corp} buys a {train}-train at half price, {price}, with New Decatur Yards (which closes).",
                   corp=corp.sym, train=t.name, price=game.fmt(half)))
        rnd.summary.append(M("{corp} bought a {train}-train (NDY)", corp=corp.sym, train=t.name))
        self.on_corp_bought_train(game, corp.sym, real)
        if src == "bank":
            game.on_train_bought(real)

    ndy_text: Text = M("the next new train from the Initial Offering")

    def private_ability_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        """The operating corporation's private abilities it may use now (the private is the acting entity)."""
        sym = rnd.corp
        assert sym is not None
        out: list[Action] = []
        if rnd.step == "track" and self._lumber_usable(game, rnd):
            out += [LayTile(entity="BLC", hex=h, tile=LUMBER_TILE, rotation=r) for h, r in self.lumber_options(game)]
        out += [Assign(entity="SNAR", target=h) for h in self.coal_options(game, sym)]
        if rnd.step == "buy_train" and self._owned_by_operating(game, rnd, "NDY") and \
                len(game.trains_of(sym)) < game.train_limit(sym) and rnd.committed_problem(game) is None:
            out += [BuyTrain(entity="NDY", train=t.id, price=t.price // 2) for t, _src in self.ndy_offers(game, rnd)
                    if game.corps[sym].cash >= t.price // 2]
        return out
