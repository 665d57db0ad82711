"""What the service answers: replies (text, embeds, pictures to render, mentions, buttons and menus) and the users
it answers. Transport-free: Discord and the local simulator translate these shapes, nothing here knows either."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..texts import Embed

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class User:
    id: int
    name: str
    is_admin: bool = False  # Manage Server in this guild


@dataclass
class Button:
    label: str
    custom_id: str
    style: ButtonStyle = "secondary"
    disabled: bool = False


@dataclass
class SelectOption:
    label: str
    value: str
    description: str = ""


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[SelectOption]


Component = Button | Select


@dataclass
class Picture:
    """A picture to render: `render` reads only the snapshot it closed over, so it may run in another thread."""

    name: str
    render: Callable[[], bytes]


@dataclass
class Reply:
    text: str = ""
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
                parts.append(r.text)
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
    name: str
    value: str | int


def refusal(text: str) -> Reply:
    return Reply(text=text, ephemeral=True, ok=False)


class Refusal(Exception):
    """A request the service turns down; the message is shown to the user only."""


def merge(into: Reply, other: Reply) -> None:
    """Append another reply's message to this one (a result followed by the prompt for the next turn)."""
    if other.text:
        into.text = f"{into.text}\n\n{other.text}" if into.text else other.text
    into.mentions += [m for m in other.mentions if m not in into.mentions]
    into.pictures += other.pictures
    into.components += other.components
    into.embeds += other.embeds
    into.turn_of = other.turn_of if other.turn_of is not None else into.turn_of


