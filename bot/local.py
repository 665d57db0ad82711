"""The local simulator: a terminal "channel" on the same service and SQLite file, without Discord.

    python -m bot local [--script FILE] [--db PATH] [--out DIR] [--channel N] [--seed N]

Each line is one message in the channel, written as the player who sends it:

    @alice /game create title:18FL          alice creates a game (and joins it)
    @bob /game join                         bob joins; `name:"Bob S"` picks another player name
    @alice /game start                      the seat order is drawn from the game's seed and shown
    @alice /private bid price:5             a sealed bid: the answer is shown to alice only
    @carol /stock par corporation:SAL price:70
    @bob /track lay hex:C22 tile:9 rotation:1
    @bob /click 3                           click button #3 of an earlier message
    @bob /click 4 2                         choose entry 2 (or its text) in menu #4
    @alice /track lay hex:?                 list what autocomplete offers for an option, without acting
    @@dave /game abandon                    @@ = a member with the Manage Server permission
    @alice /game import file:record.json    a file option names a file on disk (Discord: an attachment)
    @alice                                  switch the current user; later lines may then omit @name
    /wait 12h                               advance the simulated clock (s, m, h, d) and post due reminders
    # a comment                             ignored, as are blank lines
    !@bob /stock buy corporation:SAL        a refusal is expected: with --script, the run fails if it is NOT refused

Command and option names are exactly those of the Discord slash commands (`/help` lists them). Options are
`name:value`; quote values with spaces (`name:"Bob Smith"`); words without a name fill the options in order, so
`/stock par SAL 70` works too. A user option is written `user:@bob`. Every seated name can be typed, so one person
can play the whole table. Buttons and menus are numbered as they appear (#1, #2, ...); a click on an old one is
refused exactly as on Discord. Pictures are written to the --out folder (default ./pictures) and their paths
printed. Mentions are shown as @name; replies only one player would see are marked 🔒.

--seed N fixes the seed of the games created (so the seat order and everything after it repeats run after run);
without it each game gets a random seed, as on Discord.

--lang ja plays in Japanese: every simulated member's Discord client and the guild are Japanese (locale `ja`), so
a game created here speaks Japanese in the channel and each member's private replies are Japanese too; the
simulator's own words follow. Commands and options may then be typed in Japanese as Discord shows them
(`@hanako /線路 配置 ヘクス:G22 タイル:9 回転:0`) or in English.

With --script FILE the lines are run in order; the exit status is 0 if every line behaved as expected, 1 at the
first line refused without `!` (or accepted with `!`), 2 for a file that cannot be read. Without --script the
simulator reads lines from the terminal; /quit or end of input leaves.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shlex
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from engine.messages import M, Text
from engine.wording import quoted

from .commands import Command, coerce, command_words, option_word, resolve_option, resolve_path, translated
from .i18n import DEFAULT, LANGUAGES, Tr
from .reminders import due_notices
from .service import Button, Reply, Select, Service, User
from .texts import duration_text

LOCAL_GUILD = 1
ID_BASE = 100_000_000


def user_id(name: str) -> int:
    """A stable id per name, so a database kept between runs knows the same players."""
    return ID_BASE + zlib.crc32(name.lower().encode())


@dataclass
class SimClock:
    offset: float = 0.0
    base: float = field(default_factory=time.time)

    def now(self) -> float:
        return self.base + self.offset


@dataclass
class LineResult:
    ok: bool  # accepted (True) or refused (False)
    expected_refusal: bool = False
    quit: bool = False
    skipped: bool = False

    @property
    def as_expected(self) -> bool:
        return self.skipped or self.quit or (self.ok != self.expected_refusal)


class LocalChannel:
    """One simulated channel: parses lines, calls the service, prints replies, saves pictures."""

    def __init__(self, service: Service, out_dir: Path, clock: SimClock, *, channel_id: int = 1,
                 write: Callable[[str], None] | None = None, lang: str = DEFAULT) -> None:
        self.service = service
        self.lang = lang  # every simulated member's client, and the guild, speak it
        self.locale = None if lang == DEFAULT else lang
        self.t = Tr(lang)
        self.out_dir = out_dir
        self.clock = clock
        self.channel_id = channel_id
        self.write = write or (lambda s: print(s, flush=True))
        self.names: dict[int, str] = {}
        self.current: User | None = None
        self.components: list[Button | Select] = []
        self.pictures = 0
        self.messages = 0  # public messages posted, as their ids (a call to act marks the game's previous one over)

    # -- parsing ------------------------------------------------------------------------------------------
    def _user(self, token: str) -> User:
        admin = token.startswith("@@")
        name = token.lstrip("@")
        if not name:
            raise ValueError(self.t(M("write @name before the command")))
        uid = user_id(name)
        self.names[uid] = name
        return User(uid, name, is_admin=admin, locale=self.locale)

    async def run_line(self, raw: str) -> LineResult:
        line = raw.strip()
        if not line or line.startswith("#"):
            return LineResult(True, skipped=True)
        expect = line.startswith("!")
        if expect:
            line = line[1:].strip()
        if line.startswith("@"):
            head, _, rest = line.partition(" ")
            try:
                self.current = self._user(head)
            except ValueError as e:
                return self._local_refusal(getattr(e, "msg", None) or str(e), expect)
            line = rest.strip()
            if not line:
                self.write(self.t(M("(now typing as @{member})", member=self.current.name)))
                return LineResult(True, expect, skipped=not expect)
        if not line.startswith("/"):
            return self._local_refusal(M("A line is `@name /command option:value ...` (see /help)."), expect)
        try:
            words = shlex.split(line[1:])
        except ValueError as e:
            return self._local_refusal(M("Cannot read that line: {error}.", error=str(e)), expect)
        if not words:
            return self._local_refusal(M("Which command? Try /help."), expect)
        verb = words[0].lower()
        if verb in ("quit", "exit"):
            return LineResult(True, quit=True)
        if verb == "wait":
            return await self._wait(words[1:], expect)
        if self.current is None and verb != "help":
            return self._local_refusal(M("Say who you are first: `@alice /game create title:18FL`."), expect)
        if verb == "click":
            return await self._click(words[1:], expect)
        cmd, rest_words = resolve_path(words, self.lang)
        if cmd is None:
            return self._local_refusal(M("There is no command /{command}. Try /help.", command=" ".join(words[:2])),
                                       expect)
        # /help needs nobody: before anyone has said who they are, a passer-by asks
        who = self.current or User(0, "guest", locale=self.locale)
        try:
            options, ask = self._options(cmd, rest_words)
        except ValueError as e:
            return self._local_refusal(getattr(e, "msg", None) or str(e), expect)
        if ask is not None:
            fixed = next(o for o in cmd.options if o.name == ask).choices
            if fixed:  # Discord shows the fixed list itself; no autocomplete is asked
                listing = "\n".join(f"  {v}  — {self._choice_name(cmd, ask, v)}" for v in fixed)
            else:
                choices = await self.service.autocomplete(self.channel_id, who, cmd.path, ask, "", options)
                listing = "\n".join(f"  {c.value}  — {c.name}" for c in choices) or \
                    "  " + self.t(M("(nothing legal right now)"))
            self.write(self.t(M("choices for {option}:", option=option_word(ask))) + "\n" + listing)
            return LineResult(True, expect, skipped=not expect)
        self._echo(line)
        reply = await self.service.handle(self.channel_id, LOCAL_GUILD, who, cmd.path, options,
                                          guild_locale=self.locale)
        await self._show(reply)
        return LineResult(reply.ok, expect)

    def _choice_name(self, cmd: Command, option: str, value: str) -> str:
        opt = next(o for o in cmd.options if o.name == option)
        return translated(opt.choice_name(value), "choice", self.lang)

    def _options(self, cmd: Command, words: list[str]) -> tuple[dict[str, Any], str | None]:
        options: dict[str, Any] = {}
        ask: str | None = None
        positional = [o for o in cmd.options]
        for word in words:
            name, sep, value = word.partition(":")
            opt = resolve_option(cmd, name, self.lang) if sep else None
            if opt is None:
                # a bare word (or one whose prefix is no option name, like a hex "C22"): the next free option
                free = [o for o in positional if o.name not in options]
                if not free:
                    raise ValueError(self.t(M("/{command} has no option for {word}. Options: {options}.",
                                              command=command_words(cmd.path), word=quoted(word),
                                              options=tuple(option_word(o.name) for o in cmd.options))))
                opt, value = free[0], word
            if value == "?":
                ask = opt.name
                continue
            if opt.type == "user":
                if not value.startswith("@"):
                    raise ValueError(self.t(M("{option} is a member: write {option}:@name",
                                              option=option_word(opt.name))))
                options[opt.name] = self._user(value)
            elif opt.type == "attachment":
                # Discord uploads a file; here the option names a file on disk
                try:
                    options[opt.name] = Path(value).expanduser().read_bytes()
                except OSError as e:
                    raise ValueError(self.t(M("cannot read {file}: {error}", file=value,
                                              error=str(e.strerror or e)))) from None
            else:
                if opt.choices:
                    # a fixed choice as Discord's list shows it, in the member's words, stands for its value
                    value = next((v for v in opt.choices if value.lower() in (
                        v.lower(), self._choice_name(cmd, opt.name, v).lower())), value)
                options[opt.name] = coerce(opt, value)
        missing = [o.name for o in cmd.options if o.required and o.name not in options and o.name != ask]
        if missing and ask is None:
            raise ValueError(self.t(M("/{command} needs {options} (add `{option}:?` to see the choices).",
                                      command=command_words(cmd.path),
                                      options=tuple(option_word(o) for o in missing), option=option_word(missing[0]))))
        return options, ask

    async def _click(self, words: list[str], expect: bool) -> LineResult:
        assert self.current is not None
        if not words or not words[0].lstrip("#").isdigit():
            return self._local_refusal(M("Write /click N (the number shown on the button or menu)."), expect)
        n = int(words[0].lstrip("#"))
        if not 1 <= n <= len(self.components):
            return self._local_refusal(M("There is no button or menu #{n}.", n=n), expect)
        comp = self.components[n - 1]
        values: list[str] = []
        if isinstance(comp, Select):
            if len(words) < 2:
                return self._local_refusal(M("Menu #{n}: add the entry number or its text.", n=n), expect)
            pick = " ".join(words[1:])
            chosen = None
            if pick.isdigit() and 1 <= int(pick) <= len(comp.options):
                chosen = comp.options[int(pick) - 1]
            else:
                chosen = next((o for o in comp.options if pick.lower() in (o.value.lower(), o.label.lower())), None)
            if chosen is None:
                return self._local_refusal(M("Menu #{n} has no entry {entry}.", n=n, entry=quoted(pick)), expect)
            values = [chosen.value]
            self._echo(self.t(M("(chooses “{entry}” in menu #{n})", entry=chosen.label, n=n)))
        else:
            self._echo(self.t(M("(clicks “{button}”)", button=comp.label)))
        reply = await self.service.click(self.channel_id, LOCAL_GUILD, self.current, comp.custom_id, values,
                                         guild_locale=self.locale)
        await self._show(reply)
        return LineResult(reply.ok, expect)

    async def _wait(self, words: list[str], expect: bool) -> LineResult:
        seconds = _duration(words[0]) if words else None
        if seconds is None:
            return self._local_refusal(M("Write /wait 12h (s, m, h or d)."), expect)
        self.clock.offset += seconds
        self.write(self.t(M("⏳ {span} pass.", span=duration_text(seconds))))  # in the reader's words
        await self._learn_names()
        for notice in await due_notices(self.service):
            if notice.channel_id != self.channel_id and notice.dm_user_id is None:
                continue
            target = self.t(M("(direct message to @{member})", member=self.names.get(notice.dm_user_id,
                                                                                      notice.dm_user_id))) + " " \
                if notice.dm_user_id is not None else ""
            self.write(f"🤖 {target}{self._plain(notice.text)}")
            self._show_components(list(notice.components))
        return LineResult(True, expect)

    # -- output ---------------------------------------------------------------------------------------------
    def _echo(self, line: str) -> None:
        who = self.current.name if self.current else "guest"
        self.write(f"\n@{who}: {line}")

    def _show_components(self, rows: list[list[Button | Select]]) -> None:
        for row in rows:
            parts = []
            for comp in row:
                self.components.append(comp)
                n = len(self.components)
                if isinstance(comp, Button):
                    parts.append(f"[#{n} {comp.label}]")
                else:
                    entries = "; ".join(f"{i}) {o.label}" for i, o in enumerate(comp.options, 1))
                    parts.append(f"[#{n} {comp.placeholder} {entries}]")
            self.write("   " + " ".join(parts))

    def _local_refusal(self, text: Text, expect: bool) -> LineResult:
        self.write(f"🔒 {self.t(text)}")
        return LineResult(False, expect)

    def _plain(self, text: str) -> str:
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)
        return re.sub(r"<#(\d+)>", "#channel", text)

    async def _learn_names(self) -> None:
        """Seated players typed in an earlier run are still mentioned by id: learn their names from the game."""
        row = await self.service.store.active_game(self.channel_id)
        if row is not None:
            for p in await self.service.store.players(row.id):
                self.names.setdefault(p.user_id, p.name)

    async def _show(self, reply: Reply) -> None:
        await self._learn_names()
        await self.service.render(reply)
        for msg in reply.all():
            lock = "🔒 " + self.t(M("(only @{member} sees this)", member=self.current.name if self.current
                                  else "guest")) + " " if msg.ephemeral else ""
            body = self._plain(msg.text)
            for emb in msg.embeds:
                body += ("\n" if body else "") + self._plain(emb.as_text())
            self.write(f"🤖 {lock}{body}" if body else f"🤖 {lock}".rstrip())
            self._show_components(msg.components)
            if not msg.ephemeral:
                self.messages += 1
                if msg.turn_of is not None:
                    previous = await self.service.turn_posted(msg.turn_of, self.channel_id, self.messages)
                    if previous is not None:
                        self.write("   ✏️  " + self.t(M("(message {n}: its call to act is struck out, ☑️ done)",
                                                        n=previous)))
            for name, data in msg.files:
                self.out_dir.mkdir(parents=True, exist_ok=True)
                self.pictures += 1
                path = self.out_dir / f"{self.pictures:04d}-{name}"  # an undo may reuse an action number
                path.write_bytes(data)
                icon = "🖼" if name.endswith(".png") else "📎"  # a picture, or a file such as an exported record
                self.write(f"   {icon}  {path} ({max(1, round(len(data) / 1024))} KB)")


def _duration(text: str) -> float | None:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([smhd]?)", text.strip().lower())
    if not m:
        return None
    unit = {"": 3600, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    return float(m.group(1)) * unit


async def run(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    clock = SimClock()
    seed_source = None
    if args.seed is not None:
        seeds = iter(range(args.seed, args.seed + 1_000_000))
        seed_source = lambda: next(seeds)  # noqa: E731
    service = await Service.open(args.db, now=clock.now, seed_source=seed_source)
    channel = LocalChannel(service, Path(args.out), clock, channel_id=args.channel, lang=args.lang)
    try:
        if args.script:
            try:
                lines = Path(args.script).read_text(encoding="utf-8").splitlines()
            except OSError as e:
                print(f"cannot read {args.script}: {e}", file=sys.stderr)
                return 2
            for number, line in enumerate(lines, 1):
                result = await channel.run_line(line)
                if result.quit:
                    break
                if not result.as_expected:
                    why = "was expected to be refused but was accepted" if result.expected_refusal else "was refused"
                    print(f"{args.script}:{number}: {line.strip()!r} {why}.", file=sys.stderr)
                    return 1
            return 0
        source = stdin or sys.stdin
        print(channel.t(M("Stationmaster local simulator. Type `@alice /game create title:18FL`, `/help`, or /quit.")),
              flush=True)
        while True:
            if source.isatty():
                print("> ", end="", flush=True)
            line = await asyncio.to_thread(source.readline)
            if not line:
                return 0
            result = await channel.run_line(line)
            if result.quit:
                return 0
    finally:
        await service.close()


def parser() -> argparse.ArgumentParser:
    from .config import Config

    ap = argparse.ArgumentParser(prog="python -m bot local", description="Play in a simulated channel.")
    ap.add_argument("--script", help="run the lines of this file and exit (non-zero at an unexpected refusal)")
    ap.add_argument("--db", default=Config.from_env().database_path, help="SQLite file (default: DATABASE_PATH)")
    ap.add_argument("--out", default="pictures", help="folder for the pictures (default: ./pictures)")
    ap.add_argument("--channel", type=int, default=1, help="channel number (one game per channel)")
    ap.add_argument("--seed", type=int, help="seed of the first game created (later ones count up): a script then "
                    "sees the same seat order every run")
    ap.add_argument("--lang", choices=sorted(LANGUAGES), default=DEFAULT,
                    help="the members' and the guild's language (ja: the game and every reply in Japanese)")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
