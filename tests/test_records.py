"""18xx.games records: import, export, the "18xx.games" rules profile, and the command line (issue 5)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import Game, new_game
from engine.__main__ import main
from engine.actions import Assign, Bid, BuyCompany, BuyTrain, Dividend, Pass, dump_action
from engine.errors import GameError
from engine.record import read_own, to_record
from engine.records import RecordError, ids, read_record, site_has, write_record
from engine.records.reader import effective_actions, resolve_undo_redo, truncate
from engine.selfplay import choose, selfplay
from engine.state import BANK, POOL
from engine.titles import TITLES, rules_for
from engine.titles.g18al_site import DEVIATIONS as AL_DEVIATIONS
from engine.titles.g18fl_site import DEVIATIONS
from tests.fl_helpers import act, drafted, pass_all
from tests.reference import RECORDS, REFERENCE

FORMAT_SPEC = REFERENCE / "18xx-games-format.md"
needs_records = pytest.mark.skipif(not RECORDS.exists(), reason="reference records not available")
SITE = {"rules_profile": "18xx.games"}


def record(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / name).read_text())


def fingerprint(game: Game) -> dict[str, Any]:
    """Everything a player can see of a position."""
    board = {h: (st.tile, st.rotation, st.tokens, sorted(st.extra_tokens), st.hotels, st.markers)
             for h, st in game.board.hexes.items()}
    return {
        "bank": game.bank, "phase": game.phase.name, "finished": game.finished, "end": game.end_reason,
        "players": [(p.name, p.cash, p.bankrupt) for p in game.players],
        "corps": {s: (c.size, c.par_price, c.floated, c.operated, c.cash, c.tokens_left, c.president)
                  for s, c in game.corps.items()},
        "holdings": sorted((c.corp, c.owner, c.shares) for c in game.certs),
        "companies": {s: (c.owner, c.closed) for s, c in game.companies.items()},
        "trains": sorted((t.id, t.variant, t.owner) for t in game.trains),
        "market": dict(game.market.positions), "stacks": {str(k): v for k, v in game.market.stacks.items()},
        "board": board, "round": (game.round.kind, getattr(game.round, "step", None)),
        "current": game.current_entity, "priority": game.priority,
    }


# -- the reference records -------------------------------------------------------------------------------------


ALL_RECORDS = ["18FL-2p-short.json", "18FL-4p-bankrupt.json", "18AL-4p-bank.json", "18AL-3p-bankrupt.json"]


@needs_records
@pytest.mark.parametrize("name", ALL_RECORDS)
def test_records_replay_to_their_stored_result(name: str) -> None:
    data = record(name)
    imported = read_record(data)
    assert imported.site_result() == data["result"]
    assert imported.game.end_reason == data["game_end_reason"]
    assert imported.adjustments == []  # our model of the site needed no repair
    assert imported.route_disagreements() == []
    summary = imported.summary()
    assert summary["players"] == [p["name"] for p in data["players"]]
    assert summary["result"] == {p["name"]: data["result"][str(p.get("id", p["name"]))] for p in data["players"]}


@needs_records
@pytest.mark.parametrize("name", ALL_RECORDS)
def test_our_optimum_is_never_below_a_recorded_revenue(name: str) -> None:
    imported = read_record(record(name), optimum=True)
    assert imported.route_checks
    for check in imported.route_checks:
        assert check.best is not None and check.best >= check.our_total
        # the 18AL record (2020) stores routes without revenue: our price of its route is the comparison there
        assert check.recorded_total is not None or name.startswith("18AL")
        assert check.best >= (check.recorded_total or 0), check


def test_the_example_record_of_the_format_spec_replays() -> None:
    data = _spec_example()
    imported = read_record(data)
    assert imported.site_result() == data["result"] == {"1": 255, "2": 255, "3": 235}
    assert imported.game.end_reason == "manually_ended"
    assert imported.chat == [(9, 1, "good luck all")]
    # Ben could afford nothing: the site passed him in stock round 1 and again as stock round 2 began
    assert imported.auto_passes == 2
    assert imported.adjustments == []


def test_auto_actions_are_applied_and_programs_change_nothing() -> None:
    plain = read_record(_spec_example())
    data = _spec_example()
    actions = data["actions"]
    cid_pass = next(a for a in actions if a["id"] == 13)
    # Cid's pass made by a standing order: the program action carries it
    cid_pass.clear()
    cid_pass.update({"id": 13, "type": "program_share_pass", "entity": 3, "entity_type": "player",
                     "unconditional": False, "indefinite": False,
                     "auto_actions": [{"type": "pass", "entity": 3, "entity_type": "player"}]})
    actions.insert(5, {"id": 6.5, "type": "program_buy_shares", "entity": 1, "entity_type": "player",
                       "corporation": "ACL", "until_condition": "float"})
    imported = read_record(data)
    assert fingerprint(imported.game) == fingerprint(plain.game)
    assert imported.site_result() == data["result"]


def test_a_missing_or_extra_pass_is_repaired_and_reported() -> None:
    data = _spec_example()
    data["actions"] = [a for a in data["actions"] if a["id"] != 16]  # ACL's pass of the second yellow lay
    data["actions"].insert(-1, {"id": 18.5, "type": "pass", "entity": "ACL", "entity_type": "corporation"})
    imported = read_record(data)
    assert imported.site_result() == data["result"]
    assert len(imported.adjustments) == 2
    assert "passed for ACL at token before buy_train" in str(imported.adjustments[0])
    assert "dropped a pass by ACL" in str(imported.adjustments[1])


def test_legacy_hotseat_records_use_names_as_ids() -> None:
    data = _spec_example()
    names = {p["id"]: p["name"] for p in data["players"]}
    data["players"] = [{"name": p["name"]} for p in data["players"]]
    data["id"] = "hs_abcdefgh_1616515912"
    del data["settings"]["seed"]
    for a in data["actions"]:
        if a["entity_type"] == "player":
            a["entity"] = names[a["entity"]]
    imported = read_record(data)
    assert imported.game.seed == 1616515912
    assert imported.site_result() == {"Ann": 255, "Ben": 255, "Cid": 235}


def test_a_refused_action_is_reported_with_its_id_and_reason() -> None:
    data = _spec_example()
    lay = next(a for a in data["actions"] if a["type"] == "lay_tile")
    lay["rotation"] = 0  # the curve would run off the map
    with pytest.raises(RecordError) as info:
        read_record(data)
    assert info.value.action_id == 15 and info.value.action["hex"] == "H21"
    assert "refused" in str(info.value.reason)


def test_unknown_types_titles_and_players_are_rejected() -> None:
    data = _spec_example()
    data["actions"].insert(3, {"id": 3.5, "type": "take_loan", "entity": 1, "entity_type": "player"})
    with pytest.raises(RecordError, match="take_loan"):
        read_record(data)
    data = _spec_example()
    data["title"] = "1889"
    with pytest.raises(RecordError, match="unknown title"):
        read_record(data)
    data = _spec_example()
    data["actions"][0]["entity"] = 99
    with pytest.raises(RecordError, match="no player 99"):
        read_record(data)
    # auto actions are actions too (a fuzzed record once crashed on them)
    for autos, problem in (("pass", "not a list of actions"), (["pass"], "not an action: 'pass'"),
                           ([{"type": "take_loan"}], "take_loan")):
        data = _spec_example()
        data["actions"][1]["auto_actions"] = autos
        with pytest.raises(RecordError, match=problem):
            read_record(data)


@pytest.mark.parametrize(("change", "problem"), [
    (lambda d: d.__setitem__("settings", "x"), "the record's settings must be an object, not 'x'"),
    (lambda d: d["settings"].__setitem__("optional_rules", [[1]]), "optional rules must be a list of names"),
    (lambda d: d["settings"].__setitem__("seed", [1]), "the record's seed must be a number or a text, not \\[1\\]"),
    (lambda d: d.__setitem__("title", ["1830"]), "the record's title must be a text"),
    (lambda d: d["players"][0].__setitem__("id", [1]), "player 1's id must be a number or a text, not \\[1\\]"),
    (lambda d: d["players"][1].__setitem__("name", ""), "player 2's name must be a text that is not empty"),
    (lambda d: d["actions"][2].__setitem__("type", ["bid"]), "action 3: its type must be a text"),
    (lambda d: d["actions"][2].__setitem__("entity", {"id": 1}), "action 3: its entity must be a number or a text"),
    (lambda d: d["actions"].append({"id": 4, "type": "undo", "entity": 1, "entity_type": "player",
                                    "action_id": [2]}), "action 4: the action it undoes to must be a number"),
    (lambda d: d["actions"][1].__setitem__("auto_actions", [{"type": "pass", "entity": [1]}]),
     "action 2: its entity must be a number or a text"),
    (lambda d: d["actions"][0].__setitem__("price", [5]), "action 1: malformed bid action"),
    (lambda d: d["actions"][0].__setitem__("entity_type", 3), "action 1: its entity type must be a text"),
])
def test_a_record_of_another_shape_is_refused_with_the_field_named(change: Any, problem: str) -> None:
    """Valid JSON of another shape crashed the reader (an unhashable list, ``.get`` on a text): the import then
    answered with the bot's apology instead of saying what is wrong with the file."""
    data = _spec_example()
    change(data)
    with pytest.raises(RecordError, match=problem):
        read_record(data)


