"""The route checker (``engine.route_check``, links found on demand) against the full-network checker
(``tests/route_oracle.py``): the same routes, revenues and track, or the same refusal with the same message,
at every recorded run of every reference record and for wrong variants of each run (reversed, cut short, a stop
twice, stops of another run, trains swapped or missing, node ids that name nothing)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from engine import route_check
from engine.board import Board
from engine.records import read_record
from engine.records import reader as record_reader
from engine.routes import RouteError, RouteHooks, RouteSet, TrainSpec
from tests import route_oracle as full
from tests.reference import RECORDS

# (18FL-2p-short ends before any train runs)
NAMES = ["18FL-4p-bankrupt", "18AL-4p-bank", "18AL-3p-bankrupt", "1830-3p-bank"]


def _verdict(check: Any, *args: Any) -> tuple[str, Any]:
    try:
        rs = check(*args)
    except RouteError as e:
        return "refused", e.msg
    except ValueError as e:
        return "invalid", str(e)
    return "ok", (rs, [r.node_ids() for r in rs.routes])


def _variants(submitted: list[tuple[str, list[str]]], other_stops: list[str]) -> list[list[tuple[str, list[str]]]]:
    out: list[list[tuple[str, list[str]]]] = [submitted]
    for k, (train, nodes) in enumerate(submitted):
        def with_route(new: list[str], k: int = k, train: str = train) -> list[tuple[str, list[str]]]:
            return submitted[:k] + [(train, new)] + submitted[k + 1:]

        out += [with_route(nodes[::-1]), with_route(nodes[1:]), with_route(nodes[:-1]), with_route(nodes + nodes[:1]),
                with_route(nodes[1:] + nodes[:1]), with_route(nodes + ["Z99-0"]), with_route(["nonsense"] + nodes)]
        out += [with_route(nodes[:-1] + [stop]) for stop in other_stops[:6] if stop not in nodes]
        out.append(submitted + [(train, nodes)])  # the same train twice
        out.append(submitted[:k] + [("no-such-train", nodes)] + submitted[k + 1:])
    if len(submitted) > 1:
        trains = [t for t, _ in submitted]
        rotated = [(t, n) for t, (_, n) in zip(trains[:-1], submitted[1:], strict=True)]
        out.append([(trains[-1], submitted[0][1])] + rotated)  # each train runs another's route
        out.append([(trains[0], submitted[1][1]), (trains[1], submitted[1][1])])  # two trains, one track
    return out


@pytest.mark.parametrize("name", NAMES)
def test_checker_matches_the_full_network_checker(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = RECORDS / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{path} is not in shared/")
    compared: list[str] = []
    outcomes: set[str] = set()
    runs: list[list[str]] = []

    def both(board: Board, corp: str, trains: Sequence[TrainSpec], rules: RouteHooks,
             submitted: Sequence[tuple[str, Sequence[str]]], **prefer: Any) -> RouteSet:
        given = [(t, list(n)) for t, n in submitted]
        other_stops = [s for nodes in runs[-3:] for s in nodes]
        for variant in _variants(given, other_stops):
            ours = _verdict(route_check.check_routes, board, corp, trains, rules, variant)
            theirs = _verdict(full.check_routes, board, corp, trains, rules, variant)
            assert ours == theirs, (corp, variant)
            outcomes.add(ours[0] if ours[0] == "ok" else ours[1].text)
            compared.append(corp)
        runs.extend(n for _, n in given)
        return route_check.check_routes(board, corp, trains, rules, submitted, **prefer)

    monkeypatch.setattr(record_reader, "check_routes", both)
    read_record(json.loads(path.read_text()), routes=False)
    assert len(compared) >= 10
    # the run itself and refusals of many kinds, each with the same message from both checkers
    assert "ok" in outcomes and len(outcomes) >= 6, outcomes


def test_a_logged_run_checked_again_keeps_its_track() -> None:
    """Our log records each route's track; checked again as a new submission (a redo, our own record imported),
    the run takes that track when it is a way to run the stops, so the game is the same byte for byte. Track that
    is not a way to run them is not taken, and lets no wrong route in."""
    from engine import snapshot
    from engine.actions import dump_action
    from engine.errors import GameError
    from tests.positions import run_on_two_ways

    game, at = run_on_two_ways()  # BR&N's 4-train, whose stops lie on more than one way of track
    logged = dump_action(game.actions[at])
    route = logged["routes"][0]
    free = game.replayed(at)
    free.process(dict(logged, routes=[{k: v for k, v in route.items() if k != "paths"}]))
    assert set(free.round.routes.routes[0].paths) != set(map(tuple, route["paths"]))  # the stops alone: other track
    again = game.replayed(at)
    again.process(logged)
    assert snapshot.fingerprint(again) == snapshot.fingerprint(game)

    other = game.replayed(at)
    mixed = dict(logged, routes=[dict(route, paths=route["paths"][::2])])  # not a way to run the stops
    other.process(mixed)
    assert other.round.routes.revenue == route["revenue"]
    assert set(other.round.routes.routes[0].paths) != set(route["paths"][::2])
    wrong = dict(logged, routes=[dict(route, nodes=route["nodes"][:1] + route["nodes"][2:])])
    with pytest.raises(GameError):
        game.replayed(at).process(wrong)
