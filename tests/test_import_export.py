"""/game import and /game export through the service on a real SQLite file, and in the local simulator, with a
real 18xx.games record (shared/reference/records, beside the repository)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.commands import encode_action, make_custom_id, parse_custom_id
from bot.local import main
from bot.service import Reply, Select, Service, User
from engine import snapshot
from engine.actions import parse_action
from engine.game import Game
from engine.record import from_record, to_record
from engine.records import RecordError, read_record
from engine.selfplay import choose
from engine.titles import new_game
from tests.positions import lays_change_the_run, run_on_two_ways

REPO = Path(__file__).resolve().parents[1]
RECORD = REPO.parent / "shared" / "reference" / "records" / "18FL-2p-short.json"
CH, GUILD = 300, 7
ALICE, BOB, CAROL = User(1, "alice"), User(2, "bob"), User(3, "carol")
DAVE = User(4, "dave")  # imports the record for the others, so he is the game's creator (its administrator)

pytestmark = pytest.mark.skipif(not RECORD.exists(), reason="the reference records are not beside the repository")


def record(cut: int | None = None) -> dict[str, Any]:
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    if cut is not None:
        data["actions"] = data["actions"][:cut]  # a game still in play
    return data


def as_file(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode()


def played(title: str, players: list[str], seed: int, actions: int) -> Game:
    """A game of ``title`` self-played (the seed also drives the choices) to ``actions`` actions."""
    game = new_game(title, players, seed=seed)
    rng = random.Random(seed)
    while len(game.actions) < actions:
        game.process(choose(rng, game.legal_actions(), game))
    return game


@pytest.fixture
async def svc(tmp_path: Path) -> Any:
    service = await Service.open(str(tmp_path / "bot.sqlite3"), now=lambda: 1_000_000.0)
    yield service
    await service.close()


async def do(svc: Service, who: User, path: str, **opts: Any) -> Reply:
    return await svc.handle(CH, GUILD, who, path, opts)


def claim_menu(reply: Reply) -> Select:
    menus = [c for r in reply.all() for row in r.components for c in row if isinstance(c, Select)]
    assert len(menus) == 1, reply.full_text()
    assert parse_custom_id(menus[0].custom_id) is not None
    return menus[0]


async def claim(svc: Service, who: User, menu: Select, seat: str) -> Reply:
    return await svc.click(CH, GUILD, who, menu.custom_id, [seat])


async def test_import_claim_seats_play_on_and_export(svc: Service, tmp_path: Path) -> None:
    data = record(10)
    expected = read_record(copy.deepcopy(data), routes=False).game

    r = await do(svc, ALICE, "game import", file=as_file(data))
    assert r.ok, r.full_text()
    assert "18FL" in r.text and "Player 1, Player 2" in r.text
    menu = claim_menu(r)
    assert [o.value for o in menu.options] == ["Player 1", "Player 2"]

    # the table is the record's: no joining, no fresh start, no second import
    assert not (await do(svc, CAROL, "game join")).ok
    assert not (await do(svc, ALICE, "game start")).ok
    assert not (await do(svc, CAROL, "game import", file=as_file(data))).ok
    assert not (await do(svc, ALICE, "pass")).ok  # not started yet

    r = await claim(svc, ALICE, menu, "Player 1")
    assert r.ok, r.full_text()
    assert "Still to claim: Player 2" in r.text
    menu = claim_menu(r)
    assert [o.value for o in menu.options] == ["Player 2"]
    assert not (await claim(svc, ALICE, menu, "Player 2")).ok  # one seat per member
    assert not (await claim(svc, BOB, menu, "Player 1")).ok  # taken
    status = await do(svc, CAROL, "game status")
    assert "Player 2" in status.full_text()

    r = await claim(svc, BOB, menu, "Player 2")
    assert r.ok, r.full_text()
    assert "continues from the record" in r.text
    # the turn as the engine says it, with the seat named by its member
    assert str(expected.describe_turn()).replace("Player 1", "<@1>").replace("Player 2", "<@2>") in r.full_text()
    assert 1 in r.mentions  # Player 1 (alice) is to act

    cur = await svc.current_game(CH)
    assert cur is not None
    row, game = cur
    assert game.action_log() == expected.action_log()
    assert [p.name for p in game.players] == ["Player 1", "Player 2"]
    assert game.options["rules_profile"] == "18xx.games"
    players = await svc.store.players(row.id)
    assert [(p.name, p.user_id) for p in players] == [("Player 1", 1), ("Player 2", 2)]

    # play continues: the seat's member acts for the record's player
    assert not (await do(svc, BOB, "pass")).ok  # not bob's turn
    r = await do(svc, ALICE, "pass")
    assert r.ok, r.full_text()
    n = len(expected.actions) + 1

    # a restarted service replays the stored log of the imported game
    again = await Service.open(str(tmp_path / "bot.sqlite3"), now=lambda: 1_000_000.0)
    try:
        cur2 = await again.current_game(CH)
        assert cur2 is not None and len(cur2[1].actions) == n

        exported = await again.handle(CH, GUILD, CAROL, "game export", {})
        assert exported.ok, exported.full_text()
        (name, body), = exported.files
        assert name.endswith(".json")
        site = json.loads(body)
        back = read_record(site, routes=False).game
        assert back.action_log() == cur2[1].action_log()

        own = await again.handle(CH, GUILD, CAROL, "game export", {"format": "stationmaster"})
        assert own.ok
        assert from_record(json.loads(own.files[0][1])).action_log() == cur2[1].action_log()
    finally:
        await again.close()


async def test_a_record_exported_from_a_game_played_here_is_imported_and_its_seats_claimed(svc: Service) -> None:
    """A record this bot exported keeps the rulebook's rules profile; imported again (another channel, another
    server), its lobby is an import lobby all the same: the seats are claimed from the menu and play continues. The
    import says which rules the game follows."""
    from engine.records import write_record

    game = played("18FL", ["ann", "ben"], 3, 30)
    r = await do(svc, ALICE, "game import", file=as_file(write_record(game)))
    assert r.ok and "It follows the rulebook (rules profile rulebook)." in r.text, r.full_text()
    r = await claim(svc, ALICE, claim_menu(r), "ann")
    assert r.ok and "Still to claim: ben" in r.text, r.full_text()
    r = await claim(svc, BOB, claim_menu(r), "ben")
    assert r.ok and "continues from the record" in r.text, r.full_text()
    cur = await svc.current_game(CH)
    assert cur is not None
    # the record names the rulebook, the game played here did not: the same game all the same
    assert snapshot.fingerprint(cur[1]) == snapshot.fingerprint(game)


async def test_a_game_played_by_the_rulebook_exports_as_our_record_unless_asked_and_then_checked(svc: Service) -> None:
    """`/game export` said "Load it on 18xx.games" of every game played here, but the site plays by its own
    rules and refused most of them part-way. The default is now our own record, saying why; the site's format,
    asked for, comes checked by the site's rules (our model of them), with the first place they part."""
    from engine.records import write_record

    game = played("18FL", ["ann", "ben"], 1, 30)
    r = await do(svc, ALICE, "game import", file=as_file(write_record(game)))
    r = await claim(svc, BOB, claim_menu(await claim(svc, ALICE, claim_menu(r), "ann")), "ben")
    assert r.ok and "continues from the record" in r.text, r.full_text()
    out = await do(svc, ALICE, "game export")
    (name, body), = out.files
    assert name.endswith("-stationmaster.json") and "follows the rulebook" in out.text, out.text
    out = await do(svc, ALICE, "game export", format="18xx.games")
    (name, body), = out.files
    assert name.endswith("-18xx.games.json") and json.loads(body)["title"] == "18FL"
    assert "by 18xx.games's rules it does not replay as it was played: action 8: lay_tile by TR refused" in out.text


