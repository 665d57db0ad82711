"""Atomic actions without copying the world: an undo journal kept by the state objects themselves.

Design. Every mutable thing a game is made of is either a ``Tracked`` object (players, certificates, trains,
corporations, hexes, the market, rounds, a title's own state, the game itself) or a tracked container
(``TList``, ``TDict``, ``TSet``). While a *frame* is open (``Game.process`` opens one per action), the first
change to any of them saves what that one object held just before, shallowly:

- a ``Tracked`` object: a copy of its ``__dict__`` (one per object per frame, however often it is written);
- a ``TDict`` or ``TSet``: a shallow copy of its contents;
- a ``TList``: only its length while it just grows (``append``/``extend``: the game's log and messages), a
  shallow copy of its contents as soon as anything else changes it.

Rolling a frame back puts those contents back into the same objects, so every reference anyone holds stays
valid; objects created during the action become unreachable. Committing a frame hands its entries to the frame
around it (``Game.check`` and the record reader try actions inside a frame of their own). The cost is proportional
to what an action touches, not to the size of the game, and nothing is recorded when no frame is open: a trusted
replay of a stored log runs with no journal at all.

Title code needs no special care beyond two rules: a class whose instances live in the game state and change must
subclass ``Tracked`` (a ``@dataclass`` may simply add it as a base). Plain ``list``, ``dict`` and ``set`` values are
turned into tracked ones, recursively, when they are stored in a tracked object or container, so ordinary code
(``self.lays = []``, ``st.tokens[0][1] = corp``, ``bids.setdefault(k, []).append(x)``) is journalled as it is.
The one thing that escapes is keeping a reference to a plain list *after* storing it and changing it through
that reference; ``tests/test_journal.py`` rolls back every action of self-played games of every title and compares
a full fingerprint of the state, so a title that breaks the rule fails there, naming the action. And attributes
whose names start with an underscore are caches (``_best``), not the position: a snapshot leaves them out
(``tests/test_checkpoints.py`` resumes every title from snapshots and compares with the replayed log).

Frames are per thread (the bot applies actions in worker threads).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["Frame", "TDict", "TList", "TSet", "Tracked", "begin", "commit", "rollback", "tracked", "transaction"]

_OBJ, _LEN, _LIST, _DICT, _SET = range(5)


class _Active(threading.local):
    frame: Frame | None = None


_active = _Active()


class Frame:
    """What the objects changed since the frame opened held before their first change."""

    __slots__ = ("parent", "saved")

    def __init__(self, parent: Frame | None) -> None:
        self.parent = parent
        self.saved: dict[int, list[Any]] = {}  # id(obj) -> [obj, kind, payload]


def begin() -> Frame:
    """Open a frame inside the current one (if any); it must be ended by ``commit`` or ``rollback``."""
    frame = Frame(_active.frame)
    _active.frame = frame
    return frame


def _close(frame: Frame) -> None:
    if _active.frame is not frame:
        raise AssertionError("journal frames must be closed innermost first")
    _active.frame = frame.parent


def rollback(frame: Frame) -> None:
    """Put every object changed inside ``frame`` back as it was when the frame opened."""
    _close(frame)
    for obj, kind, payload in frame.saved.values():
        if kind == _OBJ:
            d = obj.__dict__
            d.clear()
            d.update(payload)
        elif kind == _LEN:
            list.__delitem__(obj, slice(payload, None))
        elif kind == _LIST:
            list.__setitem__(obj, slice(None), payload)
        elif kind == _DICT:
            dict.clear(obj)
            dict.update(obj, payload)
        else:
            set.clear(obj)
            set.update(obj, payload)


def commit(frame: Frame) -> None:
    """Keep the changes; the enclosing frame (if any) can still roll them back."""
    _close(frame)
    parent = frame.parent
    if parent is None:
        return
    into = parent.saved
    for key, entry in frame.saved.items():
        mine = into.get(key)
        if mine is None:
            into[key] = entry
        elif mine[1] == _LEN and entry[1] == _LIST:
            # the outer frame only saw the list grow; its prefix then changed inside: keep the outer original
            mine[1], mine[2] = _LIST, entry[2][: mine[2]]


class _Transaction:
    """``transaction``'s context manager: a class rather than a generator (one per action of a replay)."""

    __slots__ = ("frame",)

    def __enter__(self) -> Frame:
        self.frame = begin()
        return self.frame

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        if kind is None:
            commit(self.frame)
        else:
            rollback(self.frame)  # and the exception goes on


def transaction() -> _Transaction:
    """All of the block or nothing: rolls back and re-raises on any exception."""
    return _Transaction()


# ---------------------------------------------------------------------------------------------- recording
def _save_list(lst: list[Any], grow_only: bool) -> None:
    frame = _active.frame
    if frame is None:
        return
    entry = frame.saved.get(id(lst))
    if entry is None:
        frame.saved[id(lst)] = [lst, _LEN, len(lst)] if grow_only else [lst, _LIST, list(lst)]
    elif entry[1] == _LEN and not grow_only:
        entry[1], entry[2] = _LIST, list.__getitem__(lst, slice(0, entry[2]))


