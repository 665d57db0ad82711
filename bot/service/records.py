"""Game records: export to an 18xx.games record (or our own), import of an 18xx.games record into a lobby whose
seats the players claim, and the activation of the imported log when the last seat is claimed."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from engine.errors import GameError
from engine.game import Game
from engine.messages import MN, Join, M, Text
from engine.record import is_own_record, read_own, to_record
from engine.records import RecordError, is_site_record, read_record, site_has, site_reading, write_record
from engine.records.reader import PROFILE as SITE_PROFILE
from engine.titles import new_game

from .. import texts
from ..commands import make_custom_id
from ..i18n import language_of
from ..storage import GameRow, PendingImportRow
from ..texts import mention
from .lobby import FORBIDDEN_IN_NAMES, MAX_NAME, RESERVED_NAMES, game_words
from .replies import Component, Refusal, Reply, Select, SelectOption, merge, sentences
from .table import LOST_IMPORT, Ctx, Table, game_result

log = logging.getLogger("stationmaster.service")

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # an imported record; the largest real records are a few hundred KB


def too_large(limit: int) -> Text:
    return M("That file is too large; the limit is {mb} MB.", mb=limit // (1024 * 1024))


class Records(Table):
    async def _cmd_export(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row, game = await self._shown_game(ctx, "export")
        fmt = str(opts.get("format") or "")
        site_rules = game.options.get("rules_profile") == SITE_PROFILE
        why: Text = ""
        if not fmt:
            # the site's format where the game follows the site's rules (a game brought from there): it loads there
            fmt = "18xx.games" if site_has(row.title) and site_rules else "stationmaster"
            if not site_has(row.title):
                why = M("18xx.games has no {title}, so here is our own record.", title=row.title)
            elif fmt == "stationmaster":
                why = M("Game #{game} follows the rulebook, and 18xx.games plays some rules its own way, so here is "
                        "our own record. `/game export format:18xx.games` writes the site's, checked by the site's "
                        "rules.", game=row.id)
        checked: list[Text] = []
        if fmt == "stationmaster":
            data = to_record(game)
        else:
            try:
                times = [int(a.created_at) for a in await self.store.actions(row.id)]
                data = await asyncio.to_thread(write_record, game, game_id=row.id, created_at=int(row.created_at),
                                               action_times=times)
            except (ValueError, GameError) as e:
                raise Refusal(M("Game #{game} cannot be written as an 18xx.games record: {reason}. `/game export "
                                "format:stationmaster` writes our own record of it.", game=row.id,
                                reason=getattr(e, "msg", None) or str(e))) from None
            if not site_rules:
                # the site replays a record by its own rules: say whether ours come to the same game there
                checked = await asyncio.to_thread(site_reading, json.loads(json.dumps(data)), game)
        name = f"{row.title}-game{row.id}-{len(game.actions)}actions-{fmt}.json"
        body = json.dumps(data, indent=1, ensure_ascii=False).encode()
        if fmt == "stationmaster":
            text: Text = M("📄 Game #{game} ({title}, {n} actions) as a stationmaster record. Bring it to another "
                           "channel with `/game import`, or replay it with `python -m engine replay FILE`.",
                           game=row.id, title=row.title, n=len(game.actions))
        elif checked:
            text = M("📄 Game #{game} ({title}, {n} actions) as an 18xx.games record. ⚠️ The game follows the "
                     "rulebook, and by 18xx.games's rules it does not replay as it was played: {problem}. The site "
                     "may refuse it or play it otherwise; `/game import` here keeps the rulebook.", game=row.id,
                     title=row.title, n=len(game.actions), problem=checked[0])
        elif not site_rules:
            text = M("📄 Game #{game} ({title}, {n} actions) as an 18xx.games record, checked by the site's rules: "
                     "it replays there to the same holdings and money. Load it on 18xx.games (import a game) or "
                     "bring it to another channel with `/game import`.", game=row.id, title=row.title,
                     n=len(game.actions))
        else:
            text = M("📄 Game #{game} ({title}, {n} actions) as an 18xx.games record. Load it on 18xx.games (import "
                     "a game) or bring it to another channel with `/game import`.", game=row.id, title=row.title,
                     n=len(game.actions))
        return Reply(text=sentences(why, text), files=[(name, body)])

    async def _cmd_import(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        if ctx.row is not None:
            raise Refusal(M("This channel already has {game}. Finish it, or an administrator can `/game abandon` it, "
                            "before importing a record.", game=game_words(ctx.row)))
        raw = opts.get("file")
        if not isinstance(raw, bytes | bytearray):
            raise Refusal(M("Attach the record: the JSON file 18xx.games exports for a game."))
        if len(raw) > MAX_UPLOAD_BYTES:
            raise Refusal(too_large(MAX_UPLOAD_BYTES))
        try:
            data = json.loads(bytes(raw).decode("utf-8-sig"))  # a byte-order mark: a file re-saved by an editor
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise Refusal(M("That file is not JSON ({error}). Attach the record exported from 18xx.games.",
                            error=str(e))) from None
        except RecursionError:
            raise Refusal(M("That file nests its values too deeply to be a game record. Attach the record exported "
                            "from 18xx.games.")) from None
        own = is_own_record(data)
        if not own and not is_site_record(data):
            raise Refusal(M("That file is not an 18xx.games game record (it needs a title, players and actions), nor "
                            "one `/game export format:stationmaster` wrote."))
        warnings: list[Text] = []
        parted: list[Text] = []
        left: list[Text] = []
        try:
            # a long record replays for seconds: off the event loop
            if own:
                game = await asyncio.to_thread(read_own, data)
            else:
                # the recorded revenues are compared with ours (no search: the same routes counted again)
                imported = await asyncio.to_thread(read_record, data)
                game, warnings = imported.game, list(imported.warnings)
                parted = imported.divergences()
                left = left_on_the_site(imported.chat, data.get("actions") or [])
        except RecordError as e:
            reason = getattr(e, "msg", None) or str(e).rstrip(".")
            raise Refusal(M("The record cannot be imported: {reason}. The action: {action}", reason=reason,
                            action=json.dumps(e.action)[:300]) if e.action else
                          M("The record cannot be imported: {reason}.", reason=reason)) from None
        names = [p.name for p in game.players]
        bad = [n for n in names if any(ch in n for ch in FORBIDDEN_IN_NAMES) or len(n) > MAX_NAME
               or n.lower() in RESERVED_NAMES]
        if bad:
            raise Refusal(M("The record's player name(s) {names} cannot be used here (at most {max} characters, none "
                            "of {characters}). Rename them on 18xx.games and export again.", names=tuple(bad),
                            max=MAX_NAME, characters=FORBIDDEN_IN_NAMES))
        actions = game.action_log()
        try:
            # what is stored is our own log: prove it replays to the same game before anyone relies on it
            check = await asyncio.to_thread(Game, game.rules, names, game.seed, game.options, actions)
        except Exception as e:
            log.exception("imported record of %s does not replay from our own log", game.title_name)
            raise Refusal(M("The record was read, but its replay cannot be stored: {reason}",
                            reason=getattr(e, "msg", None) or str(e))) from None
        if check.finished != game.finished or check.result() != game.result():
            raise Refusal(M("The record was read, but replaying our stored log of it ends differently; it cannot be "
                            "imported."))
        now = self.now()
        async with self.store.transaction() as tx:
            # the channel's language, as for /game create: the guild's preferred locale (English without one)
            gid = await tx.create_game(guild_id=ctx.guild_id, channel_id=ctx.channel_id, title=game.title_name,
                                       options=game.options, seed=game.seed, creator_id=ctx.user.id, now=now,
                                       settings={"language": language_of(ctx.guild_locale)})
            # stored with the lobby, not kept in memory: the seats can be claimed across a restart of the bot
            await tx.save_pending_import(gid, names, actions, now)
            row = await tx.game(gid)
            pending = await tx.pending_import(gid)
        assert row is not None and pending is not None
        state = M("finished") if game.finished else M("in {round}", round=texts.round_line(game))
        head = M("📥 {member} imported a stationmaster record of **{title}** as game #{game}: {players} players, "
                 "{n} actions, {state}. {rules}", member=ctx.user.name, title=game.title_name, game=gid,
                 players=len(names), n=len(actions), state=state, rules=rules_followed(game)) if own else \
            M("📥 {member} imported an 18xx.games record of **{title}** as game #{game}: {players} players, {n} "
              "actions, {state}. {rules}", member=ctx.user.name, title=game.title_name, game=gid,
              players=len(names), n=len(actions), state=state, rules=rules_followed(game))
        lines: list[Text] = [
            head,
            M("Each player claims their seat with the menu below; play continues when every seat is claimed. "
              "Seats: {seats}.", seats=tuple(names))]
        if game.finished:
            # said before anyone claims a seat: nothing will be left to play
            lines.append(M("🏁 **This game is over** ({reason}): claiming the seats shows its final standings, and "
                           "views work afterwards, but no move can be made.",
                           reason=texts.end_reason_text(game.end_reason)))
        lines += [M("⚠️ {warning}", warning=w) for w in warnings[:5]]
        lines += [M("ℹ️ {note}", note=n) for n in left]
        if parted:
            # our rules and the site's part there: the game continued here may not be the one the site showed
            lines.append(MN("⚠️ Our replay parts from the game the site showed in {n} place: {first}",
                            "⚠️ Our replay parts from the game the site showed in {n} places; the first: {first}",
                            n=len(parted), first=parted[0]))
        return Reply(text=Join(tuple(lines)), components=await self._claim_menu(row, pending, set(), game))

    async def _claim_menu(self, row: GameRow, pending: PendingImportRow, claimed: set[str],
                          game: Game | None = None) -> list[list[Component]]:
        """The free seats, each with what tells it apart where a record names its players "Player 1" and so on:
        its place in the seat order, its cash and its presidencies at the point the record stops."""
        cid = make_custom_id(row.id, "import", "claim")
        free = [n for n in pending.seats if n not in claimed]
        if cid is None or not free:
            return []
        notes = self._seat_notes.get(row.id)
        if notes is None or game is not None:
            try:
                if game is None:  # after a restart: the record is replayed once more
                    game = await asyncio.to_thread(new_game, row.title, list(pending.seats), row.seed, row.options,
                                                   pending.actions)
                notes = {n: seat_note(game, n, i) for i, n in enumerate(pending.seats, 1)}
            except Exception:
                # the notes are an extra: a leave or a claim must not fail for them (the last claim replays the
                # record again and says so if it cannot)
                log.exception("import lobby of game %s: its record does not replay for the seats' notes", row.id)
                notes = {}
            self._seat_notes[row.id] = notes
        return [[Select(cid, M("Claim a seat (the record's player you are)…"),
                        [SelectOption(n[:100], n[:100], notes.get(n, "")) for n in free[:25]])]]

    async def _claim(self, ctx: Ctx, values: list[str]) -> Reply:
        row = ctx.row
        assert row is not None
        pending = ctx.pending
        if row.status != "lobby" or pending is None:
            raise Refusal(LOST_IMPORT if row.status == "lobby" else M("The seats of this game are already taken."))
        if not values:
            raise Refusal(M("Choose a seat from the menu."))
        name = values[0]
        if name not in pending.seats:
            raise Refusal(M("That is not a seat of the imported game."))
        mine = ctx.seat()
        if mine is not None:
            raise Refusal(M("You already claimed the seat {seat}; `/game leave` frees it.", seat=mine.name))
        if any(p.name == name for p in ctx.players):
            raise Refusal(M("The seat {seat} is taken already.", seat=name))
        claimed = {p.name for p in ctx.players} | {name}
        head = M("🪑 {member} claims the seat **{seat}**.", member=mention(ctx.user.id), seat=name)
        if claimed != set(pending.seats):
            await self.store.add_player(row.id, ctx.user.id, name)
            free = tuple(n for n in pending.seats if n not in claimed)
            return Reply(text=sentences(head, M("Still to claim: {seats}.", seats=free)),
                         components=await self._claim_menu(row, pending, claimed))
        return await self._activate_import(ctx, pending, name, head)

    async def _activate_import(self, ctx: Ctx, pending: PendingImportRow, name: str, head: Text) -> Reply:
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
            raise Refusal(M("Game #{game} cannot be loaded: the engine refuses the imported log. An administrator "
                            "can `/game abandon` it.", game=row.id)) from None
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
        self._seat_notes.pop(row.id, None)
        seats = "  ".join(f"{i}. {mention(by_name[n])} ({n})" for i, n in enumerate(pending.seats, 1))
        text = Join((head, M("🎲 **Game #{game} of {title} continues from the record.** Seats: {seats}", game=row.id,
                               title=row.title, seats=seats)))
        if game.finished:
            return Reply(text=Join((text, ctx.names_as_members(texts.game_over_text(game)))),
                         mentions=list(by_name.values()))
        self._remember(row.id, game)
        await self._prepare(row.id, game)
        reply = Reply(text=text)
        merge(reply, self._prompt(ctx, game, previous=[]))
        return reply


def left_on_the_site(chat: list[Any], actions: list[Any]) -> list[Text]:
    """What a record holds that a game here does not take on, said at the import rather than dropped in silence:
    its chat, and standing orders (auto-pass, auto-buy), which the site would go on carrying out."""
    out: list[Text] = []
    said = sum(1 for _id, _who, text in chat if text)
    if said:
        out.append(MN("The record's chat ({n} message) stays on 18xx.games.",
                      "The record's chat ({n} messages) stays on 18xx.games.", n=said))
    last: dict[str, str] = {}  # each player's last order: one not disabled is still in force on the site
    for a in actions:
        if isinstance(a, dict) and str(a.get("type", "")).startswith("program_"):
            last[str(a.get("entity"))] = str(a["type"])
    if any(kind != "program_disable" for kind in last.values()):
        out.append(M("Standing orders set on 18xx.games (auto-pass, auto-buy) do not carry over: each move is asked "
                     "for here."))
    return out


def seat_note(game: Game, name: str, seat: int) -> Text:
    """A seat of an imported record as the menu describes it: "seat 2 · $92 · president of L&N"."""
    cash = game.fmt(game.player(name).cash)
    led = tuple(sym for sym, c in game.corps.items() if c.president == name)
    return M("seat {n} · {cash} · president of {corps}", n=seat, cash=cash, corps=led) if led else \
        M("seat {n} · {cash}", n=seat, cash=cash)


def rules_followed(game: Game) -> Text:
    """Which rules an imported game follows: the site's (a record from 18xx.games) or the rulebook's (a record
    exported from a game played here says so)."""
    profile = game.options.get("rules_profile", "rulebook")  # a game created here names no profile: the rulebook
    if profile == SITE_PROFILE:
        return M("It follows the site's rules (rules profile {profile}).", profile=profile)
    return M("It follows the rulebook (rules profile {profile}).", profile=profile)
