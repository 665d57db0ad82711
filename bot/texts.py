"""What players read: action descriptions for menus, views, summaries, help, and message splitting.

Everything here reads a Game and returns text (or a transport-neutral `Embed`); nothing changes state. Mentions
are written the Discord way (`<@user id>`); the local simulator turns them back into @names. Sealed bids are never
described with their amount (the engine's own log lines keep them secret until the reveal).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.game import Game
from engine.state import IPO, POOL
from engine.stock import share_price

from .commands import COMMANDS, GROUPS

if TYPE_CHECKING:
    from .storage import GameRow

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELD_VALUE_LIMIT = 1024
EMBED_TOTAL_LIMIT = 6000
EMBED_FIELDS_LIMIT = 25


@dataclass
class Embed:
    """A Discord-style card: title, description and named fields; the local simulator prints it as text."""

    title: str
    description: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)
    color: int | None = None

    def as_text(self) -> str:
        lines = [f"**{self.title}**"] if self.title else []
        if self.description:
            lines.append(self.description)
        for name, value in self.fields:
            lines.append(f"**{name}**\n{value}")
        return "\n".join(lines)

    def clipped(self) -> Embed:
        """The embed cut to Discord's limits (fields beyond 25 or past 6000 characters are folded away)."""
        title = _clip(self.title, 256)
        desc = _clip(self.description, EMBED_DESCRIPTION_LIMIT)
        total = len(title) + len(desc)
        fields: list[tuple[str, str]] = []
        for name, value in self.fields:
            name, value = _clip(name, 256) or "·", _clip(value, EMBED_FIELD_VALUE_LIMIT) or "·"
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


def turn_over_text(content: str) -> str:
    """A call to act whose turn has passed: what came before the call stays, the call itself is struck out."""
    before, mark, call = content.partition(PROMPT_MARK)
    if not mark:
        return content
    first = call.split("\n", 1)[0].strip()
    return f"{before}~~{PROMPT_MARK} {first}~~ ☑️ done".strip()


def game_tag(row: GameRow) -> str:
    """How a game is named wherever a member in several games must know which one calls: "18FL · game #3"."""
    return f"{row.title} · game #{row.id}"


