"""Players at the fake Discord: real interaction payloads sent through the gateway, as Discord's client sends them.

`Driver.slash` builds a slash command from the commands the bot registered (their real ids and option types),
checking what Discord's client checks before it sends anything (required options, fixed choices, ranges).
`Driver.complete` asks for autocomplete choices; `Driver.click` and `Driver.pick` press a button or choose a menu
entry on a message the bot actually sent, by its real id and custom id, and only if that user can see the message
and the component is still on it. Each call returns an `Exchange`: the interaction and the messages it produced.

`AutoPlayer` plays a game to its end with a seeded policy, choosing only what the bot offers (the prompt's
buttons and menus, `/act`'s autocomplete), and checks what players see at every step.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from .fake_discord import GUILD_ID, FakeDiscord, FakeUser, Interaction, Message

PROMPT = "➡️"
GAME_OVER = "🏁 **Game over**"
SUMMARY = "📋 **"
SEALED = "🤫"
OFFER = "🤝"  # a train offered between corporations: the seller's president accepts or declines
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_problem(data: bytes) -> str | None:
    """Why the bytes are not a valid PNG picture, or None."""
    if not data.startswith(PNG_MAGIC):
        return "not a PNG file"
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.verify()
        with Image.open(io.BytesIO(data)) as img:
            img.load()
            if img.format != "PNG" or img.width < 50 or img.height < 50:
                return f"unexpected picture {img.format} {img.width}x{img.height}"
    except Exception as e:  # any decoding failure is the finding
        return f"does not decode: {e}"
    return None


class Exchange:
    """One interaction and what the bot answered."""

    def __init__(self, driver: Driver, iid: str, user: FakeUser) -> None:
        self.driver = driver
        self.fake = driver.fake
        self.id = iid
        self.user = user

    @property
    def interaction(self) -> Interaction:
        return self.fake.interaction(self.id)

    def messages(self) -> list[Message]:
        """Answers and follow-ups (a "thinking" placeholder not yet replaced is left out)."""
        return [m for m in self.fake.messages_of(self.id) if not m.loading]

    def public(self) -> list[Message]:
        return [m for m in self.messages() if not m.ephemeral]

    async def answered(self, timeout: float = 15.0) -> Interaction:
        """Until the first answer (a reply, a deferral, choices); fails on a dead interaction."""
        deadline = time.monotonic() + timeout
        while True:
            inter = self.interaction
            if inter.dead:
                raise AssertionError(f"{inter.label}: the interaction died unanswered; {self.fake.problems()}")
            if inter.ack_type is not None:
                return inter
            if time.monotonic() > deadline:
                raise AssertionError(f"{inter.label}: no answer")
            await asyncio.sleep(0.005)

    async def until(self, done: Callable[[list[Message]], bool], timeout: float = 30.0,
                    what: str = "the expected answer") -> list[Message]:
        await self.answered(timeout)
        deadline = time.monotonic() + timeout
        while True:
            msgs = self.messages()
            if done(msgs):
                return msgs
            if self.interaction.dead or time.monotonic() > deadline:
                raise AssertionError(f"{self.interaction.label}: no {what}; got {[m.text() for m in msgs]}; "
                                     f"problems {self.fake.problems()}")
            await asyncio.sleep(0.005)

    async def reply(self, timeout: float = 30.0) -> Message:
        """The first message of the answer."""
        return (await self.until(bool, timeout, "reply"))[0]

    async def refused(self, timeout: float = 30.0) -> Message:
        """The answer, which must be a refusal: only the user sees it."""
        msg = await self.reply(timeout)
        assert msg.ephemeral and msg.audience == self.user.id, f"a refusal in public: {msg.text()!r}"
        assert len(self.messages()) == 1, [m.text() for m in self.messages()]
        return msg

    async def files(self, suffixes: Sequence[str], timeout: float = 60.0) -> list[tuple[str, bytes]]:
        """Until attachments ending with each suffix arrived; returns every attachment of the exchange."""
        def have(msgs: list[Message]) -> bool:
            names = [a.filename for m in msgs for a in m.attachments]
            return all(any(n.endswith(s) for n in names) for s in suffixes)

        msgs = await self.until(have, timeout, f"pictures {list(suffixes)}")
        return [(a.filename, a.data) for m in msgs for a in m.attachments]


@dataclass
class Turn:
    """What the channel shows after an answer: whose turn it is and the message whose buttons act."""

    exchange: Exchange
    acting: list[int]  # users the ➡️ line names
    line: str  # the ➡️ line
    message: Message | None  # the public message with the prompt's components (or with the ➡️ line)
    over: bool
    text: str  # everything the answer shows in public
    offer: Message | None = None  # an offer waiting for the other president's answer instead of a prompt


class Driver:
    """Sends interactions as Discord's client would."""

    def __init__(self, fake: FakeDiscord, channel_id: str | None = None) -> None:
        self.fake = fake
        self.channel_id = channel_id or fake.channel_id

    # -- commands
    def registered(self, name: str) -> dict[str, Any]:
        with self.fake.lock:
            for scope in (GUILD_ID, None):
                for c in self.fake.commands.get(scope, []):
                    if c["name"] == name:
                        return c
        raise AssertionError(f"the bot registered no command /{name}")

    def _data(self, path: str, given: dict[str, Any], focused: str | None, current: str
              ) -> tuple[dict[str, Any], int | None]:
        words = path.split()
        top = self.registered(words[0])
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        node, target = top, data
        if len(words) == 2:
            sub = next((o for o in top.get("options") or [] if o["name"] == words[1] and o["type"] == 1), None)
            assert sub is not None, f"/{path} is not registered"
            inner: dict[str, Any] = {"name": sub["name"], "type": 1}
            data["options"] = [inner]
            node, target = sub, inner
        schema = {o["name"]: o for o in node.get("options") or []}
        unknown = set(given) - set(schema) - ({focused} if focused else set())
        assert not unknown, f"/{path} has no option {unknown}"
        options: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        focused_type: int | None = None
        for name, o in schema.items():
            if name == focused:
                assert o.get("autocomplete"), f"/{path} {name} has no autocomplete"
                # Discord sends what is typed so far as text, whatever the option's type
                options.append({"name": name, "type": o["type"], "value": current, "focused": True})
                focused_type = o["type"]
                continue
            if name not in given or given[name] is None:
                assert not o.get("required") or focused, f"/{path} needs {name}"  # the client will not send it
                continue
            options.append({"name": name, "type": o["type"], "value": self._value(path, o, given[name], resolved)})
        target["options"] = options
        if resolved:
            data["resolved"] = resolved
        return data, focused_type

    @staticmethod
    def _value(path: str, o: dict[str, Any], value: Any, resolved: dict[str, Any]) -> Any:
        kind = o["type"]
        if kind == 6:
            assert isinstance(value, FakeUser), f"/{path} {o['name']} takes a member"
            resolved.setdefault("users", {})[str(value.id)] = value.user_json()
            resolved.setdefault("members", {})[str(value.id)] = value.member_json(with_user=False)
            return str(value.id)
        if kind == 5:
            assert isinstance(value, bool), f"/{path} {o['name']} is true or false"
        elif kind == 4:
            assert isinstance(value, int) and not isinstance(value, bool), f"/{path} {o['name']} is a whole number"
        elif kind == 10:
            assert isinstance(value, int | float) and not isinstance(value, bool), f"/{path} {o['name']} is a number"
        else:
            assert isinstance(value, str), f"/{path} {o['name']} is text"
            assert len(value) <= 6000
        if o.get("choices"):
            assert value in [c["value"] for c in o["choices"]], f"/{path} {o['name']}: {value!r} is not offered"
        if kind in (4, 10):
            if o.get("min_value") is not None:
                assert value >= o["min_value"], f"/{path} {o['name']} below its minimum"
            if o.get("max_value") is not None:
                assert value <= o["max_value"], f"/{path} {o['name']} above its maximum"
        return value

    async def slash(self, user: FakeUser, path: str, /, **options: Any) -> Exchange:
        data, _ = self._data(path, options, None, "")
        iid = await self.fake.arun(self.fake.interact(user, 2, data, label=f"/{path}", channel_id=self.channel_id))
        return Exchange(self, iid, user)

    async def complete(self, user: FakeUser, path: str, option: str, current: str = "", /,
                       **options: Any) -> list[dict[str, Any]]:
        """The choices the bot offers for `option` while `current` is typed and the other options are filled."""
        data, focused_type = self._data(path, options, option, current)
        iid = await self.fake.arun(self.fake.interact(user, 4, data, label=f"/{path} {option}: autocomplete",
                                                      channel_id=self.channel_id, focused_type=focused_type))
        inter = await Exchange(self, iid, user).answered()
        assert inter.ack_type == 8 and inter.choices is not None
        return inter.choices

    # -- components
    def _visible(self, user: FakeUser, message: Message | str) -> Message:
        mid = message if isinstance(message, str) else message.id
        msg = self.fake.message(mid)
        assert msg.visible_to(user.id), f"{user.name} cannot see message {mid}"
        return msg

    async def click(self, user: FakeUser, message: Message | str, custom_id: str) -> Exchange:
        msg = self._visible(user, message)
        comp = msg.component(custom_id)
        assert comp is not None and comp.get("type") == 2, f"no button {custom_id} on message {msg.id} any more"
        assert not comp.get("disabled"), f"button {comp.get('label')} is disabled"
        return await self._component(user, msg, {"custom_id": custom_id, "component_type": 2},
                                     f"click {comp.get('label')!r}")

    async def pick(self, user: FakeUser, message: Message | str, custom_id: str, value: str) -> Exchange:
        msg = self._visible(user, message)
        comp = msg.component(custom_id)
        assert comp is not None and comp.get("type") == 3, f"no menu {custom_id} on message {msg.id} any more"
        option = next((o for o in comp.get("options") or [] if o["value"] == value), None)
        assert option is not None, f"the menu offers no {value!r}"
        return await self._component(user, msg, {"custom_id": custom_id, "component_type": 3, "values": [value]},
                                     f"menu {comp.get('placeholder')!r}: {option['label']!r}")

    async def _component(self, user: FakeUser, msg: Message, data: dict[str, Any], label: str) -> Exchange:
        iid = await self.fake.arun(self.fake.interact(user, 3, data, label=label, message_id=msg.id,
                                                      channel_id=msg.channel_id))
        return Exchange(self, iid, user)

    @staticmethod
    def button(message: Message, label: str) -> dict[str, Any]:
        for b in message.buttons():
            if label in (b.get("label") or ""):
                return b
        labels = [b.get("label") for b in message.buttons()]
        raise AssertionError(f"no button {label!r} on {message.text()!r}: {labels}")

    # -- the game's flow
    async def turn(self, ex: Exchange, timeout: float = 60.0) -> Turn:
        """Wait for an action's answer to show whose turn it is (or the game's end); fail on a refusal."""
        def done(msgs: list[Message]) -> bool:
            if any(m.ephemeral and not m.content.startswith(SEALED) for m in msgs):
                return True  # refused
            return any(PROMPT in m.content or GAME_OVER in m.content or (OFFER in m.content and m.buttons())
                       for m in msgs if not m.ephemeral)

        msgs = await ex.until(done, timeout, "turn prompt")
        refusal = next((m for m in msgs if m.ephemeral and not m.content.startswith(SEALED)), None)
        if refusal is not None:
            raise AssertionError(f"{ex.interaction.label} by {ex.user.name} was refused: {refusal.text()}")
        public = [m for m in msgs if not m.ephemeral]
        over = any(GAME_OVER in m.content for m in public)
        offer = next((m for m in public if OFFER in m.content and m.buttons()), None)
        if offer is not None:
            return Turn(ex, [], "", None, False, "\n".join(m.text() for m in public), offer)
        with_prompt = next((m for m in reversed(public) if PROMPT in m.content), None)
        message = with_prompt
        if with_prompt is not None and not with_prompt.components:
            # a reply longer than 2000 characters comes in parts; the buttons ride on its last part
            deadline = time.monotonic() + 0.3
            while time.monotonic() < deadline:
                later = [m for m in ex.public() if m.components and int(m.id) > int(with_prompt.id)]
                if later:
                    message = later[-1]
                    break
                await asyncio.sleep(0.01)
        line = ""
        acting: list[int] = []
        if with_prompt is not None:
            line = next(x for x in with_prompt.content.splitlines() if x.startswith(PROMPT))
            acting = [int(u) for u in re.findall(r"<@(\d+)>", line.split(" — ")[0])]
        return Turn(ex, acting, line, message, over, "\n".join(m.text() for m in ex.public()))


