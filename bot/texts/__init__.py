"""What players read: action descriptions for menus, views, summaries, help, and message splitting.

Everything here reads a Game and returns text (or a transport-neutral `Embed`); nothing changes state. Mentions
are written the Discord way (`<@user id>`); the local simulator turns them back into @names. Sealed bids are never
described with their amount (the engine's own log lines keep them secret until the reveal).

Texts are in no language yet: `engine.messages.Msg`/`Join` (the ``texts`` gettext catalogue), rendered for their
reader where the service hands a reply out (`str()` of one is English). Ids, names and money stay as printed.
Command and option names in help lines are the commands catalogue's words (`commands.command_words`). Only
message splitting and mentions work on rendered strings.

One module per kind of text: ``form`` (embeds, Discord's limits, splitting, mentions), ``words`` (a game's tag,
durations), ``actions`` (an action as a menu label), ``views`` (players, corporations, standings, the end),
``summaries`` (the end of a round or a set) and ``help``. The rest of the bot imports them from here.
"""

from __future__ import annotations

from .actions import (
    action_summary,
    corp_label,
    describe_action,
    hex_name,
    share_source,
    train_words,
)
from .form import (
    EMBED_DESCRIPTION_LIMIT,
    EMBED_FIELD_VALUE_LIMIT,
    EMBED_FIELDS_LIMIT,
    EMBED_TOTAL_LIMIT,
    MESSAGE_LIMIT,
    PROMPT_MARK,
    Embed,
    bullets,
    mention,
    split_message,
    turn_over_text,
)
from .help import (
    EZ_HELP,
    HELP_GROUPS,
    HELP_TOPICS,
    PICTURES_HELP,
    TRACK_HELP,
    TURN_HELP,
    UNDO_HELP,
    help_text,
    help_topic_key,
    help_topic_word,
    reconstruction_note,
    reconstruction_notes,
)
from .summaries import (
    BOUGHT,
    SOLD,
    draft_summary,
    merge_purchases,
    or_set_summary,
    stock_round_summary,
)
from .views import (
    END_REASONS,
    corporations_embed,
    end_reason_text,
    game_over_text,
    history_text,
    players_embed,
    round_line,
    round_name,
    seats_text,
    standings_lines,
)
from .words import (
    duration_text,
    game_tag,
    hours_text,
)

__all__ = [
    "BOUGHT", "EMBED_DESCRIPTION_LIMIT", "EMBED_FIELDS_LIMIT", "EMBED_FIELD_VALUE_LIMIT", "EMBED_TOTAL_LIMIT",
    "END_REASONS", "EZ_HELP", "Embed", "HELP_GROUPS", "HELP_TOPICS", "MESSAGE_LIMIT", "PICTURES_HELP",
    "PROMPT_MARK", "SOLD", "TRACK_HELP", "TURN_HELP", "UNDO_HELP", "action_summary", "bullets", "corp_label",
    "corporations_embed", "describe_action", "draft_summary", "duration_text", "end_reason_text", "game_over_text",
    "game_tag", "help_text", "help_topic_key", "help_topic_word", "hex_name", "history_text", "hours_text",
    "mention", "merge_purchases", "or_set_summary", "players_embed", "reconstruction_note", "reconstruction_notes",
    "round_line", "round_name", "share_source", "seats_text", "split_message", "standings_lines", "stock_round_summary",
    "train_words", "turn_over_text",
]
