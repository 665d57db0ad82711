"""What players read at the table, as playtests of 1830, 18FR-RCE and 18EZ through the simulator found it wanting:
prompts that name who acts and every choice of the step, round summaries that tell every deal, refusals that say
why. Positions are reached by real play (the engine's, then imported into the bot where the bot is tested)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.local import main
from bot.service import Service
from bot.texts import corporations_embed, players_embed
from engine.errors import GameError
from engine.game import Game
from engine.messages import Msg
from engine.records.writer import write_record
from engine.route_text import routes_from_text
from engine.titles import new_game
from render.sheets import holdings
from tests import positions
from tests.c1830_helpers import act, buy_privates, float_corp, legal, skip_to, to_operating
from tests.c1830_helpers import game as game_1830
from tests.test_import_export import as_file, claim_menu
from tests.test_service import ALICE, BOB, CAROL, CH, DAVE, GUILD, SEED, Clock, do, state


@pytest.fixture
async def svc(tmp_path: Path) -> Any:
    service = await Service.open(str(tmp_path / "bot.sqlite3"), now=Clock(), seed_source=lambda: SEED)
    yield service
    await service.close()


USERS = {u.name: u for u in (ALICE, BOB, CAROL, DAVE)}


async def _seated(svc: Service, g: Any) -> Any:
    """The engine's game imported into the channel, each seat claimed by its member."""
    r = await do(svc, ALICE, "game import", file=as_file(write_record(g)))
    assert r.ok, r.full_text()
    for p in g.players:
        u = USERS[p.name]
        r = await svc.click(CH, GUILD, u, claim_menu(r).custom_id, [u.name])
        assert r.ok, r.full_text()
    return r


def _buy_privates_to_bo(g: Any) -> str:
    """The cheapest private bought in turn until the B&O private is sold; its buyer."""
    while g.companies["BO"].owner is None:
        cheapest = g.round.unsold(g)[0]
        act(g, "buy_company", company=cheapest, price=g.rules.private_price(g, cheapest))
    return g.companies["BO"].owner


# -- stock rounds --------------------------------------------------------------------------------------------


def test_the_prompt_after_the_bo_private_names_its_buyer_and_the_par() -> None:
    g = game_1830()
    owner = _buy_privates_to_bo(g)
    assert g.acting_players() == [owner]
    assert str(g.describe_turn()) == f"{owner} sets the par price of B&O now (SR 1)."


def test_a_stock_round_summary_tells_each_deal_once() -> None:
    """A round of passes during the auction lowers the first private (not the end of the round: no Priority Deal
    line yet); a private won by bidding is a purchase at its price; the M&H exchange is a deal of the round."""
    g = game_1830()
    for _ in range(3):
        act(g, "pass")  # everyone passes: SV is reduced
    sv_price = g.rules.private_price(g, "SV")
    act(g, "bid", company="DH", price=75)
    bidder = "alice" if g.current_entity != "alice" else "bob"
    buy_privates(g)
    float_corp(g, "NYC", passes=False)
    mh_owner = g.companies["MH"].owner
    g.process({"type": "buy_shares", "entity": "MH", "corporation": "NYC", "source": "ipo"})
    while g.round.kind == "stock":
        act(g, "pass")
    lines = [str(t) for t in g.finished_rounds[0]["summary"]]
    assert lines[0] == f"SV reduced to ${sv_price}"
    assert sum("holds the Priority Deal" in t for t in lines) == 1 and "holds the Priority Deal" in lines[-1]
    assert any(t.endswith(f"bought DH for ${g.companies['DH'].value}") or " bought DH for $" in t for t in lines)
    assert f"{mh_owner} exchanged MH for a share of NYC" in lines
    assert bidder