async def test_an_import_says_where_our_replay_parts_from_the_sites_game(svc: Service) -> None:
    """A pass the site made and ours does not need was put in without a word: the game continued here was then
    not quite the one the site showed."""
    data = json.loads((RECORD.parent / "18FL-4p-bankrupt.json").read_text(encoding="utf-8"))
    data["actions"] = [a for a in data["actions"] if a["id"] != 54]
    r = await do(svc, ALICE, "game import", file=as_file(data))
    assert r.ok and "⚠️ Our replay parts from the game the site showed in 1 place: action 56: passed for L&N at " \
        "token before run_routes (the site had skipped that step)" in r.text, r.text
    r = await svc.handle(CH + 1, GUILD, ALICE, "game import", {"file": as_file(record())})
    assert r.ok and "parts from" not in r.text


async def test_a_finished_record_is_imported_finished_and_exported(svc: Service) -> None:
    data = record()
    r = await do(svc, ALICE, "game import", file=as_file(data))
    assert r.ok, r.full_text()
    menu = claim_menu(r)
    assert (await claim(svc, ALICE, menu, "Player 1")).ok
    r = await claim(svc, BOB, menu, "Player 2")
    assert r.ok, r.full_text()
    assert await svc.current_game(CH) is None  # finished at once
    finished = await svc.store.finished_games(CH)
    assert finished and finished[0].status == "finished"
    out = await do(svc, CAROL, "game export")
    assert out.ok, out.full_text()
    back = read_record(json.loads(out.files[0][1]), routes=False)
    assert back.game.finished
    assert back.result_by_name() == read_record(record(), routes=False).result_by_name()
    # the channel is free again
    assert (await do(svc, CAROL, "game import", file=as_file(record(10)))).ok


