"""18FR-RCE: one test per rule change (docs/rules-18FR-RCE.md numbers them), on the real engine.

Positions are built with real actions; where a test needs a later phase or more money it moves money from the
bank (so the total stays constant) or records the train types bought, and says so.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, new_game, track
from engine.actions import dump_action
from engine.errors import GameError
from engine.state import BANK, IPO, POOL
from engine.tiles import tile_layout
from engine.titles.g18fr import fr_state

P4 = ["Ann", "Bob", "Cy", "Dee"]


def act(g: Game, **kw: Any) -> Game:
    return g.process(dict(kw))


def legal(g: Game, **match: Any) -> list[dict[str, Any]]:
    out = [dump_action(a) for a in g.legal_actions()]
    return [a for a in out if all(a.get(k) == v for k, v in match.items())]


def refused(g: Game, text: str, **kw: Any) -> None:
    """The action is refused with a message containing ``text``, and nothing changes."""
    before = (g.action_log(), g.bank, [p.cash for p in g.players], {s: c.cash for s, c in g.corps.items()},
              {h: (st.tile, st.rotation, [list(x) for x in st.tokens]) for h, st in g.board.hexes.items()})
    with pytest.raises(GameError) as e:
        act(g, **kw)
    assert text in str(e.value), str(e.value)
    after = (g.action_log(), g.bank, [p.cash for p in g.players], {s: c.cash for s, c in g.corps.items()},
             {h: (st.tile, st.rotation, [list(x) for x in st.tokens]) for h, st in g.board.hexes.items()})
    assert after == before


def sell_privates(g: Game) -> None:
    """Each player in turn buys the cheapest private until the bank has none."""
    while g.round.kind == "stock" and (g.round.selling_privates(g) or g.rules.pending_par(g)):
        who = g.current_entity
        buy = legal(g, type="buy_company") or legal(g, type="par", price=100)
        act(g, **(buy[0] if buy else {"type": "pass", "entity": who}))


def float_corps(g: Game, corps: dict[str, int]) -> None:
    """The seats par the corporations in order (seat i starts the i-th), everyone buys until all float, then all
    pass into the operating round."""
    todo = dict(corps)
    while any(not g.corps[c].floated for c in corps):
        who = g.current_entity
        done = False
        for sym, price in list(todo.items()):
            if not g.corps[sym].started:
                act(g, type="par", entity=who, corporation=sym, price=price)
                todo.pop(sym)
                done = True
                break
        if not done:
            want = next((c for c in corps if g.corps[c].started and not g.corps[c].floated), None)
            buy = legal(g, type="buy_shares", corporation=want, source="ipo") if want else []
            if buy:
                act(g, **buy[0])
        if g.round.kind == "stock" and g.current_entity == who:
            act(g, type="pass", entity=who)
    while g.round.kind == "stock":
        act(g, type="pass", entity=g.current_entity)


def operating(corps: dict[str, int], n: int = 4, seed: int = 0) -> Game:
    g = new_game("18FR-RCE", P4[:n], seed=seed)
    sell_privates(g)
    float_corps(g, corps)
    return g


def to_step(g: Game, corp: str, step: str) -> None:
    """Pass (and run, pay out, buy the next train) until ``corp`` is at ``step``."""
    for _ in range(200):
        rnd = g.round
        if rnd.kind == "operating" and rnd.corp == corp and rnd.step == step:
            return
        who = g.current_entity
        if rnd.kind == "stock":
            act(g, type="pass", entity=who)
            continue
        moves = legal(g)
        pick = next((m for m in moves if m["type"] in ("run_routes",)), None) or \
            next((m for m in moves if m["type"] == "dividend" and m["kind"] == "payout"), None) or \
            next((m for m in moves if m["type"] == "place_token" and rnd.step == "home"), None) or \
            next((m for m in moves if m["type"] == "pass"), None) or \
            next((m for m in moves if m["type"] == "buy_train"), None)
        assert pick is not None, g.describe_turn()
        act(g, **pick)
    raise AssertionError(f"{corp} never reached {step}: {g.describe_turn()}")


def fund(g: Game, corp: str, amount: int) -> None:
    g.pay(BANK, corp, amount)


def lay(g: Game, corp: str, hex_id: str, tile: str, rotation: int) -> None:
    act(g, type="lay_tile", entity=corp, hex=hex_id, tile=tile, rotation=rotation)


def put(g: Game, hex_id: str, tile: str, rotation: int) -> None:
    """Set a tile on the map for a position (from the supply, as a lay would)."""
    from engine.track import city_map

    g.board.place_tile(hex_id, tile, rotation, city_map(g, hex_id, tile, rotation))


def reach_hexes(g: Game, corp: str) -> set[str]:
    from engine.graph import reach

    return set(reach(g.board, corp).hex_edges)


def tile_exits(g: Game, tile: str, rotation: int) -> frozenset[int]:
    from engine.tiles import tile_layout

    return tile_layout(g.data.tiles[tile], rotation).exits


def bought(g: Game, *types: str) -> None:
    """Record train types as bought, and enter the phase they trigger (for tile and train-availability tests)."""
    for t in types:
        g.bought_train_types.add(t)
        for i, ph in enumerate(g.data.phases):
            if t in ph.triggers and i > g.phase_index:
                g.phase_index = i


# -- 1, 2, 3, 4, 11, 13, 18, 23: components --------------------------------------------------------------------
def test_rule_1_tiles_and_port_markers() -> None:
    g = new_game("18FR-RCE", P4)
    assert not {"53", "54", "61", "62"} & set(g.data.tiles)  # no NY or B tiles
    assert {"P-G", "P-B", "LIL-Y", "LYO-Y", "PORT-G", "PORT-B", "148", "513", "167"} <= set(g.data.tiles)
    assert g.data.tiles["57"].count == 6
    assert fr_state(g).port_markers == {"Bordeaux": None, "Le Havre": None, "Marseille": None}


def test_rule_2_bank_and_francs() -> None:
    g = new_game("18FR-RCE", P4)
    assert g.data.bank == 10000 and g.bank + sum(p.cash for p in g.players) == 10000
    assert g.fmt(80) == "80fr"


def test_rule_3_open_information() -> None:
    from bot.texts import corporations_embed, players_embed

    g = operating({"PRO": 100})
    corps = " ".join(str(v) for _, v in corporations_embed(g).fields)
    players = " ".join(str(v) for _, v in players_embed(g).fields)
    assert f"Treasury {g.fmt(g.corps['PRO'].cash)}" in corps
    assert all(f"Cash {g.fmt(p.cash)}" in players for p in g.players)


def test_rule_4_seven_privates() -> None:
    g = new_game("18FR-RCE", P4)
    assert [(c.value, c.revenue) for c in g.companies.values()] == [(15, 5), (20, 5), (40, 10), (70, 15), (110, 20),
                                                                    (160, 25), (220, 30)]
    assert g.data.company("TB").blocks_hexes == ("K7",) and g.data.company("CE").blocks_hexes == ("F16", "E17")


def test_rule_11_nine_corporations() -> None:
    g = new_game("18FR-RCE", P4)
    homes = {c.sym: (c.home, len(c.tokens)) for c in g.data.corporations}
    assert homes == {"ETA": ("H14", 4), "EST": ("H24", 3), "PRO": ("N14", 3), "NOR": ("C19", 2), "MID": ("J8", 3),
                     "OU": ("D8", 4), "PLM": ("J16", 3), "PO": ("E15", 2), "SO": ("H6", 4)}


def test_rule_13_unlimited_7_8_9() -> None:
    g = new_game("18FR-RCE", P4)
    assert all(g.data.tiles[t].unlimited for t in ("7", "8", "9"))
    for h in ("F14", "F16", "D16"):
        g.board.place_tile(h, "9", 0, [])
    assert sorted(st.instance for st in g.board.hexes.values() if st.tile == "9") == [0, 1, 2]


def test_rule_18_and_23_train_roster() -> None:
    g = new_game("18FR-RCE", P4)
    roster = [(t.name, t.count, t.price) for t in g.data.trains]
    assert roster[:6] == [("2", 7, 80), ("3", 6, 180), ("4", 5, 300), ("5", 4, 400), ("6", 3, 630), ("7", 2, 710)]
    assert roster[6][0] == "D" and roster[6][2] == 900 and g.data.train("D").unlimited


# -- 5, 12: extra yellow lays ----------------------------------------------------------------------------------
def test_rule_12_extra_yellow_lay_for_20fr() -> None:
    g = operating({"PRO": 100})
    to_step(g, "PRO", "track")
    lay(g, "PRO", "N14", "57", 1)  # Marseille, free
    cash = g.corps["PRO"].cash
    assert g.round.step == "track"  # a second yellow lay is open
    second = next(m for m in legal(g, type="lay_tile", entity="PRO") if g.data.hex(m["hex"]).cost == 0)
    act(g, **second)
    assert g.corps["PRO"].cash == cash - 20
    assert g.round.step != "track"


def test_rule_12_no_second_lay_after_an_upgrade() -> None:
    g = operating({"EST": 100})
    to_step(g, "EST", "track")
    bought(g, "3")
    act(g, **legal(g, type="lay_tile", hex="H24")[0])  # upgrade Strasbourg
    assert g.round.step != "track"
    g2 = operating({"EST": 100})
    to_step(g2, "EST", "track")
    act(g2, **next(m for m in legal(g2, type="lay_tile") if g2.board.layout(m["hex"]).color == "white"))
    bought(g2, "3")
    refused(g2, "second lay must be a yellow tile", type="lay_tile", entity="EST", hex="H24", tile="14", rotation=0)


def test_rule_12_only_the_five_companies() -> None:
    g = operating({"ETA": 100})
    to_step(g, "ETA", "track")
    opts = legal(g, type="lay_tile")
    first = opts[0]
    act(g, **first)
    assert g.round.step != "track"
    g.round.step = "track"  # even were ETA still in its track step, a second lay is refused
    second = next(m for m in legal(g, type="lay_tile") if m["hex"] != first["hex"]) if legal(g, type="lay_tile") \
        else {"type": "lay_tile", "entity": "ETA", "hex": "I13", "tile": "57", "rotation": 0}
    refused(g, "Only one tile may be laid per turn", **second)


def test_rule_5_private_0_extra_lay_then_closes() -> None:
    g = operating({"PRO": 100})
    tb = g.companies["TB"]
    tb.owner = "PRO"  # PRO has bought #0 from its owner (1830: from phase 3)
    to_step(g, "PRO", "track")
    lay(g, "PRO", "N14", "57", 1)
    act(g, **next(m for m in legal(g, type="lay_tile", entity="PRO") if g.data.hex(m["hex"]).cost == 0))
    assert g.round.step == "track"  # #0 is still usable right after PRO's own 20fr extra lay
    cash = g.corps["PRO"].cash
    third = legal(g, type="lay_tile", entity="TB")[0]
    refused(g, "There is no hex Z99 on this map.", **{**third, "hex": "Z99"})  # once a crash, not a refusal
    act(g, **third)
    assert tb.closed and g.corps["PRO"].cash == cash - 20 - g.data.hex(third["hex"]).cost
    assert g.board.hexes[third["hex"]].tile == third["tile"]


def test_rule_5_extra_lay_needs_the_private() -> None:
    g = operating({"PRO": 100})
    to_step(g, "PRO", "track")
    owner = g.companies["TB"].owner
    assert owner is not None and owner in P4  # held by a player: no corporation may use it
    refused(g, "TB is used by the corporation that owns it", type="lay_tile", entity="TB", hex="N14", tile="57",
            rotation=1)


def test_rule_4_a_corporation_pays_at_least_half_the_face_value_of_0_rounded_up() -> None:
    """1830's "between half and double its face value" for #0's odd 15fr: 8fr to 30fr (7fr is below half)."""
    g = operating({"SO": 100})
    to_step(g, "SO", "track")
    bought(g, "3")
    assert sorted(a["price"] for a in legal(g, type="buy_company", company="TB")) == [8, 15, 30]
    refused(g, "TB", type="buy_company", entity="SO", company="TB", price=7)


# -- 6, 7, 8, 9: stock ----------------------------------------------------------------------------------------
def test_rule_6_bids_in_multiples_of_5() -> None:
    g = new_game("18FR-RCE", P4)
    refused(g, "multiples of 5fr", type="bid", entity="Ann", company="CE", price=27)
    act(g, type="bid", entity="Ann", company="CE", price=30)
    refused(g, "multiples of 5fr", type="bid", entity="Bob", company="CE", price=36)
    assert all(a["price"] % 5 == 0 for a in legal(g, type="bid"))


def _second_sr(corps: dict[str, int]) -> Game:
    g = operating(corps)
    while g.round.kind != "stock":
        to_step(g, g.round.corp, "buy_train")
        moves = legal(g, type="buy_train") or legal(g, type="pass")
        act(g, **moves[0])
    return g


def test_rule_7_sell_buy_sell() -> None:
    g = _second_sr({"PRO": 100, "SO": 100})
    who = g.current_entity
    held = [s for s in ("PRO", "SO") if g.shares_held(who, s) and legal(g, type="sell_shares", corporation=s)]
    assert held
    act(g, **legal(g, type="sell_shares", corporation=held[0])[0])
    other = [s for s in ("PRO", "SO") if s != held[0]][0]
    buy = legal(g, type="buy_shares", corporation=other)
    act(g, **buy[0])
    assert g.current_entity == who  # the turn goes on: sales may follow the purchase
    assert legal(g, type="sell_shares", corporation=other)  # including the share just bought


def give(g: Game, player: str, corp: str, n: int) -> None:
    """The player buys ``n`` IPO shares of ``corp`` at par, outside the turn order (for a position)."""
    for _ in range(n):
        cert = next(c for c in g.certs_of(corp, IPO) if not c.president)
        g.pay(player, BANK, g.corps[corp].par_price or 0)
        cert.owner = player
    g.update_presidency(corp)


@pytest.mark.parametrize("order", [("PRO", "SO"), ("SO", "PRO")])
def test_rule_8_seller_orders_sales(order: tuple[str, str]) -> None:
    g = _second_sr({"PRO": 100, "SO": 100})
    who = g.current_entity
    for sym in ("PRO", "SO"):
        if not g.shares_held(who, sym):
            give(g, who, sym, 1)
    g.market.place("PRO", 3, 8)
    g.market.place("SO", 3, 8)
    for sym in order:
        act(g, type="sell_shares", entity=who, corporation=sym, count=1)
    assert g.market.positions["PRO"] == g.market.positions["SO"] == (4, 8)
    assert g.market.stacks[(4, 8)] == list(order)  # the first sold arrived first, and operates first
    assert g.market.operating_order(["PRO", "SO"]) == list(order)


def test_rule_9_brown_zone_buys_ipo_and_pool_together() -> None:
    g = _second_sr({"PRO": 100, "SO": 100})
    who = g.current_entity
    g.market.place("PRO", 6, 0)  # a brown-zone cell (25fr)
    pool = [c for c in g.certs_of("PRO", IPO) if not c.president][:2]
    for c in pool:
        c.owner = POOL  # two shares in the bank pool
    held = g.shares_held(who, "PRO")
    act(g, type="buy_shares", entity=who, corporation="PRO", source="ipo")
    assert legal(g, type="buy_shares", corporation="PRO", source="pool")  # the same purchase goes on, from the pool
    act(g, type="buy_shares", entity=who, corporation="PRO", source="pool")
    act(g, type="buy_shares", entity=who, corporation="PRO", source="ipo")
    assert g.current_entity == who and g.shares_held(who, "PRO") == held + 3
    refused(g, "already bought", type="buy_shares", entity=who, corporation="SO", source="ipo")  # one company
    g.market.place("PRO", 0, 6)  # out of the brown zone: one certificate
    h = _second_sr({"PRO": 100})
    w = h.current_entity
    act(h, type="buy_shares", entity=w, corporation="PRO", source="ipo")
    refused(h, "already bought", type="buy_shares", entity=w, corporation="PRO", source="ipo")


# -- 10, 14: track ---------------------------------------------------------------------------------------------
def test_rule_10_permissive_upgrade() -> None:
    g = operating({"SO": 100})
    to_step(g, "SO", "track")
    put(g, "H6", "57", 0)
    out = g.board.neighbour("H6", 3)
    assert out is not None
    put(g, out, "9", 0)  # a straight on from Bordeaux's side 3 (sides 0 and 3)
    bought(g, "3")
    # upgrades of that straight whose new branch SO cannot use and which add no value it reaches: still legal
    opts = legal(g, type="lay_tile", hex=out)
    assert opts
    new_sides = [set(g.board.layout(out).exits) ^ set(tile_exits(g, o["tile"], o["rotation"])) for o in opts]
    assert all(sides for sides in new_sides)


def test_rule_10_the_company_must_reach_some_track_of_the_new_tile() -> None:
    g = operating({"SO": 100})
    to_step(g, "SO", "track")
    put(g, "H6", "57", 0)  # Bordeaux, on to I5 and a straight to J4's side 3
    put(g, "I5", "9", next(r for r in range(6) if tile_exits(g, "9", r) == {0, 3}))
    put(g, "J4", "7", 4)  # a yellow curve on sides 4 and 5: SO's track ends against J4's bare side 3
    bought(g, "3")
    opts = legal(g, type="lay_tile", hex="J4")
    assert opts and all(3 in tile_exits(g, o["tile"], o["rotation"]) for o in opts)
    old = g.board.layout("J4")
    bare = next((t, r) for t, tdef in g.data.tiles.items() if tdef.color == "green" and g.board.supply.get(t)
                for r in range(6) if 3 not in tile_exits(g, t, r) and not tile_layout(tdef, r).cities
                and track.keeps_track(old, tile_layout(tdef, r))
                and not track.exit_problem(g, "J4", tile_layout(tdef, r)))
    refused(g, "does not meet SO's track at J4", type="lay_tile", entity="SO", hex="J4", tile=bare[0],
            rotation=bare[1])


def test_rule_14_terrain_80fr_once() -> None:
    g = operating({"PRO": 100})
    to_step(g, "PRO", "track")
    lay(g, "PRO", "N14", "57", 1)
    cash = g.corps["PRO"].cash
    hill = next(m for m in legal(g, type="lay_tile", entity="PRO") if g.data.hex(m["hex"]).cost)
    assert g.data.hex(hill["hex"]).cost == 80
    act(g, **hill)
    assert g.corps["PRO"].cash == cash - 80 - 20  # terrain plus the second lay's fee
    assert {h.cost for h in g.data.hexes} == {0, 80}


# -- 15, 16, 17: special cities --------------------------------------------------------------------------------
def test_rule_15_paris_upgrades_40fr_and_montparnasse() -> None:
    g = operating({"PO": 100})
    to_step(g, "PO", "track")
    bought(g, "3")
    refused(g, "Montparnasse must stay a single station", type="lay_tile", entity="PO", hex="E15", tile="P-G",
            rotation=3)
    refused(g, "takes only its own tiles", type="lay_tile", entity="PO", hex="E15", tile="14", rotation=0)
    cash = g.corps["PO"].cash
    lay(g, "PO", "E15", "P-G", 0)
    assert g.corps["PO"].cash == cash - 40
    assert g.board.hexes["E15"].tokens[0] == ["PO"]


def test_rule_16_lille_lyon_fixed_rotation() -> None:
    g = operating({"NOR": 100})
    to_step(g, "NOR", "track")
    refused(g, "one legal orientation", type="lay_tile", entity="NOR", hex="C19", tile="LIL-Y", rotation=1)
    refused(g, "takes only its own tiles", type="lay_tile", entity="NOR", hex="C19", tile="LYO-Y", rotation=0)
    refused(g, "may be laid only in Lille", type="lay_tile", entity="NOR", hex="D18", tile="LIL-Y", rotation=0)
    refused(g, "takes only its own tiles", type="lay_tile", entity="NOR", hex="C19", tile="57", rotation=1)
    assert {o["rotation"] for o in legal(g, type="lay_tile", hex="C19")} == {0}
    lay(g, "NOR", "C19", "LIL-Y", 0)


def test_rule_17_port_tiles_have_a_port_side() -> None:
    g = new_game("18FR-RCE", P4)
    for tid in ("PORT-G", "PORT-B"):
        city = g.data.tiles[tid].cities[0]
        assert city.slots == 2 and city.slot_kinds == ("normal", "port")
        assert set(g.data.tiles[tid].only_hexes) == {h.id for h in g.data.hexes if h.port}


# -- 19, 20, 32: trains ----------------------------------------------------------------------------------------
def test_rule_19_sevens_and_diesels_after_the_first_6() -> None:
    g = new_game("18FR-RCE", P4)
    for t in [t for t in g.trains if t.name in ("2", "3", "4", "5")]:
        g.trains.remove(t)
    assert {t.name for t in g.next_bank_trains()} == {"6"}
    first6 = g.depot()[0]
    first6.owner = POOL
    g.on_train_bought(first6)
    assert {t.name for t in g.next_bank_trains()} == {"6", "7", "D"}
    assert g.data.train("4").rust_triggers == ("7", "D") and g.data.train("5").rust_triggers == ("D",)


def test_rule_19_first_diesel_rusts_4s_and_5s() -> None:
    g = new_game("18FR-RCE", P4)
    four = next(t for t in g.trains if t.name == "4")
    five = next(t for t in g.trains if t.name == "5")
    four.owner, five.owner = POOL, POOL
    d = next(t for t in g.trains if t.name == "D")
    d.owner = POOL
    g.on_train_bought(d)
    assert four not in g.trains and five not in g.trains


def test_rule_20_train_upgrade_and_no_4_upgrade() -> None:
    g = operating({"PRO": 100})
    to_step(g, "PRO", "buy_train")
    fund(g, "PRO", 3000)
    for name in ("4", "5"):
        t = next(t for t in g.depot() if t.name == name)
        t.owner = "PRO"
    g.bought_train_types.update({"2", "3", "4", "5", "6"})
    offers = legal(g, type="buy_train", exchange=next(t.id for t in g.trains_of("PRO") if t.name == "5"))
    assert {(o["train"].split("-")[0], o["price"]) for o in offers} == {("7", 560), ("D", 750)}
    four = next(t.id for t in g.trains_of("PRO") if t.name == "4")
    refused(g, "4-0", type="buy_train", entity="PRO", train="7", exchange=four)
    five = next(t for t in g.trains_of("PRO") if t.name == "5")
    cash = g.corps["PRO"].cash
    act(g, type="buy_train", entity="PRO", train="7", exchange=five.id)
    assert five not in g.trains and g.corps["PRO"].cash == cash - 560
    assert "7" in g.bought_train_types and g.phase.name == "7"
    assert not any(t.name == "4" for t in g.trains)  # the upgrade counts as buying the first 7: 4s rust


def test_rule_20_upgrades_are_swaps_open_at_the_train_limit_c9() -> None:
    g = operating({"PRO": 100})
    to_step(g, "PRO", "buy_train")
    fund(g, "PRO", 3000)
    for t in [t for t in g.trains if t.name in ("2", "3", "4")]:
        g.trains.remove(t)
    for t in [t for t in g.depot() if t.name == "5"]:
        t.owner = "PRO" if not g.trains_of("PRO") else "SO"  # PRO holds one 5; the bank sells 6s
    bought(g, "2", "3", "4", "5")
    assert g.train_limit("PRO") == 2
    act(g, **next(o for o in legal(g, type="buy_train") if o["train"].startswith("6")))  # the first 6: 7s, Ds on sale
    assert len(g.trains_of("PRO")) == 2 and g.round.step == "buy_train"  # at the limit, its 5 may still go up
    assert not [o for o in legal(g, type="buy_train") if not o.get("exchange")]  # but nothing more is bought
    five = next(t.id for t in g.trains_of("PRO") if t.name == "5")
    act(g, type="buy_train", entity="PRO", train="7", exchange=five)
    assert sorted(t.name for t in g.trains_of("PRO")) == ["6", "7"] and g.round.step == "buy_train"
    seven = next(t.id for t in g.trains_of("PRO") if t.name == "7")
    act(g, type="buy_train", entity="PRO", train="D", exchange=seven)  # a second swap in the same step
    assert sorted(t.name for t in g.trains_of("PRO")) == ["6", "D"]


def test_rule_28_a_port_move_and_a_tile_cost_no_fee_in_either_order_ruling_17() -> None:
    for move_first in (True, False):
        g = operating({"SO": 100})
        to_step(g, "SO", "track")
        put(g, "H6", "57", 0)  # set-up: Bordeaux's green port tile, SO's home on the non-port side
        put(g, "H6", "PORT-G", 3)
        cash = g.corps["SO"].cash
        if move_first:
            act(g, type="assign", entity="SO", target="H6")
        act(g, **next(m for m in legal(g, type="lay_tile", entity="SO") if g.data.hex(m["hex"]).cost == 0))
        if not move_first:
            act(g, type="assign", entity="SO", target="H6")
        assert g.corps["SO"].cash == cash  # one tile laid: no second tile's 20fr
        assert fr_state(g).port_markers["Bordeaux"] == "SO"


def test_rule_32_smallest_bank_train_removed_after_each_set() -> None:
    g = operating({"PRO": 100})
    twos = sum(1 for t in g.depot() if t.name == "2")
    while g.round.kind != "stock":
        to_step(g, g.round.corp, "buy_train")
        act(g, type="pass", entity=g.round.corp) if legal(g, type="pass") else act(g, **legal(g, type="buy_train")[0])
    assert sum(1 for t in g.depot() if t.name == "2") <= twos - 1 - sum(1 for t in g.trains_of("PRO"))
    assert any("removed from the bank" in str(line) for _, line in g.messages)


def test_rule_32_last_of_type_takes_the_next_and_changes_phase() -> None:
    g = new_game("18FR-RCE", P4)
    for t in [t for t in g.trains if t.name == "2"][1:]:
        g.trains.remove(t)
    g.rules.remove_bank_train(g)
    assert not any(t.name == "2" for t in g.trains)
    assert sum(1 for t in g.trains if t.name == "3") == 5 and g.phase.name == "3"


def test_rule_32_the_last_6_takes_no_7_as_7s_were_on_sale_already() -> None:
    g = new_game("18FR-RCE", P4)
    four = next(t for t in g.trains if t.name == "4")
    four.owner = "PLM"
    for t in [t for t in g.trains if t.name in ("2", "3", "4", "5") and t is not four]:
        g.trains.remove(t)
    g.bought_train_types.update({"2", "3", "4", "5"})
    for six in [t for t in g.trains if t.name == "6"][:2]:
        six.owner = POOL
        g.on_train_bought(six)  # the first 6 put 7s and Diesels on sale
    assert {t.name for t in g.next_bank_trains()} == {"6", "7", "D"}
    g.rules.remove_bank_train(g)
    assert not any(t.name == "6" for t in g.depot()) and sum(1 for t in g.depot() if t.name == "7") == 2
    assert four in g.trains and g.phase.name == "6"  # no 7 "bought": the 4s run on


def test_rule_32_never_a_diesel() -> None:
    g = new_game("18FR-RCE", P4)
    g.trains = [t for t in g.trains if t.name == "D"]
    g.rules.remove_bank_train(g)
    assert [t.name for t in g.trains] == ["D"]


# -- 21, 22, 31: special upgrades ------------------------------------------------------------------------------
def test_rule_21_town_merge_from_phase_5() -> None:
    g = operating({"PO": 100})
    to_step(g, "PO", "track")
    fund(g, "PO", 500)
    g.companies["SG"].closed = True  # #2 no longer blocks E13 (all privates close with the first 5)
    put(g, "F14", "7", 2)  # from Montparnasse's exit on towards Saint-Germain
    put(g, "E13", "1", 1)  # the yellow two-town tile
    assert "E13" in reach_hexes(g, "PO")
    refused(g, "Brown tiles are not available", type="lay_tile", entity="PO", hex="E13", tile="148", rotation=0)
    bought(g, "3", "4", "5")
    opts = legal(g, type="lay_tile", hex="E13", tile="148")
    assert opts
    assert all(tile_exits(g, "1", 1) <= tile_exits(g, "148", o["rotation"]) for o in opts)  # every old exit kept
    act(g, **opts[0])
    assert g.board.hexes["E13"].tile == "148"
    refused(g, "", type="lay_tile", entity="PO", hex="F14", tile="148", rotation=0)  # not on another hex


def test_rule_22_pro_so_direct_brown_port() -> None:
    g = operating({"SO": 100})
    to_step(g, "SO", "track")
    refused(g, "", type="lay_tile", entity="SO", hex="H6", tile="PORT-B", rotation=0)
    bought(g, "3", "4", "5")
    opts = legal(g, type="lay_tile", hex="H6", tile="PORT-B")
    assert opts
    act(g, **opts[0])
    assert g.board.hexes["H6"].tile == "PORT-B"
    act(g, type="assign", entity="SO", target="H6")  # rule 27: its station moves to the port side
    assert fr_state(g).port_markers["Bordeaux"] == "SO"


def fitting_rotation(g: Game, hex_id: str, tile: str) -> int:
    from engine.tiles import tile_layout
    from engine.track import exit_problem

    return next(r for r in range(6) if exit_problem(g, hex_id, tile_layout(g.data.tiles[tile], r)) is None)


def test_rule_31_gray_tiles_from_first_7_or_d() -> None:
    g = operating({"MID": 100})
    to_step(g, "MID", "track")
    fund(g, "MID", 500)
    put(g, "J8", "59", fitting_rotation(g, "J8", "59"))  # the green double-O (MID's home waits for it, as 1830's Erie)
    brown_oo = next(t for t in ("64", "65", "66", "67", "68") if g.data.tiles[t].count)
    put(g, "J8", brown_oo, fitting_rotation(g, "J8", brown_oo))
    bought(g, "3", "4", "5", "6")
    assert "gray" not in g.phase.tiles and not legal(g, type="lay_tile", hex="J8", tile="167")
    bought(g, "D")
    assert "gray" in g.phase.tiles
    opts = legal(g, type="lay_tile", hex="J8", tile="167")
    assert opts
    act(g, **opts[0])
    assert g.board.hexes["J8"].tile == "167"
    # #513 goes only on a brown #63, #167 only on a double-O tile
    assert "upgrades only #63" in str(g.rules.tile_lay_problem(g, "MID", "K7", "513", 0) or "")
    assert "double-O" in str(g.rules.tile_lay_problem(g, "MID", "K7", "167", 0) or "")


# -- 24, 25: forced purchases ----------------------------------------------------------------------------------
def own(g: Game, sym: str, president: str, singles: dict[str, int]) -> None:
    """Set who holds ``sym``'s certificates (the rest in the IPO), for a position."""
    certs = g.certs_of(sym)
    for c in certs:
        c.owner = IPO
    certs[0].owner = president
    g.corps[sym].president = president
    rest = [c for c in certs if not c.president]
    for p, n in singles.items():
        for _ in range(n):
            rest.pop(0).owner = p