def test_bids_are_checked_against_the_floor_before_the_multiple() -> None:
    """18FR-RCE bids are multiples of 5fr: a bid under the floor is told the floor, not a lower multiple."""
    from engine import new_game

    g = new_game("18FR-RCE", ["alice", "bob", "carol"], seed=1)
    company = g.round.unsold(g)[1]
    floor = g.companies[company].value + 5
    with pytest.raises(GameError) as low:
        act(g, "bid", company=company, price=floor - 3)
    assert str(low.value.msg) == f"A bid on {company} must be at least {g.fmt(floor)}."
    with pytest.raises(GameError) as odd:
        act(g, "bid", company=company, price=floor + 2)
    assert f"bid {g.fmt(floor)} or {g.fmt(floor + 5)}" in str(odd.value.msg)


async def test_private_sales_between_players_are_a_command_not_a_row_of_buttons(svc: Service) -> None:
    g = to_operating(game_1830())
    while g.round.kind == "operating":
        g.process(([a for a in legal(g) if a["type"] == "pass"] or legal(g))[0])
    assert any(a["type"] == "buy_company" and g.companies[a["company"]].owner not in (None, a["entity"])
               for a in legal(g))
    r = await _seated(svc, g)
    prompt = r.all()[-1]
    labels = [str(b.label) for row in prompt.components for b in row if hasattr(b, "label")]
    assert not any(label.startswith("Buy ") and " from " in label for label in labels), labels
    assert "Buy a private from another player with `/private buy`" in prompt.text


async def test_a_train_named_out_of_turn_is_refused_with_the_reason(svc: Service) -> None:
    g = to_operating(game_1830())
    while g.round.kind == "operating":
        g.process(([a for a in legal(g) if a["type"] == "pass"] or legal(g))[0])
    await _seated(svc, g)
    who = USERS[(await state(svc))[1].current_entity]
    r = await do(svc, who, "train buy", train="2")
    assert not r.ok and "turn in the stock round" in r.text and "Nearest legal choices" not in r.text, r.text


async def test_a_private_named_by_its_id_uses_its_one_ability(svc: Service) -> None:
    g = to_operating(game_1830())
    while g.round.kind == "operating":
        g.process(([a for a in legal(g) if a["type"] == "pass"] or legal(g))[0])
    owner = USERS[g.companies["MH"].owner]
    await _seated(svc, g)
    other = next(u for u in (ALICE, BOB, CAROL) if u is not owner)
    refused = await do(svc, other, "private use", ability="mh")
    assert not refused.ok and "MH has no ability you can use now." in refused.text
    r = await do(svc, owner, "private use", ability="mh")
    assert r.ok and "exchanges Mohawk & Hudson (MH) for a share of NYC from the IPO" in r.text, r.full_text()


# -- operating rounds ----------------------------------------------------------------------------------------


def test_a_station_that_came_with_its_tile_is_not_offered_a_pass() -> None:
    g = to_operating(game_1830())
    for t in ("2-0",):
        next(x for x in g.trains if x.id == t).owner = "PRR"
    g.companies["DH"].owner = "PRR"
    hex_ok = next(a for a in legal(g) if a["type"] == "lay_tile" and a["entity"] == "DH")
    g.process(hex_ok)
    assert g.round.step == "token"
    assert str(g.describe_turn()).endswith("PRR places the DH station in F16 now: it came with the tile.")
    assert "or pass" not in str(g.describe_turn())


async def test_a_tile_that_fits_in_no_rotation_is_not_blamed_on_rotation_0(svc: Service) -> None:
    g = positions.nyc_beside_new_haven()
    await _seated(svc, g)
    r = await do(svc, USERS[g.corps["NYC"].president], "track lay", hex="F20", tile="1")
    assert not r.ok and "Rotation 0" not in r.text, r.text
    assert r.text == "#1 fits F20 in no rotation. Tiles that fit there: #2, #56, #69.", r.text