async def test_import_refusals(svc: Service) -> None:
    assert not (await do(svc, ALICE, "game export")).ok  # nothing to export
    r = await do(svc, ALICE, "game import", file=b"not json")
    assert not r.ok and "not JSON" in r.text
    r = await do(svc, ALICE, "game import", file=as_file({"title": "18FL"}))
    assert not r.ok and "not an 18xx.games game record" in r.text and "format:stationmaster" in r.text
    r = await do(svc, ALICE, "game import", file=as_file({"format": "stationmaster"}))
    assert not r.ok and "its title None is not one of" in r.text, r.text
    r = await do(svc, ALICE, "game import", file=b" " * (2 * 1024 * 1024 + 1))
    assert not r.ok and "too large" in r.text
    broken = record(10)
    par = next(a for a in broken["actions"] if a["type"] == "par")
    par["share_price"] = "7000,0,2"  # no such price: the importer names the action and its reason
    r = await do(svc, ALICE, "game import", file=as_file(broken))
    assert not r.ok
    assert f"action {par['id']}" in r.text, r.text
    assert await svc.store.active_game(CH) is None  # nothing was created

    assert (await do(svc, ALICE, "game create", title="18FL")).ok
    r = await do(svc, BOB, "game import", file=as_file(record(10)))
    assert not r.ok and "already has game" in r.text


async def test_odd_files_are_refused_by_what_is_wrong_with_them(svc: Service) -> None:
    """A file saved with a byte-order mark is the record; JSON nested too deeply, or of another shape, is refused
    by name (they drew the apology, and the log line held the whole upload); a reason that ends its sentence is not
    given a second full stop."""
    for body, words in ((b"[" * 200_000 + b"]" * 200_000, "nests its values too deeply"),
                        (as_file({**record(10), "settings": "x"}), "the record's settings must be an object, not 'x'")):
        r = await do(svc, BOB, "game import", file=body)
        assert not r.ok and words in r.text and "Sorry" not in r.text, r.text
    broken = record()
    lay = next(a for a in broken["actions"] if a["type"] == "lay_tile")
    lay["hex"] = "Z99"
    r = await do(svc, BOB, "game import", file=as_file(broken))
    assert not r.ok and "There is no hex Z99 on this map. The action:" in r.text, r.text
    assert await svc.store.active_game(CH) is None
    r = await do(svc, ALICE, "game import", file=b"\xef\xbb\xbf" + as_file(record(10)))
    assert r.ok and "imported an 18xx.games record" in r.text, r.text


def test_a_failed_commands_log_line_names_an_attached_file_by_its_size() -> None:
    from bot.service.router import _loggable

    assert _loggable({"file": b"x" * 5000, "format": "json"}) == {"file": "<file of 5000 bytes>", "format": "json"}