# -- a seeded player -----------------------------------------------------------------------------------------

# Weights per kind of action, biased so that games end: buying trains and paying out make the bank break. The
# policy picks a kind first, then one action of that kind, so a kind with many variants (tile lays, sales) is not
# chosen more often for having more of them.
WEIGHTS = {
    "bid": 1.0, "par": 3.0, "buy_shares": 4.0, "sell_shares": 0.1, "pass": 1.0, "lay_tile": 3.0,
    "place_token": 1.5, "hex_token": 1.0, "assign": 0.5, "run_routes": 1.0, "dividend:payout": 4.0,
    "dividend:withhold": 1.0, "buy_train": 6.0, "buy_train:from a corporation": 0.3, "discard_train": 1.0,
    "convert": 1.0, "bankrupt": 1.0,
}
# when /act's list is cut at 25, these kinds are asked for by name so the policy still sees them
WANTED = ("buy_train|", "run_routes|", "dividend|", "par|", "buy_shares|", "pass|")


def _star(encoded: str) -> str:
    """The "whoever clicks" form of an encoded action (sealed-bid buttons carry entity "*")."""
    parts = encoded.split("|")
    return "|".join([parts[0], "*", *parts[2:]])


@dataclass
class Step:
    number: int
    user: FakeUser
    action: str  # the encoded action chosen
    how: str  # "button", "menu" or "/act"
    turn: Turn  # what the channel showed after it


