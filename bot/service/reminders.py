"""Reminders, the service's side: the next reminder is set whenever the turn passes (in the move's transaction),
and the text of a due reminder is written here. The loop that finds due reminders is `bot.reminders`."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.game import Game
from engine.messages import Join, M, Text

from .. import texts
from ..availability import next_reminder_time
from ..storage import ReminderRow, Transaction
from ..texts import mention
from .replies import User
from .table import Ctx, Table


@dataclass(frozen=True)
class WaitUntil:
    """Everyone a reminder would mention is away or in quiet hours: it waits until the first of them may be told."""

    when: float


@dataclass(frozen=True)
class Reminding:
    """One reader's reminder: posted in the channel mentioning ``mentions``; with ``dm``, sent to that member alone
    (of several members reminded at once, each who asked for reminders by DM gets their own); with ``own``, the
    reminded member's own, sent the way they chose (the reminder loop reads their choice)."""

    text: Text
    mentions: list[int]
    dm: int | None = None
    own: bool = False


class Reminders(Table):
    async def _set_reminder(self, tx: Transaction, ctx: Ctx, game: Game, now: float) -> None:
        """The turn passed (or the player acted): the next reminder is one interval from now."""
        row = ctx.row
        assert row is not None
        acting = [] if game.finished else game.acting_players()
        if row.reminder_interval <= 0 or not acting:
            await tx.set_reminder(row.id, None, None)
            return
        seller = self._offer_seller(row.id, game)
        ids = [ctx.uid(n) for n in acting]
        # an open offer waits for the seller's answer: the seller is the one reminded, and named if the game stalls
        uid = seller if seller is not None else ids[0] if len(ids) == 1 else None
        await tx.set_reminder(row.id, uid, now + row.reminder_interval, since=now)

    def _offer_seller(self, game_id: int, game: Game) -> int | None:
        """The member who must answer an open offer to buy from them (see ``consent``), if one is open now."""
        vote = self._votes.get((game_id, "sale"))
        if vote is None or vote.state != self.state_token(game) or len(vote.needed) != 1:
            return None
        return next(iter(vote.needed))

    async def reminder_message(self, reminder: ReminderRow) -> list[Reminding] | WaitUntil | None:
        """The reminder's texts (in no language yet: a DM speaks the member's) and whom each mentions, or None if
        the game is not waiting for anyone. Where it waits for several members (sealed bids, an undo's vote), those
        away or in their quiet hours are not mentioned; if that is all of them, the reminder waits (``WaitUntil``);
        those who asked for reminders by DM get their own, and the channel's post mentions the others (none is
        posted when all of them asked for DMs). One member's own choice is applied by the reminder loop."""
        ctx = Ctx(reminder.channel_id, reminder.guild_id, User(0, "reminder"))
        async with self.lock(reminder.channel_id):
            await self._load_ctx(ctx)
            if ctx.row is None or ctx.row.id != reminder.game_id or ctx.row.status != "active":
                return None
            game = await self._game(ctx)
            acting = game.acting_players()
            if not acting:
                return None
            seller = self._offer_seller(ctx.row.id, game)
            if seller is not None:
                vote = self._votes[(ctx.row.id, "sale")]
                waited = texts.duration_text(self.now() - waiting_since(reminder, self.now()))
                return [Reminding(M("⏰ Reminder {member}: {game} in {channel} has waited {waited} for your answer to "
                                    "{buyer}'s offer (Accept or Decline on the offer's post).", member=mention(seller),
                                    game=texts.game_tag(ctx.row), channel=f"<#{reminder.channel_id}>", waited=waited,
                                    buyer=vote.requester.name), [seller], own=True)]
            ids = [u for u in (ctx.uid(n) for n in acting) if u is not None]
            undo = self._votes.get((ctx.row.id, "undo"))
            voters = sorted(undo.needed - undo.agreed) if undo is not None and undo.state == self.state_token(
                game) else []
            turn = game.describe_turn()  # read under the lock: a move may come in while preferences are read
            by_dm = {p.user_id for p in ctx.players if p.dm_reminders}
            requester = undo.requester.name if undo is not None else ""
        now = self.now()
        waited = texts.duration_text(now - waiting_since(reminder, now))
        tag, channel = texts.game_tag(ctx.row), f"<#{reminder.channel_id}>"

        def text_for(ids: list[int], voters: list[int]) -> Reminding:
            text: Text = M("⏰ Reminder {members}: {game} in {channel} has waited {waited} for you. {turn}",
                           members=" ".join(mention(i) for i in ids), game=tag, channel=channel, waited=waited,
                           turn=turn) if ids else \
                M("⏰ Reminder: {game} in {channel} has waited {waited}. {turn}", game=tag, channel=channel,
                  waited=waited, turn=turn)
            if voters:
                # a move would let the request lapse: the vote is what the table waits for first
                text = Join((text, M("↩️ {member}'s request to undo waits for the vote of {voters} (Agree or Refuse "
                                     "on the request).", member=requester,
                                     voters=" ".join(mention(u) for u in voters))))
            return Reminding(text, ids + [u for u in voters if u not in ids])

        if not ids + voters:
            return [text_for(ids, voters)]
        if reminder.user_id is not None and not voters:
            return [replace(text_for(ids, voters), own=True)]
        # one member's own preferences are seen by the reminder loop; several members' (an undo's voters with the
        # player to act among them) are seen here
        members = {m.user_id: m for m in await self.store.members(ids + voters)}
        allowed = {u: next_reminder_time(m, now) for u, m in members.items()}
        free = {u for u in ids + voters if allowed.get(u, now) <= now}
        if not free:
            return WaitUntil(min(allowed.values()))
        dms = {u for u in free if (members[u].reminders_via == "dm" if u in members and members[u].reminders_via
                                   else u in by_dm)}
        own = [replace(text_for([u] if u in ids else [], [u] if u in voters else []), dm=u)
               for u in dict.fromkeys(ids + voters) if u in dms]
        ids, voters = [u for u in ids if u in free - dms], [u for u in voters if u in free - dms]
        return ([text_for(ids, voters)] if ids or voters else []) + own


def waiting_since(reminder: ReminderRow, now: float) -> float:
    """When the game began to wait: stored since schema v4; before, one interval before the first due time."""
    if reminder.waiting_since is not None:
        return reminder.waiting_since
    due = reminder.due_at if reminder.due_at is not None else now
    return due - reminder.interval * (reminder.sent_count + 1)