async def test_a_game_the_site_does_not_have_moves_between_channels_as_our_own_record(svc: Service) -> None:
    """18EZ is not on 18xx.games: `/game export` writes our own record and says why, `/game import` takes it in
    another channel, where the seats are claimed and play goes on from the same state; a forged record is checked
    action by action as it is read, and refused naming the action."""
    game = played("18EZ", ["ann", "ben"], 5, 60)
    rng = random.Random(5)
    r = await do(svc, DAVE, "game import", file=as_file(to_record(game)))
    assert r.ok and "imported a stationmaster record of **18EZ**" in r.text, r.full_text()
    assert "It follows the rulebook (rules profile rulebook)." in r.text
    assert (await claim(svc, ALICE, claim_menu(r), "ann")).ok
    assert (await claim(svc, BOB, claim_menu(r), "ben")).ok
    out = await do(svc, ALICE, "game export")
    assert out.ok and out.text.startswith("18xx.games has no 18EZ, so here is our own record."), out.full_text()
    assert "/game import" in out.text
    (name, body), = out.files
    assert name.endswith("-stationmaster.json")
    refused = await do(svc, ALICE, "game export", format="18xx.games")
    assert not refused.ok and "18EZ records are not supported" in refused.text
    assert "`/game export format:stationmaster`" in refused.text

    other = 301
    forged = json.loads(body)
    bid = next(i for i, a in enumerate(forged["actions"]) if a["type"] == "par")
    forged["actions"][bid]["price"] = 7
    r = await svc.handle(other, GUILD, DAVE, "game import", {"file": as_file(forged)})
    assert not r.ok and f"action {bid}:" in r.text, r.text
    assert await svc.store.active_game(other) is None  # nothing was created

    r = await svc.handle(other, GUILD, DAVE, "game import", {"file": body})
    assert r.ok, r.full_text()
    menu = claim_menu(r)
    assert (await svc.click(other, GUILD, ALICE, menu.custom_id, ["ann"])).ok
    assert (await svc.click(other, GUILD, BOB, menu.custom_id, ["ben"])).ok
    here, there = await svc.current_game(CH), await svc.current_game(other)
    assert here is not None and there is not None
    assert snapshot.fingerprint(there[1]) == snapshot.fingerprint(game) == snapshot.fingerprint(here[1])
    legal = svc.legal(there[0].id, there[1])
    move = choose(rng, [parse_action(x) for x in legal], there[1]).model_dump(exclude_none=True)
    who = {"ann": ALICE, "ben": BOB}[there[1].player_for(move["entity"])]
    r = await svc.handle(other, GUILD, who, "act", {"action": encode_action(move)})
    assert r.ok, r.full_text()


async def test_abandoning_a_pending_import_frees_the_channel(svc: Service) -> None:
    r = await do(svc, ALICE, "game import", file=as_file(record(10)))
    assert r.ok
    row = await svc.store.active_game(CH)
    assert row is not None and await svc.store.pending_import(row.id) is not None
    ask = await do(svc, ALICE, "game abandon")
    yes = next(c for row in ask.components for c in row if "abandon" in c.custom_id)
    assert (await svc.click(CH, GUILD, ALICE, yes.custom_id)).ok
    assert await svc.store.active_game(CH) is None
    assert await svc.store.pending_import(row.id) is None  # the stored record went with the lobby


async def reopen(svc: Service, tmp_path: Path) -> Service:
    """A restart: the service and its store are closed and a new one opens the same file (no memory carried)."""
    await svc.close()
    return await Service.open(str(tmp_path / "bot.sqlite3"), now=lambda: 1_000_000.0)


