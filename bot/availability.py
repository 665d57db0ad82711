"""When a member may be reminded: their quiet hours in their own time zone, and "away until".

Pure functions of a member's preferences and the time (seconds since the epoch, passed in), so the reminder loop,
`/mygames` and the tests agree on one answer. Parsing of what members type lives here too: it refuses with a message
that says what is allowed.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from engine.messages import M, Msg, Text
from engine.wording import quoted

from .storage import MemberRow

DAY_MINUTES = 24 * 60


class PreferenceError(ValueError):
    """What a member typed is not a preference we can use; the message (`msg`) says what is allowed."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(str(msg))
        self.msg = msg


def zone(name: str | None) -> ZoneInfo:
    return ZoneInfo(name or "UTC")


def parse_time_zone(text: str) -> str:
    """An IANA time zone name (Europe/Paris, Asia/Tokyo, America/New_York, UTC), matched without regard to case."""
    name = text.strip().replace(" ", "_")
    if not name:
        raise PreferenceError(M("Give a time zone such as Europe/Paris, Asia/Tokyo or America/New_York."))
    try:
        ZoneInfo(name)
        return name
    except (ZoneInfoNotFoundError, ValueError):
        pass
    lowered = {z.lower(): z for z in available_timezones()}
    if name.lower() in lowered:
        return lowered[name.lower()]
    near = tuple(sorted(z for z in lowered.values() if name.lower().split("/")[-1] in z.lower())[:5])
    if near:
        raise PreferenceError(M("{typed} is not a time zone I know. Use a name such as Europe/Paris or Asia/Tokyo. "
                                "Did you mean {zones}?", typed=quoted(text), zones=near))
    raise PreferenceError(M("{typed} is not a time zone I know. Use a name such as Europe/Paris or Asia/Tokyo.",
                            typed=quoted(text)))


_CLOCK = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*$")


def _minute_of_day(text: str) -> int:
    m = _CLOCK.match(text)
    if not m or int(m.group(1)) > 24 or int(m.group(2) or 0) > 59:
        raise PreferenceError(M("{typed} is not a time of day; use 22 or 22:30 (24-hour clock).",
                                typed=quoted(text.strip())))
    return (int(m.group(1)) * 60 + int(m.group(2) or 0)) % DAY_MINUTES


def parse_quiet_hours(text: str) -> tuple[int, int] | None:
    """``22-07`` or ``22:30-7:15`` (from, to; may run past midnight) -> minutes after midnight; ``off`` -> None."""
    if text.strip().lower() in {"off", "none", "no", ""}:
        return None
    parts = text.split("-")
    if len(parts) != 2:
        raise PreferenceError(M("Quiet hours are two times of day such as 22-07 or 22:30-07:00, or `off`."))
    start, end = _minute_of_day(parts[0]), _minute_of_day(parts[1])
    if start == end:
        raise PreferenceError(M("Quiet hours must start and end at different times (or say `off`)."))
    return start, end


def parse_away_until(text: str, now: float, time_zone: str | None) -> float | None:
    """``2026-12-24`` (away until the end of that day, in the member's time zone), ``3d`` / ``36h``, or ``off``."""
    raw = text.strip().lower()
    if raw in {"off", "none", "no", "back", ""}:
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([dh])", raw)
    if m:
        seconds = float(m.group(1)) * (86400 if m.group(2) == "d" else 3600)
        if not 0 < seconds <= 366 * 86400:
            raise PreferenceError(M("An absence is at most a year; give a date such as 2026-12-24 or a span like 3d."))
        return now + seconds
    try:
        day = date.fromisoformat(raw)
    except ValueError:
        raise PreferenceError(M(
            "{typed} is not a date; give YYYY-MM-DD (away until the end of that day), a span like 3d or 36h, or "
            "`off` when you are back.", typed=quoted(text.strip()))) from None
    until = datetime.combine(day + timedelta(days=1), datetime.min.time(), zone(time_zone)).timestamp()
    if until <= now:
        raise PreferenceError(M("{date} has already passed; give a date in the future, or `off`.",
                                date=day.isoformat()))
    if until - now > 366 * 86400:
        raise PreferenceError(M("An absence is at most a year ahead."))
    return until


def clock_text(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


WEEKDAYS = (M("Mon"), M("Tue"), M("Wed"), M("Thu"), M("Fri"), M("Sat"), M("Sun"))
MONTHS = (M("Jan"), M("Feb"), M("Mar"), M("Apr"), M("May"), M("Jun"), M("Jul"), M("Aug"), M("Sep"), M("Oct"),
          M("Nov"), M("Dec"))


def local_text(when: float, time_zone: str | None) -> Msg:
    """A moment as the member reads it: ``Thu 24 Dec 18:00 (Europe/Paris)`` (the words in the reader's language)."""
    t = datetime.fromtimestamp(when, zone(time_zone))
    return M("{weekday} {day} {month} {time} ({zone})", weekday=WEEKDAYS[t.weekday()], day=f"{t.day:02d}",
             month=MONTHS[t.month - 1], time=f"{t:%H:%M}", zone=time_zone or "UTC")


def in_quiet_hours(member: MemberRow | None, when: float) -> bool:
    if member is None or member.quiet_start is None or member.quiet_end is None:
        return False
    t = datetime.fromtimestamp(when, zone(member.time_zone))
    minute = t.hour * 60 + t.minute
    start, end = member.quiet_start, member.quiet_end
    return start <= minute < end if start < end else minute >= start or minute < end


def is_away(member: MemberRow | None, when: float) -> bool:
    return member is not None and member.away_until is not None and when < member.away_until


def next_reminder_time(member: MemberRow | None, when: float) -> float:
    """The earliest moment at or after `when` at which the member may be reminded (not away, not in quiet hours)."""
    if member is None:
        return when
    t = max(when, member.away_until or when)
    if not in_quiet_hours(member, t):
        return t
    assert member.quiet_end is not None
    local = datetime.fromtimestamp(t, zone(member.time_zone))
    end = local.replace(hour=member.quiet_end // 60, minute=member.quiet_end % 60, second=0, microsecond=0)
    if end <= local:
        end = (local + timedelta(days=1)).replace(hour=end.hour, minute=end.minute)
    # re-anchor through UTC so a daylight-saving change between now and the end of quiet hours counts right
    return end.astimezone(UTC).timestamp()


def describe(member: MemberRow | None, now: float) -> Text:
    """The member's preferences in one line, for `/reminders` and `/mygames`."""
    if member is None or not member.has_preferences:
        return M("Reminders: as each game says (channel unless `/game settings dm:true`), any time, UTC.")
    via = {"dm": M("by direct message"), "channel": M("in the game's channel"), None: M("as each game says")}[
        member.reminders_via]
    quiet = (M("quiet {start}–{end}", start=clock_text(member.quiet_start), end=clock_text(member.quiet_end))
             if member.quiet_start is not None and member.quiet_end is not None else M("no quiet hours"))
    away = (M("away until {until}", until=local_text(member.away_until, member.time_zone)) if is_away(member, now)
            else M("not away"))
    return M("Reminders: {via} · {quiet} · time zone {zone} · {away}.", via=via, quiet=quiet,
             zone=member.time_zone or "UTC", away=away)
