"""Atomic actions: the undo journal (engine/journal.py) and refused actions that change nothing.

The property tests play seeded games of every title; at each action they (1) try actions that must be refused
and compare the whole state before and after, and (2) apply the chosen action inside a frame, roll it back,
compare, and apply it again. (2) is how a title that changes state the journal cannot see (a mutable class not
derived from ``Tracked``, a plain list changed through a reference kept after storing it) is caught: the
rolled-back state differs from the one before, and the failure names the action.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from engine import journal, snapshot
from engine.actions import Action, parse_action
from engine.errors import GameError
from engine.game import Game
from engine.journal import TDict, TList, Tracked, TSet
from engine.selfplay import choose
from engine.titles import TITLES, new_game


# -- the journal on its own --------------------------------------------------------------------------------------
class Box(Tracked):
    def __init__(self) -> None:
        self.n = 1
        self.items: list[Any] = [1, [2, 3]]
        self.by: dict[str, Any] = {"a": {1}}


def test_plain_containers_stored_become_tracked_recursively() -> None:
    b = Box()
    assert type(b.items) is TList and type(b.items[1]) is TList and type(b.by) is TDict and type(b.by["a"]) is TSet
    b.items.append({"x": []})
    assert type(b.items[-1]) is TDict and type(b.items[-1]["x"]) is TList


def test_rollback_restores_every_kind_of_change_in_place() -> None:
    b = Box()
    items, inner, by = b.items, b.items[1], b.by
    frame = journal.begin()
    b.n = 5
    b.extra = "new"
    items.append(4)
    inner[0] = 9
    items.sort(key=str)
    by["b"] = []
    by["a"].add(2)
    by.setdefault("c", []).append(1)
    del by["b"]
    journal.rollback(frame)
    assert b.__dict__.keys() == {"n", "items", "by"} and b.n == 1
    assert b.items is items and items == [1, [2, 3]] and items[1] is inner
    assert b.by is by and by == {"a": {1}}


def test_a_list_that_only_grew_is_cut_back_and_a_later_change_is_caught() -> None:
    b = Box()
    frame = journal.begin()
    b.items.append(7)
    b.items[0] = 0  # the prefix changes after the list grew: the journal must now keep a copy
    journal.rollback(frame)
    assert b.items == [1, [2, 3]]


def test_nested_frames_commit_into_the_outer_one() -> None:
    b = Box()
    outer = journal.begin()
    b.items.append(5)
    inner = journal.begin()
    b.items.pop(0)
    b.n = 2
    journal.commit(inner)
    assert b.items == [[2, 3], 5] and b.n == 2
    journal.rollback(outer)
    assert b.items == [1, [2, 3]] and b.n == 1


def test_an_inner_rollback_keeps_the_outer_changes() -> None:
    b = Box()
    outer = journal.begin()
    b.n = 2
    with pytest.raises(ValueError), journal.transaction():
        b.n = 3
        b.items.clear()
        raise ValueError
    assert b.n == 2 and b.items == [1, [2, 3]]
    journal.commit(outer)
    assert b.n == 2


def test_nothing_is_recorded_without_a_frame() -> None:
    b = Box()
    b.items.append(1)
    b.n = 3
    frame = journal.begin()
    journal.rollback(frame)
    assert b.n == 3 and b.items[-1] == 1


# -- whole games -------------------------------------------------------------------------------------------------
def state_bytes(game: Game) -> bytes:
    """A quick full serialisation of the state (``same`` settles differences in set order canonically)."""
    buf = io.BytesIO()
    snapshot._Pickler(buf, game.data).dump({k: v for k, v in game.__dict__.items() if k not in ("data", "rules")})
    return buf.getvalue()


def same(game: Game, before: bytes) -> bool:
    if state_bytes(game) == before:
        return True
    state = snapshot._Unpickler(io.BytesIO(before), game.data).load()
    then = Game.__new__(Game)
    then.__dict__.update(state)
    then.__dict__.update(data=game.data, rules=game.rules)
    return snapshot.fingerprint(game) == snapshot.fingerprint(then)


def refusal_candidates(rng: random.Random, game: Game, legal: list[Action], stale: list[Action]) -> list[Action]:
    """Actions that are (mostly) illegal now: moves legal a moment ago, the chosen kind of move by someone who
    may not act, and numbers nudged off the legal ones."""
    out = rng.sample(stale, min(2, len(stale)))
    names = [p.name for p in game.players] + list(game.corps)
    acting = set(game.acting_players()) | {game.current_entity}
    others = [n for n in names if n not in acting]
    for act in rng.sample(legal, min(3, len(legal))):
        data = act.model_dump()
        if others:
            out.append(parse_action({**data, "entity": rng.choice(others)}))
        for key in ("price", "rotation", "count", "size", "city", "town"):
            if isinstance(data.get(key), int):
                out.append(parse_action({**data, key: data[key] + rng.choice((-15, 1, 7, 1000))}))
    return out


def unknown_names(rng: random.Random, legal: list[Action]) -> list[Action]:
    """A legal move with one of its names (a hex, a tile, a company, a train, a variant, or an optional one left
    out) replaced by a name nothing has: always refused, never taken as the move without it."""
    data = rng.choice(legal).model_dump()
    out = []
    for key, value in data.items():
        if key not in ("type", "entity") and (value is None or isinstance(value, str)):
            try:
                out.append(parse_action({**data, key: "NOPE"}))
            except Exception:  # noqa: BLE001 - a field that takes no name (a choice among fixed words) is not one
                continue
    return out


def audit(title: str, players: int, seed: int, max_actions: int) -> int:
    """Play a seeded game checking atomicity at every action; returns the number of refusals checked."""
    game = new_game(title, [f"Player {i + 1}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    stale: list[Action] = []
    refusals = 0
    for step in range(max_actions):
        if game.finished:
            break
        legal = game.legal_actions()
        assert legal, f"{title} seed {seed}: no legal action at step {step}"
        before = state_bytes(game)
        where = f"{title} {players}p seed {seed} step {step}"
        for bad in refusal_candidates(rng, game, legal, stale):
            outer = journal.begin()  # an accepted candidate is rolled back by this frame, a refused one by process
            try:
                game.process(bad)
            except GameError:
                refusals += 1
                assert same(game, before), f"{where}: refused {bad.model_dump()} changed the state"
            finally:
                journal.rollback(outer)
        for bad in unknown_names(rng, legal):
            try:
                game.process(bad)
            except GameError:
                refusals += 1
            else:
                raise AssertionError(f"{where}: {bad.model_dump()} was accepted")
            assert same(game, before), f"{where}: refused {bad.model_dump()} changed the state"
        act = choose(rng, legal, game)
        frame = journal.begin()
        game.process(act)
        after = state_bytes(game)
        journal.rollback(frame)
        assert same(game, before), f"{where}: rolling back {act.model_dump()} did not restore the state"
        game.process(act)
        assert same(game, after), f"{where}: {act.model_dump()} applied again gave another state"
        if step % 50 == 0:
            # the compact snapshot of this position resumes to the same state
            assert snapshot.fingerprint(snapshot.loads(snapshot.dumps(game), game.rules)) == snapshot.fingerprint(game)
        stale = [a for a in legal if a != act]
    return refusals


@pytest.mark.parametrize("title", TITLES)
def test_refused_and_rolled_back_actions_leave_the_state_as_it_was(title: str) -> None:
    assert audit(title, _min_players(title), seed=11, max_actions=150) > 80


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
@pytest.mark.parametrize("title", TITLES)
def test_soak_atomicity(title: str, seed: int) -> None:
    audit(title, _min_players(title) + seed % 2, seed, max_actions=6000)


def _min_players(title: str) -> int:
    from engine.titledata import load_title

    return load_title(title).min_players


def test_a_corporation_token_naming_another_corporation_is_refused() -> None:
    """`corporation` on a station token is for a private placing it (18FL's Terminal Company); a corporation's own
    token naming another is refused, not placed as its own."""
    game = new_game("18FL", ["Ann", "Bob", "Cy"], seed=3)
    rng = random.Random(3)
    while True:
        legal = game.legal_actions()
        token = next((a for a in legal if a.type == "place_token" and a.entity in game.corps), None)
        if token is not None:
            break
        game.process(choose(rng, legal, game))
    other = next(c for c in game.corps if c != token.entity)
    before = state_bytes(game)
    with pytest.raises(GameError, match=f"{token.entity} places its own station tokens.*\\({other}\\)"):
        game.process({**token.model_dump(), "corporation": other})
    assert same(game, before)
    game.process({**token.model_dump(), "corporation": token.entity})  # naming itself is the same move
    assert game.actions[-1].type == "place_token"


def test_a_train_from_another_corporation_named_as_another_variant_is_refused() -> None:
    game = new_game("1830", ["Ann", "Bob", "Cy"], seed=5)
    rng = random.Random(5)
    while True:
        legal = game.legal_actions()
        buy = next((a for a in legal if a.type == "buy_train" and game.train(a.train).owner in game.corps), None)
        if buy is not None:
            break
        game.process(choose(rng, legal, game))
    t = game.train(buy.train)
    before = state_bytes(game)
    with pytest.raises(GameError, match=f"{t.owner}'s train {t.id} is a {t.variant}-train, not a D-train"):
        game.process({**buy.model_dump(), "variant": "D"})
    assert same(game, before)
    game.process({**buy.model_dump(), "variant": t.variant})
    assert t.owner == buy.entity
