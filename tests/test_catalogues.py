"""The message catalogues: every template the code can send is in every language, with the same placeholders."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.i18n import LANGUAGES, Tr, language_of, tr
from engine.messages import MN, M
from tools import i18n


def test_every_language_has_every_message_with_the_same_placeholders() -> None:
    problems = i18n.check()
    assert not problems, f"{len(problems)} catalogue problems, first ones:\n" + "\n".join(problems[:40])


def test_templates_are_literal_strings() -> None:
    """The extractor reads only literal templates: an f-string or a variable would never reach a catalogue."""
    bad = []
    for files in i18n.domain_files().values():
        for path in files:
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("M", "MN"):
                    need = 2 if node.func.id == "MN" else 1
                    args = node.args[:need]
                    if len(args) < need or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                                   for a in args):
                        bad.append(f"{path.relative_to(i18n.ROOT)}:{node.lineno}")
    assert not bad, "M()/MN() with a template that is not a literal string: " + ", ".join(bad)



def test_every_template_in_the_code_reaches_a_catalogue() -> None:
    """Babel's extractor skips a template written inside another template's call (`M("{a}", a=M("..."))`): such a
    text would stay English in every language."""
    extracted = {msgid for domain in i18n.SOURCES for (msgid, _plural, _ctx), _where in
                 i18n._from_code(i18n.domain_files()[domain])}
    missed = []
    for files in i18n.domain_files().values():
        for path in files:
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("M", "MN") \
                        and node.args and isinstance(node.args[0], ast.Constant) \
                        and node.args[0].value not in extracted:
                    missed.append(f"{path.relative_to(i18n.ROOT)}:{node.lineno} {node.args[0].value!r}")
    assert not missed, "templates the extractor never sees (move them out of the enclosing call): " + \
        ", ".join(missed)

def test_a_message_renders_in_each_language_and_english_by_default() -> None:
    msg = M("{a} and {b}", a="x", b=M("{n}", n=1))
    assert str(msg) == "x and 1"
    assert tr(msg) == "x and 1"
    for lang in LANGUAGES:
        assert Tr(lang)(msg)  # never empty, never an error
    assert MN("{n} share", "{n} shares", n=1).render() == "1 share"
    assert MN("{n} share", "{n} shares", n=3).render() == "3 shares"


def test_discord_locales_map_to_our_languages() -> None:
    assert language_of("ja") == "ja"
    assert language_of("en-US") == "en"
    assert language_of("fr") == "en"
    assert language_of(None) == "en"


def test_catalogue_files_are_packaged() -> None:
    locale = Path(i18n.LOCALE)
    assert (locale / "engine.pot").exists()
    for lang in i18n.LANGS:
        assert (locale / lang / "engine.po").exists()


def test_japanese_sentences_use_full_width_brackets() -> None:
    """Japanese typography: an aside in a Japanese sentence is in （）, not ASCII ()."""
    import re

    from babel.messages.pofile import read_po

    japanese = r"[\u3040-\u30ff\u4e00-\u9fff]"
    ascii_aside = re.compile(rf"{japanese}\s?\(|\(\s?{japanese}|{japanese}\)")
    bad = []
    for po in sorted((i18n.ROOT / "bot" / "locale" / "ja").glob("*.po")):
        with po.open("rb") as f:
            for m in read_po(f):
                for s in m.string if isinstance(m.string, tuple) else (m.string,):
                    if s and ascii_aside.search(s):
                        bad.append(f"{po.name}: {s[:60]}")
    assert not bad, bad[:10]


def test_japanese_sentences_joined_are_not_spaced_apart() -> None:
    from engine.messages import Join

    assert Join(("一つ目です。", "二つ目です。"), " ").render() == "一つ目です。二つ目です。"
    assert Join(("One.", "Two."), " ").render() == "One. Two."


def test_commands_quoted_in_japanese_are_the_japanese_commands() -> None:
    """A Japanese sentence that quotes a command quotes it as a Japanese member types it and Discord shows it:
    `/corp bankrupt` in the forced-purchase prompt, `/game create` after the end and `/取り消し 回数:3` (the option
    is 数) in the help were English, or no option at all."""
    import re

    from babel.messages.pofile import read_po

    from bot.commands import localized_option, localized_path, resolve_path

    bad = []
    for po in sorted((i18n.ROOT / "bot" / "locale" / "ja").glob("*.po")):
        with po.open("rb") as f:
            for m in read_po(f):
                for s in m.string if isinstance(m.string, tuple) else (m.string,):
                    for quoted in re.findall(r"`/([^`{}]+)`", s or ""):
                        words = quoted.split()
                        cmd, rest = resolve_path(words, "ja")
                        if cmd is None:
                            continue  # not one of ours (a path, a Discord built-in)
                        said = " ".join(words[:len(words) - len(rest)])
                        options = {localized_option(o.name, "ja") for o in cmd.options}
                        typed = {w.split(":", 1)[0] for w in rest if ":" in w}
                        if said != localized_path(cmd.path, "ja") or not typed <= options:
                            bad.append(f"{po.name}: `/{quoted}`")
    assert not bad, bad
