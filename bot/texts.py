"""What players read: action descriptions for menus, views, summaries, help, and message splitting.

Everything here reads a Game and returns text (or a transport-neutral `Embed`); nothing changes state. Mentions
are written the Discord way (`<@user id>`); the local simulator turns them back into @names. Sealed bids are never
described with their amount (the engine's own log lines keep them secret until the reveal).

Texts are in no language yet: `engine.messages.Msg`/`Join` (the ``texts`` gettext catalogue), rendered for their
reader where the service hands a reply out (`str()` of one is English). Ids, names and money stay as printed.
Command and option names in help lines are the commands catalogue's words (`commands.command_words`). Only
message splitting and mentions work on rendered strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.game import Game
from engine.messages import MN, Join, M, Msg, Text
from engine.state import IPO, POOL
from engine.stock import share_price

from .commands import COMMANDS, GROUPS, command_words, option_word

if TYPE_CHECKING:
    from .storage import GameRow

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELD_VALUE_LIMIT = 1024
EMBED_TOTAL_LIMIT = 6000
EMBED_FIELDS_LIMIT = 25


@dataclass
class Embed:
    """A Discord-style card: title, description and named fields; the local simulator prints it as text.

    Its parts are texts in no language yet (`Msg`/`Join`) or plain strings; `render` gives the card in a reader's
    language. `as_text` and `clipped` work on what the card says (English while it is not rendered)."""

    title: Text
    description: Text = ""
    fields: list[tuple[Text, Text]] = field(default_factory=list)
    color: int | None = None

    def render(self, t: Callable[[Text], str]) -> Embed:
        """The card with every part in the reader's language (``t`` renders a text: a `bot.i18n.Tr`)."""
        return Embed(t(self.title), t(self.description), [(t(n), t(v)) for n, v in self.fields], self.color)

    def as_text(self) -> str:
        title, desc = str(self.title), str(self.description)
        lines = [f"**{title}**"] if title else []
        if desc:
            lines.append(desc)
        for name, value in self.fields:
            lines.append(f"**{name}**\n{value}")
        return "\n".join(lines)

    def clipped(self) -> Embed:
        """The embed cut to Discord's limits (fields beyond 25 or past 6000 characters are folded away)."""
        title = _clip(str(self.title), 256)
        desc = _clip(str(self.description), EMBED_DESCRIPTION_LIMIT)
        total = len(title) + len(desc)
        fields: list[tuple[Text, Text]] = []
        for name, value in self.fields:
            name, value = _clip(str(name), 256) or "·", _clip(str(value), EMBED_FIELD_VALUE_LIMIT) or "·"
            if len(fields) == EMBED_FIELDS_LIMIT or total + len(name) + len(value) > EMBED_TOTAL_LIMIT - 50:
                break
            fields.append((name, value))
            total += len(name) + len(value)
        return Embed(title, desc, fields, self.color)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split text into Discord-sized messages at line breaks, keeping code blocks balanced."""
    if len(text) <= limit:
        return [text] if text else []
    chunks: list[str] = []
    current = ""
    in_code = False
    for line in text.split("\n"):
        while len(line) > limit - 8:  # a single over-long line: hard cut
            head, line = line[: limit - 8], line[limit - 8:]
            chunks.extend(_flush(current, in_code))
            current = head
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) + (4 if in_code else 0) > limit:
            chunks.extend(_flush(current, in_code))
            current = ("```\n" + line) if in_code else line
        else:
            current = candidate
        if line.strip().startswith("```"):
            in_code = not in_code
    if current:
        chunks.append(current)
    return [c for c in chunks if c.strip()]


def _flush(current: str, in_code: bool) -> list[str]:
    if not current:
        return []
    return [current + ("\n```" if in_code else "")]


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


PROMPT_MARK = "➡️"  # starts the line of a message that calls players to act


def turn_over_text(content: str) -> Text:
    """A call to act whose turn has passed: what came before the call stays, the call itself is struck out.
    ``content`` is the message as it was posted (already in its readers' language)."""
    before, mark, call = content.partition(PROMPT_MARK)
    if not mark:
        return content
    first = call.split("\n", 1)[0].strip()
    return M("{before}~~{call}~~ ☑️ done", before=before.lstrip(), call=f"{PROMPT_MARK} {first}")


def game_tag(row: GameRow) -> Text:
    """How a game is named wherever a member in several games must know which one calls: "18FL · game #3"."""
    return M("{title} · game #{id}", title=row.title, id=row.id)


def duration_text(seconds: float) -> Text:
    """How long something has waited: "40 min", "5 h", "2 d 3 h"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return M("less than a minute")
    if minutes < 60:
        return M("{n} min", n=minutes)
    hours = minutes // 60
    if hours < 48:
        return M("{n} h", n=hours)
    if hours % 24:
        return M("{days} d {hours} h", days=hours // 24, hours=hours % 24)
    return M("{days} d", days=hours // 24)


def hours_text(seconds: int) -> Text:
    if seconds <= 0:
        return M("off")
    if seconds < 3600:
        return M("{n} min", n=seconds // 60)
    h = seconds / 3600
    return M("{n} h", n=f"{h:.0f}" if h >= 10 or h == int(h) else f"{h:.1f}")


def _as_msg(text: Any) -> Text:
    """A text kept as data (a command's or an option's description): looked up in the catalogues as it is."""
    return text if isinstance(text, (Msg, Join)) else Msg(str(text))


def _bullets(lines: Sequence[Text]) -> Join:
    return Join(tuple(M("· {line}", line=x) for x in lines))


# -- actions -------------------------------------------------------------------------------------------------


def _source(where: Any) -> Msg:
    return M("the pool") if where == "pool" else M("the IPO")


def describe_action(game: Game, a: Mapping[str, Any], *, with_entity: bool = False) -> Text:
    """A short menu label for a legal action, e.g. "Buy SAL from the IPO ($70)"."""
    t = a["type"]
    fmt = game.fmt
    text: Text
    if t == "pass":
        text = M("Pass")
    elif t == "bid":
        if a.get("company"):
            comp = game.companies.get(a["company"])
            if a.get("price"):
                text = M("Bid {price} for {company}", price=fmt(int(a["price"])), company=a["company"])
            elif comp:
                text = M("Choose {company} ({price})", company=a["company"], price=fmt(comp.value))
            else:
                text = M("Choose {company}", company=a["company"])
        else:
            text = M("Bid {price}", price=fmt(int(a.get("price") or 0)))
    elif t == "par":
        if a.get("size"):
            text = MN("Start {corp} at {price}, {n} share", "Start {corp} at {price}, {n} shares",
                      corp=a["corporation"], price=fmt(int(a["price"])), n=int(a["size"]))
        else:
            text = M("Start {corp} at {price}", corp=a["corporation"], price=fmt(int(a["price"])))
    elif t == "buy_shares" and a.get("entity") in game.companies:
        text = M("Exchange for a share of {corp} from {source} (the private closes)", corp=a["corporation"],
                 source=_source(a.get("source")))
    elif t == "buy_shares":
        corp = a["corporation"]
        from_ipo = a.get("source") != "pool"
        what = M("President's certificate") if a.get("president") else M("a share")
        price = share_price(game, corp, from_ipo) if corp in game.market.positions else None
        if price:
            text = M("Buy {what} of {corp} from {source} ({price})", what=what, corp=corp,
                     source=_source(a.get("source")), price=fmt(price))
        else:
            text = M("Buy {what} of {corp} from {source}", what=what, corp=corp, source=_source(a.get("source")))
    elif t == "sell_shares":
        corp, n = a["corporation"], int(a.get("count") or 1)
        price = game.price(corp) if corp in game.market.positions else 0
        text = (M("Sell {n} × {corp} (≈{value})", n=n, corp=corp, value=fmt(n * price)) if price
                else M("Sell {n} × {corp}", n=n, corp=corp))
    elif t == "lay_tile":
        text = M("Lay #{tile} at {hex}, rotation {rotation}", tile=a["tile"], hex=hex_name(game, a["hex"]),
                 rotation=a["rotation"])
    elif t == "place_token":
        where = hex_name(game, a["hex"])
        text = (M("Station at {hex} city {city}", hex=where, city=a["city"]) if int(a.get("city") or 0)
                else M("Station at {hex}", hex=where))
    elif t == "hex_token":
        text = M("Hotel at {hex}", hex=hex_name(game, a["hex"]))
    elif t == "assign":
        where = hex_name(game, a["target"])
        if game.data.has_hex(a["target"]) and game.data.hex(a["target"]).port:
            text = M("Station to the port side of {hex} (takes the port marker)", hex=where)
        else:
            text = M("Place the marker at {hex}", hex=where)
    elif t == "name_train":
        text = (M("Put the {chit} on the {train}", chit=a["chit"], train=train_words(game, str(a["train"])))
                if a.get("train") else M("Take the {chit} off its train", chit=a["chit"]))
    elif t == "run_routes":
        text = M("Run the best routes")
    elif t == "dividend":
        text = M("Pay out") if a["kind"] == "payout" else M("Withhold")
    elif t == "buy_train":
        text = _train_label(game, a)
    elif t == "buy_company":
        comp = game.companies.get(a["company"])
        price = fmt(int(a.get("price") or 0))
        text = (M("Buy {company} from {owner} for {price}", company=a["company"], owner=comp.owner, price=price)
                if comp is not None and comp.owner else M("Buy {company} for {price}", company=a["company"],
                                                            price=price))
    elif t == "discard_train":
        text = M("Discard a {train}", train=train_words(game, str(a["train"])))
    elif t == "convert":
        text = M("Convert to 10 shares")
    elif t == "bankrupt":
        text = M("Declare bankruptcy")
    elif t == "end_game":
        text = M("End the game")
    else:
        text = t.replace("_", " ").capitalize()  # an action type the bot does not know yet: its own name
    if with_entity or a.get("entity") in game.companies:
        text = M("{entity}: {action}", entity=a["entity"], action=text)
    return text


def train_words(game: Game, train_id: str) -> Msg:
    """A train as players call it ("3-train"), never by its id ("3-1")."""
    try:
        return M("{train}-train", train=game.train(train_id).variant)
    except Exception:
        return M("train")


def _train_label(game: Game, a: Mapping[str, Any]) -> Msg:
    try:
        t = game.train(str(a["train"]))
    except Exception:
        t = None
    variant = a.get("variant") or (t.variant if t else a["train"])
    if t is not None and t.owner not in (None, POOL):
        return M("Buy {owner}'s {train}-train (name a price)", owner=t.owner, train=t.variant)
    source = M("the pool") if t is not None and t.owner == POOL else M("the bank")
    price = a.get("price")
    trade: Msg | None = None
    if a.get("exchange"):
        try:
            own = game.train(str(a["exchange"]))
            trade = M("trading in its {train}-train {id}", train=own.variant, id=own.id)
        except Exception:
            trade = M("trading in {id}", id=a["exchange"])
    if price and trade:
        return M("Buy a {train}-train from {source} ({price}, {trade})", train=variant, source=source,
                 price=game.fmt(int(price)), trade=trade)
    if price:
        return M("Buy a {train}-train from {source} ({price})", train=variant, source=source,
                 price=game.fmt(int(price)))
    if trade:
        return M("Buy a {train}-train from {source}, {trade}", train=variant, source=source, trade=trade)
    return M("Buy a {train}-train from {source}", train=variant, source=source)


def hex_name(game: Game, hex_id: str) -> str:
    try:
        name = game.data.hex(hex_id).name
    except Exception:
        name = None
    return f"{hex_id} {name}" if name else hex_id


def action_summary(game: Game, a: Mapping[str, Any], drafting: bool) -> Text:
    """How an undo prompt names an action; hides the amount of a sealed bid while bids are secret."""
    if a.get("type") == "bid" and not a.get("company") and drafting:
        return M("{entity}'s sealed bid", entity=a["entity"])
    return M("{entity}: {action}", entity=a.get("entity"), action=describe_action(game, a))


# -- views ---------------------------------------------------------------------------------------------------

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
        lines: list[Text] = [
            M("Cash {cash} · net worth {worth}", cash=fmt(p.cash), worth=fmt(game.net_worth(p.name))),
            M("Certificates {n}/{limit}: {held}", n=game.cert_count(p.name), limit=game.cert_limit(),
              held=tuple(held) or M("none"))]
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
            M("Stations: {stations}", stations=stations),
            *game.rules.charter_notes(game, sym)]
        emb.fields.append((f"{sym} — {c.name}", Join(tuple(lines))))
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
    return Join((MN("**Last {n} log line**", "**Last {n} log lines**", n=len(recent)), _bullets(recent)))


def standings_lines(game: Game) -> list[str]:
    """One line per player, best first (medal, name, net worth: no words to translate)."""
    ranking = sorted(game.result().items(), key=lambda kv: -kv[1])
    out = []
    for i, (name, worth) in enumerate(ranking, 1):
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(i, f"{i}.")
        out.append(f"{medal} **{name}** {game.fmt(worth)}")
    return out


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


# -- summaries -------------------------------------------------------------------------------------------------

# The engine's stock round lines as messages (their templates), and as the plain strings older records hold.
BOUGHT = "{player} bought {share} ({source})"
SOLD = "{player} sold {n}× {corp}"
_BOUGHT = re.compile(r"^(.+) bought (\S+) \((ipo|pool)\)$")
_SOLD = re.compile(r"^(.+) sold (\d+)× (\S+)$")


def _deal(line: Text) -> tuple[str, str, str, Any, int] | None:
    """A purchase or sale of a line: (kind, player, corporation, source, count); None for any other line."""
    if isinstance(line, Msg):
        if line.text == BOUGHT:
            return "buy", str(line.get("player")), str(line.get("share")), line.get("source"), 1
        if line.text == SOLD:
            return "sell", str(line.get("player")), str(line.get("corp")), None, int(line.get("n") or 1)
        return None
    if not isinstance(line, str):
        return None
    if m := _BOUGHT.match(line):
        return "buy", m[1], m[2], m[3], 1
    if m := _SOLD.match(line):
        return "sell", m[1], m[3], None, int(m[2])
    return None


def merge_purchases(lines: Sequence[Text]) -> list[Text]:
    """A stock round's lines with repeated buys and sales of one corporation by one player said once, at the
    first of them: "bob bought 3 shares of L&N from the IPO"."""
    counts: dict[tuple[str, ...], int] = {}
    sources: dict[tuple[str, ...], Any] = {}
    order: list[tuple[str, ...] | Text] = []
    for line in lines:
        deal = _deal(line)
        if deal is None:
            order.append(line)
            continue
        kind, player, corp, source, n = deal
        source = _source(source) if source in ("ipo", "pool") else source
        key = (kind, player, corp, str(source))
        if key not in counts:
            order.append(key)
            sources[key] = source
        counts[key] = counts.get(key, 0) + n
    out: list[Text] = []
    for item in order:
        if not isinstance(item, tuple):
            out.append(item)
            continue
        n = counts[item]
        if item[0] == "buy":
            out.append(MN("{player} bought a share of {corp} from {source}",
                          "{player} bought {n} shares of {corp} from {source}",
                          player=item[1], corp=item[2], source=sources[item], n=n))
        else:
            out.append(MN("{player} sold a share of {corp}", "{player} sold {n} shares of {corp}",
                          player=item[1], corp=item[2], n=n))
    return out


def stock_round_summary(game: Game, entry: Mapping[str, Any]) -> Join:
    lines = merge_purchases(list(entry.get("summary") or []))
    prices = tuple(f"{s} {game.fmt(game.price(s))}" for s in game.corps if s in game.market.positions)
    parts: list[Text] = [M("📋 **End of {round}**", round=round_name(entry)),
                         _bullets(lines) if lines else M("· Everyone passed.")]
    if prices:
        parts.append(M("Prices: {prices}", prices=prices))
    return Join(tuple(parts))


def draft_summary(game: Game) -> Msg:
    owned = tuple(f"{c.owner} {c.sym}" for c in game.companies.values() if c.owner)
    if not owned:
        return M("📋 **Draft over**: no private sold.")
    return M("📋 **Draft over**: {owned}.", owned=owned)


def _template(line: Text) -> str:
    """What a line says in English words, to sort it: a message's template, never its values."""
    return line.text if isinstance(line, Msg) else str(line)


def _is_event(line: Text) -> bool:
    said = _template(line)
    return said.startswith("Phase ") or " loses " in said or said.endswith(" closes.") or "hurricane" in said


def or_set_summary(game: Game, entries: Sequence[Mapping[str, Any]], since_message: int) -> Join:
    """The end of a set of operating rounds: each OR's revenues, dividends, price moves and trains, then phases."""
    names = tuple(round_name(e) for e in entries)
    parts: list[Text] = [M("📋 **End of the operating rounds** ({rounds})", rounds=names) if names
                         else M("📋 **End of the operating rounds**")]
    for e in entries:
        lines = e.get("summary") or []
        if lines:
            parts.append(Join((M("__{round}__", round=round_name(e)), _bullets(lines))))
    events = [t for _i, t in game.messages[since_message:] if _is_event(t)]
    if events:
        parts.append(Join((M("__Events__"), _bullets(events))))
    return Join(tuple(parts))


# -- help ----------------------------------------------------------------------------------------------------
# Each topic is whole paragraphs, one message each, so that a translation may order its sentences its own way.

PICTURES_HELP = Join((
    M("**Reading the pictures**"),
    M("**Map** — each hex shows its id in a corner. White hexes are empty land; the number on them is the cost to "
      "build there (water, swamp). Yellow, green, brown and gray are laid tiles, drawn from their track. White "
      "circles are cities: one circle per token slot; a coloured disc with letters is a corporation's station. "
      "Small bars or dots are towns (in 18FL a coloured H beside a town is a hotel). Red areas at the edge are "
      "off-board destinations with their value per phase (the value in use is highlighted). Thick dark lines "
      "between hexes cannot be crossed. Badges such as ⚓+20 are special markers (the port). A ring with a "
      "corporation's name is its home circle, kept until it first operates (every title draws it so). Track that "
      "stops in a short bar before a hex side ends there: the neighbour's track does not continue it. On the map "
      "posted for a track step, the hexes where the operating corporation can lay a tile are outlined in pink. "
      "`/view map region:F23` zooms in around a hex (or a place name); `/view map` posts the part of the map where "
      "track has been laid when that is much smaller than the whole map."),
    M("**Routes** — the map with each train's route in its own colour; the legend lists the train, its stops and "
      "its revenue. Confirm with the button (or `/train run confirm:true`)."),
    M("**Market** — the share price track; each corporation's token sits on its price. Several tokens on one cell "
      "form a stack: the top one operates first. Par cells (where a corporation may start) are marked. In 18EZ a "
      "railroad's token waits in the Par Values box under the grid until the end of the round in which it floats."),
    M("**Standings** — net worth per player now, and a line per player over the rounds played (the axis names the "
      "rounds: SR 3 is the third stock round, OR 3.2 the second operating round after it). Each player keeps one "
      "colour for the whole game."),
    M("**Sheets** — `/view tiles` (tiles left and what each upgrades to), `/view trains` (prices, copies left, when "
      "each rusts), `/view holdings` (everyone's certificates, IPO, pool, treasuries, trains, last runs, the bank), "
      "`/view revenue corporation:` (its runs round by round)."),
))

TRACK_HELP = Join((
    M("**Laying track**"),
    M("`/track lay hex: tile: rotation:` — the lists offered while typing hold only hexes the corporation can "
      "reach, tiles that fit there and rotations that are legal. A rotation is named by where its track goes: "
      "`r2: Jacksonville–Daytona` leads to those places; towards hexes without a name the sides are compass points "
      "(`NE–S`; a pointy-topped map has no N or S side). Leave out `rotation:` and the bot shows you (only you) a "
      "small picture of the hex with the tile in each legal rotation, numbered r0–r5, to pick from. A refused "
      "rotation says that the rotation is wrong and which ones fit."),
))

UNDO_HELP = Join((
    M("**Undo and redo**"),
    M("`/undo` takes back your own last action at once, if nobody has acted since. Otherwise the bot asks everyone "
      "whose actions would be taken back to agree (buttons); the undo happens when all have agreed. `/undo count:3` "
      "takes back three actions. Administrators (the game's creator or members with Manage Server) can "
      "`/undo force:true`. `/redo` puts back the last undone action while nothing else has happened."),
))

TURN_HELP = Join((
    M("**How a turn works**"),
    M("The bot says after every action who must act next and what they can do, with buttons for the usual "
      "choices. Type `/` and pick a command: the lists offered while typing contain only legal choices (hexes you "
      "can reach, tiles and rotations that fit, cities with free slots and their cost). `/act` lists every legal "
      "action at once. Refusals are shown only to you and change nothing."),
))

EZ_HELP = Join((
    M("**18EZ (Level 2): the game from scratch**"),
    M("You are investors. Six railroads are for sale as shares; you become rich by owning shares of railroads that "
      "earn well. Whoever has the most money plus share value at the end wins (the railroads' own money does not "
      "count)."),
    M("**Share dealing rounds** (`/stock …`). In turn, starting with the holder of the Priority Bid Card, each "
      "player buys one certificate, sells, buys one then sells, sells then buys one, or passes. The first "
      "certificate of a railroad is its President's certificate (20%): its buyer picks the par value ($50–$100) "
      "and pays twice that. Later shares cost the par from the IPO, or the current value from the open market. A "
      "railroad floats when half its shares are sold; it receives ten times its par at the end of that round. In "
      "the first round nobody may sell; later, you may not sell shares bought in the same round, nor buy back what "
      "you sold. At most 60% of one railroad each. The round ends when everyone passes in a row."),
    M("**Operating rounds.** Each floated railroad, highest share value first, takes a turn run by its president: "
      "1. lay or upgrade **one** tile (free) where its track reaches from its home (`/track lay`); its first tile "
      "goes on its home city; 2. place its second station for $40 (`/token place`); 3. run its trains "
      "(`/train run`): the bot finds the best routes, each counting the cities and towns it visits; 4. pay the "
      "income out to the shareholders (the share value moves right) or retain it in the railroad (it moves left) "
      "with `/corp dividend`; 5. buy trains (`/train buy`). A railroad with a route must own a train; if it cannot "
      "pay, its president must help and may have to sell shares, and if he still cannot, he is bankrupt and the "
      "game ends at once."),
    M("**The end.** When the bank runs out of money the current set of operating rounds is finished, then "
      "everyone's cash and shares at their value are counted."),
    M("Every prompt says what its step is for; `/act` lists every legal move. **Note:** the 18EZ board, train "
      "prices, full share price index and other numbers the rulebook does not print are a reconstruction, not the "
      "published game."),
))


def reconstruction_note(data: Any) -> Text:
    """A line saying that a title's board (and what its rulebook does not print) is a reconstruction, not the
    published game; "" for a title printed as published. The title data says which (its provenance)."""
    prov = getattr(data, "provenance", None) or {}
    if "RECONSTRUCTED" not in prov.get("status", "").upper():
        return ""
    return M("⚠️ **{title}**: the board and the numbers its rulebook does not print are a reconstruction, not the "
             "published game (every item says where it comes from in the title data).", title=data.title)


# /help's own topics (the command groups are topics too), each named in the reader's language
HELP_TOPICS: dict[str, Msg] = {"commands": M("commands"), "pictures": M("pictures"), "track": M("track"),
                               "undo": M("undo"), "options": M("options"), "18ez": M("18ez")}
HELP_GROUPS = ("game", "private", "stock", "token", "train", "corp", "view")


def help_topic_word(key: str) -> Text:
    """A /help topic as the reader types it (``track`` is 線路 in Japanese)."""
    return HELP_TOPICS.get(key) or command_words(key)


def help_topic_key(typed: str) -> str:
    """The topic a member typed, in any of our languages, as its key ("線路" -> "track"); unknown: as typed."""
    from .i18n import LANGUAGES, tr

    typed = typed.strip().lower().lstrip("/")
    for key in (*HELP_TOPICS, *HELP_GROUPS):
        if any(tr(help_topic_word(key), lang).lower() == typed for lang in LANGUAGES):
            return key
    return typed


def help_text(topic: str | None, title_options: Mapping[str, Mapping[str, Any]] | None = None) -> Text:
    topic = help_topic_key(topic or "")
    if topic in ("18ez", "ez"):
        return EZ_HELP
    if topic in ("pictures", "picture", "map", "market"):
        return PICTURES_HELP
    if topic in ("undo", "redo"):
        return UNDO_HELP
    if topic in ("track", "rotation", "rotations", "tile", "tiles"):
        return TRACK_HELP
    if topic in ("options", "titles"):
        lines: list[Text] = [M("**Titles and options** (`/game create title:18FL options:name1,name2`)")]
        for title, opts in (title_options or {}).items():
            described = Join(tuple(M("`{option}` — {description}", option=k, description=_as_msg(v))
                                   for k, v in opts.items()), "; ")
            lines.append(M("**{title}**: {options}", title=title, options=described) if opts
                         else M("**{title}**: no options", title=title))
        return Join((*lines, *reconstruction_notes()))
    groups = {g.name: g for g in GROUPS}
    if topic in groups:
        head = M("**/{group}** — {description}", group=command_words(topic),
                 description=_as_msg(groups[topic].description))
        return Join((head, *(_cmd_line(c) for c in COMMANDS if c.group == topic)))
    lines = [M("**Stationmaster** plays 18xx railroad games in this channel."),
             M("Start: `/game create title:18FL`, others `/game join`, then `/game start`."),
             Join((TURN_HELP, M("**Commands**")), "\n\n")]  # a blank line before the command list
    for g in GROUPS:
        names = tuple(command_words(c.name) for c in COMMANDS if c.group == g.name)
        lines.append(M("`/{group}` {commands} — {description}", group=command_words(g.name), commands=names,
                       description=_as_msg(g.description)))
    lines.append(M("`/pass`, `/act`, `/undo`, `/redo`, `/help` — pass; any legal action from a list; undo; redo; "
                   "this help"))
    lines.append(M("More: `/help topic:{pictures}`, `/help topic:{track}`, `/help topic:{undo}`, "
                   "`/help topic:{options}`, `/help topic:{stock}`, `/help topic:{ez}` (a first game, from scratch; "
                   "its board is a reconstruction) …", pictures=help_topic_word("pictures"),
                   track=help_topic_word("track"), undo=help_topic_word("undo"), options=help_topic_word("options"),
                   stock=help_topic_word("stock"), ez=help_topic_word("18ez")))
    return Join((*lines, *reconstruction_notes()))


def reconstruction_notes(title: str | None = None) -> list[Text]:
    """The reconstruction line of a title (or of every title whose board is reconstructed)."""
    from engine.titledata import load_title
    from engine.titles import TITLES

    return [note for t in ([title] if title else TITLES) if (note := reconstruction_note(load_title(t)))]


def _cmd_line(c: Any) -> Msg:
    opts = tuple(M("{option}:…", option=option_word(o.name)) if o.required else M("[{option}]",
                                                                                 option=option_word(o.name))
                 for o in c.options)
    if opts:
        return M("`/{command} {options}` — {description}", command=command_words(c.path),
                 options=Join(opts, " "), description=_as_msg(c.description))
    return M("`/{command}` — {description}", command=command_words(c.path), description=_as_msg(c.description))