@dataclass
class AutoPlayer:
    """Plays from what the bot offers. `expected_acting` (optional) tells whose turn it really is, to compare with
    the ➡️ line; `on_step` sees every step."""

    driver: Driver
    users: dict[int, FakeUser]
    rng: random.Random
    images: str = "turn"
    button_share: float = 0.8  # how often a button or menu is used when it offers the chosen action
    expected_acting: Callable[[], Awaitable[list[int]]] | None = None
    on_step: Callable[[Step], Awaitable[None]] | None = None
    steps: list[Step] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    pictures: list[tuple[str, bytes]] = field(default_factory=list)

    @staticmethod
    def kind(encoded: str) -> str:
        kind = encoded.split("|", 1)[0]
        if kind == "dividend":
            return "dividend:payout" if "kind=payout" in encoded else "dividend:withhold"
        if kind == "buy_train" and "price=" in encoded:
            return "buy_train:from a corporation"  # at a price the other president must accept
        return kind

    async def options(self, user: FakeUser) -> list[dict[str, Any]]:
        choices = await self.driver.complete(user, "act", "action", "")
        if len(choices) >= 25:
            seen = {c["value"] for c in choices}
            for prefix in WANTED:
                for c in await self.driver.complete(user, "act", "action", prefix):
                    if c["value"] not in seen:
                        seen.add(c["value"])
                        choices.append(c)
        return choices

    async def step(self, turn: Turn) -> Turn:
        assert not turn.over and turn.acting, f"nobody to act: {turn.text!r}"
        candidates = [self.users[u] for u in sorted(turn.acting)]
        self.rng.shuffle(candidates)
        user, choices = candidates[0], []
        for user in candidates:
            choices = await self.options(user)
            if choices:
                break
        assert choices, f"the ➡️ line names {[u.name for u in candidates]} but /act offers them nothing"
        for c in choices:
            assert 1 <= len(c["name"]) <= 100 and len(c["value"]) <= 100
        kinds: dict[str, list[str]] = {}
        for c in choices:
            kinds.setdefault(self.kind(c["value"]), []).append(c["value"])
        names = sorted(kinds)
        kind = self.rng.choices(names, weights=[WEIGHTS.get(k, 1.0) for k in names], k=1)[0]
        encoded = self.rng.choice(kinds[kind])
        ex, how = await self._send(user, turn, encoded)
        nxt = await self.driver.turn(ex)
        if nxt.offer is not None:
            # a train from another player's corporation: its president is asked, and accepts
            offer = nxt.offer
            sellers = [self.users[u] for u in offer.mentioned() if u in self.users]
            assert len(sellers) == 1 and offer.pinged() == {sellers[0].id}, offer.text()
            accept = next(b for b in offer.buttons() if b.get("style") == 3)  # the green one, in any language
            ex = await self.driver.click(sellers[0], offer, accept["custom_id"])
            nxt = await self.driver.turn(ex)
            how += ", accepted"
        await self._check(user, encoded, ex, nxt)
        step = Step(len(self.steps) + 1, user, encoded, how, nxt)
        self.steps.append(step)
        if self.on_step is not None:
            await self.on_step(step)
        return nxt

    async def _send(self, user: FakeUser, turn: Turn, encoded: str) -> tuple[Exchange, str]:
        msg = self.driver.fake.message(turn.message.id) if turn.message is not None else None
        if msg is not None and self.rng.random() < self.button_share:
            for b in msg.buttons():
                cid = b.get("custom_id") or ""
                if cid.endswith(":a:" + encoded) or cid.endswith(":a:" + _star(encoded)):
                    return await self.driver.click(user, msg, cid), "button"
            for s in msg.selects():
                if any(o["value"] == encoded for o in s.get("options") or []):
                    return await self.driver.pick(user, msg, s["custom_id"], encoded), "menu"
        return await self.driver.slash(user, "act", action=encoded), "/act"

    async def _check(self, user: FakeUser, encoded: str, ex: Exchange, turn: Turn) -> None:
        """What players see after an action: a public answer, whose turn it is, the pictures it promises."""
        msgs = ex.messages()
        private = [m for m in msgs if m.ephemeral]
        for m in private:
            assert m.audience == user.id and m.content.startswith(SEALED), m.text()  # only the sealed-bid note
        if private and "revealed" not in turn.text:
            assert not any("$" in x for x in turn.text.splitlines() if "has made a sealed bid" in x), turn.text
        assert ex.public(), f"{encoded}: nothing public"
        if not turn.over:
            line = turn.line
            assert line, f"{encoded}: no ➡️ line in {turn.text!r}"
            assert set(turn.acting) <= set(self.users), line
            if self.expected_acting is not None:
                assert sorted(turn.acting) == sorted(await self.expected_acting()), line
            pinged = set().union(*(m.pinged() for m in ex.public()))
            assert pinged <= set(turn.acting), f"pings {pinged} beyond {line}"
        self.summaries += [x for m in ex.public() for x in m.content.split("\n") if x.startswith(SUMMARY)]
        wanted: list[str] = []
        if turn.over:
            wanted += ["-standings.png", "-map.png"]
        elif self.images != "request" and "Best routes:" in turn.text:
            wanted.append("-routes.png")
        if not turn.over and self.images == "round" and SUMMARY + "End of" in turn.text:
            wanted += ["-map.png", "-market.png"]
        if wanted:
            files = await ex.files(wanted)
            for name, data in files:
                problem = png_problem(data)
                assert problem is None, f"{name}: {problem}"
            self.pictures += files

    async def play(self, turn: Turn, max_steps: int = 3000) -> Turn:
        """Until the game is over."""
        return await self.play_until(turn, lambda t: t.over, max_steps)

    async def play_until(self, turn: Turn, wanted: Callable[[Turn], bool], max_steps: int = 400) -> Turn:
        for _ in range(max_steps):
            if wanted(turn):
                return turn
            turn = await self.step(turn)
        raise AssertionError(f"not reached in {max_steps} steps; now {turn.line}")


