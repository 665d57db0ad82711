"""18FL's private draft (Initial Stock Round, first part): everyone makes a sealed bid of $0, $5 or $10 for the
right to choose first, then each player buys one private at face value in bid order. The FEC's private comes with
a share of the FEC; the TR's buyer takes the priority deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Bid
from ..errors import GameError
from ..journal import Tracked
from ..messages import M, Msg
from ..state import BANK

if TYPE_CHECKING:
    from ..game import Game

BID_AMOUNTS = (0, 5, 10)


class DraftRound(Tracked):
    """Initial Stock Round, first part: sealed $0/$5/$10 bids, then one private each in bid order."""

    kind = "draft"
    name = "Private draft"  # the round's id in the game's records, in English

    @property
    def display_name(self) -> Msg:
        """The round's name as a player reads it."""
        return M("Private draft")

    def __init__(self, game: Game) -> None:
        self.bids: dict[str, int] = {}
        self.order: list[str] = []
        self.picked: list[str] = []
        game.say(M("Each player makes a sealed bid of $0, $5 or $10 for the right to choose a private company "
                   "first."))

    def bidding(self) -> bool:
        return not self.order

    def finished(self, game: Game) -> bool:
        return bool(self.order) and len(self.picked) == len(self.order)

    def current_entity(self, game: Game) -> str | None:
        players = self.acting_players(game)
        return players[0] if players else None

    def acting_players(self, game: Game) -> list[str]:
        if self.bidding():
            return [p.name for p in game.players if p.name not in self.bids]
        return [self.order[len(self.picked)]]

    def process(self, game: Game, act: Action) -> None:
        if not isinstance(act, Bid):
            raise GameError(M("The private draft is on: {state}", state=self.describe(game)))
        if self.bidding():
            if act.company is not None:
                raise GameError(M("First everyone makes a sealed bid of $0, $5 or $10; companies are chosen after."))
            if act.entity not in self.acting_players(game):
                if game.has_player(act.entity):
                    raise GameError(M("{player} has already bid.", player=act.entity))
                raise GameError(M("There is no player called {player}.", player=act.entity))
            if act.price not in BID_AMOUNTS:
                raise GameError(M("A sealed bid is $0, $5 or $10."))
            self.bids[act.entity] = act.price
            game.say(M("{player} has made a sealed bid.", player=act.entity))
            if len(self.bids) == len(game.players):
                self._reveal(game)
            return
        chooser = self.order[len(self.picked)]
        if act.entity != chooser:
            raise GameError(M("It is {player}'s turn to choose a private company.", player=chooser))
        if act.company is None:
            raise GameError(M("Choose a private company: {companies}.", companies=tuple(self._open(game))))
        company = game.company(act.company)
        if company.owner is not None:
            raise GameError(M("{company} is taken. Open: {companies}.", company=company.sym,
                              companies=tuple(self._open(game))))
        if act.price not in (0, company.value):
            # a pick is no bid: the private costs its face value (the price may be left at $0 or name that value)
            raise GameError(M("{company} is bought at its face value, {value}, not {price}: choose it with no price.",
                              company=company.sym, value=game.fmt(company.value), price=game.fmt(act.price)))
        if game.available_cash(chooser) < company.value:
            raise GameError(M("{company} costs {value}.", company=company.sym, value=game.fmt(company.value)))
        game.pay(chooser, BANK, company.value)
        company.owner = chooser
        self.picked.append(company.sym)
        game.say(M("{player} buys {name} ({company}) for {value}.", player=chooser, name=company.name,
                   company=company.sym, value=game.fmt(company.value)))
        if company.sym == "FECCTC":
            cert = game.certs_of("FEC")[1]
            cert.owner = chooser
            game.say(M("{player} receives a {percent}% share of {corp} with it.", player=chooser,
                       percent=game.percent_of("FEC", 1), corp="FEC"))
        if company.sym == "TR":
            game.priority = [p.name for p in game.players].index(chooser)

    def _reveal(self, game: Game) -> None:
        seats = [p.name for p in game.players]
        self.order = sorted(seats, key=lambda n: (-self.bids[n], seats.index(n)))
        for name, amount in self.bids.items():
            if amount:
                game.pay(name, BANK, amount)
        game.say(M("Bids revealed: {bids}. Choosing order: {order}.",
                   bids=tuple(f"{n} {game.fmt(self.bids[n])}" for n in seats), order=tuple(self.order)))

    def _open(self, game: Game) -> list[str]:
        return [s for s, c in game.companies.items() if c.owner is None]

    def legal_actions(self, game: Game) -> list[Action]:
        if self.bidding():
            return [Bid(entity=p, price=a) for p in self.acting_players(game) for a in BID_AMOUNTS]
        chooser = self.order[len(self.picked)]
        return [Bid(entity=chooser, price=0, company=s) for s in self._open(game)]

    def describe(self, game: Game) -> Msg:
        if self.bidding():
            return M("Waiting for sealed bids ($0, $5 or $10) from {players}.",
                     players=tuple(self.acting_players(game)))
        chooser = self.order[len(self.picked)]
        return M("{player} chooses a private company: {companies}.", player=chooser,
                 companies=tuple(self._open(game)))