def _forced_purchase() -> Game:
    """PRO (president Ann) must buy a train with an empty treasury and Ann has 30fr; Ann also presides SO, where
    Bob holds 2 shares; SO owns a 2-train; PRO has a route (Marseille - Nice), so it must own a train."""
    g = operating({"PRO": 100, "SO": 90})
    to_step(g, "PRO", "buy_train")
    put(g, "N14", "57", 1)
    own(g, "PRO", "Ann", {"Ann": 1, "Cy": 1})
    own(g, "SO", "Ann", {"Ann": 1, "Bob": 2})
    g.pay("PRO", BANK, g.corps["PRO"].cash)
    g.pay("Ann", BANK, g.player("Ann").cash - 30)
    g.market.place("SO", 7, 2)  # 30fr: Ann must sell both her SO singles toward an 80fr train
    two = next(t for t in g.depot() if t.name == "2")
    two.owner = "SO"
    return g


def test_rule_24_presidency_changes_at_the_sale() -> None:
    g = _forced_purchase()
    assert g.round.must_raise(g)
    act(g, type="sell_shares", entity="Ann", corporation="SO", count=2)
    assert g.corps["SO"].president == "Bob"  # at once, before PRO buys its train
    # the buying corporation's own president keeps it (NOTES c4): no sale of PRO down to losing it
    refused(g, "", type="sell_shares", entity="Ann", corporation="PRO", count=3)