# -- openings ------------------------------------------------------------------------------------------------


async def start_game(driver: Driver, creator: FakeUser, others: Sequence[FakeUser], **create: Any) -> Turn:
    """/game create (as `creator`), /game join for the others, /game start: the first prompt."""
    created = await (await driver.slash(creator, "game create", title="18FL", **create)).reply()
    assert "created a game of **18FL**" in created.content, created.content
    for user in others:
        joined = await (await driver.slash(user, "game join")).reply()
        assert "joins game" in joined.content, joined.content
    return await driver.turn(await driver.slash(creator, "game start"))


async def draft(driver: Driver, turn: Turn, bids: dict[FakeUser, int]) -> Turn:
    """18FL's opening: everyone clicks a sealed-bid button on the first prompt, then each chooser in turn clicks the
    first private company offered. Returns the stock round's first prompt."""
    assert turn.message is not None
    for user, price in bids.items():
        button = driver.button(turn.message, f"Bid ${price}")
        after = await driver.turn(await driver.click(user, turn.message, button["custom_id"]))
    turn = after
    while "chooses a private company" in turn.line:
        assert turn.message is not None and len(turn.acting) == 1
        chooser = driver.fake.users[turn.acting[0]]
        turn = await driver.turn(await driver.click(chooser, turn.message, turn.message.buttons()[0]["custom_id"]))
    return turn