def test_a_typed_route_names_stops_as_players_do() -> None:
    """A place printed on the map with no stop (its track only passes through) is named as such, not unknown."""
    from engine import new_game

    g = new_game("18FR-RCE", ["alice", "bob", "carol"], seed=1)
    printed = next(h for h in g.data.hexes if h.name and not (g.board.layout(h.id).cities
                                                               or g.board.layout(h.id).towns
                                                               or g.board.layout(h.id).offboard))
    corp = next(iter(g.corps))
    next(t for t in g.trains if t.name == "2").owner = corp
    with pytest.raises(GameError) as e:
        routes_from_text(g, corp, "Nowhere-Land")
    assert "not a hex id or the name of a place" in str(e.value.msg)
    with pytest.raises(GameError) as bare:
        routes_from_text(g, corp, f"{printed.name}-Paris")
    assert f"{printed.name} ({printed.id}) has no city, town or off-board" in str(bare.value.msg)


# -- views ---------------------------------------------------------------------------------------------------


def test_privates_show_with_their_owners_in_every_view() -> None:
    g = game_1830()
    buy_privates(g)
    owner = g.companies["SV"].owner
    sheet = holdings(g)
    row = next(r for r in sheet.tables[0].rows if r[0] == owner)
    assert "SV" in row[-1].split()
    g.companies["CS"].owner = "B&O"  # a corporation's private (bought in an operating round)
    books = next(r for r in holdings(g).tables[1].rows if r[0] == "B&O")
    assert "CS" in books[6].split()
    assert "Privates: CS" in str(next(v for k, v in corporations_embed(g).fields if str(k).startswith("B&O")))
    # a player with privates and no share: not "Certificates 1/16: none", then a private on the next line
    shares_free = next(p.name for p in g.players if not any(g.shares_held(p.name, s) for s in g.corps))
    field = str(next(v for k, v in players_embed(g).fields if str(k).startswith(shares_free)))
    assert ": no shares\nPrivates: " in field, field


def test_the_18fr_map_region_takes_the_rules_second_numbering() -> None:
    from bot.pictures import find_region
    from engine import new_game

    g = new_game("18FR-RCE", ["alice", "bob", "carol"], seed=1)
    alias, hex_id = next(iter(g.data.id_aliases.items()))
    assert find_region(g, alias.lower()) == hex_id


def test_18ez_railroads_are_named_by_their_abbreviations_alone() -> None:
    from bot.texts import corp_label
    from engine import new_game

    g = new_game("18EZ", ["a", "b", "c"], seed=1)
    assert corp_label(g, "PS&W") == "PS&W"
    assert all("(" not in c.name for c in g.corps.values())
    assert corp_label(game_1830(), "PRR") == "PRR — Pennsylvania Railroad"


# -- the simulator -------------------------------------------------------------------------------------------


SIM = """\
@alice /game create title:18EZ language:ja
@bob /game join
@carol /game join
@alice /game start
@alice /stock buy source:?
@alice /corp dividend kind:?
"""