def test_rule_25_face_value_cap_on_a_president_funded_purchase() -> None:
    g = _forced_purchase()
    act(g, type="sell_shares", entity="Ann", corporation="SO", count=2)
    two = next(t for t in g.trains_of("SO") if t.name == "2")
    refused(g, "at most the face value", type="buy_train", entity="PRO", train=two.id, price=two.price + 10)
    act(g, type="buy_train", entity="PRO", train=two.id, price=two.price)
    assert g.train(two.id).owner == "PRO"  # (a refused action restores copies: look the train up again)


def test_bankruptcy_with_a_share_of_a_corporation_not_yet_started() -> None:
    """A share got by exchanging #4 (Val de Loire) for an ETA share before ETA is started goes to the pool at the
    bankruptcy with no price to move (a seeded game once crashed there)."""
    g = _forced_purchase()
    own(g, "SO", "Bob", {"Cy": 2})  # Ann has nothing left to sell
    own(g, "PRO", "Ann", {"Cy": 2})
    eta = next(c for c in g.certs_of("ETA") if not c.president)
    eta.owner = "Ann"  # as the exchange of #4 leaves it
    g.pay("Ann", BANK, g.player("Ann").cash)
    assert not g.corps["ETA"].started and "ETA" not in g.market.positions
    bankrupt = legal(g, type="bankrupt")
    assert bankrupt, [a["type"] for a in legal(g)]
    act(g, **bankrupt[0])
    assert g.finished and g.end_reason == "bankrupt" and eta.owner == POOL and "ETA" not in g.market.positions


