"""Quiet hours, time zones and absences decide when a member may be reminded (issue 19, item 3)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.availability import (
    PreferenceError,
    describe,
    in_quiet_hours,
    is_away,
    next_reminder_time,
    parse_away_until,
    parse_quiet_hours,
    parse_time_zone,
)
from bot.storage import MemberRow


def at(text: str, tz: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(tz)).timestamp()


def member(**kw: object) -> MemberRow:
    base = dict(user_id=1, reminders_via=None, time_zone=None, quiet_start=None, quiet_end=None, away_until=None,
                updated_at=0.0)
    base.update(kw)
    return MemberRow(**base)  # type: ignore[arg-type]


def test_quiet_hours_across_midnight_in_the_members_own_time_zone() -> None:
    tokyo = member(time_zone="Asia/Tokyo", quiet_start=22 * 60, quiet_end=7 * 60)
    assert in_quiet_hours(tokyo, at("2026-11-23T23:30", "Asia/Tokyo"))
    assert in_quiet_hours(tokyo, at("2026-11-24T06:59", "Asia/Tokyo"))
    assert not in_quiet_hours(tokyo, at("2026-11-24T07:00", "Asia/Tokyo"))
    # 23:30 in Tokyo is 14:30 UTC: a member without a zone would not be quiet then
    assert not in_quiet_hours(member(quiet_start=22 * 60, quiet_end=7 * 60), at("2026-11-23T23:30", "Asia/Tokyo"))
    # the next reminder waits for the end of the night, in Tokyo
    assert next_reminder_time(tokyo, at("2026-11-23T23:30", "Asia/Tokyo")) == at("2026-11-24T07:00", "Asia/Tokyo")
    assert next_reminder_time(tokyo, at("2026-11-24T12:00", "Asia/Tokyo")) == at("2026-11-24T12:00", "Asia/Tokyo")


def test_quiet_hours_within_one_day_and_across_a_daylight_saving_change() -> None:
    paris = member(time_zone="Europe/Paris", quiet_start=1 * 60, quiet_end=9 * 60)
    # the night the clocks go back (25 Oct 2026): 09:00 local is still the end
    assert next_reminder_time(paris, at("2026-10-25T02:30", "Europe/Paris")) == at("2026-10-25T09:00", "Europe/Paris")
    assert not in_quiet_hours(paris, at("2026-10-25T00:59", "Europe/Paris"))


def test_away_pauses_reminders_until_the_date_then_quiet_hours_still_apply() -> None:
    now = at("2026-11-23T10:00", "Europe/Paris")
    until = parse_away_until("2026-11-30", now, "Europe/Paris")
    assert until == at("2026-12-01T00:00", "Europe/Paris")
    away = member(time_zone="Europe/Paris", away_until=until, quiet_start=0, quiet_end=8 * 60)
    assert is_away(away, now) and not is_away(away, until)
    # back at midnight, inside quiet hours: the first reminder comes at 08:00
    assert next_reminder_time(away, now) == at("2026-12-01T08:00", "Europe/Paris")
    assert parse_away_until("3d", now, None) == now + 3 * 86400
    assert parse_away_until("off", now, None) is None


@pytest.mark.parametrize("text", ["tomorrow", "2026-11-01", "2030-01-01", "0h", "999d"])
def test_bad_absences_are_refused_with_what_is_allowed(text: str) -> None:
    with pytest.raises(PreferenceError) as e:
        parse_away_until(text, at("2026-11-23T10:00", "UTC"), "UTC")
    assert "date" in str(e.value) or "year" in str(e.value) or "passed" in str(e.value)


def test_parsing_quiet_hours_and_time_zones() -> None:
    assert parse_quiet_hours("22-07") == (22 * 60, 7 * 60)
    assert parse_quiet_hours(" 22:30 - 7:15 ") == (22 * 60 + 30, 7 * 60 + 15)
    assert parse_quiet_hours("off") is None
    for bad in ("22", "25-07", "22:61-07", "7-7", "late-early"):
        with pytest.raises(PreferenceError):
            parse_quiet_hours(bad)
    assert parse_time_zone("asia/tokyo") == "Asia/Tokyo"
    assert parse_time_zone("Europe/Paris") == "Europe/Paris"
    with pytest.raises(PreferenceError) as e:
        parse_time_zone("Tokio")
    assert "Europe/Paris" in str(e.value)
    with pytest.raises(PreferenceError) as e:
        parse_time_zone("Paris")
    assert "Europe/Paris" in str(e.value)  # the nearest names are offered


def test_description_names_every_preference() -> None:
    now = at("2026-11-23T10:00", "UTC")
    text = str(describe(member(reminders_via="dm", time_zone="Asia/Tokyo", quiet_start=22 * 60, quiet_end=7 * 60,
                               away_until=now + 86400), now))
    assert "direct message" in text and "22:00–07:00" in text and "Asia/Tokyo" in text and "away until" in text
    assert "any time" in str(describe(None, now))