@needs_records
def test_token_placements_of_18al_are_written_without_a_cost() -> None:
    """Section 11.9: in 1830 and 18AL the charter fixes a token's price and the site writes no ``cost``; ours wrote
    the corporation's cash change, -60 where the token also paid ABC's $100 objective bonus."""
    for name, costs in (("18AL-3p-bankrupt.json", False), ("18FL-4p-bankrupt.json", True)):
        exported = write_record(read_record(record(name)).game)
        tokens = [a for a in exported["actions"] if a["type"] == "place_token" and a["entity_type"] == "corporation"]
        assert tokens and all(("cost" in a) is costs for a in tokens), name


@needs_records
def test_where_our_replay_parts_from_the_sites_game_is_said() -> None:
    """A pass the site made that our engine does not wait for, a recorded revenue other than ours (the site trusts
    the record's), a stored result other than ours: each was taken in silence, so a table continued a game that was
    not the one the site showed."""
    data = record("18FL-4p-bankrupt.json")
    assert read_record(copy.deepcopy(data)).divergences() == []
    missing = copy.deepcopy(data)
    missing["actions"] = [a for a in missing["actions"] if a["id"] != 54]  # one of L&N's passes
    (parted,) = read_record(missing).divergences()
    assert str(parted) == "action 56: passed for L&N at token before run_routes (the site had skipped that step)"
    richer = copy.deepcopy(data)
    next(a for a in richer["actions"] if a["id"] == 56)["routes"][0]["revenue"] = 570
    (parted,) = read_record(richer).divergences()
    assert str(parted) == "action 56: the record has LN's routes earn $570, ours $70 (the game goes on with ours)"
    other_end = copy.deepcopy(data)
    other_end["result"] = {k: v + 1000 for k, v in other_end["result"].items()}
    other_end["game_end_reason"] = "bank"
    parted = [str(p) for p in read_record(other_end).divergences()]
    assert len(parted) == 2 and parted[0].startswith("the record's final scores (Player 1 ") and \
        parted[1] == "the record ends by bank, ours by bankrupt", parted


def test_an_export_of_a_game_played_by_the_rulebook_is_checked_by_the_sites_rules() -> None:
    """The site ignores our block and plays by its rules: where those part from the rulebook the record does not
    replay there as it was played, and the check says where."""
    from engine.records import site_reading
    from tests.test_import_export import played

    short = played("18FL", ["ann", "ben"], 1, 4)  # the sealed bids and a choice: the same under both rules
    assert site_reading(json.loads(json.dumps(write_record(short))), short) == []
    longer = played("18FL", ["ann", "ben"], 1, 30)
    (first, *_) = site_reading(json.loads(json.dumps(write_record(longer))), longer)
    assert str(first).startswith("action 8: lay_tile by TR refused: On 18xx.games TR lays a tile only for a "
                                 "corporation its owner ann presides"), str(first)
    site = new_game("18FL", ["ann", "ben"], seed=1, options={"rules_profile": "18xx.games"})
    rng = random.Random(1)
    while len(site.actions) < 60:
        site.process(choose(rng, site.legal_actions(), site))
    assert site_reading(json.loads(json.dumps(write_record(site))), site) == []


# -- undo and redo (format spec section 8) ---------------------------------------------------------------------


def test_undo_and_redo_follow_the_spec_table() -> None:
    def a(i: int, kind: str = "x", **kw: Any) -> dict[str, Any]:
        return {"id": i, "type": kind, **kw}

    log = [a(1), a(2), a(3), a(4, "undo"), a(5, "undo"), a(6, "redo"), a(7, "message"), a(8),
           a(9, "undo", action_id=1), a(10, "redo")]
    kept = resolve_undo_redo(log)
    assert [k["id"] for k in kept if k is not None] == [1, 2, 7, 8]
    assert [k["id"] for k in resolve_undo_redo(log[:9]) if k is not None] == [1, 7]
    assert [k["id"] for k in resolve_undo_redo(log[:8]) if k is not None] == [1, 2, 7, 8]  # C is gone
    assert effective_actions([a(1), a(2), a(3, "undo", action_id=0)]) == []
    with pytest.raises(RecordError, match="redo with nothing"):
        resolve_undo_redo([a(1), a(2, "redo")])
    with pytest.raises(RecordError, match="undo to action 7"):
        resolve_undo_redo([a(1), a(2, "undo", action_id=7)])
    # the site stops at the first action whose id is above the last one's
    assert [x["id"] for x in truncate([a(1), a(5), a(3)])] == [1]


