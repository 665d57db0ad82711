"""1830's private auction (NOTES 1): the first private's price drops $5 each time everyone passes while it is
unsold (at $0 the next player must take it), a round of passes once it is sold is a privates-only operating turn;
a private carrying shares hands them over (the B&O's President's certificate with its par set at once), and
privates change hands between players from stock round 2 on.

``PrivateAuction`` is a part of ``Rules1830`` (a mixin) over the waterfall private sale (``rounds.private_sale``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import stock
from ..actions import Par
from ..errors import GameError
from ..messages import M, Msg
from .g1830_state import state

if TYPE_CHECKING:
    from ..game import Game


class PrivateAuction:
    """The hooks of the private sale that are 1830's own."""

    def first_private(self, game: Game) -> str:
        return min(game.companies.values(), key=lambda c: (c.value, list(game.companies).index(c.sym))).sym

    def private_price(self, game: Game, company: str) -> int:
        value = game.companies[company].value
        if company == self.first_private(game):
            return max(0, value - state(game).first_private_discount)
        return value

    def private_sale_all_passed(self, game: Game, rnd: Any) -> bool:
        """NOTES 1.5: everyone passed in a row while privates are unsold; the round goes on."""
        first = self.first_private(game)
        st = state(game)
        if game.companies[first].owner is None:
            st.first_private_discount += 5
            price = self.private_price(game, first)
            game.say(M("Everyone passes: {company} now costs {price}.", company=first, price=game.fmt(price)))
            rnd.summary.append(M("{company} reduced to {price}", company=first, price=game.fmt(price)))
        else:
            game.say(M("Everyone passes: the privates pay their revenue (a privates-only operating turn)."))
            self.pay_private_revenue(game)
            rnd.summary.append(M("privates paid their revenue"))
        return True

    def must_take_first_private(self, game: Game) -> bool:
        first = self.first_private(game)
        return game.companies[first].owner is None and self.private_price(game, first) == 0

    def on_private_sold(self, game: Game, rnd: Any, company: str) -> None:
        abilities = game.data.company(company).abilities
        owner = game.companies[company].owner
        assert owner is not None
        for cert_id in abilities.get("shares", ()):
            cert = next(c for c in game.certs if c.id == cert_id)
            cert.owner = owner
            corp = game.corps[cert.corp]
            if cert.president:
                corp.president = owner
                state(game).par_due = (owner, cert.corp)
                game.say(M("{player} receives the {corp} President's certificate and must set its par price now.",
                           player=owner, corp=cert.corp))
            else:
                game.say(M("{player} receives a {percent}% share of {corp}.", player=owner,
                           percent=game.percent_of(cert.corp, cert.shares), corp=cert.corp))

    def par_given(self, game: Game, rnd: Any, act: Par) -> None:
        """The buyer of a private that carries a President's certificate sets that corporation's par."""
        st = state(game)
        assert st.par_due is not None
        player, sym = st.par_due
        if act.entity != player or game.corp(act.corporation).sym != sym:
            raise GameError(M("{player} must first set the par price of {corp} (one of {prices}).", player=player,
                              corp=sym, prices=tuple(game.fmt(c.price) for c in self.par_cells(game))))
        cells = [c for c in self.par_cells(game) if c.price == act.price]
        if not cells:
            raise GameError(M("{price} is not a par value. Choose one of {prices}.", price=game.fmt(act.price),
                              prices=tuple(game.fmt(c.price) for c in self.par_cells(game))))
        game.market.place(sym, cells[0].row, cells[0].col)
        game.corps[sym].par_price = act.price
        st.par_due = None
        game.say(M("{player} sets the par price of {corp} at {price}.", player=player, corp=sym,
                   price=game.fmt(act.price)))
        rnd.summary.append(M("{player} set {corp}'s par at {price}", player=player, corp=sym,
                             price=game.fmt(act.price)))
        stock.check_float(game, sym)

    def pending_par(self, game: Game) -> tuple[str, str] | None:
        return state(game).par_due

    def player_trade_problem(self, game: Game, rnd: Any) -> Msg | None:
        """NOTES 2: privates change hands between players from stock round 2 on."""
        if game.round_no <= 1:
            return M("Privates may not change hands between players in the first stock round.")
        return None
