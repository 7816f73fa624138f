"""The course in Italian, Russian, Persian and Spanish stays in step with the English source.

tools/translations.py builds notebooks/<lang>/ from the English notebooks and one translation per
markdown cell; these tests fail when an English cell changed and a translation still points at the
old text, when a translation lost maths, code or a link, when a built notebook is out of date or
its code differs from the English, and when `check` does not answer in the learner's language.
"""

import re
import shutil
import string
import subprocess
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
def test_code_is_the_english_code_and_outputs_a_run_in_the_language(lang):
    """The code is the English code; the outputs are those of a run in `lang` of the English notebook
    as it is now (its execution key)."""
    for english in translations.english_notebooks():
        en = nbformat.read(english, as_version=4)
        xx = nbformat.read(ROOT / "notebooks" / lang / english.name, as_version=4)
        assert [(c.id, c.cell_type) for c in xx.cells] == [(c.id, c.cell_type) for c in en.cells]
        run = xx.metadata.get("why_transformers", {})
        assert run.get("executed_in") == lang, f"{lang}/{english.name}: not run in {lang}"
        assert run.get("execution_key") == translations.execution_key(lang, english), (
            f"{lang}/{english.name}: its run is out of date (`python tools/translations.py build {lang}`)"
        )
        for a, b in zip(en.cells, xx.cells, strict=True):
            if a.cell_type != "code":
                continue
            assert b.source.replace(f"\n{setup_line(lang)}", "") == a.source, f"{lang}/{english.name} {a.id}"
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


# ---- what a translated notebook prints, right to left where it should be ---------------------

ENGLISH_OUTPUT = [  # what the English helpers print, which a run in another language must not
    *(ENGLISH[k].split("{")[0] for k in ("not_yet", "hint", "not_attempted", "no_answer")),
    "the article says",
    "what it shows",
    "honest verdict",
    "from the literature",
]


def printed(cell) -> str:
    return "".join(o.get("text") or o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_notebook_run_in_its_language_prints_in_it(lang):
    """Its checks' verdicts, its widgets' labels, 00's course map and short ledger and 08's claims
    ledger are in `lang`."""
    words = languages._words(lang)
    for english in translations.english_notebooks():
        stem = english.stem
        nb = nbformat.read(ROOT / "notebooks" / lang / english.name, as_version=4)
        for cell in nb.cells:
            text = printed(cell)
            found = [e for e in ENGLISH_OUTPUT if e in text]
            assert not found, f"{lang}/{stem} {cell.id}: English output {found}: {text[:200]}"
            for label in re.findall(r"^Explorer\(\w+: (.*)\)$", text, re.M):
                untranslated = [w for w in words.LABELS if w in label.split(", ") and words.LABELS[w] != w]
                assert not untranslated, f"{lang}/{stem} {cell.id}: widget labels in English: {untranslated}"
    course_map = printed(
        nbformat.read(ROOT / "notebooks" / lang / "00_start_here.ipynb", as_version=4).cells[9]
    )
    assert words.COURSE_MAP["01_recurrence"] in course_map


def test_persian_feedback_in_a_notebook_is_right_to_left_html_with_isolated_code():
    nb = nbformat.read(ROOT / "notebooks" / "fa" / "00_start_here.ipynb", as_version=4)
    shown = [o for c in nb.cells for o in c.get("outputs", []) if "helpers.check" in c.source]
    assert shown and all(o.output_type == "display_data" for o in shown), shown
    for o in shown:
        assert o.data["text/html"].startswith('<div class="helpers-feedback" dir="rtl"'), o.data
        assert "\u2066[" in o.data["text/plain"] and o.data["text/plain"].startswith("\u2067")


def test_the_setup_line_names_the_language_in_english():
    assert setup_line("it") == 'helpers.use_language("it")  # the helpers answer in Italian'
    assert setup_line("fa").endswith("# the helpers answer in Persian")


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
def test_strict_nbval_on_a_notebook_run_in_each_language(lang):
    """`make test` runs strict nbval on the English notebooks only (pyproject's --ignore-glob); here one
    notebook per language that the build ran in that language, 00 (about 10 s each)."""
    notebook = ROOT / "notebooks" / lang / "00_start_here.ipynb"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            str(notebook),
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            str(ROOT / "tests" / "nbval_sanitize.cfg"),
            "--nbval-cell-timeout=300",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]