# -- ids ---------------------------------------------------------------------------------------------------------


def test_id_formats() -> None:
    assert ids.split_share("B&O_3") == ("B&O", 3)
    assert ids.split_train("6-12") == ("6", 12)
    assert ids.split_tile("443o-0") == ("443o", 0)
    assert ids.split_city("59-1-1") == ("59-1", 1)
    assert ids.split_city("city-2-0") == ("city-2", 0)
    assert ids.split_node("B23-1") == ("B23", 1)
    assert ids.parse_share_price("90,0,5") == (90, 0, 5)
    assert ids.share_price_id(10, 8, 1) == "10,8,1"
    assert ids.seed_of({"id": "hs_kpummwig_1616515912", "settings": {"seed": ""}}) == 1616515912
    assert ids.seed_of({"id": 1446, "settings": {"seed": 7}}) == 7
    for bad in ("LN", "LN_x", "_3"):
        with pytest.raises(ids.IdError):
            ids.split_share(bad)
    with pytest.raises(ids.IdError):
        ids.parse_share_price("90,0")


def test_ledgers_follow_the_sites_certificate_and_tile_order() -> None:
    shares = ids.ShareLedger()
    for i in range(4):
        shares.add(f"LN_{i}", ids.IPO)
    assert shares.first_ipo("LN") == "LN_1"
    shares.move("LN_0", "ann")
    shares.move("LN_2", "ann")
    shares.move("LN_1", "ann")
    assert shares.singles_to_sell("ann", "LN", 1, lambda c: 1) == ["LN_2"]  # arrival order, not index order
    shares.move("LN_3", "ben")
    shares.move("LN_2", ids.POOL)
    shares.move("LN_3", ids.POOL)
    assert shares.first_pool("LN") == "LN_2"
    tiles = ids.TileLedger.for_counts({"57": 2}, {"B5-0-0": ("B5", 0)})
    assert tiles.next_copy("57") == "57-0"
    tiles.lay("C4", "57-0")
    assert tiles.city("57-0-0") == ("C4", 0) and tiles.city("B5-0-0") == ("B5", 0)
    tiles.lay("B5", "57-1")
    with pytest.raises(ids.IdError, match="now holds tile 57-1"):
        tiles.city("B5-0-0")
    tiles.remove("C4")
    assert tiles.next_copy("57") == "57-0" and tiles.supply["57"] == ["57-0"]


# -- export and round trips ---------------------------------------------------------------------------------------


def _track(route: dict[str, Any]) -> list[tuple[str, ...]]:
    """A route object's stretches of track, each either way round, in any order."""
    return sorted(min(tuple(c), tuple(reversed(c))) for c in route["connections"])


