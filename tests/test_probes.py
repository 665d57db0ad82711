"""Repeatable probes of the bot as players and strangers can hit it (issue 16 item 10), on the real service and a
real SQLite file: a fuzz of hostile commands and clicks (every refusal changes nothing stored, no input is an
internal error), the authorisation matrix (who may do what), and simultaneous clicks (each applies once). The
default set runs a small sample; `pytest -m slow` runs the soak sizes. Each prints its figures."""

from __future__ import annotations

import asyncio
import random
import string
from pathlib import Path
from typing import Any

import pytest

from bot.commands import COMMANDS, encode_action
from bot.service import APOLOGY, Reply, Service, User

from .test_service import (
    ALICE,
    BOB,
    CAROL,
    CH,
    DAVE,
    GUILD,
    MOD,
    SEED,
    USERS,
    Clock,
    button,
    finish_draft,
    new_game,
    play_random,
    state,
)

WEIRD: list[Any] = [
    "", " ", "x", "G22", "g22", "#57", "3 train", "fec", "SAL", "sal", "ACL", "TR", "-1", "0", "1", "70", "1e9",
    "nan", "inf", "true", "🚂", "A" * 500, "' OR 1=1 --", "<@1>", "@everyone", "|||", "bid|alice|price=5",
    "pass|*", "buy_company|alice|company=X", "par|alice|corporation=SAL|price=abc", "\x00", "\n\n",
    0, 1, -1, 5, 70, 2**31, 2**63, 2**70, -(2**70), 1.5, float("nan"), float("inf"), True, False, None,
    ["list"], {"a": 1},
]
STRANGERS = [ALICE, BOB, CAROL, DAVE, MOD, User(2**62, "huge"), User(6, "eve")]


async def fingerprint(svc: Service) -> tuple[Any, ...]:
    """Everything stored about the channel's game (the clock does not move, so a refusal must leave it equal)."""
    row = await svc.store.active_game(CH)
    if row is None:
        return (None,)
    return (row, await svc.store.players(row.id), await svc.store.history(row.id), await svc.store.reminder(row.id),
            await svc.store.outbox())


def hostile(rng: random.Random) -> tuple[str, dict[str, Any]]:
    cmd = rng.choice(COMMANDS)
    opts: dict[str, Any] = {}
    for o in cmd.options:
        if rng.random() < 0.7:
            opts[o.name] = rng.choice(WEIRD) if rng.random() < 0.8 else "".join(
                rng.choice(string.printable) for _ in range(rng.randint(1, 30)))
    if rng.random() < 0.1:
        opts["no_such_option"] = rng.choice(WEIRD)
    return cmd.path, opts


@pytest.fixture
async def svc(tmp_path: Path) -> Any:
    service = await Service.open(str(tmp_path / "probe.sqlite3"), now=Clock(), seed_source=lambda: SEED)
    yield service
    await service.close()


async def fuzz(svc: Service, n: int, seed: int) -> dict[str, int]:
    await new_game(svc)
    await finish_draft(svc)
    rng = random.Random(seed)
    counts = {"commands": 0, "refused": 0, "applied": 0, "clicks": 0}
    for i in range(n):
        before = await fingerprint(svc)
        who = rng.choice(STRANGERS)
        if rng.random() < 0.2:
            junk = rng.choice(["sm:1:x:a:pass|alice", "sm:1:1x0000:abandon", "sm:99:1x0:end", "sm:1:any:end",
                               f"sm:{2**70}:1:a:pass|*", "sm:1:1x0000:undo:3:y", "sm:1::", "nonsense", "sm:-1:a:b",
                               "sm:1:1x0000:s:buy", "sm:1:1x0000:sale:n"])
            r = await svc.click(CH, GUILD, who, junk, [str(rng.choice(WEIRD))])
            counts["clicks"] += 1
        else:
            path, opts = hostile(rng)
            if path in ("game abandon", "game end") or (path == "undo" and who is MOD):
                continue  # confirmations and forced undos are legitimate changes; the matrix covers who may
            try:
                r = await svc.handle(CH, GUILD, who, path, opts)
            except TypeError:
                raise AssertionError(f"{path} {opts} raised") from None
            counts["commands"] += 1
        assert isinstance(r, Reply)
        assert APOLOGY not in r.text and "Traceback" not in r.text and "pydantic" not in r.text, (i, r.text)
        if r.ok:
            counts["applied"] += 1
        else:
            counts["refused"] += 1
            assert await fingerprint(svc) == before, (i, who, r.text)
        if await svc.store.active_game(CH) is None:  # a game that ended or was left: start another
            await new_game(svc)
            await finish_draft(svc)
    print(f"\nhostile fuzz: {counts}")
    return counts


async def test_hostile_commands_sample(svc: Service) -> None:
    counts = await fuzz(svc, 300, 1)
    assert counts["refused"] > 200


@pytest.mark.slow
async def test_hostile_commands_soak(svc: Service) -> None:
    counts = await fuzz(svc, 20_000, 2)
    assert counts["refused"] > 15_000


# -- the authorisation matrix -----------------------------------------------------------------------------------

