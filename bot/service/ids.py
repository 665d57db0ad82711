"""The forms players type for the game's ids, matched to the ids themselves: hexes (`g22`), corporations and
privates (`fec`, `l&n`), tiles (`#57`, `tile 57`) and trains (`3 train`, `3T`, `3`), in any case. An id that
matches nothing is refused with the nearest ones that are legal now (or that exist), never passed on to the
engine to fail there."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.game import Game
from engine.messages import M, Msg
from engine.wording import quoted

from .replies import Refusal

FIELDS = ("corporation", "company", "hex", "tile", "train")
_TRAIN_WORD = re.compile(r"^(.+?)[\s-]*(?:trains?|t|列車)$", re.IGNORECASE)
_TILE_WORD = re.compile(r"^(?:tile\s*|#\s*)", re.IGNORECASE)


def normalise_ids(game: Game, action: dict[str, Any], legal: Callable[[], Sequence[Mapping[str, Any]]]) -> None:
    """Rewrite the action's id fields to the game's ids (in place), or refuse with the nearest legal choices.
    `legal` is called only when a typed value is not already an id (listing legal moves can cost)."""
    for key in FIELDS:
        if key not in action or action[key] is None:
            continue
        typed = " ".join(str(action[key]).split())
        if key != "train" and typed in _known(game, key):
            continue
        moves = [a for a in legal() if a.get("type") == action.get("type") and a.get(key) is not None]
        # the choices that fit what the move names already (a tile for the hex typed, not for any hex): fields are
        # matched in order, so those before this one are the game's ids by now
        given = [k for k in FIELDS[:FIELDS.index(key)] if action.get(k) is not None]
        fitting = [a for a in moves if all(a.get(k) in (None, action[k]) for k in given)]
        offered = _unique(str(a[key]) for a in fitting or moves)
        if key == "train":
            action[key] = _train(game, typed, offered, action)
        else:
            action[key] = _match(key, typed, offered, _known(game, key))


def _known(game: Game, key: str) -> list[str]:
    if key == "corporation":
        return list(game.corps)
    if key == "company":
        return list(game.companies)
    if key == "hex":
        return list(game.board.hexes)
    return list(game.board.supply)


def _match(key: str, typed: str, offered: list[str], known: list[str]) -> str:
    text = _TILE_WORD.sub("", typed) if key == "tile" else typed
    for pool in (offered, known):
        exact = [k for k in pool if k == text] or [k for k in pool if k.lower() == text.lower()]
        if exact:
            return exact[0]
        bare = {k for k in pool if _bare(text) and _bare(k) == _bare(text)}  # "brn" for BR&N, "ps w" for PS&W
        if key == "tile" and not bare:
            # a tile as the rulebook prints it, where the game's id adds a letter (18FL's Orlando #6 is "6o")
            bare = {k for k in pool if re.fullmatch(re.escape(text) + r"[a-z]+", k, re.IGNORECASE)}
        if len(bare) == 1:
            return bare.pop()
    raise Refusal(_unknown(key, typed, offered or known))


def _train(game: Game, typed: str, offered: list[str], action: Mapping[str, Any]) -> str:
    ids = [t.id for t in game.trains]
    exact = [i for i in ids if i.lower() == typed.lower()]
    if exact:
        return exact[0]
    m = _TRAIN_WORD.match(typed)
    name = (m.group(1) if m else typed).strip().lower()
    by_id = {t.id: t for t in game.trains}
    # a train named by its kind: the one the legal moves offer (the bank's next, or the one the player holds)
    candidates = [i for i in offered if i in by_id and by_id[i].name.lower() == name]
    if action.get("type") == "buy_train" and action.get("price") is None:
        # without a price the player means the bank's train (or the pool's), offered or not: if it is not, the
        # engine says why (its price is more than the treasury), rather than a corporation's train being taken
        depot = [t.id for t in (*game.next_bank_trains(), *game.pool_trains()) if t.name.lower() == name]
        candidates = [i for i in candidates if i in depot] or depot[:1] or candidates
    if not candidates and action.get("type") == "discard_train":
        candidates = [t.id for t in game.trains_of(str(action.get("entity"))) if t.name.lower() == name]
    if not candidates and not offered:
        # no such move is legal now at all: the engine says why (a train of that kind that is not for sale yet,
        # trains bought only in an operating turn), not a list of nothing
        candidates = [t.id for t in game.trains if t.name.lower() == name]
    if candidates:
        return candidates[0]
    names = _unique(f"{by_id[i].name} ({i})" if i in by_id else i for i in offered)
    later = [t for t in game.trains if t.owner is None and t.name.lower() == name]
    if later and action.get("type") == "buy_train" and game.next_bank_trains():
        raise Refusal(M("The bank sells {next}-trains now; {train}-trains come after them. Nothing was changed.",
                        next=game.next_bank_trains()[0].name, train=later[0].name))
    if name in {t.name.lower() for t in game.trains}:
        raise Refusal(M("A {train}-train is not among the choices now: {choices}. Nothing was changed.",
                        train=(m.group(1) if m else typed).strip(), choices=tuple(names)))
    raise Refusal(_unknown("train", typed, names or _unique(t.name for t in game.trains)))


_KINDS = {"corporation": M("corporation"), "company": M("company"), "hex": M("hex"), "tile": M("tile"),
          "train": M("train")}


def _unknown(key: str, typed: str, choices: list[str]) -> Msg:
    near = difflib.get_close_matches(typed.upper(), [c.upper() for c in choices], n=5, cutoff=0.3)
    by_upper = {c.upper(): c for c in choices}
    shown = tuple(by_upper[n] for n in near) or tuple(choices[:8])
    return M("There is no {kind} {typed} here. Nearest legal choices: {choices}. Nothing was changed.",
             kind=_KINDS.get(key, key), typed=quoted(typed[:40]), choices=shown or M("none now"))


def _bare(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
