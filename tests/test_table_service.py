"""The table's view of the bot, through the real service on a real SQLite file: choosing a rotation from words and
pictures, the map of a track step, the sheet views. Pictures are rendered for real and opened with Pillow."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from bot import pictures as jobs
from bot.service import Reply, Service
from render.mapimg import HIGHLIGHT
from tests.test_service import CH, USERS, clock, do, finish_draft, new_game, play_random, state, svc  # noqa: F401


async def _track_step_with_choice(service: Service) -> tuple[Any, Any, str, str, list[int]]:
    """Play on until the operating corporation may lay some tile in two or more rotations."""
    rng = random.Random(5)
    for _ in range(400):
        row, game = await state(service)
        if getattr(game.round, "step", "") == "track":
            lays = [a for a in service.legal(row.id, game) if a["type"] == "lay_tile" and a["entity"] in game.corps]
            by: dict[tuple[str, str], list[int]] = {}
            for a in lays:
                by.setdefault((str(a["hex"]), str(a["tile"])), []).append(int(a["rotation"]))
            for (h, t), rots in sorted(by.items()):
                if len(rots) >= 2:
                    return row, game, h, t, sorted(rots)
        await play_random(service, 1, rng)
    raise AssertionError("no track step with a choice of rotation")


def _pixels_near(png: bytes, color: tuple[int, int, int], tol: int = 20) -> int:
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(n for n, c in im.getcolors(1 << 22) or [] if all(abs(a - b) <= tol for a, b in zip(c, color,
                                                                                                   strict=True)))


async def test_track_lay_without_rotation_shows_the_rotations_to_the_player_only(svc: Service) -> None:  # noqa: F811
    await new_game(svc)
    await finish_draft(svc)
    row, game, hex_id, tile, rots = await _track_step_with_choice(svc)
    pres = USERS[game.player_for(game.current_entity)]
    n = len(game.actions)
    r = await do(svc, pres, "track lay", hex=hex_id, tile=tile)
    assert r.ok and r.ephemeral, r.text
    for rot in rots:
        assert f"r{rot}: " in r.text
    assert "cannot reach" not in r.text
    await svc.render(r)
    (name, data), = r.files
    assert "rotations" in name
    im = Image.open(io.BytesIO(data))
    assert im.width >= 2 * 300 and _pixels_near(data, HIGHLIGHT) > 500 * len(rots)
    _row, after = await state(svc)
    assert len(after.actions) == n  # nothing was laid

    # autocomplete names each rotation by where its track goes
    choices = await svc.autocomplete(CH, pres, "track lay", "rotation", "", {"hex": hex_id, "tile": tile})
    assert sorted(int(c.value) for c in choices) == rots
    assert all(c.name.startswith(f"r{c.value}: ") for c in choices)

    # a rotation that does not fit is refused as a wrong rotation
    wrong = next((x for x in range(6) if x not in rots), None)
    if wrong is not None:
        bad = await do(svc, pres, "track lay", hex=hex_id, tile=tile, rotation=wrong)
        assert not bad.ok and bad.ephemeral
        assert "wrong" in bad.text and "cannot reach" not in bad.text, bad.text

    ok = await do(svc, pres, "track lay", hex=hex_id, tile=tile, rotation=rots[0])
    assert ok.ok, ok.text


async def test_the_map_of_a_track_step_outlines_where_the_corporation_may_build(svc: Service) -> None:  # noqa: F811
    await new_game(svc, images="turn")
    await finish_draft(svc)
    rng = random.Random(3)
    posted = []
    shown = []
    for _ in range(120):
        r, = await play_random(svc, 1, rng)
        maps = [p for m in r.all() for p in m.pictures if p.name.endswith("-map.png")]
        assert len(maps) <= 1  # at most one map per turn
        if maps:
            row, game = await state(svc)
            posted.append((r, maps[0]))
            shown.append((jobs.board_signature(game), frozenset(jobs.buildable_hexes(game, svc.legal(row.id, game)))))
    assert posted
    # a quiet channel: a map is posted again only when it would show something new
    assert all(a != b for a, b in zip(shown, shown[1:], strict=False))
    outlined = 0
    for _r, pic in posted[:4]:
        one = Reply(pictures=[pic])
        await svc.render(one)
        outlined += _pixels_near(one.files[0][1], HIGHLIGHT) > 200
    assert outlined  # at least one turn began with a track step and its map shows the buildable hexes


async def test_sheet_views_and_steps_that_finish_by_themselves(svc: Service) -> None:  # noqa: F811
    await new_game(svc)
    await finish_draft(svc)
    rng = random.Random(2)
    for _ in range(90):
        await play_random(svc, 1, rng)
        row, game = await state(svc)
        # a step with nothing legal left but passing has finished by itself
        if game.round.kind in ("operating", "stock"):
            assert [a["type"] for a in svc.legal(row.id, game)] != ["pass"], game.describe_turn()
    _row, game = await state(svc)
    alice = USERS["alice"]
    for view, opts in (("view tiles", {}), ("view trains", {}), ("view holdings", {}),
                       ("view map", {"region": "Tampa"}), ("view map", {"region": "all"})):
        r = await do(svc, alice, view, **opts)
        assert r.ok and r.ephemeral, r.text
        await svc.render(r)
        (_name, data), = r.files
        assert Image.open(io.BytesIO(data)).format == "PNG"
    started = [s for s, c in game.corps.items() if c.started]
    assert started
    r = await do(svc, alice, "view revenue", corporation=started[0], share=True)
    assert r.ok and not r.ephemeral and started[0] in r.text
    bad = await do(svc, alice, "view map", region="Atlantis")
    assert not bad.ok and "Atlantis" in bad.text and "Jacksonville" in bad.text
    holdings = await do(svc, alice, "view holdings")
    assert all(p.name in holdings.text for p in game.players) and "IPO" in holdings.text