async def test_a_pending_import_survives_a_restart(tmp_path: Path) -> None:
    data = record(10)
    expected = read_record(copy.deepcopy(data), routes=False).game
    svc = await Service.open(str(tmp_path / "bot.sqlite3"), now=lambda: 1_000_000.0)
    try:
        r = await do(svc, ALICE, "game import", file=as_file(data))
        assert r.ok, r.full_text()
        first_menu = claim_menu(r)
        r = await claim(svc, ALICE, first_menu, "Player 1")
        assert r.ok, r.full_text()
        menu = claim_menu(r)

        svc = await reopen(svc, tmp_path)
        row = await svc.store.active_game(CH)
        assert row is not None and row.status == "lobby"
        pending = await svc.store.pending_import(row.id)
        assert pending is not None and pending.seats == ("Player 1", "Player 2")
        assert pending.actions == expected.action_log()
        status = (await do(svc, CAROL, "game status")).full_text()
        assert "seats still to claim: Player 2" in status and "lost" not in status
        r = await do(svc, CAROL, "game join")
        assert not r.ok and "Player 2" in r.text  # still the record's table, not an open lobby

        # the menu posted before the restart still works: its custom id carries the game, the seats are stored
        assert not (await claim(svc, BOB, first_menu, "Player 1")).ok  # alice's claim was kept
        svc = await reopen(svc, tmp_path)
        r = await claim(svc, BOB, menu, "Player 2")
        assert r.ok, r.full_text()
        assert "continues from the record" in r.text
        # the turn as the engine says it, with the seat named by its member
        assert str(expected.describe_turn()).replace("Player 1", "<@1>").replace("Player 2", "<@2>") in r.full_text()
        assert await svc.store.pending_import(row.id) is None  # activation removed it

        # play continues, and the game as played replays after another restart
        assert (await do(svc, ALICE, "pass")).ok
        svc = await reopen(svc, tmp_path)
        cur = await svc.current_game(CH)
        assert cur is not None
        assert cur[1].action_log()[:-1] == expected.action_log()
        assert len(cur[1].actions) == len(expected.actions) + 1
        assert [(p.name, p.user_id) for p in await svc.store.players(row.id)] == [("Player 1", 1), ("Player 2", 2)]
        assert [a.user_id for a in await svc.store.actions(row.id)] == [None] * len(expected.actions) + [1]
    finally:
        await svc.close()


async def test_a_seat_freed_after_a_restart_is_claimed_again(tmp_path: Path) -> None:
    svc = await Service.open(str(tmp_path / "bot.sqlite3"), now=lambda: 1_000_000.0)
    try:
        r = await do(svc, ALICE, "game import", file=as_file(record(10)))
        menu = claim_menu(r)
        assert (await claim(svc, BOB, menu, "Player 1")).ok
        svc = await reopen(svc, tmp_path)
        left = await do(svc, BOB, "game leave")
        assert left.ok, left.full_text()
        assert [o.value for o in claim_menu(left).options] == ["Player 1", "Player 2"]
        assert (await claim(svc, BOB, menu, "Player 2")).ok
        kicked = await do(svc, ALICE, "game kick", player="Player 2")  # alice imported it: she administers it
        assert kicked.ok, kicked.full_text()
        assert [o.value for o in claim_menu(kicked).options] == ["Player 1", "Player 2"]
        assert (await claim(svc, BOB, menu, "Player 2")).ok
        r = await claim(svc, ALICE, menu, "Player 1")
        assert r.ok and "continues from the record" in r.text
        players = await svc.store.players((await svc.current_game(CH))[0].id)  # type: ignore[index]
        assert [(p.name, p.user_id) for p in players] == [("Player 1", 1), ("Player 2", 2)]  # the record's order
    finally:
        await svc.close()


async def test_an_import_lobby_without_its_record_says_so(svc: Service) -> None:
    """A lobby imported by a version that kept the record in memory only, then restarted: nothing to claim."""
    gid = await svc.store.create_game(guild_id=GUILD, channel_id=CH, title="18FL",
                                      options={"rules_profile": "18xx.games"}, seed=5, creator_id=ALICE.id,
                                      now=1_000_000.0)
    status = (await do(svc, CAROL, "game status")).full_text()
    assert "record was lost" in status and "/game abandon" in status
    cid = make_custom_id(gid, "import", "claim")  # the menu such a lobby was posted with
    assert cid is not None
    r = await svc.click(CH, GUILD, BOB, cid, ["Player 1"])
    assert not r.ok and "record was lost" in r.text


# -- undo of the record's actions: each is the move of the seat that made it (its current claimant answers for it)

async def imported_game(tmp_path: Path, cut: int) -> tuple[Service, list[dict[str, Any]]]:
    svc = await Service.open(str(tmp_path / "bot.sqlite3"), now=lambda: 1_000_000.0)
    r = await do(svc, DAVE, "game import", file=as_file(record(cut)))
    assert r.ok, r.full_text()
    menu = claim_menu(r)
    assert (await claim(svc, ALICE, menu, "Player 1")).ok
    r = await claim(svc, BOB, menu, "Player 2")
    assert r.ok and "continues from the record" in r.text, r.full_text()
    cur = await svc.current_game(CH)
    assert cur is not None
    return await reopen(svc, tmp_path), cur[1].action_log()  # a restart: nothing about the import left in memory


