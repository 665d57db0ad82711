"""Whose turn it is: the prompt that mentions the players who must act, says what they can do (with the best
routes at a run-trains step) and offers buttons and menus for the frequent legal moves."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import dump_action
from engine.errors import GameError
from engine.game import Game
from engine.messages import Join, M, Text
from engine.wording import clauses

from .. import texts
from ..commands import ANY_ENTITY, encode_action, make_custom_id
from ..storage import GameRow, PlayerRow
from ..texts import mention
from .choices import token_costs
from .replies import Button, ButtonStyle, Component, Refusal, Reply, Select, SelectOption
from .table import Ctx, Table, turn_moves
from .views import routes_text

log = logging.getLogger("stationmaster.service")

PAR_CORPORATION = "pc"  # the key of the menu of corporations to start; a choice is answered with its pars


class Prompt(Table):
    def _prompt(self, ctx: Ctx, game: Game, previous: Sequence[str]) -> Reply:
        row = ctx.row
        assert row is not None
        acting = game.acting_players()
        if not acting:
            return Reply(text=game.describe_turn())
        ids = [uid for uid in (ctx.uid(n) for n in acting) if uid is not None]
        who = " ".join(mention(i) for i in ids)
        turn: Text = game.describe_turn()
        lead = Join((f"{texts.PROMPT_MARK} ", texts.game_tag(row), " · "), "")  # the tag in the channel's words
        call = Join((lead, who, " — ", turn), "")
        if ctx.imported():
            # the record's names mean nothing here: the line names the members who claimed the seats
            turn = ctx.names_as_members(turn)
            named = any(mention(i) in str(turn) for i in ids)
            call = Join((lead, turn), "") if named else Join((lead, who, " — ", turn), "")
        lines: list[Text] = [call]
        away = tuple(M("{player} is away until {until}", player=p.name, until=ctx.away[p.user_id])
                     for p in ctx.players if p.user_id in ctx.away and p.user_id in ids)
        if away:
            lines.append(M("🏖️ {absences}.", absences=clauses(away)))
        # ping only those whose turn just began; the others were pinged already
        fresh = [uid for n in acting if n not in previous and (uid := ctx.uid(n)) is not None]
        reply = Reply(mentions=fresh, turn_of=row.id if fresh else None)
        cached = self._legal.get(row.id)
        if getattr(game.round, "step", None) == "track" and not (cached and cached[0] == self.state_token(game)):
            # Listing every tile and rotation is the slowest legal-move query, and a track step needs only the pass
            # button; autocomplete computes the full list when someone asks for it.
            entity = game.current_entity or ""
            legal = [{"type": "pass", "entity": entity}, {"type": "lay_tile", "entity": entity}]
            # the title's other choices of the step are few and cheap (18FR-RCE's port moves, privates' tiles)
            legal += [dump_action(a) for a in game.rules.or_legal_actions(game, game.round)]
        else:
            legal = self.legal(row.id, game)
        if any(a["type"] == "run_routes" for a in legal):
            try:
                best = self.best_routes(row.id, game)
            except Exception:
                log.exception("game %s: best routes failed", row.id)
                best = None
            if best is not None:
                lines.append(routes_text(game, best))
                if row.image_mode != "request":
                    corp = getattr(game.round, "corp", None)
                    reply.pictures.append(self._map_picture(row, game, best, corp))
                    self._routes_pictured[row.id] = (id(game.round), corp)
        elif any(a["type"] == "lay_tile" and a["entity"] not in game.companies for a in legal):
            lines.append(M("Lay track with `/track lay` (the lists offer only legal hexes, tiles and rotations)."))
        # a private's ability for this step belongs to its owner, who may not be the one acting (18FL's TR, owned
        # by another player, lays a tile for the operating corporation): the owner is told (by name: the pings of
        # a call are for those whose turn it is)
        owners: dict[str, list[str]] = {}
        for a in turn_moves(game, legal):
            owner = game.player_for(a["entity"]) if a["entity"] in game.companies else None
            if owner and owner not in acting and a["entity"] not in owners.get(owner, []):
                owners.setdefault(owner, []).append(a["entity"])
        for owner, companies in owners.items():
            lines.append(M("{member} may use {companies} now (`/private use`).", member=owner,
                           companies=tuple(companies)))
        if game.pending_discards:
            lines.append(M("Passing is not allowed: choose the train to discard."))
        buyer = next((a["entity"] for a in legal if a["type"] == "buy_company" and a["entity"] in game.corps), None)
        if buyer is not None and getattr(game.round, "step", None) == "buy_train":  # said once a turn, not each step
            lines.append(M("{corp} may also buy a private from the player who owns it with `/private buy`.",
                           corp=buyer))
        if any(a["type"] == "buy_company" and a["entity"] not in game.corps and _from_player(game, a) for a in legal):
            # a price between players is theirs to agree: a command, not a button for each price
            lines.append(M("Buy a private from another player with `/private buy` (its owner is asked)."))
        if any(a["type"] == "par" for a in legal):
            lines.append(M("Start a corporation with `/stock par`; `/act` lists everything you can do."))
        reply.text = Join(tuple(lines))
        reply.components = self._components(row, game, legal)
        return reply

    def _components(self, row: GameRow, game: Game, legal: list[dict[str, Any]]) -> list[list[Component]]:
        state = self.state_token(game)
        everything, legal = legal, turn_moves(game, legal)  # an any-time ability only in its owner's menu
        buttons: list[Button] = []
        selects: list[Select] = []

        def button(a: dict[str, Any], label: Text, style: ButtonStyle = "secondary", entity: str | None = None) -> None:
            cid = make_custom_id(row.id, state, "a:" + encode_action(a, entity))
            if cid and len(buttons) < 15:
                buttons.append(Button(label, cid, style))  # the transport cuts it to Discord's length

        costs: dict[str, dict[tuple[str, int], int]] = {}

        def label(a: dict[str, Any]) -> Text:
            text: Text = texts.describe_action(game, a)
            if a["type"] in ("place_token", "hex_token") and a["entity"] not in game.companies:
                table = costs.setdefault(a["type"], token_costs(game, a["type"]))
                cost = table.get((a["hex"], int(a.get("city", a.get("town", 0)) or 0)))
                if cost is not None:
                    text = M("{action} ({cost})", action=text, cost=game.fmt(cost))
            return text

        def select(key: str, placeholder: Text, acts: list[dict[str, Any]]) -> None:
            if not acts or len(acts) > 25:
                return
            cid = make_custom_id(row.id, state, key)
            opts = []
            seen: set[str] = set()
            for a in acts:
                value, text = encode_action(a), label(a)
                # two moves that read the same (a chit on either of two 2-trains) do the same: offer one
                if len(value) <= 100 and str(text) not in seen:
                    seen.add(str(text))
                    opts.append(SelectOption(text, value))
            if cid and opts:
                selects.append(Select(cid, placeholder, opts))

        seen_bids: set[int] = set()
        for a in legal:
            t = a["type"]
            if t == "bid" and not a.get("company"):
                price = int(a.get("price") or 0)
                if price not in seen_bids:
                    seen_bids.add(price)
                    button(a, M("Bid {price}", price=game.fmt(price)), "primary", entity=ANY_ENTITY)
            elif t == "bid":
                button(a, texts.describe_action(game, a), "primary")
            elif t == "dividend":
                # what each choice means in money: a shareholder's dividend, or the treasury's income
                revenue, corp = int(getattr(game.round, "revenue", 0) or 0), str(a["entity"])
                button(a, M("Pay out {amount} a share", amount=game.fmt(game.rules.per_share(game, corp, revenue)))
                       if a["kind"] == "payout" else M("Withhold {revenue}", revenue=game.fmt(revenue)),
                       "success" if a["kind"] == "payout" else "secondary")
            elif t == "run_routes":
                best = self._best.get(row.id)
                button(a, M("Run trains for {revenue}", revenue=game.fmt(best[1].revenue))
                       if best and best[0] == state else M("Run trains"), "primary")
            elif t == "buy_train" and _bank_or_pool(game, a):
                button(a, texts.describe_action(game, a), "primary")
            elif t in ("convert", "discard_train") or t == "assign" and a["entity"] not in game.companies:
                button(a, texts.describe_action(game, a), "primary")
            elif t == "buy_company" and a["entity"] not in game.corps and not _from_player(game, a):
                button(a, texts.describe_action(game, a), "primary")
        for a in legal:
            if a["type"] == "pass":
                button(a, M("Pass") if game.round.kind != "operating" else M("Pass (skip this step)"))
        # the pars in one menu where they fit (1830's B&O par, set by the BO's buyer); else the corporations, each
        # choice answered with a menu of its pars (8 corporations at 6 prices are more than a menu holds)
        corps = list(dict.fromkeys(str(a["corporation"]) for a in legal if a["type"] == "par"))
        pars = sorted((a for a in legal if a["type"] == "par"),
                      key=lambda a: (corps.index(str(a["corporation"])), *_par_order(a)))
        if len(pars) <= 25:
            select("s:par", M("Start a corporation…"), pars)
        elif len(corps) <= 25 and (cid := make_custom_id(row.id, state, PAR_CORPORATION)):
            selects.append(Select(cid, M("Start a corporation…"),
                                  [SelectOption(texts.corp_label(game, c), c) for c in corps]))
        select("s:buy", M("Buy a share…"), [a for a in legal if a["type"] == "buy_shares"])
        select("s:sell", M("Sell shares…"), [a for a in legal if a["type"] == "sell_shares"])
        select("s:token", M("Place a token…"), [a for a in legal if a["type"] in ("place_token", "hex_token")
                                                 and a["entity"] not in game.companies])
        # a private's menu is for its owner: shown only while the owner is one of those who act now
        acting = set(game.acting_players())
        select("s:private", M("Use your private company…"), [a for a in everything if a["entity"] in game.companies
                                                              and game.player_for(a["entity"]) in acting])
        rows: list[list[Component]] = []
        for i in range(0, len(buttons), 5):
            rows.append(list(buttons[i:i + 5]))
        for s in selects:
            rows.append([s])
        return rows[:5]

    def _par_menu(self, ctx: Ctx, game: Game, state: str, values: list[str]) -> Reply:
        """The answer to a corporation chosen in the prompt's menu: its pars, as a menu to the chooser only."""
        row = ctx.row
        assert row is not None
        seat = self._need_seat(ctx)
        corp = values[0] if values else ""
        pars = sorted((a for a in self.legal(row.id, game)
                       if a["type"] == "par" and a["corporation"] == corp and a["entity"] == seat.name), key=_par_order)
        if not pars:
            if seat.name not in game.acting_players():
                raise Refusal(M("It is not your turn. {turn}", turn=game.describe_turn()))
            raise Refusal(M("{corp} cannot be started now. {turn}", corp=corp, turn=game.describe_turn()))
        reply = Reply(text=M("{corp}: choose its par price.", corp=texts.corp_label(game, corp)), ephemeral=True)
        cid = make_custom_id(row.id, state, "s:par")
        options = [SelectOption(texts.describe_action(game, a), v) for a in pars[:25]
                   if len(v := encode_action(a)) <= 100]
        if cid and options:
            reply.components = [[Select(cid, M("Par price…"), options)]]
        return reply

    def _show_routes(self, ctx: Ctx, game: Game, seat: PlayerRow) -> Reply:
        row = ctx.row
        assert row is not None
        legal = self.legal(row.id, game)
        runs = [a for a in legal if a["type"] == "run_routes"]
        if not runs:
            raise Refusal(M("No corporation is at the run-trains step now. {turn}", turn=game.describe_turn()))
        corp = str(runs[0]["entity"])
        best = self.best_routes(row.id, game)
        state = self.state_token(game)
        # one routes picture per run in the channel: once the prompt has posted it, a look again is private
        again = self._routes_pictured.get(row.id) == (id(game.round), getattr(game.round, "corp", None))
        lines: list[Text] = [M("🚂 **{corp}**: {routes}", corp=corp, routes=routes_text(game, best))]
        if game.player_for(corp) != seat.name:
            lines.append(M("(Only {corp}'s president {president} can confirm.)", corp=corp,
                           president=game.player_for(corp)))
        picture = self._map_picture(row, game, best, corp, lang=ctx.reader_lang() if again else None)
        reply = Reply(text=Join(tuple(lines)), pictures=[picture], ephemeral=again)
        cid = make_custom_id(row.id, state, "a:" + encode_action(runs[0]))
        if cid:
            reply.components = [[Button(M("Run trains for {revenue}", revenue=game.fmt(best.revenue)), cid,
                                        "primary")]]
        return reply


def _par_order(a: Mapping[str, Any]) -> tuple[int, int]:
    """A corporation's pars as autocomplete lists them: lowest price first."""
    return int(a["price"]), int(a.get("size") or 0)


def _from_player(game: Game, a: Mapping[str, Any]) -> bool:
    """A private offered by the player who owns it (not the bank's sale)."""
    company = game.companies.get(str(a.get("company")))
    return company is not None and company.owner is not None and game.has_player(company.owner)


def _bank_or_pool(game: Game, a: Mapping[str, Any]) -> bool:
    """Whether a train on offer comes from the bank or the pool (a button) rather than another corporation."""
    try:
        t = game.train(str(a["train"]))
    except GameError:
        return True  # a train type ("3"): from the bank
    return t.owner is None or t.owner == "pool"
