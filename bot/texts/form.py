"""How a text is posted: Discord's limits, the embed card, splitting a long message, mentions, the prompt mark and
a call to act struck out once its turn is over, bulleted lines.

Only message splitting and mentions work on rendered strings; everything else is a text in no language yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.messages import Join, M, Text

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELD_VALUE_LIMIT = 1024
EMBED_TOTAL_LIMIT = 6000
EMBED_FIELDS_LIMIT = 25


@dataclass
class Embed:
    """A Discord-style card: title, description and named fields; the local simulator prints it as text.

    Its parts are texts in no language yet (`Msg`/`Join`) or plain strings; `render` gives the card in a reader's
    language. `as_text` and `clipped` work on what the card says (English while it is not rendered)."""

    title: Text
    description: Text = ""
    fields: list[tuple[Text, Text]] = field(default_factory=list)
    color: int | None = None

    def render(self, t: Callable[[Text], str]) -> Embed:
        """The card with every part in the reader's language (``t`` renders a text: a `bot.i18n.Tr`)."""
        return Embed(t(self.title), t(self.description), [(t(n), t(v)) for n, v in self.fields], self.color)

    def as_text(self) -> str:
        title, desc = str(self.title), str(self.description)
        lines = [f"**{title}**"] if title else []
        if desc:
            lines.append(desc)
        for name, value in self.fields:
            lines.append(f"**{name}**\n{value}")
        return "\n".join(lines)

    def clipped(self) -> Embed:
        """The embed cut to Discord's limits (fields beyond 25 or past 6000 characters are folded away)."""
        title = _clip(str(self.title), 256)
        desc = _clip(str(self.description), EMBED_DESCRIPTION_LIMIT)
        total = len(title) + len(desc)
        fields: list[tuple[Text, Text]] = []
        for name, value in self.fields:
            name, value = _clip(str(name), 256) or "·", _clip(str(value), EMBED_FIELD_VALUE_LIMIT) or "·"
            if len(fields) == EMBED_FIELDS_LIMIT or total + len(name) + len(value) > EMBED_TOTAL_LIMIT - 50:
                break
            fields.append((name, value))
            total += len(name) + len(value)
        return Embed(title, desc, fields, self.color)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split text into Discord-sized messages at line breaks, keeping code blocks balanced."""
    if len(text) <= limit:
        return [text] if text else []
    chunks: list[str] = []
    current = ""
    in_code = False
    for line in text.split("\n"):
        while len(line) > limit - 8:  # a single over-long line: hard cut
            head, line = line[: limit - 8], line[limit - 8:]
            chunks.extend(_flush(current, in_code))
            current = head
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) + (4 if in_code else 0) > limit:
            chunks.extend(_flush(current, in_code))
            current = ("```\n" + line) if in_code else line
        else:
            current = candidate
        if line.strip().startswith("```"):
            in_code = not in_code
    if current:
        chunks.append(current)
    return [c for c in chunks if c.strip()]


def _flush(current: str, in_code: bool) -> list[str]:
    if not current:
        return []
    return [current + ("\n```" if in_code else "")]


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


PROMPT_MARK = "➡️"  # starts the line of a message that calls players to act


def turn_over_text(content: str) -> Text:
    """A call to act whose turn has passed: what came before the call stays, the call itself is struck out.
    ``content`` is the message as it was posted (already in its readers' language)."""
    before, mark, call = content.partition(PROMPT_MARK)
    if not mark:
        return content
    first = call.split("\n", 1)[0].strip()
    return M("{before}~~{call}~~ ☑️ done", before=before.lstrip(), call=f"{PROMPT_MARK} {first}")


def bullets(lines: Sequence[Text]) -> Join:
    return Join(tuple(M("· {line}", line=x) for x in lines))