async def test_undo_of_imported_actions_asks_the_seat_that_made_them(tmp_path: Path) -> None:
    # record(12): ... Player 1 passes, Player 2 passes (SR 1), then L&N (president Player 1) lays two tiles
    svc, log = await imported_game(tmp_path, 12)
    try:
        assert [a["entity"] for a in log[-4:]] == ["Player 1", "Player 2", "L&N", "L&N"]
        n = len(log)

        # bob's own last move is Player 2's pass in the record; the L&N tiles after it were Player 1's
        ask = await do(svc, BOB, "undo")
        assert ask.ok, ask.full_text()
        assert "asks to undo 3 actions" in ask.text and "3 of them come from the imported record" in ask.text
        assert ask.mentions == [ALICE.id]
        assert len(await svc.store.actions((await svc.current_game(CH))[0].id)) == n  # type: ignore[index]
        agree = next(c for row in ask.components for c in row if c.custom_id.endswith(":y"))
        assert not (await svc.click(CH, GUILD, CAROL, agree.custom_id)).ok  # not at the table
        r = await svc.click(CH, GUILD, ALICE, agree.custom_id)
        assert r.ok and "undoing 3 actions" in r.text, r.full_text()
        cur = await svc.current_game(CH)
        assert cur is not None and cur[1].action_log() == log[:n - 3]

        # redo follows the same owners: Player 2's pass is bob's, the L&N tile is alice's
        r = await do(svc, ALICE, "redo")
        assert not r.ok and "Player 2's" in r.text
        assert (await do(svc, BOB, "redo")).ok
        r = await do(svc, BOB, "redo")
        assert not r.ok and "Player 1's" in r.text
        assert (await do(svc, ALICE, "redo")).ok
        assert (await do(svc, ALICE, "redo")).ok
        cur = await svc.current_game(CH)
        assert cur is not None and cur[1].action_log() == log

        # alice's own last move is the record's last one and nobody acted since: it is undone at once
        r = await do(svc, ALICE, "undo")
        assert r.ok and "undoes an action" in r.text, r.full_text()

        # a member who takes over a seat answers for the seat's imported moves
        svc = await reopen(svc, tmp_path)
        assert (await do(svc, DAVE, "game replace", player="Player 2", user=CAROL)).ok
        ask = await do(svc, ALICE, "undo", count=3)
        assert ask.ok and ask.mentions == [CAROL.id], ask.full_text()
        agree = next(c for row in ask.components for c in row if c.custom_id.endswith(":y"))
        assert not (await svc.click(CH, GUILD, BOB, agree.custom_id)).ok  # bob left the seat
        r = await svc.click(CH, GUILD, CAROL, agree.custom_id)
        assert r.ok and "undoing 3 actions" in r.text, r.full_text()
        cur = await svc.current_game(CH)
        assert cur is not None and cur[1].action_log() == log[:n - 4]

        # a move made here is its maker's as before: alice passes and takes it back at once
        assert cur[1].acting_players() == ["Player 1"]
        assert (await do(svc, ALICE, "pass")).ok
        r = await do(svc, ALICE, "undo")
        assert r.ok and "undoes an action" in r.text
    finally:
        await svc.close()


def test_local_simulator_imports_and_exports(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record(10)), encoding="utf-8")
    script = tmp_path / "import.txt"
    script.write_text(
        f"@alice /game import file:{path}\n"
        "!@alice /game start\n"
        "@alice /click 1 Player 1\n"
        "!@bob /click 2 Player 1\n"
        "@bob /click 2 Player 2\n"
        "@alice /pass\n"
        "@carol /game export\n"
        "@carol /game export format:stationmaster\n"
        f"!@carol /game import file:{tmp_path / 'missing.json'}\n", encoding="utf-8")
    code = main(["--script", str(script), "--db", str(tmp_path / "local.sqlite3"), "--out", str(tmp_path / "out")])
    out = capsys.readouterr()
    assert code == 0, out.err + out.out
    assert "claims the seat **Player 1**" in out.out
    assert "continues from the record" in out.out
    files = sorted((tmp_path / "out").glob("*.json"))
    assert len(files) == 2, out.out
    site = json.loads(next(f for f in files if "18xx.games" in f.name).read_text(encoding="utf-8"))
    assert len(read_record(site, routes=False).game.actions) == len(read_record(record(10)).game.actions) + 1


