"""Playing a move: the player's command or button becomes an engine action for the entity they decide for, it is
authorised (seated, their entity, their turn), applied, stored with the next reminder in one transaction, and
announced (the round's log lines, round summaries, pictures) with the prompt for whoever acts next."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from engine.actions import dump_action, parse_action, shape_problems
from engine.describe import rotation_words
from engine.errors import GameError
from engine.game import Game, is_game_over_line
from engine.messages import Join, M, Msg, Text
from engine.route_text import routes_from_text
from engine.stock import share_price
from engine.wording import clauses

from .. import checkpoints, texts
from .. import pictures as jobs
from ..commands import ANY_ENTITY, Command, decode_action, encode_action, make_custom_id
from ..storage import GameRow, PlayerRow
from .ids import normalise_ids
from .prompt import PAR_CORPORATION
from .replies import Button, Picture, Refusal, Reply, merge
from .table import Ctx, Table, drafting, game_result, turn_moves
from .views import routes_text

log = logging.getLogger("stationmaster.service")

OWN_ROUTES = "own"  # the key of the button that runs routes a player gave (`/train run routes:`)
MAX_FORCED_PASSES = 12  # steps that may finish by themselves after one action (a guard, not a rule)
# the lines that open a round (by their templates: a title names its stock round its own way, 18EZ's share dealing)
_ROUND_STARTS = ("{round} {n} begins; {player} has {priority}.", "Operating round {set}.{n} begins.")


@dataclass
class _Before:
    """What the announcement of a move compares with: the game just before it."""


    n_messages: int
    n_actions: int
    n_finished_rounds: int
    round_id: int
    round_kind: str
    corp: str | None
    prices: dict[str, tuple[int, int]]
    acting: list[str]
    drafting: bool
    entity: str | None


class Play(Table):
    async def _action_cmd(self, ctx: Ctx, cmd: Command, opts: dict[str, Any]) -> Reply:
        game = await self._game(ctx)
        seat = self._need_seat(ctx)
        if cmd.path == "train run" and str(opts.get("routes") or "").strip():
            return await self._own_routes(ctx, game, seat, str(opts["routes"]), bool(opts.get("confirm")))
        if cmd.path == "train run" and not opts.get("confirm"):
            if ctx.row is not None:
                await self._prepare(ctx.row.id, game)
            return self._show_routes(ctx, game, seat)
        if cmd.action == "*":
            raw = str(opts.get("action") or opts.get("ability") or "")
            try:
                action = decode_action(raw)
            except ValueError:
                if cmd.path != "private use":
                    raise Refusal(M("Choose one of the actions the list offers (start typing to filter it).")) \
                        from None
                action = self._ability_named(ctx, game, seat.name, raw)
            if action["entity"] == ANY_ENTITY:
                action["entity"] = self._entity_for(game, seat.name, str(action["type"]), ctx.row)
            if cmd.path == "private use" and action["entity"] not in game.companies:
                raise Refusal(M("That is not a private company's ability; use `/act` for other actions."))
        else:
            assert cmd.action is not None
            if cmd.path == "track lay" and opts.get("rotation") in (None, ""):
                named = {"type": "lay_tile", "hex": opts.get("hex"), "tile": opts.get("tile")}
                if ctx.row is not None:  # "tile 9", "g22": the ids, as a lay with its rotation reads them
                    row_id = ctx.row.id
                    normalise_ids(game, named, lambda: self.legal(row_id, game))
                return await self._rotation_choice(ctx, game, seat.name, {**opts, **named})
            fields = cmd.build(opts) if cmd.build else {}
            action = {"type": cmd.action, **fields}
            action["entity"] = self._entity_for(game, seat.name, cmd.action, ctx.row)
            if action["type"] == "pass" and ctx.row is not None and \
                    action["entity"] == getattr(game.round, "corp", None) and \
                    await self._runs_for_nothing(ctx.row.id, game):
                # passing is running the trains for nothing (the engine has no pass there)
                action = {"type": "run_routes", "entity": action["entity"]}
            row = ctx.row
            assert row is not None

            def legal() -> list[dict[str, Any]]:
                return self.legal(row.id, game)

            normalise_ids(game, action, legal)
            if any(o.name not in opts and o.name in _FILLABLE for o in cmd.options):
                _fill_from_legal(game, action, legal())
            if cmd.action == "buy_company" and "company" not in action:
                # left out where one private may be bought (1830's waterfall: the cheapest); else the choices
                offered = sorted({str(a["company"]) for a in legal()
                                  if a["type"] == "buy_company" and a["entity"] == action["entity"]})
                if offered:
                    raise Refusal(M("Name the private to buy: {companies}.", companies=tuple(offered)))
                if seat.name not in game.acting_players():
                    raise Refusal(M("It is not your turn. {turn}", turn=game.describe_turn()))
                raise Refusal(M("There is no private you can buy now."))
            if cmd.action == "buy_company" and "price" not in action:
                action["price"] = _listed_price(game, action, legal())
        return await self._apply(ctx, game, action)

    async def _rotation_choice(self, ctx: Ctx, game: Game, name: str, opts: Mapping[str, Any]) -> Reply:
        """`/track lay` without a rotation: the legal rotations as a picture and a list, to the player only."""
        assert ctx.row is not None
        hex_id, tile = str(opts.get("hex") or "").upper(), str(opts.get("tile") or "").lstrip("#")
        mine = self._controlled(game, name)
        on_hex = [a for a in self.legal(ctx.row.id, game) if a["type"] == "lay_tile" and a["entity"] in mine
                  and str(a["hex"]) == hex_id]
        lays = [a for a in on_hex if str(a["tile"]) == tile]
        rotations = sorted({int(a["rotation"]) for a in lays})
        if not rotations:
            # no legal rotation at all: the engine's reason when it is not one rotation's (not reachable, blocked,
            # wrong tile); when every rotation fails on its own, the tiles that do fit
            entity = self._entity_for(game, name, "lay_tile", ctx.row)
            for r in range(6):
                try:
                    game.check({"type": "lay_tile", "entity": entity, "hex": hex_id, "tile": tile, "rotation": r})
                except GameError as e:
                    if not _names_rotation(e.msg):
                        raise Refusal(_without_listing(e.msg)) from None
            fitting = tuple(dict.fromkeys(f"#{a['tile']}" for a in on_hex))
            if fitting:
                raise Refusal(M("#{tile} fits {hex} in no rotation. Tiles that fit there: {tiles}.", tile=tile,
                                hex=hex_id, tiles=fitting))
            raise Refusal(M("#{tile} cannot be laid on {hex} now.", tile=tile, hex=hex_id))
        if len(rotations) == 1:
            entity = next(a["entity"] for a in lays)
            return await self._apply(ctx, game, {"type": "lay_tile", "entity": entity, "hex": hex_id, "tile": tile,
                                                 "rotation": rotations[0]})
        where = texts.hex_name(game, hex_id)
        caption = M("#{tile} on {where}: which rotation?", tile=tile, where=where)
        job = jobs.rotation_job(game, hex_id, tile, rotations, caption, lang=ctx.reader_lang())
        text = Join((M("#{tile} fits {where} in {n} ways:", tile=tile, where=where, n=len(rotations)),
                     *(M("· {line}", line=rotation_words(game.board, hex_id, tile, r)) for r in rotations),
                     M("Choose with `/track lay hex:{hex} tile:{tile} rotation:N`.", hex=hex_id, tile=tile)))
        return Reply(text=text, ephemeral=True,
                     pictures=[Picture(f"game{ctx.row.id}-{len(game.actions):05d}-rotations-{hex_id}.png", job)])

    def _controlled(self, game: Game, name: str) -> set[str]:
        out = {name}
        out |= {s for s, c in game.corps.items() if c.president == name}
        out |= {s for s in game.companies if game.player_for(s) == name}
        return out

    def _entity_for(self, game: Game, name: str, action_type: str, row: GameRow | None) -> str:
        """Which of the player's entities an action is for: the one the engine offers it to, else the one acting."""
        mine = self._controlled(game, name)
        cur = game.current_entity
        if action_type != "sell_shares" and cur in mine and cur not in game.companies:
            # the usual case, without listing legal moves; only sales may be the president's own during an OR
            return cur
        legal = self.legal(row.id, game) if row else [dump_action(a) for a in game.legal_actions()]
        ents = []
        for a in legal:
            if a["type"] == action_type and a["entity"] in mine and a["entity"] not in game.companies \
                    and a["entity"] not in ents:
                ents.append(a["entity"])
        if len(ents) == 1:
            return ents[0]
        if action_type == "sell_shares":
            return name  # shares are a player's, also for a corporation's train: the engine says why not now
        if cur in mine and cur not in game.companies:
            return cur
        return name

    def _ability_named(self, ctx: Ctx, game: Game, name: str, typed: str) -> dict[str, Any]:
        """`/private use ability:MH`: a private named by its id stands for its ability when it has one legal now;
        with several, or none, the refusal says which (the list's own values are decoded before this)."""
        wanted = " ".join(typed.split()).lower()
        company = next((c for c in game.companies if c.lower() == wanted), None)
        if company is None:
            raise Refusal(M("Choose one of the actions the list offers (start typing to filter it)."))
        legal = self.legal(ctx.row.id, game) if ctx.row else [dump_action(a) for a in game.legal_actions()]
        uses = [dict(a) for a in legal if a["entity"] == company] if company in self._controlled(game, name) else []
        if len(uses) == 1:
            return uses[0]
        if not uses:
            raise Refusal(M("{company} has no ability you can use now.", company=company))
        raise Refusal(M("{company} can do several things now: {options}. Choose one from the list.",
                        company=company, options=tuple(texts.describe_action(game, a) for a in uses)))

    def _authorize(self, ctx: Ctx, game: Game, action: Mapping[str, Any]) -> None:
        seat = self._need_seat(ctx)
        entity = str(action.get("entity"))
        decider = game.player_for(entity)
        if entity in game.companies:
            if decider != seat.name:
                owner = game.companies[entity].owner or M("nobody")
                raise Refusal(M("{company} belongs to {owner}; only its owner can use it.", company=entity,
                                owner=owner))
            return
        if decider != seat.name:
            if entity in game.corps:
                raise Refusal(M("{corp} is run by its president {president}, not by you.", corp=entity,
                                president=decider or M("nobody")))
            raise Refusal(M("You can only act for yourself and the corporations you preside."))
        if seat.name not in game.acting_players():
            raise Refusal(M("It is not your turn. {turn}", turn=game.describe_turn()))

    def _before(self, game: Game) -> _Before:
        rnd = game.round
        return _Before(
            n_messages=len(game.messages),
            n_actions=len(game.actions),
            n_finished_rounds=len(game.finished_rounds),
            round_id=id(rnd),
            round_kind=getattr(rnd, "kind", ""),
            corp=getattr(rnd, "corp", None),
            prices=dict(game.market.positions),
            acting=list(game.acting_players()),
            drafting=drafting(game),
            entity=game.current_entity,
        )

    async def _apply(self, ctx: Ctx, game: Game, action: dict[str, Any], *, check_turn: bool = True,
                     admin: bool = False) -> Reply:
        row = ctx.row
        assert row is not None
        _check_shape(action)
        if check_turn:
            self._authorize(ctx, game, action)
            proposal = self._needs_seller_consent(ctx, game, action)
            if proposal is not None:
                async with self.store.transaction() as tx:
                    await self._set_reminder(tx, ctx, game, self.now())  # the game now waits for the seller
                return proposal
        action = self.with_shown_routes(row.id, game, action)
        before = self._before(game)
        try:
            # a run may search routes for seconds: off the loop
            await asyncio.to_thread(game.process, action, admin=admin)
        except GameError:
            raise
        except Exception:
            # The engine restores its state on any error; drop the cached copy anyway, the log is the truth.
            self._evict(row.id)
            raise
        stored = dump_action(game.actions[-1])
        now = self.now()
        try:
            async with self.store.transaction() as tx:
                seq = await tx.append_action(row.id, stored, ctx.user.id, now)
                await self._set_reminder(tx, ctx, game, now)
                if game.finished:
                    await tx.set_status(row.id, "finished", now, game_result(game))
        except BaseException:
            self._evict(row.id)  # memory is ahead of the file: replay from the log next time
            raise
        await checkpoints.save_if_due(self.store, row.id, game, seq, now)
        self._close_votes(row.id)
        if game.finished:
            self._evict(row.id)
        else:
            await self._prepare(row.id, game)
            await self._forced_passes(ctx, game)
        try:
            return self._after_action(ctx, game, action, before)
        except Exception:
            log.exception("game %s: action %s applied and stored, but the reply failed", row.id, stored)
            return Reply(text=Join(tuple(t for _i, t in game.messages[before.n_messages:])) or M("Done."))

    async def _forced_passes(self, ctx: Ctx, game: Game) -> None:
        """A step with nothing legal left but passing finishes by itself: the pass is made and stored for the seat
        that had to make it (so its player may undo it like their own); the engine's log line says who passed. So
        does a run of trains no route of which earns anything (proven): there is nothing to choose."""
        row = ctx.row
        assert row is not None
        for _ in range(MAX_FORCED_PASSES):
            if game.finished or drafting(game) or getattr(game.round, "kind", "") not in ("operating", "stock"):
                return
            legal = turn_moves(game, self.legal(row.id, game))
            if len(legal) != 1 or legal[0]["type"] not in ("pass", "run_routes"):
                return
            if legal[0]["type"] == "run_routes" and not await self._runs_for_nothing(row.id, game):
                return
            entity = str(legal[0]["entity"])
            player = game.player_for(entity) or entity
            await asyncio.to_thread(game.process, dict(legal[0]))
            uid = ctx.uid(player)
            now = self.now()
            try:
                async with self.store.transaction() as tx:
                    seq = await tx.append_action(row.id, dump_action(game.actions[-1]), uid, now)
                    await self._set_reminder(tx, ctx, game, now)
                    if game.finished:  # the pass may close the last round of the game
                        await tx.set_status(row.id, "finished", now, game_result(game))
            except BaseException:
                self._evict(row.id)
                raise
            await checkpoints.save_if_due(self.store, row.id, game, seq, now)
            if game.finished:
                self._evict(row.id)
                return
            await self._prepare(row.id, game)

    async def _runs_for_nothing(self, game_id: int, game: Game) -> bool:
        """At a run of trains, no route earns anything (proven, not merely none found within the budget)."""
        if getattr(game.round, "step", None) != "routes":
            return False
        best = await asyncio.to_thread(self.best_routes, game_id, game)
        return bool(best.proven and best.revenue == 0)

    def _after_action(self, ctx: Ctx, game: Game, action: Mapping[str, Any], before: _Before,
                      headline: Text = "") -> Reply:
        row = ctx.row
        assert row is not None
        lines = [t for _i, t in game.messages[before.n_messages:]]
        pictures: list[Picture] = []
        new_rounds = game.finished_rounds[before.n_finished_rounds:]
        summaries: dict[int, Text] = {}  # by the finished round it closes
        for k, entry in enumerate(new_rounds):
            if entry["kind"] == "stock":
                summaries[k] = texts.stock_round_summary(game, entry)
            elif entry["kind"] == "draft":
                summaries[k] = texts.draft_summary(game)
            elif entry["kind"] == "operating" and entry is new_rounds[-1] and (
                    game.finished or getattr(game.round, "kind", "") != "operating"):
                summaries[k] = self._or_set_summary(game)
        # a round's summary closes that round: it goes before the line that starts the round after it (one move
        # may end several: the last pass of a stock round runs operating rounds of privates' income alone)
        starts = [i for i, t in enumerate(lines) if isinstance(t, Msg) and t.text in _ROUND_STARTS]
        parts: list[Text] = [headline] if headline else []
        done = 0
        for k, summary in sorted(summaries.items()):
            cut = starts[k] if k < len(starts) else len(lines)
            parts += lines[done:cut] + [summary]
            done = cut
        parts += lines[done:]
        mode = row.image_mode
        turn_over = before.round_kind == "operating" and (
            id(game.round) != before.round_id or getattr(game.round, "corp", None) != before.corp)
        prices_moved = dict(game.market.positions) != before.prices
        if game.finished:
            # the game-over block says what the log's own line says, better: the line goes
            parts = [t for t in parts if not is_game_over_line(t)]
            parts.append(ctx.names_as_members(texts.game_over_text(game)))
            pictures.append(self._standings_picture(row, game))
            pictures.append(self._map_picture(row, game))
        elif mode == "turn":
            # after a turn that showed its routes the map is already in the channel (under the routes)
            if turn_over and self._routes_pictured.get(row.id) != (before.round_id, before.corp):
                turn_map = self._track_step_map(row, game)
                if turn_map is not None:
                    pictures.append(turn_map)
            if prices_moved:
                pictures.append(self._market_picture(row, game))
        elif mode == "round" and new_rounds:
            pictures.append(self._map_picture(row, game))
            pictures.append(self._market_picture(row, game))
        public = Reply(text=Join(tuple(parts)), pictures=pictures)
        if not game.finished:
            # a new round, another entity or the end of the bidding is a new turn: ping again even the same player
            same_turn = (id(game.round) == before.round_id and drafting(game) == before.drafting
                         and (before.drafting or game.current_entity == before.entity))
            merge(public, self._prompt(ctx, game, before.acting if same_turn else []))
        secret_bid = action.get("type") == "bid" and not action.get("company") and before.drafting
        if secret_bid:
            price = int(action.get("price") or 0)
            ack = (M("🤫 Your sealed bid of {price} is in. Nobody sees it until everyone has bid.",
                     price=game.fmt(price)) if drafting(game) else
                   M("🤫 Your sealed bid of {price} is in; all bids are revealed.", price=game.fmt(price)))
            return Reply(text=ack, ephemeral=True, followups=[public])
        return public

    def _or_set_summary(self, game: Game) -> Text:
        entries: list[dict[str, Any]] = []
        start_action = 0
        for e in reversed(game.finished_rounds):
            if e["kind"] != "operating":
                start_action = e["action_index"]
                break
            entries.insert(0, e)
        since = next((i for i, (idx, _t) in enumerate(game.messages) if idx >= start_action), len(game.messages))
        return texts.or_set_summary(game, entries, since)


    async def _action_click(self, ctx: Ctx, game: Game, state: str, key: str, values: list[str]) -> Reply:
        """A button ("a:" and the action) or a menu ("s:", the action is the chosen value) of a prompt."""
        if state != self.state_token(game) and not self._still_open(ctx, game, key):
            raise Refusal(M("Too late: the game has moved on since these buttons were shown (someone acted first). "
                            "Now: {turn}", turn=game.describe_turn()))
        if key == OWN_ROUTES:
            return await self._run_own_routes(ctx, game, state)
        if key == PAR_CORPORATION:
            return self._par_menu(ctx, game, state, values)
        if key.startswith("a:"):
            raw = key[2:]
        elif key.startswith("s:"):
            if not values:
                raise Refusal(M("Choose an entry from the menu."))
            raw = values[0]
        else:
            raise Refusal(M("That button is not one of mine."))
        try:
            action = decode_action(raw)
        except ValueError:
            raise Refusal(M("That button is not one of mine.")) from None
        seat = self._need_seat(ctx)
        if action["entity"] == ANY_ENTITY:
            action["entity"] = self._entity_for(game, seat.name, str(action["type"]), ctx.row)
        return await self._apply(ctx, game, action)

    async def _own_routes(self, ctx: Ctx, game: Game, seat: PlayerRow, text: str, confirm: bool) -> Reply:
        """`/train run routes:`: the player's own routes, checked by the engine's route rules and priced; run at once
        with ``confirm``, else shown privately with a button that runs them (kept for this state of the game only)."""
        row = ctx.row
        assert row is not None
        runs = [a for a in self.legal(row.id, game) if a["type"] == "run_routes"]
        if not runs:
            raise Refusal(M("No corporation is at the run-trains step now. {turn}", turn=game.describe_turn()))
        corp = str(runs[0]["entity"])
        chosen = routes_from_text(game, corp, text)
        action = {"type": "run_routes", "entity": corp,
                  "routes": [{"train": r.train, "nodes": r.node_ids()} for r in chosen.routes]}
        game.check(action)  # the other rules of a run, such as running for the maximum, before offering it
        if confirm:
            return await self._apply(ctx, game, action)
        state = self.state_token(game)
        self._own[row.id] = (state, action)
        yours = routes_text(game, chosen, head=M("Your routes:"))
        lines: list[Text] = [M("🚂 **{corp}**: {routes}", corp=corp, routes=yours)]
        if game.player_for(corp) != seat.name:
            lines.append(M("(Only {corp}'s president {president} can confirm.)", corp=corp,
                           president=game.player_for(corp)))
        picture = self._map_picture(row, game, chosen, corp, lang=ctx.reader_lang())
        reply = Reply(text=Join(tuple(lines)), pictures=[picture], ephemeral=True)
        cid = make_custom_id(row.id, state, OWN_ROUTES)
        if cid:
            reply.components = [[Button(M("Run these routes for {revenue}", revenue=game.fmt(chosen.revenue)), cid,
                                        "primary")]]
        return reply

    async def _run_own_routes(self, ctx: Ctx, game: Game, state: str) -> Reply:
        """The button of `_own_routes`: the routes kept for the state it was shown in."""
        assert ctx.row is not None
        kept = self._own.get(ctx.row.id)
        if kept is None or kept[0] != state:
            raise Refusal(M("Those routes are no longer kept here; give them again with `/train run routes:`."))
        self._need_seat(ctx)
        return await self._apply(ctx, game, dict(kept[1]))

    def _still_open(self, ctx: Ctx, game: Game, key: str) -> bool:
        """A button for "whoever clicks" (sealed bids) stays valid while that very action is legal for the clicker:
        several players bid at once, and each bid makes the others' buttons older without changing their choice."""
        seat = ctx.seat()
        if not key.startswith("a:") or seat is None or ctx.row is None:
            return False
        try:
            action = decode_action(key[2:])
        except ValueError:
            return False
        if action["entity"] != ANY_ENTITY:
            return False
        action["entity"] = seat.name
        wanted = encode_action(action)
        return any(encode_action(a) == wanted for a in self.legal(ctx.row.id, game))


