"""Replay an 18xx.games game record through our engine (18xx-games-format.md sections 3 and 7 to 12).

The record's effective actions (undo and redo resolved, section 8: ``undo``) are turned into our actions one by one
and processed, each followed by its embedded ``auto_actions``; ``message`` and ``program_*`` actions change
nothing. The game uses the ``"18xx.games"`` rules profile (``seats``), so it follows the site's documented
deviations and goes on the way its players expect.

Records hold decisions only. Where the site passes by itself because the entity due to act has no legal action
(section 7.1) and our engine waits for a pass, the reader makes that pass (``titles.auto_passes``). If an action
still does not fit, the reader tries once more after passing the step our engine waits at, or drops a ``pass``
our engine has no use for; every such repair is listed in ``Imported.adjustments`` (none for a record that
matches our model of the site). After each action the site's ledgers of certificates and tiles follow our game
(``sync``).
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

from pydantic import ValidationError

from .. import journal
from ..actions import (
    Action,
    Assign,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Convert,
    DiscardTrain,
    Dividend,
    EndGame,
    HexToken,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RouteSpec,
    RunRoutes,
    SellShares,
    parse_action,
    shape_problems,
)
from ..errors import GameError
from ..messages import MN, M, Text
from ..route_check import check_routes
from ..routes import RouteError, best_routes
from ..titledata import load_title
from ..titles import TITLES, new_game
from ..wording import clauses
from . import ids
from .connections import nodes_from_connections, stretches
from .errors import RecordError, UnsupportedTitle
from .ids import IPO, POOL, IdError, TileLedger
from .results import Imported, RouteCheck, Seat
from .seats import META_KEY, PROFILE, options_of, seats_of
from .shape import check_shape
from .sync import cert_size, new_share_ledger, sync_shares, sync_tiles
from .titles import KNOWN_TYPES, TitleMap, auto_passes, map_for, title_map
from .undo import effective_actions, resolve_undo_redo, truncate

# what other modules and tests import from here, now at home in the modules above
__all__ = ["META_KEY", "PROFILE", "Imported", "RecordError", "RouteCheck", "Seat", "UnsupportedTitle", "cert_size",
           "effective_actions", "is_site_record", "new_share_ledger", "nodes_from_connections", "options_of",
           "read_record", "resolve_undo_redo", "seats_of", "sync_shares", "sync_tiles", "truncate"]


class _Reader:
    def __init__(self, record: dict[str, Any], *, routes: bool, optimum: bool) -> None:
        self.record = record
        title = record.get("title")
        if title_map(str(title)) is None:
            raise RecordError(M("unknown title {title}", title=repr(title)))
        if title not in TITLES:
            raise UnsupportedTitle(M("{title} records are recognised, but our engine has no {title} rules yet",
                                     title=title))
        data = load_title(str(title))
        tmap = map_for(data)
        assert tmap is not None
        self.tmap: TitleMap = tmap
        self.seats = seats_of(record, frozenset(c.sym for c in data.corporations) |
                              frozenset(c.sym for c in data.companies) | frozenset(tmap.corporations))
        options, warnings = options_of(record, str(title))
        try:
            self.game = new_game(str(title), [s.name for s in self.seats], ids.seed_of(record), options)
        except GameError as e:
            raise RecordError(e.msg) from None
        self.out = Imported(self.game, record, self.seats, warnings=warnings, tmap=tmap)
        self.check_routes, self.optimum = routes, optimum
        meta = record.get(META_KEY)
        # our decisions the site has no action for, each after the site action numbered ``after``
        self.local: list[dict[str, Any]] = list(meta.get("local_actions") or []) if isinstance(meta, dict) else []
        self.shares = new_share_ledger(self.game, tmap)
        self._synced: tuple[Any, ...] = ()  # game certificates and ledger as the last sync left them
        self.tiles = TileLedger.for_counts({n: t.count for n, t in self.game.data.tiles.items()},
                                           tmap.preprinted_cities)
        self._by_id = {s.site_id: s for s in self.seats}
        self._by_name = {s.name: s for s in self.seats}

    # -- entities
    def player(self, ref: Any, a: dict[str, Any]) -> str:
        seat = self._by_id.get(ref)
        if seat is None and isinstance(ref, str):
            seat = self._by_name.get(ref)
            if seat is None and ref.lstrip("-").isdigit():
                seat = self._by_id.get(int(ref))
        if seat is None and isinstance(ref, int):
            seat = self._by_id.get(str(ref))
        if seat is None:
            raise RecordError(M("no player {player} in this game", player=repr(ref)), a.get("id"), a)
        return seat.name

    def corp(self, ref: Any, a: dict[str, Any]) -> str:
        sym = self.tmap.corp(str(ref))
        if sym not in self.game.corps:
            raise RecordError(M("no corporation {corp} in {title}", corp=repr(ref), title=self.game.title_name),
                              a.get("id"), a)
        return sym

    def company(self, ref: Any, a: dict[str, Any]) -> str:
        sym = self.tmap.company(str(ref))
        if sym not in self.game.companies:
            raise RecordError(M("no private company {company} in this game", company=repr(ref)), a.get("id"), a)
        return sym

    def entity(self, a: dict[str, Any]) -> str:
        kind, ref = a.get("entity_type"), a.get("entity")
        if kind == "player":
            return self.player(ref, a)
        if kind == "corporation":
            return self.corp(ref, a)
        if kind == "company":
            return self.company(ref, a)
        if kind is None:
            for f in (self.player, self.corp, self.company):
                try:
                    return f(ref, a)
                except RecordError:
                    continue
        raise RecordError(M("entity {entity} of type {kind} is not in this game", entity=repr(ref), kind=repr(kind)),
                          a.get("id"), a)

    # -- the walk
    def run(self, actions: list[dict[str, Any]]) -> Imported:
        for a in actions:
            if not isinstance(a, dict):
                raise RecordError(M("not an action: {action}", action=repr(a)))
            autos = a.get("auto_actions") or []
            if not isinstance(autos, list):
                raise RecordError(M("not a list of actions: {actions}", actions=repr(autos)), a.get("id"), a)
            for item in [a, *autos]:
                if not isinstance(item, dict) or "type" not in item:
                    raise RecordError(M("not an action: {action}", action=repr(item)), a.get("id"), a)
                if item["type"] not in KNOWN_TYPES:
                    raise RecordError(M("action type {type} does not occur in {title} records",
                                        type=repr(item["type"]), title=self.game.title_name), a.get("id"), a)
        kept = truncate(actions)
        if len(kept) < len(actions):
            # the site reads a record so too (format spec 14.2): said, or "1 actions" puzzles whoever imported it
            self.out.warnings.append(MN("the record's last action has id {id}, lower than earlier ones: as on the "
                                        "site, only the first action is read",
                                        "the record's last action has id {id}, lower than earlier ones: as on the "
                                        "site, only the {n} actions up to it are read", id=actions[-1].get("id"),
                                        n=len(kept)))
        effective = effective_actions(kept)
        # a record's route choices are the players' (the site does not insist on the maximum)
        self.game.replaying = True
        try:
            for item in self._flatten(effective):
                self._apply_local(item.get("id"))
                self.apply(item)
            self._apply_local(None)
            self.auto_pass()
        finally:
            self.game.replaying = False
        return self.out

    def _flatten(self, effective: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """Effective actions with their auto actions, ``choose`` folded into the ``par`` before it."""
        flat: list[dict[str, Any]] = []
        for a in effective:
            flat.append(a)
            for auto in a.get("auto_actions") or []:
                flat.append({**auto, "id": a.get("id"), "_auto": True})
        chose: set[int] = set()
        for i, a in enumerate(flat):
            if i in chose:
                continue
            if a.get("type") == "par":
                # the size chosen right after a phase-4 par (chat and programs may come between)
                j = next((k for k in range(i + 1, len(flat)) if not _inert(flat[k])), None)
                if j is not None and flat[j].get("type") == "choose":
                    chose.add(j)
                    yield {**a, "_choice": flat[j].get("choice")}
                    continue
            yield a

    def apply(self, a: dict[str, Any]) -> None:
        kind = a["type"]
        if kind == "message":
            self.out.chat.append((a.get("id"), a.get("entity"), str(a.get("message", ""))))
            return
        if _inert(a):
            return
        if self.game.finished:
            raise RecordError(M("the game is over; only chat may follow"), a.get("id"), a)
        self.auto_pass()
        act = self.convert(a)
        # what a token placement paid is checked against the record's cost (``_after``)
        before = self._cash_snapshot() if kind in ("place_token", "hex_token") and "cost" in a else {}
        check = None
        if isinstance(act, RunRoutes):
            act, check = self._route_check(a, act)
        self._process(a, act)
        self.out.applied += 1
        if check is not None:
            self.out.route_checks.append(check)
        try:
            self._after(a, act, before)
        except IdError as e:
            # the game took the action; only our model of the site's ids disagrees
            self.out.warnings.append(M("action {id}: {reason}", id=a.get("id"), reason=e.msg))

    def _process(self, a: dict[str, Any], act: Action) -> None:
        game = self.game
        try:
            game.process(act)
            return
        except GameError as first:
            reason = first.msg
        # the site passed an optional step of this corporation's turn that our engine still waits at: pass it
        # (never another entity's turn) and try again
        frame = journal.begin()
        try:
            inserted = self._pass_before(act)
        except BaseException:
            journal.rollback(frame)
            raise
        if inserted:
            journal.commit(frame)
            self.out.adjustments.append(M("action {id}: passed for {entities} before {type} (the site had skipped "
                                          "that step)", id=a.get("id"), entities=", ".join(inserted), type=a["type"]))
            return
        journal.rollback(frame)
        if isinstance(act, Pass):
            legal = any(x.type == "pass" and x.entity == act.entity for x in game.legal_actions())
            if not legal:
                self.out.adjustments.append(M("action {id}: dropped a pass by {entity}, which our engine does not "
                                              "wait for ({reason})", id=a.get("id"), entity=act.entity, reason=reason))
                return
        raise RecordError(M("{type} by {entity} refused: {reason}", type=a.get("type"), entity=a.get("entity"),
                            reason=reason), a.get("id"), _clean(a))

    def _pass_before(self, act: Action) -> list[str]:
        """Pass the steps the operating corporation waits at until ``act`` is taken; the steps passed, or
        nothing if it never was (the caller then rolls the passes back)."""
        game = self.game
        inserted: list[str] = []
        cur = game.current_entity
        mine = cur is not None and getattr(game.round, "kind", "") == "operating" and (
            act.entity in (cur, game.corps[cur].president) or act.entity in game.companies)
        for _ in range(4 if mine else 0):
            if game.current_entity != cur or not any(x.type == "pass" for x in game.legal_actions()):
                break
            where = f"{cur} at {getattr(game.round, 'step', None)}"
            try:
                game.process(Pass(entity=cur or ""))
            except GameError:
                break
            inserted.append(where)
            if game.current_entity != cur:
                break
            try:
                game.process(act)
            except GameError:
                continue
            return inserted
        return []

    def _apply_local(self, before_id: Any) -> None:
        """Our own decisions kept in the meta block that come before the site action ``before_id`` (None: all)."""
        while self.local and (before_id is None or
                              (isinstance(before_id, int) and int(self.local[0].get("after", 0)) < before_id)):
            entry = self.local.pop(0)
            for _ in range(int(entry.get("passes", 0))):
                if not auto_passes(self.game):
                    raise RecordError(M("the record's own actions do not fit its automatic passes"), before_id)
                self.game.process(Pass(entity=self.game.current_entity or ""))
                self.out.auto_passes += 1
            try:
                act = parse_action(entry["action"])
                if isinstance(act, RunRoutes):
                    # a replay takes a logged run's revenue as it stands: only the reader's own check may supply it
                    raise GameError(M("route runs come from the site's actions, not from our own"))
                self.game.process(act)
            except (GameError, KeyError, ValueError) as e:
                raise RecordError(M("our own action {action} refused: {reason}", action=entry.get("action"),
                                    reason=e.msg if isinstance(e, GameError) else str(e)), before_id) from None

    def auto_pass(self) -> None:
        game = self.game
        guard = 0
        while auto_passes(game):
            guard += 1
            if guard > 50:
                raise RecordError(M("endless automatic passes"))
            game.process(Pass(entity=game.current_entity or ""))
            self.out.auto_passes += 1

    def _cash_snapshot(self) -> dict[str, int]:
        return {s: c.cash for s, c in self.game.corps.items()}

    # -- conversion
    def convert(self, a: dict[str, Any]) -> Action:
        try:
            return self._convert(a)
        except IdError as e:
            raise RecordError(e.msg, a.get("id"), _clean(a)) from None
        except ValidationError as e:
            raise RecordError(M("malformed {type} action ({problem})", type=a.get("type"),
                                problem=clauses(shape_problems(e, a))), a.get("id"), _clean(a)) from None
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(M("malformed {type} action ({problem})", type=a.get("type"), problem=str(e)), a.get("id"),
                              _clean(a)) from None

    def _convert(self, a: dict[str, Any]) -> Action:
        kind = a["type"]
        game = self.game
        who = self.entity(a)
        if kind == "bid":
            company = a.get("company")
            if company is None:
                return Bid(entity=who, price=int(a["price"]))
            sym = self.company(company, a)
            rnd = game.round
            unsold = rnd.unsold(game) if hasattr(rnd, "unsold") and getattr(rnd, "auction", None) is None else []
            if unsold and unsold[0] == sym:
                # a waterfall sale: a bid on the cheapest unsold private at its price buys it
                return BuyCompany(entity=who, company=sym, price=int(a["price"]))
            if hasattr(rnd, "unsold"):
                return Bid(entity=who, price=int(a["price"]), company=sym)
            return Bid(entity=who, price=0, company=sym)  # 18FL draft: the price of a pick means nothing
        if kind == "pass":
            return Pass(entity=who)
        if kind == "par":
            sym = self.corp(a["corporation"], a)
            price, row, col = ids.parse_share_price(a["share_price"])
            cell = game.market.cell(row, col)
            if cell is None or cell.price != price:
                self.out.warnings.append(M("action {id}: share price {cell} is not a cell of our market; using the "
                                           "par value {price}", id=a.get("id"), cell=a["share_price"], price=price))
            choice = a.get("_choice")
            size = int(choice) if choice is not None else None
            return Par(entity=who, corporation=sym, price=price, size=size)
        if kind == "choose":
            raise RecordError(M("a choose that does not follow a par"), a.get("id"), _clean(a))
        if kind == "buy_shares":
            shares = list(a["shares"])
            if len(shares) != 1:
                raise RecordError(M("a purchase of more than one certificate"), a.get("id"), _clean(a))
            site_corp, index = ids.split_share(shares[0])
            sym = self.corp(site_corp, a)
            if not self.shares.exists(shares[0]):
                raise RecordError(M("there is no certificate {share} now", share=shares[0]), a.get("id"), _clean(a))
            owner = self.shares.owner[shares[0]]
            if owner not in (IPO, POOL):
                raise RecordError(M("{share} belongs to {owner}, not to the IPO or the pool", share=shares[0],
                                    owner=owner), a.get("id"), _clean(a))
            self._check_percent(a, [shares[0]], sym)
            return BuyShares(entity=who, corporation=sym, source="pool" if owner == POOL else "ipo",
                             president=owner == POOL and index == 0)
        if kind == "sell_shares":
            shares = list(a["shares"])
            corps = {ids.split_share(s)[0] for s in shares}
            if len(corps) != 1:
                raise RecordError(M("a sale of certificates of several corporations"), a.get("id"), _clean(a))
            sym = self.corp(corps.pop(), a)
            for s in shares:
                if self.shares.owner.get(s) != who:
                    raise RecordError(M("{player} does not hold {share}", player=who, share=s), a.get("id"),
                                      _clean(a))
            count = sum(self._cert_shares(s, sym) for s in shares)
            if ids.share_id(self.tmap.site_corp(sym), 0) in shares and "percent" in a:
                # a dump: the President's certificate may be sold in part (what the seller keeps)
                count = int(a["percent"]) * game.corps[sym].size // 100
            else:
                self._check_percent(a, shares, sym)
            return SellShares(entity=who, corporation=sym, count=count)
        if kind == "lay_tile":
            name, _ = ids.split_tile(a["tile"])
            if name not in game.data.tiles:
                raise RecordError(M("there is no tile {tile} in {title}", tile=name, title=game.title_name),
                                  a.get("id"), _clean(a))
            return LayTile(entity=who, hex=a["hex"], tile=name, rotation=int(a["rotation"]) % 6)
        if kind == "place_token":
            hex_id, part = self.tiles.city(a["city"])
            city = self._city_index(hex_id, part, a)
            if who in game.companies:
                tokener = a.get("tokener")
                return PlaceToken(entity=who, hex=hex_id, city=city,
                                  corporation=self.corp(tokener, a) if tokener else None)
            return PlaceToken(entity=who, hex=hex_id, city=city)
        if kind == "hex_token":
            return HexToken(entity=who, hex=a["hex"], town=0)
        if kind == "assign":
            return Assign(entity=who, target=str(a["target"]))
        if kind == "run_routes":
            return RunRoutes(entity=who, routes=[RouteSpec(train=r["train"], nodes=self._nodes(r, who, a))
                                                 for r in a["routes"]])
        if kind == "dividend":
            return Dividend(entity=who, kind=a["kind"])
        if kind == "buy_company":
            return BuyCompany(entity=who, company=self.company(a["company"], a), price=int(a["price"]))
        if kind == "buy_train":
            return BuyTrain(entity=who, train=str(a["train"]), price=int(a["price"]), variant=a.get("variant"),
                            exchange=str(a["exchange"]) if a.get("exchange") else None)
        if kind == "discard_train":
            return DiscardTrain(entity=who, train=str(a["train"]))
        if kind == "convert":
            return Convert(entity=who)
        if kind == "bankrupt":
            return Bankrupt(entity=who)
        if kind == "end_game":
            return EndGame(entity=who)
        raise RecordError(M("{type} actions do not occur in {title}", type=kind, title=game.title_name), a.get("id"),
                          _clean(a))

    def _cert_shares(self, cert: str, sym: str) -> int:
        """Shares in a certificate: the President's is two, every other one."""
        return 2 if ids.split_share(cert)[1] == 0 else 1

    def _check_percent(self, a: dict[str, Any], certs: list[str], sym: str) -> None:
        if "percent" not in a:
            return
        ours = sum(self._cert_shares(c, sym) for c in certs) * 100 // self.game.corps[sym].size
        if int(a["percent"]) != ours:
            self.out.warnings.append(M("action {id}: the record says {percent}% for {shares}; we count {ours}%",
                                       id=a.get("id"), percent=a["percent"], shares=tuple(certs), ours=ours))

    def _city_index(self, hex_id: str, part: int, a: dict[str, Any]) -> int:
        layout = self.game.board.layout(hex_id)
        if part >= len(layout.cities):
            raise RecordError(M("part {part} of {hex} is not a city", part=part, hex=hex_id), a.get("id"), _clean(a))
        return part

    def _nodes(self, route: dict[str, Any], corp: str, a: dict[str, Any]) -> list[str]:
        if route.get("nodes"):
            return [str(n) for n in route["nodes"]]
        # the checker is looked up here, where tests wrap it
        return nodes_from_connections(self.game, corp, route, check_routes)

    # -- after an action
    def _after(self, a: dict[str, Any], act: Action, cash_before: dict[str, int]) -> None:
        game = self.game
        kind = a["type"]
        if kind == "buy_shares":
            # a private exchanged for a share (1830 M&H) hands the share to its owner
            holder = game.companies[act.entity].owner if act.entity in game.companies else act.entity
            self.shares.move(a["shares"][0], holder or act.entity)
        elif kind == "sell_shares":
            sym = game.corp(act.corporation).sym  # type: ignore[union-attr]
            self.shares.sell(act.entity, self.tmap.site_corp(sym), list(a["shares"]), game.corps[sym].president,
                             act.count, cert_size)  # type: ignore[union-attr]
        elif kind == "par":
            self.shares.move(ids.share_id(self.tmap.site_corp(act.corporation), 0), act.entity)  # type: ignore[union-attr]
        elif kind == "lay_tile":
            self.tiles.lay(a["hex"], a["tile"])
        elif kind in ("place_token", "hex_token") and "cost" in a:
            corp = act.corporation if isinstance(act, PlaceToken) and act.corporation else \
                (game.round.corp if act.entity in game.companies else act.entity)  # type: ignore[union-attr]
            paid = cash_before.get(corp or "", 0) - game.corps[corp].cash if corp in game.corps else None
            if paid is not None and paid != int(a["cost"]):
                self.out.warnings.append(M("action {id}: the record's token cost is {cost}, ours {paid}",
                                           id=a.get("id"), cost=a["cost"], paid=paid))
        # the ledger is brought in line only when a certificate moved: after a sync both sides agree, and the sync
        # reads nothing but them
        seen = self._holdings()
        notes: list[Text] = []
        if seen != self._synced:
            notes = sync_shares(self.shares, game, self.tmap, self._moved_since_sync(seen))
            self._synced = self._synced_holdings()
        # certificates that come with a private (18FL FECCTC) or leave in a bankruptcy are not named in the record
        if notes and kind in ("buy_shares", "sell_shares", "par"):
            self.out.warnings += [M("action {id}: {reason}", id=a.get("id"), reason=n) for n in notes]
        sync_tiles(self.tiles, game)

    def _holdings(self) -> tuple[Any, ...]:
        """Our certificates and the site's ledger, as a value to compare from one action to the next. A game's
        certificates are made at its start, each for good with its corporation and index: their owners tell; the
        ledger's order changes only with its content."""
        return list(map(_OWNER, self.game.certs)), self.shares.owner

    def _moved_since_sync(self, seen: tuple[Any, ...]) -> set[str] | None:
        """The corporations with a certificate that moved, in our game or in the site's ledger, since the last sync
        (None: all, before the first)."""
        if not self._synced:
            return None
        (owners, ledger), (owners_then, ledger_then) = seen, self._synced
        if len(owners) != len(owners_then):
            return None
        certs = self.game.certs
        moved = {certs[i].corp for i, (now, then) in enumerate(zip(owners, owners_then, strict=True)) if now != then}
        sites = {ids.split_share(cid)[0] for cid, holder in ledger.items() if ledger_then.get(cid) != holder}
        return moved | {sym for sym in self.game.corps if self.tmap.site_corp(sym) in sites}

    def _synced_holdings(self) -> tuple[Any, ...]:
        owners, ledger = self._holdings()
        return owners, dict(ledger)

    # -- routes
    def _route_check(self, a: dict[str, Any], act: RunRoutes) -> tuple[RunRoutes, RouteCheck | None]:
        """The routes with their stops in running order (the record lists them as they were built), and the
        recorded revenues against ours."""
        game = self.game
        corp = act.entity
        rules = game.rules.route_rules(game)
        specs = game.rules.train_specs(game, corp)
        assert act.routes is not None
        try:
            # the track the record names (the site picks a route's track by its connections)
            rs = check_routes(game.board, corp, specs, rules, [(r.train, list(r.nodes)) for r in act.routes],
                              stretches=[stretches(r) for r in a["routes"]])
        except (RouteError, ValueError) as e:
            raise RecordError(M("the routes are not legal for us: {problem}",
                                problem=e.msg if isinstance(e, RouteError) else str(e)), a.get("id"),
                              _clean(a)) from None
        # with their revenue and track: the game takes them as checked here, once
        ordered = RunRoutes(entity=corp, routes=[RouteSpec(train=r.train, nodes=r.node_ids(), revenue=r.revenue,
                                                           paths=list(r.paths)) for r in rs.routes])
        if not self.check_routes:
            return ordered, None
        recorded = [r.get("revenue") for r in a["routes"]]
        best = best_routes(game.board, corp, specs, rules).revenue if self.optimum else None
        check = RouteCheck(a.get("id"), self.tmap.site_corp(corp), [None if r is None else int(r) for r in recorded],
                           [r.revenue for r in rs.routes], best)
        return ordered, check