# -- 26-29: ports ----------------------------------------------------------------------------------------------
def test_rule_27_upgrade_offers_the_port_side() -> None:
    g = operating({"SO": 100})
    to_step(g, "SO", "track")
    put(g, "H6", "57", 0)  # Bordeaux yellow, SO's home station on it
    bought(g, "3")
    assert g.board.hexes["H6"].tokens[0] == ["SO"]
    act(g, **legal(g, type="lay_tile", hex="H6", tile="PORT-G")[0])
    assert legal(g, type="assign", target="H6")
    # the prompt says so: a president who only read "pass" would never learn the marker was on offer
    assert "move a station to the port side of H6 (it takes the port marker); or " in str(g.describe_turn())
    act(g, type="assign", entity="SO", target="H6")
    assert g.board.hexes["H6"].tokens[0] == [None, "SO"] and fr_state(g).port_markers["Bordeaux"] == "SO"
    assert "SO took the Bordeaux port marker" in [str(t) for t in g.round.summary]
    assert g.round.step != "track"  # the upgrade was its build: nothing is left of the track step to pass


def test_rule_27_offer_declined_by_any_other_action() -> None:
    g = operating({"SO": 100})
    to_step(g, "SO", "track")
    put(g, "H6", "57", 0)
    bought(g, "3")
    act(g, **legal(g, type="lay_tile", hex="H6", tile="PORT-G")[0])
    act(g, type="pass", entity="SO")
    assert fr_state(g).port_markers["Bordeaux"] is None and g.board.hexes["H6"].tokens[0] == ["SO", None]


