"""Numbers, words and quotation marks in the translations, as their readers read them (issue 22).

An Italian, Russian or Spanish reader takes "47,117", "2,002 операции" or "$t = 100{,}000$" for a
decimal, so thousands are grouped with a narrow no-break space (U+202F, "47 117") in prose and with
`\\,` in maths, in every language, and the English maths the translations copy byte for byte too.
(U+202F rather than a plain space: it does not break a number across lines, and in Persian, a
right-to-left text, the bidirectional algorithm keeps "11 503" one number; across a plain space
it shows "503 11".) Words the native readers flagged stay fixed, every link to a notebook names it
by its title, and quotation marks are the language's own: « » (with “ ” or „ “ inside).
"""

import re
import sys
from pathlib import Path

import nbformat
import pytest

from helpers.course.languages import TRANSLATED

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402

NNBSP = "\u202f"
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
NOT_READ_AS_PROSE = re.compile(r"\]\([^)]*\)|https?://\S+|<[^>]+>")  # link targets, addresses, tags
# A thousands group: 1-3 digits (not a lone 0, as in the decimal 0,125), then ",ddd" groups, in
# prose or in maths (`{,}` is LaTeX's comma without space). Persian's own separators count too.
COMMA_THOUSANDS = re.compile(r"(?<![\d.,])(?!0[,{])\d{1,3}(?:(?:,|\{,\}|\u066c|\u060c)\d{3})+(?![\d])")
SPACE_THOUSANDS = re.compile(r"(?<![\d.,\u202f])\d{1,3}(?:[ \u2009\u00a0]\d{3})+(?![\d])")


def read_aloud(text: str, maths: bool = True) -> str:
    """What a reader reads as text: no code, link targets or tags; maths kept unless `maths=False`."""
    text = translations.CODE.sub(" ", FENCE.sub(" ", text))
    if not maths:
        text = translations.MATHS.sub(" ", text)
    return NOT_READ_AS_PROSE.sub(" ", text)


def sources(lang: str) -> list[Path]:
    return sorted((ROOT / "notebooks" / lang / "sources").glob("*.md"))


def entries(lang: str):
    """(notebook stem, entry, English text) for every current translated cell of `lang`."""
    for notebook in translations.english_notebooks():
        english = {
            translations.english_hash(c.source): c.source for c in translations.english_cells(notebook)
        }
        for entry in translations.read_entries(translations.translation_file(lang, notebook)):
            if entry.en in english and not entry.todo:
                yield notebook.stem, entry, translations.without_language_line(english[entry.en])


def faults(pattern: re.Pattern, lang: str, maths: bool = True) -> list[str]:
    out = []
    for path in sources(lang):
        for number, line in enumerate(read_aloud(path.read_text(encoding="utf-8"), maths).splitlines(), 1):
            out += [f"{path.relative_to(ROOT)}:{number}: {m.group()!r}" for m in pattern.finditer(line)]
    return out


def test_the_number_patterns_find_what_the_readers_flagged_and_nothing_else():
    flagged = "47,117 posizioni; 2,002 операции; $t = 100{,}000$; 1,073,741,824 FLOP; 11،503"
    assert [m.group() for m in COMMA_THOUSANDS.finditer(flagged)] == [
        "47,117",
        "2,002",
        "100{,}000",
        "1,073,741,824",
        "11،503",
    ]
    fine = f"47{NNBSP}117; $100\\,000$; 0,5625 volte; 1,5 volte; 0,125; (400, 100); 42، 8; arXiv:2006.02427"
    assert not COMMA_THOUSANDS.findall(fine)
    assert [m.group() for m in SPACE_THOUSANDS.finditer("11 503 e 13\u2009004, 1\u00a0000")] == [
        "11 503",
        "13\u2009004",
        "1\u00a0000",
    ]
    assert not SPACE_THOUSANDS.findall(f"11{NNBSP}503; tra 10 e 100; N = 64")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_thousands_written_with_a_comma(lang):
    found = faults(COMMA_THOUSANDS, lang)
    assert not found, (
        "thousands with a comma read as a decimal here: write 47\u202f117 (U+202F) in prose and "
        "$62\\,832$ in maths (in the English cell too, which the translation copies); a decimal with "
        "three decimals, such as 1,125, must be written another way\n" + "\n".join(found)
    )


def test_the_english_maths_the_translations_copy_has_no_comma_thousands():
    found = [
        f"{notebook.name} {cell.id}: {maths}"
        for notebook in translations.english_notebooks()
        for cell in translations.english_cells(notebook)
        for maths in translations.MATHS.findall(cell.source)
        if COMMA_THOUSANDS.search(maths)
    ]
    assert not found, "write $100\\,000$, not $100{,}000$ or $100,000$:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_thousands_are_grouped_with_a_narrow_no_break_space(lang):
    found = faults(SPACE_THOUSANDS, lang, maths=False)
    assert not found, (
        "group thousands with U+202F (narrow no-break space): a plain or thin space may break the "
        "number across lines, and in Persian it reverses the two groups\n" + "\n".join(found)
    )


