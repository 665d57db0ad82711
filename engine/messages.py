"""Messages in no language yet: what the engine (and every layer above it) says, kept as a template and its values.

A `Msg` holds an English template with ``{named}`` placeholders (the gettext msgid) and the values to put in them.
It is rendered only when a reader is known: ``str(msg)`` gives English, ``msg.render(catalog)`` the catalog's
language. The engine itself never translates and does no I/O: a catalog is any object with ``gettext`` and
``ngettext`` (the bot's are read from gettext ``.po`` catalogues), so the same game speaks to each reader in their
own language and a replay never spends time formatting lines nobody reads.

`Join` puts several texts together (lines of a reply) without fixing their language.

Values are rendered by kind: another `Msg` (or `Join`) is rendered in the same language; a list or tuple becomes
a list in the language's own way (``a, b`` in English, ``a、b`` in Japanese); anything else is printed as is:
company, hex and tile ids, names and money stay as printed.

Write ``M("{player} bought {share}", player=p, share=s)``; for a count, ``MN("{n} share", "{n} shares", n=k)``.
The message extractor (``tools/i18n.py``) reads both calls, so templates must be literal strings, never f-strings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Catalog", "Join", "Msg", "M", "MN", "Text", "render", "join_list"]


class Catalog(Protocol):
    """A language: gettext's two lookups and how the language lists things."""

    list_separator: str

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    list_separator = ", "

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


ENGLISH: Catalog = _English()


@dataclass(frozen=True, slots=True)
class Msg:
    """A template and its values; ``plural`` and the ``n`` value make it a counted message."""

    text: str
    args: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.args)

    def render(self, catalog: Catalog | None = None) -> str:
        cat = catalog or ENGLISH
        if self.plural is not None:
            template = cat.ngettext(self.text, self.plural, int(self.get("n", 0)))
        else:
            template = cat.gettext(self.text)
        if not self.args:
            return template
        values = {}
        for k, v in self.args:
            s = render(v, cat)
            # a sentence given as a value where the template ends the sentence itself ("refused: {reason}."):
            # one full stop, not two
            if isinstance(v, Msg | Join) and s.endswith((".", "。")) and not s.endswith("..") \
                    and "{" + k + "}" + s[-1] in template:
                s = s[:-1]
            values[k] = s
        return template.format_map(values)

    def __str__(self) -> str:
        return self.render(ENGLISH)

    def __add__(self, other: object) -> str:
        # a Msg used where a str was expected (``msg + "."``) reads as English rather than failing
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)


_CLOSED = ("。", "）", "」", "！", "？")  # a full-width sentence end: no space after it


@dataclass(frozen=True, slots=True)
class Join:
    """Several texts shown as one (lines of a reply, a sentence and its hint), each rendered in the reader's
    language: ``Join((M("Bought."), M("Your turn again.")), " ")``."""

    parts: tuple[Any, ...]
    sep: str = "\n"

    def render(self, catalog: Catalog | None = None) -> str:
        cat = catalog or ENGLISH
        texts = [s for s in (render(p, cat) for p in self.parts if p is not None) if s]
        if self.sep != " ":
            return self.sep.join(texts)
        # sentences of a language written without spaces (Japanese: "…です。次に…") are not spaced apart
        out = texts[:1]
        for s in texts[1:]:
            out.append(s if out[-1].endswith(_CLOSED) else " " + s)
        return "".join(out)

    def __str__(self) -> str:
        return self.render(ENGLISH)

    def __bool__(self) -> bool:
        return any(bool(p) for p in self.parts)


    def __add__(self, other: object) -> str:
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)


Text = Msg | Join | str


def M(text: str, /, **args: Any) -> Msg:  # noqa: N802 - the extractor's keyword
    """A message: ``M("{corp} floats", corp="FEC")``."""
    return Msg(text, tuple(args.items()))


def MN(singular: str, plural: str, /, **args: Any) -> Msg:  # noqa: N802 - the extractor's keyword
    """A counted message; the count is the value ``n``: ``MN("{n} share", "{n} shares", n=2)``."""
    if "n" not in args:
        raise TypeError("a counted message needs its count as n=")
    return Msg(singular, tuple(args.items()), plural)


def render(value: Any, catalog: Catalog | None = None) -> str:
    """Any value as text in the catalog's language (English without one)."""
    cat = catalog or ENGLISH
    if isinstance(value, (Msg, Join)):
        return value.render(cat)
    if isinstance(value, (list, tuple)):
        return cat.list_separator.join(render(v, cat) for v in value)
    return str(value)


def join_list(items: Iterable[Any]) -> tuple[Any, ...]:
    """Items to be shown as one list value (the language decides the separator)."""
    return tuple(items)