async def test_after_an_import_the_table_is_named_by_its_members(svc: Service) -> None:
    r = await do(svc, DAVE, "game import", file=as_file(record(10)))
    menu = claim_menu(r)
    # "Player 1" and "Player 2" alone did not say which seat was whose: each comes with its place, cash, presidencies
    expected = read_record(record(10), routes=False).game
    for i, o in enumerate(menu.options, 1):
        cash = expected.fmt(expected.player(o.value).cash)
        led = [s for s, c in expected.corps.items() if c.president == o.value]
        assert str(o.description) == f"seat {i} · {cash}" + (f" · president of {', '.join(led)}" if led else "")
    assert any("president of" in str(o.description) for o in menu.options)
    assert (await claim(svc, ALICE, menu, "Player 1")).ok
    r = await claim(svc, BOB, menu, "Player 2")
    assert r.ok, r.full_text()
    line = next(ln for ln in r.full_text().splitlines() if "➡️" in ln)
    # the prompt speaks of the members (mentions), not of the record's "Player 1"/"Player 2"
    assert "<@1>" in line or "<@2>" in line, line
    assert "Player 1" not in line and "Player 2" not in line, line
    standings = await do(svc, ALICE, "view standings")
    assert "<@1>" in standings.text and "<@2>" in standings.text and "Player 1" not in standings.text
    status = (await do(svc, CAROL, "game status")).embeds[0]
    fields = {str(k): str(v) for k, v in status.fields}
    assert "<@1>" in fields["Seats"] and "<@2>" in fields["Seats"] and "Player" not in fields["Seats"], fields
    assert "Player" not in fields["Now"], fields


async def test_a_finished_record_says_so_before_anyone_claims(svc: Service) -> None:
    r = await do(svc, DAVE, "game import", file=as_file(record()))
    assert r.ok, r.full_text()
    assert "This game is over" in r.text and "no move can be made" in r.text


async def test_a_redone_run_is_the_run_that_was_undone(svc: Service) -> None:
    """A redo applies the stored action as the log replays it: the routes keep the track they took (here, a route
    that could be laid on other track of the same stops), so the game is the one before the undo, byte for byte."""
    whole, at = run_on_two_ways()
    game = whole.replayed(at)
    assert game.round.step == "routes" and game.current_entity == "BR&N"
    r = await do(svc, DAVE, "game import", file=as_file(to_record(game)))
    assert r.ok, r.full_text()
    for who, seat in ((ALICE, "ann"), (BOB, "ben"), (CAROL, "cid")):
        assert (await claim(svc, who, claim_menu(r), seat)).ok
    runner = {"ann": ALICE, "ben": BOB, "cid": CAROL}[game.corps["BR&N"].president]
    assert (await do(svc, runner, "train run", confirm=True)).ok
    cur = await svc.current_game(CH)
    assert cur is not None
    ran = snapshot.fingerprint(cur[1])
    assert (await do(svc, runner, "undo")).ok
    r = await do(svc, runner, "redo")
    assert r.ok, r.full_text()
    cur = await svc.current_game(CH)
    assert cur is not None and snapshot.fingerprint(cur[1]) == ran