# Options a player may leave out when the legal moves leave only one choice (the city of a one-city hex, the
# source of the only share for sale). Never a price: what to pay another corporation is the player's decision.
_FILLABLE = ("city", "town", "source", "variant", "size", "count", "company", "exchange")


def _fill_from_legal(game: Game, action: dict[str, Any], legal: Sequence[Mapping[str, Any]]) -> None:
    """Complete the fields a player left out from the legal moves that match what they did say; a share of a floated
    corporation sold by both the IPO and the pool comes from the cheaper (the IPO at equal prices, and always before
    the float), as a player means who says only "buy"."""
    given = {k: str(v) for k, v in action.items()}
    matches = [a for a in legal if all(str(a.get(k)) == v for k, v in given.items())]
    for key in _FILLABLE:
        if key in action or not matches:
            continue
        values = {str(m.get(key)) for m in matches}
        if len(values) == 1 and matches[0].get(key) is not None:
            action[key] = matches[0][key]
        elif key == "source" and "ipo" in values:
            corp = str(action.get("corporation"))
            # only where the two sources differ in price alone: before a corporation floats, a share from the IPO
            # counts toward its float and one from the pool does not (1830, 18AL)
            pool_cheaper = "pool" in values and corp in game.market.positions and game.corps[corp].floated and \
                share_price(game, corp, False) < share_price(game, corp, True)
            action[key] = "pool" if pool_cheaper else "ipo"