def duration_text(seconds: float) -> str:
    """How long something has waited: "40 min", "5 h", "2 d 3 h"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "less than a minute"
    if minutes < 60:
        return f"{minutes} min"
    hours = minutes // 60
    if hours < 48:
        return f"{hours} h"
    return f"{hours // 24} d" + (f" {hours % 24} h" if hours % 24 else "")


def hours_text(seconds: int) -> str:
    if seconds <= 0:
        return "off"
    if seconds < 3600:
        return f"{seconds // 60} min"
    h = seconds / 3600
    return f"{h:.0f} h" if h >= 10 or h == int(h) else f"{h:.1f} h"


# -- actions -------------------------------------------------------------------------------------------------


def describe_action(game: Game, a: Mapping[str, Any], *, with_entity: bool = False) -> str:
    """A short menu label for a legal action, e.g. "Buy SAL from the IPO ($70)"."""
    t = a["type"]
    fmt = game.fmt
    text: str
    if t == "pass":
        text = "Pass"
    elif t == "bid":
        if a.get("company"):
            comp = game.companies.get(a["company"])
            price = f" ({fmt(comp.value)})" if comp else ""
            if a.get("price"):
                text = f"Bid {fmt(int(a['price']))} for {a['company']}"
            else:
                text = f"Choose {a['company']}{price}"
        else:
            text = f"Bid {fmt(int(a.get('price') or 0))}"
    elif t == "par":
        size = f", {a['size']} shares" if a.get("size") else ""
        text = f"Start {a['corporation']} at {fmt(int(a['price']))}{size}"
    elif t == "buy_shares" and a.get("entity") in game.companies:
        where = "the pool" if a.get("source") == "pool" else "the IPO"
        text = f"Exchange for a share of {a['corporation']} from {where} (the private closes)"
    elif t == "buy_shares":
        corp = a["corporation"]
        where = "the pool" if a.get("source") == "pool" else "the IPO"
        what = "President's certificate" if a.get("president") else "a share"
        price = share_price(game, corp, where == "the IPO") if corp in game.market.positions else None
        text = f"Buy {what} of {corp} from {where}" + (f" ({fmt(price)})" if price else "")
    elif t == "sell_shares":
        corp, n = a["corporation"], int(a.get("count") or 1)
        price = game.price(corp) if corp in game.market.positions else 0
        text = f"Sell {n} × {corp}" + (f" (≈{fmt(n * price)})" if price else "")
    elif t == "lay_tile":
        text = f"Lay #{a['tile']} at {hex_name(game, a['hex'])}, rotation {a['rotation']}"
    elif t == "place_token":
        text = f"Station at {hex_name(game, a['hex'])}" + (f" city {a['city']}" if int(a.get("city") or 0) else "")
    elif t == "hex_token":
        text = f"Hotel at {hex_name(game, a['hex'])}"
    elif t == "assign":
        if game.data.has_hex(a["target"]) and game.data.hex(a["target"]).port:
            text = f"Station to the port side of {hex_name(game, a['target'])} (takes the port marker)"
        else:
            text = f"Place the marker at {hex_name(game, a['target'])}"
    elif t == "name_train":
        text = (f"Put the {a['chit']} on the {train_words(game, str(a['train']))}" if a.get("train")
                else f"Take the {a['chit']} off its train")
    elif t == "run_routes":
        text = "Run the best routes"
    elif t == "dividend":
        text = "Pay out" if a["kind"] == "payout" else "Withhold"
    elif t == "buy_train":
        text = _train_label(game, a)
    elif t == "buy_company":
        comp = game.companies.get(a["company"])
        seller = f" from {comp.owner}" if comp is not None and comp.owner else ""
        text = f"Buy {a['company']}{seller} for {fmt(int(a.get('price') or 0))}"
    elif t == "discard_train":
        text = f"Discard a {train_words(game, str(a['train']))}"
    elif t == "convert":
        text = "Convert to 10 shares"
    elif t == "bankrupt":
        text = "Declare bankruptcy"
    elif t == "end_game":
        text = "End the game"
    else:
        text = t.replace("_", " ").capitalize()
    if with_entity or a.get("entity") in game.companies:
        text = f"{a['entity']}: {text}"
    return text


def train_words(game: Game, train_id: str) -> str:
    """A train as players call it ("3-train"), never by its id ("3-1")."""
    try:
        return f"{game.train(train_id).variant}-train"
    except Exception:
        return "train"


def _train_label(game: Game, a: Mapping[str, Any]) -> str:
    try:
        t = game.train(str(a["train"]))
    except Exception:
        t = None
    variant = a.get("variant") or (t.variant if t else a["train"])
    if t is not None and t.owner not in (None, POOL):
        return f"Buy {t.owner}'s {t.variant}-train (name a price)"
    src = "pool" if t is not None and t.owner == POOL else "bank"
    price = a.get("price")
    trade = ""
    if a.get("exchange"):
        try:
            own = game.train(str(a["exchange"]))
            trade = f", trading in its {own.variant}-train {own.id}"
        except Exception:
            trade = f", trading in {a['exchange']}"
    return f"Buy a {variant}-train from the {src}" + (f" ({game.fmt(int(price))}{trade})" if price else trade)


def hex_name(game: Game, hex_id: str) -> str:
    try:
        name = game.data.hex(hex_id).name
    except Exception:
        name = None
    return f"{hex_id} {name}" if name else hex_id


def action_summary(game: Game, a: Mapping[str, Any], drafting: bool) -> str:
    """How an undo prompt names an action; hides the amount of a sealed bid while bids are secret."""
    if a.get("type") == "bid" and not a.get("company") and drafting:
        return f"{a['entity']}'s sealed bid"
    return f"{a.get('entity')}: {describe_action(game, a)}"


# -- views ---------------------------------------------------------------------------------------------------


def round_line(game: Game) -> str:
    if game.finished:
        return "Game over"
    rnd = game.round
    return f"{rnd.name} · phase {game.phase.name}"


def players_embed(game: Game) -> Embed:
    fmt = game.fmt
    priority = game.players[game.priority].name if game.players else ""
    emb = Embed(f"Players — {round_line(game)}")
    for p in game.players:
        held = []
        for sym in game.corps:
            n = game.shares_held(p.name, sym)
            if n:
                pres = " (pres.)" if game.corps[sym].president == p.name else ""
                held.append(f"{sym} {game.percent_of(sym, n)}%{pres}")
        privates = [c.sym for c in game.companies.values() if c.owner == p.name and not c.closed]
        lines = [f"Cash {fmt(p.cash)} · net worth {fmt(game.net_worth(p.name))}",
                 f"Certificates {game.cert_count(p.name)}/{game.cert_limit()}: " + (", ".join(held) or "none")]
        if privates:
            lines.append("Privates: " + ", ".join(privates))
        flags = []
        if p.name == priority and not game.finished:
            flags.append("Priority Deal")
        if p.bankrupt:
            flags.append("bankrupt")
        emb.fields.append((p.name + (f" — {', '.join(flags)}" if flags else ""), "\n".join(lines)))
    emb.description = f"Bank {fmt(game.bank)}"
    return emb


def corporations_embed(game: Game) -> Embed:
    fmt = game.fmt
    emb = Embed(f"Corporations — {round_line(game)}")
    waiting = []
    for sym, c in game.corps.items():
        if not c.started:
            waiting.append(sym)
            continue
        trains = ", ".join(f"{t.variant}-train" for t in game.trains_of(sym)) or "none"
        ipo = game.shares_held(IPO, sym)
        pool = game.shares_held(POOL, sym)
        stations = ", ".join(hex_name(game, h) for h, _ in game.board.stations(sym))
        state = "floated" if c.floated else "not floated"
        if c.frozen:
            state = "frozen (no president)"
        lines = [
            f"President {c.president or '—'} · price {fmt(game.price(sym))} (par {fmt(c.par_price or 0)}) · "
            f"{c.size} shares, {state}",
            f"Treasury {fmt(c.cash)} · trains: {trains} (limit {game.train_limit(sym)})",
            f"Tokens left {c.tokens_left} · IPO {ipo}, pool {pool}",
            f"Stations: {stations or 'none'}",
        ] + game.rules.charter_notes(game, sym)
        emb.fields.append((f"{sym} — {c.name}", "\n".join(lines)))
    if waiting:
        emb.description = "Not started: " + ", ".join(waiting)
    depot = game.depot()
    if depot:
        emb.fields.append(("Bank trains", f"Next: {depot[0].variant}-train {fmt(depot[0].price)} "
                                          f"({sum(1 for t in depot if t.name == depot[0].name)} left of that type)"))
    return emb


def history_text(game: Game, lines: int = 20) -> str:
    recent = [str(text) for _i, text in game.messages[-lines:]]
    if not recent:
        return "The log is empty."
    return f"**Last {len(recent)} log lines**\n" + "\n".join(f"· {t}" for t in recent)


def standings_lines(game: Game) -> list[str]:
    ranking = sorted(game.result().items(), key=lambda kv: -kv[1])
    out = []
    for i, (name, worth) in enumerate(ranking, 1):
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(i, f"{i}.")
        out.append(f"{medal} **{name}** {game.fmt(worth)}")
    return out


END_REASONS = {
    "bank": "the bank broke",
    "bankrupt": "a player went bankrupt",
    "manually_ended": "an administrator ended the game",
}


def end_reason_text(reason: str | None) -> str:
    if not reason:
        return "the game ended"
    return END_REASONS.get(reason, reason.replace("_", " "))


def game_over_text(game: Game) -> str:
    return (f"🏁 **Game over** — {end_reason_text(game.end_reason)}.\n**Final standings** (net worth)\n"
            + "\n".join(standings_lines(game)))


# -- summaries -------------------------------------------------------------------------------------------------


_BOUGHT = re.compile(r"^(.+) bought (\S+) \((ipo|pool)\)$")
_SOLD = re.compile(r"^(.+) sold (\d+)× (\S+)$")
_SOURCE = {"ipo": "the IPO", "pool": "the pool"}


def merge_purchases(lines: Sequence[str]) -> list[str]:
    """A stock round's lines with repeated buys and sales of one corporation by one player said once, at the
    first of them: "bob bought 3 shares of L&N from the IPO"."""
    counts: dict[tuple[str, ...], int] = {}
    order: list[tuple[str, ...] | str] = []
    for line in lines:
        m = _BOUGHT.match(line)
        key: tuple[str, ...] | None = ("buy", m[1], m[2], m[3]) if m else None
        if key is None and (m2 := _SOLD.match(line)):
            key, n = ("sell", m2[1], m2[3]), int(m2[2])
        else:
            n = 1
        if key is None:
            order.append(line)
            continue
        if key not in counts:
            order.append(key)
        counts[key] = counts.get(key, 0) + n
    out = []
    for item in order:
        if isinstance(item, str):
            out.append(item)
            continue
        n = counts[item]
        shares = "a share" if n == 1 else f"{n} shares"
        if item[0] == "buy":
            out.append(f"{item[1]} bought {shares} of {item[2]} from {_SOURCE[item[3]]}")
        else:
            out.append(f"{item[1]} sold {shares} of {item[2]}")
    return out


def stock_round_summary(game: Game, entry: Mapping[str, Any]) -> str:
    lines = merge_purchases([str(x) for x in entry.get("summary") or []])
    prices = [f"{s} {game.fmt(game.price(s))}" for s in game.corps if s in game.market.positions]
    body = "\n".join(f"· {x}" for x in lines) if lines else "· Everyone passed."
    text = f"📋 **End of {entry['name']}**\n{body}"
    if prices:
        text += "\nPrices: " + ", ".join(prices)
    return text


def draft_summary(game: Game) -> str:
    owned = [f"{c.owner} {c.sym}" for c in game.companies.values() if c.owner]
    return "📋 **Draft over**: " + (", ".join(owned) or "no private sold") + "."


def or_set_summary(game: Game, entries: Sequence[Mapping[str, Any]], since_message: int) -> str:
    """The end of a set of operating rounds: each OR's revenues, dividends, price moves and trains, then phases."""
    names = [e["name"] for e in entries]
    head = f"📋 **End of the operating rounds** ({', '.join(names)})" if names else "📋 **End of the operating rounds**"
    parts = [head]
    for e in entries:
        lines = e.get("summary") or []
        if lines:
            parts.append(f"__{e['name']}__\n" + "\n".join(f"· {x}" for x in lines))
    said = [str(t) for _i, t in game.messages[since_message:]]
    events = [t for t in said if t.startswith("Phase ") or " loses " in t or t.endswith(" closes.") or "hurricane" in t]
    if events:
        parts.append("__Events__\n" + "\n".join(f"· {t}" for t in events))
    return "\n".join(parts)