ROLES = ("acting player", "waiting player", "creator", "outsider", "administrator")
# (command, options, roles allowed); a role not listed must be refused and change nothing
MATRIX: list[tuple[str, dict[str, Any], set[str]]] = [
    ("game settings", {"reminder_hours": 3}, {"creator", "administrator"}),
    ("game settings", {"images": "round"}, {"creator", "administrator"}),
    ("game settings", {"dm": True}, {"acting player", "waiting player", "creator"}),
    ("game replace", {"player": "carol", "user": User(8, "zed")}, {"creator", "administrator"}),
    ("game kick", {"player": "carol"}, set()),  # the game has started: nobody
    ("game end", {}, {"creator", "administrator"}),  # asks to confirm (the click is checked below)
    ("game abandon", {}, {"creator", "administrator"}),  # asks to confirm
    ("undo", {"force": True}, {"creator", "administrator"}),
    ("pass", {}, {"acting player"}),
    ("private bid", {"price": 0}, set()),  # the draft is over
    ("game start", {}, set()),
    ("game join", {}, set()),
]


async def test_authorisation_matrix(svc: Service) -> None:
    await new_game(svc)
    await finish_draft(svc)
    row, game = await state(svc)
    acting = USERS[game.acting_players()[0]]
    waiting = next(u for u in (BOB, CAROL) if u != acting)
    who = {"acting player": acting, "waiting player": waiting, "creator": ALICE, "outsider": DAVE,
           "administrator": MOD}
    cases = 0
    for path, opts, allowed in MATRIX:
        for role in ROLES:
            user = who[role]
            hats = {r for r, u in who.items() if u == user}  # the creator may also be a player
            before = await fingerprint(svc)
            r = await svc.handle(CH, GUILD, user, path, dict(opts))
            cases += 1
            if hats & allowed:
                assert r.ok, (path, role, r.text)
                if path in ("game end", "game abandon"):
                    # the confirmation: only the right person's click acts
                    yes = button(r, "End" if path == "game end" else "Abandon")
                    for other in (waiting, DAVE):
                        assert not (await svc.click(CH, GUILD, other, yes.custom_id)).ok
                        assert await fingerprint(svc) == before
                    assert await fingerprint(svc) == before
                # undo what an allowed change did, so the next case starts from the same game
                await reset(svc, row.id)
            else:
                assert not r.ok and APOLOGY not in r.text, (path, role, r.text)
                assert await fingerprint(svc) == before, (path, role)
    print(f"\nauthorisation matrix: {cases} cases")
    assert cases >= 55


async def reset(svc: Service, game_id: int) -> None:
    """Put the game back as `test_authorisation_matrix` found it (settings, seats and log), directly in the store."""
    async with svc.store.transaction() as tx:
        await tx.update_settings(game_id, 0, reminder_interval=12 * 3600, image_mode="request")
        for p in await tx.players(game_id):
            await tx.set_dm_reminders(game_id, p.user_id, False)
        seats = {p.name: p.user_id for p in await tx.players(game_id)}
        if seats.get("carol") not in (None, CAROL.id):
            await tx.replace_player(game_id, seats["carol"], CAROL.id)
    svc._evict(game_id)
    history = await svc.store.history(game_id)
    live = [a for a in history if a.state == "live"]
    want = 6  # three sealed bids and three picks
    if len(live) > want:
        await svc.store.undo_to(game_id, want, 0)
    elif len(live) < want:
        while len([a for a in await svc.store.history(game_id) if a.state == "live"]) < want:
            await svc.store.redo(game_id, 0)
    svc._evict(game_id)


# -- simultaneous clicks ---------------------------------------------------------------------------------------

async def clicks(svc: Service, rounds: int, seed: int) -> dict[str, int]:
    await new_game(svc)
    await finish_draft(svc)
    rng = random.Random(seed)
    counts = {"rounds": 0, "clicks": 0, "applied": 0}
    for _ in range(rounds * 3):
        if counts["rounds"] >= rounds:
            break
        cur = await svc.current_game(CH)
        if cur is None:
            break
        row, game = cur
        # any move but those that ask another player first (a sale between players at a price)
        legal = [a for a in svc.legal(row.id, game)
                 if a["type"] != "buy_company" and not (a["type"] == "buy_train" and a.get("price"))]
        if not legal:  # e.g. a track step, whose tile lays the prompt does not list as buttons: move on
            await play_random(svc, 1, rng)
            continue
        action = rng.choice(legal)
        n = len(game.actions)
        player = USERS[game.player_for(action["entity"])]
        cid = f"sm:{row.id}:{svc.state_token(game)}:a:{encode_action(action)}"  # as the prompt's button
        clickers = [player] * 4 + [rng.choice([ALICE, BOB, CAROL, DAVE]) for _ in range(4)]
        replies = await asyncio.gather(*(svc.click(CH, GUILD, u, cid) for u in clickers))
        applied = sum(1 for r in replies if r.ok)
        assert applied == 1, [r.text for r in replies]
        after = (await state(svc))[1].actions
        # the move once; a step left with only a pass then passes by itself (the table's experience)
        assert len(after) >= n + 1 and all(a.type == "pass" for a in after[n + 1:]), after[n:]
        assert len(await svc.store.actions(row.id)) == len(after)  # what was applied is what was stored
        counts["rounds"] += 1
        counts["clicks"] += len(clickers)
        counts["applied"] += applied
    print(f"\nsimultaneous clicks: {counts}")
    return counts


async def test_simultaneous_clicks_sample(svc: Service) -> None:
    counts = await clicks(svc, 12, 1)
    assert counts["rounds"] >= 6


@pytest.mark.slow
async def test_simultaneous_clicks_soak(svc: Service) -> None:
    counts = await clicks(svc, 100, 2)
    assert counts["rounds"] >= 50
