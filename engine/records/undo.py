"""A record's undo and redo resolved into its effective actions (18xx-games-format.md sections 8 and 14.2)."""

from __future__ import annotations

from typing import Any

from ..messages import M
from .errors import RecordError


def truncate(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The site stops at the first action whose id exceeds the last action's id (section 14.2)."""
    if not actions:
        return []
    last = actions[-1].get("id")
    if not isinstance(last, int | float):
        return list(actions)
    out = []
    for a in actions:
        aid = a.get("id")
        if isinstance(aid, int | float) and aid > last:
            break
        out.append(a)
    return out


def resolve_undo_redo(actions: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """``kept[i]`` is ``actions[i]`` if it is effective, else None (section 8, exactly)."""
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    stack: list[list[tuple[int, dict[str, Any]]]] = []
    index_of: dict[Any, int] = {}
    for i, a in enumerate(actions):
        if "id" in a:
            index_of.setdefault(a["id"], i)
        kind = a.get("type")
        if kind == "undo":
            target = a.get("action_id")
            if target is not None:
                if target == 0:
                    start = 0
                elif target in index_of and index_of[target] < i:
                    start = index_of[target] + 1
                else:
                    raise RecordError(M("undo to action {target}, which is not earlier in the record", target=target),
                                      a.get("id"), a)
            else:
                start = next((j for j in range(i - 1, -1, -1)
                              if kept[j] is not None and kept[j].get("type") != "message"), 0)  # type: ignore[union-attr]
            group = []
            for j in range(start, i):
                b = kept[j]
                if b is not None and b.get("type") != "message":
                    group.append((j, b))
                    kept[j] = None
            stack.append(group)
        elif kind == "redo":
            if not stack:
                raise RecordError(M("redo with nothing to redo"), a.get("id"), a)
            for j, b in stack.pop():
                kept[j] = b
        elif kind == "message":
            kept[i] = a
        else:
            stack.clear()
            kept[i] = a
    return kept


def effective_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [a for a in resolve_undo_redo(actions) if a is not None]
