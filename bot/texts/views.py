"""The game's state as players read it: the round line, the players' and corporations' embeds, the log's last
lines, the standings and the game's end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import Game
from engine.messages import MN, Join, M, Msg, Text
from engine.state import IPO, POOL

from .actions import corp_label, hex_name
from .form import Embed, bullets


def round_name(entry: Mapping[str, Any]) -> Text:
    """A finished round's name as players read it: the engine's words for it ("label"), else its id ("SR 3")."""
    return entry.get("label") or entry["name"]


def round_line(game: Game) -> Text:
    if game.finished:
        return M("Game over")
    rnd = game.round
    return M("{round} · phase {phase}", round=getattr(rnd, "display_name", None) or rnd.name, phase=game.phase.name)


def players_embed(game: Game) -> Embed:
    fmt = game.fmt
    priority = game.players[game.priority].name if game.players else ""
    emb = Embed(M("Players — {round}", round=round_line(game)))
    for p in game.players:
        held: list[Msg] = []
        for sym in game.corps:
            n = game.shares_held(p.name, sym)
            if n:
                percent = game.percent_of(sym, n)
                held.append(M("{corp} {percent}% (pres.)", corp=sym, percent=percent)
                            if game.corps[sym].president == p.name else M("{corp} {percent}%", corp=sym,
                                                                            percent=percent))
        privates = [c.sym for c in game.companies.values() if c.owner == p.name and not c.closed]
        shares: Text = tuple(held) or (M("no shares") if privates else M("none"))  # the privates come next
        lines: list[Text] = [
            M("Cash {cash} · net worth {worth}", cash=fmt(p.cash), worth=fmt(game.net_worth(p.name))),
            M("Certificates {n}/{limit}: {held}", n=game.cert_count(p.name), limit=game.cert_limit(), held=shares)]
        if privates:
            lines.append(M("Privates: {privates}", privates=tuple(privates)))
        flags: list[Msg] = []
        if p.name == priority and not game.finished:
            flags.append(M("Priority Deal"))
        if p.bankrupt:
            flags.append(M("bankrupt"))
        name: Text = M("{player} — {flags}", player=p.name, flags=tuple(flags)) if flags else p.name
        emb.fields.append((name, Join(tuple(lines))))
    emb.description = M("Bank {cash}", cash=fmt(game.bank))
    return emb


def corporations_embed(game: Game) -> Embed:
    fmt = game.fmt
    emb = Embed(M("Corporations — {round}", round=round_line(game)))
    waiting = []
    for sym, c in game.corps.items():
        if not c.started:
            waiting.append(sym)
            continue
        trains = tuple(M("{train}-train", train=t.variant) for t in game.trains_of(sym)) or M("none")
        stations = tuple(hex_name(game, h) for h, _ in game.board.stations(sym)) or M("none")
        state = M("floated") if c.floated else M("not floated")
        if c.frozen:
            state = M("frozen (no president)")
        lines: list[Text] = [
            MN("President {president} · price {price} (par {par}) · {n} share, {state}",
               "President {president} · price {price} (par {par}) · {n} shares, {state}",
               president=c.president or "—", price=fmt(game.price(sym)), par=fmt(c.par_price or 0), n=c.size,
               state=state),
            M("Treasury {cash} · trains: {trains} (limit {limit})", cash=fmt(c.cash), trains=trains,
              limit=game.train_limit(sym)),
            M("Tokens left {n} · IPO {ipo}, pool {pool}", n=c.tokens_left, ipo=game.shares_held(IPO, sym),
              pool=game.shares_held(POOL, sym)),
            M("Stations: {stations}", stations=stations)]
        owned = tuple(p.sym for p in game.companies.values() if p.owner == sym and not p.closed)
        if owned:
            lines.append(M("Privates: {privates}", privates=owned))
        lines += game.rules.charter_notes(game, sym)
        emb.fields.append((corp_label(game, sym), Join(tuple(lines))))
    if waiting:
        emb.description = M("Not started: {corps}", corps=tuple(waiting))
    depot = game.depot()
    if depot:
        left = sum(1 for t in depot if t.name == depot[0].name)
        emb.fields.append((M("Bank trains"), M("Next: {train}-train {price} ({n} left of that type)",
                                               train=depot[0].variant, price=fmt(depot[0].price), n=left)))
    return emb


def history_text(game: Game, lines: int = 20) -> Text:
    recent = [text for _i, text in game.messages[-lines:]]
    if not recent:
        return M("The log is empty.")
    return Join((MN("**Last {n} log line**", "**Last {n} log lines**", n=len(recent)), bullets(recent)))


def standings_lines(game: Game) -> list[Text]:
    """One line per player, best first: medal, name, net worth, and "bankrupt" for a player out of the game."""
    ranking = sorted(game.result().items(), key=lambda kv: -kv[1])
    out: list[Text] = []
    for name, worth in ranking:
        i = 1 + sum(1 for _n, w in ranking if w > worth)  # equal worth, equal place (as the picture shows it)
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(i, f"{i}.")
        out.append(_marked(game, name, f"{medal} **{name}** {game.fmt(worth)}"))
    return out


def seats_text(game: Game, names: Sequence[str]) -> Msg:
    """The seats in order ("1. ann, 2. bob (bankrupt)"), a list in the reader's way ("1. ann、2. bob")."""
    return M("{seats}", seats=tuple(_marked(game, name, f"{i}. {name}") for i, name in enumerate(names, 1)))


def _marked(game: Game, name: str, line: str) -> Text:
    """A player's line, marked when the player is out of the game."""
    out = any(p.name == name and p.bankrupt for p in game.players)
    return M("{standing} (bankrupt)", standing=line) if out else line


END_REASONS: dict[str, Msg] = {
    "bank": M("the bank broke"),
    "bankrupt": M("a player went bankrupt"),
    "manually_ended": M("an administrator ended the game"),
}


def end_reason_text(reason: str | None) -> Text:
    if not reason:
        return M("the game ended")
    return END_REASONS.get(reason, reason.replace("_", " "))


def game_over_text(game: Game) -> Join:
    return Join((M("🏁 **Game over** — {reason}.", reason=end_reason_text(game.end_reason)),
                 M("**Final standings** (net worth)"), *standings_lines(game)))