def test_rule_28_pro_so_move_in_lieu_of_a_yellow_build() -> None:
    g = operating({"SO": 100})
    to_step(g, "SO", "track")
    put(g, "H6", "57", 0)
    put(g, "H6", "PORT-G", 3)
    assert g.board.hexes["H6"].tokens[0] == ["SO", None]
    act(g, type="assign", entity="SO", target="H6")
    assert fr_state(g).port_markers["Bordeaux"] == "SO"
    assert g.round.step == "track"  # its other yellow build is left
    assert not legal(g, type="lay_tile", hex="H6")


def test_rule_28_only_pro_so_move_to_port() -> None:
    g = operating({"OU": 100})
    to_step(g, "OU", "track")
    refused(g, "Only PRO and SO", type="assign", entity="OU", target="H6")


def test_rule_29_port_income() -> None:
    g = operating({"SO": 100})
    fr_state(g).port_markers["Bordeaux"] = "SO"
    cash = g.corps["SO"].cash
    g.rules.pay_private_revenue(g)
    assert g.corps["SO"].cash == cash + 20 + sum(c.revenue for c in g.companies.values() if c.owner == "SO")


def test_rule_30_privates_close_on_first_5_markers_stay() -> None:
    g = new_game("18FR-RCE", P4)
    fr_state(g).port_markers["Marseille"] = "PRO"
    five = next(t for t in g.trains if t.name == "5")
    five.owner = POOL
    g.on_train_bought(five)
    assert all(c.closed for c in g.companies.values())
    assert fr_state(g).port_markers["Marseille"] == "PRO"