def _site_form(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Decisions of a record as comparable dicts: effective, auto actions inline, no programs or chat."""
    out = []
    for a in effective_actions(actions):
        for b in [a, *(a.get("auto_actions") or [])]:
            if b["type"] == "message" or b["type"].startswith("program_"):
                continue
            b = {k: v for k, v in b.items() if k not in ("id", "created_at", "user", "auto_actions", "skip")}
            if b["type"] == "run_routes":
                b["routes"] = [{**r, "nodes": sorted(r["nodes"]), "hexes": sorted(r["hexes"]),
                                "revenue_str": None,
                                "connections": _track(r)}
                               for r in b["routes"]]
                b.setdefault("extra_revenue", 0)
                b.setdefault("subsidy", 0)
            out.append(b)
    return out


@needs_records
@pytest.mark.parametrize("name", ["18FL-4p-bankrupt", "1830-3p-bank"])
def test_the_export_of_an_imported_record_names_what_the_site_named(name: str) -> None:
    """Certificates, tile copies, cities, trains, token costs, passes, and routes on the very track the site's
    players ran (a route's track is taken by the hexes its connections cross, as the site takes it: in the 1830
    record, three runs have another way over the same stops)."""
    data = record(f"{name}.json")
    imported = read_record(data)
    exported = write_record(imported.game, player_ids=[p["id"] for p in data["players"]])
    assert _site_form(exported["actions"]) == _site_form(data["actions"])
    assert exported["result"] == data["result"] and exported["game_end_reason"] == data["game_end_reason"]


@needs_records
def test_the_export_of_the_18al_record_names_what_the_site_named() -> None:
    data = record("18AL-4p-bank.json")  # a legacy record: players have names, no ids
    imported = read_record(data)
    exported = write_record(imported.game, player_ids=[p["name"] for p in data["players"]])
    ours, theirs = exported["actions"], effective_actions(data["actions"])
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        if b["type"] == "run_routes":  # 2020 records name the track only: the same trains on the same track
            assert a["entity"] == b["entity"] and [r["train"] for r in a["routes"]] == [r["train"] for r in b["routes"]]
            assert [_track(r) for r in a["routes"]] == [_track(r) for r in b["routes"]]
            continue
        assert {k: v for k, v in a.items() if k in b and k not in ("id", "created_at", "user")} == \
            {k: v for k, v in b.items() if k not in ("id", "created_at", "user", "original_id")}
    assert exported["result"] == data["result"] and exported["game_end_reason"] == "bank"


@needs_records
@pytest.mark.parametrize("name", ALL_RECORDS)
def test_exporting_an_imported_game_and_importing_it_again_gives_the_same_state(name: str) -> None:
    first = read_record(record(name))
    again = read_record(json.loads(json.dumps(write_record(first.game))))
    assert again.game.action_log() == first.game.action_log()
    assert fingerprint(again.game) == fingerprint(first.game)


@pytest.mark.parametrize(("title", "seed"), [("18FL", 3), ("18AL", 1), ("18FL", 8)])
def test_a_selfplay_game_exports_and_reimports_to_the_same_result(title: str, seed: int) -> None:
    """The same game and the same log: 18FL seed 8 runs a route through a junction tile twice, where the same
    pieces of track make two walks (the logged one is kept)."""
    res = selfplay(title, 3, seed, check=False)
    game = res["game"]
    assert game.finished
    exported = json.loads(json.dumps(write_record(game)))
    meta = exported["stationmaster"]
    assert meta["rules_profile"] == "rulebook"  # re-imported under the same rules
    if title == "18AL":  # the president's name chits have no site action: they travel in our meta block
        assert meta["local_actions"] and all(e["action"]["type"] == "name_train" for e in meta["local_actions"])
        assert not any(a["type"] == "name_train" for a in exported["actions"])
    again = read_record(exported)
    assert again.game.result() == game.result()
    assert again.game.end_reason == game.end_reason
    assert fingerprint(again.game) == fingerprint(game)
    assert again.game.action_log() == game.action_log()


def test_the_same_options_in_any_order_or_naming_the_rulebook_make_the_same_game() -> None:
    """A record lists a game's options in its own order and names the rules profile; a game created here names
    what its table chose: the same options make the same game, byte for byte (a game moved between channels)."""
    from engine import snapshot

    players = ["ann", "ben", "cat"]
    here = new_game("1830", players, 4, {"optional_6_train": True, "multiple_brown_from_ipo": True})
    there = new_game("1830", players, 4, {"rules_profile": "rulebook", "multiple_brown_from_ipo": True,
                                          "optional_6_train": True})
    assert snapshot.fingerprint(here) == snapshot.fingerprint(there)
    site = new_game("1830", players, 4, {"rules_profile": "18xx.games"})
    assert site.options == {"rules_profile": "18xx.games"}  # another profile is named


@pytest.mark.parametrize(("title", "seed"), [("18FL", 3), ("18AL", 1), ("1830", 2)])
def test_a_train_purchase_is_logged_in_one_form_however_it_was_named(title: str, seed: int) -> None:
    """A purchase typed tersely (`/train buy train:4-1`: no price, and no side where the train has one) is logged as
    the full purchase a button makes, which is the site's form: the same log either way, so a game moved by an
    export and an import is the same game whichever way its trains were bought."""
    game = selfplay(title, 3, seed, check=False)["game"]
    log = game.action_log()
    assert any(a["type"] == "buy_train" for a in log)
    one_sided = {t.name for t in game.data.trains if not t.variants}
    terse = []
    for a in log:
        if a["type"] == "buy_train" and a.get("variant") is not None and a.get("exchange") is None:
            a = {k: v for k, v in a.items() if k != "price" and not (k == "variant" and v in one_sided)}
        terse.append(a)
    assert terse != log
    again = new_game(title, [p.name for p in game.players], seed, game.options, terse)
    assert again.action_log() == log
    assert read_record(json.loads(json.dumps(write_record(again)))).game.action_log() == log


@needs_records
def test_a_trade_in_typed_without_its_price_is_logged_with_the_price_paid() -> None:
    """`/train buy train:D-0 exchange:4-1` names no price (the trade-in has one): the log holds the $800 paid, as
    the record does, so the game exports with it and imports again to the same log."""
    game = read_record(record("1830-3p-bank.json"), routes=False).game
    log = game.action_log()
    k = next(i for i, a in enumerate(log) if a["type"] == "buy_train" and a.get("exchange"))
    assert log[k]["price"] == 800
    terse = [*log[:k], {a: v for a, v in log[k].items() if a != "price"}, *log[k + 1:]]
    again = new_game("1830", [p.name for p in game.players], game.seed, game.options, terse)
    assert again.action_log() == log
    assert read_record(json.loads(json.dumps(write_record(again))), routes=False).game.action_log() == log


def test_a_private_that_may_act_holds_the_train_step_open_for_an_import() -> None:
    """18AL's SNAR may be used in its corporation's train step. Where the corporation can buy no train, that step is
    not one of the site's silent skips while SNAR may still act (an exported game that used it there imports again:
    found by the short-forms check, 18AL); once it has acted, only our pass is left, and the skip applies."""
    from engine.records.titles import auto_passes
    from tests.al_helpers import Plan, play

    g = new_game("18AL", ["Ann", "Bob", "Cy"])
    play(g, Plan(privates={"TAG": ("SNAR", 40)}), lambda g: g.round.kind == "operating" and g.round.corp == "TAG"
         and g.round.step == "buy_train" and g.companies["SNAR"].owner == "TAG")
    g.corps["TAG"].cash = 0  # no train the site would offer
    assert not auto_passes(g)
    g.process(next(a for a in g.round.legal_actions(g) if a.entity == "SNAR"))
    assert auto_passes(g)


def test_an_unused_cstl_does_not_hold_the_train_step_open_for_an_import() -> None:
    """1830's C&StL may lay its tile at any step of its corporation's turn, but the site still skips a train step
    in which the corporation can buy nothing."""
    from engine.records.titles import auto_passes
    from tests.c1830_helpers import game, skip_to, to_operating

    g = to_operating(game())
    g.companies["CS"].owner = "PRR"  # set-up: PRR owns the C&StL, unused, and a 2-train, and has no money
    g.train("2-0").owner = "PRR"
    skip_to(g, "buy_train")
    g.pay("PRR", "bank", g.corps["PRR"].cash)
    assert any(a.entity == "CS" for a in g.legal_actions()) and auto_passes(g)


def test_a_trade_in_at_the_train_limit_holds_the_train_step_open_for_an_import() -> None:
    """An 1830 corporation at its train limit may still hand in a train for a Diesel: the site offers that step, so
    it is not one of its silent skips (found by the short-forms check, 1830 seed 5)."""
    from engine.records.titles import auto_passes
    from tests.c1830_helpers import diesel_position

    g = diesel_position(at_limit=True)
    assert len(g.trains_of("PRR")) == g.train_limit("PRR") and not auto_passes(g)
    g.corps["PRR"].cash = 700  # less than a trade-in costs: nothing the site would offer
    assert auto_passes(g)


def _played_tersely(title: str, seed: int, max_actions: int) -> Game:
    """Self-play in which a move is often given with one of its fields left out, where the engine accepts it so (a
    player's `/stock buy corporation:SAL`, `/train buy train:4-1`, a token with no city named)."""
    rng = random.Random(seed)
    players = {"18FL": 3}.get(title, 4)
    game = new_game(title, [f"p{i + 1}" for i in range(players)], seed=seed)
    while not game.finished and len(game.actions) < max_actions:
        full = dump_action(choose(rng, game.legal_actions(), game))
        optional = [k for k in full if k not in ("type", "entity")]
        move = full
        if optional and rng.random() < 0.5:
            terse = {k: v for k, v in full.items() if k != rng.choice(optional)}
            try:
                game.check(terse)
                move = terse
            except GameError:
                pass
        game.process(move)
    return game


@pytest.mark.parametrize("title", TITLES)
def test_a_game_played_in_short_forms_exports_and_imports_to_the_same_log(title: str) -> None:
    """However its moves were given, a game moved by an export and an import has the same log (a run's walk, a
    purchase's train, side and price, a token's corporation): our own record for the titles 18xx.games lacks."""
    game = _played_tersely(title, 1, 400)
    assert _exported_and_imported(game).action_log() == game.action_log()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4, 5])
