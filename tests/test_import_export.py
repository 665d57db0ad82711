"""/game import and /game export through the service on a real SQLite file, and in the local simulator, with a
real 18xx.games record (shared/reference/records, beside the repository)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.commands import parse_custom_id
from bot.local import main
from bot.service import Reply, Select, Service, User
from engine.record import from_record
from engine.records import read_record

REPO = Path(__file__).resolve().parents[1]
RECORD = REPO.parent / "shared" / "reference" / "records" / "18FL-2p-short.json"
CH, GUILD = 300, 7
ALICE, BOB, CAROL = User(1, "alice"), User(2, "bob"), User(3, "carol")

pytestmark = pytest.mark.skipif(not RECORD.exists(), reason="the reference records are not beside the repository")


def record(cut: int | None = None) -> dict[str, Any]:
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    if cut is not None:
        data["actions"] = data["actions"][:cut]  # a game still in play
    return data


def as_file(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode()


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
    assert expected.describe_turn() in r.full_text()
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
    r = await do(svc, ALICE, "game import", file=as_file({"format": "stationmaster"}))
    assert not r.ok and "not an 18xx.games game record" in r.text
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


async def test_abandoning_a_pending_import_frees_the_channel(svc: Service) -> None:
    r = await do(svc, ALICE, "game import", file=as_file(record(10)))
    assert r.ok
    ask = await do(svc, ALICE, "game abandon")
    yes = next(c for row in ask.components for c in row if "abandon" in c.custom_id)
    assert (await svc.click(CH, GUILD, ALICE, yes.custom_id)).ok
    assert await svc.store.active_game(CH) is None


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
