"""The course in Italian, Russian, Persian and Spanish stays in step with the English source.

tools/translations.py builds notebooks/<lang>/ from the English notebooks and one translation per
markdown cell; these tests fail when an English cell changed and a translation still points at the
old text, when a translation lost maths, code or a link, when a built notebook is out of date or
its code differs from the English, and when `check` does not answer in the learner's language.
"""

import re
import shutil
import string
import sys
from collections import defaultdict
from pathlib import Path

import nbformat
import pytest

import helpers
from helpers.course import exercises, languages
from helpers.course.languages import ENGLISH, TRANSLATED, setup_line

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402

SEEDS = ROOT.parent / "shared" / "seeds"  # the article in each language, beside the repository
SEED_FILE = {"it": "000_*.txt", "ru": "002_*.txt", "fa": "003_*.txt", "es": "004_*.txt"}


def stale_report(langs=TRANSLATED) -> list[str]:
    """One line per English cell lacking a current translation, naming the languages that lack it."""
    by_cell = defaultdict(lambda: defaultdict(list))
    for lang in langs:
        for line in translations.needs_work(lang):
            _, notebook, rest = line.split(" ", 2)
            cell, why = rest.split(": ", 1)
            by_cell[f"{notebook} {cell}"][why.split(":")[0].split(" (")[0]].append(lang)
    lines = []
    for cell, reasons in by_cell.items():
        lines.append(
            f"{cell}: " + "; ".join(f"{why} in {', '.join(found)}" for why, found in reasons.items())
        )
    return lines


def test_every_english_cell_has_a_current_translation_in_every_language():
    report = stale_report()
    assert not report, "\n".join(
        ["the English changed; `python tools/translations.py status` says how:", *report]
    )


def test_a_changed_english_cell_is_reported_with_its_cell_and_every_language(tmp_path, monkeypatch):
    for english in translations.english_notebooks():
        shutil.copy(english, tmp_path / english.name)
    for lang in TRANSLATED:
        shutil.copytree(ROOT / "notebooks" / lang / "sources", tmp_path / lang / "sources")
    monkeypatch.setattr(translations, "NOTEBOOKS", tmp_path)
    before = stale_report()
    english = tmp_path / "04_attention.ipynb"
    nb = nbformat.read(english, as_version=4)
    cell = next(
        c
        for c in nb.cells
        if c.cell_type == "markdown" and len(c.source) > 200 and not any(f" {c.id}:" in b for b in before)
    )
    original, cell.source = cell.source, cell.source + " One more sentence."
    nbformat.write(nb, english)
    (line,) = set(stale_report()) - set(before)
    assert line == f"04_attention {cell.id}: stale in it, ru, fa, es"
    cell.source = original
    nbformat.write(nb, english)
    assert stale_report() == before


def test_translations_keep_maths_code_links_headings_tables_and_the_glossary():
    faults = [line for lang in TRANSLATED for line in translations.faults(lang)]
    assert not faults, "\n".join(faults)


def test_built_notebooks_are_up_to_date():
    assert translations.build(list(TRANSLATED), check=True) == 0, "python tools/translations.py build"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_code_cells_and_outputs_are_the_english_ones(lang):
    for english in translations.english_notebooks():
        en = nbformat.read(english, as_version=4)
        xx = nbformat.read(ROOT / "notebooks" / lang / english.name, as_version=4)
        assert [(c.id, c.cell_type) for c in xx.cells] == [(c.id, c.cell_type) for c in en.cells]
        for a, b in zip(en.cells, xx.cells, strict=True):
            if a.cell_type != "code":
                continue
            assert b.source.replace(f"\n{setup_line(lang)}", "") == a.source, f"{lang}/{english.name} {a.id}"
            assert b.outputs == a.outputs, f"{lang}/{english.name} {a.id}: outputs differ from the English"
        setups = [c for c in xx.cells if setup_line(lang) in c.source]
        assert len(setups) == 1, f"{lang}/{english.name}: sets its language {len(setups)} times"


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_every_notebook_opens_with_the_language_switcher_and_its_links_exist(lang):
    folder = ROOT / "notebooks" / ("" if lang == "en" else lang)
    for english in translations.english_notebooks():
        nb = nbformat.read(folder / english.name, as_version=4)
        assert languages.language_line(lang, english.name) in nb.cells[0].source
        for cell in nb.cells:
            for target in translations.TARGET.findall(cell.source) if cell.cell_type == "markdown" else []:
                path = target.split("#")[0]
                if path and not re.match(r"https?://", path):
                    assert (folder / path).exists(), f"{lang}/{english.name} {cell.id}: broken link {target}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_glossary_says_terms_as_the_article_does(lang):
    glossary = translations.read_glossary(lang)
    assert len(glossary) >= 15, f"{lang}: a glossary of {len(glossary)} terms"
    seeds = sorted(SEEDS.glob(SEED_FILE[lang]))
    article = " ".join(seeds[0].read_text(encoding="utf-8").split()) if seeds else None
    for term, entry in glossary.items():
        if not entry["seed"]:
            assert entry.get("note"), f"{lang} '{term}': not in the article, and no note says why this word"
            continue
        quote, forms = translations.plain(entry["seed"]), entry["forms"]
        assert any(translations.plain(f) in quote for f in forms) or entry.get("note"), (
            f"{lang} '{term}': the translation's forms differ from the article's words, and no note says why"
        )
        if article is not None:  # the article lives beside the repository, not in it
            assert " ".join(entry["seed"].split()) in article, f"{lang} '{term}': the article never says this"


def placeholders(text: str) -> list[str]:
    return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_check_has_every_verdict_and_hint_in_every_language(lang):
    helpers.import_all()
    words = languages._words(lang)
    assert set(words.VERDICTS) == set(ENGLISH)
    for key, english in ENGLISH.items():
        assert placeholders(words.VERDICTS[key]) == placeholders(english), f"{lang} {key}"
        assert words.VERDICTS[key] != english, f"{lang} {key}: still English"
    want = {  # the course's exercises (tests register a few of their own)
        name
        for name, ex in exercises.EXERCISES.items()
        if ex.hint and ex.reference.__module__.startswith("helpers.")
    }
    assert set(words.HINTS) == want, f"{lang}: hints missing {want - set(words.HINTS)}"


@pytest.fixture
def italian():
    helpers.use_language("it")
    yield languages._words("it")
    helpers.use_language("en")


def test_check_answers_in_the_learners_language(italian, capsys):
    helpers.import_all()
    helpers.check("rnn_step", lambda *args: None)
    wrong = capsys.readouterr().out
    assert italian.VERDICTS["returned_none"] in wrong and italian.HINTS["rnn_step"] in wrong
    helpers.check("rnn_step", helpers.rnn_step)
    assert capsys.readouterr().out.strip() == f"[rnn_step] {italian.VERDICTS['correct']}"


def test_use_language_refuses_an_unknown_language_clearly():
    with pytest.raises(ValueError, match="unknown language 'de'; the course has en, it, ru, fa, es"):
        helpers.use_language("de")


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_every_readme_links_every_language(lang):
    readme = ROOT / ("README.md" if lang == "en" else f"notebooks/{lang}/README.md")
    text = readme.read_text(encoding="utf-8")
    assert translations.readme_line(lang) in text
    for target in translations.TARGET.findall(text):
        if not re.match(r"https?://", target):
            assert (readme.parent / target.split("#")[0]).exists(), f"{readme}: broken link {target}"