def test_the_simulator_lists_and_takes_fixed_choices_in_the_members_words(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SIM, encoding="utf-8")
    code = main(["--script", str(script), "--db", str(tmp_path / "s.sqlite3"), "--out", str(tmp_path / "p"),
                 "--seed", "1", "--lang", "ja"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "  ipo  — IPO" in out and "  payout  — " in out
    assert "（今できることはありません）" not in out


async def test_an_undone_purchase_is_named_as_it_was_made(svc: Service) -> None:
    """After the purchase the train is PRR's own: named in the state after, the undo read "PRR buys PRR's 2-train
    (name a price)"; it is named in the state before, a train from the bank at its price."""
    g = to_operating(game_1830())
    skip_to(g, "buy_train")
    await _seated(svc, g)
    president = USERS[g.corps["PRR"].president]
    assert (await do(svc, president, "train buy", train="2")).ok
    r = await do(svc, president, "undo")
    assert r.ok and "undoes an action: PRR: Buy a 2-train from the bank" in r.text, r.text
    assert "price" not in r.text.split("undoes an action:")[1].split("\n")[0]


def test_an_undone_purchase_from_another_corporation_names_the_price_agreed() -> None:
    """It read "PRR: Buy NYC's 2-train (name a price)": the menu's words for a move already made at a price."""
    from bot.texts import action_summary

    g = to_operating(game_1830())
    train = next(t for t in g.trains if t.name == "2")
    train.owner = "NYC"
    a = {"type": "buy_train", "entity": "PRR", "train": train.id, "price": 50}
    assert str(action_summary(g, a, False)) == "PRR: buy NYC's 2-train for $50"


def test_the_menu_names_the_price_of_a_purchase_from_another_corporation() -> None:
    """The legal move carries its price (the buyer's treasury, or what the president may add): the menu read
    "Buy NYC's 2-train (name a price)" though choosing it offers exactly that price."""
    from bot.texts import describe_action

    g = to_operating(game_1830())
    train = next(t for t in g.trains if t.name == "2")
    train.owner = "NYC"
    a = {"type": "buy_train", "entity": "PRR", "train": train.id, "price": 80}
    assert str(describe_action(g, a)) == "Buy NYC's 2-train for $80"
    assert str(describe_action(g, {**a, "price": None})) == "Buy NYC's 2-train (name a price)"


def test_a_game_ended_in_an_operating_round_ends_the_standings_there() -> None:
    """The standings chart's last point was labelled with the stock round before (SR 1, twice on the axis)."""
    g = to_operating(game_1830())
    assert g.round.name == "OR 1.1"
    g.end_game("manually_ended")
    assert g.history_rounds[-2:] == ["SR 1", "OR 1.1"]


def test_ids_typed_without_their_ampersand_are_understood() -> None:
    from bot.service.ids import normalise_ids
    from engine import new_game

    g = new_game("18EZ", ["a", "b", "c"], seed=1)
    action = {"type": "par", "corporation": "brn"}
    normalise_ids(g, action, lambda: [])
    assert action["corporation"] == "BR&N"


def test_an_18ez_share_in_the_par_box_is_offered_at_its_par() -> None:
    """A railroad started but not floated has no market price yet: its IPO shares still cost its par."""
    from bot.texts import describe_action
    from engine import new_game

    g = new_game("18EZ", ["a", "b", "c"], seed=1)
    par = next(a for a in legal(g) if a["type"] == "par")
    g.process(par)
    while g.current_entity == par["entity"]:
        act(g, "pass")
    buy = next(a for a in legal(g) if a["type"] == "buy_shares" and a["corporation"] == par["corporation"])
    assert par["corporation"] not in g.market.positions
    assert str(describe_action(g, buy)).endswith(f"({g.fmt(par['price'])})")


def test_a_long_sheet_is_cut_between_rows() -> None:
    from render.sheets import sheet_text, tile_supply

    text = sheet_text(tile_supply(game_1830()), limit=600)
    assert len(text) <= 600 and text.endswith("\n…```")
    rows = text.split("```\n", 1)[1].rsplit("\n…", 1)[0].split("\n")[1:]
    assert rows and all(row.endswith(("yes", "later")) for row in rows), rows  # each row whole, to its last column


def test_a_change_of_president_is_told_after_the_sale_and_in_the_summary() -> None:
    g = game_1830()
    buy_privates(g)
    first = g.current_entity
    float_corp(g, "PRR")  # everyone buys PRR in turn: the first holds the President's certificate and one more
    while g.round.kind == "operating":
        g.process(([a for a in legal(g) if a["type"] == "pass"] or legal(g))[0])
    while g.current_entity != first:
        act(g, "pass")
    assert g.corps["PRR"].president == first and g.shares_held(first, "PRR") == 3
    start = len(g.messages)
    act(g, "sell_shares", corporation="PRR", count=2)
    said = [str(t) for _i, t in g.messages[start:]]
    new = g.corps["PRR"].president
    assert new != first
    assert said[0].startswith(f"{first} sells 2 shares of PRR") and said[1] == f"{new} becomes president of PRR."
    # the summary in the same order: the sale, then what it caused (it read "became president" before the sale)
    assert [str(t) for t in g.round.summary][-2:] == [f"{first} sold 2× PRR", f"{new} became president of PRR"]


def test_a_train_named_by_its_kind_is_the_banks_and_its_only_trade_in_is_filled_in() -> None:
    """`/train buy train:D` took another corporation's Diesel (and asked for a price); picking the list's "D-… trading
    in its 4-train" without `exchange:` was refused for the full price."""
    from bot.service.ids import normalise_ids
    from bot.service.play import _fill_from_legal
    from tests.c1830_helpers import diesel_position

    g = diesel_position()
    offered = legal(g)
    action: dict[str, Any] = {"type": "buy_train", "entity": "PRR", "train": "D"}
    normalise_ids(g, action, lambda: offered)
    bank_d = next(t.id for t in g.next_bank_trains() if t.name == "D")
    assert action["train"] == bank_d
    assert not any(a["type"] == "buy_train" and a["train"] == bank_d and not a.get("exchange") for a in offered)
    _fill_from_legal(g, action, offered)
    assert action["exchange"] == "4-0"
    g.process(action)
    assert g.train(bank_d).owner == "PRR"


def test_a_tile_typed_as_tile_9_is_read_without_a_rotation_too() -> None:
    from bot.service.ids import normalise_ids

    g = to_operating(game_1830())
    named = {"type": "lay_tile", "hex": "h10", "tile": "tile 9"}
    normalise_ids(g, named, lambda: legal(g))
    assert named == {"type": "lay_tile", "hex": "H10", "tile": "9"}


def test_shares_in_an_operating_round_are_refused_for_that_reason() -> None:
    g = to_operating(game_1830())
    with pytest.raises(GameError) as e:
        act(g, "buy_shares", entity="PRR", corporation="NYC", source="ipo")
    assert str(e.value.msg).startswith("Shares are bought, and corporations started, only in a stock round")


async def test_after_the_end_the_table_is_told_the_game_ended(svc: Service) -> None:
    g = to_operating(game_1830())
    await _seated(svc, g)
    row, _game = await state(svc)
    await svc.store.set_status(row.id, "finished", 1.0,
                               {"reason": "bank", "standings": [["ann", 900], ["bob", 900], ["cy", 800]]})
    svc._evict(row.id)
    r = await do(svc, BOB, "pass")
    assert not r.ok and "The game of 1830 in this channel has ended" in r.text, r.text
    status = (await do(svc, BOB, "game status")).embeds[0]  # the status of an ended game is its result
    assert status.description.startswith("🏁 Game over — ") and status.description != "🏁 Game over — bank.", status
    assert dict(status.fields)["Final standings (net worth)"] == "1. ann $900\n1. bob $900\n3. cy $800"


def test_money_below_zero_reads_with_its_minus_first() -> None:
    assert game_1830().fmt(-318) == "−$318"
    # four figures read as the rulebooks and the standings picture print them, in every currency
    assert game_1830().fmt(12000) == "$12,000" and game_1830().fmt(-1173) == "−$1,173"
    assert new_game("18FR-RCE", ["ann", "ben", "cid"], seed=1).fmt(1200) == "1,200fr"


def test_the_gulf_is_named_on_both_its_hexes() -> None:
    from engine.route_types import Stop

    g = game_1830()
    assert g.rules.stop_name(g, Stop("offboard", "I1", 0, 0)) == "Gulf"


def test_players_of_equal_worth_share_their_place() -> None:
    from bot.texts import standings_lines

    g = game_1830()  # nobody has bought anything: all three are worth their starting cash
    assert [line.split()[0] for line in standings_lines(g)] == ["🥇", "🥇", "🥇"]


async def test_the_owner_of_a_private_usable_now_is_told_and_mentioned(svc: Service) -> None:
    """TR's tile for ann's corporation is ben's to lay: the call named only ann, and nothing told ben."""
    g = positions.a_private_of_another_player()
    users = {"ann": ALICE, "ben": BOB, "cid": CAROL}
    r = await do(svc, ALICE, "game import", file=as_file(write_record(g)))
    for name in ("ann", "ben", "cid"):
        r = await svc.click(CH, GUILD, users[name], claim_menu(r).custom_id, [name])
        assert r.ok, r.full_text()
    prompt = r.all()[-1]
    assert "ben may use TR now (`/private use`)." in prompt.text, prompt.text


def test_a_permanent_tile_shows_no_upgrades_in_the_tile_sheet() -> None:
    """18AL's Lumber Terminal is never upgraded; the sheet listed #142-#144 as its upgrades."""
    from engine import new_game
    from render.sheets import upgrades_of

    g = new_game("18AL", ["a", "b", "c"], seed=1)
    assert upgrades_of(g, "445") == [] and upgrades_of(g, "9")


# -- two cities on one hex -------------------------------------------------------------------------------------


def test_a_station_in_a_hex_of_two_cities_names_the_city_by_where_it_sits() -> None:
    """Token menus said "city 1": a player cannot tell which of New York's or Jacksonville's circles that is. They
    now say where the city sits on the map, and 18FL's the rules' northern and southern Jacksonville."""
    from bot.texts import describe_action
    from engine.titles import new_game

    fl = new_game("18FL", ["ann", "ben", "cid"], seed=1)
    north = str(describe_action(fl, {"type": "place_token", "entity": "SR", "hex": "B23", "city": 1}))
    south = str(describe_action(fl, {"type": "place_token", "entity": "SR", "hex": "B23", "city": 0}))
    assert north.endswith("northern city") and south.endswith("southern city"), (north, south)
    assert str(fl.rules._where(fl, "B23", 1)) == "Jacksonville (B23), northern city"
    g = game_1830()
    new_york = [str(describe_action(g, {"type": "place_token", "entity": "NYNH", "hex": "G19", "city": c}))
                for c in (0, 1)]
    assert new_york[0].endswith(", NE city") and new_york[1].endswith(", SW city"), new_york
    # a hex of one city reads as before
    assert str(describe_action(g, {"type": "place_token", "entity": "PRR", "hex": "H12", "city": 0})) == \
        "Station at H12 Altoona"


def test_the_standings_mark_a_bankrupt_player() -> None:
    """18FL goes on after a bankruptcy: the standings listed the bankrupt player among the others, unmarked."""
    import io

    from PIL import Image

    from bot.pictures import standings_job
    from bot.texts import standings_lines
    from tests.fl_helpers import act as fl_act
    from tests.fl_helpers import sal_broke_at_its_train_step

    g = sal_broke_at_its_train_step()
    fl_act(g, "bankrupt", "SAL")
    lines = {str(line).split("**")[1]: str(line) for line in standings_lines(g)}
    assert lines["alice"].endswith("(bankrupt)") and not lines["bob"].endswith("(bankrupt)"), lines
    # the picture greys and strikes the name through: alice's row differs from the same picture unmarked
    from render.charts import render_standings

    rows = sorted(g.result().items(), key=lambda kv: -kv[1])
    history = {p.name: [h.get(p.name, 0) for h in g.history] + [g.net_worth(p.name)] for p in g.players}

    def chart(out: frozenset[str]) -> bytes:
        return render_standings(rows, history, "Standings", seats=[p.name for p in g.players],
                                rounds=[*g.history_rounds, "now"], bankrupt=out)

    marked, plain = (Image.open(io.BytesIO(chart(out))).convert("L") for out in (frozenset({"alice"}), frozenset()))
    assert standings_job(g, "Standings")() == chart(frozenset({"alice"}))

    def change(top: int) -> int:  # how much the row of names starting at ``top`` changed (a PNG's palette shifts)
        box = (100, top, 420, top + 50)
        return sum(abs(x - y) for x, y in zip(marked.crop(box).tobytes(), plain.crop(box).tobytes(), strict=True))

    rows_top = [130 + 50 * i for i in range(3)]  # the table's rows at 1600 px wide: bob, carol, alice
    assert change(rows_top[2]) > 20 * max(change(rows_top[0]), change(rows_top[1]), 1)


def test_the_game_status_marks_a_bankrupt_seat() -> None:
    from bot.texts import seats_text
    from tests.fl_helpers import act as fl_act
    from tests.fl_helpers import sal_broke_at_its_train_step

    g = sal_broke_at_its_train_step()
    fl_act(g, "bankrupt", "SAL")
    assert not g.finished
    assert str(seats_text(g, [p.name for p in g.players])) == "1. alice (bankrupt), 2. bob, 3. carol"


def test_a_skipped_token_step_says_why_when_the_corporation_has_tokens_left() -> None:
    """The turn went from track to trains with no word: a president waiting to place a station saw it pass."""
    g = to_operating(game_1830())
    assert g.round.corp == "PRR" and g.round.step == "track"
    g.pay("PRR", "bank", g.corps["PRR"].cash)  # nothing left for the $40 station
    act(g, "pass")
    said = [str(m) for i, m in g.messages if i == len(g.actions) - 1]
    assert "PRR places no station: one costs $40 and it has $0." in said, said
    # with the money, but no free circle its track reaches (its only track is home), the other reason
    g = to_operating(game_1830())
    act(g, "pass")
    said = [str(m) for i, m in g.messages if i == len(g.actions) - 1]
    assert any(m.startswith("PRR places no station: its track reaches no free city circle") for m in said), said
    # 18FL: a token priced by its distance
    from tests.fl_helpers import act as fl_act
    from tests.fl_helpers import sal_operating

    g = sal_operating()
    assert g.round.step == "track"
    g.pay("SAL", "bank", g.corps["SAL"].cash)
    for bonus in ("POSC", "TC"):  # set-up: their bonus tokens would keep the step open for their owners
        g.companies[bonus].closed = True
    fl_act(g, "pass", "SAL")
    said = [str(m) for i, m in g.messages if i == len(g.actions) - 1]
    assert any(m.startswith("SAL places no token: ") for m in said), said


def test_par_prices_are_offered_lowest_first() -> None:
    """18AL's par cells lie in several rows of its market: the price menu read $90, $105, $70, $75, $60."""
    from bot.service.choices import _legal_choices
    from engine.actions import dump_action
    from tests.al_helpers import Plan, next_action

    g = new_game("18AL", ["ann", "ben", "cid"], seed=1)
    while not any(a.type == "par" for a in g.legal_actions()):
        g.process(next_action(g, Plan()))
    legal = [dump_action(a) for a in g.legal_actions()]
    offered = [c.value for c in _legal_choices(g, "stock par", "price", {"corporation": "ABC"}, legal)]
    assert offered == sorted({a["price"] for a in legal if a["type"] == "par" and a["corporation"] == "ABC"})
    assert offered == sorted(offered) and len(offered) > 1


def test_the_round_summary_tells_what_a_new_train_did() -> None:
    """The first 4-train rusted every 2-train and the summary said only "Phase 4 began": a player reading the
    summaries missed the rusting (and, in other phases, privates closing, markers removed, conversions)."""
    g = to_operating(game_1830())
    for t in g.trains:  # set-up: the 2s and 3s sold, one 2 of them PRR's
        if t.name in ("2", "3"):
            t.owner = "NYC"
    next(t for t in g.trains if t.name == "2").owner = "PRR"
    g.bought_train_types.update({"2", "3"})
    g.corps["PRR"].cash = 900
    skip_to(g, "buy_train")
    act(g, "buy_train", train="4")
    summary = [str(line) for line in g.round.summary]
    phase = next(i for i, line in enumerate(summary) if line.startswith("Phase 4 began"))
    assert "PRR loses a 2-train (rusted and scrapped)." in summary[phase:], summary
    assert any(line.startswith("NYC loses") for line in summary[phase:]), summary
    # the set's summary says each once: its events list only what the rounds' lines do not already say
    from bot.texts import or_set_summary

    text = str(or_set_summary(g, [{"name": "OR 1.1", "summary": list(g.round.summary)}], 0))
    assert text.count("PRR loses a 2-train (rusted and scrapped).") == 1, text
    assert "Phase 4 begins" in text  # what the phase brings, under the events


def test_the_set_summary_says_a_run_of_like_train_purchases_once() -> None:
    from bot.texts import or_set_summary

    g = to_operating(game_1830())
    g.corps["PRR"].cash = 900
    skip_to(g, "buy_train")
    for _ in range(2):
        act(g, "buy_train", train="2")
    for t in g.trains:  # the other 2-trains are sold
        if t.name == "2" and t.owner != "PRR":
            t.owner = "NYC"
    act(g, "buy_train", train="3")  # the first 3-train: a phase line between it and the next
    act(g, "buy_train", train="3")
    assert g.round.kind == "stock"  # at its limit PRR's turn ended, and with it the operating round
    text = str(or_set_summary(g, g.finished_rounds[-1:], 0))
    assert "PRR bought 2 2-trains (bank)" in text and "PRR bought a 2-train" not in text, text
    assert text.index("PRR bought a 3-train (bank)") < text.index("Phase 3 began") < text.rindex(
        "PRR bought a 3-train (bank)"), text  # not merged across the phase change


def test_a_region_view_of_a_small_map_shows_the_place_and_not_most_of_the_map() -> None:
    from bot.pictures import board_snapshot, find_region, view_hexes
    from engine import new_game

    small = new_game("18AL", ["a", "b", "c"], seed=1)
    board = board_snapshot(small)
    shown = view_hexes(small, board, region=find_region(small, "Birmingham"))
    assert shown is not None and find_region(small, "Birmingham") in shown
    assert len(shown) <= 0.4 * len(board.hexes)  # three steps around it would be 44 of the 60 hexes
    big = new_game("18FR-RCE", ["a", "b", "c"], seed=1)
    from render.mapview import region_hexes

    big_board = board_snapshot(big)
    assert view_hexes(big, big_board, region="E15") == region_hexes(big_board, "E15", 3)  # Paris, three steps round
    assert view_hexes(big, board_snapshot(big)) is None  # the whole map


def test_the_summary_says_a_dividend_was_paid_out_or_withheld(fl_played: Game) -> None:
    lines = [str(t) for e in fl_played.finished_rounds for t in e.get("summary") or []
             if isinstance(t, Msg) and t.text.startswith("{corp} earned {revenue}, {kind}")]
    assert lines and all(", paid out (" in t or ", withheld (" in t for t in lines), lines[:5]


def test_a_sale_typed_in_an_operating_round_is_the_players_own(svc: Service) -> None:
    """`/stock sell` names no entity: with no sale legal it is still the player's (its refusal then says why), not
    the operating corporation's ("Only PRR's president alice may sell shares for its train")."""
    g = to_operating(game_1830())
    corp = g.current_entity
    pres = g.corps[corp].president
    assert not any(a.type == "sell_shares" for a in g.legal_actions())
    assert svc._entity_for(g, pres, "sell_shares", None) == pres
    assert svc._entity_for(g, pres, "lay_tile", None) == corp  # a corporation's move stays the corporation's


async def test_a_run_that_earns_nothing_with_nothing_else_to_do_finishes_by_itself(svc: Service) -> None:
    """B&O has a 2-train and no track beyond Baltimore: its run earns nothing and nothing else may be done, yet the
    table had to click "Run trains for $0" each turn."""
    g = to_operating(game_1830(), "B&O")
    skip_to(g, "buy_train")
    act(g, "buy_train", "B&O", train="2")
    while not (getattr(g.round, "kind", "") == "operating" and g.round.corp == "B&O" and g.round.step == "track"):
        g.process(next(a for a in legal(g) if a["type"] == "pass"))
    await _seated(svc, g)
    president = USERS[g.corps["B&O"].president]
    r = await do(svc, president, "pass")
    assert r.ok and "B&O has no route to run." in r.full_text() and "Run trains for $0" not in r.full_text(), \
        r.full_text()
    _row, after = await state(svc)
    assert [a.type for a in after.actions[-2:]] == ["pass", "run_routes"], after.actions[-2:]
