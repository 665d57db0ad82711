"""The command table in Discord's locales: discord.py's `app_commands.Translator`, backed by our catalogues.

The Discord adapter builds every name, description and fixed choice of the command tree as a `locale_str` made
by `localizable` (its gettext context rides along in the extras); when the tree is synced, discord.py asks the
translator for each of them in every Discord locale, and Discord shows a member whose client is in Japanese the
Japanese names. English is the default: for locales we have no language for, the translator answers nothing.
Interactions still carry the English names, so nothing else in the bot changes.
"""

from __future__ import annotations

from discord import Locale, app_commands

from .commands import translated
from .i18n import DEFAULT, language_of


def localizable(text: str, context: str | None = None) -> app_commands.locale_str:
    """A text of the command table for discord.py; ``context`` is "command", "option" or "choice" for names."""
    return app_commands.locale_str(text, context=context)


class CatalogueTranslator(app_commands.Translator):
    """Names and descriptions of the command tree from the `commands` catalogue, for the locales we speak."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = language_of(locale)
        if lang == DEFAULT:
            return None
        return translated(string.message, string.extras.get("context"), lang)