# -- 33: sold out ----------------------------------------------------------------------------------------------
def test_rule_33_sold_out_top_row_moves_down_right() -> None:
    g = operating({"PRO": 100})
    for c in g.certs_of("PRO"):
        if c.owner in (IPO, POOL):
            c.owner = "Dee"
    g.market.place("PRO", 0, 10)
    g.rules.sold_out_moves(g)
    assert g.market.positions["PRO"] == (1, 11)
    g.market.place("PRO", 0, len(g.market.grid[0]) - 1)
    g.rules.sold_out_moves(g)
    assert g.market.positions["PRO"] == (0, len(g.market.grid[0]) - 1)  # the highest value: no move
    g.market.place("PRO", 2, 5)
    g.rules.sold_out_moves(g)
    assert g.market.positions["PRO"] == (1, 5)


# -- hex ids printed in the other numbering ----------------------------------------------------------------------
def test_b_numbering_aliases_accepted() -> None:
    g = operating({"ETA": 100})
    to_step(g, "ETA", "track")
    assert g.data.id_aliases["E14"] == "E13"
    with pytest.raises(GameError) as e:
        act(g, type="lay_tile", entity="ETA", hex="K8", tile="57", rotation=0)
    assert "K7" in str(e.value) or "Toulouse" in str(e.value)