async def test_a_routes_step_reached_again_by_other_moves_shows_its_own_routes(svc: Service) -> None:
    """After an undo the same number of moves, ending with the same move (the token step's pass), can be reached by
    another tile: the prompt's routes are those of the game now, not those cached for the first tile (the state a
    cache or a button is for is the whole log's, not the last move's)."""
    from engine.actions import Pass

    game = lays_change_the_run()
    corp = game.round.corp
    assert game.round.step == "track" and game.current_entity == corp

    def revenue_after(lay: Any) -> int:
        """The corporation's best run after the lay and a pass, or -1 if the pass does not lead to the run."""
        trial = game.replayed()
        trial.process(lay)
        trial.process(Pass(entity=corp))
        return trial.round.best(trial).revenue if trial.round.step == "routes" else -1

    lays = sorted((a for a in game.legal_actions() if a.type == "lay_tile" and a.entity == corp
                   and revenue_after(a) > 0), key=revenue_after)
    worse, better = lays[0], lays[-1]
    assert revenue_after(worse) < revenue_after(better)
    r = await do(svc, DAVE, "game import", file=as_file(to_record(game)))
    for who, seat in ((ALICE, "ann"), (BOB, "ben"), (CAROL, "cid")):
        assert (await claim(svc, who, claim_menu(r), seat)).ok
    pres = {"ann": ALICE, "ben": BOB, "cid": CAROL}[game.corps[corp].president]

    async def lay_and_pass(lay: Any) -> Reply:
        assert (await do(svc, pres, "track lay", hex=lay.hex, tile=lay.tile, rotation=lay.rotation)).ok
        return await do(svc, pres, "pass")

    shown = await lay_and_pass(worse)
    assert f"Total {game.fmt(revenue_after(worse))}." in shown.full_text()
    for _ in range(2):
        assert (await do(svc, pres, "undo")).ok
    shown = await lay_and_pass(better)
    assert f"Total {game.fmt(revenue_after(better))}." in shown.full_text(), shown.full_text()
    ran = await do(svc, pres, "act", action=encode_action({"type": "run_routes", "entity": corp}))
    assert ran.ok, ran.full_text()
    cur = await svc.current_game(CH)
    assert cur is not None and cur[1].round.revenue == revenue_after(better)


def test_our_own_record_from_outside_takes_nothing_on_trust() -> None:
    """A run's recorded revenue and track are checked like any submission: a record claiming more is refused."""
    from engine.record import read_own

    game, at = run_on_two_ways()
    data = to_record(game)
    assert snapshot.fingerprint(read_own(data)) == snapshot.fingerprint(game)
    run = data["actions"][at]
    assert run["type"] == "run_routes"
    run["routes"][0]["revenue"] += 500
    read = read_own(data)  # the revenue is the rules', whatever the record says
    assert read.round.revenue == game.round.revenue
    run["routes"][0]["nodes"] = run["routes"][0]["nodes"][:2]  # not the maximum
    with pytest.raises(RecordError, match="must run for its maximum"):
        read_own(data)


async def test_an_exported_record_says_when_each_action_was_made(tmp_path: Path) -> None:
    """Every action and the end carried the game's creation time (for an imported game, the time of the import):
    the site's history of the game was wrong."""
    from tests.test_service import Clock

    clock = Clock()
    svc = await Service.open(str(tmp_path / "times.sqlite3"), now=clock, seed_source=lambda: 7)
    try:
        assert (await do(svc, ALICE, "game create", title="18FL")).ok
        assert (await do(svc, BOB, "game join")).ok
        assert (await do(svc, ALICE, "game start")).ok
        made = []
        for who in (ALICE, BOB):
            clock.t += 3600
            assert (await do(svc, who, "private bid", price=5)).ok
            made.append(int(clock.t))
        out = await do(svc, ALICE, "game export", format="18xx.games")
        (_name, body), = out.files
        record_ = json.loads(body)
        assert [a["created_at"] for a in record_["actions"]] == made, record_["actions"]
        assert record_["created_at"] == 1_000_000
    finally:
        await svc.close()


async def test_an_import_says_what_stays_on_the_site(svc: Service) -> None:
    """The record's chat and a standing order still in force were dropped without a word."""
    data = record(10)
    n = max(a["id"] for a in data["actions"])
    data["actions"] += [
        {"id": n + 1, "type": "message", "entity": 1, "entity_type": "player", "message": "good luck"},
        {"id": n + 2, "type": "program_share_pass", "entity": 2, "entity_type": "player", "unconditional": True,
         "indefinite": True}]
    r = await do(svc, ALICE, "game import", file=as_file(data))
    assert r.ok, r.text
    assert "ℹ️ The record's chat (1 message) stays on 18xx.games." in r.text
    assert "Standing orders set on 18xx.games (auto-pass, auto-buy) do not carry over" in r.text
    plain = await svc.handle(CH + 1, GUILD, ALICE, "game import", {"file": as_file(record(10))})
    assert plain.ok and "ℹ️" not in plain.text