# Words the native readers flagged (issue 22), as (wrong, right, unless the English cell says...):
# `wrong` must not be in the translated prose (code and maths left out) of a cell whose English
# does not match `unless` (None: never).
FLAGGED = {
    "es": [
        ("precisi", "«exactitud» for accuracy («precisión» is precision)", r"\bprecision"),
        ("entradas de la salida", "«elementos» for the entries of an output", None),
    ],
    "ru": [
        ("потеря значимост", "«исчезновение порядка» for underflow", None),
        ("потери значимост", "«исчезновение порядка» for underflow", None),
        ("seed", "«сид» (declined: сида, сидом, восемь сидов) for a seed; `seed` in code stays", None),
        ("зерн", "«сид» for a seed", None),
    ],
    "fa": [
        (
            "کاهش گرادیان(?!ها)",
            "«گرادیان کاهشی» for gradient descent",
            None,
        ),  # not the article's «کاهش گرادیان‌های محوشونده»
    ],
    "it": [],
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_words_readers_flagged_stay_fixed(lang):
    found = []
    for stem, entry, english in entries(lang):
        text = translations.plain(read_aloud(entry.text, maths=False))
        for wrong, right, unless in FLAGGED[lang]:
            if re.search(translations.plain(wrong), text) and not (
                unless and re.search(unless, english, re.I)
            ):
                found.append(f"{lang} {stem} {entry.cell}: {wrong!r} -> {right}")
    assert not found, "\n".join(found)


def titles(lang: str) -> dict[str, str]:
    """{notebook file name: its title in `lang`, as its first cell says it}."""
    folder = ROOT / "notebooks" / lang
    return {
        nb.name: translations.title(nbformat.read(folder / nb.name, as_version=4))
        for nb in translations.english_notebooks()
    }


NAMED_LINK = re.compile(r"\[(\d\d · [^\]]+)\]\((\d\d_\w+\.ipynb)\)")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_link_to_a_notebook_names_it_by_its_title(lang):
    """[NN · title](NN_name.ipynb) says the notebook's title, or the title up to its colon, as in English."""
    named = titles(lang)
    found = [
        f"{lang} {stem} {entry.cell}: [{text}] for {target}, titled «{named[target]}»"
        for stem, entry, _ in entries(lang)
        for text, target in NAMED_LINK.findall(entry.text)
        if target in named and text not in (named[target], named[target].split(": ")[0])
    ]
    assert not found, "one name per notebook:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_quotation_marks_are_the_languages_own(lang):
    found = []
    for path in sources(lang):
        text = read_aloud(path.read_text(encoding="utf-8"))
        outside = re.sub(r"«[^«»]*»", " ", text)  # “ ” or „ “ may nest inside « »
        for number, line in enumerate(outside.splitlines(), 1):
            found += [
                f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}" for _ in re.findall(r'["“”„]', line)
            ][:1]
    assert not found, "quote with « » (inner “ ” or „ “), not straight or curly quotes alone:\n" + "\n".join(
        found
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_closing_section_has_one_name_in_a_language(lang):
    """ "## Takeaways", "## Exercises", "## Going further" and "## Further reading" are each said one
    way, and Going further not as Further reading."""
    names = {"Takeaways": set(), "Exercises": set(), "Going further": set(), "Further reading": set()}
    for _, entry, english in entries(lang):
        translated = re.findall(r"^(#+ .*)$", entry.text, re.M)
        for heading, theirs in zip(re.findall(r"^(#+ .*)$", english, re.M), translated, strict=True):
            if heading[3:] in names and heading.startswith("## "):
                names[heading[3:]].add(theirs[3:])
    assert all(len(found) == 1 for found in names.values()), f"{lang}: {names}"
    assert names["Going further"] != names["Further reading"], f"{lang}: {names}"


NOTE = re.compile(r"\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$")  # an entry's closing remark, in brackets


def reading_entries(text: str) -> list[str]:
    """The entries of a "## Further reading" cell, each with its continuation lines."""
    return [e.split("\n\n")[0].rstrip() for e in re.split(r"\n(?=\* )", text) if e.startswith("* ")]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_reading_list_entry_has_a_remark_only_where_the_english_has_one(lang):
    """Titles are cited as published: no translated gloss of a title where the English has no remark."""
    found = []
    for name, entry, english in entries(lang):
        if translations.is_reading_list(english):
            pairs = zip(reading_entries(english), reading_entries(entry.text), strict=True)
            found += [
                f"{name}: {ours[-90:]}"
                for theirs, ours in pairs
                if NOTE.search(ours) and not NOTE.search(theirs)
            ]
    assert not found, "a remark the English entry lacks:\n" + "\n".join(found)
