"""The message catalogues: extract the English templates from the code, update every language, check them.

    python -m tools.i18n update   # rewrite bot/locale/<domain>.pot and merge new templates into each language
    python -m tools.i18n check [domain ...]  # missing, untranslated, other placeholders (exit 1 if any)
    python -m tools.i18n todo ja  # the templates a language still lacks, one per line
    python -m tools.i18n set ja DOMAIN < file.tsv  # fill translations: "msgid<TAB>msgstr" per line (\n escaped)

Templates are the literal first arguments of ``M(...)`` and ``MN(...)`` calls (engine.messages) in each domain's
files, plus what a domain lists from its data (``EXTRA``: the command table, titles' data texts). Catalogues are
written sorted and without line numbers so that two branches adding messages rarely touch the same lines.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "bot" / "locale"
LANGS = ("ja",)  # English is the templates themselves
KEYWORDS = {"M": None, "MN": (1, 2)}
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)  # no churn in the header

# domain -> files (globs relative to the repository); a file belongs to the first domain that lists it
SOURCES: dict[str, tuple[str, ...]] = {
    "commands": ("bot/commands.py",),
    "titles": ("engine/titles/*.py",),
    "engine": ("engine/*.py", "engine/rounds/*.py", "engine/records/*.py"),
    "render": ("render/*.py", "bot/pictures.py"),
    "texts": ("bot/texts/*.py",),
    "bot": ("bot/*.py", "bot/service/*.py"),
}
# domain -> "module:function" returning (msgid, plural or None, context or None) for texts kept as data
EXTRA: dict[str, str] = {
    "commands": "bot.commands:catalogue_texts",
    "titles": "engine.titles.texts:catalogue_texts",
}

Entry = tuple[str, str | None, str | None]  # msgid, plural, context
PLACEHOLDER = re.compile(r"(?<!\{)\{([a-zA-Z_][a-zA-Z0-9_]*)(?:[!:][^}]*)?\}(?!\})")


def domain_files() -> dict[str, list[Path]]:
    seen: set[Path] = set()
    out: dict[str, list[Path]] = {}
    for domain, globs in SOURCES.items():
        files = []
        for g in globs:
            for p in sorted(ROOT.glob(g)):
                if p not in seen and p.name != "messages.py":
                    seen.add(p)
                    files.append(p)
        out[domain] = files
    return out


def _from_code(files: Iterable[Path]) -> Iterator[tuple[Entry, str]]:
    for path in files:
        rel = str(path.relative_to(ROOT))
        for lineno, message, _comments, context in extract_from_file("python", str(path), keywords=KEYWORDS):
            if isinstance(message, tuple):
                singular, plural = message[0], message[1]
                if singular and plural:
                    yield (singular, plural, context), f"{rel}:{lineno}"
            elif message:
                yield (message, None, context), f"{rel}:{lineno}"


def _from_data(domain: str) -> Iterator[tuple[Entry, str]]:
    spec = EXTRA.get(domain)
    if not spec:
        return
    module, func = spec.split(":")
    try:
        fn = getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError):
        return
    for msgid, plural, context in fn():
        if msgid:
            yield (msgid, plural, context), module


def template(domain: str) -> Catalog:
    """The English catalogue of a domain as the code and data define it now."""
    cat = Catalog(domain=domain, project="Stationmaster", creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                  fuzzy=False)
    files = domain_files()[domain]
    for (msgid, plural, context), where in (*_from_code(files), *_from_data(domain)):
        key = (msgid, plural) if plural else msgid
        existing = cat.get(msgid, context=context)
        loc = (where.split(":")[0], None)
        if existing is not None:
            if loc not in existing.locations:
                existing.locations.append(loc)
            continue
        cat.add(key, locations=[loc], context=context)
    return cat


def _write(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, sort_output=True, include_lineno=False, ignore_obsolete=True, width=120)


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def update() -> None:
    for domain in SOURCES:
        tmpl = template(domain)
        _write(tmpl, LOCALE / f"{domain}.pot")
        for lang in LANGS:
            po = LOCALE / lang / f"{domain}.po"
            cat = read(po, lang) if po.exists() else Catalog(locale=lang, domain=domain, project="Stationmaster",
                                                              creation_date=FIXED_DATE, fuzzy=False)
            cat.update(tmpl, no_fuzzy_matching=True)
            cat.revision_date = FIXED_DATE
            _write(cat, po)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def check(domains: Iterable[str] | None = None) -> list[str]:
    """Every problem of the catalogues, one line each (empty when all is well)."""
    problems: list[str] = []
    for domain in domains or SOURCES:
        tmpl = template(domain)
        pot = LOCALE / f"{domain}.pot"
        if not pot.exists():
            problems.append(f"{pot.relative_to(ROOT)} is missing: run python -m tools.i18n update")
        else:
            written = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in read(pot) if m.id}
            wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in tmpl if m.id}
            for msgid, _ctx in sorted(wanted - written, key=str):
                problems.append(f"{domain}.pot lacks {msgid!r}: run python -m tools.i18n update")
            for msgid, _ctx in sorted(written - wanted, key=str):
                problems.append(f"{domain}.pot still has {msgid!r}, which no code uses: "
                                "run python -m tools.i18n update")
        for lang in LANGS:
            po = LOCALE / lang / f"{domain}.po"
            have = read(po, lang) if po.exists() else Catalog(locale=lang)
            for m in tmpl:
                if not m.id:
                    continue
                got = have.get(m.id if isinstance(m.id, str) else m.id[0], context=m.context)
                singular = m.id if isinstance(m.id, str) else m.id[0]
                if got is None or not got.string or (isinstance(got.string, tuple) and not all(got.string)):
                    problems.append(f"{lang}/{domain}.po: no translation of {singular!r}")
                    continue
                if got.fuzzy:
                    problems.append(f"{lang}/{domain}.po: fuzzy translation of {singular!r}")
                ids = [m.id] if isinstance(m.id, str) else list(m.id)
                wanted_ph = set().union(*(placeholders(i) for i in ids))
                strings = [got.string] if isinstance(got.string, str) else list(got.string)
                for s in strings:
                    if placeholders(s) != wanted_ph:
                        problems.append(f"{lang}/{domain}.po: placeholders of {singular!r} are {sorted(wanted_ph)}, "
                                        f"the translation has {sorted(placeholders(s))}")
    return problems


def todo(lang: str) -> list[str]:
    out = []
    for domain in SOURCES:
        po = LOCALE / lang / f"{domain}.po"
        have = read(po, lang) if po.exists() else Catalog(locale=lang)
        for m in template(domain):
            if m.id:
                got = have.get(m.id if isinstance(m.id, str) else m.id[0], context=m.context)
                if got is None or not got.string:
                    out.append(f"{domain}\t{m.id if isinstance(m.id, str) else m.id[0]}")
    return out


def set_translations(lang: str, domain: str, pairs: Iterable[tuple[str, str]]) -> list[str]:
    """Write translations into a language's catalogue; returns the msgids it does not have."""
    po = LOCALE / lang / f"{domain}.po"
    cat = read(po, lang)
    unknown = []
    for msgid, msgstr in pairs:
        m = cat.get(msgid)
        if m is None:
            unknown.append(msgid)
            continue
        m.string = (msgstr,) if isinstance(m.id, tuple) else msgstr
        m.flags.discard("fuzzy")
    _write(cat, po)
    return unknown


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else "check"
    if cmd == "update":
        update()
        return 0
    if cmd == "set":
        pairs = [tuple(x.replace("\\n", "\n") for x in line.rstrip("\n").split("\t", 1))
                 for line in sys.stdin if "\t" in line]
        unknown = set_translations(argv[1], argv[2], pairs)  # type: ignore[arg-type]
        print("\n".join(f"not in the catalogue: {u!r}" for u in unknown) or f"{len(pairs)} set")
        return 1 if unknown else 0
    if cmd == "todo":
        print("\n".join(todo(argv[1] if len(argv) > 1 else "ja")))
        return 0
    problems = check(argv[1:] or None)
    print("\n".join(problems) if problems else "catalogues complete")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main(sys.argv[1:]))
