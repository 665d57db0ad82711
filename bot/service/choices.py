"""Autocomplete choices: every list a player picks from is computed from the engine's legal moves (the only source
of legality), filtered to what they typed, at most 25."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Iterable, Mapping
from typing import Any

from engine.describe import rotation_words
from engine.game import Game
from engine.messages import MN, M, Msg, Text
from engine.stock import share_price
from engine.titles import TITLES, rules_for
from engine.titles.texts import data_text

from .. import pictures as jobs
from .. import texts
from ..commands import Command, encode_action
from .lobby import find_title
from .replies import Choice
from .table import Ctx, Table

# tile colours as players say them (the data's words)
COLORS = {"yellow": M("yellow"), "green": M("green"), "brown": M("brown"), "grey": M("grey"), "gray": M("grey"),
          "white": M("white"), "red": M("red"), "blue": M("blue")}


class Choices(Table):
    async def _choices(self, ctx: Ctx, cmd: Command, option: str, opts: dict[str, Any]) -> list[Choice]:
        path = cmd.path
        if path == "game create" and option == "title":
            return [Choice(t, t) for t in TITLES]
        if option == "options" and path in ("game create", "game settings"):
            title = ctx.row.title if path == "game settings" and ctx.row is not None else \
                find_title(str(opts.get("title") or TITLES[0]), strict=False)
            return [Choice(M("{option} — {meaning}", option=k, meaning=data_text(v)), k)
                    for k, v in rules_for(title).options.items()]
        if path == "help":
            return [Choice(texts.help_topic_word(t), t) for t in (*texts.HELP_TOPICS, *texts.HELP_GROUPS)]
        if option == "player":
            return [Choice(p.name, p.name) for p in ctx.players]
        if ctx.row is None or ctx.row.status != "active":
            return []
        game = await self._game(ctx)
        if path == "view map" and option == "region":
            return [Choice(label, value) for label, value in jobs.region_choices(game, ctx.reader_lang())]
        if path == "view revenue" and option == "corporation":
            return [Choice(texts.corp_label(game, s), s) for s, c in game.corps.items() if c.started]
        seat = ctx.seat()
        if seat is None:
            return []
        mine = self._controlled(game, seat.name)
        legal = [a for a in await asyncio.to_thread(self.legal, ctx.row.id, game) if a["entity"] in mine]
        return _legal_choices(game, path, option, opts, legal)


# -- helpers -------------------------------------------------------------------------------------------------

def filter_choices(choices: Iterable[Choice], current: str) -> list[Choice]:
    """The first 25 distinct choices that contain what the user typed, cut to Discord's 100 characters (the names
    are rendered first: what the user typed is matched in their own language)."""
    needle = (current or "").strip().lower()
    out: list[Choice] = []
    seen: set[str] = set()
    for c in choices:
        key = str(c.value)
        if key in seen:
            continue
        if needle and needle not in str(c.name).lower() and needle not in key.lower():
            continue
        seen.add(key)
        out.append(Choice(str(c.name)[:100], c.value if not isinstance(c.value, str) else c.value[:100]))
        if len(out) == 25:
            break
    return out


def _legal_choices(game: Game, path: str, option: str, opts: Mapping[str, Any],
                   legal: list[dict[str, Any]]) -> list[Choice]:
    """Autocomplete choices from the engine's legal actions (the only source of legality)."""
    fmt = game.fmt
    companies = game.companies

    def of(t: str, own: bool = True) -> list[dict[str, Any]]:
        return [a for a in legal if a["type"] == t and ((a["entity"] not in companies) == own)]

    def same(a: Mapping[str, Any], *keys: str) -> bool:
        return all(str(a.get(k)) == str(opts[k]) for k in keys if k in opts and k != option)

    if path == "act" and option == "action":
        return [Choice(texts.describe_action(game, a, with_entity=a["entity"] in game.corps), encode_action(a))
                for a in legal]
    if path == "private use":
        return [Choice(texts.describe_action(game, a, with_entity=True), encode_action(a))
                for a in legal if a["entity"] in companies]
    if path == "private bid":
        bids = of("bid")
        if option == "price":
            return [Choice(fmt(int(a.get("price") or 0)), int(a.get("price") or 0)) for a in bids
                    if not a.get("company") or same(a, "company")]
        return [Choice(texts.describe_action(game, a), a["company"]) for a in bids if a.get("company")]
    if path == "private buy":
        buys = [a for a in of("buy_company") if same(a, "company")]
        if option == "company":
            seen: dict[str, str] = {}
            for a in buys:
                seen.setdefault(a["company"], texts.describe_action(game, a))
            return [Choice(label, c) for c, label in seen.items()]
        return [Choice(fmt(int(a["price"])), int(a["price"])) for a in buys]
    if path == "private pick":
        return [Choice(f"{a['company']} — {companies[a['company']].name} ({fmt(companies[a['company']].value)})"
                       if a["company"] in companies else a["company"], a["company"])
                for a in of("bid") if a.get("company")]
    if path == "stock par":
        pars = [a for a in of("par") if same(a, "corporation", "price", "size")]
        if option == "corporation":
            return [Choice(texts.corp_label(game, a["corporation"]), a["corporation"])
                    for a in pars]
        if option == "price":  # each price once, lowest first, however the market lays out its par cells
            return [Choice(fmt(p), p) for p in sorted({int(a["price"]) for a in pars})]
        return [Choice(MN("{n} share", "{n} shares", n=int(a["size"])), int(a["size"])) for a in pars if a.get("size")]
    if path == "stock buy" and option == "corporation":
        sources: dict[str, list[Msg]] = {}
        for a in of("buy_shares"):
            pool = a.get("source") == "pool"
            price = fmt(share_price(game, a["corporation"], not pool))
            sources.setdefault(a["corporation"], []).append(
                M("{price} from the President's cert. from the pool", price=price) if a.get("president") else
                M("{price} from the pool", price=price) if pool else M("{price} from the IPO", price=price))
        def either(a: Text, b: Text) -> Msg:
            return M("{a} or {b}", a=a, b=b)  # not inside another message's call: the extractor misses those

        return [Choice(M("{corp} — {offers}", corp=c, offers=functools.reduce(either, w)), c)
                for c, w in sources.items()]
    if path == "stock sell":
        sells = [a for a in of("sell_shares") if same(a, "corporation")]
        if option == "corporation":
            return [Choice(M("{corp} (you may sell up to {n})", corp=a["corporation"],
                             n=max(int(b["count"]) for b in sells if b["corporation"] == a["corporation"])),
                           a["corporation"]) for a in sells]
        return [Choice(texts.describe_action(game, a), int(a["count"])) for a in sells]
    if path == "track lay":
        lays = [a for a in of("lay_tile") if same(a, "hex", "tile", "rotation")]
        if option == "hex":
            counts: dict[str, int] = {}
            for a in lays:
                counts[a["hex"]] = counts.get(a["hex"], 0) + 1
            return [Choice(MN("{hex} — one way to build", "{hex} — {n} ways to build", hex=texts.hex_name(game, h),
                              n=n), h) for h, n in counts.items()]
        if option == "tile":
            return [Choice(M("#{tile} ({color})", tile=a["tile"], color=COLORS.get(game.data.tiles[a["tile"]].color,
                                                                                   game.data.tiles[a["tile"]].color))
                           if a["tile"] in game.data.tiles else f"#{a['tile']}", str(a["tile"])) for a in lays]
        return [Choice(rotation_words(game.board, str(a["hex"]), str(a["tile"]), int(a["rotation"]))
                       if "hex" in opts and "tile" in opts else M("rotation {n}", n=a["rotation"]), int(a["rotation"]))
                for a in lays]
    if path in ("token place", "token hotel"):
        t = "place_token" if path == "token place" else "hex_token"
        sub = "city" if t == "place_token" else "town"
        toks = [a for a in of(t) if same(a, "hex", sub)]
        costs = token_costs(game, t)
        if option == "hex":
            return [Choice(M("{hex} — {cost}", hex=texts.hex_name(game, a["hex"]),
                             cost=fmt(costs[(a["hex"], int(a.get(sub) or 0))]))
                           if (a["hex"], int(a.get(sub) or 0)) in costs else texts.hex_name(game, a["hex"]), a["hex"])
                    for a in toks]
        return [Choice((game.rules.city_words(game, a["hex"], int(a.get(sub) or 0)) or M("city {n}", n=0))
                       if sub == "city" else M("town {n}", n=int(a.get(sub) or 0)), int(a.get(sub) or 0))
                for a in toks]
    if path == "train buy":
        buys = [a for a in of("buy_train") if same(a, "train", "exchange")]
        if option == "train":
            # two trains of one kind from one owner would read the same: each says its id
            labels = [texts.describe_action(game, a) for a in buys]
            seen = [str(x) for x in labels]
            return [Choice(M("{action} · {train}", action=label, train=a["train"]) if seen.count(str(label)) > 1
                           else label, str(a["train"])) for a, label in zip(buys, labels, strict=True)]
        if option == "variant":
            return [Choice(str(a["variant"]), str(a["variant"])) for a in buys if a.get("variant")]
        if option == "exchange":
            return [Choice(texts.describe_action(game, a), str(a["exchange"])) for a in buys if a.get("exchange")]
        return [Choice(fmt(int(a["price"])), int(a["price"])) for a in buys if a.get("price")]
    if path == "train discard":
        return [Choice(texts.describe_action(game, a), str(a["train"])) for a in of("discard_train")]
    return []


def token_costs(game: Game, kind: str) -> dict[tuple[str, int], int]:
    """What each city slot (or town, for hotels) costs the operating corporation: (hex, index) -> cost."""
    corp = getattr(game.round, "corp", None)
    fn = getattr(game.rules, "station_options" if kind == "place_token" else "hotel_options", None)
    if corp is None or fn is None:
        return {}
    try:
        return {(h, int(i)): int(c) for h, i, c in fn(game, corp)}
    except Exception:
        return {}

