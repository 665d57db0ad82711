"""Game records: export to an 18xx.games record (or our own), import of an 18xx.games record into a lobby whose
seats the players claim, and the activation of the imported log when the last seat is claimed."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from engine.errors import GameError
from engine.game import Game
from engine.record import to_record
from engine.records import RecordError, is_site_record, read_record, write_record
from engine.titles import new_game

from .. import texts
from ..commands import make_custom_id
from ..storage import GameRow, PendingImportRow
from ..texts import mention
from .lobby import FORBIDDEN_IN_NAMES, MAX_NAME, RESERVED_NAMES
from .replies import Component, Refusal, Reply, Select, SelectOption, merge
from .table import LOST_IMPORT, Ctx, Table, game_result

log = logging.getLogger("stationmaster.service")

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # an imported record; the largest real records are a few hundred KB


class Records(Table):
    async def _cmd_export(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row, game = await self._shown_game(ctx, "export")
        fmt = str(opts.get("format") or "18xx.games")
        if fmt == "stationmaster":
            data = to_record(game)
        else:
            try:
                data = await asyncio.to_thread(write_record, game, game_id=row.id, created_at=int(row.created_at))
            except (ValueError, GameError) as e:
                raise Refusal(f"Game #{row.id} cannot be written as an 18xx.games record: {e}") from None
        name = f"{row.title}-game{row.id}-{len(game.actions)}actions-{fmt}.json"
        body = json.dumps(data, indent=1, ensure_ascii=False).encode()
        how = "Load it on 18xx.games (import a game) or bring it to another channel with `/game import`." \
            if fmt != "stationmaster" else "Replay it with `python -m engine replay FILE`."
        article = "an" if fmt.startswith("18") else "a"
        return Reply(text=f"📄 Game #{row.id} ({row.title}, {len(game.actions)} actions) as {article} {fmt} record. "
                          f"{how}",
                     files=[(name, body)])

    async def _cmd_import(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        if ctx.row is not None:
            raise Refusal(f"This channel already has game #{ctx.row.id} ({ctx.row.title}, {ctx.row.status}). "
                          "Finish it, or an administrator can `/game abandon` it, before importing a record.")
        raw = opts.get("file")
        if not isinstance(raw, bytes | bytearray):
            raise Refusal("Attach the record: the JSON file 18xx.games exports for a game.")
        if len(raw) > MAX_UPLOAD_BYTES:
            raise Refusal(f"That file is too large; the limit is {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
        try:
            data = json.loads(bytes(raw).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise Refusal(f"That file is not JSON ({e}). Attach the record exported from 18xx.games.") from None
        if not is_site_record(data):
            raise Refusal("That file is not an 18xx.games game record (it needs a title, players and actions).")
        try:
            # a long record replays for seconds: off the event loop
            imported = await asyncio.to_thread(read_record, data, routes=False)
        except RecordError as e:
            what = f" The action: {json.dumps(e.action)[:300]}" if e.action else ""
            raise Refusal(f"The record cannot be imported: {str(e).rstrip('.')}.{what}") from None
        game = imported.game
        names = [s.name for s in imported.seats]
        bad = [n for n in names if any(ch in n for ch in FORBIDDEN_IN_NAMES) or len(n) > MAX_NAME
               or n.lower() in RESERVED_NAMES]
        if bad:
            raise Refusal(f"The record's player name(s) {', '.join(bad)} cannot be used here (at most {MAX_NAME} "
                          f"characters, none of {FORBIDDEN_IN_NAMES}). Rename them on 18xx.games and export again.")
        actions = game.action_log()
        try:
            # what is stored is our own log: prove it replays to the same game before anyone relies on it
            check = await asyncio.to_thread(Game, game.rules, names, game.seed, game.options, actions)
        except Exception as e:
            log.exception("imported record of %s does not replay from our own log", game.title_name)
            raise Refusal(f"The record was read, but its replay cannot be stored: {e}") from None
        if check.finished != game.finished or check.result() != game.result():
            raise Refusal("The record was read, but replaying our stored log of it ends differently; "
                          "it cannot be imported.")
        now = self.now()
        async with self.store.transaction() as tx:
            gid = await tx.create_game(guild_id=ctx.guild_id, channel_id=ctx.channel_id, title=game.title_name,
                                       options=game.options, seed=game.seed, creator_id=ctx.user.id, now=now)
            # stored with the lobby, not kept in memory: the seats can be claimed across a restart of the bot
            await tx.save_pending_import(gid, names, actions, now)
            row = await tx.game(gid)
            pending = await tx.pending_import(gid)
        assert row is not None and pending is not None
        state = "finished" if game.finished else f"in {texts.round_line(game)}"
        notes = "".join(f"\n⚠️ {w}" for w in imported.warnings[:5])
        if game.finished:
            # said before anyone claims a seat: nothing will be left to play
            notes = (f"\n🏁 **This game is over** ({texts.end_reason_text(game.end_reason)}): claiming the seats shows "
                     "its final standings, and views work afterwards, but no move can be made." + notes)
        return Reply(
            text=(f"📥 {ctx.user.name} imported an 18xx.games record of **{game.title_name}** as game #{gid}: "
                  f"{len(names)} players, {len(actions)} actions, {state}. It follows the site's rules "
                  f"(rules profile {game.options.get('rules_profile')}).\n"
                  f"Each player claims their seat with the menu below; play continues when every seat is "
                  f"claimed. Seats: {', '.join(names)}.{notes}"),
            components=self._claim_menu(row, pending, set()))

    def _claim_menu(self, row: GameRow, pending: PendingImportRow, claimed: set[str]) -> list[list[Component]]:
        cid = make_custom_id(row.id, "import", "claim")
        free = [n for n in pending.seats if n not in claimed]
        if cid is None or not free:
            return []
        return [[Select(cid, "Claim a seat (the record's player you are)…",
                        [SelectOption(n[:100], n[:100]) for n in free[:25]])]]

    async def _claim(self, ctx: Ctx, values: list[str]) -> Reply:
        row = ctx.row
        assert row is not None
        pending = ctx.pending
        if row.status != "lobby" or pending is None:
            raise Refusal(LOST_IMPORT if row.status == "lobby" else "The seats of this game are already taken.")
        if not values:
            raise Refusal("Choose a seat from the menu.")
        name = values[0]
        if name not in pending.seats:
            raise Refusal("That is not a seat of the imported game.")
        mine = ctx.seat()
        if mine is not None:
            raise Refusal(f"You already claimed the seat {mine.name}; `/game leave` frees it.")
        if any(p.name == name for p in ctx.players):
            raise Refusal(f"The seat {name} is taken already.")
        claimed = {p.name for p in ctx.players} | {name}
        head = f"🪑 {mention(ctx.user.id)} claims the seat **{name}**."
        if claimed != set(pending.seats):
            await self.store.add_player(row.id, ctx.user.id, name)
            free = ", ".join(n for n in pending.seats if n not in claimed)
            return Reply(text=f"{head} Still to claim: {free}.", components=self._claim_menu(row, pending, claimed))
        return await self._activate_import(ctx, pending, name, head)

    async def _activate_import(self, ctx: Ctx, pending: PendingImportRow, name: str, head: str) -> Reply:
        """The last seat is claimed: seat its claimant and write the record's log in one transaction, so that a
        crash leaves either the lobby with that seat free or the game in play, never a full lobby that cannot start."""
        row = ctx.row
        assert row is not None
        try:
            # the import proved this log replays; replayed again here because only the store outlives a restart
            game = await asyncio.to_thread(new_game, row.title, list(pending.seats), row.seed, row.options,
                                           pending.actions)
        except Exception:
            log.exception("pending import of game %s does not replay (%d actions)", row.id, len(pending.actions))
            raise Refusal(f"Game #{row.id} cannot be loaded: the engine refuses the imported log. An administrator "
                          "can `/game abandon` it.") from None
        now = self.now()
        async with self.store.transaction() as tx:
            await tx.add_player(row.id, ctx.user.id, name)
            by_name = {p.name: p.user_id for p in await tx.players(row.id)}
            # the record's seat order is an input of the replay: the seats are stored in that order
            await tx.set_seat_order(row.id, [by_name[n] for n in pending.seats])
            await tx.set_status(row.id, "active", now)  # also drops the stored pending import
            for action in pending.actions:
                # nobody here made these moves: no user id (for undo each is its seat's move, see consent._owners)
                await tx.append_action(row.id, action, None, now)
            ctx.row = await tx.game(row.id)
            ctx.players = await tx.players(row.id)
            await self._set_reminder(tx, ctx, game, now)
            if game.finished:
                await tx.set_status(row.id, "finished", now, game_result(game))
        ctx.pending = None
        seats = "  ".join(f"{i}. {mention(by_name[n])} ({n})" for i, n in enumerate(pending.seats, 1))
        text = f"{head}\n🎲 **Game #{row.id} of {row.title} continues from the record.** Seats: {seats}"
        if game.finished:
            return Reply(text=text + "\n" + ctx.names_as_members(texts.game_over_text(game)),
                         mentions=list(by_name.values()))
        self._remember(row.id, game)
        await self._prepare(row.id, game)
        reply = Reply(text=text)
        merge(reply, self._prompt(ctx, game, previous=[]))
        return reply
