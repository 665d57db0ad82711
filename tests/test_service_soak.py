"""Whole games of every title through the service as a table plays them, on a real SQLite file: each move typed
with its own command (`/stock par`, `/track lay` with or without a rotation, `/train run` shown then run from its
button, or typed as routes), through `/act`, or by clicking a button or menu of the last post; the typed options
checked against what autocomplete offers; offers to buy from another player answered by the seller; own undo and
redo, another player's undo agreed by everyone asked, a restart of the bot, the views, and the channel's language
or reminders changed, at random points; once per game, a seat given to a newcomer, and the game moved to another
channel (exported, imported there, its seats claimed). What must hold: every legal move is accepted as typed, no
command ends in the apology, an undo gives the game as its log replays to that point, a redo gives back the game
before the undo byte for byte, a restart changes nothing, a moved game is the same game byte for byte, a member who
gave up a seat can no longer move for it, and reminders go to the players to act. The same is played on from the
reference records of 18xx.games, imported part way and their seats claimed (the site's rules profile). CI runs a
sample of each title and record; the soak (`-m slow`) plays whole games on several seeds and records from several
points to their end."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.commands import command, encode_action
from bot.i18n import LANGUAGES, tr
from bot.reminders import due_notices
from bot.service import Button, Reply, Select, Service, User
from bot.service.router import APOLOGY_MSG
from engine import snapshot
from engine.actions import parse_action
from engine.game import Game
from engine.selfplay import choose
from engine.titledata import load_title
from engine.titles import TITLES, rules_for
from tests.reference import RECORDS

CH, GUILD = 900, 7
APOLOGIES = tuple(tr(APOLOGY_MSG, lang) for lang in LANGUAGES)


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def typed(a: dict[str, Any], game: Game) -> tuple[str, dict[str, Any]] | None:
    """The command and options a player types for the legal action ``a``; None where only `/act` says it."""
    t = a["type"]
    if a["entity"] in game.companies and t not in ("bid", "buy_company", "pass"):
        return None  # a private's ability: `/private use` lists it
    fields: dict[str, tuple[str, tuple[str, ...]]] = {
        "bid": ("private bid", ("price", "company")),
        "pass": ("pass", ()),
        "par": ("stock par", ("corporation", "price", "size")),
        "buy_shares": ("stock buy", ("corporation", "source", "president")),
        "sell_shares": ("stock sell", ("corporation", "count")),
        "lay_tile": ("track lay", ("hex", "tile", "rotation")),
        "hex_token": ("token hotel", ("hex", "town")),
        "dividend": ("corp dividend", ("kind",)),
        "buy_train": ("train buy", ("train", "price", "variant", "exchange")),
        "discard_train": ("train discard", ("train",)),
        "buy_company": ("private buy", ("company", "price")),
        "convert": ("corp convert", ()),
        "bankrupt": ("corp bankrupt", ()),
        "run_routes": ("train run", ()),
    }
    if t == "place_token" and not a.get("corporation"):
        fields["place_token"] = ("token place", ("hex", "city"))
    if t not in fields:
        return None
    path, names = fields[t]
    opts = {k: a[k] for k in names if a.get(k) is not None}
    if t == "run_routes":
        opts["confirm"] = True
    return path, opts


@dataclass
class Table:
    """One channel's game and the service it runs on (reopened on a restart)."""

    svc: Service
    db: str
    clock: Clock
    seats: dict[str, User]  # each seat's name in the game, and the member who holds it
    rng: random.Random
    finds: list[str] = field(default_factory=list)
    last_public: Reply | None = None
    channel: int = CH
    replaced: int = 0  # seats given to new members so far

    @property
    def users(self) -> list[User]:
        return list(self.seats.values())

    async def do(self, who: User, path: str, **opts: Any) -> Reply:
        r = await self.svc.handle(self.channel, GUILD, who, path, opts)
        if any(apology in r.full_text() for apology in APOLOGIES):
            self.finds.append(f"apology for /{path} {opts}")
        return r

    async def click(self, who: User, custom_id: str, values: list[str] | None = None) -> Reply:
        r = await self.svc.click(self.channel, GUILD, who, custom_id, values or [])
        if any(apology in r.full_text() for apology in APOLOGIES):
            self.finds.append(f"apology for a click on {custom_id} {values}")
        return r

    async def game(self) -> Game | None:
        cur = await self.svc.current_game(self.channel)
        return None if cur is None else cur[1]

    async def autocomplete_offers(self, who: User, path: str, opts: dict[str, Any], a: dict[str, Any]) -> None:
        """Each option the player fills, with those before it filled, is among the choices autocomplete offers."""
        given: dict[str, Any] = {}
        for o in command(path).options:
            if o.name not in opts:
                continue
            if o.autocomplete:
                value = str(opts[o.name])
                offered = await self.svc.autocomplete(self.channel, who, path, o.name, value, given)
                if not any(str(c.value) == value for c in offered):
                    self.finds.append(f"/{path} {o.name}:{value} (after {given}) not offered for {a}")
            given[o.name] = opts[o.name]

    async def move(self, game: Game, a: dict[str, Any], who: User) -> Reply:
        """Make the legal move ``a`` as a player would: typed, through `/act`, or by a click."""
        rng = self.rng
        x = rng.random()
        if x < 0.15 and self.last_public is not None:
            comps = [c for m in self.last_public.all() for row in m.components for c in row]
            if comps:
                c = rng.choice(comps)
                values = [rng.choice(c.options).value] if isinstance(c, Select) else []
                return await self.click(who, c.custom_id, values)  # any button: refused or not, never an apology
        t = typed(a, game) if x < 0.8 else None
        if t is None:
            return await self.do(who, "act", action=encode_action(a))
        path, opts = t
        if path == "train run":
            y = rng.random()
            if y < 0.3:
                opts = {}
            elif y < 0.6:
                opts = {**opts, **self.routes_typed(game)}
        elif path == "track lay" and rng.random() < 0.3:
            opts = {k: v for k, v in opts.items() if k != "rotation"}
        if rng.random() < 0.5:
            await self.autocomplete_offers(who, path, opts, a)
        n = len(game.actions)
        r = await self.do(who, path, **opts)
        if not r.ok:
            self.finds.append(f"/{path} {opts} refused for the legal {a}: {r.full_text()[:300]}")
            return r
        if len(game.actions) == n and path == "train run":
            # shown first: the player runs them with the post's button
            run = [c for m in r.all() for row in m.components for c in row
                   if isinstance(c, Button) and c.style == "primary"]
            if not run:
                self.finds.append(f"/train run shows no button to run: {r.full_text()[:200]}")
                return r
            return await self.click(who, run[0].custom_id)
        if len(game.actions) == n and path == "track lay":
            if not (r.ephemeral and r.pictures):  # the rotations drawn, to the player only
                self.finds.append(f"/track lay without a rotation: {r.full_text()[:200]}")
            return await self.do(who, path, hex=a["hex"], tile=a["tile"], rotation=a["rotation"])
        return r

    async def answer_offer(self, r: Reply, a: dict[str, Any]) -> Reply:
        """A purchase from another player waits for the seller, who is asked by name: mostly accepted, at times
        declined (the buyer then chooses again)."""
        buttons = {c.custom_id[-1]: c for m in r.all() for row in m.components for c in row
                   if isinstance(c, Button) and ":sale:" in c.custom_id}
        sellers = [u for u in self.users if u.id in r.mentions]
        if not buttons:
            return r  # no offer was made (a refused click, say)
        if set(buttons) != {"y", "n"} or len(sellers) != 1:
            self.finds.append(f"an offer for {a} does not ask the seller: {r.full_text()[:200]}")
            return r
        return await self.click(sellers[0], buttons["y" if self.rng.random() < 0.7 else "n"].custom_id)

    def routes_typed(self, game: Game) -> dict[str, Any]:
        """The best routes as a player types them (hex ids, the routes in any order), if any run."""
        parts = ["-".join(s.hex for s in r.stops) for r in game.round.best(game).routes]
        self.rng.shuffle(parts)
        return {"routes": "; ".join(parts)} if parts else {}

    async def undo_redo(self, who: User, n: int, before: str) -> None:
        """The mover takes the move back at once (the game as before it), then redoes it (the game as after it)."""
        game = await self.game()
        assert game is not None
        after = snapshot.fingerprint(game)
        r = await self.do(who, "undo")
        undone = await self.game()
        if not r.ok or undone is None or len(undone.actions) != n:
            self.finds.append(f"own undo of move {n} not at once: {r.full_text()[:200]}")
            return
        if snapshot.fingerprint(undone) != before:
            self.finds.append(f"undo of move {n} is not the game before it")
        r = await self.do(who, "redo")
        redone = await self.game()
        if not r.ok or redone is None or snapshot.fingerprint(redone) != after:
            self.finds.append(f"redo of move {n} is not the game after it: {r.full_text()[:200]}")

    async def agreed_undo(self, mover: User) -> None:
        """Another player asks to undo; everyone asked agrees: the game is its log replayed to that point."""
        game = await self.game()
        assert game is not None
        asker = self.rng.choice([u for u in self.users if u != mover])
        r = await self.do(asker, "undo")
        agree = [c for m in r.all() for row in m.components for c in row if isinstance(c, Button)
                 and c.custom_id.endswith(":y")]
        if not (r.ok and agree):
            return  # nothing of the asker's to go back to
        for u in self.users:
            if u.id in r.mentions:
                await self.click(u, agree[0].custom_id)
        back = await self.game()
        assert back is not None
        k = len(back.actions)
        if k >= len(game.actions) or snapshot.fingerprint(back) != snapshot.fingerprint(game.replayed(k)):
            self.finds.append(f"agreed undo to move {k} is not the game replayed to it")

    async def restart(self) -> None:
        game = await self.game()
        assert game is not None
        before = snapshot.fingerprint(game)
        await self.svc.close()
        self.svc = await Service.open(self.db, now=self.clock, seed_source=lambda: 1)
        again = await self.game()
        if again is None or snapshot.fingerprint(again) != before:
            self.finds.append(f"a restart changed the game at move {len(game.actions)}")

    async def reminders(self) -> None:
        """The reminder interval and an hour pass: the players whose turn it is are reminded, and nobody else."""
        game = await self.game()
        assert game is not None
        acting = {self.seats[p].id for p in game.acting_players()}
        cur = await self.svc.current_game(self.channel)
        assert cur is not None
        self.clock.t += cur[0].reminder_interval + 3600
        notes = [n for n in await due_notices(self.svc) if n.channel_id == self.channel]
        if not notes or not all(n.mentions and set(n.mentions) <= acting for n in notes):
            self.finds.append(f"reminders at move {len(game.actions)}: {[(n.mentions, n.text[:80]) for n in notes]}"
                              f" while {sorted(acting)} are to act")

    async def move_channel(self) -> None:
        """The table moves the game to another channel: exported here, imported there by one of them, each seat
        claimed from the menu; the game there is the game here, and play goes on there."""
        game = await self.game()
        assert game is not None
        before = snapshot.fingerprint(game)
        r = await self.do(self.rng.choice(self.users), "game export")
        if not (r.ok and r.files):
            self.finds.append(f"/game export at move {len(game.actions)}: {r.full_text()[:200]}")
            return
        self.channel += 1
        r = await self.do(self.rng.choice(self.users), "game import", file=r.files[0][1])
        menus = [c for m in r.all() for row in m.components for c in row if isinstance(c, Select)]
        if not (r.ok and menus):
            self.finds.append(f"/game import of the export at move {len(game.actions)}: {r.full_text()[:200]}")
            return
        for seat in self.rng.sample(list(self.seats), len(self.seats)):
            r = await self.click(self.seats[seat], menus[0].custom_id, [seat])
            if not r.ok:
                self.finds.append(f"{self.seats[seat].name} claiming the seat {seat}: {r.full_text()[:200]}")
                return
        self.last_public = r
        moved = await self.game()
        if moved is None or snapshot.fingerprint(moved) != before:
            self.finds.append(f"the game moved to another channel at move {len(game.actions)} is another game")

    async def replace(self, a: dict[str, Any]) -> None:
        """An administrator gives a seat to a member new to the game (someone left the table): the newcomer plays
        it from now on, and the member who left can no longer move for it (tried when the seat is to make ``a``)."""
        game = await self.game()
        assert game is not None
        seat = self.rng.choice(list(self.seats))
        old = self.seats[seat]
        self.replaced += 1
        new = User(1000 + self.replaced, f"newcomer{self.replaced}")
        r = await self.do(User(98, "admin", is_admin=True), "game replace", player=seat, user=new)
        if not (r.ok and new.id in r.mentions):
            self.finds.append(f"/game replace player:{seat}: {r.full_text()[:200]}")
            return
        self.seats[seat] = new
        if str(game.player_for(a["entity"])) == seat:
            before = snapshot.fingerprint(game)
            r = await self.do(old, "act", action=encode_action(a))
            after = await self.game()
            if r.ok or after is None or snapshot.fingerprint(after) != before:
                self.finds.append(f"{old.name} moved for the seat {seat} after leaving it: {r.full_text()[:200]}")

    async def settings(self) -> None:
        """An administrator changes the channel's language (the next posts speak it) or its reminders."""
        admin = User(98, "admin", is_admin=True)
        change = self.rng.choice([{"language": self.rng.choice(sorted(LANGUAGES))},
                                  {"reminder_hours": self.rng.choice([6, 12, 24])},
                                  {"stall_after": self.rng.choice([0, 2, 4])}])
        r = await self.do(admin, "game settings", **change)
        if not r.ok:
            self.finds.append(f"/game settings {change}: {r.full_text()[:200]}")

    async def view(self) -> None:
        path = self.rng.choice(["view players", "view corporations", "view history", "game status", "view trains",
                                "view tiles", "view holdings", "view market", "view map", "view standings",
                                "mygames"])
        r = await self.do(self.rng.choice(self.users), path)
        if not r.ok:
            self.finds.append(f"/{path} refused: {r.full_text()[:200]}")
        elif r.pictures and self.rng.random() < 0.2:
            await self.svc.render(r)