@pytest.mark.parametrize("title", TITLES)
def test_whole_games_played_in_short_forms_export_and_import_to_the_same_log(title: str, seed: int) -> None:
    game = _played_tersely(title, seed, 3000)
    assert game.finished
    assert _exported_and_imported(game).action_log() == game.action_log()


def _exported_and_imported(game: Game) -> Game:
    if site_has(game.title_name):
        return read_record(json.loads(json.dumps(write_record(game))), routes=False).game
    return read_own(json.loads(json.dumps(to_record(game))))


def _site_selfplay(players: int, seed: int, max_actions: int = 3000) -> Game:
    game = new_game("18FL", [f"Player {i + 1}" for i in range(players)], seed=seed, options=SITE)
    rng = random.Random(seed)
    while not game.finished and len(game.actions) < max_actions:
        game.process(choose(rng, game.legal_actions(), game))
    return game


def test_a_game_under_the_site_profile_round_trips_without_its_silent_passes() -> None:
    game = _site_selfplay(4, 2)
    exported = json.loads(json.dumps(write_record(game)))
    assert "stationmaster" not in exported
    # the site passes by itself where nothing is possible; the record holds only decisions
    assert len(exported["actions"]) < len(game.actions)
    again = read_record(exported)
    assert again.game.action_log() == game.action_log()
    assert again.site_result() == {str(i + 1): v for i, v in enumerate(game.result().values())}


# -- the rules profile (NOTES section 13) ---------------------------------------------------------------------------


def site_game(players: list[str] | None = None) -> Game:
    """alice (TR) pars SAL, bob (POSC) buys a share, carol holds TC; OR 1 starts with SAL's track step."""
    g = drafted(players, options=SITE)
    act(g, "par", "alice", corporation="SAL", price=70)
    act(g, "buy_shares", "bob", corporation="SAL")
    pass_all(g)
    assert g.round.kind == "operating" and g.current_entity == "SAL"
    return g


def rulebook_game() -> Game:
    g = drafted()
    act(g, "par", "alice", corporation="SAL", price=70)
    act(g, "buy_shares", "bob", corporation="SAL")
    pass_all(g)
    return g


def test_every_deviation_is_documented() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "18xx-games-profile.md").read_text()
    for code, _text in (*DEVIATIONS, *AL_DEVIATIONS):
        assert f"| {code} |" in doc


def test_d1_a_corporation_without_a_route_need_not_buy_a_train() -> None:
    for game, must in ((site_game(), False), (rulebook_game(), True)):
        act(game, "pass", "SAL")  # no track: Jacksonville South connects to nothing
        act(game, "pass", "SAL")
        assert game.round.step == "buy_train" and not game.trains_of("SAL")
        if must:
            with pytest.raises(GameError, match="must own a train"):
                act(game, "pass", "SAL")
        else:
            act(game, "pass", "SAL")
            assert game.current_entity != "SAL"


@needs_records
def test_d2_the_first_bankruptcy_ends_the_game_after_selling_the_shares() -> None:
    imported = read_record(record("18FL-4p-bankrupt.json"))
    game = imported.game
    assert game.finished and game.end_reason == "bankrupt"
    bankrupt = [p for p in game.players if p.bankrupt]
    assert [p.name for p in bankrupt] == ["Player 2"] and bankrupt[0].cash == 0
    assert len(game.active_players()) == 3  # the rulebook would play on


def test_d3_the_terminal_company_token_is_the_turns_token() -> None:
    site, book = site_game(), rulebook_game()
    for g in (site, book):
        act(g, "pass", "SAL")
        act(g, "place_token", "TC", hex="K28", city=0)
    assert book.round.step == "token"  # the rulebook still allows SAL's own token
    assert site.round.step != "token"
    site2 = site_game()
    act(site2, "lay_tile", "SAL", hex="C24", tile="4", rotation=2)
    act(site2, "pass", "SAL")
    act(site2, "assign", "POSC", target="B23")  # keeps the step open only until the token
    act(site2, "hex_token", "SAL", hex="C24")
    assert site2.round.step != "token"


def test_d4_the_terminal_company_may_go_on_an_untiled_city() -> None:
    site, book = site_game(), rulebook_game()
    for g in (site, book):
        act(g, "pass", "SAL")
    with pytest.raises(GameError, match="not an empty hex"):
        act(book, "place_token", "TC", hex="F23", city=0)
    act(site, "place_token", "TC", hex="F23", city=0)
    assert site.board.hexes["F23"].extra_tokens == [("SAL", 0)]


def test_d5_net_worth_counts_started_corporations() -> None:
    site, book = drafted(options=SITE), drafted()
    for g in (site, book):
        act(g, "par", "alice", corporation="SR", price=100)  # started, not floated
    assert site.net_worth("alice") == book.net_worth("alice") + 200


def test_d6_no_protection_for_corporations_that_have_not_operated() -> None:
    site, book = site_game(), rulebook_game()
    for g in (site, book):
        # Tampa (ACL's home) exits to F21 and H21: with F21 a brown tile turned away from it, a brown H21 turned
        # away as well leaves ACL no route
        g.board.place_tile("F21", "544", 1, [])
    assert book.rules.tile_lay_problem(book, "SAL", "H21", "544", 0) is not None
    assert site.rules.tile_lay_problem(site, "SAL", "H21", "544", 0) is None


def test_d8_a_pool_train_counts_toward_one_train_per_type() -> None:
    for g, allowed in ((site_game(), False), (rulebook_game(), True)):
        g.train("2-4").owner = POOL  # as if discarded earlier
        act(g, "pass", "SAL")
        act(g, "pass", "SAL")
        act(g, "buy_train", "SAL", train="2-4", price=100)
        if allowed:
            act(g, "buy_train", "SAL", train="2-0", price=100, variant="2")
            assert len(g.trains_of("SAL")) == 2
        else:
            with pytest.raises(GameError):
                act(g, "buy_train", "SAL", train="2-0", price=100, variant="2")


def test_d9_the_port_may_be_placed_at_any_moment_of_the_turn() -> None:
    site, book = site_game(), rulebook_game()
    with pytest.raises(GameError, match="token step"):
        act(book, "assign", "POSC", target="B23")
    act(site, "assign", "POSC", target="B23")
    assert site.board.hexes["B23"].markers == {"port": "SAL"} and site.round.step == "track"


def test_d15_dividends_round_up_per_holder() -> None:
    site, book = site_game(), rulebook_game()
    assert site.rules.dividend_for(site, "SAL", 72, 3) == 44  # 3 x 72 / 5 = 43.2
    assert book.rules.dividend_for(book, "SAL", 72, 3) == 42  # 3 x (72 // 5)


