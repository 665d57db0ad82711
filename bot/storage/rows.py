"""What the store keeps and returns: the row records, their columns, and the conversions between them and SQL
values (JSON objects, 64-bit integers)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

Status = Literal["lobby", "active", "finished", "abandoned"]
ReminderVia = Literal["channel", "dm"]
ImageMode = Literal["turn", "round", "request"]
ActionState = Literal["live", "undone", "discarded"]

STATUSES: tuple[str, ...] = get_args(Status)
IMAGE_MODES: tuple[str, ...] = get_args(ImageMode)
# A channel is occupied by a game that is gathering players or being played.
OCCUPYING_STATUSES: tuple[str, ...] = ("lobby", "active")
DEFAULT_REMINDER_INTERVAL = 12 * 60 * 60
DEFAULT_IMAGE_MODE: ImageMode = "turn"
DEFAULT_LANGUAGE = "en"
LANGUAGE_CODES: tuple[str, ...] = ("en", "ja")  # bot.i18n.LANGUAGES; the store checks what it keeps
DEFAULT_STALL_AFTER = 4  # reminders without a move before the game's creator and administrators are told
REMINDER_VIAS: tuple[str, ...] = get_args(ReminderVia)


_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    title: str
    options: dict[str, Any]
    seed: int
    creator_id: int
    status: Status
    reminder_interval: int
    image_mode: ImageMode
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    stall_after: int = DEFAULT_STALL_AFTER
    language: str = DEFAULT_LANGUAGE  # the language of the game's channel posts (bot.i18n.LANGUAGES)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    game_id: int
    seat: int
    user_id: int
    name: str
    dm_reminders: bool


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int  # per-game storage number, counts undone rows too; not the index in the live log
    action: dict[str, Any]
    user_id: int | None
    created_at: float
    state: ActionState
    undone_at: float | None


@dataclass(frozen=True, slots=True)
class CheckpointRow:
    game_id: int
    actions: int  # live actions included
    last_seq: int  # storage seq of the last of them
    engine: str  # engine version and game set-up it was written by
    state: bytes


@dataclass(frozen=True, slots=True)
class PendingImportRow:
    game_id: int
    seats: tuple[str, ...]  # the record's player names in its seat order (the replay's player order)
    actions: list[dict[str, Any]]  # the normalised action log, written to the game's log on activation
    created_at: float


@dataclass(frozen=True, slots=True)
class ReminderRow:
    game_id: int
    guild_id: int | None
    channel_id: int
    user_id: int | None  # None: remind the channel rather than one person
    due_at: float | None
    sent_count: int
    last_sent_at: float | None
    interval: int  # the game's reminder interval, so the reminder task can compute the next due time
    dm: bool  # the reminded player asked to be reminded by DM
    stall_after: int = DEFAULT_STALL_AFTER  # the game's threshold: reminders without a move before it is stalled
    stall_noticed_at: float | None = None  # when the creator was told the game stalls (since the last move)
    waiting_since: float | None = None  # when the game began to wait for this reminder's player (None: unknown)
    language: str = DEFAULT_LANGUAGE  # the game's language: a reminder in its channel speaks it


@dataclass(frozen=True, slots=True)
class MemberRow:
    """A member's preferences across all their games (no row: the defaults)."""

    user_id: int
    reminders_via: ReminderVia | None  # None: as each game's seat says (channel unless /game settings dm:true)
    time_zone: str | None  # IANA name such as Europe/Paris; None: UTC
    quiet_start: int | None  # minutes after local midnight; quiet hours run from start to end (may wrap midnight)
    quiet_end: int | None
    away_until: float | None  # reminders pause until then
    updated_at: float
    locale: str | None = None  # the Discord locale of the member's last command ("ja", "en-US"): their DMs' language

    @property
    def has_preferences(self) -> bool:
        """Whether the member chose anything (a row may hold only the locale they were last seen with)."""
        return any(getattr(self, k) is not None for k in MEMBER_PREFERENCES)


@dataclass(frozen=True, slots=True)
class TurnMessageRow:
    game_id: int
    channel_id: int
    message_id: int
    posted_at: float


@dataclass(frozen=True, slots=True)
class SeatedGame:
    """One active game a member is seated in, with whom it waits for (its reminder row)."""

    game: GameRow
    seat: PlayerRow
    reminder: ReminderRow | None


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    channel_id: int
    game_id: int | None
    payload: dict[str, Any]  # the message as the Discord adapter will post it (content, embeds, mentions)
    attempts: int
    created_at: float


_GAME_COLS = (
    "id, guild_id, channel_id, title, options, seed, creator_id, status, reminder_interval, image_mode, result, "
    "created_at, updated_at, stall_after, language"
)
_PLAYER_COLS = "game_id, seat, user_id, name, dm_reminders"
_ACTION_COLS = "game_id, seq, action, user_id, created_at, state, undone_at"
_REMINDER_SELECT = (
    "SELECT r.game_id, g.guild_id, g.channel_id, r.user_id, r.due_at, r.sent_count, r.last_sent_at, "
    "g.reminder_interval, p.dm_reminders, g.stall_after, r.stall_noticed_at, r.waiting_since, g.language "
    "FROM reminders r JOIN games g ON g.id = r.game_id "
    "LEFT JOIN players p ON p.game_id = r.game_id AND p.user_id = r.user_id"
)


def _game_row(r: Sequence[Any]) -> GameRow:
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        title=r[3],
        options=json.loads(r[4]),
        seed=r[5],
        creator_id=r[6],
        status=r[7],
        reminder_interval=r[8],
        image_mode=r[9],
        result=None if r[10] is None else json.loads(r[10]),
        created_at=r[11],
        updated_at=r[12],
        stall_after=r[13],
        language=r[14],
    )


def _player_row(r: Sequence[Any]) -> PlayerRow:
    return PlayerRow(game_id=r[0], seat=r[1], user_id=r[2], name=r[3], dm_reminders=bool(r[4]))


def _action_row(r: Sequence[Any]) -> ActionRow:
    return ActionRow(
        game_id=r[0], seq=r[1], action=json.loads(r[2]), user_id=r[3], created_at=r[4], state=r[5], undone_at=r[6]
    )


def _reminder_row(r: Sequence[Any]) -> ReminderRow:
    return ReminderRow(
        game_id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        user_id=r[3],
        due_at=r[4],
        sent_count=r[5],
        last_sent_at=r[6],
        interval=r[7],
        dm=bool(r[8]),
        stall_after=r[9],
        stall_noticed_at=r[10],
        waiting_since=r[11],
        language=r[12],
    )


_MEMBER_COLS = "user_id, reminders_via, time_zone, quiet_start, quiet_end, away_until, updated_at, locale"
MEMBER_PREFERENCES = frozenset({"reminders_via", "time_zone", "quiet_start", "quiet_end", "away_until"})


def _member_row(r: Sequence[Any]) -> MemberRow:
    return MemberRow(user_id=r[0], reminders_via=r[1], time_zone=r[2], quiet_start=r[3], quiet_end=r[4],
                     away_until=r[5], updated_at=r[6], locale=r[7])


def _pending_import_row(r: Sequence[Any]) -> PendingImportRow:
    return PendingImportRow(game_id=r[0], seats=tuple(json.loads(r[1])), actions=json.loads(r[2]), created_at=r[3])


def _to_json(value: Mapping[str, Any], what: str) -> str:
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a JSON object (dict), not {type(value).__name__}")
    # NaN/Infinity are not JSON and PostgreSQL's jsonb would refuse them; fail here instead of later.
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _check_int64(value: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{what} must be an integer that fits in 64 bits, got {value!r}")
    return value
