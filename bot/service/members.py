"""A member across all their games: `/mygames`, `/reminders` (how and when they are reminded), "Not now" on a
reminder, the notice to a stalled game's creator, and the bookkeeping of the newest "your turn" message per game.

These work in any channel and in a DM with the bot: they read the member's seats from the store, not the channel's
game. A game named here is always tagged with its title and number (`texts.game_tag`), so a member seated in several
games knows which one calls.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.messages import Join, M, Msg, Text
from engine.wording import clauses

from .. import texts
from ..availability import (
    PreferenceError,
    clock_text,
    describe,
    is_away,
    local_text,
    parse_away_until,
    parse_quiet_hours,
    parse_time_zone,
)
from ..commands import make_custom_id
from ..i18n import DEFAULT
from ..storage import ReminderRow, SeatedGame
from ..texts import mention
from .reminders import waiting_since
from .replies import Button, Refusal, Reply, User, sentences
from .table import Ctx, Table

log = logging.getLogger("stationmaster.service")

MAX_LISTED = 25


class Members(Table):
    # -- /mygames ----------------------------------------------------------------------------------------------
    async def _cmd_mygames(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        seated = await self.store.seated_games(ctx.user.id)
        if not seated:
            return Reply(text=M("You have no seat in a game in play. `/game join` in a channel with a game "
                                "gathering, or `/game create` one."), ephemeral=True)
        now = self.now()
        lines: list[tuple[int, float, Text]] = []
        for s in seated:
            line, yours, since = await self._seated_line(s, ctx.user, now)
            lines.append((0 if yours else 1, since, line))
        # your turn first, then the games waiting longest
        lines.sort(key=lambda t: (t[0], t[1]))
        mine = sum(1 for t in lines if t[0] == 0)
        head = (M("**Your games** ({n}; your turn in {mine})", n=len(lines), mine=mine) if mine else
                M("**Your games** ({n}; none waits for you)", n=len(lines)))
        body = [t[2] for t in lines[:MAX_LISTED]]
        if len(lines) > MAX_LISTED:
            body.append(M("… and {n} more.", n=len(lines) - MAX_LISTED))
        member = await self.store.member(ctx.user.id)
        return Reply(text=Join((Join((head, *body)), describe(member, now)), "\n\n"), ephemeral=True)

    async def _seated_line(self, s: SeatedGame, user: User, now: float) -> tuple[Text, bool, float]:
        """One game of the member: tag, link, whose turn, how long it has waited; whether it waits for them."""
        game_ctx = Ctx(s.game.channel_id, s.game.guild_id, user)
        turn: Text = "?"
        waiting: list[int] = []
        async with self.lock(s.game.channel_id):
            await self._load_ctx(game_ctx)
            if game_ctx.row is not None and game_ctx.row.id == s.game.id:
                try:
                    game = await self._game(game_ctx)
                    turn = game.describe_turn()
                    waiting = [u for u in (game_ctx.uid(n) for n in game.acting_players()) if u is not None]
                except Refusal as e:
                    turn = e.msg
        yours = user.id in waiting
        since = waiting_since(s.reminder, now) if s.reminder is not None else s.game.updated_at
        waited = texts.duration_text(now - since)
        who = M("**your turn**") if yours else (
            M("waiting for {members}", members=tuple(mention(u) for u in waiting)) if waiting
            else M("nobody to wait for"))
        link = channel_link(s.game.guild_id, s.game.channel_id)
        line = M("{mark} {game} in {link} — {who}, for {waited}: {turn}", mark="👉" if yours else "·",
                 game=texts.game_tag(s.game), link=link, who=who, waited=waited, turn=turn)
        return line, yours, since

    # -- /reminders --------------------------------------------------------------------------------------------
    async def _cmd_reminders(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        now = self.now()
        member = await self.store.member(ctx.user.id)
        changes: dict[str, Any] = {}
        said: list[Msg] = []
        try:
            zone_name = member.time_zone if member else None
            if "time_zone" in opts:
                zone_name = parse_time_zone(str(opts["time_zone"]))
                changes["time_zone"] = zone_name
                said.append(M("time zone {zone}", zone=zone_name))
            if "via" in opts:
                via = str(opts["via"]).strip().lower()
                if via not in ("channel", "dm", "per-game"):
                    raise PreferenceError(M("via must be channel, dm or per-game."))
                changes["reminders_via"] = None if via == "per-game" else via
                said.append({"channel": M("reminders in the game's channel"), "dm": M("reminders by direct message"),
                             "per-game": M("reminders as each game's `/game settings dm:` says")}[via])
            if "quiet" in opts:
                quiet = parse_quiet_hours(str(opts["quiet"]))
                changes["quiet_start"], changes["quiet_end"] = quiet if quiet else (None, None)
                said.append(M("no quiet hours") if quiet is None else
                            M("quiet hours {start}–{end} ({zone})", start=clock_text(quiet[0]),
                              end=clock_text(quiet[1]), zone=zone_name or "UTC"))
            if "away" in opts:
                until = parse_away_until(str(opts["away"]), now, zone_name)
                changes["away_until"] = until
                said.append(M("back: reminders resume") if until is None else
                            M("away until {until}: reminders pause, the table sees it",
                              until=local_text(until, zone_name)))
        except PreferenceError as e:
            raise Refusal(e.msg) from None
        if not changes:
            return Reply(text=Join((describe(member, now),
                                    M("Change with `/reminders via: time_zone: quiet: away:`."))), ephemeral=True)
        member = await self.store.set_member(ctx.user.id, now, **changes)
        return Reply(text=Join((M("Saved: {changes}.", changes=clauses(said)), describe(member, now))),
                     ephemeral=True)

    # -- "Not now" on a reminder -------------------------------------------------------------------------------
    async def not_now(self, game_id: int, user: User) -> Reply:
        """Postpone the member's next reminder of the game by the game's interval (any channel or a DM)."""
        row = await self.store.game(game_id)
        if row is None or row.status != "active":
            raise Refusal(M("That game is no longer being played."))
        if row.reminder_interval <= 0:
            raise Refusal(M("{game} sends no reminders.", game=texts.game_tag(row)))
        due = await self.store.postpone_reminder(game_id, user.id, row.reminder_interval)
        if due is None:
            raise Refusal(M("{game} is not waiting for you any more; nothing to postpone.", game=texts.game_tag(row)))
        member = await self.store.member(user.id)
        zone_name = member.time_zone if member else None
        return Reply(text=M("OK: the next reminder of {game} comes {when} at the earliest.", game=texts.game_tag(row),
                            when=local_text(due, zone_name)), ephemeral=True)

    # -- a stalled game ----------------------------------------------------------------------------------------
    async def stall_message(self, reminder: ReminderRow) -> tuple[Text, list[int], list[list[Button]]] | None:
        """The notice to the creator (and administrators) that a game has waited `stall_after` reminders for the
        same player, with the remedies as buttons; None when the game no longer waits."""
        row = await self.store.game(reminder.game_id)
        if row is None or row.status != "active" or reminder.user_id is None:
            return None
        players = await self.store.players(row.id)
        seat = next((p for p in players if p.user_id == reminder.user_id), None)
        if seat is None:
            return None
        waited = texts.duration_text(self.now() - waiting_since(reminder, self.now()))
        member = await self.store.member(reminder.user_id)
        stalled = M("⚠️ {game} has stalled: {player} ({member}) has not moved after {n} reminders ({waited}).",
                    game=texts.game_tag(row), player=seat.name, member=mention(seat.user_id),
                    n=reminder.sent_count + 1, waited=waited)
        away = (M("They said they are away until {until}.", until=local_text(member.away_until, member.time_zone))
                if member and member.away_until and is_away(member, self.now()) else "")
        remedies = M("{creator} (creator) or an administrator can give the seat to someone else with `/game replace "
                     "player:{player} user:@member`, end the game and score it now, or abandon it.",
                     creator=mention(row.creator_id), player=seat.name)
        text = Join((sentences(stalled, away), remedies))
        buttons = [Button(label, cid, style) for label, key, style in (
            (M("End and score…"), "stall-end", "secondary"), (M("Abandon…"), "stall-abandon", "danger"))
            if (cid := make_custom_id(row.id, "any", key))]
        return text, [row.creator_id], [buttons]

    async def _stall_remedy(self, ctx: Ctx, key: str) -> Reply:
        """A remedy button of the stall notice: the same confirmation as the command, for the same people."""
        if key == "stall-abandon":
            return await self._cmd_abandon(ctx, {})  # type: ignore[attr-defined]
        return await self._cmd_end(ctx, {})  # type: ignore[attr-defined]

    async def game_language(self, game_id: int) -> str:
        """The language a game's channel posts speak (a transport editing an old post of the game writes it)."""
        row = await self.store.game(game_id)
        return row.language if row is not None else DEFAULT

    # -- the newest "your turn" message of a game ---------------------------------------------------------------
    async def turn_posted(self, game_id: int, channel_id: int, message_id: int) -> int | None:
        """The transport posted a game's "your turn" message: remember it, and return the previous one's id (in the
        same channel) so the transport can mark it over instead of leaving old calls to act in the channel."""
        previous = await self.store.turn_message(game_id)
        await self.store.set_turn_message(game_id, channel_id, message_id, self.now())
        if previous is None or previous.channel_id != channel_id or previous.message_id == message_id:
            return None
        return previous.message_id



def channel_link(guild_id: int | None, channel_id: int) -> str:
    """A link Discord renders as the channel; it works from a DM and from another server too."""
    return f"https://discord.com/channels/{guild_id if guild_id is not None else '@me'}/{channel_id}"