# -- help ----------------------------------------------------------------------------------------------------

PICTURES_HELP = """**Reading the pictures**
**Map** — each hex shows its id in a corner. White hexes are empty land; the number on them is the cost to build \
there (water, swamp). Yellow, green, brown and gray are laid tiles, drawn from their track. White circles are \
cities: one circle per token slot; a coloured disc with letters is a corporation's station. Small bars or dots \
are towns (in 18FL a coloured H beside a town is a hotel). Red areas at the edge are off-board destinations with their \
value per phase (the value in use is highlighted). Thick dark lines between hexes cannot be crossed. Badges such \
as ⚓+20 are special markers (the port). A ring with a corporation's name is its home circle, kept until it \
first operates (every title draws it so). Track that stops in a short bar before a hex side ends there: the \
neighbour's track does not continue it. On the map posted for a track step, the hexes where the operating \
corporation can lay a tile are outlined in pink. `/view map region:F23` zooms in around a hex (or a place name); \
`/view map` posts the part of the map where track has been laid when that is much smaller than the whole map.
**Routes** — the map with each train's route in its own colour; the legend lists the train, its stops and its \
revenue. Confirm with the button (or `/train run confirm:true`).
**Market** — the share price track; each corporation's token sits on its price. Several tokens on one cell form \
a stack: the top one operates first. Par cells (where a corporation may start) are marked. In 18EZ a railroad's \
token waits in the Par Values box under the grid until the end of the round in which it floats.
**Standings** — net worth per player now, and a line per player over the rounds played (the axis names the \
rounds: SR 3 is the third stock round, OR 3.2 the second operating round after it). Each player keeps one colour \
for the whole game.
**Sheets** — `/view tiles` (tiles left and what each upgrades to), `/view trains` (prices, copies left, when \
each rusts), `/view holdings` (everyone's certificates, IPO, pool, treasuries, trains, last runs, the bank), \
`/view revenue corporation:` (its runs round by round)."""

