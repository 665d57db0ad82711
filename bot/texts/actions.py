"""Actions in words: a legal action as a short menu label ("Buy SAL from the IPO ($70)"), as an undo prompt names
it, and the trains and hexes they name. A sealed bid is never described with its amount."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.describe import rotation_words
from engine.game import Game
from engine.messages import MN, M, Msg, Text
from engine.state import POOL, Train
from engine.stock import share_price


def share_source(where: Any) -> Msg:
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
                 source=share_source(a.get("source")))
    elif t == "buy_shares":
        corp = a["corporation"]
        from_ipo = a.get("source") != "pool"
        what = M("President's certificate") if a.get("president") else M("a share")
        # an 18EZ railroad waiting in the par box has no market price yet, but its IPO shares cost its par
        priced = corp in game.market.positions or from_ipo and bool(game.corps[corp].par_price)
        price = share_price(game, corp, from_ipo) if priced else None
        if price and a.get("president"):  # the certificate's price: its shares' (two, 18FL's pool 20%)
            price *= next(c.shares for c in game.certs_of(corp) if c.president)
        if price:
            text = M("Buy {what} of {corp} from {source} ({price})", what=what, corp=corp,
                     source=share_source(a.get("source")), price=fmt(price))
        else:
            text = M("Buy {what} of {corp} from {source}", what=what, corp=corp, source=share_source(a.get("source")))
    elif t == "sell_shares":
        corp, n = a["corporation"], int(a.get("count") or 1)
        price = game.price(corp) if corp in game.market.positions else 0
        text = (M("Sell {n} × {corp} (≈{value})", n=n, corp=corp, value=fmt(n * price)) if price
                else M("Sell {n} × {corp}", n=n, corp=corp))
    elif t == "lay_tile":
        text = M("Lay #{tile} at {hex}, {rotation}", tile=a["tile"], hex=hex_name(game, a["hex"]),
                 rotation=_rotation(game, a))
    elif t == "place_token":
        where = hex_name(game, a["hex"])
        words = game.rules.city_words(game, a["hex"], int(a.get("city") or 0))
        text = M("Station at {hex}, {city}", hex=where, city=words) if words else M("Station at {hex}", hex=where)
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


def _train_of(game: Game, a: Mapping[str, Any]) -> Train | None:
    """The train an action names, if it is one of the game's (a type such as "3" is not)."""
    try:
        return game.train(str(a["train"]))
    except Exception:
        return None


def _train_label(game: Game, a: Mapping[str, Any]) -> Msg:
    t = _train_of(game, a)
    variant = a.get("variant") or (t.variant if t else a["train"])
    price = a.get("price")
    if t is not None and t.owner not in (None, POOL):
        if price:
            return M("Buy {owner}'s {train}-train for {price}", owner=t.owner, train=t.variant,
                     price=game.fmt(int(price)))
        return M("Buy {owner}'s {train}-train (name a price)", owner=t.owner, train=t.variant)
    source = M("the pool") if t is not None and t.owner == POOL else M("the bank")
    trade: Msg | None = None
    if a.get("exchange"):
        try:
            own = game.train(str(a["exchange"]))
            twins = [t for t in game.trains_of(str(own.owner)) if t.variant == own.variant]
            # the id only tells two trains of one kind apart; otherwise players never see it
            trade = M("trading in its {train}-train {id}", train=own.variant, id=own.id) if len(twins) > 1 else \
                M("trading in its {train}-train", train=own.variant)
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


def _rotation(game: Game, a: Mapping[str, Any]) -> Text:
    """A tile's rotation named by where its track goes, as `/track lay` names it ("r2: Jacksonville–Daytona")."""
    try:
        return rotation_words(game.board, str(a["hex"]), str(a["tile"]), int(a["rotation"]))
    except (KeyError, ValueError):  # a tile or hex the game does not have: the number
        return M("rotation {rotation}", rotation=a["rotation"])


def hex_name(game: Game, hex_id: str) -> str:
    try:
        name = game.data.hex(hex_id).name
    except Exception:
        name = None
    return f"{hex_id} {name}" if name else hex_id


def corp_label(game: Game, sym: str) -> str:
    """A corporation in a list: its id and its name, or the id alone where the name is no more (18EZ)."""
    name = game.corps[sym].name
    return sym if not name or name == sym else f"{sym} — {name}"


def action_summary(game: Game, a: Mapping[str, Any], drafting: bool) -> Text:
    """How an undo prompt names an action; hides the amount of a sealed bid while bids are secret."""
    if a.get("type") == "bid" and not a.get("company") and drafting:
        return M("{entity}'s sealed bid", entity=a["entity"])
    if a.get("type") == "buy_train" and a.get("price") is not None:
        t = _train_of(game, a)
        if t is not None and t.owner not in (None, POOL):
            # a menu asks for the price of another corporation's train; a move made names the one agreed
            return M("{entity}: buy {owner}'s {train}-train for {price}", entity=a.get("entity"), owner=t.owner,
                     train=t.variant, price=game.fmt(int(a["price"])))
    return M("{entity}: {action}", entity=a.get("entity"), action=describe_action(game, a))