# -- the map picture -------------------------------------------------------------------------------------------
def test_map_picture_shows_port_markers_and_reconstruction() -> None:
    import io

    from PIL import Image

    from render.mapimg import render_map

    g = operating({"SO": 100})
    assert {h for h, st in g.board.hexes.items() if st.markers.get("port")} == {"C13", "H6", "N14"}
    assert g.data.reconstructed and "RECONSTRUCTED" in g.data.reconstructed
    png = render_map(g.board)
    im = Image.open(io.BytesIO(png))
    assert max(im.size) <= 1700
    to_step(g, "SO", "track")
    put(g, "H6", "57", 0)
    put(g, "H6", "PORT-G", 3)
    act(g, type="assign", entity="SO", target="H6")
    assert "port" not in g.board.hexes["H6"].markers  # the marker left the map for SO's charter
    assert any("Bordeaux" in str(line) for line in g.rules.charter_notes(g, "SO"))
    assert render_map(g.board) != png


# -- the board: Genève is a pass-through off-board -------------------------------------------------------------
def test_geneve_pass_through_offboard() -> None:
    from engine.routes import TrainSpec, best_routes

    g = new_game("18FR-RCE", P4)
    geneve = next(h.id for h in g.data.hexes if h.offboard is not None and h.offboard.pass_through)
    put(g, "H18", "57", 2)  # Dijon, towards Besançon
    put(g, "I19", "9", 2)  # Besançon, Dijon to Genève
    g.board.hexes["H18"].tokens[0][0] = "PLM"
    best = best_routes(g.board, "PLM", [TrainSpec("d", "D", None)], g.rules.route_rules(g))
    stops = [s.hex for s in best.routes[0].stops]
    assert geneve in stops[1:-1]  # through Genève, on to Mulhouse, Strasbourg and Germany
    assert stops == ["H18", "J20", "I23", "H24", "H26"] and best.revenue == 20 + 30 + 10 + 20 + 30


