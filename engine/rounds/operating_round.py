"""The operating round: each floated corporation takes its turn in market order.

A turn is a sequence of steps the title lists (18FL: convert, track, token,
routes, dividend, trains). A step is skipped when it offers nothing; the
president passes to leave an optional step. Private companies' bonus actions
come in through the title's rules object, in the step they belong to.

This module holds the turn's sequence and its track, token, routes and dividend
steps; the buy-trains step (train_buying) and the president's emergency money
(emergency_money) are parts of the round's class kept in modules of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import track
from ..actions import (
    Action,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    RouteSpec,
    RunRoutes,
    SellShares,
    parse_action,
)
from ..describe import rotation_words
from ..errors import GameError
from ..journal import Tracked
from ..messages import Join, M, Msg, Text
from ..route_check import check_routes
from ..routes import Route, RouteError, RouteSet, Stop, best_routes
from ..state import BANK
from ..wording import clauses
from .emergency_money import EmergencyMoney
from .stock_round import with_purpose
from .train_buying import TrainStep, buy_train

if TYPE_CHECKING:
    from ..game import Game


class OperatingRound(TrainStep, EmergencyMoney, Tracked):
    kind = "operating"

    def __init__(self, game: Game, number: int, total: int) -> None:
        self.number = number
        self.total = total
        self.set_no = game.round_no  # the stock round this set follows: "OR 4.2" is the second OR after SR 4
        self.operated: list[str] = []
        self.corp: str | None = None
        self.step = ""
        self.revenue = 0
        self.routes: RouteSet | None = None
        self.last_routes: dict[str, RouteSet] = {}
        self.lays: list[str] = []
        self.company_uses: list[str] = []
        self.token_placed = False
        self.bank_types_bought: list[str] = []
        self.emergency_sold: list[str] = []
        self.emergency_raised = 0  # what the president's emergency sales brought in this turn
        self.emergency_least: int | None = None  # the least one certificate of those sales brought
        self.summary: list[Text] = []
        self.done = False
        self.order: list[str] | None = None  # fixed at the start where the title says so (1830)
        if game.rules.fixed_operating_order:
            self.order = game.market.operating_order([s for s, c in game.corps.items() if c.floated])
        game.say(M("Operating round {set}.{n} begins.", set=game.round_no, n=number))
        game.rules.pay_private_revenue(game)
        self._next_corp(game)

    @property
    def name(self) -> str:
        """The round's id in the game's records ("OR 2.1"), in English."""
        return f"OR {self.set_no}.{self.number}"

    @property
    def display_name(self) -> Msg:
        """The round's name as a player reads it ("OR 2.1" / 運営ラウンド2.1)."""
        return M("OR {set}.{n}", set=self.set_no, n=self.number)

    # ------------------------------------------------------------------ sequencing
    def _next_corp(self, game: Game) -> None:
        self.corp = None
        waiting = [s for s, c in game.corps.items()
                   if c.floated and not c.frozen and s not in self.operated and c.president]
        if self.order is not None:
            # an order fixed as the round began holds the corporations floated then; one floating during the
            # round (1830: the M&H exchange completing the NYC's 60%) operates from the next round
            waiting = [s for s in self.order if s in waiting]
        if not waiting:
            self.done = True
            return
        self.corp = waiting[0] if self.order is not None else game.market.operating_order(waiting)[0]
        self.lays, self.company_uses, self.token_placed = [], [], False
        self.bank_types_bought, self.emergency_sold, self.emergency_raised = [], [], 0
        self.emergency_least = None
        self.revenue, self.routes = 0, None
        corp = game.corps[self.corp]
        game.say(M("{corp} operates (president {president}, treasury {cash}).", corp=self.corp,
                   president=corp.president, cash=game.fmt(corp.cash)))
        self.step = ""
        self._enter(game, 0)

    def _enter(self, game: Game, index: int) -> None:
        steps = game.rules.or_steps
        while index < len(steps):
            self.step = steps[index]
            if self._step_applies(game):
                return
            if self.step == "token" and (why := game.rules.token_skip_reason(game, self)):
                game.say(why)
            index += 1
        self._end_turn(game)

    def advance(self, game: Game) -> None:
        steps = game.rules.or_steps
        self._enter(game, steps.index(self.step) + 1)

    def _step_applies(self, game: Game) -> bool:
        assert self.corp is not None
        sym = self.corp
        if self.step == "routes":
            if not game.trains_of(sym):
                self._no_revenue(game)
                return False
            return True
        if self.step == "dividend":
            if self.revenue == 0:
                if self.routes is not None:
                    self._no_revenue(game)
                return False
            return True
        if self.step == "buy_train":
            return self._can_buy_any(game) or not game.trains_of(sym)
        return game.rules.step_applies(game, self, self.step)

    def recheck_step(self, game: Game) -> None:
        """A purchase in the middle of a step (a private bought with the turn's cash) may leave the step with
        nothing to offer: it is skipped, as it would have been on entry. Routes and dividend never change so."""
        if self.corp is not None and self.step not in ("routes", "dividend") and not self._step_applies(game):
            self.advance(game)

    def _no_revenue(self, game: Game) -> None:
        assert self.corp is not None
        before = game.price(self.corp)
        game.rules.move_price_after_run(game, self.corp, 0, "withhold")
        after = game.price(self.corp)
        game.say(M("{corp} earns nothing; {price_move}.", corp=self.corp, price_move=price_move(game, before, after)))
        self.summary.append(M("{corp} earned nothing ({before} → {after})", corp=self.corp, before=game.fmt(before),
                              after=game.fmt(after)))
        game.revenues.append((self.name, self.corp, 0, "withhold"))
        game.remove_obsolete(self.corp)

    def _end_turn(self, game: Game) -> None:
        assert self.corp is not None
        game.corps[self.corp].operated = True
        self.operated.append(self.corp)
        for t in game.trains_of(self.corp):
            t.ran = False
        self._next_corp(game)

    def finished(self, game: Game) -> bool:
        return self.done

    # ------------------------------------------------------------------ who acts
    def current_entity(self, game: Game) -> str | None:
        return self.corp

    def acting_players(self, game: Game) -> list[str]:
        if self.corp is None:
            return []
        p = game.corps[self.corp].president
        return [p] if p else []

    # ------------------------------------------------------------------ actions
    def process(self, game: Game, act: Action) -> None:
        sym = self.corp
        if sym is None:
            raise GameError(M("No corporation is operating."))
        if act.entity in game.companies:
            game.rules.company_action(game, self, act)
            return
        pres = game.corps[sym].president
        if act.entity != sym and not (isinstance(act, SellShares) and act.entity == pres):
            raise GameError(M("{corp} is operating ({step}); actions now are for {corp}, decided by its president "
                              "{president}.", corp=sym, step=self.step_text(), president=pres))
        if isinstance(act, BuyCompany):
            from ..companies import corporation_buys_company

            corporation_buys_company(game, sym, act)
            self.summary.append(M("{corp} bought {company}", corp=sym, company=act.company))
            self.recheck_step(game)
            return
        handler = getattr(self, f"_{self.step}_{act.type}", None)
        if handler is None:
            special = game.rules.or_action(game, self, act)
            if not special and isinstance(act, (BuyShares, Par)):
                raise GameError(M("Shares are bought, and corporations started, only in a stock round; now {corp} "
                                  "is at the {step} step: {allowed}.", corp=sym, step=self.step_text(),
                                  allowed=self.allowed_text(game)))
            if not special:
                raise GameError(M("{corp} is at the {step} step: {allowed}.", corp=sym, step=self.step_text(),
                                  allowed=self.allowed_text(game)))
            return
        handler(game, act)

    def step_text(self) -> Text:
        return {"convert": M("conversion"), "track": M("track"), "token": M("token"), "routes": M("run trains"),
                "dividend": M("dividend"), "buy_train": M("buy trains"),
                "company": M("buy a private company"), "home": M("home station")}.get(self.step, self.step)

    def track_text(self, game: Game) -> Text:
        """What the track step still waits for: a first tile, a second yellow one, only a private's bonus tile, and a
        title's other choice of the step."""
        choice = game.rules.track_step_choice(game, self)
        tiles = self._tiles_text(game)
        return tiles if choice is None else M("{choice}; or {rest}", choice=choice, rest=tiles)

    def _tiles_text(self, game: Game) -> Text:
        yellow = game.rules.lay_allowance_problem(game, self, "yellow") is None
        upgrade = game.rules.lay_allowance_problem(game, self, "upgrade") is None and len(game.phase.tiles) > 1
        bonus = sorted({a.entity for a in game.rules.or_legal_actions(game, self)
                        if a.type == "lay_tile" and a.entity in game.companies})
        # a lay the step may not end without (18EZ's home tile of a new railroad): no "or pass"
        may_pass = game.rules.track_pass_problem(game, self) is None
        if not self.lays:
            lay = M("lay a yellow tile or upgrade one") if upgrade else M("lay a yellow tile")
        elif yellow or upgrade:
            lay = M("lay a second yellow tile") if yellow and not upgrade else M("lay another tile")
        elif bonus:
            president = game.corps[self.corp or ""].president
            if all(game.companies[c].owner not in (president, self.corp) for c in bonus):
                # another player's private lays it (18FL's TR): the president does not, and may pass
                return M("a tile with {companies} (its owner's move), or pass", companies=tuple(bonus))
            return M("lay a tile with {companies}, or pass", companies=tuple(bonus))
        else:
            return M("pass")
        if bonus:
            return M("{lay} (or a tile with {companies}), or pass", lay=lay, companies=tuple(bonus)) if may_pass \
                else M("{lay} (or a tile with {companies})", lay=lay, companies=tuple(bonus))
        return M("{lay}, or pass", lay=lay) if may_pass else lay

    def allowed_text(self, game: Game) -> Text:
        if self.step == "track":
            return self.track_text(game)
        if self.step == "token":
            must = game.rules.token_pass_problem(game, self)
            if must is not None:
                return must  # a station that may not be passed (1830: the D&H's, a home station), said as such
            legal = self.legal_actions(game)
            if not any(a.entity == self.corp and a.type in ("place_token", "hex_token") for a in legal):
                # its own token is over (18FL: a bonus token came first): what is left is a private's, or passing
                left = sorted({a.entity for a in legal if a.entity in game.companies})
                return M("use {companies}, or pass", companies=tuple(left)) if left else M("pass")
            return M("{action}, or pass", action=game.rules.token_step_words)
        if self.step == "buy_train":
            return (M("buy a train (it must own one: passing is not allowed)")
                    if self.corp and self.train_required(game) else M("buy a train, or pass"))
        return {
            "home": M("choose the city of its home station (free)"),
            "convert": M("convert to 10 shares, or pass"),
            "routes": M("run trains (the engine shows the best routes)"),
            "dividend": M("pay out or withhold"),
            "company": M("buy a private company from a player, or pass"),
        }.get(self.step, M("act"))

    # -- track
    def _track_lay_tile(self, game: Game, act: LayTile) -> None:
        assert self.corp is not None
        # a non-yellow tile on an empty hex (18FR-RCE's direct brown port tile) is a build like an upgrade
        tdef = game.data.tiles.get(act.tile)
        yellow = tdef is None or tdef.color == "yellow"
        kind = "upgrade" if track.is_upgrade(game, act.hex) or not yellow else "yellow"
        problem = game.rules.lay_allowance_problem(game, self, kind)
        if problem:
            raise GameError(problem)
        lay_tile(game, self.corp, act.hex, act.tile, act.rotation)
        self.lays.append(kind)
        if not game.rules.more_lays_possible(game, self):
            self.advance(game)

    def _track_pass(self, game: Game, act: Pass) -> None:
        problem = game.rules.track_pass_problem(game, self)
        if problem:
            raise GameError(problem)
        self.advance(game)

    # -- token
    def _token_pass(self, game: Game, act: Pass) -> None:
        problem = game.rules.token_pass_problem(game, self)
        if problem:
            raise GameError(problem)
        self.advance(game)

    def token_done(self, game: Game) -> None:
        if self.step == "token" and not game.rules.token_step_open(game, self):
            self.advance(game)

    # -- routes
    def _routes_run_routes(self, game: Game, act: RunRoutes) -> None:
        assert self.corp is not None
        game.rules.before_run(game, self)
        logged = logged_routes(game, act.routes) if game.replaying and act.routes is not None else None
        if logged is not None:
            chosen = logged  # a stored log (or a record the reader has just checked) holds the routes it ran
        elif act.routes is None:
            # whether the search proved them best describes the answer, not the game: the state keeps the routes run
            best = self.best(game)
            chosen = RouteSet(best.routes, best.revenue)
        else:
            try:
                chosen = check_routes(game.board, self.corp, game.rules.train_specs(game, self.corp),
                                      game.rules.route_rules(game),
                                      [(r.train, list(r.nodes)) for r in act.routes],
                                      [r.paths for r in act.routes])
            except RouteError as e:
                raise GameError(e.msg) from None
            # a stored log was checked when it was played; a new submission must be the maximum
            if not game.replaying:
                best = self.best(game)
                if chosen.revenue < best.revenue:
                    raise GameError(M("Those routes earn {revenue}, but {corp} must run for its maximum, {best}.",
                                      revenue=game.fmt(chosen.revenue), corp=self.corp, best=game.fmt(best.revenue)))
        if logged is None:
            game.logged_as = RunRoutes(entity=act.entity, routes=[
                RouteSpec(train=r.train, nodes=r.node_ids(), revenue=r.revenue, paths=list(r.paths))
                for r in chosen.routes])
        self.routes = chosen
        self.last_routes[self.corp] = chosen
        self.revenue = chosen.revenue
        for r in chosen.routes:
            game.train(r.train).ran = True
        parts = [M("a {train}-train {route} for {revenue}", train=game.train(r.train).variant,
                   route=self.route_text(game, r), revenue=game.fmt(r.revenue)) for r in chosen.routes]
        if not parts:
            game.say(M("{corp} has no route to run.", corp=self.corp))
        elif len(parts) == 1:
            game.say(M("{corp} runs {run}.", corp=self.corp, run=parts[0]))
        else:
            game.say(M("{corp} runs {runs}: {revenue} in all.", corp=self.corp, runs=clauses(parts),
                       revenue=game.fmt(chosen.revenue)))
        self.advance(game)

    def route_text(self, game: Game, route: Any) -> Text:
        return Join(tuple(game.rules.stop_name(game, s) for s in route.stops), "–")

    def best(self, game: Game, budget: int | None = None) -> RouteSet:
        """The corporation's maximum-revenue routes now (cached until the next action), searched within ``budget``
        steps (default ``DEFAULT_BUDGET``). A run without routes runs the answer of the default budget."""
        assert self.corp is not None
        key = (len(game.actions), self.corp)
        cached = getattr(self, "_best", None)
        if cached is None or cached[0] != key:
            cached = self._best = (key, {})
        found: dict[int | None, RouteSet] = cached[1]
        if budget not in found:
            found[budget] = best_routes(game.board, self.corp, game.rules.train_specs(game, self.corp),
                                        game.rules.route_rules(game), budget=budget)
        return found[budget]

    # -- dividend
    def _dividend_dividend(self, game: Game, act: Dividend) -> None:
        assert self.corp is not None
        sym, revenue = self.corp, self.revenue
        before = game.price(sym)
        if act.kind == "withhold":
            text = M("{corp} withholds {revenue}", corp=sym, revenue=game.fmt(revenue))
        else:
            text = M("{corp} pays {amount} per share", corp=sym, amount=game.fmt(game.rules.per_share(game, sym,
                                                                                                  revenue)))
        game.rules.move_price_after_run(game, sym, revenue, act.kind)
        after = game.price(sym)
        # said before the money moves: the payment that breaks the bank then reads after the payout, not before it
        game.say(M("{dividend}; {price_move}.", dividend=text, price_move=price_move(game, before, after)))
        if act.kind == "withhold":
            game.pay(BANK, sym, revenue)
        else:
            for p in game.players:
                n = game.shares_held(p.name, sym)
                if n:
                    game.pay(BANK, p.name, game.rules.dividend_for(game, sym, revenue, n))
            for holder in game.rules.treasury_dividend_holders:
                unsold = game.shares_held(holder, sym)
                if unsold:
                    game.pay(BANK, sym, game.rules.dividend_for(game, sym, revenue, unsold))
        self.summary.append(M("{corp} earned {revenue}, {kind} ({before} → {after})", corp=sym,
                              revenue=game.fmt(revenue), kind=M("paid out") if act.kind == "payout" else M("withheld"),
                              before=game.fmt(before), after=game.fmt(after)))
        game.revenues.append((self.name, sym, revenue, act.kind))
        game.remove_obsolete(sym)
        self.advance(game)

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self, game: Game) -> list[Action]:
        sym = self.corp
        if sym is None:
            return []
        out: list[Action] = []
        if self.step == "track":
            if game.rules.track_pass_problem(game, self) is None:
                out.append(Pass(entity=sym))
            r = game.rules.reach(game, sym)
            kinds_ok = {k for k in ("yellow", "upgrade") if game.rules.lay_allowance_problem(game, self, k) is None}
            for h in track.candidate_hexes(game, r):
                for opt in track.legal_tiles(game, sym, h, r):
                    if ("upgrade" if opt.upgrade else "yellow") in kinds_ok:
                        out.append(LayTile(entity=sym, hex=h, tile=opt.tile, rotation=opt.rotation))
        elif self.step == "routes":
            out.append(RunRoutes(entity=sym))
        elif self.step == "dividend":
            out += [Dividend(entity=sym, kind="payout"), Dividend(entity=sym, kind="withhold")]
        elif self.step == "buy_train":
            out += self.buy_train_actions(game)
        out += game.rules.or_legal_actions(game, self)
        return out

    def describe(self, game: Game) -> Text:
        sym = self.corp
        if sym is None:
            return M("The operating round is over.")
        pres = game.corps[sym].president
        text: Text = M("{president}, for {corp} ({round}): {allowed}.", president=pres, corp=sym,
                       round=self.display_name, allowed=self.allowed_text(game))
        if self.step == "buy_train" and self.must_raise(game):
            text = Join((text, self._emergency_text(game)), " ")
        return with_purpose(text, game.rules.step_purpose(game, self.step))

    def _emergency_text(self, game: Game) -> Text:
        """What a president must do for a required train: which train, what is missing, what to sell first."""
        sym = self.corp
        assert sym is not None
        pres = game.corps[sym].president or ""
        cash = game.corps[sym].cash
        train, _source = min(self.available_trains(game), key=lambda ts: ts[0].price)
        missing = train.price - cash
        short = missing - game.available_cash(pres)
        if short <= 0:
            return M("{corp} has {cash} and must buy a train: the cheapest is a {train}-train for {price}; {president} "
                     "pays the {missing} missing.", corp=sym, cash=game.fmt(cash), train=train.variant,
                     price=game.fmt(train.price), president=pres, missing=game.fmt(missing))
        own, can = game.available_cash(pres), self.raisable(game, pres)
        legal = self.buy_train_actions(game)  # the step's moves, sales among them: listed once for every question
        # another corporation's train, for what the treasury (and the president, where he may) can pay: no sale
        other = any(isinstance(a, BuyTrain) and game.train(a.train).owner in game.corps for a in legal)
        if can >= missing:
            text = M("{corp} has {cash} and must buy a train: the cheapest is a {train}-train for {price}. {president} "
                     "pays the {missing} missing but has {own}: sell shares for at least {short} first (`/stock "
                     "sell`), then buy it.", corp=sym, cash=game.fmt(cash), train=train.variant,
                     price=game.fmt(train.price), president=pres, missing=game.fmt(missing), own=game.fmt(own),
                     short=game.fmt(short))
            return Join((text, M("Or {corp} buys another corporation's train without a sale (`/train buy`; its "
                                 "president must agree).", corp=sym)), " ") if other else text
        # selling cannot cover it: say so, and what is left (another corporation's train, else bankruptcy)
        if can <= own:
            first = M("{corp} has {cash} and must buy a train: the cheapest is a {train}-train for {price}. "
                      "{president} pays the {missing} missing but has {own}, and no share that may be sold.", corp=sym,
                      cash=game.fmt(cash), train=train.variant, price=game.fmt(train.price), president=pres,
                      missing=game.fmt(missing), own=game.fmt(own))
        else:
            first = M("{corp} has {cash} and must buy a train: the cheapest is a {train}-train for {price}. "
                      "{president} pays the {missing} missing but has {own}, and selling every share {president} may "
                      "sell would bring that only to {can}.", corp=sym, cash=game.fmt(cash), train=train.variant,
                      price=game.fmt(train.price), president=pres, missing=game.fmt(missing), own=game.fmt(own),
                      can=game.fmt(can))
        parts: list[Text] = [first]
        if other:
            parts.append(M("{corp} may still buy another corporation's train (`/train buy`; its president must "
                           "agree).", corp=sym))
        if game.rules.bankrupt_after_all_sales and any(isinstance(a, SellShares) for a in legal):
            parts.append(M("Otherwise {president} sells every share that may be sold, then goes bankrupt (`/corp "
                           "bankrupt`).", president=pres))
        else:
            parts.append(M("Otherwise {president} goes bankrupt (`/corp bankrupt`).", president=pres))
        return Join(tuple(parts), " ")