TRACK_HELP = """**Laying track**
`/track lay hex: tile: rotation:` — the lists offered while typing hold only hexes the corporation can reach, \
tiles that fit there and rotations that are legal. A rotation is named by where its track goes: \
`r2: Jacksonville–Daytona` leads to those places; towards hexes without a name the sides are compass points \
(`NE–S`; a pointy-topped map has no N or S side). Leave out `rotation:` and the bot shows you (only you) a small \
picture of the hex with the tile in each legal rotation, numbered r0–r5, to pick from. A refused rotation says \
that the rotation is wrong and which ones fit."""

UNDO_HELP = """**Undo and redo**
`/undo` takes back your own last action at once, if nobody has acted since. Otherwise the bot asks everyone \
whose actions would be taken back to agree (buttons); the undo happens when all have agreed. `/undo count:3` \
takes back three actions. Administrators (the game's creator or members with Manage Server) can \
`/undo force:true`. `/redo` puts back the last undone action while nothing else has happened."""

TURN_HELP = """**How a turn works**
The bot says after every action who must act next and what they can do, with buttons for the usual choices. \
Type `/` and pick a command: the lists offered while typing contain only legal choices (hexes you can reach, tiles \
and rotations that fit, cities with free slots and their cost). `/act` lists every legal action at once. \
Refusals are shown only to you and change nothing."""