_OWNER = attrgetter("owner")


def _inert(a: dict[str, Any]) -> bool:
    """Chat and standing orders: no effect on the game."""
    kind = str(a.get("type"))
    return kind == "message" or kind.startswith("program_")


def _clean(a: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in a.items() if not k.startswith("_")}


def read_record(record: dict[str, Any], *, before: Any = None, routes: bool = True,
                optimum: bool = False) -> Imported:
    """Replay a record (a parsed JSON object) into a new game of ours.

    ``before``: stop before the action with this id (the position the site showed when it was submitted).
    ``routes``: recompute every recorded route (``Imported.route_checks``); ``optimum``: also our maximum.
    Raises ``RecordError`` (with the action id, the action and the reason) when the record cannot be replayed.
    """
    if not isinstance(record, dict):
        raise RecordError(M("a record is a JSON object"))
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError(M("the record has no action list"))
    check_shape(record)
    if before is not None:
        cut = next((i for i, a in enumerate(actions) if isinstance(a, dict) and a.get("id") == before), None)
        if cut is None:
            raise RecordError(M("there is no action with id {id}", id=before))
        actions = actions[:cut]
    return _Reader(record, routes=routes, optimum=optimum).run(actions)


def is_site_record(data: Any) -> bool:
    """An 18xx.games record: a title, players and an action list, and not our own format."""
    return isinstance(data, dict) and "title" in data and isinstance(data.get("players"), list) and \
        isinstance(data.get("actions"), list) and "format" not in data