def test_d17_and_the_track_step_tr_lays_only_for_its_owners_corporation() -> None:
    players = ["alice", "bob", "carol"]
    games = []
    for options in (SITE, None):
        g = drafted(players, options=options)
        act(g, "pass", "alice")
        act(g, "par", "bob", corporation="SR", price=70)
        act(g, "buy_shares", "carol", corporation="SR")
        pass_all(g)
        act(g, "lay_tile", "SR", hex="B21", tile="9", rotation=1)
        act(g, "lay_tile", "SR", hex="B19", tile="58", rotation=4)
        games.append(g)
    site, book = games
    # both keep the step open while TR is unused, whoever owns it (rules 3.3: the bonus comes after the lays)
    assert book.round.step == site.round.step == "track"
    with pytest.raises(GameError, match="D17"):
        act(site, "lay_tile", "TR", hex="C18", tile="8", rotation=3)
    act(book, "lay_tile", "TR", hex="C18", tile="8", rotation=3)  # the rulebook: for the corporation operating
    act(site, "pass", "SR")
    assert site.round.step == book.round.step == "token"


# -- command line -----------------------------------------------------------------------------------------------


@needs_records
def test_cli_replay_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "18FL-4p-bankrupt.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["title"] == "18FL" and out["finished"] and out["end_reason"] == "bankrupt"
    assert out["result"] == {"Player 1": 729, "Player 2": 310, "Player 3": 1192, "Player 4": 713}
    assert out["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]


def test_cli_replay_of_a_broken_record_names_the_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _spec_example()
    next(a for a in data["actions"] if a["id"] == 18)["train"] = "3-0"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--json"]) != 0
    out = json.loads(capsys.readouterr().out)
    assert out["action_id"] == 18 and out["action"]["train"] == "3-0" and out["error"]


def test_cli_export_writes_a_record_that_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = read_record(_spec_example()).game
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(to_record(game)))
    out_file = tmp_path / "record.json"
    assert main(["export", str(game_file), "--format", "18xx.games", "--out", str(out_file)]) == 0
    exported = json.loads(out_file.read_text())
    assert exported["settings"]["optional_rules"] == [] and exported["status"] == "finished"
    assert read_record(exported).site_result() == {"1": 255, "2": 255, "3": 235}