EZ_HELP = """**18EZ (Level 2): the game from scratch**
You are investors. Six railroads are for sale as shares; you become rich by owning shares of railroads that earn \
well. Whoever has the most money plus share value at the end wins (the railroads' own money does not count).
**Share dealing rounds** (`/stock …`). In turn, starting with the holder of the Priority Bid Card, each player \
buys one certificate, sells, buys one then sells, sells then buys one, or passes. The first certificate of a \
railroad is its President's certificate (20%): its buyer picks the par value ($50–$100) and pays twice that. Later \
shares cost the par from the IPO, or the current value from the open market. A railroad floats when half its \
shares are sold; it receives ten times its par at the end of that round. In the first round nobody may sell; later, \
you may not sell shares bought in the same round, nor buy back what you sold. At most 60% of one railroad each. \
The round ends when everyone passes in a row.
**Operating rounds.** Each floated railroad, highest share value first, takes a turn run by its president: \
1. lay or upgrade **one** tile (free) where its track reaches from its home (`/track lay`); its first tile goes on \
its home city; 2. place its second station for $40 (`/token place`); 3. run its trains (`/train run`): the bot \
finds the best routes, each counting the cities and towns it visits; 4. pay the income out to the shareholders \
(the share value moves right) or retain it in the railroad (it moves left) with `/corp dividend`; 5. buy trains \
(`/train buy`). A railroad with a route must own a train; if it cannot pay, its president must help and may have \
to sell shares, and if he still cannot, he is bankrupt and the game ends at once.
**The end.** When the bank runs out of money the current set of operating rounds is finished, then everyone's cash \
and shares at their value are counted.
Every prompt says what its step is for; `/act` lists every legal move. **Note:** the 18EZ board, train prices, \
full share price index and other numbers the rulebook does not print are a reconstruction, not the published game."""


