"""The transport-free application layer, one room per concern (see `router` for the flow of a command):

- `router`: `Service`, the entry points (`handle`, `click`, `autocomplete`, `render`) routing to the concerns below
- `table`: the shared state (store, locks, the cache of replayed games, legal moves, best routes) and `Ctx`
- `lobby`: create, join, leave, kick, start, status, settings, replace, end, abandon, finished games
- `records`: import and export of game records, seat claims of an imported game
- `play`: a move: authorise, apply, store, announce
- `prompt`: whose turn it is, with buttons and menus for the frequent moves
- `consent`: votes between players (undo of others' actions, sales between presidents), redo
- `views`: views and pictures
- `choices`: autocomplete from legal moves
- `reminders`: setting the next reminder and the text of a due one
- `replies`: the shapes of a reply (text, embeds, pictures, buttons, menus)
"""

from ..texts import Embed
from .records import MAX_UPLOAD_BYTES
from .replies import Button, Choice, Component, Picture, Reply, Select, SelectOption, User
from .router import APOLOGY, Service

__all__ = [
    "APOLOGY", "MAX_UPLOAD_BYTES", "Button", "Choice", "Component", "Embed", "Picture", "Reply", "Select",
    "SelectOption", "Service", "User",
]
