"""The command table shared by the Discord adapter and the local simulator.

Each command has a path ("stock par", "pass"), typed options and, for game actions, the engine action it
builds. Discord turns the table into app_commands groups; the local simulator parses `name:value` words with
the same names and types; the service builds actions from it. Adding a title needs no change here unless the
title brings a new kind of action: title-specific choices come from the engine's legal actions (autocomplete,
`/act`, `/private use`).

The table's words are English; `catalogue_texts` lists them for the `commands` catalogue (names with the
gettext context "command", "option" or "choice", descriptions without one) so Discord shows them in a member's
own language (`bot.translator`), and `localized_path` / `resolve_path` / `resolve_option` read and write the
paths and option names of another language (the local simulator accepts `/線路 配置 ヘクス:G22`).

Buttons and menus carry an encoded action (`encode_action`): "type|entity|key=value|...", short enough for
Discord's 100-character custom ids. Entity "*" means "the clicking player's own entity" (sealed bids).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from engine.messages import Catalog, M, Msg
from engine.wording import quoted

from .i18n import DEFAULT, LANGUAGES, catalog, pgettext

OptionType = Literal["str", "int", "float", "bool", "user", "attachment"]  # attachment: a file (its bytes)
Kind = Literal["lifecycle", "action", "view", "undo", "help", "member"]  # member: about you, in any channel or DM

ANY_ENTITY = "*"
MAX_CUSTOM_ID = 100
NAME_RE = re.compile(r"^[a-z0-9_-]{1,32}$")


@dataclass(frozen=True)
class Option:
    name: str
    type: OptionType
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()  # fixed choices (Discord shows a list)
    autocomplete: bool = False  # choices computed from the game (legal moves)
    min_value: int | None = None
    max_value: int | None = None

    def choice_name(self, value: str) -> str:
        """What Discord's list shows for a fixed choice (the value itself when it needs no words)."""
        return CHOICE_NAMES.get(value, value)


# the display names of fixed choices, by value (translated with the context "choice")
CHOICE_NAMES: dict[str, str] = {
    "turn": "Every turn",
    "round": "Every round",
    "request": "Only on request",
    "18xx.games": "18xx.games",
    "stationmaster": "Stationmaster",
    "ipo": "IPO",
    "pool": "Market pool",
    "payout": "Pay out",
    "withhold": "Withhold",
    "channel": "In the game's channel",
    "dm": "Direct message",
    "per-game": "As each game is set",
    "en": "English",
    "ja": "日本語",
}


@dataclass(frozen=True)
class Command:
    path: str  # "game create", "pass"
    description: str
    kind: Kind
    options: tuple[Option, ...] = ()
    action: str | None = None  # engine action type this command builds
    build: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None  # options -> action fields (no entity)
    slow: bool = False  # renders a picture or searches routes: the Discord adapter defers first
    admin: bool = False  # creator or Manage Server only

    @property
    def group(self) -> str | None:
        return self.path.split(" ")[0] if " " in self.path else None

    @property
    def name(self) -> str:
        return self.path.split(" ")[-1]

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class Group:
    name: str
    description: str


GROUPS: tuple[Group, ...] = (
    Group("game", "Create, join, start and manage the channel's game"),
    Group("private", "Private companies: sealed bids, picks and special abilities"),
    Group("stock", "Stock round: start a corporation, buy and sell shares"),
    Group("track", "Lay or upgrade track"),
    Group("token", "Place station tokens and hotels"),
    Group("train", "Run trains, buy and discard them"),
    Group("corp", "Operating corporation: dividends, conversion, bankruptcy"),
    Group("view", "The game: map, market, players, corporations, log, standings, tiles, trains, holdings, revenue"),
)


