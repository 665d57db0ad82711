"""The service end to end on a real SQLite file: lifecycle, sealed bids, stock and operating rounds, restart,
authorisation, reminders, concurrency, undo/redo, game end. Everything is real (engine, storage, pictures)."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.commands import encode_action, parse_custom_id
from bot.reminders import due_notices
from bot.service import Button, Reply, Select, Service, User
from engine.actions import parse_action
from engine.game import seat_order
from engine.selfplay import choose

CH = 100  # channel
GUILD = 7
ALICE, BOB, CAROL = User(1, "alice"), User(2, "bob"), User(3, "carol")
DAVE = User(4, "dave")  # not seated
MOD = User(5, "mod", is_admin=True)  # Manage Server
USERS = {u.name: u for u in (ALICE, BOB, CAROL)}
SEED = 42
HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def svc(tmp_path: Path, clock: Clock) -> Any:
    service = await Service.open(str(tmp_path / "bot.sqlite3"), now=clock, seed_source=lambda: SEED)
    yield service
    await service.close()


async def do(svc: Service, who: User, path: str, **opts: Any) -> Reply:
    return await svc.handle(CH, GUILD, who, path, opts)


async def new_game(svc: Service, images: str = "request", **create: Any) -> None:
    r = await do(svc, ALICE, "game create", title="18FL", images=images, **create)
    assert r.ok, r.text
    for u in (BOB, CAROL):
        r = await do(svc, u, "game join")
        assert r.ok, r.text
    r = await do(svc, ALICE, "game start")
    assert r.ok, r.text


async def state(svc: Service) -> Any:
    cur = await svc.current_game(CH)
    assert cur is not None
    return cur


async def act(svc: Service, action: dict[str, Any]) -> Reply:
    """Send a legal action as the player who decides for its entity."""
    _row, game = await state(svc)
    player = game.player_for(action["entity"])
    return await do(svc, USERS[player], "act", action=encode_action(action))


async def play_random(svc: Service, steps: int, rng: random.Random, until: str | None = None) -> list[Reply]:
    replies = []
    for _ in range(steps):
        cur = await svc.current_game(CH)
        if cur is None:
            break
        row, game = cur
        if until is not None and game.round.kind == until:
            break
        legal = svc.legal(row.id, game)
        a = choose(rng, [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
        r = await act(svc, a)
        assert r.ok, (a, r.text)
        replies.append(r)
    return replies


async def finish_draft(svc: Service) -> None:
    for u, price in ((ALICE, 10), (BOB, 5), (CAROL, 0)):
        assert (await do(svc, u, "private bid", price=price)).ok
    for _ in range(3):
        _row, game = await state(svc)
        chooser = game.acting_players()[0]
        r = await do(svc, USERS[chooser], "private pick", company=game.round._open(game)[0])
        assert r.ok, r.text


def check_components(reply: Reply) -> None:
    for msg in reply.all():
        assert len(msg.components) <= 5
        for row in msg.components:
            assert 1 <= len(row) <= 5
            assert not (len(row) > 1 and any(isinstance(c, Select) for c in row))
            for c in row:
                assert len(c.custom_id) <= 100 and parse_custom_id(c.custom_id) is not None
                if isinstance(c, Select):
                    assert 1 <= len(c.options) <= 25
                    assert all(len(o.value) <= 100 and len(o.label) <= 100 for o in c.options)
                else:
                    assert 1 <= len(c.label) <= 80


def button(reply: Reply, label_part: str) -> Button:
    for msg in reply.all():
        for row in msg.components:
            for c in row:
                if isinstance(c, Button) and label_part in c.label:
                    return c
    raise AssertionError(f"no button {label_part!r} in {reply.full_text()!r}")


# -- lifecycle -----------------------------------------------------------------------------------------------


async def test_lifecycle_create_join_leave_start(svc: Service) -> None:
    r = await do(svc, ALICE, "game create", title="18fl", reminder_hours=6)
    assert r.ok and "18FL" in r.text and "6 h" in r.text
    assert not (await do(svc, BOB, "game create", title="18FL")).ok  # one game per channel
    assert not (await do(svc, ALICE, "game join")).ok  # the creator is seated already
    assert (await do(svc, BOB, "game join")).ok
    refused = await do(svc, CAROL, "game join", name="bob")
    assert not refused.ok and refused.ephemeral and "already called bob" in refused.text
    assert not (await do(svc, CAROL, "game join", name="SAL")).ok  # a corporation's name
    assert (await do(svc, CAROL, "game join")).ok
    assert (await do(svc, CAROL, "game leave")).ok
    assert (await do(svc, CAROL, "game join")).ok
    assert not (await do(svc, DAVE, "game start")).ok  # not seated, not admin
    lobby = await do(svc, DAVE, "game status")
    assert "Gathering players — seated: alice, bob, carol." in lobby.full_text(), lobby.full_text()
    r = await do(svc, BOB, "game start")
    assert r.ok
    order = seat_order(["alice", "bob", "carol"], SEED)
    ids = {"alice": 1, "bob": 2, "carol": 3}
    expected = "  ".join(f"{i}. <@{ids[n]}>" for i, n in enumerate(order, 1))
    assert expected in r.text and f"seed {SEED}" in r.text
    assert sorted(r.mentions) == [1, 2, 3]  # everyone must bid
    assert not (await do(svc, DAVE, "game join")).ok  # started
    status = await do(svc, DAVE, "game status")
    assert "Waiting for sealed bids" in status.full_text()
    check_components(r)


async def test_title_options_and_unknown_title(svc: Service) -> None:
    assert "Unknown title" in (await do(svc, ALICE, "game create", title="1889")).text
    assert "no option" in (await do(svc, ALICE, "game create", title="18FL", options="bogus")).text
    r = await do(svc, ALICE, "game create", title="18FL", options="two_player_share_limit")
    assert r.ok
    for u in (BOB, CAROL):
        await do(svc, u, "game join")
    refused = await do(svc, ALICE, "game start")  # the option is for two players only
    assert not refused.ok and "two-player" in refused.text
    assert "`/game settings options:`" in refused.text  # and how to change it
    choices = await svc.autocomplete(CH, ALICE, "game create", "options", "two")
    assert [c.value for c in choices] == ["two_player_share_limit"]
    choices = await svc.autocomplete(CH, ALICE, "game settings", "options", "two")
    assert [c.value for c in choices] == ["two_player_share_limit"]

    # the options change in the lobby, by the creator (or an administrator), and the start follows them
    assert "options two_player_share_limit," in (await do(svc, BOB, "game settings")).text
    r = await do(svc, BOB, "game settings", options="none")
    assert not r.ok and "Only the game's creator (alice)" in r.text
    r = await do(svc, ALICE, "game settings", options="bogus")
    assert not r.ok and "no option 'bogus'" in r.text
    r = await do(svc, ALICE, "game settings", options="none")
    assert r.ok and "options: none" in r.text, r.text
    assert (await do(svc, ALICE, "game settings", options="two_player_share_limit")).ok
    assert (await do(svc, ALICE, "game settings", options="なし")).ok  # "none" as Japanese players write it
    row = await svc.store.active_game(CH)
    assert row is not None and row.options == {}
    started = await do(svc, ALICE, "game start")
    assert started.ok, started.text
    r = await do(svc, ALICE, "game settings", options="two_player_share_limit")
    assert not r.ok and "has started: it is played by the options it started with (none)" in r.text


# -- draft and stock round ---------------------------------------------------------------------------------


async def test_sealed_bids_stay_secret_until_all_are_in(svc: Service) -> None:
    await new_game(svc)
    prices = [c.value for c in await svc.autocomplete(CH, BOB, "private bid", "price")]
    assert prices == [0, 5, 10]
    r = await do(svc, ALICE, "private bid", price=10)
    assert r.ok and r.ephemeral and "$10" in r.text
    public = r.followups[0]
    log_part = public.text.split("➡️")[0]  # the prompt after it lists the allowed amounts
    assert not public.ephemeral and "alice has made a sealed bid" in log_part and "$10" not in log_part
    assert not (await do(svc, ALICE, "private bid", price=5)).ok  # one bid each
    history = await do(svc, BOB, "view history")
    assert "alice has made a sealed bid." in history.text and "alice $10" not in history.text
    # the bid buttons are for whoever clicks and stay usable while bidding goes on
    bid5 = button(r, "Bid $5")
    r2 = await svc.click(CH, GUILD, BOB, bid5.custom_id)
    assert r2.ok and r2.ephemeral and "$5" in r2.text and "$5" not in r2.followups[0].text.split("➡️")[0]
    undo_text = (await do(svc, BOB, "undo")).text  # bob's own last action: at once, amount not shown
    assert "bob's sealed bid" in undo_text and "$5" not in undo_text.split("➡️")[0]
    assert (await svc.click(CH, GUILD, BOB, bid5.custom_id)).ok
    last = await do(svc, CAROL, "private bid", price=0)
    assert "Bids revealed: " in last.followups[0].text
    reveal = last.followups[0].text
    assert "alice $10" in reveal and "bob $5" in reveal and "carol $0" in reveal
    assert "<@1>" in reveal and last.followups[0].mentions == [1]  # alice chooses first


async def test_stock_round_summary_and_views(svc: Service) -> None:
    await new_game(svc)
    await finish_draft(svc)
    row, game = await state(svc)
    assert game.round.kind == "stock"
    first = game.acting_players()[0]
    assert not (await do(svc, USERS[first], "stock par", corporation="SAL", price=71)).ok
    pars = await svc.autocomplete(CH, USERS[first], "stock par", "price", "", {"corporation": "SAL"})
    assert pars and all(isinstance(c.value, int) for c in pars)
    r = await do(svc, USERS[first], "stock par", corporation="SAL", price=70)
    assert r.ok and "starts SAL at $70" in r.text
    check_components(r)
    players = await do(svc, DAVE, "view players")
    assert players.ephemeral and "SAL" in players.full_text()
    corps = await do(svc, ALICE, "view corporations", share=True)
    assert not corps.ephemeral and "SAL — Seaboard Air Line" in corps.full_text()
    replies = await play_random(svc, 60, random.Random(1), until="operating")
    summary = "\n".join(x.full_text() for x in replies)
    assert "End of SR 1" in summary and "holds the Priority Deal" in summary
    # the summary closes the stock round: it comes before the operating round's first lines
    text = next(x.text for x in replies if "End of SR 1" in x.text)
    if "Operating round" in text:
        assert text.index("End of SR 1") < text.index("Operating round")


# -- operating rounds, pictures ------------------------------------------------------------------------------


async def test_operating_turns_post_map_market_and_routes(svc: Service) -> None:
    await new_game(svc, images="turn")
    replies = await play_random(svc, 170, random.Random(3))
    texts_all = "\n".join(r.full_text() for r in replies)
    assert " lays #" in texts_all and " runs " in texts_all and "End of the operating rounds" in texts_all
    names = [p.name for r in replies for m in r.all() for p in m.pictures]
    assert any(n.endswith("-map.png") for n in names)
    assert any(n.endswith("-market.png") for n in names)
    assert any(n.endswith("-routes.png") for n in names)
    for r in replies:
        check_components(r)
    # render one map and one routes picture for real
    routes = next(r for r in replies if any(p.name.endswith("-routes.png") for m in r.all() for p in m.pictures))
    only = Reply(pictures=[p for m in routes.all() for p in m.pictures if p.name.endswith("-routes.png")][:1])
    await svc.render(only)
    name, data = only.files[0]
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and max(img.size) >= 1000 and len(data) < 600_000


async def play_to_routes_step(svc: Service) -> tuple[Any, Any]:
    """A new game played at random (seed 5) up to the first run-trains step: its row and game."""
    await new_game(svc)
    rng = random.Random(5)
    for _ in range(400):
        row, game = await state(svc)
        legal = svc.legal(row.id, game)
        if any(a["type"] == "run_routes" for a in legal):
            break
        a = choose(rng, [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
        assert (await act(svc, a)).ok
    else:
        pytest.fail("no routes step reached")
    return row, game


async def test_routes_command_shows_picture_and_confirm_button(svc: Service) -> None:
    row, game = await play_to_routes_step(svc)
    corp = game.current_entity
    pres = USERS[game.player_for(corp)]
    other = next(u for u in USERS.values() if u != pres)
    shown = await do(svc, other, "train run")  # anyone may look
    assert shown.ok and "Best routes" in shown.text and shown.pictures
    run = button(shown, "Run trains")
    assert not (await svc.click(CH, GUILD, other, run.custom_id)).ok  # only the president confirms
    done = await svc.click(CH, GUILD, pres, run.custom_id)
    assert done.ok and f"{corp} runs" in done.text
    again = await svc.click(CH, GUILD, pres, run.custom_id)
    assert not again.ok and "moved on" in again.text


async def test_players_give_their_own_routes(svc: Service) -> None:
    """Issue 11 item 4: `/train run routes:` takes the stops by hex id or name, checks them with the engine's route
    rules (a refusal says which route, stop or train and why, and changes nothing), shows the revenue with a button
    that runs them, and `confirm` runs them at once."""
    row, game = await play_to_routes_step(svc)
    corp = game.current_entity
    pres = USERS[game.player_for(corp)]
    other = next(u for u in USERS.values() if u != pres)
    best = game.round.best(game)
    assert best.routes
    by_hex = "; ".join("-".join(s.hex.lower() for s in r.stops) for r in best.routes)
    by_name = "; ".join(" – ".join(str(game.rules.stop_name(game, s)) for s in r.stops) for r in best.routes)
    n = len(game.actions)
    owned = len(game.trains_of(corp))
    for text, why in (("ZZ99-" + by_hex, "Route 1: ZZ99 is not a hex id or the name of a place on the map"),
                      (by_hex.split("-")[0], "Route 1: a route needs at least two stops"),
                      ("; ".join([by_hex] * 9), f"{corp} has " + ("one train" if owned == 1 else f"{owned} trains"))):
        refused = await do(svc, pres, "train run", routes=text)
        assert not refused.ok and why in refused.text and "Sorry" not in refused.text, refused.text
    first = best.routes[0].stops
    twice = "-".join(s.hex for s in (*first, first[0]))
    refused = await do(svc, pres, "train run", routes=twice)
    # the train as players call it, not its id ("train 2-0")
    kind = game.train(best.routes[0].train).variant
    assert not refused.ok and f"the {kind}-train visits" in refused.text, refused.text
    assert len((await state(svc))[1].actions) == n
    shown = await do(svc, other, "train run", routes=by_name)  # anyone may look; names work as hex ids do
    assert shown.ok and shown.ephemeral and "Your routes:" in shown.text and shown.pictures, shown.text
    assert f"Total {game.fmt(best.revenue)}" in shown.text
    run = button(shown, "Run these routes")
    assert not (await svc.click(CH, GUILD, other, run.custom_id)).ok  # only the president runs them
    done = await svc.click(CH, GUILD, pres, run.custom_id)
    assert done.ok and f"{corp} runs" in done.text, done.text
    _row, game = await state(svc)
    assert game.round.revenue == best.revenue and len(game.actions) == n + 1
    again = await svc.click(CH, GUILD, pres, run.custom_id)
    assert not again.ok and "moved on" in again.text


async def test_a_prompt_whose_routes_are_not_proven_searches_longer_and_runs_what_it_shows(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11: when the engine's answer within its default budget is not proven best, the prompt searches again
    with a longer budget (in the worker thread that prepares it) and shows that answer; the run button then runs the
    routes shown, not the engine's own shorter answer."""
    import engine.routes
    from bot.service import table

    monkeypatch.setattr(engine.routes, "DEFAULT_BUDGET", 1)
    monkeypatch.setattr(table, "LONGER_SEARCH", 1 << 40)
    row, game = await play_to_routes_step(svc)
    rng = random.Random(5)
    for _ in range(600):  # on to a run-trains step where one step of search does not find the maximum
        legal = svc.legal(row.id, game)
        if any(a["type"] == "run_routes" for a in legal):
            quick, exact = game.round.best(game), game.round.best(game, budget=1 << 40)
            if quick.routes != exact.routes:
                break
        a = choose(rng, [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
        assert (await act(svc, a)).ok
        row, game = await state(svc)
    else:
        pytest.fail("no run-trains step where the search needs more than one step")
    corp = game.current_entity
    pres = USERS[game.player_for(corp)]
    assert not quick.proven and exact.proven
    shown = await do(svc, pres, "train run")
    assert shown.ok and "Best routes:" in shown.text and "not proven" not in shown.text, shown.text
    assert f"Total {game.fmt(exact.revenue)}" in shown.text
    done = await svc.click(CH, GUILD, pres, button(shown, "Run trains").custom_id)
    assert done.ok and f"{corp} runs" in done.text, done.text
    _row, game = await state(svc)
    assert game.round.revenue == exact.revenue
    assert [r.stops for r in game.round.last_routes[corp].routes] == [r.stops for r in exact.routes]


async def test_routes_given_with_confirm_run_at_once_and_the_unproven_hint_says_how(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.routes

    row, game = await play_to_routes_step(svc)
    corp = game.current_entity
    pres = USERS[game.player_for(corp)]
    best = game.round.best(game)
    by_hex = "; ".join("-".join(s.hex for s in r.stops) for r in best.routes)
    monkeypatch.setattr(engine.routes, "DEFAULT_BUDGET", 0)
    svc._best.clear()
    game.round._best = None
    shown = await do(svc, pres, "train run")
    assert shown.ok and "not proven best" in shown.text and "/train run routes:" in shown.text, shown.text
    done = await do(svc, pres, "train run", routes=by_hex, confirm=True)
    assert done.ok and f"{corp} runs" in done.text, done.text
    assert (await state(svc))[1].round.revenue == best.revenue


# -- restart -------------------------------------------------------------------------------------------------


async def test_restart_resumes_exactly(tmp_path: Path, clock: Clock) -> None:
    path = str(tmp_path / "restart.sqlite3")
    first = await Service.open(path, now=clock, seed_source=lambda: SEED)
    await new_game(first)
    await play_random(first, 120, random.Random(11))
    row, game = await state(first)
    before = (len(game.actions), game.describe_turn(), first.legal(row.id, game), game.result())
    await first.close()
    second = await Service.open(path, now=clock, seed_source=lambda: SEED)
    try:
        row2, game2 = await second.current_game(CH) or (None, None)
        assert row2 is not None and game2 is not None
        assert (len(game2.actions), game2.describe_turn(), second.legal(row2.id, game2), game2.result()) == before
        assert (await do(second, ALICE, "game settings", reminder_hours=3)).ok  # a cold load inside a settings change
        await play_random(second, 10, random.Random(12))  # and play goes on
    finally:
        await second.close()


# -- authorisation -------------------------------------------------------------------------------------------


async def test_authorisation(svc: Service) -> None:
    await new_game(svc)
    r = await do(svc, DAVE, "private bid", price=5)
    assert not r.ok and r.ephemeral and "not playing" in r.text
    await finish_draft(svc)
    _row, game = await state(svc)
    first = game.acting_players()[0]
    wrong = next(u for u in USERS.values() if u.name != first)
    r = await do(svc, wrong, "pass")
    assert not r.ok and "not your turn" in r.text
    # acting for someone else's entity through an encoded action is refused too
    r = await do(svc, wrong, "act", action=f"pass|{first}")
    assert not r.ok and "only act for yourself" in r.text
    assert not (await do(svc, BOB, "game replace", player="carol", user=DAVE)).ok  # not admin
    r = await do(svc, MOD, "game replace", player="carol", user=DAVE)
    assert r.ok and "<@4>" in r.text
    assert "not playing" in (await do(svc, CAROL, "pass")).text
    r = await do(svc, DAVE, "view players")
    assert r.ok and "carol" in r.full_text()  # the seat keeps its name
    assert not (await do(svc, BOB, "game abandon")).ok
    assert not (await do(svc, MOD, "game kick", player="bob")).ok  # only before the start


async def test_admin_abandon_needs_confirmation(svc: Service) -> None:
    await new_game(svc)
    r = await do(svc, ALICE, "game abandon")  # the creator is an admin of her game
    assert r.ok and r.ephemeral
    yes = button(r, "Abandon")
    assert not (await svc.click(CH, GUILD, BOB, yes.custom_id)).ok
    assert (await do(svc, BOB, "game status")).full_text().count("Game #1") == 1  # still there
    done = await svc.click(CH, GUILD, ALICE, yes.custom_id)
    assert done.ok and "abandoned" in done.text
    assert "abandoned" in (await do(svc, BOB, "game finished")).text
    assert (await do(svc, BOB, "game create", title="18FL")).ok  # the channel is free


async def test_unknown_error_gives_apology_and_changes_nothing(svc: Service, caplog: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    await new_game(svc)

    async def broken(*_args: Any) -> Reply:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(svc, "_view", broken)
    r = await do(svc, ALICE, "view history")
    assert not r.ok and r.ephemeral and "Sorry" in r.text and "Traceback" not in r.text
    assert any("game 1" in rec.getMessage() for rec in caplog.records)
    monkeypatch.undo()
    assert (await do(svc, ALICE, "private bid", price=5)).ok


async def test_bad_values_are_refused_at_the_command_table(svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16 items 5 and 6: wrong types and sizes are refusals, not internal errors, and no error in one channel
    evicts another channel's game; an undo of zero or fewer actions is refused and keeps the reminder timer."""
    await new_game(svc)
    _row, game = await state(svc)
    reminder = await svc.store.reminder(1)
    bad = [("view history", {"lines": "x"}), ("undo", {"count": "x"}), ("undo", {"count": 0}),
           ("undo", {"count": -3}), ("token place", {"hex": "F21", "city": 2**70}), ("private bid", {"price": True}),
           ("view history", {"lines": 10**30}), ("game create", {"title": "18FL" * 100}),
           ("pass", {"bogus": 1}), ("game settings", {"reminder_hours": float("nan")})]
    for path, opts in bad:
        r = await do(svc, ALICE, path, **opts)
        assert not r.ok and r.ephemeral and "Sorry" not in r.text and "Nothing was changed" in r.text, (path, r.text)
        assert (await state(svc))[1] is game  # still the cached game: nothing evicted
    assert await svc.store.reminder(1) == reminder
    # a click naming another channel's game (or a game id beyond 64 bits) leaves that game's cache alone
    other = await svc.handle(CH + 1, GUILD, DAVE, "game create", {"title": "18FL"})
    assert other.ok
    for gid in (2, 2**70):
        r = await svc.click(CH, GUILD, ALICE, f"sm:{gid}:1x0000:a:pass|alice")
        assert not r.ok and "Sorry" not in r.text
    assert (await state(svc))[1] is game

    async def broken(*_args: Any) -> Reply:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(svc, "_action_click", broken)
    r = await svc.click(CH + 1, GUILD, DAVE, "sm:1:1x0000:a:pass|alice")  # an error in another channel
    assert not r.ok
    assert (await state(svc))[1] is game


async def test_settings_are_all_or_nothing_for_the_creator_and_announced(svc: Service) -> None:
    """Issue 16 items 3 and 9: a refused settings change writes nothing; only the creator or an administrator
    changes the game's settings (others are told the settings and who can); every change is public."""
    await new_game(svc)
    before = await svc.store.game(1)
    seats = await svc.store.players(1)
    for opts in ({"dm": True, "reminder_hours": 5000}, {"dm": True, "images": "always"}):
        r = await do(svc, ALICE, "game settings", **opts)
        assert not r.ok and "Sorry" not in r.text
        assert await svc.store.game(1) == before and await svc.store.players(1) == seats
    r = await do(svc, BOB, "game settings", reminder_hours=3, dm=True)
    assert not r.ok and "Only the game's creator (alice)" in r.text and "reminders 12 h" in r.text.replace("hours", "h")
    assert await svc.store.players(1) == seats
    r = await do(svc, BOB, "game settings", dm=True)  # a player's own reminders are theirs
    assert r.ok and not r.ephemeral and "bob's reminders come by direct message" in r.text
    for who in (ALICE, MOD):
        r = await do(svc, who, "game settings", reminder_hours=3, images="round")
        assert r.ok and not r.ephemeral and "reminders" in r.text and "pictures" in r.text and who.name in r.text
    row = await svc.store.game(1)
    assert row is not None and row.reminder_interval == 3 * 3600 and row.image_mode == "round"


async def test_replaced_seat_keeps_its_moves(svc: Service) -> None:
    """Issue 16 item 4: after /game replace the seat's earlier moves are the newcomer's to agree to undo."""
    await new_game(svc)
    _row, game = await state(svc)
    first = game.acting_players()[0]
    assert (await do(svc, USERS[first], "private bid", price=0)).ok
    _row, game = await state(svc)
    second = next(n for n in game.acting_players() if n != first)
    assert (await do(svc, USERS[second], "private bid", price=0)).ok
    assert (await do(svc, MOD, "game replace", player=first, user=DAVE)).ok
    ask = await do(svc, USERS[second], "undo", count=2)  # takes back the replaced seat's move too
    assert ask.ok and DAVE.id in ask.mentions and "Do you agree" in ask.text
    assert len((await state(svc))[1].actions) == 2
    r = await svc.click(CH, GUILD, DAVE, button(ask, "Agree").custom_id)
    assert r.ok and len((await state(svc))[1].actions) == 0


async def test_private_buy_defaults_to_the_listed_price_and_never_shows_library_text(svc: Service) -> None:
    """Issue 16 item 8."""
    await new_game(svc)
    r = await do(svc, ALICE, "act", action="buy_company|alice|company=X")
    assert not r.ok and "price is missing" in r.text and "Field required" not in r.text and "pydantic" not in r.text
    r = await do(svc, ALICE, "act", action="frobnicate|alice")
    assert not r.ok and "no kind of move called 'frobnicate'" in r.text


async def test_unloadable_log_is_refused_not_crashed(svc: Service, clock: Clock) -> None:
    await new_game(svc)
    await svc.store.append_action(1, {"type": "par", "entity": "alice", "corporation": "SAL", "price": 70}, 1, clock())
    svc._evict(1)
    r = await do(svc, ALICE, "pass")
    assert not r.ok and "cannot be loaded" in r.text


# -- reminders -----------------------------------------------------------------------------------------------


async def test_reminders_due_repeated_and_not_repeated_after_restart(tmp_path: Path, clock: Clock) -> None:
    path = str(tmp_path / "rem.sqlite3")
    svc = await Service.open(path, now=clock, seed_source=lambda: SEED)
    await new_game(svc, reminder_hours=12)
    await finish_draft(svc)
    _row, game = await state(svc)
    waiting = USERS[game.acting_players()[0]]
    clock.t += 11 * HOUR
    assert await due_notices(svc) == []
    clock.t += 1 * HOUR
    notes = await due_notices(svc)
    assert len(notes) == 1 and notes[0].mentions == [waiting.id] and f"<@{waiting.id}>" in notes[0].text
    assert notes[0].channel_id == CH and notes[0].dm_user_id is None
    assert await due_notices(svc) == []  # once per interval
    clock.t += 12 * HOUR
    assert len(await due_notices(svc)) == 1  # then again each interval
    await svc.close()
    clock.t += 1 * HOUR
    svc = await Service.open(path, now=clock, seed_source=lambda: SEED)
    assert await due_notices(svc) == []  # a restart neither repeats...
    clock.t += 11 * HOUR
    assert len(await due_notices(svc)) == 1  # ...nor loses
    await do(svc, waiting, "game settings", dm=True)
    clock.t += 12 * HOUR
    notes = await due_notices(svc)
    assert notes[0].dm_user_id == waiting.id
    # acting resets the clock; the next player is reminded one interval later
    assert (await do(svc, waiting, "pass")).ok
    clock.t += 6 * HOUR
    assert await due_notices(svc) == []
    clock.t += 6 * HOUR
    assert len(await due_notices(svc)) == 1
    assert (await do(svc, ALICE, "game settings", reminder_hours=0)).ok
    clock.t += 48 * HOUR
    assert await due_notices(svc) == []
    await svc.close()


async def _offer_made(svc: Service) -> tuple[Reply, User, User]:
    """A cross-president train offer made, with reminders every 12 h and a stall told after 2: the offer's post,
    the seller and the buyer."""
    offer = await _cross_president_offer(svc)
    _row, game = await state(svc)
    seller = USERS[game.corps[next(t.owner for t in game.trains if t.id == offer["train"])].president]
    buyer = USERS[game.player_for(offer["entity"])]
    assert (await do(svc, ALICE, "game settings", reminder_hours=12, stall_after=2)).ok
    r = await act(svc, offer)
    assert "do you accept" in r.text
    return r, seller, buyer


async def test_an_open_offer_reminds_the_seller_and_a_stall_names_them(svc: Service, clock: Clock) -> None:
    """While an offer waits for the seller's answer, the game waits for the seller: the reminder goes to them, says
    what it is for, and after `stall_after` reminders the notice names them, not the buyer. A decline gives the
    turn, and the reminders, back to the buyer."""
    r, seller, buyer = await _offer_made(svc)
    clock.t += 12 * HOUR
    notes = await due_notices(svc)
    assert [n.mentions for n in notes] == [[seller.id]]
    assert f"waited 12 h for your answer to {buyer.name}'s offer" in notes[0].text, notes[0].text
    clock.t += 12 * HOUR
    notes = await due_notices(svc)
    assert len(notes) == 2 and notes[0].mentions == [seller.id]
    assert f"{seller.name} (<@{seller.id}>) has not moved after 2 reminders" in notes[1].text, notes[1].text
    r = await svc.click(CH, GUILD, seller, button(r, "Decline").custom_id)
    assert r.ok and "declines the offer" in r.text
    clock.t += 12 * HOUR
    notes = await due_notices(svc)
    assert [n.mentions for n in notes] == [[buyer.id]] and "for your answer" not in notes[0].text


async def test_an_offer_lapses_in_a_restart_and_the_reminders_go_back_to_the_buyer(tmp_path: Path,
                                                                                    clock: Clock) -> None:
    path = str(tmp_path / "offer.sqlite3")
    svc = await Service.open(path, now=clock, seed_source=lambda: SEED)
    r, seller, buyer = await _offer_made(svc)
    await svc.close()
    svc = await Service.open(path, now=clock, seed_source=lambda: SEED)
    try:
        refused = await svc.click(CH, GUILD, seller, button(r, "Accept").custom_id)
        assert not refused.ok and "no longer open" in refused.text
        notes = []
        for _ in range(2):
            clock.t += 12 * HOUR
            notes += await due_notices(svc)
        # the buyer is reminded; no stall notice blames the seller for an offer nobody can answer any more
        assert [n.mentions for n in notes] == [[buyer.id], [buyer.id]], [n.text for n in notes]
    finally:
        await svc.close()


# -- concurrency ---------------------------------------------------------------------------------------------


async def test_two_simultaneous_clicks_apply_once(svc: Service) -> None:
    await new_game(svc)
    await finish_draft(svc)
    _row, game = await state(svc)
    first = USERS[game.acting_players()[0]]
    r = await do(svc, first, "stock par", corporation="SAL", price=70)
    pass_btn = button(r, "Pass")
    nxt = USERS[(await state(svc))[1].acting_players()[0]]
    a, b = await asyncio.gather(svc.click(CH, GUILD, nxt, pass_btn.custom_id),
                                svc.click(CH, GUILD, nxt, pass_btn.custom_id))
    assert sorted([a.ok, b.ok]) == [False, True]
    loser = a if not a.ok else b
    assert loser.ephemeral and "moved on" in loser.text
    _row, game = await state(svc)
    assert sum(1 for x in game.actions if x.type == "pass") == 1


async def test_simultaneous_commands_are_serialised(svc: Service) -> None:
    await new_game(svc)
    replies = await asyncio.gather(*(do(svc, u, "private bid", price=5) for u in (ALICE, BOB, CAROL)))
    assert all(r.ok for r in replies)
    assert sum("Bids revealed" in r.full_text() for r in replies) == 1


# -- undo and redo -------------------------------------------------------------------------------------------


async def test_undo_redo_rules(svc: Service) -> None:
    await new_game(svc)
    await finish_draft(svc)
    row, game = await state(svc)
    p1 = USERS[game.acting_players()[0]]
    assert (await do(svc, p1, "stock par", corporation="SAL", price=70)).ok
    n = len(game.actions)
    r = await do(svc, p1, "undo")  # own last action, nobody acted since: at once
    assert r.ok and "undoes an action" in r.text
    assert len((await state(svc))[1].actions) == n - 1
    assert (await do(svc, p1, "redo")).ok
    assert len((await state(svc))[1].actions) == n
    assert not (await do(svc, p1, "redo")).ok  # nothing left to redo
    p2 = USERS[(await state(svc))[1].acting_players()[0]]
    assert (await do(svc, p2, "pass")).ok
    # p1's undo would take back p2's pass too: p2 must agree
    ask = await do(svc, p1, "undo")
    assert ask.ok and f"<@{p2.id}>" in ask.text and ask.mentions == [p2.id]
    agree = button(ask, "Agree")
    assert not (await svc.click(CH, GUILD, DAVE, agree.custom_id)).ok
    done = await svc.click(CH, GUILD, p2, agree.custom_id)
    assert done.ok and "Everyone agreed" in done.text
    assert len((await state(svc))[1].actions) == n - 1
    # a refusal cancels
    assert (await do(svc, p1, "redo")).ok
    outsider = next(u for u in (BOB, CAROL) if u != p2)  # neither the author nor the game's creator (alice)
    assert not (await do(svc, outsider, "redo")).ok  # p2's pass is next to redo: only p2 or an admin
    assert (await do(svc, p2, "redo")).ok
    ask = await do(svc, p1, "undo")
    refuse = button(ask, "Refuse")
    assert "cancelled" in (await svc.click(CH, GUILD, p2, refuse.custom_id)).text
    assert not (await svc.click(CH, GUILD, p2, button(ask, "Agree").custom_id)).ok
    # after a new action nothing can be redone, and an old undo request is void
    ask = await do(svc, p1, "undo")
    p3 = USERS[(await state(svc))[1].acting_players()[0]]
    assert (await do(svc, p3, "pass")).ok
    assert not (await svc.click(CH, GUILD, p2, button(ask, "Agree").custom_id)).ok
    # an administrator forces an undo without asking
    m = len((await state(svc))[1].actions)
    assert not (await do(svc, BOB if p1 != BOB else CAROL, "undo", force=True)).ok
    r = await do(svc, MOD, "undo", force=True, count=2)
    assert r.ok and len((await state(svc))[1].actions) == m - 2


async def test_a_reminder_names_an_undo_request_waiting_for_votes(svc: Service, clock: Clock) -> None:
    """A move would let the request lapse: the reminder says the table waits for the vote, and mentions the voter."""
    await new_game(svc)
    await finish_draft(svc)
    game = (await state(svc))[1]
    p1 = USERS[game.acting_players()[0]]
    assert (await do(svc, p1, "stock par", corporation="SAL", price=70)).ok
    p2 = USERS[(await state(svc))[1].acting_players()[0]]
    assert (await do(svc, p2, "pass")).ok
    ask = await do(svc, p1, "undo")
    assert ask.ok and ask.mentions == [p2.id]
    clock.t += 13 * HOUR
    notes = await due_notices(svc)
    assert len(notes) == 1, [n.text for n in notes]
    assert f"{p1.name}'s request to undo waits for the vote of <@{p2.id}>" in notes[0].text, notes[0].text
    assert p2.id in notes[0].mentions


# -- game end ------------------------------------------------------------------------------------------------


async def test_admin_end_posts_standings_and_keeps_the_game(svc: Service) -> None:
    await new_game(svc)
    await finish_draft(svc)
    assert not (await do(svc, BOB, "game end")).ok
    ask = await do(svc, MOD, "game end")
    assert ask.ephemeral and "cannot be undone" in ask.text and (await svc.current_game(CH)) is not None
    assert (await svc.click(CH, GUILD, MOD, button(ask, "Keep").custom_id)).text == "Nothing changed."
    assert not (await svc.click(CH, GUILD, BOB, button(ask, "End").custom_id)).ok  # the right person only
    assert (await svc.current_game(CH)) is not None
    r = await svc.click(CH, GUILD, MOD, button(ask, "End").custom_id)
    assert r.ok and "Game over" in r.text and "Final standings" in r.text
    assert "Game over (" not in r.text, r.text  # the log's own line, said again just above the block
    assert any(p.name.endswith("-standings.png") for p in r.pictures)
    await svc.render(r)
    assert any(n.endswith("-standings.png") for n, _ in r.files)
    listing = await do(svc, ALICE, "game finished")
    assert "#1 18FL" in listing.text and "an administrator ended the game" in listing.text
    assert (await svc.current_game(CH)) is None
    status = (await do(svc, BOB, "game status")).embeds[0]  # where the table's game stands: its result
    assert status.title == "Game #1 — 18FL" and status.description == "🏁 Game over — an administrator ended the game."
    fields = dict(status.fields)
    places = fields["Final standings (net worth)"].splitlines()
    assert len(places) == 3 and places[0].startswith("1. ")
    assert "`/game create` starts a new game" in fields["Next"]
    svc._evict(1)
    final = await do(svc, DAVE, "view standings")  # views show the last finished game, replayed from its log
    assert final.ok and "Net worth" in final.text and final.pictures
    assert not (await do(svc, BOB, "pass")).ok


@pytest.mark.slow
async def test_a_whole_game_through_the_service(svc: Service) -> None:
    await new_game(svc, images="turn")
    replies = await play_random(svc, 5000, random.Random(1))
    assert "Game over" in replies[-1].text
    assert (await svc.current_game(CH)) is None
    assert "#1 18FL" in (await do(svc, ALICE, "game finished")).text


def test_left_out_options_are_filled_only_when_the_legal_moves_agree() -> None:
    from bot.service.play import _fill_from_legal

    legal = [{"type": "place_token", "entity": "SAL", "hex": "B23", "city": 1},
             {"type": "place_token", "entity": "SAL", "hex": "G20", "city": 0},
             {"type": "buy_shares", "entity": "bob", "corporation": "SAL", "source": "ipo", "president": False},
             {"type": "buy_shares", "entity": "bob", "corporation": "SAL", "source": "pool", "president": False},
             {"type": "buy_shares", "entity": "bob", "corporation": "FEC", "source": "pool", "president": False},
             {"type": "buy_train", "entity": "SAL", "train": "2-1", "price": 80}]
    from tests.c1830_helpers import game as game_1830
    from tests.c1830_helpers import to_operating

    g = to_operating(game_1830(), "PRR", par=100)  # the IPO sells PRR at its par, the pool at the market price
    legal += [{**x, "corporation": "PRR"} for x in legal if x.get("corporation") == "SAL"]  # both sources
    a = {"type": "place_token", "entity": "SAL", "hex": "B23"}
    _fill_from_legal(g, a, legal)
    assert a["city"] == 1  # the only open city there
    b = {"type": "buy_shares", "entity": "bob", "corporation": "PRR"}
    _fill_from_legal(g, b, legal)
    assert b["source"] == "ipo"  # both possible at one price: the IPO, as players expect
    g.market.move("PRR", 0, -1)  # $90 in the pool, $100 in the IPO: a player saying only "buy" paid $10 more
    b = {"type": "buy_shares", "entity": "bob", "corporation": "PRR"}
    _fill_from_legal(g, b, legal)
    assert b["source"] == "pool"
    g.corps["PRR"].floated = False  # before the float only an IPO share counts toward it: the IPO, whatever the price
    b = {"type": "buy_shares", "entity": "bob", "corporation": "PRR"}
    _fill_from_legal(g, b, legal)
    assert b["source"] == "ipo"
    c = {"type": "buy_shares", "entity": "bob", "corporation": "FEC"}
    _fill_from_legal(g, c, legal)
    assert c["source"] == "pool"  # only the pool has one
    d = {"type": "buy_train", "entity": "SAL", "train": "2-1"}
    _fill_from_legal(g, d, legal)
    assert "price" not in d  # what to pay another corporation is never guessed


async def _cross_president_offer(svc: Service) -> dict[str, Any]:
    """Play on until a corporation may buy a train from another president's: that purchase, at $1."""
    await new_game(svc)
    await finish_draft(svc)
    rng = random.Random(3)
    offer = None
    for _ in range(600):
        row, game = await state(svc)
        buyer = game.current_entity
        if game.round.kind == "operating" and game.round.step == "buy_train" and \
                len(game.trains_of(buyer)) < game.train_limit(buyer) and game.corps[buyer].cash >= 1:
            for other, corp in game.corps.items():
                if other != buyer and corp.president not in (None, game.corps[buyer].president) and \
                        game.trains_of(other):
                    offer = {"type": "buy_train", "entity": buyer, "train": game.trains_of(other)[0].id,
                             "price": 1}
                    break
        if offer:
            break
        legal = [parse_action(x) for x in svc.legal(row.id, game)]
        legal = [a for a in legal if not (a.type == "buy_train" and a.price is not None and
                                          any(t.id == a.train for t in game.trains if t.owner in game.corps))]
        a = choose(rng, legal, game).model_dump(exclude_none=True)
        assert (await act(svc, a)).ok
    assert offer is not None, "no cross-president train sale came up"
    return offer


async def test_train_sale_between_presidents_needs_the_sellers_agreement(svc: Service) -> None:
    offer = await _cross_president_offer(svc)
    row, game = await state(svc)
    seller_corp = next(t.owner for t in game.trains if t.id == offer["train"])
    seller = USERS[game.corps[seller_corp].president]
    n = len(game.actions)
    r = await act(svc, offer)
    assert "do you accept" in r.text and seller.id in r.mentions
    assert len((await state(svc))[1].actions) == n  # nothing applied yet
    accept = button(r, "Accept")
    buyer_player = USERS[game.player_for(offer["entity"])]
    refused = await svc.click(CH, GUILD, buyer_player, accept.custom_id)
    assert not refused.ok and "Only the seller" in refused.text
    done = await svc.click(CH, GUILD, seller, accept.custom_id)
    assert done.ok, done.text
    _row, game = await state(svc)
    assert len(game.actions) == n + 1
    assert any(t.id == offer["train"] for t in game.trains_of(offer["entity"]))


async def test_18al_private_sale_through_the_same_commands(svc: Service) -> None:
    r = await do(svc, ALICE, "game create", title="18AL", images="request")
    assert r.ok, r.text
    for u in (BOB, CAROL):
        assert (await do(svc, u, "game join")).ok
    r = await do(svc, ALICE, "game start")
    assert r.ok and "may buy TR for $20" in r.full_text()
    _row, game = await state(svc)
    first = USERS[game.current_entity]
    choices = await svc.autocomplete(CH, first, "private buy", "company")
    assert [c.value for c in choices] == ["TR"]
    r = await do(svc, first, "private buy", company="TR")  # the price the prompt shows (issue 16 item 8)
    assert r.ok and "$20" in r.text, r.text
    _row, game = await state(svc)
    assert game.companies["TR"].owner == first.name
    r = await do(svc, first, "view corporations")
    assert r.ok


async def test_18al_name_chits_through_private_use(svc: Service) -> None:
    from engine.titles.g18al import state as al_state
    from tests.al_helpers import Plan, in_turn, next_action

    assert (await do(svc, ALICE, "game create", title="18AL", images="request")).ok
    for u in (BOB, CAROL):
        assert (await do(svc, u, "game join")).ok
    assert (await do(svc, ALICE, "game start")).ok
    # the scripted plan, through the same `/act` every player uses: ABC buys the M&C in operating round 5.1
    plan = Plan(privates={"ABC": ("M&C", 100)})
    for _ in range(300):
        _row, game = await state(svc)
        if al_state(game).chit_corp == "ABC" and in_turn("ABC", "routes")(game):
            break
        r = await act(svc, next_action(game, plan))
        assert r.ok, r.text
    assert [t.id for t in game.trains_of("ABC")] == ["2-0", "2-2", "3-0"]
    pres = USERS[game.corps["ABC"].president]
    other = next(u for u in (ALICE, BOB, CAROL) if u != pres)
    choices = await svc.autocomplete(CH, pres, "private use", "ability")
    labels = {c.name: c.value for c in choices}
    assert "M&C: Put the Robert E. Lee on the 3-train" in labels, labels
    assert await svc.autocomplete(CH, other, "private use", "ability") == []
    pick = labels["M&C: Put the Robert E. Lee on the 3-train"]
    refused = await do(svc, other, "private use", ability=pick)
    assert not refused.ok
    r = await do(svc, pres, "private use", ability=pick)
    assert r.ok, r.text
    _row, game = await state(svc)
    assert game.rules.placed_chits(game) == {"Robert E. Lee": "3-0"} and game.current_entity == "ABC"
    view = await do(svc, pres, "view corporations")
    assert "Robert E. Lee on the 3-train" in view.full_text()
    assert "Pan American (on the charter" in view.full_text()


async def test_routes_not_proven_best_are_marked_and_logged(svc: Service, monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """A route search that runs out of its budget still answers, with the best routes it found, marked as such."""
    import engine.routes

    monkeypatch.setattr(engine.routes, "DEFAULT_BUDGET", 0)
    row, game = await play_to_routes_step(svc)
    corp = game.current_entity
    with caplog.at_level("WARNING"):
        shown = await do(svc, USERS[game.player_for(corp)], "train run")
    assert shown.ok and "not proven best" in shown.text and button(shown, "Run trains")
    assert any("not proven" in r.getMessage() and f"game {row.id}" in r.getMessage() for r in caplog.records)


async def test_ids_are_forgiving_and_unknown_ones_get_the_nearest_choices(svc: Service) -> None:
    """Issue 16 item 7: hex ids, corporation and private symbols, tile numbers and train names in any case and
    in the forms players type; an unknown id is refused with the nearest legal choices and nothing changes."""
    await new_game(svc)
    await finish_draft(svc)
    _row, game = await state(svc)
    first = USERS[game.acting_players()[0]]
    n = len(game.actions)
    r = await do(svc, first, "stock par", corporation="sa1", price=70)
    assert not r.ok and "There is no corporation 'sa1'" in r.text and "SAL" in r.text and "Sorry" not in r.text
    assert len((await state(svc))[1].actions) == n
    r = await do(svc, first, "stock par", corporation="sal", price=70)  # any case
    assert r.ok, r.text
    # on to an operating corporation that may lay track and buy a train
    rng = random.Random(5)
    for _ in range(400):
        row, game = await state(svc)
        if getattr(game.round, "step", None) == "track":
            break
        legal = svc.legal(row.id, game)
        a = choose(rng, [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
        assert (await act(svc, a)).ok
    corp = game.current_entity
    president = USERS[game.player_for(corp)]
    r = await do(svc, president, "track lay", hex="zz99", tile="#9", rotation=0)
    assert not r.ok and "There is no hex 'zz99'" in r.text and "Nearest legal choices" in r.text
    r = await do(svc, president, "track lay", hex=list(game.board.hexes)[0].lower(), tile="#zz", rotation=0)
    assert not r.ok and "There is no tile '#zz'" in r.text
    # the nearest choices are those for the hex typed, not tiles legal elsewhere (it offered #9 where only the
    # city's own tile may go)
    lays = [a for a in svc.legal(row.id, game) if a["type"] == "lay_tile" and a["entity"] == corp]
    here = {a["hex"]: {x["tile"] for x in lays if x["hex"] == a["hex"]} for a in lays}
    hex_id = min(here, key=lambda h: (len(here[h]), h))
    assert here[hex_id] != {a["tile"] for a in lays}, "every hex takes the same tiles: nothing to tell apart"
    r = await do(svc, president, "track lay", hex=hex_id, tile="#zz", rotation=0)
    shown = r.text.split("Nearest legal choices: ")[1].split(". Nothing")[0].split(", ")
    assert not r.ok and set(shown) <= here[hex_id], (shown, here[hex_id])
    lays = [h.lower() for h in game.board.hexes]
    tried = 0
    for h in lays:  # the first lay the engine takes, typed the way players type
        for tile in ("#9", "tile 8", "7"):
            for rot in range(6):
                r = await do(svc, president, "track lay", hex=h, tile=tile, rotation=rot)
                tried += 1
                if r.ok:
                    break
            if r.ok:
                break
        if r.ok:
            break
    assert r.ok and "Sorry" not in r.text, tried
    for _ in range(400):
        row, game = await state(svc)
        legal = svc.legal(row.id, game)
        buys = [a for a in legal if a["type"] == "buy_train" and a.get("price")
                and not any(t.id == a["train"] and t.owner for t in game.trains)]
        if buys:
            break
        a = choose(rng, [parse_action(x) for x in legal if x["type"] != "buy_train"] or
                   [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
        assert (await act(svc, a)).ok
    name = next(t.name for t in game.trains if t.id == buys[0]["train"])
    who = USERS[game.player_for(buys[0]["entity"])]
    r = await do(svc, who, "train buy", train="zz train")
    assert not r.ok and "There is no train 'zz train'" in r.text and f"{name} (" in r.text
    r = await do(svc, who, "train buy", train=f"{name} Train")
    assert r.ok, r.text
