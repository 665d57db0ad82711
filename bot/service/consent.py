"""Consent: moves that need other players' agreement, put to them as one kind of vote.

An undo that would take back other players' actions needs each of them to agree (or an administrator forces it); a
train or a private bought from another player's corporation (or from its owner) at a price needs the seller to accept.
Both are a `Vote`: asked with two buttons, settled when everyone needed agrees, dropped when one refuses or the game
moves on. Redo, which needs no vote, lives here with undo.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import dump_action
from engine.game import END_BY_HAND, Game
from engine.messages import MN, Join, M, Msg, Text
from engine.wording import clauses

from .. import checkpoints, texts
from ..commands import make_custom_id
from ..storage import ActionRow, GameRow
from ..texts import mention
from .replies import Button, Component, Refusal, Reply, User, merge
from .table import Ctx, Table, drafting, game_result


@dataclass
class Vote:
    """A question to the players whose agreement a move needs."""

    kind: str  # "undo" or "sale": the first word of its buttons' keys
    state: str  # the state token it was asked in: it lapses when the game moves on
    requester: User
    needed: set[int]  # who must agree
    agreed: set[int] = field(default_factory=set)
    keep: int = 0  # undo: how many actions stay
    action: dict[str, Any] = field(default_factory=dict)  # sale: the purchase, made for the requester on acceptance

    @property
    def tag(self) -> str:
        """What the buttons carry besides the answer: an undo's count, so a newer request's buttons differ."""
        return str(self.keep) if self.kind == "undo" else ""


@dataclass(frozen=True)
class _Wording:
    answers: tuple[Msg, Msg]  # the labels of yes and no
    closed: Msg  # the buttons are not those of the open vote
    lapsed: Msg  # the game moved on since the vote was asked
    voters: Msg  # the clicker has no say
    requester_answers: bool  # the requester may answer too (withdraw an undo request)


_WORDING = {
    "undo": _Wording((M("Agree"), M("Refuse")),
                     M("That undo request is no longer open (the game moved on or it was settled)."),
                     M("That undo request lapsed: the game has moved on since."),
                     M("Only the players whose actions would be undone vote on this."), True),
    "sale": _Wording((M("Accept"), M("Decline")),
                     M("That offer is no longer open (the game moved on or it was settled)."),
                     M("That offer is no longer open (the game moved on or it was settled)."),
                     M("Only the seller (the selling corporation's president or the private's owner) answers this "
                       "offer."),
                     False),
}
VOTE_KEYS = tuple(f"{kind}:" for kind in _WORDING)  # button keys that answer a vote


class Consent(Table):
    # ------------------------------------------------------------------ the vote
    def _ask(self, game_id: int, vote: Vote) -> list[list[Component]]:
        """Open a vote (it replaces an open one of its kind) and return its buttons."""
        self._votes[(game_id, vote.kind)] = vote
        return self._ballot(game_id, vote)

    def _ballot(self, game_id: int, vote: Vote) -> list[list[Component]]:
        yes_label, no_label = _WORDING[vote.kind].answers
        prefix = f"{vote.kind}:{vote.tag}:" if vote.tag else f"{vote.kind}:"
        yes = make_custom_id(game_id, vote.state, prefix + "y")
        no = make_custom_id(game_id, vote.state, prefix + "n")
        assert yes and no
        return [[Button(yes_label, yes, "success"), Button(no_label, no, "danger")]]

    def _close_votes(self, game_id: int) -> None:
        for kind in _WORDING:
            self._votes.pop((game_id, kind), None)

    def _cast(self, ctx: Ctx, game: Game, state: str, key: str) -> tuple[Vote, bool]:
        """Count a click on a vote's buttons: the vote and whether the answer is yes. A "no" closes the vote, and so
        does the last "yes" needed."""
        row = ctx.row
        assert row is not None
        kind, _, rest = key.partition(":")
        tag, _, answer = rest.rpartition(":")
        wording = _WORDING[kind]
        vote = self._votes.get((row.id, kind))
        if vote is None or vote.state != state or vote.tag != tag:
            raise Refusal(wording.closed)
        if self.state_token(game) != vote.state:
            self._votes.pop((row.id, kind), None)
            raise Refusal(wording.lapsed)
        if ctx.user.id not in vote.needed and not (wording.requester_answers and ctx.user.id == vote.requester.id):
            raise Refusal(wording.voters)
        if answer == "n":
            self._votes.pop((row.id, kind), None)
            return vote, False
        if ctx.user.id in vote.needed:
            vote.agreed.add(ctx.user.id)
        if vote.needed <= vote.agreed:
            self._votes.pop((row.id, kind), None)
        return vote, True

    async def _vote(self, ctx: Ctx, game: Game, state: str, key: str) -> Reply:
        """A click on a vote's buttons, and what follows from the answer."""
        row = ctx.row
        assert row is not None
        vote, yes = self._cast(ctx, game, state, key)
        if vote.kind == "sale":
            if not yes:
                async with self.store.transaction() as tx:
                    await self._set_reminder(tx, ctx, game, self.now())  # the buyer's turn again
                return Reply(text=M("✋ {member} declines the offer. {turn}", member=ctx.user.name,
                                    turn=game.describe_turn()))
            buyer_ctx = Ctx(ctx.channel_id, ctx.guild_id, vote.requester, ctx.row, ctx.players)
            return await self._apply(buyer_ctx, game, dict(vote.action), check_turn=False)
        if not yes:
            return Reply(text=M("✋ {member} refuses; the undo is cancelled. Play goes on.", member=ctx.user.name))
        waiting = vote.needed - vote.agreed
        if waiting:
            # the click takes the buttons off the request (Discord adapter), so the vote's buttons come again here
            return Reply(text=M("👍 {member} agrees. Waiting for {members}.", member=ctx.user.name,
                                members=" ".join(mention(u) for u in sorted(waiting))),
                         components=self._ballot(row.id, vote))
        return await self._do_undo(ctx, game, vote.keep, agreed=True)

    # ------------------------------------------------------------------ trains and privates sold between players
    def _needs_seller_consent(self, ctx: Ctx, game: Game, action: Mapping[str, Any]) -> Reply | None:
        """A train from another corporation, or a private from its owner, changes hands at a price both sides
        agree on (18FL rules 8.2, 18AL 5.3): when the other side is another player, that player must accept."""
        row = ctx.row
        if row is None:
            return None
        what: Msg
        if action.get("type") == "buy_train":
            owner = next((t.owner for t in game.trains if t.id == action.get("train")), None)
            if owner not in game.corps:
                return None
            what = M("{owner}'s {train}", owner=owner, train=texts.train_words(game, str(action["train"])))
        elif action.get("type") == "buy_company":
            comp = game.companies.get(str(action.get("company")))
            owner = comp.owner if comp is not None else None
            if owner is None:
                return None
            what = M("{owner}'s private {company}", owner=owner, company=action["company"])
        else:
            return None
        seller = game.player_for(str(owner))
        buyer = self._need_seat(ctx).name
        if seller is None or seller == buyer:
            return None
        seller_uid = ctx.uid(seller)
        if seller_uid is None:
            return None
        game.check(dict(action))  # refuse an illegal offer now, not after the seller agrees
        state = self.state_token(game)
        price = game.fmt(int(action.get("price") or 0))
        if owner in game.corps:
            offer = M("🤝 {buyer} offers {price} for {what} on behalf of {corp}. {seller}, as {owner}'s president, "
                      "do you accept?", buyer=buyer, price=price, what=what, corp=action["entity"],
                      seller=mention(seller_uid), owner=owner)
        elif action["entity"] in game.corps:
            offer = M("🤝 {buyer} offers {price} for {what} on behalf of {corp}. {seller}, as its owner, do you "
                      "accept?", buyer=buyer, price=price, what=what, corp=action["entity"], seller=mention(seller_uid))
        else:  # a player buying for themselves (1830's stock round)
            offer = M("🤝 {buyer} offers {price} for {what}. {seller}, as its owner, do you accept?", buyer=buyer,
                      price=price, what=what, seller=mention(seller_uid))
        return Reply(
            text=offer,
            mentions=[seller_uid],
            components=self._ask(row.id, Vote("sale", state, ctx.user, {seller_uid}, action=dict(action))))

    # ------------------------------------------------------------------ undo / redo
    async def _undo_cmd(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        game = await self._game(ctx)
        assert row is not None
        force = bool(opts.get("force"))
        if force:
            self._need_admin(ctx)
        elif ctx.seat() is None:
            raise Refusal(M("Only players (or an administrator with force:true) can undo."))
        stored = await self.store.actions(row.id)
        n = len(stored)
        if n == 0:
            raise Refusal(M("There is nothing to undo."))
        owners: list[int | None] = [a.user_id for a in stored]
        attributed = None not in owners  # imported actions have no user until _owners names their seats
        if "count" in opts:
            keep = max(0, n - int(opts["count"]))
        elif force:
            keep = n - 1
        else:
            mine = [i for i, u in enumerate(owners) if u == ctx.user.id]
            if not mine and not attributed:
                # nothing of theirs since an import: their last action may be one their seat made in the record
                owners, attributed = await self._owners(ctx, game, stored), True
                mine = [i for i, u in enumerate(owners) if u == ctx.user.id]
            if not mine:
                raise Refusal(M("You have no action to undo."))
            keep = mine[-1]
        if force:
            return await self._do_undo(ctx, game, keep)
        undone = stored[keep:]
        if not attributed and any(a.user_id is None for a in undone):
            owners = await self._owners(ctx, game, stored)
        others = {u for u in owners[keep:] if u is not None and u != ctx.user.id}
        if not others:
            return await self._do_undo(ctx, game, keep)
        sealed = drafting(game)
        before = await self._replayed(row, game, keep)
        names = [texts.action_summary(before, a.action, sealed) for a in undone]
        from_record = sum(1 for a in undone if a.user_id is None)
        needed = {uid for uid in others if any(p.user_id == uid for p in ctx.players)}
        if not needed:
            return await self._do_undo(ctx, game, keep)
        state = self.state_token(game)
        lines: list[Text] = [MN("↩️ {member} asks to undo an action:", "↩️ {member} asks to undo {n} actions:",
                                member=ctx.user.name, n=len(undone))]
        lines += [M("· {action}", action=t) for t in names[-10:]]
        if len(names) > 10:
            lines.append(M("· … and {n} earlier", n=len(names) - 10))
        if from_record:
            lines.append(M("({n} of them come from the imported record; each counts as the move of the seat that "
                           "made it.)", n=from_record))
        lines.append(M("{members}: your actions would be taken back. Do you agree?",
                       members=" ".join(mention(u) for u in sorted(needed))))
        return Reply(
            text=Join(tuple(lines)),
            mentions=sorted(needed),
            components=self._ask(row.id, Vote("undo", state, ctx.user, needed, keep=keep)))

    async def _owners(self, ctx: Ctx, game: Game, stored: Sequence[ActionRow]) -> list[int | None]:
        """Who answers for each live action when it is undone or redone: the member who made it here, and for an
        action imported from a record (stored without a user) the seat's current claimant, the seat being the player
        who decided it then (a corporation's president at that moment). None: nobody seated answers for it."""
        row = ctx.row
        assert row is not None
        upto = max((i + 1 for i, a in enumerate(stored) if a.user_id is None), default=0)
        if upto == 0:
            return [a.user_id for a in stored]
        fingerprint = f"{upto}:{zlib.crc32(json.dumps([a.action for a in stored[:upto]], sort_keys=True).encode())}"
        hit = self._deciders.get(row.id)
        if hit is not None and hit[0] == fingerprint:
            seats = hit[1]
        else:
            seats = await asyncio.to_thread(_deciders, game, upto)
            self._deciders[row.id] = (fingerprint, seats)
        out: list[int | None] = []
        for i, a in enumerate(stored):
            if a.user_id is not None:
                out.append(a.user_id)
            else:
                seat = seats[i]
                out.append(None if seat is None else ctx.uid(seat))
        return out

    async def _replayed(self, row: GameRow, game: Game, keep: int) -> Game:
        """The game at its first `keep` actions; undone actions are named in it, as they were made, not as they look
        afterwards (a train bought from the bank is the buyer's now)."""
        return await checkpoints.load_game(self.store, row, [p.name for p in game.players],
                                           await self.store.actions(row.id), self.now(), upto=keep)

    async def _do_undo(self, ctx: Ctx, game: Game, keep: int, *, agreed: bool = False) -> Reply:
        """Take the game back to its first `keep` actions (asked by the member, or agreed by everyone needed)."""
        row = ctx.row
        assert row is not None
        sealed = drafting(game)
        undone = [dump_action(a) for a in game.actions[keep:]]
        replayed = await self._replayed(row, game, keep)
        names = [texts.action_summary(replayed, a, sealed) for a in undone]
        await self._prepare(row.id, replayed)
        now = self.now()
        try:
            async with self.store.transaction() as tx:
                await tx.undo_to(row.id, keep, now)
                await self._set_reminder(tx, ctx, replayed, now)
        except BaseException:
            self._evict(row.id)
            raise
        self._remember(row.id, replayed)
        self._close_votes(row.id)
        listing: Text = clauses(names[-5:])
        if len(names) > 5:
            listing = M("{actions} (and {n} more)", actions=listing, n=len(names) - 5)
        reply = Reply(text=MN("↩️ Everyone agreed; undoing an action: {actions}.",
                                "↩️ Everyone agreed; undoing {n} actions: {actions}.", n=len(undone), actions=listing)
                      if agreed else
                      MN("↩️ {member} undoes an action: {actions}.", "↩️ {member} undoes {n} actions: {actions}.",
                         member=ctx.user.name, n=len(undone),
                        actions=listing))
        merge(reply, self._prompt(ctx, replayed, previous=[]))
        return reply

    async def _redo_cmd(self, ctx: Ctx) -> Reply:
        row = ctx.row
        game = await self._game(ctx)
        assert row is not None
        history = await self.store.history(row.id)
        undone = [r for r in history if r.state == "undone"]
        if not undone:
            raise Refusal(M("There is nothing to redo (something has happened since the undo, or nothing was undone)."))
        nxt = min(undone, key=lambda r: r.seq)
        owner = nxt.user_id
        if owner is None:
            # an action of an imported record: its seat's; the redone action follows the live log directly, so the
            # current state tells who decided it
            decider = game.player_for(str(nxt.action.get("entity", "")))
            owner = None if decider is None else ctx.uid(decider)
        if owner != ctx.user.id and not ctx.is_admin():
            who = next((p.name for p in ctx.players if p.user_id == owner), None)
            raise Refusal(M("The next action to redo was {player}'s; only they (or an administrator) can redo it.",
                            player=who) if who else
                          M("The next action to redo was another player's; only they (or an administrator) can "
                            "redo it."))
        before = self._before(game)
        if nxt.action.get("type") == "end_game" and not ctx.is_admin():
            # a game ended by hand is ended again only by an administrator
            raise Refusal(END_BY_HAND)
        try:
            # Nothing has happened since the undo, so the state is the one the action was accepted in: it is applied
            # as the stored log replays it (trusted, with what it recorded, such as the track its routes took), and
            # the game is again the one it was before the undo, byte for byte, as a restart would rebuild it.
            await asyncio.to_thread(game.replay, [nxt.action])
        except BaseException:
            self._evict(row.id)  # the log is the truth: the next command replays it
            raise
        now = self.now()
        try:
            async with self.store.transaction() as tx:
                await tx.redo(row.id, now)
                await self._set_reminder(tx, ctx, game, now)
                if game.finished:
                    await tx.set_status(row.id, "finished", now, game_result(game))
        except BaseException:
            self._evict(row.id)
            raise
        if not game.finished:
            await self._prepare(row.id, game)
        return self._after_action(ctx, game, nxt.action, before,
                                  headline=M("↪️ {member} redoes an action.", member=ctx.user.name))


def _deciders(game: Game, upto: int) -> list[str | None]:
    """The player who decided each of the game's first `upto` actions: the one acting for its entity at that moment
    (a corporation's president may have changed since). Replays step by step, so call it off the event loop."""
    step = Game(game.rules, [p.name for p in game.players], game.seed, game.options)
    step.replaying = True  # the stored log's route choices stand as they were accepted, as in any replay
    out: list[str | None] = []
    for action in game.action_log()[:upto]:
        out.append(step.player_for(str(action.get("entity", ""))))
        step.process(action)
    return out
