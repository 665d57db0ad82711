"""What the service answers: replies (text, embeds, pictures to render, mentions, buttons and menus) and the users
it answers. Transport-free: Discord and the local simulator translate these shapes, nothing here knows either.

While the service builds a reply its texts are `engine.messages.Text` (a `Msg` in no language yet, or a str);
`localise` renders the whole tree just before the service hands it out: a message only its reader sees in that
member's language, a public one in the game's. Transports and tests receive plain str, and `Reply.lang` says which
language, for the notes a transport adds (a picture left out).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from engine.messages import Join, M, Text

from ..i18n import DEFAULT, EN, Tr
from ..texts import Embed

log = logging.getLogger("stationmaster.service")

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class User:
    id: int
    name: str
    is_admin: bool = False  # Manage Server in this guild
    locale: str | None = None  # the member's Discord locale ("ja", "en-US"); None: unknown (a test, a tool)


@dataclass
class Button:
    label: Text
    custom_id: str
    style: ButtonStyle = "secondary"
    disabled: bool = False


@dataclass
class SelectOption:
    label: Text
    value: str
    description: Text = ""


@dataclass
class Select:
    custom_id: str
    placeholder: Text
    options: list[SelectOption]


Component = Button | Select


@dataclass
class Picture:
    """A picture to render: `render` reads only the snapshot it closed over, so it may run in another thread."""

    name: str
    render: Callable[[], bytes]


@dataclass
class Reply:
    text: Text = ""
    embeds: list[Embed] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)  # users to ping
    components: list[list[Component]] = field(default_factory=list)  # rows
    ephemeral: bool = False
    ok: bool = True  # False: a refusal (nothing changed)
    followups: list[Reply] = field(default_factory=list)
    # this message calls a game's players to act (its id): the transport reports where it posted it
    # (`Service.turn_posted`) and marks the game's previous call as over, so old pings do not pile up
    turn_of: int | None = None
    lang: str = DEFAULT  # the language its texts were rendered in (see `localise`)

    def all(self) -> list[Reply]:
        out = [self]
        for f in self.followups:
            out.extend(f.all())
        return out

    def full_text(self) -> str:
        """Every message's text and embeds, for tests and logs."""
        parts = []
        for r in self.all():
            if r.text:
                parts.append(str(r.text))
            parts.extend(e.as_text() for e in r.embeds)
        return "\n".join(parts)

    def custom_ids(self) -> list[str]:
        out = []
        for r in self.all():
            for row in r.components:
                out.extend(c.custom_id for c in row)
        return out


@dataclass(frozen=True)
class Choice:
    name: Text
    value: str | int


def refusal(text: Text) -> Reply:
    return Reply(text=text, ephemeral=True, ok=False)


class Refusal(Exception):
    """A request the service turns down; the message (a `Msg` or a str) is shown to the user only."""

    def __init__(self, msg: Text) -> None:
        super().__init__(str(msg))
        self.msg = msg


def merge(into: Reply, other: Reply) -> None:
    """Append another reply's message to this one (a result followed by the prompt for the next turn)."""
    if other.text:
        into.text = Join((into.text, other.text), "\n\n") if into.text else other.text
    into.mentions += [m for m in other.mentions if m not in into.mentions]
    into.pictures += other.pictures
    into.components += other.components
    into.embeds += other.embeds
    into.turn_of = other.turn_of if other.turn_of is not None else into.turn_of


class _Safe:
    """A language that never fails a reply: a text it cannot render (a broken translation) is logged and shown in
    English instead."""

    def __init__(self, lang: str) -> None:
        self.tr = Tr(lang)
        self.lang = self.tr.lang

    def __call__(self, text: Text | None) -> str:
        try:
            return self.tr(text)
        except (KeyError, ValueError, IndexError, TypeError):
            log.exception("rendering %r in %s failed; shown in English", text, self.lang)
            return EN(text)


def sentences(*parts: Text) -> Text:
    """Sentences one after another, as the language writes them (a space in English, none in Japanese)."""
    out: Text = ""
    for part in parts:
        if part:
            out = M("{sentence} {next}", sentence=out, next=part) if out else part
    return out


def localise(reply: Reply, public: str, private: str) -> Reply:
    """Render every text of the reply and its follow-ups (in place): ephemeral messages in the reader's language
    `private`, public ones in the channel's `public`."""
    langs = {public: _Safe(public), private: _Safe(private)}
    for r in reply.all():
        t = langs[private if r.ephemeral else public]
        r.lang = t.lang
        r.text = t(r.text)
        r.embeds = [localise_embed(e, t) for e in r.embeds]
        for row in r.components:
            for comp in row:
                if isinstance(comp, Button):
                    comp.label = t(comp.label)
                else:
                    comp.placeholder = t(comp.placeholder)
                    for o in comp.options:
                        o.label, o.description = t(o.label), t(o.description)
    return reply


def localise_embed(e: Embed, t: Callable[[Text], str]) -> Embed:
    """An embed whose title, description and fields are rendered (a copy; the embed may be shared)."""
    return e.render(t)


def localise_choices(choices: list[Choice], lang: str) -> list[Choice]:
    t = _Safe(lang)
    return [c if isinstance(c.name, str) else Choice(t(c.name), c.value) for c in choices]
