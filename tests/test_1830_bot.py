"""1830 through the bot's service: offered by /game create, the private auction's buy/bid/pass, the B&O par, the
M&H exchange and the Diesel trade-in with autocomplete of the legal choices (issue 12, item 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.commands import decode_action, encode_action
from bot.service import Service
from bot.service.choices import _legal_choices
from bot.service.replies import Select
from engine.actions import dump_action
from engine.records.writer import write_record
from tests.c1830_helpers import diesel_position, legal, to_operating
from tests.c1830_helpers import game as engine_game
from tests.test_import_export import as_file, claim_menu
from tests.test_service import ALICE, BOB, CAROL, CH, GUILD, SEED, USERS, Clock, do, state


@pytest.fixture
async def svc(tmp_path: Path) -> Any:
    service = await Service.open(str(tmp_path / "bot.sqlite3"), now=Clock(), seed_source=lambda: SEED)
    yield service
    await service.close()


async def _start(svc: Service) -> Any:
    assert "1830" in [c.value for c in await svc.autocomplete(CH, ALICE, "game create", "title", "18")]
    r = await do(svc, ALICE, "game create", title="1830")
    assert r.ok, r.text
    for u in (BOB, CAROL):
        assert (await do(svc, u, "game join")).ok
    assert (await do(svc, ALICE, "game start")).ok
    return await state(svc)


async def test_the_private_auction_and_the_bo_par_in_the_bot(svc: Service) -> None:
    _row, game = await _start(svc)
    first = USERS[game.current_entity]
    buys = await svc.autocomplete(CH, first, "private buy", "company")
    assert [c.value for c in buys] == ["SV"]  # only the cheapest is bought outright
    refused = await do(svc, first, "private buy", company="CS", price=40)
    assert not refused.ok and "Only the cheapest unsold private" in refused.text
    # without a price, the same reason (not "CS cannot be bought now"); out of turn, that it is not one's turn
    refused = await do(svc, first, "private buy", company="CS")
    assert not refused.ok and "Only the cheapest unsold private, SV" in refused.text, refused.text
    other = next(u for n, u in USERS.items() if n != game.current_entity)
    refused = await do(svc, other, "private buy", company="SV")
    assert not refused.ok and refused.text.startswith("It is not your turn."), refused.text
    bids = await svc.autocomplete(CH, first, "private bid", "company")
    assert {c.value for c in bids} == {"CS", "DH", "MH", "CA", "BO"}
    low = await do(svc, first, "private bid", company="CA", price=162)
    assert not low.ok and "at least $165" in low.text
    assert (await do(svc, first, "private bid", company="CA", price=165)).ok
    second = USERS[(await state(svc))[1].current_entity]
    assert (await do(svc, second, "pass")).ok
    # the rest of the privates are bought in turn, cheapest first; the BO's buyer then sets the B&O par
    r = None
    bought_alone = False  # the MH bought with `/private buy` and nothing else (checked below that it came up)
    while (await state(svc))[1].round.selling_privates((await state(svc))[1]):
        _row, game = await state(svc)
        who = USERS[game.current_entity]
        cheapest = game.round.unsold(game)[0]
        if cheapest == "MH":  # `/private buy` alone: the one private that may be bought, at its price
            other = next(u for u in USERS.values() if u != who)
            refused = await do(svc, other, "private buy")
            assert not refused.ok and refused.text.startswith("It is not your turn."), refused.text
            r = await do(svc, who, "private buy")
            assert r.ok and "MH" in r.text, r.text
            assert (await state(svc))[1].companies["MH"].owner == who.name
            bought_alone = True
            continue
        r = await do(svc, who, "private buy", company=cheapest, price=game.rules.private_price(game, cheapest))
        assert r.ok, r.text
    assert bought_alone
    _row, game = await state(svc)
    owner = game.companies["BO"].owner
    assert game.current_entity == owner
    none = await do(svc, USERS[owner], "private buy")  # the auction is over: nothing to buy, though it is her turn
    assert not none.ok and "There is no private you can buy now." in none.text, none.text
    pars = await svc.autocomplete(CH, USERS[owner], "stock par", "price", "", {"corporation": "B&O"})
    assert sorted(c.value for c in pars) == [67, 71, 76, 82, 90, 100]
    # the prompt offers the six pars in a menu too
    assert r is not None
    menu = next(c for row in r.all()[-1].components for c in row if isinstance(c, Select))
    assert sorted(str(o.label) for o in menu.options) == sorted(f"Start B&O at ${p}" for p in (67, 71, 76, 82, 90, 100))
    value = next(o.value for o in menu.options if str(o.label) == "Start B&O at $90")
    after = await svc.click(CH, GUILD, USERS[owner], menu.custom_id, [value])
    assert after.ok, after.text
    assert (await state(svc))[1].price("B&O") == 90
    # seven corporations at six prices do not fit one menu: a menu of corporations, each answered with its pars
    _row, game = await state(svc)
    now, other = USERS[game.current_entity], next(u for n, u in USERS.items() if n != game.current_entity)
    corps = next(c for row in after.all()[-1].components for c in row if isinstance(c, Select)
                 and str(c.placeholder) == "Start a corporation…")
    assert [o.value for o in corps.options] == ["PRR", "NYC", "CPR", "C&O", "ERIE", "NYNH", "B&M"]
    refused = await svc.click(CH, GUILD, other, corps.custom_id, ["PRR"])
    assert not refused.ok and refused.text.startswith("It is not your turn."), refused.text
    asked = await svc.click(CH, GUILD, now, corps.custom_id, ["PRR"])
    assert asked.ok and asked.ephemeral, asked.text
    prices = next(c for row in asked.components for c in row if isinstance(c, Select))
    assert [str(o.label) for o in prices.options] == [f"Start PRR at ${p}" for p in (67, 71, 76, 82, 90, 100)]
    chosen = await svc.click(CH, GUILD, now, prices.custom_id, [prices.options[3].value])
    assert chosen.ok and "starts PRR at $82" in chosen.text, chosen.text
    # nobody buys more: no corporation floats, so the operating round is the privates' income alone and the next
    # stock round starts in the same move; each summary closes its own round
    last = None
    while (game := (await state(svc))[1]).round.kind == "stock" and game.round.number == 1:
        last = await do(svc, USERS[game.current_entity], "pass")
        assert last.ok, last.text
    assert last is not None
    text = last.full_text()
    order = [text.index(s) for s in ("End of SR 1", "Operating round 1.1 begins", "receives $",
                                     "End of the operating rounds", "No corporation operated", "Stock round 2 begins")]
    assert order == sorted(order), text


def test_the_diesel_trade_in_is_offered_by_train_buy_autocomplete() -> None:
    g = diesel_position()
    mine = [a for a in legal(g) if a["entity"] == "PRR"]
    choices = _legal_choices(g, "train buy", "exchange", {"train": "D-0"}, mine)
    # its one 4-train: no id ("trading in its 4-train 4-0" showed one the players never see)
    assert [c.value for c in choices] == ["4-0"] and str(choices[0].name).endswith("trading in its 4-train)")
    act = next(a for a in mine if a.get("exchange"))
    assert decode_action(encode_action(act))["exchange"] == "4-0"


def test_the_mh_exchange_is_offered_by_private_use() -> None:
    g = to_operating(engine_game())
    while g.round.kind == "operating":
        nxt = [a for a in legal(g) if a["type"] == "pass"] or legal(g)
        g.process(nxt[0])
    while g.current_entity != g.companies["MH"].owner:
        g.process({"type": "pass", "entity": g.current_entity})
    mine = [dump_action(a) for a in g.legal_actions()]
    choices = _legal_choices(g, "private use", "ability", {}, mine)
    assert any("MH: Exchange for a share of NYC from the IPO" in str(c.name) for c in choices)


async def test_the_mh_owner_exchanges_it_between_other_players_turns(svc: Service) -> None:
    g = to_operating(engine_game())
    while g.round.kind == "operating":
        g.process(([a for a in legal(g) if a["type"] == "pass"] or legal(g))[0])
    while g.current_entity == g.companies["MH"].owner:
        g.process({"type": "pass", "entity": g.current_entity})
    owner, turn = USERS[g.companies["MH"].owner], g.current_entity
    r = await do(svc, ALICE, "game import", file=as_file(write_record(g)))
    assert r.ok, r.full_text()
    for u in (ALICE, BOB, CAROL):
        r = await svc.click(CH, GUILD, u, claim_menu(r).custom_id, [u.name])
        assert r.ok, r.full_text()
        if u is not CAROL:
            continue
        # the prompt is for the player whose turn it is: the exchange is not in its menus
        menus = [c for m in r.all() for row in m.components for c in row if hasattr(c, "options")]
        assert menus and not any("MH" in str(o.label) for m in menus for o in m.options)
    offered = await svc.autocomplete(CH, owner, "private use", "ability", "")
    exchange = next(c for c in offered if "MH: Exchange for a share of NYC from the IPO" in str(c.name))
    r = await do(svc, owner, "private use", ability=exchange.value)
    assert r.ok, r.full_text()
    _row, game = await state(svc)
    assert game.companies["MH"].closed and game.shares_held(owner.name, "NYC") == 1
    assert game.current_entity == turn


async def test_a_private_bought_from_another_player_in_a_stock_round_is_an_offer_to_its_owner(svc: Service) -> None:
    """1830 lets players trade privates in a stock round: the buyer offers, for themselves (no corporation is
    named), and the owner accepts or declines."""
    import random

    from engine.selfplay import choose

    g = to_operating(engine_game())
    rng = random.Random(2)

    def trade(game: Any) -> dict[str, Any] | None:
        return next((a for a in legal(game) if a["type"] == "buy_company" and a["entity"] in USERS
                     and game.companies[a["company"]].owner not in (None, a["entity"])
                     and game.companies[a["company"]].owner in USERS), None)

    while trade(g) is None:
        g.process(choose(rng, [a for a in g.legal_actions() if a.type != "buy_company"] or g.legal_actions(), g))
    offer = trade(g)
    assert offer is not None
    owner = USERS[g.companies[offer["company"]].owner]
    r = await do(svc, ALICE, "game import", file=as_file(write_record(g)))
    for u in (ALICE, BOB, CAROL):
        r = await svc.click(CH, GUILD, u, claim_menu(r).custom_id, [u.name])
        assert r.ok, r.full_text()
    r = await do(svc, USERS[offer["entity"]], "private buy", company=offer["company"], price=offer["price"])
    assert r.ok and r.mentions == [owner.id], r.full_text()
    assert r.text.endswith(f"for {owner.name}'s private {offer['company']}. <@{owner.id}>, as its owner, do you "
                           "accept?"), r.text
    accept = next(c for m in r.all() for row in m.components for c in row if str(c.label) == "Accept")
    assert (await svc.click(CH, GUILD, owner, accept.custom_id)).ok
    assert (await state(svc))[1].companies[offer["company"]].owner == offer["entity"]


def test_routes_written_by_name_and_refused_by_what_is_wrong(tmp_path: Path, capsys: Any) -> None:
    """A whole game's first turns in the simulator, to NYNH's routes (a thoughtful playtest's): "G19-E19" skips the
    town of New Haven, but the refusal was the first reading's, through New York's other city ("the route has no NYNH
    station"); "New York", "NY" and "New Haven", parts of the printed double names and the label, were no places."""
    from bot.local import main

    played = (Path(__file__).parent / "data" / "1830-nynh-at-its-routes.txt").read_text(encoding="utf-8")
    script = tmp_path / "game.txt"
    script.write_text(played + "\n".join([
        '!@alice /train run routes:"G19-E19"',
        '!@alice /train run routes:"Nw York-Albany"',
        '@alice /train run routes:"NY-New Haven-Albany"',
        '@alice /train run routes:"New York-Hartford-Albany"']) + "\n", encoding="utf-8")
    assert main(["--script", str(script), "--db", str(tmp_path / "g.sqlite3"), "--out", str(tmp_path / "p"),
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    tail = out[out.rindex('/train run routes:"G19-E19"'):]
    assert "3-train: no track from New York & Newark (G19-1) to Albany (E19) without passing another stop" in tail
    assert "has no NYNH station" not in tail
    assert "Nw York is not a hex id or the name of a place on the map; did you mean New York or Newark?" in tail
    assert tail.count("3-train: New York & Newark–New Haven & Hartford–Albany $100") == 2, tail


def test_a_pass_at_a_run_that_earns_nothing_runs_the_trains(tmp_path: Path, capsys: Any) -> None:
    """B&O's trains reach no second stop: "No route earns anything: the trains run for $0", and `/pass` was refused
    ("B&O is at the run trains step"); the engine has no pass there, so the bot runs the trains for nothing."""
    from bot.local import main

    played = (Path(__file__).parent / "data" / "1830-bo-runs-for-nothing.txt").read_text(encoding="utf-8")
    script = tmp_path / "game.txt"
    script.write_text(played + "@alice /pass\n", encoding="utf-8")
    assert main(["--script", str(script), "--db", str(tmp_path / "g.sqlite3"), "--out", str(tmp_path / "p"),
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    tail = out[out.rindex("No route earns anything: the trains run for $0."):]
    assert "B&O has no route to run." in tail and "B&O earns nothing" in tail, tail
