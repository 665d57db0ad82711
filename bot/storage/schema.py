"""The database schema: ordered migrations, each bringing a file one version up."""

from __future__ import annotations

# Ordered schema migrations; migration i (1-based) brings a file from version i-1 to version i. Never edit a
# shipped migration: append a new one. Each is a list of single statements (not a script) so that it runs inside
# our own transaction; sqlite3's executescript would COMMIT first.
MIGRATIONS: list[tuple[str, ...]] = [
    # v1: games, seats and the action log.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id BIGINT,
            channel_id BIGINT NOT NULL,
            title TEXT NOT NULL,
            options TEXT NOT NULL,
            seed BIGINT NOT NULL,
            creator_id BIGINT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            result TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        # The database itself enforces one occupying game per channel, so two racing creates cannot both win.
        """CREATE UNIQUE INDEX games_one_occupying_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active')""",
        "CREATE INDEX games_by_channel ON games (channel_id, status, updated_at)",
        """CREATE TABLE players (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id BIGINT NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id),
            UNIQUE (game_id, name)
        )""",
        """CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            user_id BIGINT,
            created_at DOUBLE PRECISION NOT NULL,
            state TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'undone', 'discarded')),
            undone_at DOUBLE PRECISION,
            PRIMARY KEY (game_id, seq)
        )""",
    ),
    # v2: per-game settings, DM flag and reminders. Shipped together with v1; it is a separate step so that the
    # upgrade path of an existing file is exercised by the tests from the start, not first on a user's file.
    (
        """ALTER TABLE games ADD COLUMN reminder_interval INTEGER NOT NULL DEFAULT 43200
            CHECK (reminder_interval >= 0)""",
        """ALTER TABLE games ADD COLUMN image_mode TEXT NOT NULL DEFAULT 'turn'
            CHECK (image_mode IN ('turn', 'round', 'request'))""",
        "ALTER TABLE players ADD COLUMN dm_reminders BOOLEAN NOT NULL DEFAULT FALSE",
        """CREATE TABLE reminders (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            user_id BIGINT,
            due_at DOUBLE PRECISION,
            sent_count INTEGER NOT NULL DEFAULT 0,
            last_sent_at DOUBLE PRECISION
        )""",
        "CREATE INDEX reminders_due ON reminders (due_at) WHERE due_at IS NOT NULL",
    ),
    # v3: an imported record waiting in the lobby for its seats to be claimed, so that a restart does not lose it.
    # The claims themselves are the lobby's player rows (named after the record's seats); this row holds what the
    # players table cannot: the record's seat order and the action log to write when the last seat is claimed.
    (
        """CREATE TABLE pending_imports (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            seats TEXT NOT NULL,
            actions TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # v4: members across their games (reminder preferences, quiet hours, away), the stall threshold per game, and
    # the last "your turn" message per game so the next one replaces it instead of piling up.
    (
        """CREATE TABLE members (
            user_id BIGINT PRIMARY KEY,
            reminders_via TEXT CHECK (reminders_via IN ('channel', 'dm')),
            time_zone TEXT,
            quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
            quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
            away_until DOUBLE PRECISION,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        "ALTER TABLE games ADD COLUMN stall_after INTEGER NOT NULL DEFAULT 4 CHECK (stall_after >= 0)",
        "ALTER TABLE reminders ADD COLUMN stall_noticed_at DOUBLE PRECISION",
        "ALTER TABLE reminders ADD COLUMN waiting_since DOUBLE PRECISION",
        """CREATE TABLE turn_messages (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            channel_id BIGINT NOT NULL,
            message_id BIGINT NOT NULL,
            posted_at DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX players_by_user ON players (user_id)",
    ),
    # v5: checkpoints, a cache of the engine's state after the first `actions` live actions, so that a cold load or
    # an undo replays only the tail of the log. `last_seq` (the seq of the last action included) and `engine` (the
    # engine version and the game's set-up) tell whether a checkpoint still fits; the log stays the truth.
    (
        """CREATE TABLE checkpoints (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            actions INTEGER NOT NULL CHECK (actions > 0),
            last_seq INTEGER NOT NULL,
            engine TEXT NOT NULL,
            state BLOB NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, actions)
        )""",
    ),
    # v6: the outbox. A public message about a stored move that Discord could not take (rate limited, connection
    # reset, outage) waits here, in order per channel, and is posted when Discord is reachable again, also after a
    # restart: a stored move is always announced.
    (
        """CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            channel_id BIGINT NOT NULL,
            game_id INTEGER,
            payload TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # v7: languages. A game's channel posts follow its `language` (set at creation from the guild's preferred locale,
    # changed with /game settings); a member's last known Discord `locale` is the language of their direct messages.
    (
        "ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
        "ALTER TABLE members ADD COLUMN locale TEXT",
    ),
]
SCHEMA_VERSION = len(MIGRATIONS)