async def soak(tmp_path: Path, title: str, seed: int, moves: int,
               record: dict[str, Any] | None = None) -> tuple[list[str], int, bool]:
    """Play ``moves`` moves (or to the end) of a new game of ``title``, or of an 18xx.games ``record`` imported and
    its seats claimed; the findings, the moves made, and whether the game ended."""
    rng = random.Random(seed * 7 + len(title))
    clock = Clock()
    db = str(tmp_path / f"{title}-{seed}.sqlite3")
    svc = await Service.open(db, now=clock, seed_source=lambda: seed)
    table: Table | None = None
    try:
        if record is None:
            table = await _created(svc, db, clock, rng, title)
        else:
            table = await _imported(svc, db, clock, rng, record)
        return await _play(table, moves)
    finally:
        await (svc if table is None else table.svc).close()  # a restart replaced the first


async def _created(svc: Service, db: str, clock: Clock, rng: random.Random, title: str) -> Table:
    data = load_title(title)
    n_players = rng.randint(data.min_players, data.max_players)
    options = [k for k in rules_for(title).options if k != "rules_profile" and rng.random() < 0.3]
    table = Table(svc, db, clock, {f"p{i + 1}": User(i + 1, f"p{i + 1}") for i in range(n_players)}, rng)
    # a channel in each language: every text is rendered in it (a missing translation would fail there)
    create: dict[str, Any] = {"title": title, "images": "request", "language": rng.choice(sorted(LANGUAGES))}
    if options:
        create["options"] = ",".join(options)
    assert (await table.do(table.users[0], "game create", **create)).ok
    for u in table.users[1:]:
        assert (await table.do(u, "game join")).ok
    table.last_public = await table.do(table.users[0], "game start")
    if not table.last_public.ok and options:
        # an option the table cannot play (18FL's two-player share limit with more players): changed in the lobby
        assert (await table.do(table.users[0], "game settings", options="none")).ok
        table.last_public = await table.do(table.users[0], "game start")
    assert table.last_public.ok, table.last_public.full_text()
    return table