def _listed_price(game: Game, action: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]) -> int:
    """The price of a private the prompt shows, when the player names none: the one price the rules allow for it
    (from the bank); between players, where a range is allowed, the player must name one."""
    company = str(action.get("company"))
    prices = sorted({int(a["price"]) for a in legal if a["type"] == "buy_company" and a["entity"] == action["entity"]
                     and str(a.get("company")) == company and a.get("price") is not None})
    if len(prices) == 1:
        return prices[0]
    if not prices:
        # not a legal purchase at any price: the turn check and the engine say why (not your turn; only the
        # cheapest private is bought outright), asked at the private's face value
        known = game.companies.get(company)
        return game.data.company(company).value if known is not None else 0
    raise Refusal(M("Name a price for {company}: from {low} to {high} (`/private buy company:... price:...`).",
                    company=company, low=game.fmt(prices[0]), high=game.fmt(prices[-1])))


def _check_shape(action: Mapping[str, Any]) -> None:
    """Refuse an action with a missing field or a value of the wrong kind in the player's words: the engine's
    models would say it in a library's words."""
    try:
        parse_action(dict(action))
    except ValidationError as e:
        problems = shape_problems(e, action)
        raise Refusal(M("That move is incomplete: {problems}. Nothing was changed.",
                        problems=clauses(problems))) from None


def _names_rotation(msg: Text) -> bool:
    """Whether a refusal is about the rotation tried (another rotation might do)."""
    if isinstance(msg, Msg):
        return "{rotation}" in msg.text
    return isinstance(msg, Join) and any(_names_rotation(p) for p in msg.parts)


def _without_listing(msg: Text) -> Text:
    """An engine refusal without its list of legal alternatives (the player is shown the rotations instead)."""
    if isinstance(msg, str):
        return msg.split(" Legal here:")[0]
    if isinstance(msg, Join):
        return Join(tuple(p for p in msg.parts if not (isinstance(p, Msg) and "Legal here" in p.text)), msg.sep)
    if "Legal here" in msg.text and isinstance(msg.get("problem"), (str, Msg, Join)):
        return msg.get("problem")
    return msg
