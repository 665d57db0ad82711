"""Write any game of ours as an 18xx.games record (18xx-games-format.md section 14).

The game's action log is replayed step by step beside the record being written, so every id can be taken
from the position it was made in: the certificate the site would hand over (``ShareLedger``), the tile copy
the site would pick (``TileLedger``), the city id of the tile now on the hex, the first depot train, the token
cost actually paid, the route revenue and the track between stops.

Only decisions are written. A ``pass`` our engine waited for where the site passes by itself (format spec 7.1,
``titles.auto_passes``) is left out; the reader puts it back, so export and import are inverse. No programs, no
auto actions, no chat, no undo.

A game played under the rulebook profile keeps that profile in a ``"stationmaster"`` key (the site ignores
unknown keys), so re-importing it plays by the same rules; the site itself would apply its own rules to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import (
    Action,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    HexToken,
    LayTile,
    Par,
    PlaceToken,
    RunRoutes,
    SellShares,
    dump_action,
)
from ..errors import TextError
from ..game import Game
from ..messages import M
from ..route_check import check_routes
from ..routes import Route
from . import ids
from .ids import TileLedger
from .seats import META_KEY, PROFILE
from .sync import cert_size, new_share_ledger, sync_shares, sync_tiles
from .titles import TitleMap, auto_passes, map_for

LOCAL_TYPES = frozenset({"name_train"})  # our actions with no 18xx.games counterpart


class ExportError(TextError):
    """A game that cannot be written as a record (names the action)."""


def write_record(game: Game, *, game_id: int | None = None, player_ids: list[int] | None = None,
                 created_at: int | None = None, description: str = "",
                 action_times: Sequence[int] | None = None) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict. ``player_ids`` default to 1..n in seat order. ``action_times``:
    when each of the game's actions was made (seconds since the epoch), for the record's ``created_at`` of each
    action and its ``finished_at``; without them every action carries ``created_at``, the game's."""
    return _Writer(game, game_id, player_ids, created_at, description, action_times).write()