async def _imported(svc: Service, db: str, clock: Clock, rng: random.Random, record: dict[str, Any]) -> Table:
    """The record imported by a member who does not play, and each seat claimed by a member of that name."""
    importer = User(99, "importer")
    r = await svc.handle(CH, GUILD, importer, "game import", {"file": json.dumps(record).encode()})
    assert r.ok, r.full_text()
    menu = next(c for m in r.all() for row in m.components for c in row if isinstance(c, Select))
    seats = [o.value for o in menu.options]
    table = Table(svc, db, clock, {seat: User(i + 1, seat) for i, seat in enumerate(seats)}, rng)
    for seat, u in table.seats.items():
        r = await table.click(u, menu.custom_id, [seat])
        assert r.ok, r.full_text()
    table.last_public = r
    return table


async def _play(table: Table, moves: int) -> tuple[list[str], int, bool]:
    rng, clock = table.rng, table.clock
    made = 0
    move_at = rng.randint(1, min(moves, 600))  # when the table moves the game to another channel
    replace_at = rng.randint(1, min(moves, 600))  # when a seat changes hands
    while made < moves and not table.finds:
        cur = await table.svc.current_game(table.channel)
        if cur is None:
            break
        row, game = cur
        clock.t += 60
        legal = table.svc.legal(row.id, game)
        a = choose(rng, [parse_action(x) for x in legal], game).model_dump(exclude_none=True)
        if made == replace_at:
            await table.replace(a)
        who = table.seats[str(game.player_for(a["entity"]))]
        before, n = snapshot.fingerprint(game), len(game.actions)
        r = await table.move(game, a, who)
        if r.ok and len(game.actions) == n:
            r = await table.answer_offer(r, a)
        if r.ok and not r.ephemeral:
            table.last_public = r
        made += 1
        after = await table.game()
        if after is not None and len(after.actions) == n + 1 and rng.random() < 0.05:
            if rng.random() < 0.7:
                await table.undo_redo(who, n, before)
            else:
                await table.agreed_undo(who)
        if after is not None and rng.random() < 0.02:
            await table.restart()
        if after is not None and rng.random() < 0.03:
            await table.view()
        if after is not None and rng.random() < 0.02:
            await table.reminders()
        if after is not None and made == move_at:
            await table.move_channel()
        if after is not None and rng.random() < 0.01:
            await table.settings()
    ended = await table.game() is None
    if ended:
        r = await table.do(table.users[0], "game export")
        if not (r.ok and r.files):
            table.finds.append(f"/game export of the finished game: {r.full_text()[:200]}")
    return table.finds, made, ended