@needs_records
def test_cli_routes_before_an_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / "18FL-4p-bankrupt.json"
    assert main(["routes", str(path), "--before", "361", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["corporation"] == "SAL" and out["revenue"] == 320  # what SAL ran at action 361
    assert out["trains"] == [{"train": "4-0", "type": "4"}] and len(out["routes"][0]["stops"]) == 10
    assert out["ms"] >= 0
    # the same position from a game file of our own, by action index
    imported = read_record(record("18FL-4p-bankrupt.json"), before=361)
    own = tmp_path / "game.json"
    own.write_text(json.dumps(to_record(read_record(record("18FL-4p-bankrupt.json")).game)))
    assert main(["routes", str(own), "--index", str(len(imported.game.actions)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revenue"] == 320
    # a file cut at the position (as the bot's export of a game where a search ran out): no point to give; and a
    # budget of its own, to see whether more steps prove the answer
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(to_record(imported.game)))
    assert main(["routes", str(cut), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revenue"] == 320
    assert main(["routes", str(cut), "--json", "--budget", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["proven"] is False


# -- the example of the format spec (section 16) -----------------------------------------------------------------

_EXAMPLE = {
    "id": 424242, "title": "18FL", "description": "", "user": {"id": 0, "name": "You"},
    "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Ben"}, {"id": 3, "name": "Cid"}],
    "min_players": 3, "max_players": 3, "settings": {"seed": 424242, "optional_rules": []},
    "status": "finished", "result": {"1": 255, "2": 255, "3": 235}, "game_end_reason": "manually_ended",
    "manually_ended": True, "loaded": True,
    "actions": [
        {"id": 1, "type": "bid", "entity": 1, "entity_type": "player", "price": 5},
        {"id": 2, "type": "bid", "entity": 2, "entity_type": "player", "price": 10},
        {"id": 3, "type": "bid", "entity": 3, "entity_type": "player", "price": 0},
        {"id": 4, "type": "bid", "entity": 2, "entity_type": "player", "company": "TR", "price": 0},
        {"id": 5, "type": "bid", "entity": 1, "entity_type": "player", "company": "POSC", "price": 0},
        {"id": 6, "type": "bid", "entity": 3, "entity_type": "player", "company": "TC", "price": 0},
        {"id": 7, "type": "par", "entity": 2, "entity_type": "player", "corporation": "ACL", "share_price": "100,0,6"},
        {"id": 8, "type": "buy_shares", "entity": 3, "entity_type": "player", "shares": ["ACL_1"], "percent": 20},
        {"id": 9, "type": "message", "entity": 1, "entity_type": "player", "message": "good luck all"},
        {"id": 10, "type": "buy_shares", "entity": 1, "entity_type": "player", "shares": ["ACL_2"], "percent": 20},
        {"id": 11, "type": "undo", "entity": 3, "entity_type": "player"},
        {"id": 12, "type": "redo", "entity": 1, "entity_type": "player"},
        {"id": 13, "type": "pass", "entity": 3, "entity_type": "player"},
        {"id": 14, "type": "pass", "entity": 1, "entity_type": "player"},
        {"id": 15, "type": "lay_tile", "entity": "ACL", "entity_type": "corporation", "hex": "H21", "tile": "8-0",
         "rotation": 2},
        {"id": 16, "type": "pass", "entity": "ACL", "entity_type": "corporation"},
        {"id": 17, "type": "pass", "entity": "ACL", "entity_type": "corporation"},
        {"id": 18, "type": "buy_train", "entity": "ACL", "entity_type": "corporation", "train": "2-0",
         "price": 100, "variant": "2"},
        {"id": 19, "type": "end_game", "entity": 1, "entity_type": "player"},
    ],
}


def _spec_example() -> dict[str, Any]:
    """The invented 18FL opening of the format spec, section 16 (replayed by the site in strict mode)."""
    if FORMAT_SPEC.exists():
        text = FORMAT_SPEC.read_text()
        start = text.index("```json", text.index("## 16.")) + len("```json")
        assert json.loads(text[start:text.index("```", start)]) == _EXAMPLE  # our copy is the spec's
    return copy.deepcopy(_EXAMPLE)


# -- the 18AL rules profile (18AL NOTES section 5.1) -------------------------------------------------------------


def _al_at(before: int) -> Game:
    return read_record(record("18AL-4p-bank.json"), before=before, routes=False).game


def _al_rulebook_at(before: int) -> Game:
    """The 4-player record's position, replayed under the rulebook (no site deviation matters this early)."""
    g = _al_at(before)
    return Game(rules_for("18AL"), [p.name for p in g.players], g.seed, {**g.options, "rules_profile": "rulebook"},
                g.action_log())


@needs_records
def test_rule_4_2_h_the_lumber_company_bought_after_the_lay_still_lays_its_terminal() -> None:
    g = _al_rulebook_at(116)  # ABC has upgraded Birmingham; Player 3 still owns BLC, ABC has $950
    assert type(g.rules) is type(rules_for("18AL"))
    assert (g.round.corp, g.round.step, g.round.lays) == ("ABC", "track", ["upgrade"])
    assert Pass(entity="ABC") in g.legal_actions()  # the step stays open while the B&SLC could be bought
    g.process(BuyCompany(entity="ABC", company="BLC", price=35))
    assert g.round.step == "track"
    terminal = next(a for a in g.legal_actions() if a.entity == "BLC")
    g.process(terminal)
    assert g.board.hexes[terminal.hex].tile == "445" and g.round.step != "track"
    g = _al_at(144)  # L&N has laid its tile with $20, less than BLC's lowest price: the step closed
    assert (g.round.corp, g.round.step, g.corps["L&N"].cash) == ("L&N", "routes", 20)


@needs_records
def test_rule_4_2_h_a_turn_ends_with_a_private_purchase_step() -> None:
    g = _al_rulebook_at(102)  # L&N has bought its train in phase 3; the players still own privates
    assert (g.round.corp, g.round.step) == ("L&N", "company")
    legal = g.legal_actions()
    assert Pass(entity="L&N") in legal and any(isinstance(a, BuyCompany) for a in legal)
    g.process(Pass(entity="L&N"))
    assert g.round.kind == "stock"
    g = _al_at(102)
    with pytest.raises(GameError, match="buy a private company from a player, or pass"):
        g.process(Dividend(entity="L&N", kind="payout"))
    # a purchase that leaves nothing more to afford ends the step, as the site does (3-player record, action 158)
    g = read_record(record("18AL-3p-bankrupt.json"), before=158, routes=False).game
    assert (g.round.corp, g.round.step) == ("M&O", "company")
    g.process(BuyCompany(entity="M&O", company="M&C", price=118))
    assert g.current_entity == "ABC"


@needs_records
def test_a_corporation_is_not_forced_to_buy_a_train_when_none_is_left() -> None:
    g = _al_at(339)  # L&N sold its last train; the bank and the Open Market have none left
    assert (g.round.corp, g.round.step, g.trains_of("L&N")) == ("L&N", "buy_train", [])
    assert g.round.available_trains(g) == []
    assert Pass(entity="L&N") in g.legal_actions()


@needs_records
def test_s3_the_7_train_makes_the_buyers_4s_obsolete_instead_of_removing_them() -> None:
    g = _al_at(279)  # L&N owns the 4-train 4-0 bought from WRA
    four = g.train("4-0")
    assert four.owner == "L&N"
    rules_for("18AL").obsolete_on_purchase(g, [four], "L&N")  # the rulebook: the buyer's 4s go at once
    assert four not in g.trains_of("L&N")
    g = _al_at(279)
    g.rules.obsolete_on_purchase(g, [g.train("4-0")], "L&N")  # the site: they run once more
    assert g.trains_of("L&N") == [g.train("4-0")] and g.train("4-0").obsolete


@needs_records
def test_s4_a_president_may_pay_toward_another_corporations_train() -> None:
    g = _al_at(274)  # L&N has $440 and no train, the cheapest bank train costs $700; Player 2 has $3
    assert g.round.must_raise(g)
    assert rules_for("18AL").president_funds_corporation_train(g, g.round) is False
    assert BuyTrain(entity="L&N", train="5-0", price=443) in g.legal_actions()
    with pytest.raises(GameError, match="at most the face value"):
        g.process(BuyTrain(entity="L&N", train="5-0", price=451))
    g.process(BuyTrain(entity="L&N", train="5-0", price=443))
    assert g.train("5-0").owner == "L&N" and g.corps["L&N"].cash == 0 and g.player("Player 2").cash == 0


@needs_records
def test_s5_new_decatur_yards_buys_a_3_4_or_5_new_or_used() -> None:
    g = _al_at(203)  # ABC's train step in phase 4; Player 1 owns NDY
    g.process(BuyCompany(entity="ABC", company="NDY", price=60))
    g.train("3-0").owner = POOL  # a used 3-train in the Open Market (as a discard would leave it)
    site = {t.id for t, _src in g.rules.ndy_offers(g, g.round)}
    rulebook = {t.id for t, _src in rules_for("18AL").ndy_offers(g, g.round)}
    assert rulebook == {"4-2"} and site == {"4-2", "3-0"}
    with pytest.raises(GameError, match="New Decatur Yards buys"):
        g.process(BuyTrain(entity="NDY", train="3-0", price=90, variant="4D"))  # a 3-train has no other side
    with pytest.raises(GameError, match="New Decatur Yards buys"):
        g.process(BuyTrain(entity="NDY", train="3-0", price=90, exchange="2-0"))  # no trade-in in 18AL
    g.process(BuyTrain(entity="NDY", train="3-0", price=90))
    assert g.train("3-0").owner == "ABC" and g.companies["NDY"].closed


@needs_records
def test_s8_the_coal_token_needs_only_track_and_a_train() -> None:
    g = _al_at(193)  # M&O owns one 3-train; its track reaches Birmingham, Oxmoor and Gadsden
    g.process(BuyCompany(entity="M&O", company="SNAR", price=20))
    assert rules_for("18AL").coal_options(g, "M&O") == ["G4"]  # the rulebook: a city its train can reach
    assert g.rules.coal_options(g, "M&O") == ["G6", "H5", "G4"]
    g.process(Assign(entity="SNAR", target="G6"))
    assert g.board.hexes["G6"].markers["coal"] == "M&O"


def test_s9_unlimited_4d_means_eight_and_s12_the_bank_breaks_below_zero() -> None:
    players = ["a", "b", "c"]
    site = new_game("18AL", players, options={**SITE, "unlimited_4d": True})
    book = new_game("18AL", players, options={"unlimited_4d": True})
    assert sum(t.name == "4D" for t in site.trains) == 8
    assert sum(t.name == "4D" for t in book.trains) == 5  # the rulebook adds one whenever none is left
    for g, broken in ((site, False), (book, True)):
        g.pay(BANK, "a", g.bank)  # the bank is now empty
        assert g.bank == 0 and g.bank_broken is broken



def test_end_game_only_from_the_administrators_path() -> None:
    g = drafted()
    for who in ("alice", "Mallory", "SAL"):
        with pytest.raises(GameError, match="Only an administrator may end a game"):
            g.process({"type": "end_game", "entity": who})
        with pytest.raises(GameError, match="Only an administrator"):
            g.check({"type": "end_game", "entity": who})
    assert not g.finished and not any(a.type == "end_game" for a in g.legal_actions())
    g.process({"type": "end_game", "entity": "alice"}, admin=True)  # the bot's /game end
    assert g.finished and g.end_reason == "manually_ended"
    # the stored log replays it, and a record exports and imports it (the site's manual end)
    again = g.replayed()
    assert again.finished and again.end_reason == "manually_ended"
    back = read_record(write_record(g))
    assert back.game.finished and back.game.end_reason == "manually_ended"


# -- the site's private auction (18AL S1, S2) and private sales between players (S13) ----------------------------


def test_s1_passes_lower_the_cheapest_private_and_then_pay_income_without_ending_the_round() -> None:
    g = new_game("18AL", ["Ann", "Bob", "Cy"], options=SITE)
    for price in (15, 10, 5):
        for who in ("Ann", "Bob", "Cy"):
            g.process(Pass(entity=who))
        assert g.round.kind == "stock" and g.round_no == 1 and g.rules.private_price(g, "TR") == price
    for who in ("Ann", "Bob", "Cy"):
        g.process(Pass(entity=who))
    # at $0 the player due to act receives it, and the sale goes on after him
    assert g.companies["TR"].owner == "Ann" and g.player("Ann").cash == 600 and g.current_entity == "Bob"
    g.process(BuyCompany(entity="Bob", company="SNAR", price=40))
    cash = g.player("Ann").cash
    for who in ("Cy", "Ann", "Bob"):
        g.process(Pass(entity=who))
    assert g.round.kind == "stock" and g.round_no == 1  # TR and SNAR paid their income, the sale goes on
    assert g.player("Ann").cash == cash + g.companies["TR"].revenue
    # the rulebook: a full round of passes ends the stock round (an operating round, then $5 off in the next)
    book = new_game("18AL", ["Ann", "Bob", "Cy"])
    for who in ("Ann", "Bob", "Cy"):
        book.process(Pass(entity=who))
    assert book.round_no == 2 and book.rules.private_price(book, "TR") == 15


def test_s2_the_lowest_bidder_acts_next_and_a_pass_drops_out() -> None:
    games = []
    for options in (SITE, None):
        g = new_game("18AL", ["Ann", "Bob", "Cy"], options=options)
        for who, price in (("Ann", 45), ("Bob", 50), ("Cy", 55)):
            g.process(Bid(entity=who, company="SNAR", price=price))
        g.process(BuyCompany(entity="Ann", company="TR", price=20))  # SNAR is next, with three bidders
        assert g.current_entity == "Ann"
        g.process(Pass(entity="Ann"))
        assert g.current_entity == "Bob"
        g.process(Bid(entity="Bob", company="SNAR", price=60))
        assert g.current_entity == "Cy"
        g.process(Pass(entity="Cy"))
        games.append(g)
    site, book = games
    # the site: Ann and Cy dropped out when they passed, so Bob, the last bidder, buys at once
    assert site.companies["SNAR"].owner == "Bob" and site.player("Bob").cash == 600 - 60
    # the rulebook: a player who passed may bid again when his turn comes round
    assert book.companies["SNAR"].owner is None and book.current_entity == "Ann"
    book.process(Bid(entity="Ann", company="SNAR", price=65))
    assert book.round.auction is not None and book.round.auction.high == "Ann"


def test_s13_a_private_changes_hands_only_on_the_buyers_turn() -> None:
    games = []
    for options in (SITE, None):
        g = new_game("18AL", ["Ann", "Bob", "Cy"], options=options)
        while any(c.owner is None for c in g.companies.values()):
            who = g.current_entity
            cheapest = g.round.unsold(g)[0]
            g.process(BuyCompany(entity=who, company=cheapest, price=g.rules.private_price(g, cheapest)))
        games.append(g)
    site, book = games
    seller = site.current_entity
    mine = next(c.sym for c in site.companies.values() if c.owner == seller)
    buyer = next(p.name for p in site.players if p.name != seller)
    with pytest.raises(GameError, match="only on the buyer's turn"):
        site.process(BuyCompany(entity=buyer, company=mine, price=5))
    book.process(BuyCompany(entity=buyer, company=mine, price=5))  # the rulebook: free for him on the seller's turn
    assert book.companies[mine].owner == buyer and book.current_entity == seller


@needs_records
def test_s6_the_chits_go_only_when_a_stock_turn_ends_under_another_president() -> None:
    from engine.titles.g18al import state as al_state

    g = read_record(record("18AL-3p-bankrupt.json"), before=177, routes=False).game
    st = al_state(g)
    assert g.round.kind == "stock" and st.chit_corp == "M&O" and st.chit_president_at_sr_start == "Player 2"
    # scaffolding: Player 3 (two singles of M&O) takes the presidency in the middle of a turn
    g._swap_president("M&O", "Player 2", "Player 3")
    g.corps["M&O"].president = "Player 3"
    assert st.chit_corp == "M&O"  # the site does not look now (the rulebook removes them at once)
    g.process(Pass(entity=g.current_entity))
    assert st.chit_corp is None and st.chits == {}


def test_d2_a_bankrupt_keeps_what_the_pool_limits_leave_unsold() -> None:
    """A seeded self-played game under the site's rules whose bankrupt player cannot sell everything: the
    invariants allow the certificates left with him (D2), and hold after every action."""
    from engine.invariants import violations

    g = new_game("18FL", ["P0", "P1", "P2"], seed=6017, options={"rules_profile": "18xx.games"})
    rng = random.Random(6017)
    while not g.finished:
        g.process(choose(rng, g.legal_actions(), g))
        assert violations(g) == [], len(g.actions)
    bankrupt = [p.name for p in g.players if p.bankrupt]
    assert g.end_reason == "bankrupt" and any(c.owner in bankrupt for c in g.certs)


def test_a_record_cut_short_by_a_lower_last_id_says_so() -> None:
    """The site stops at the first action whose id exceeds the last one's (spec 14.2); the import did the same in
    silence, and its reply spoke of "1 actions"."""
    data = _spec_example()
    data["actions"][-1]["id"] = 1
    imported = read_record(data)
    assert any("lower than earlier ones: as on the site, only the first action is read" in str(w)
               for w in imported.warnings), [str(w) for w in imported.warnings]
    assert read_record(_spec_example()).warnings == []