def reconstruction_note(data: Any) -> str:
    """A line saying that a title's board (and what its rulebook does not print) is a reconstruction, not the
    published game; "" for a title printed as published. The title data says which (its provenance)."""
    prov = getattr(data, "provenance", None) or {}
    if "RECONSTRUCTED" not in prov.get("status", "").upper():
        return ""
    return (f"⚠️ **{data.title}**: the board and the numbers its rulebook does not print are a reconstruction, not "
            "the published game (every item says where it comes from in the title data).")


def help_text(topic: str | None, title_options: Mapping[str, Mapping[str, str]] | None = None) -> str:
    topic = (topic or "").strip().lower().lstrip("/")
    if topic in ("18ez", "ez"):
        return EZ_HELP
    if topic in ("pictures", "picture", "map", "market"):
        return PICTURES_HELP
    if topic in ("undo", "redo"):
        return UNDO_HELP
    if topic in ("track", "rotation", "rotations", "tile", "tiles"):
        return TRACK_HELP
    if topic in ("options", "titles"):
        lines = ["**Titles and options** (`/game create title:18FL options:name1,name2`)"]
        for title, opts in (title_options or {}).items():
            lines.append(f"**{title}**: " + ("; ".join(f"`{k}` — {v}" for k, v in opts.items()) or "no options"))
        return "\n".join(lines + reconstruction_notes())
    groups = {g.name: g for g in GROUPS}
    if topic in groups:
        cmds = [c for c in COMMANDS if c.group == topic]
        return f"**/{topic}** — {groups[topic].description}\n" + "\n".join(_cmd_line(c) for c in cmds)
    lines = ["**Stationmaster** plays 18xx railroad games in this channel.",
             "Start: `/game create title:18FL`, others `/game join`, then `/game start`.", TURN_HELP, "",
             "**Commands**"]
    for g in GROUPS:
        names = ", ".join(c.name for c in COMMANDS if c.group == g.name)
        lines.append(f"`/{g.name}` {names} — {g.description}")
    lines.append("`/pass`, `/act`, `/undo`, `/redo`, `/help` — " + "pass; any legal action from a list; undo; redo; "
                 "this help")
    lines.append("More: `/help topic:pictures`, `/help topic:track`, `/help topic:undo`, `/help topic:options`, "
                 "`/help topic:stock`, `/help topic:18ez` (a first game, from scratch; its board is a "
                 "reconstruction) …")
    lines += reconstruction_notes()
    return "\n".join(lines)


def reconstruction_notes(title: str | None = None) -> list[str]:
    """The reconstruction line of a title (or of every title whose board is reconstructed)."""
    from engine.titledata import load_title
    from engine.titles import TITLES

    return [note for t in ([title] if title else TITLES) if (note := reconstruction_note(load_title(t)))]


def _cmd_line(c: Any) -> str:
    opts = " ".join(f"{o.name}:…" if o.required else f"[{o.name}]" for o in c.options)
    return f"`/{c.path}{' ' + opts if opts else ''}` — {c.description}"