def _save(obj: Any, kind: int) -> None:
    frame = _active.frame
    if frame is not None and id(obj) not in frame.saved:
        if kind == _OBJ:
            payload: Any = dict(obj.__dict__)
        elif kind == _DICT:
            payload = dict(obj)
        else:
            payload = set(obj)
        frame.saved[id(obj)] = [obj, kind, payload]


def tracked(value: Any) -> Any:
    """``value`` with every plain list, dict and set in it (recursively) replaced by a tracked one."""
    t = type(value)
    if t is list:
        return TList([tracked(v) for v in value])
    if t is dict:
        return TDict({k: tracked(v) for k, v in value.items()})
    if t is set:
        return TSet(value)
    return value


_PLAIN = (list, dict, set)


class Tracked:
    """Base of every state class: attribute writes are journalled, plain containers stored become tracked."""

    def __getstate__(self) -> dict[str, Any]:
        """The position: attributes named with a leading underscore are working values and caches of what the
        rest determines (best routes, a track graph), so snapshots and fingerprints leave them out."""
        return {k: v for k, v in self.__dict__.items() if k[0] != "_"}

    # the names a write must pass to ``object.__setattr__`` (data descriptors: properties, ``__class__``); every
    # other write goes straight into the instance's dictionary
    _descriptors: frozenset[str] = frozenset({"__class__"})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._descriptors = frozenset(name for klass in cls.__mro__ for name, v in vars(klass).items()
                                     if name not in ("__dict__", "__weakref__") and hasattr(type(v), "__set__"))

    def __setattr__(self, name: str, value: Any) -> None:
        # the game's most frequent write (a replay makes thousands per hundred actions), so the common case skips
        # ``object.__setattr__`` and its descriptor lookup
        if value.__class__ in _PLAIN:
            value = tracked(value)
        frame = _active.frame
        if frame is not None:
            saved = frame.saved
            if id(self) not in saved:
                saved[id(self)] = [self, _OBJ, self.__dict__.copy()]
        if name in self._descriptors:
            object.__setattr__(self, name, value)
        else:
            self.__dict__[name] = value

    def __delattr__(self, name: str) -> None:
        _save(self, _OBJ)
        object.__delattr__(self, name)


def _journalled(base: type, name: str, save: Callable[[Any], None]) -> Callable[..., Any]:
    """``base.name`` preceded by ``save(self)``: a mutator whose arguments need no conversion."""
    method = getattr(base, name)

    def mutator(self: Any, *args: Any, **kwargs: Any) -> Any:
        save(self)
        return method(self, *args, **kwargs)

    mutator.__name__ = mutator.__qualname__ = name
    return mutator


def _save_whole_list(lst: list[Any]) -> None:
    _save_list(lst, False)


class TList(list):  # type: ignore[type-arg]
    """A list whose changes are journalled."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (TList, (list(self),))

    def append(self, value: Any) -> None:
        _save_list(self, True)
        list.append(self, tracked(value))

    def extend(self, values: Iterable[Any]) -> None:
        _save_list(self, True)
        list.extend(self, [tracked(v) for v in values])

    def __iadd__(self, values: Iterable[Any]) -> TList:  # type: ignore[override,misc]
        self.extend(values)
        return self

    def insert(self, index: Any, value: Any) -> None:
        _save_list(self, False)
        list.insert(self, index, tracked(value))

    def __setitem__(self, index: Any, value: Any) -> None:
        _save_list(self, False)
        if isinstance(index, slice):
            list.__setitem__(self, index, [tracked(v) for v in value])
        else:
            list.__setitem__(self, index, tracked(value))


class TDict(dict):  # type: ignore[type-arg]
    """A dict whose changes are journalled."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (TDict, (dict(self),))

    def __setitem__(self, key: Any, value: Any) -> None:
        _save(self, _DICT)
        dict.__setitem__(self, key, tracked(value))

    def __ior__(self, other: Any) -> TDict:  # type: ignore[override,misc]
        self.update(other)
        return self

    def update(self, *args: Any, **kwargs: Any) -> None:
        _save(self, _DICT)
        dict.update(self, {k: tracked(v) for k, v in dict(*args, **kwargs).items()})

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            _save(self, _DICT)
            dict.__setitem__(self, key, tracked(default))
        return dict.__getitem__(self, key)


class TSet(set):  # type: ignore[type-arg]
    """A set whose changes are journalled (its elements are hashable, so nothing in them needs tracking)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (TSet, (set(self),))


# the mutators that take nothing to convert: the journal saves the container, then the built-in method runs
for _name in ("__delitem__", "__imul__", "pop", "remove", "clear", "sort", "reverse"):
    setattr(TList, _name, _journalled(list, _name, _save_whole_list))
for _name in ("__delitem__", "pop", "popitem", "clear"):
    setattr(TDict, _name, _journalled(dict, _name, lambda d: _save(d, _DICT)))
for _name in ("add", "discard", "remove", "pop", "clear", "update", "difference_update", "intersection_update",
              "symmetric_difference_update", "__ior__", "__iand__", "__isub__", "__ixor__"):
    setattr(TSet, _name, _journalled(set, _name, lambda s: _save(s, _SET)))