def persian_markdown() -> list[tuple[str, str, str]]:
    return [
        (path.name, cell.id, cell.source)
        for path in sorted((ROOT / "notebooks" / "fa").glob("[0-9][0-9]_*.ipynb"))
        for cell in nbformat.read(path, as_version=4).cells
        if cell.cell_type == "markdown"
    ]


def test_persian_cells_carry_their_direction_and_alignment_in_their_markup():
    """Each cell a right-aligned right-to-left <div>; each paragraph and list item's text its own
    right-aligned block; no Markdown blockquote (its bar would be on the left): an HTML one with its
    bar on the right; display maths in a left-to-right <div>, also inside a blockquote (02 cell 0)."""
    for name, cell, text in persian_markdown():
        where = f"fa/{name} {cell}"
        assert text.startswith(f'<div {translations.RTL_BOX} lang="fa">'), where
        assert not re.search(r"^ {0,3}>", text, re.M), f"{where}: a Markdown blockquote"
        for block in (b.strip("\n") for b in re.split(r"\n[ \t]*\n", text)):
            first = block.lstrip()
            if first and not first.startswith(
                ("#", "|", "$$", "```", "<div", "</div", "<blockquote", "</bl")
            ):
                opener = translations.LIST_ITEM.sub(r"\2", block.split("\n")[0])
                assert opener.startswith(translations.RTL_TEXT), f"{where}: not right-aligned: {block[:80]}"
        for maths in re.findall(r"^\$\$.*?\$\$", text, re.M | re.S):
            assert f'<div dir="ltr">\n\n{maths}' in text, f"{where}: display maths not isolated"
    quote = next(t for n, c, t in persian_markdown() if n.startswith("02") and c == "cell-000")
    assert (
        translations.RTL_QUOTE in quote and '<div dir="ltr">\n\n$$' in quote.split(translations.RTL_QUOTE)[1]
    )


def test_the_persian_switcher_isolates_each_language_name():
    line = languages.language_line("fa", "04_attention.ipynb")
    names = re.findall(r'<span dir="(ltr|rtl)">(.*?)</span>', line)
    assert [d for d, _ in names] == ["ltr", "ltr", "ltr", "rtl", "ltr"], line
    assert languages.language_line("it", "04_attention.ipynb").count("<span") == 0


def test_the_persian_readme_isolates_its_code_and_says_where_it_was_checked():
    text = (ROOT / "notebooks" / "fa" / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```.*?^```", text, re.M | re.S)
    assert blocks and all(f'<div dir="ltr">\n\n{b}' in text for b in blocks), "a code block not isolated"
    assert "GitHub" in text and "Colab" in text and "nbconvert" in text


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_readme_has_the_table_of_the_figures_english_words(lang):
    from helpers.course.words.figures import FIGURE_WORDS, figure_words_section

    text = (ROOT / "notebooks" / lang / "README.md").read_text(encoding="utf-8")
    if lang == "fa":
        assert all(f"| {w} |" in text for w in FIGURE_WORDS)
    else:
        assert figure_words_section(lang) in text
    alts = " ".join(
        o.get("metadata", {}).get("image/png", {}).get("alt", "")
        for english in translations.english_notebooks()
        for c in nbformat.read(english, as_version=4).cells
        for o in c.get("outputs", [])
    )
    unused = [w for w in FIGURE_WORDS if not re.search(rf"\b{re.escape(w)}\b", alts, re.I)]
    assert not unused, f"words no figure uses: {unused}"