def _fields(**mapping: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """A builder copying options to action fields (option name -> field name), dropping unset ones."""

    def build(opts: Mapping[str, Any]) -> dict[str, Any]:
        return {fieldname: opts[opt] for opt, fieldname in mapping.items() if opts.get(opt) is not None}

    return build


def _const(**values: Any) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    def build(opts: Mapping[str, Any]) -> dict[str, Any]:
        return dict(values)

    return build


def _pick(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {"company": opts["company"], "price": opts.get("price") or 0}


def _bid(opts: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"price": opts.get("price") or 0}
    if opts.get("company"):
        out["company"] = opts["company"]
    return out


_CORP = Option("corporation", "str", "Corporation (e.g. SAL)", required=True, autocomplete=True)
_SHARE = Option("share", "bool", "Post the answer in the channel instead of only to you")
_LANGUAGE = Option("language", "str", "The language of the game's posts in this channel (default: the server's)",
                   choices=("en", "ja"))

COMMANDS: tuple[Command, ...] = (
    # -- lifecycle
    Command("game create", "Create a game in this channel (you join it)", "lifecycle", (
        Option("title", "str", "Which game, e.g. 18FL", required=True, autocomplete=True),
        Option("options", "str", "Title options, comma separated (see /help options)", autocomplete=True),
        Option("reminder_hours", "float", "Remind a player who has not acted after this many hours (0 = off)"),
        Option("images", "str", "When to post the map and market", choices=("turn", "round", "request")),
        Option("name", "str", "Your player name (default: your display name)"),
        _LANGUAGE,
    )),
    Command("game join", "Take a seat in the game gathering in this channel", "lifecycle", (
        Option("name", "str", "Your player name (default: your display name)"),
    )),
    Command("game leave", "Leave the game before it starts", "lifecycle"),
    Command("game start", "Start the game: the seat order is drawn from the game's seed", "lifecycle"),
    Command("game status", "The game in this channel: players, round, whose turn", "lifecycle", (_SHARE,)),
    Command("game settings", "Reminder interval, when to post pictures, reminders by DM", "lifecycle", (
        Option("reminder_hours", "float", "Hours before a reminder (0 = off)"),
        Option("images", "str", "When to post the map and market", choices=("turn", "round", "request")),
        Option("dm", "bool", "Send my reminders by direct message"),
        Option("stall_after", "int", "Tell the creator after this many reminders without a move (0 = never)",
               min_value=0, max_value=100),
        _LANGUAGE,
        Option("options", "str", "Title options before the game starts, comma separated ('none' for none)",
               autocomplete=True),
    )),
    Command("game abandon", "Abandon the game (creator or Manage Server; asks to confirm)", "lifecycle", admin=True),
    Command("game finished", "Finished games of this channel", "lifecycle", (_SHARE,)),
    Command("game replace", "Give a player's seat to another member (admin)", "lifecycle", (
        Option("player", "str", "The seat to give away", required=True, autocomplete=True),
        Option("user", "user", "The member who takes it", required=True),
    ), admin=True),
    Command("game kick", "Remove a player before the game starts (admin)", "lifecycle", (
        Option("player", "str", "The player to remove", required=True, autocomplete=True),
    ), admin=True),
    Command("game end", "End the game now and score it (admin)", "lifecycle", action="end_game", admin=True),
    Command("game export", "Download the channel's game (or its last finished one) as a file", "lifecycle", (
        Option("format", "str", "18xx.games (default for a game brought from there) or stationmaster (our own)",
               choices=("18xx.games", "stationmaster")),
    )),
    Command("game import", "Import a game record (18xx.games, or this bot's own) here; players then claim its seats",
            "lifecycle", (
        Option("file", "attachment", "The record: the JSON file from 18xx.games or from /game export (at most 2 MB)",
               required=True),
    )),
    # -- privates
    Command("private bid", "Bid (18FL: your sealed $0/$5/$10 bid, kept secret until all have bid)", "action", (
        Option("price", "int", "Amount", required=True, autocomplete=True, min_value=0),
        Option("company", "str", "Private company, where the title auctions them", autocomplete=True),
    ), action="bid", build=_bid),
    Command("private pick", "Choose a private company when it is your turn to choose", "action", (
        Option("company", "str", "Private company", required=True, autocomplete=True),
    ), action="bid", build=_pick),
    Command("private buy", "Buy a private company (from the bank, or from its owner at an agreed price)", "action", (
        Option("company", "str", "Private company (the list shows what you can buy; left out: the one you can)",
               autocomplete=True),
        Option("price", "int", "Price (the list shows the allowed range)", autocomplete=True, min_value=0),
    ), action="buy_company", build=_fields(company="company", price="price")),
    Command("private use", "Use a private company's special ability (18AL: also name chits on trains)", "action", (
        Option("ability", "str", "What to do (the list shows what is legal now)", required=True, autocomplete=True),
    ), action="*"),
    # -- stock
    Command("stock par", "Start a corporation: buy its President's certificate at a par price", "action", (
        _CORP,
        Option("price", "int", "Par price", required=True, autocomplete=True),
        Option("size", "int", "Shares (where the phase lets you choose: 5 or 10)", autocomplete=True),
    ), action="par", build=_fields(corporation="corporation", price="price", size="size")),
    Command("stock buy", "Buy one share", "action", (
        _CORP,
        Option("source", "str", "From the IPO (default) or the pool", choices=("ipo", "pool")),
        Option("president", "bool", "Buy the President's certificate from the pool"),
    ), action="buy_shares", build=_fields(corporation="corporation", source="source", president="president")),
    Command("stock sell", "Sell shares (also emergency sales for a train)", "action", (
        _CORP,
        Option("count", "int", "Number of shares", autocomplete=True, min_value=1),
    ), action="sell_shares", build=_fields(corporation="corporation", count="count")),
    # -- operating
    Command("track lay", "Lay or upgrade a tile", "action", (
        Option("hex", "str", "Hex (the list shows where you can build)", required=True, autocomplete=True),
        Option("tile", "str", "Tile number", required=True, autocomplete=True),
        Option("rotation", "int", "Rotation 0-5, named by where the track goes; leave out to see them drawn",
               autocomplete=True, min_value=0, max_value=5),
    ), action="lay_tile", build=_fields(hex="hex", tile="tile", rotation="rotation")),
    Command("token place", "Place a station token", "action", (
        Option("hex", "str", "City hex (the list shows reachable open cities and the cost)", required=True,
               autocomplete=True),
        Option("city", "int", "City on the hex, where it has several", autocomplete=True, min_value=0),
    ), action="place_token", build=_fields(hex="hex", city="city")),
    Command("token hotel", "Build a hotel in a town (18FL)", "action", (
        Option("hex", "str", "Town hex", required=True, autocomplete=True),
        Option("town", "int", "Town on the hex, where it has several", autocomplete=True, min_value=0),
    ), action="hex_token", build=_fields(hex="hex", town="town")),
    Command("train run", "Show the best routes and revenue; confirm to run them", "action", (
        Option("confirm", "bool", "Run them now without showing the picture first"),
        Option("routes", "str",
               "Your own routes: stops by hex id or name joined by '-', trains by ';' (G22-F23; J5-K6)"),
    ), action="run_routes", slow=True),
    Command("train buy", "Buy a train (bank, pool, or another corporation at a price)", "action", (
        Option("train", "str", "Train (the list shows what you can buy)", required=True, autocomplete=True),
        Option("price", "int", "Price, when buying from another corporation", autocomplete=True, min_value=1),
        Option("variant", "str", "Which side of a double-sided train card", autocomplete=True),
        Option("exchange", "str", "Own train to trade in (1830 Diesel: a 4, 5 or 6)", autocomplete=True),
    ), action="buy_train", build=_fields(train="train", price="price", variant="variant", exchange="exchange")),
    Command("train discard", "Discard a train when over the limit", "action", (
        Option("train", "str", "Train", required=True, autocomplete=True),
    ), action="discard_train", build=_fields(train="train")),
    Command("corp dividend", "Pay out or withhold the revenue", "action", (
        Option("kind", "str", "Pay out to shareholders or withhold in the treasury", required=True,
               choices=("payout", "withhold")),
    ), action="dividend", build=_fields(kind="kind")),
    Command("corp convert", "Convert the operating corporation to 10 shares (18FL)", "action", action="convert",
            build=_const()),
    Command("corp bankrupt", "Declare bankruptcy (only when nothing else can pay for the train)", "action",
            action="bankrupt", build=_const()),
    Command("pass", "Pass: end your turn or skip the current step", "action", action="pass", build=_const()),
    Command("act", "Any legal action, chosen from a list (covers every title's actions)", "action", (
        Option("action", "str", "Legal actions for you now", required=True, autocomplete=True),
    ), action="*"),
    # -- undo
    Command("undo", "Undo your last action (others' actions need their agreement)", "undo", (
        Option("count", "int", "How many actions to take back", min_value=1),
        Option("force", "bool", "Administrators: undo the game's last action (or count) at once, without asking"),
    )),
    Command("redo", "Redo the last undone action, while nothing has happened since", "undo"),
    # -- views
    Command("view map", "The map (region: zoom in around a hex or place)", "view", (
        Option("region", "str", "A hex or place to zoom in around, or 'all' for the whole map", autocomplete=True),
        _SHARE), slow=True),
    Command("view market", "The stock market", "view", (_SHARE,), slow=True),
    Command("view players", "Players: cash, certificates, privates, net worth", "view", (_SHARE,)),
    Command("view corporations", "Corporations: treasury, trains, tokens, president", "view", (_SHARE,)),
    Command("view history", "The last lines of the game log", "view", (
        Option("lines", "int", "How many lines (default 20)", min_value=1, max_value=200), _SHARE)),
    Command("view standings", "Net worth now and a chart over the game", "view", (_SHARE,), slow=True),
    Command("view tiles", "Tiles left and what each upgrades to", "view", (_SHARE,), slow=True),
    Command("view trains", "Trains: prices, copies left, when each rusts", "view", (_SHARE,), slow=True),
    Command("view holdings", "Everyone's certificates, IPO, pool, treasuries, trains, the bank", "view", (_SHARE,),
            slow=True),
    Command("view revenue", "A corporation's runs, round by round", "view", (
        Option("corporation", "str", "Which corporation", required=True, autocomplete=True), _SHARE), slow=True),
    # -- you, across all your games (any channel, or a DM with the bot)
    Command("mygames", "Your games in every server: where it is your turn first, how long each has waited",
            "member"),
    Command("reminders", "How and when the bot reminds you, in all your games", "member", (
        Option("via", "str", "Where reminders reach you", choices=("channel", "dm", "per-game")),
        Option("time_zone", "str", "Your time zone, e.g. Europe/Paris or Asia/Tokyo", autocomplete=True),
        Option("quiet", "str", "Quiet hours in your time, e.g. 22-07 (no reminders then), or off"),
        Option("away", "str", "Away until a date (YYYY-MM-DD) or for a span (3d, 36h); off when back"),
    )),
    Command("help", "Commands, how a turn works and how to read the pictures", "help", (
        Option("topic", "str", "commands, pictures, track, undo, options or a group name", autocomplete=True),
    )),
)

BY_PATH: dict[str, Command] = {c.path: c for c in COMMANDS}


def command(path: str) -> Command:
    cmd = BY_PATH.get(" ".join(path.split()))
    if cmd is None:
        raise KeyError(path)
    return cmd


def command_set_hash(extra: str = "") -> str:
    """A digest of the command table and its translations; the Discord adapter syncs only when it changes."""
    data: list[Any] = [[c.path, c.description, c.admin,
                        [[o.name, o.type, o.description, o.required, list(o.choices), o.autocomplete, o.min_value,
                          o.max_value] for o in c.options]] for c in COMMANDS]
    data.append([[g.name, g.description] for g in GROUPS])
    data.append([[lang, [translated(text, context, lang) for text, _plural, context in catalogue_texts()]]
                 for lang in sorted(LANGUAGES) if lang != DEFAULT])
    return hashlib.sha256((json.dumps(data, ensure_ascii=False) + extra).encode()).hexdigest()


# -- the table in other languages ------------------------------------------------------------------------------

def catalogue_texts() -> Iterator[tuple[str, None, str | None]]:
    """Every text of the command table for the `commands` catalogue: (msgid, plural, context)."""
    for g in GROUPS:
        yield g.name, None, "command"
        yield g.description, None, None
    for c in COMMANDS:
        yield c.name, None, "command"
        yield c.description, None, None
        for o in c.options:
            yield o.name, None, "option"
            yield o.description, None, None
            for value in o.choices:
                yield o.choice_name(value), None, "choice"


def translated(text: str, context: str | None, lang: str) -> str:
    """A text of the table in a language: a name in its context, a description as it is (English where the
    language has no translation)."""
    if lang == DEFAULT:
        return text
    return pgettext(context, text, lang) if context else catalog(lang).gettext(text)


def localized_path(path: str, lang: str) -> str:
    """A command's path as a member of that language types it (``"track lay"`` in Japanese: ``"線路 配置"``)."""
    return " ".join(translated(word, "command", lang) for word in path.split())


def localized_option(name: str, lang: str) -> str:
    return translated(name, "option", lang)


@cache
def _paths(lang: str) -> dict[str, Command]:
    """Every way to write each path in a language, English included (a Japanese member may type either)."""
    out: dict[str, Command] = {}
    for lg in dict.fromkeys((DEFAULT, lang)):
        for c in COMMANDS:
            out.setdefault(localized_path(c.path, lg).lower(), c)
    return out


def resolve_path(words: list[str], lang: str = DEFAULT) -> tuple[Command | None, list[str]]:
    """The command that a line's first words name (in English or the language), and the words after it."""
    paths = _paths(lang if lang in LANGUAGES else DEFAULT)
    if len(words) >= 2:
        two = f"{words[0].lower()} {words[1].lower()}"
        if two in paths:
            return paths[two], words[2:]
    if words and words[0].lower() in paths:
        return paths[words[0].lower()], words[1:]
    return None, words


def resolve_option(cmd: Command, name: str, lang: str = DEFAULT) -> Option | None:
    """The command's option that a typed name means, in English or the language."""
    low = name.lower()
    return next((o for o in cmd.options if low in (o.name, localized_option(o.name, lang).lower())), None)


@dataclass(frozen=True, slots=True)
class Name(Msg):
    """A name of the command table inside a sentence (a path, an option), shown as the reader's language
    writes it: each word is looked up with the context ("command", "option") rather than as a sentence."""

    context: str = "command"

    def render(self, catalog: Catalog | None = None) -> str:
        lookup = getattr(catalog, "pgettext", None)
        if lookup is None:  # English
            return self.text
        return " ".join(lookup(self.context, word) for word in self.text.split())


def command_words(path: str) -> Name:
    """A command's path inside a message (``"/{command}"``), in the reader's words."""
    return Name(path, context="command")


def option_word(name: str) -> Name:
    """An option's name inside a message, in the reader's words."""
    return Name(name, context="option")


class OptionError(ValueError):
    """An option value the command table refuses; ``msg`` is the message in no language yet, ``str(error)`` its
    English."""

    def __init__(self, msg: Msg) -> None:
        self.msg = msg
        super().__init__(str(msg))


# -- option values -------------------------------------------------------------------------------------------

_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


def coerce(opt: Option, raw: str) -> Any:
    """Turn a typed word into the option's type (the local simulator; Discord types values itself)."""
    word = option_word(opt.name)
    if opt.type == "int":
        try:
            value: Any = int(raw.lstrip("$"))
        except ValueError:
            raise OptionError(M("{option} must be a whole number, not {value}", option=word,
                                value=quoted(raw))) from None
    elif opt.type == "float":
        try:
            value = float(raw.rstrip("h"))
        except ValueError:
            raise OptionError(M("{option} must be a number, not {value}", option=word, value=quoted(raw))) \
                from None
    elif opt.type == "bool":
        low = raw.lower()
        if low not in _TRUE | _FALSE:
            raise OptionError(M("{option} must be true or false, not {value}", option=word, value=quoted(raw)))
        value = low in _TRUE
    else:
        value = raw
    return _checked(opt, value)


MAX_TEXT = 200  # longer than any id, name or encoded action a player can type
_INT64 = 2**63 - 1


def validate(cmd: Command, opts: Mapping[str, Any]) -> dict[str, Any]:
    """The options checked against the command table, before anything reads them: known names only, each of its
    type and within its bounds (numbers in 64 bits, text of reasonable length). Typed words are coerced as the
    simulator does. Raises OptionError (a ValueError) with a message a player can act on."""
    out: dict[str, Any] = {}
    for name, value in opts.items():
        opt = cmd.option(name)
        if opt is None:
            known = tuple(option_word(o.name) for o in cmd.options) or M("none")
            raise OptionError(M("/{command} has no option {option} (options: {options})",
                                command=command_words(cmd.path), option=quoted(name), options=known))
        if isinstance(value, str) and opt.type in ("int", "float", "bool"):
            value = coerce(opt, value.strip())
        out[name] = _checked(opt, value)
    missing = tuple(option_word(o.name) for o in cmd.options if o.required and o.name not in out)
    if missing:
        raise OptionError(M("/{command} needs {options}", command=command_words(cmd.path), options=missing))
    return out


def _shown(value: Any) -> str:
    return repr(str(value)[:40])


def _checked(opt: Option, value: Any) -> Any:
    word = option_word(opt.name)
    if opt.type == "int":
        if isinstance(value, bool) or not isinstance(value, int) or not -_INT64 <= value <= _INT64:
            raise OptionError(M("{option} must be a whole number, not {value}", option=word, value=_shown(value)))
    elif opt.type == "float":
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or abs(value) > 1e12:
            raise OptionError(M("{option} must be a number, not {value}", option=word, value=_shown(value)))
    elif opt.type == "bool":
        if not isinstance(value, bool):
            raise OptionError(M("{option} must be true or false, not {value}", option=word, value=_shown(value)))
    elif opt.type == "str":
        if not isinstance(value, str):
            raise OptionError(M("{option} must be text, not {value}", option=word, value=_shown(value)))
        if len(value) > MAX_TEXT:
            raise OptionError(M("{option} is too long ({length} characters; at most {limit})", option=word,
                                length=len(value), limit=MAX_TEXT))
        if opt.choices and value not in opt.choices:
            raise OptionError(M("{option} must be one of {choices}, not {value}", option=word,
                                choices=opt.choices, value=quoted(value[:40])))
    if isinstance(value, int) and not isinstance(value, bool):
        if opt.min_value is not None and value < opt.min_value:
            raise OptionError(M("{option} must be at least {min}", option=word, min=opt.min_value))
        if opt.max_value is not None and value > opt.max_value:
            raise OptionError(M("{option} must be at most {max}", option=word, max=opt.max_value))
    return value


# -- encoded actions for buttons, menus and /act ----------------------------------------------------------------

_FIELD_ORDER = ("corporation", "company", "hex", "tile", "rotation", "city", "town", "target", "chit", "train", "price",
                "variant", "kind", "source", "president", "count", "size")


def encode_action(action: Mapping[str, Any], entity: str | None = None) -> str:
    """"type|entity|key=value|..." (entity overridable, e.g. ANY_ENTITY); routes are never encoded (None = best)."""
    parts = [str(action["type"]), str(entity if entity is not None else action["entity"])]
    rest = {k: v for k, v in action.items() if k not in ("type", "entity", "routes") and v is not None}
    for key in sorted(rest, key=lambda k: (_FIELD_ORDER.index(k) if k in _FIELD_ORDER else 99, k)):
        value = rest[key]
        if isinstance(value, bool):
            value = "1" if value else "0"
        parts.append(f"{key}={value}")
    return "|".join(parts)


def decode_action(text: str) -> dict[str, Any]:
    """The action dict of `encode_action`'s text; values stay strings, the engine's models coerce them."""
    parts = text.split("|")
    if len(parts) < 2 or not parts[0] or not parts[1]:
        raise ValueError(f"not an encoded action: {text!r}")
    out: dict[str, Any] = {"type": parts[0], "entity": parts[1]}
    for part in parts[2:]:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise ValueError(f"not an encoded action: {text!r}")
        out[key] = value
    return out


@dataclass(frozen=True)
class CustomId:
    """What a button or menu was made for: the game, the state it was shown in, and what it does."""

    game_id: int
    state: str
    key: str
    extra: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        return f"sm:{self.game_id}:{self.state}:{self.key}"


def make_custom_id(game_id: int, state: str, key: str) -> str | None:
    """The custom id, or None if it would exceed Discord's limit (the caller then leaves the button out)."""
    text = f"sm:{game_id}:{state}:{key}"
    return text if len(text) <= MAX_CUSTOM_ID else None


def parse_custom_id(text: str) -> CustomId | None:
    if not text.startswith("sm:"):
        return None
    parts = text.split(":", 3)
    if len(parts) != 4:
        return None
    try:
        game_id = int(parts[1])
    except ValueError:
        return None
    if not 0 < game_id <= _INT64:
        return None
    return CustomId(game_id, parts[2], parts[3])
