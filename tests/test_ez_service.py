"""18EZ through the bot's service on a real SQLite file: six players, the reconstruction said where players see it,
the from-scratch help, step prompts that say what each step is for, autocomplete of legal choices, refusals that
change nothing, and the pictures."""

from __future__ import annotations

import random
from typing import Any

from bot.commands import encode_action
from bot.service import Service, User
from engine.actions import parse_action
from engine.selfplay import choose
from tests.test_service import CH, GUILD, Clock, clock, svc  # noqa: F401  (pytest fixtures)

SIX = [User(10 + i, name) for i, name in enumerate(("ann", "bob", "cy", "di", "ed", "flo"))]
BY_NAME = {u.name: u for u in SIX}


async def do(service: Service, who: User, path: str, **opts: Any) -> Any:
    return await service.handle(CH, GUILD, who, path, opts)


async def test_18ez_for_six_with_the_reconstruction_said_and_helpful_prompts(svc: Service) -> None:  # noqa: F811
    r = await do(svc, SIX[0], "game create", title="18EZ", images="request")
    assert r.ok and "2–6 players" in r.text and "reconstruction" in r.text
    for u in SIX[1:]:
        assert (await do(svc, u, "game join")).ok
    r = await do(svc, SIX[0], "game start")
    assert r.ok, r.text
    assert "Share dealing, first round" in r.full_text()  # the prompt says what the step is for

    help_text = (await do(svc, SIX[0], "help", topic="18ez")).text
    assert "from scratch" in help_text and "reconstruction" in help_text and "Share dealing rounds" in help_text

    row, game = await svc.current_game(CH)  # type: ignore[misc]
    first = BY_NAME[game.current_entity]
    choices = await svc.autocomplete(CH, first, "stock par", "price", "", {"corporation": "PS&W"})
    assert sorted(int(c.value) for c in choices) == [50, 60, 70, 80, 90, 100]
    bad = await do(svc, first, "stock par", corporation="PS&W", price=110)
    assert not bad.ok and "not a starting value" in bad.text

    rng = random.Random(3)
    ops = sets = ends = 0
    for _ in range(400):
        row, game = await svc.current_game(CH)  # type: ignore[misc]
        if game.round.kind == "operating":
            ops += 1
            if ops > 40:
                break
        legal = svc.legal(row.id, game)
        a = choose(rng, [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
        who = BY_NAME[game.player_for(a["entity"])]
        r = await do(svc, who, "act", action=encode_action(a))
        assert r.ok, (a, r.text)
        if "End of the operating rounds" in r.text and " begins; " in r.text:
            # the set's summary closes it, before the share dealing round that follows begins
            ends += r.text.index("End of the operating rounds") < r.text.index(" begins; ")
            sets += 1
    assert ops > 0 and sets > 0 and ends == sets
    r = await do(svc, SIX[0], "view map")
    assert r.ok and (r.pictures or r.files)
    r = await do(svc, SIX[0], "view market")
    assert r.ok and (r.pictures or r.files)