def logged_routes(game: Game, specs: list[RouteSpec]) -> RouteSet | None:
    """The routes a log recorded with their revenue and track, as the engine priced them when they were run; None
    if the log holds only their stops (older logs, records): they are then checked again."""
    routes = []
    for spec in specs:
        if spec.revenue is None or spec.paths is None:
            return None
        stops = []
        for node in spec.nodes:
            hex_id, part = node.rsplit("-", 1)
            lay = game.board.layout(hex_id)
            i = int(part)
            if i < len(lay.cities):
                stops.append(Stop("city", hex_id, i, i))
            elif i < len(lay.cities) + len(lay.towns):
                stops.append(Stop("town", hex_id, i - len(lay.cities), i))
            else:
                stops.append(Stop("offboard", hex_id, 0, i))
        routes.append(Route(spec.train, tuple(stops), tuple((h, p) for h, p in spec.paths), spec.revenue))
    return RouteSet(tuple(routes), sum(r.revenue for r in routes))


def price_move(game: Game, before: int, after: int) -> Msg:
    if before == after:
        return M("price stays {price}", price=game.fmt(after))
    return M("price {before} → {after}", before=game.fmt(before), after=game.fmt(after))


def lay_tile(game: Game, corp: str, hex_id: str, tile_id: str, rotation: int, *, yellow_only: bool = False,
             by: Text | None = None) -> None:
    # a stored log was checked when it was played: replaying it does not ask again where the track may go
    r = None if game.trusted else game.rules.reach(game, corp)
    problem = None if r is None else track.tile_problem(game, corp, hex_id, tile_id, rotation, r,
                                                         yellow_only=yellow_only)
    if problem:
        assert r is not None
        opts = track.legal_tiles(game, corp, hex_id, r, yellow_only=yellow_only)
        if opts:
            legal = tuple(M("#{tile} {rotation}", tile=o.tile, rotation=rotation_words(game.board, hex_id, o.tile,
                                                                                       o.rotation)) for o in opts[:12])
            raise GameError(Join((problem, M("Legal here: {tiles}.", tiles=legal)), " "))
        raise GameError(problem)
    cost = game.rules.lay_cost(game, hex_id)
    if cost:
        game.pay(corp, BANK, cost)
    before = [list(slots) for slots in game.board.hexes[hex_id].tokens]
    game.board.place_tile(hex_id, tile_id, rotation, track.city_map(game, hex_id, tile_id, rotation))
    game.rules.on_tile_laid(game, corp, hex_id, before)
    name = game.data.hex(hex_id).name
    where = f"{hex_id} ({name})" if name else hex_id
    if cost:
        game.say(M("{corp} lays #{tile} at {hex} (rotation {rotation}) for {cost}.", corp=by or corp, tile=tile_id,
                   hex=where, rotation=rotation, cost=game.fmt(cost)))
    else:
        game.say(M("{corp} lays #{tile} at {hex} (rotation {rotation}).", corp=by or corp, tile=tile_id, hex=where,
                   rotation=rotation))


__all__ = ["OperatingRound", "lay_tile", "buy_train", "parse_action"]
