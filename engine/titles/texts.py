"""The titles' words kept as data, in the message catalogues.

Most of what a title says is written in its rules module as ``M(...)`` messages. A few texts players read are
data rather than code, and their English is their gettext msgid:

- each option's description (``TitleRules.options``), shown by ``/help topic:options``, the ``options:``
  autocomplete of ``/game create`` and the reply to it;
- each optional rule's ``text`` in the title data (``optional_rules``), the rulebook's wording of those options.

The rest of the data files is not listed: names of corporations, privates, cities, ports, hexes and name chits
are proper names shown as printed; provenance notes, assumptions and per-item sources are for maintainers (the
bot writes its own reconstruction line); the market legend is drawn with the picture's own zone words; phase and
event names are ids.

``catalogue_texts`` feeds ``python -m tools.i18n`` (domain ``titles``); the bot shows such a text with
``data_text(text)``, which any reader's catalogue then translates.
"""

from __future__ import annotations

from ..errors import GameError
from ..messages import Msg


def data_text(text: str) -> Msg:
    """A text from a title's data (an option's description) as a message: translated where a catalogue has it,
    else shown as written."""
    return Msg(text)


def catalogue_texts() -> list[tuple[str, None, None]]:
    """Every data text of every title that reaches players, as (msgid, plural, context) for the catalogue."""
    from ..titledata import load_title
    from . import PROFILES, TITLES, rules_for

    seen: dict[str, None] = {}
    for title in TITLES:
        for profile in PROFILES:
            try:
                rules = rules_for(title, profile)
            except GameError:  # a title without that profile (18FR-RCE) has nothing more to list
                continue
            seen.update(dict.fromkeys(rules.options.values()))
        seen.update(dict.fromkeys(rule.text for rule in load_title(title).optional_rules))
    return [(text, None, None) for text in seen if text]


__all__ = ["catalogue_texts", "data_text"]
