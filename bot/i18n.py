"""Languages: the message catalogues and who reads which language.

Every text the bot sends is a `engine.messages.Msg` (a template with values) until it is rendered for its reader.
The templates are English and are the gettext msgids; the other languages live in gettext catalogues under
``bot/locale/<lang>/<domain>.po`` (one domain per room of the code: engine, titles, bot, commands, render), read
with Babel and compiled in memory on first use. ``bot/locale/<domain>.pot`` is the English catalogue, extracted
from the code by ``python -m tools.i18n update``; the catalogue test fails when a template is missing from a
language or its placeholders differ.

Who reads what: a game's channel posts follow the game's ``language`` setting (by default the guild's preferred
locale when the game was created); replies only one member sees follow that member's own Discord locale.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from engine.messages import ENGLISH, Catalog, Join, Msg, Text, render

LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT = "en"
LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語"}
DOMAINS: tuple[str, ...] = ("engine", "titles", "texts", "bot", "commands", "render")
LIST_SEPARATORS = {"en": ", ", "ja": "、"}


def language_of(locale: Any) -> str:
    """Our language for a Discord locale ("ja", "en-US", a `discord.Locale`), English when we have none."""
    if locale is None:
        return DEFAULT
    code = str(getattr(locale, "value", locale)).lower()
    for lang in LANGUAGES:
        if code == lang or code.startswith(lang + "-"):
            return lang
    return DEFAULT


class _Translations(gettext.GNUTranslations):
    list_separator = ", "


class _Merged:
    """One language's catalogues of every domain, looked up as one."""

    def __init__(self, lang: str, parts: Iterable[gettext.GNUTranslations]) -> None:
        self.lang = lang
        self.list_separator = LIST_SEPARATORS.get(lang, ", ")
        self._parts = list(parts)

    def gettext(self, message: str, /) -> str:
        for part in self._parts:
            got = part._catalog.get(message)  # type: ignore[attr-defined]  # a miss falls through to the next domain
            if got:
                return str(got)
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        for part in self._parts:
            if (singular, 0) in part._catalog:  # type: ignore[attr-defined]
                return part.ngettext(singular, plural, n)
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        for part in self._parts:
            got = part._catalog.get(f"{context}\x04{message}")  # type: ignore[attr-defined]
            if got:
                return str(got)
        return message


def _compile(po_path: Path) -> gettext.GNUTranslations:
    with po_path.open("rb") as f:
        cat = read_po(f, locale=po_path.parent.name)
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    buf.seek(0)
    return _Translations(buf)


@cache
def catalog(lang: str) -> Catalog:
    """The catalogue of a language (English: the templates themselves)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return ENGLISH
    parts = [_compile(LOCALE_DIR / lang / f"{d}.po") for d in DOMAINS if (LOCALE_DIR / lang / f"{d}.po").exists()]
    return _Merged(lang, parts)


def tr(text: Text | None, lang: str = DEFAULT) -> str:
    """A message (or an already rendered text) in a language."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    return render(text, catalog(lang))


def pgettext(context: str, message: str, lang: str) -> str:
    """A word looked up with a context (command names: ``pgettext("command", "lay", "ja")``)."""
    cat = catalog(lang)
    return cat.pgettext(context, message) if isinstance(cat, _Merged) else message


class Tr:
    """A reader's language, as a callable: ``t = Tr("ja"); t(M("..."))``."""

    __slots__ = ("lang", "catalog")

    def __init__(self, lang: str = DEFAULT) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self.catalog = catalog(self.lang)

    def __call__(self, text: Text | None) -> str:
        if text is None:
            return ""
        if isinstance(text, (Msg, Join)):
            return text.render(self.catalog)
        return text

    def __repr__(self) -> str:
        return f"Tr({self.lang!r})"


EN = Tr(DEFAULT)