@pytest.mark.parametrize("title", TITLES)
async def test_a_table_plays_as_players_do_sample(tmp_path: Path, title: str) -> None:
    finds, made, _ = await soak(tmp_path, title, 1, 150)
    assert finds == []
    assert made == 150


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("title", TITLES)
async def test_a_table_plays_whole_games_as_players_do(tmp_path: Path, title: str, seed: int) -> None:
    finds, _, ended = await soak(tmp_path, title, seed, 4000)
    assert finds == []
    assert ended


RECORD_NAMES = ["18FL-4p-bankrupt", "18AL-4p-bank", "18AL-3p-bankrupt", "1830-3p-bank"]


def _record_cut(name: str, share: float) -> dict[str, Any]:
    """A reference record cut after ``share`` of its actions: a game still in play on the site's rules."""
    path = RECORDS / f"{name}.json"
    if not path.exists():
        pytest.skip("the reference records are not beside the repository")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:int(len(data["actions"]) * share)]
    return data


@pytest.mark.parametrize("name", RECORD_NAMES)
async def test_an_imported_game_plays_on_as_players_do_sample(tmp_path: Path, name: str) -> None:
    finds, made, ended = await soak(tmp_path, name, 1, 100, _record_cut(name, 0.4))
    assert finds == []
    assert made == 100 or ended


@pytest.mark.slow
@pytest.mark.parametrize("share", [0.2, 0.5, 0.8])
@pytest.mark.parametrize("name", RECORD_NAMES)
async def test_imported_games_play_on_to_their_end_as_players_do(tmp_path: Path, name: str, share: float) -> None:
    finds, _, ended = await soak(tmp_path, name, int(share * 10), 4000, _record_cut(name, share))
    assert finds == []
    assert ended
