"""A record's frame checked before anything reads it (18xx-games-format.md sections 3 and 6): each field the reader
relies on has the kind of value the site writes there. A file that is valid JSON but of another shape is refused
with the field's name, never left to fail deep in the replay."""

from __future__ import annotations

from typing import Any

from ..messages import M, Msg
from .errors import RecordError
from .seats import META_KEY

_SCALAR = (str, int)  # an id: the site writes numbers, some old records strings
_NUMBER = (int, float)  # an action's id: the site writes whole numbers; a repaired record may slot one between
_WORDS = {_NUMBER: M("a number"), (str,): M("a text"), _SCALAR: M("a number or a text")}


def check_shape(record: dict[str, Any]) -> None:
    title = record.get("title")
    if not isinstance(title, str):
        raise RecordError(M("the record's title must be a text such as \"1830\", not {value}", value=_show(title)))
    settings = record.get("settings")
    if settings is not None:
        if not isinstance(settings, dict):
            raise RecordError(M("the record's settings must be an object, not {value}", value=_show(settings)))
        rules = settings.get("optional_rules")
        if rules is not None and not (isinstance(rules, list) and all(isinstance(r, str) for r in rules)):
            raise RecordError(M("the record's optional rules must be a list of names, not {value}",
                                value=_show(rules)))
        _field(settings.get("seed"), M("the record's seed"), _SCALAR)
    meta = record.get(META_KEY)
    if meta is not None:
        if not isinstance(meta, dict):
            raise RecordError(M("the record's {key} block must be an object, not {value}", key=META_KEY,
                                value=_show(meta)))
        if not isinstance(meta.get("options") or {}, dict) or not isinstance(meta.get("local_actions") or [], list):
            raise RecordError(M("the record's {key} block is not one our export writes", key=META_KEY))
    for i, p in enumerate(record.get("players") or [], 1):
        if not isinstance(p, dict):
            continue  # said by the seats, which name the entry
        _field(p.get("id"), M("player {n}'s id", n=i), _SCALAR)
        name = p.get("name")
        if name is not None and not (isinstance(name, str) and name.strip()):
            raise RecordError(M("player {n}'s name must be a text that is not empty, not {value}", n=i,
                                value=_show(name)))
    for a in record.get("actions") or []:
        if not isinstance(a, dict):
            continue  # said by the walk, which names the action
        _action(a)
        autos = a.get("auto_actions")
        if isinstance(autos, list):
            for auto in autos:
                if isinstance(auto, dict):
                    _action(auto, a)


def _action(a: dict[str, Any], outer: dict[str, Any] | None = None) -> None:
    aid = (outer or a).get("id")
    where = outer or a
    try:
        _field(a.get("id"), M("its id"), _NUMBER)
        _field(a.get("type"), M("its type"), (str,))
        _field(a.get("entity"), M("its entity"), _SCALAR)
        _field(a.get("entity_type"), M("its entity type"), (str,))
        _field(a.get("action_id"), M("the action it undoes to"), _NUMBER)
    except RecordError as e:
        raise RecordError(e.reason, aid if isinstance(aid, _NUMBER) else None, where) from None


def _field(value: Any, what: Msg, kinds: tuple[type, ...]) -> None:
    """``value`` is absent or of one of ``kinds`` (a bool is no number here)."""
    if value is None or (isinstance(value, kinds) and not isinstance(value, bool)):
        return
    raise RecordError(M("{what} must be {kinds}, not {value}", what=what, kinds=_WORDS[kinds], value=_show(value)))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