class _Writer:
    def __init__(self, game: Game, game_id: int | None, player_ids: list[int] | None, created_at: int | None,
                 description: str, action_times: Sequence[int] | None = None) -> None:
        tmap = map_for(game.data)
        if tmap is None:
            raise ExportError(M("{title} records are not supported", title=game.title_name))
        self.tmap: TitleMap = tmap
        self.source = game
        self.players = [p.name for p in game.players]
        self.pids = list(player_ids) if player_ids is not None else list(range(1, len(self.players) + 1))
        if len(self.pids) != len(self.players) or len(set(self.pids)) != len(self.pids):
            raise ExportError(M("one distinct id per player is needed"))
        self.pid = dict(zip(self.players, self.pids, strict=True))
        self.game_id = game_id if game_id is not None else (game.seed or 1)
        self.created_at = created_at
        self.times = list(action_times) if action_times is not None and \
            len(action_times) == len(game.actions) else None
        self.at = created_at  # the time of the action being written
        self.description = description
        self.game = Game(game.rules, self.players, game.seed, game.options)
        self.game.replaying = True  # the stored log's route choices stand as they were accepted
        self.shares = new_share_ledger(self.game, tmap)
        self.tiles = TileLedger.for_counts({n: t.count for n, t in self.game.data.tiles.items()},
                                           tmap.preprinted_cities)
        self.actions: list[dict[str, Any]] = []
        # our decisions the site has no action for (18AL name chits under the rulebook), kept in our meta block
        self.local: list[dict[str, Any]] = []
        self.silent = 0  # automatic passes since the last written action

    # -- entities
    def entity(self, name: str) -> tuple[Any, str]:
        if name in self.pid:
            return self.pid[name], "player"
        if name in self.game.corps:
            return self.tmap.site_corp(name), "corporation"
        if name in self.game.companies:
            return self.tmap.site_company(name), "company"
        raise ExportError(M("unknown entity {entity}", entity=name))

    def emit(self, act: Action, entity: str | None = None, **fields: Any) -> None:
        ent, kind = self.entity(entity if entity is not None else act.entity)
        out: dict[str, Any] = {"type": fields.pop("type", act.type), "entity": ent, "entity_type": kind}
        out.update({k: v for k, v in fields.items() if v is not None})
        out["id"] = len(self.actions) + 1
        self.silent = 0
        if self.at is not None:
            out["created_at"] = self.at
        self.actions.append(out)

    # -- the walk
    def write(self) -> dict[str, Any]:
        for i, act in enumerate(self.source.actions):
            if self.times is not None:
                self.at = int(self.times[i])
            try:
                self.step(act)
            except ExportError as e:
                raise ExportError(M("action {n} ({type} by {entity}): {problem}", n=i, type=act.type,
                                    entity=act.entity, problem=e.msg)) from None
        return self.record()

    def step(self, act: Action) -> None:
        game = self.game
        if act.type == "pass" and auto_passes(game):
            game.process(act)
            self.silent += 1
            return
        if act.type in LOCAL_TYPES:
            game.process(act)
            self.local.append({"after": len(self.actions), "passes": self.silent, "action": dump_action(act)})
            return
        pre_cash = {s: c.cash for s, c in game.corps.items()}
        pre_president = {s: c.president for s, c in game.corps.items()}
        pre_tokens = {h: [list(slots) for slots in st.tokens] for h, st in game.board.hexes.items()}
        fields = self.before(act)
        game.process(act)
        self.after(act, fields, pre_cash, pre_president, pre_tokens)

    def before(self, act: Action) -> dict[str, Any]:
        """Fields that need the position before the action."""
        game = self.game
        if isinstance(act, BuyShares):
            site = self.tmap.site_corp(game.corp(act.corporation).sym)
            if act.source == "pool":
                cert = self.shares.first_pool(site, act.president)
            else:
                cert = self.shares.first_ipo(site)
            if cert is None:
                raise ExportError(M("no {source} certificate of {corp} in the site's ledger", source=act.source,
                                    corp=site))
            return {"shares": [cert]}
        if isinstance(act, RunRoutes):
            corp = act.entity
            assert act.routes is not None, "the log holds concrete routes"
            rs = check_routes(game.board, corp, game.rules.train_specs(game, corp), game.rules.route_rules(game),
                              [(r.train, list(r.nodes)) for r in act.routes], paths=[r.paths for r in act.routes])
            return {"routes": [route_object(game, r) for r in rs.routes]}
        if isinstance(act, BuyCompany):
            rnd = game.round
            unsold = rnd.unsold(game) if hasattr(rnd, "unsold") and getattr(rnd, "auction", None) is None else []
            return {"waterfall": bool(unsold) and unsold[0] == act.company}
        if isinstance(act, SellShares):
            return {"held": game.shares_held(act.entity, game.corp(act.corporation).sym)}
        if isinstance(act, LayTile):
            return {"tile": self.tiles.next_copy(act.tile)}
        if isinstance(act, PlaceToken):
            return {"city": self.tiles.city_id(act.hex, act.city)}
        return {}

    def after(self, act: Action, fields: dict[str, Any], pre_cash: dict[str, int],
              pre_president: dict[str, str | None], pre_tokens: dict[str, list[list[str | None]]]) -> None:
        game = self.game
        size = cert_size
        if isinstance(act, Bid):
            if act.company is None:
                self.emit(act, price=act.price)
            else:
                self.emit(act, company=self.tmap.site_company(act.company), price=act.price)
        elif isinstance(act, BuyCompany):
            company = self.tmap.site_company(act.company)
            if fields.get("waterfall"):
                # the site buys the cheapest unsold private with a bid at its price
                self.emit(act, type="bid", company=company, price=act.price)
            else:
                self.emit(act, company=company, price=act.price)
        elif isinstance(act, Par):
            sym = game.corp(act.corporation).sym
            site = self.tmap.site_corp(sym)
            self.shares.move(ids.share_id(site, 0), act.entity)
            self.emit(act, corporation=site, share_price=game.market.record_id(sym))
            if act.size is not None and len(game.rules.par_size_choices(game, sym)) > 1:
                self.emit(act, type="choose", choice=act.size)
        elif isinstance(act, BuyShares):
            sym = game.corp(act.corporation).sym
            cert = fields["shares"][0]
            holder = game.companies[act.entity].owner if act.entity in game.companies else act.entity
            self.shares.move(cert, holder or act.entity)
            self.emit(act, shares=[cert], percent=size(cert) * 100 // game.corps[sym].size)
        elif isinstance(act, SellShares):
            sym = game.corp(act.corporation).sym
            site = self.tmap.site_corp(sym)
            seller = act.entity
            new = game.corps[sym].president
            # a president selling below two shares hands the President's certificate on (our engine does so
            # before the sale; the site's record names it in the sale)
            dump = pre_president[sym] == seller and new != seller and fields["held"] - act.count < 2
            try:
                certs = self.shares.sale_bundle(seller, site, act.count, dump, size)
            except ids.IdError as e:
                raise ExportError(e.msg) from None
            self.shares.sell(seller, site, certs, new, act.count, size)
            self.emit(act, shares=certs, percent=act.count * 100 // game.corps[sym].size)
        elif isinstance(act, LayTile):
            self.tiles.lay(act.hex, fields["tile"])
            self.emit(act, hex=act.hex, tile=fields["tile"], rotation=act.rotation)
        elif isinstance(act, PlaceToken):
            corp = act.corporation or (game.round.corp if act.entity in game.companies else act.entity)
            before = pre_tokens[act.hex][act.city] if act.city < len(pre_tokens[act.hex]) else []
            now = game.board.hexes[act.hex].tokens[act.city]
            slot = next((i for i, (a, b) in enumerate(zip(before, now, strict=False)) if a != b), 0)
            cost = pre_cash[corp] - game.corps[corp].cash
            extra = {"cost": cost} if act.entity in game.corps and self.tmap.token_costs else {}
            self.emit(act, city=fields["city"], slot=slot, tokener=self.tmap.site_corp(corp), **extra)
        elif isinstance(act, HexToken):
            self.emit(act, hex=act.hex, cost=pre_cash[act.entity] - game.corps[act.entity].cash)
        elif act.type == "assign":
            self.emit(act, target=act.target, target_type="hex")  # type: ignore[union-attr]
        elif isinstance(act, RunRoutes):
            self.emit(act, routes=fields["routes"], extra_revenue=0, subsidy=0)
        elif isinstance(act, Dividend):
            self.emit(act, kind=act.kind)
        elif isinstance(act, BuyTrain):
            # the log holds the purchase in the site's form already (``purchase_as_logged``)
            self.emit(act, train=act.train, price=act.price, variant=act.variant, exchange=act.exchange)
        elif isinstance(act, DiscardTrain):
            self.emit(act, train=act.train)
        elif act.type == "end_game":
            who = act.entity
            if who not in self.pid and who not in game.corps and who not in game.companies:
                who = self.players[0]
            self.emit(act, entity=who)
        else:  # pass, convert, bankrupt
            self.emit(act)
        sync_shares(self.shares, game, self.tmap)
        sync_tiles(self.tiles, game)

    # -- the record
    def record(self) -> dict[str, Any]:
        game = self.game
        n = len(self.players)
        out: dict[str, Any] = {
            "id": self.game_id,
            "description": self.description,
            "user": {"id": 0, "name": "You"},
            "players": [{"id": pid, "name": name} for name, pid in zip(self.players, self.pids, strict=True)],
            "min_players": n,
            "max_players": n,
            "title": game.title_name,
            "settings": {"seed": game.seed,
                         "optional_rules": sorted(k for k, v in game.options.items()
                                                  if v and k in self.tmap.optional_rules)},
            "status": "finished" if game.finished else "active",
            "result": {str(self.pid[p]): game.net_worth(p) for p in self.players} if game.finished else {},
            "loaded": True,
            "actions": self.actions,
        }
        if self.created_at is not None:
            out["created_at"] = self.created_at
        if game.finished:
            out["game_end_reason"] = game.end_reason
            if game.end_reason == "manually_ended":
                out["manually_ended"] = True
            if self.at is not None:
                out["finished_at"] = self.at  # the last action's time (the game's, without action times)
        profile = game.options.get("rules_profile", "rulebook")
        if profile != PROFILE:
            out[META_KEY] = {"rules_profile": profile}
            if self.local:
                out[META_KEY]["local_actions"] = self.local
            ours = {k: v for k, v in game.options.items() if k != "rules_profile" and k not in self.tmap.optional_rules}
            if ours:
                out[META_KEY]["options"] = ours
        elif self.local:
            raise ExportError(M("{type} has no 18xx.games action", type=self.local[0]['action']['type']))
        return out


def route_object(game: Game, route: Route) -> dict[str, Any]:
    """A route as the site writes it: stop hexes, node ids and the track between consecutive stops."""
    hexes = [s.hex for s in route.stops]
    return {
        "train": route.train,
        "connections": connections(game, route),
        "hexes": [h for i, h in enumerate(hexes) if i == 0 or h != hexes[i - 1]],
        "revenue": route.revenue,
        "revenue_str": "-".join(hexes),
        "nodes": route.node_ids(),
    }


def connections(game: Game, route: Route) -> list[list[str]]:
    """One list of hexes per stop-to-stop stretch, in walk order; a hex appears once per stretch even where the
    track meets in the centre of a junction tile; a stretch inside one hex is written ``"<hex> <a>.<b>"``."""
    stops = route.stops
    out: list[list[str]] = []
    k = 0
    cur: list[str] = [stops[0].hex]
    for hex_id, pi in route.paths:
        if k + 1 >= len(stops):
            break
        if hex_id != cur[-1]:
            cur.append(hex_id)
        nxt = stops[k + 1]
        ends = game.board.layout(hex_id).paths[pi]
        if hex_id == nxt.hex and (nxt.kind, nxt.index) in ends:
            if len(cur) == 1:
                parts = sorted(p for p in (stops[k].part, nxt.part) if p is not None)
                cur = [f"{hex_id} {parts[0]}.{parts[-1]}"]
            out.append(cur)
            k += 1
            cur = [hex_id]
    return out
