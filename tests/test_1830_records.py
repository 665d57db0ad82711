"""1830 records from 18xx.games: the reference game replays to its result and exports back (issue 12, item 3)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.records import read_record, write_record
from engine.selfplay import choose
from engine.titles import new_game, rules_for
from engine.titles.g1830_site import DEVIATIONS
from tests.test_records import _site_form, fingerprint, needs_records, record

REFERENCE = "1830-3p-bank.json"


def _decision(a: dict[str, Any]) -> dict[str, Any]:
    """A run's decision is its trains, stops and revenues: where two tracks join the same stops the site's path
    and ours may differ (records give the stops; the track between them is ours to find)."""
    if a["type"] != "run_routes":
        return a
    return {**a, "routes": [{k: r[k] for k in ("train", "nodes", "revenue")} for r in a["routes"]]}


@needs_records
def test_the_reference_record_replays_to_its_result_with_no_repair_and_exports_back() -> None:
    data = record(REFERENCE)
    imported = read_record(data)
    assert imported.adjustments == [] and imported.warnings == []
    assert imported.route_disagreements() == []
    assert imported.game.finished and imported.game.end_reason == "bank"
    assert imported.site_result() == data["result"]
    exported = write_record(imported.game, player_ids=[p["id"] for p in data["players"]])
    ours = [_decision(a) for a in _site_form(exported["actions"])]
    theirs = [_decision(a) for a in _site_form(data["actions"])]
    assert ours == theirs
    assert exported["result"] == data["result"] and exported["game_end_reason"] == "bank"
    again = read_record(json.loads(json.dumps(exported)))
    assert again.game.action_log() == imported.game.action_log()
    assert fingerprint(again.game) == fingerprint(imported.game)


def test_the_site_profile_lists_its_deviations() -> None:
    site = rules_for("1830", "18xx.games")
    assert site.lowest_bidder_acts and not rules_for("1830").lowest_bidder_acts
    assert [d[0] for d in DEVIATIONS][:3] == ["S1", "S2", "S3"]


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["18xx.games", "rulebook"])
def test_a_selfplay_game_exports_and_reimports_exactly(profile: str) -> None:
    game = new_game("1830", [f"Player {i + 1}" for i in range(3)], seed=2, options={"rules_profile": profile})
    rng = random.Random(2)
    while not game.finished and len(game.actions) < 3000:
        game.process(choose(rng, game.legal_actions(), game))
    assert game.finished
    again = read_record(json.loads(json.dumps(write_record(game))))
    assert again.adjustments == [] and again.game.action_log() == game.action_log()
    assert again.game.result() == game.result()