def test_le_havre_tile_and_station_are_one_purchase_of_80fr() -> None:
    """Ruling 14: #3 lays the #57 and a station in Le Havre for 80fr in all. Both are paid with the tile, so money
    spent before the token step (a private bought, here money moved to the bank) cannot leave the station unpaid:
    a seeded game once placed it with 20fr in hand and ended at -60fr."""
    g = operating({"PRO": 100})
    g.companies["LH"].owner = "PRO"  # PRO has bought #3 from its owner
    to_step(g, "PRO", "track")
    special = legal(g, type="lay_tile", entity="LH")
    assert special and {m["hex"] for m in special} == {"C13"}
    cash, tokens = g.corps["PRO"].cash, g.corps["PRO"].tokens_left
    act(g, **special[0])
    assert g.corps["PRO"].cash == cash - 80  # C13 has no terrain: the 80fr is the station's
    assert str(g.messages[-1][1]) == "PRO pays 80fr for the LH station in C13, placed in its token step."
    g.pay("PRO", BANK, g.corps["PRO"].cash - 10)  # spent on something else before the token step
    assert g.round.step == "track"  # the lay was PRO's build: its 20fr second yellow lay may follow (rule 12)
    act(g, type="pass", entity="PRO")
    assert g.round.step == "token"
    assert legal(g, type="place_token") == [{"entity": "PRO", "type": "place_token", "hex": "C13", "city": 0}]
    act(g, type="place_token", entity="PRO", hex="C13", city=0)
    assert g.corps["PRO"].cash == 10 and g.corps["PRO"].tokens_left == tokens - 1
    assert "PRO" in g.board.hexes["C13"].tokens[0]


def test_le_havre_is_the_turns_build_with_0_before_it_and_the_second_yellow_lay_after_it() -> None:
    """Rules 5 and 12 with #3: #0 lays just before the normal build, which may be #3's; an extra-lay company's
    20fr second yellow tile still follows it."""
    g = operating({"PRO": 100})
    g.companies["LH"].owner = g.companies["TB"].owner = "PRO"
    to_step(g, "PRO", "track")
    fund(g, "PRO", 500)
    act(g, **legal(g, type="lay_tile", entity="TB")[0])  # #0 first: it closes
    assert g.round.step == "track" and g.companies["TB"].closed
    act(g, **legal(g, type="lay_tile", entity="LH")[0])  # the normal build
    assert g.round.step == "track"
    second = next(m for m in legal(g, type="lay_tile", entity="PRO") if g.data.hex(m["hex"]).cost == 0)
    cash = g.corps["PRO"].cash
    act(g, **second)
    assert g.corps["PRO"].cash == cash - 20  # the second yellow lay's fee
    assert g.round.step == "token"  # every build made: the Le Havre station is due
    assert legal(g, type="place_token") == [{"entity": "PRO", "type": "place_token", "hex": "C13", "city": 0}]


def test_a_forced_purchase_says_which_train_and_what_to_raise() -> None:
    """The prompt named no train, price or shortfall; a president read only "pays the rest"."""
    g = _forced_purchase()
    said = str(g.describe_turn())
    assert ("PRO has 0fr and must buy a train: the cheapest is a 2-train for 80fr. Ann pays the 80fr missing but has "
            "30fr: sell shares for at least 50fr first (`/stock sell`), then buy it.") in said, said
    act(g, type="sell_shares", entity="Ann", corporation="SO", count=2)
    assert "the cheapest is a 2-train for 80fr; Ann pays the 80fr missing." in str(g.describe_turn())
