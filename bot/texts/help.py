"""/help: its topics (the command groups, pictures, track, undo, options, 18EZ from scratch) in whole paragraphs,
and the notes on titles whose boards are reconstructions. Command and option names are the commands catalogue's
words (`commands.command_words`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import Join, M, Msg, Text
from engine.wording import clauses

from ..commands import COMMANDS, GROUPS, command_words, option_word


def _as_msg(text: Any) -> Text:
    """A text kept as data (a command's or an option's description): looked up in the catalogues as it is."""
    return text if isinstance(text, (Msg, Join)) else Msg(str(text))


# Each topic is whole paragraphs, one message each, so that a translation may order its sentences its own way.

PICTURES_HELP = Join((
    M("**Reading the pictures**"),
    M("**Map** — each hex shows its id in a corner. Pale hexes without track are empty land; the number on them is "
      "the cost to build there (water, swamp). Yellow, green, brown and gray are laid tiles, drawn from their track. "
      "White circles are cities: one circle per token slot; a coloured disc with letters is a corporation's station. "
      "Small bars or dots are towns (in 18FL a coloured H beside a town is a hotel). Red areas at the edge are "
      "off-board destinations with their value per phase (the value in use is highlighted). Thick dark lines "
      "between hexes cannot be crossed. Badges such as ⚓+20 are special markers (18FL's port; ⚒+10 is 18AL's "
      "coal field, placed on a city marked with a dark pentagon). A ring with a corporation's name is its home "
      "circle, kept until it first operates (every title draws it so). Track that stops in a short bar before a hex "
      "side ends there: the neighbour's track does not continue it. On the map posted for a track step, the hexes "
      "where the operating corporation can lay a tile are outlined in pink. `/view map region:F23` zooms in around a "
      "hex (or a place name); `/view map` posts the part of the map where track has been laid when that is much "
      "smaller than the whole map."),
    M("**Routes** — the map with each train's route in its own colour; the legend lists the train, its stops and "
      "its revenue. Confirm with the button (or `/train run confirm:true`)."),
    M("**Market** — the share price track; each corporation's token sits on its price. Several tokens on one cell "
      "form a stack: the top one operates first. Par cells (where a corporation may start) are marked. In 18EZ a "
      "railroad's token waits in the Par Values box under the grid until the end of the round in which it floats."),
    M("**Standings** — net worth per player now, and a line per player over the rounds played (the axis names the "
      "rounds: SR 3 is the third stock round, OR 3.2 the second operating round after it). Each player keeps one "
      "colour for the whole game. A bankrupt player's name is greyed and struck through."),
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

FR_HELP = Join((
    M("**18FR-RCE: 1830 in France, with 33 changes**"),
    M("Every 1830 rule applies unless a change says otherwise. The published board is not available: the map is a "
      "reconstruction from the rules text and French geography (the map's caption says so). Money is in francs; "
      "bids in the private auction are multiples of 5fr."),
    M("**Track.** EST, MID, OU, PRO and SO may lay a second yellow tile in a turn, for 20fr. Paris, Lille and Lyon "
      "take their own tiles; each Paris upgrade costs 40fr."),
    M("**Ports.** Bordeaux, Le Havre and Marseille each carry a port marker worth 20fr to its company every "
      "operating round. A station placed on a port tile's port side takes the marker; right after upgrading a port "
      "the president may move a station there to the port side (the prompt offers it); PRO and SO may move their "
      "own station to a port side instead of a yellow build."),
    M("**Trains.** 7-trains and D-trains are sold once a 6 is bought; a 5 or 6 may be traded in for a 7 (560fr), a "
      "5, 6 or 7 for a D (750fr). At the end of each set of operating rounds the bank loses a train of the cheapest "
      "type it still sells, as if it were bought (it may start a new phase)."),
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
                               "undo": M("undo"), "options": M("options"), "18ez": M("18ez"), "18fr": M("18fr")}
HELP_GROUPS = ("game", "private", "stock", "token", "train", "corp", "view")


def help_topic_word(key: str) -> Text:
    """A /help topic as the reader types it (``track`` is 線路 in Japanese)."""
    return HELP_TOPICS.get(key) or command_words(key)


def help_topic_key(typed: str) -> str:
    """The topic a member typed, in any of our languages, as its key ("線路" -> "track"); unknown: as typed."""
    from ..i18n import LANGUAGES, tr

    typed = typed.strip().lower().lstrip("/")
    for key in (*HELP_TOPICS, *HELP_GROUPS):
        if any(tr(help_topic_word(key), lang).lower() == typed for lang in LANGUAGES):
            return key
    return typed


def help_text(topic: str | None, title_options: Mapping[str, Mapping[str, Any]] | None = None) -> Text:
    topic = help_topic_key(topic or "")
    if topic in ("18ez", "ez"):
        return EZ_HELP
    if topic in ("18fr", "18fr-rce", "fr"):
        return FR_HELP
    if topic in ("pictures", "picture", "map", "market"):
        return PICTURES_HELP
    if topic in ("undo", "redo"):
        return UNDO_HELP
    if topic in ("track", "rotation", "rotations", "tile", "tiles"):
        return TRACK_HELP
    if topic in ("options", "titles"):
        lines: list[Text] = [M("**Titles and options** (`/game create title:18FL options:name1,name2`; changed "
                               "before the start with `/game settings options:`)")]
        for title, opts in (title_options or {}).items():
            described = [M("`{option}` — {description}", option=k, description=_as_msg(v)) for k, v in opts.items()]
            lines.append(M("**{title}**: {options}", title=title, options=clauses(described)) if opts
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
    if topic and topic != "commands":  # a topic we do not have: said, not answered with the overview as if it were
        topics = tuple(help_topic_word(k) for k in (*HELP_TOPICS, *HELP_GROUPS))
        lines.insert(0, M("There is no help topic '{typed}'; the topics are {topics}. Here is the overview.",
                          typed=topic[:30], topics=topics))
    for g in GROUPS:
        names = tuple(command_words(c.name) for c in COMMANDS if c.group == g.name)
        lines.append(M("`/{group}` {commands} — {description}", group=command_words(g.name), commands=names,
                       description=_as_msg(g.description)))
    lines.append(M("`/pass`, `/act`, `/undo`, `/redo`, `/help` — pass; any legal action from a list; undo; redo; "
                   "this help"))
    lines.append(M("More: `/help topic:{pictures}`, `/help topic:{track}`, `/help topic:{undo}`, "
                   "`/help topic:{options}`, `/help topic:{stock}`, `/help topic:{ez}` (a first game, from scratch; "
                   "its board is a reconstruction), `/help topic:{fr}` (what 18FR-RCE changes in 1830) …",
                   pictures=help_topic_word("pictures"), track=help_topic_word("track"), undo=help_topic_word("undo"),
                   options=help_topic_word("options"), stock=help_topic_word("stock"), ez=help_topic_word("18ez"),
                   fr=help_topic_word("18fr")))
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
