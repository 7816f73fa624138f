"""Lecture mode: every built notebook carries slide metadata that makes a usable slide show
(several slides, no screen with more code than fits), and the reveal.js export works: `make
slides` on every notebook, English and translated, writes a deck and a handout that load
nothing from the network."""

import copy
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import slides  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LANGS = ("it", "ru", "fa", "es")  # the Makefile's COURSE_LANGS
TRANSLATED = [(lang, path) for lang in LANGS for path in NOTEBOOKS]
NETWORK = re.compile(r'<(?:script|link|img)[^>]+(?:src|href)="(https?://[^"]+)"')
KINDS = {"slide", "subslide", "fragment", "skip", "notes", "-"}
MIN_SLIDES = 3


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_cell_has_a_slide_type(path):
    nb = read(path)
    missing = [i for i, c in enumerate(nb.cells) if slides.slide_type(c) not in KINDS]
    assert not missing, (
        f"{path.name}: cells {missing} lack slide metadata; run `make notebooks NB={path.name[:2]}`"
    )
    assert slides.slide_type(nb.cells[0]) == "slide", "the title opens the show"
    for cell in nb.cells:
        if "setup" in cell.metadata.get("tags", []):
            assert slides.slide_type(cell) == "skip", "the setup cell is not shown in a lecture"
    shown = [c.id for c, further in zip(nb.cells, slides.going_further(nb.cells)) if further]
    shown = [i for i in shown if slides.slide_type(next(c for c in nb.cells if c.id == i)) != "skip"]
    assert not shown, f"{path.name}: Going further cells {shown} are in the core deck; rebuild it"
    for lang in LANGS:  # a translation is presented as its English notebook is
        translated = read(ROOT / "notebooks" / lang / path.name)
        assert [slides.slide_type(c) for c in translated.cells] == [slides.slide_type(c) for c in nb.cells]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_several_slides_none_with_more_code_than_a_screen(path):
    nb = read(path)
    n_slides = sum(slides.slide_type(c) == "slide" for c in nb.cells)
    assert n_slides >= MIN_SLIDES, f"{path.name}: only {n_slides} slides; each `## ` section is one"
    for screen in slides.screens(nb):
        lines = sum(slides.code_lines(c) for c in screen)
        assert lines <= slides.MAX_CODE_LINES, (
            f"{path.name}: a screen starting {screen[0].source[:60]!r} shows {lines} lines of code "
            f"(at most {slides.MAX_CODE_LINES}); split the cell or mark it "
            '`slideshow={"slide_type": "subslide"}`'
        )


def _nb(*cells, **meta):
    return nbformat.v4.new_notebook(cells=list(cells), metadata=meta)


def test_rules_headings_setup_long_code_and_author_overrides():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    setup = code("import sys")
    setup.metadata["tags"] = ["setup"]
    fragment = md("step 2 of the derivation")
    fragment.metadata["slideshow"] = {"slide_type": "fragment"}
    nb = slides.add_slide_metadata(
        _nb(
            md("# 01 · Title"),
            setup,
            code("x = 1"),
            md("## An idea"),
            md("step 1"),
            fragment,
            md("### A detail"),
            md("text above\n\n## Mid-cell section\n\ntext"),
            code("\n".join(f"y{i} = {i}" for i in range(20))),
            *[code("\n".join(f"z{i} = {i}" for i in range(12))) for _ in range(3)],
        )
    )
    kinds = [slides.slide_type(c) for c in nb.cells]
    assert kinds[:9] == ["slide", "skip", "-", "slide", "-", "fragment", "subslide", "slide", "subslide"]
    assert kinds[9:] == ["subslide", "-", "subslide"], "a screen never holds more than 30 lines of code"
    again = slides.add_slide_metadata(nbformat.from_dict(copy.deepcopy(nb)))
    assert [slides.slide_type(c) for c in again.cells] == kinds, "idempotent"


def test_the_core_deck_skips_going_further_and_the_appendix_deck_shows_it():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [
        md("# 01 · Title"),
        md("## The idea"),
        code("x = 1"),
        md("## Exercises"),
        md("## Going further\n\nWhat this adds."),
        md("### A derivation"),
        code("y = 2"),
        md("## Further reading"),
    ]
    assert slides.going_further(cells) == [False] * 4 + [True] * 3 + [False]
    nb = slides.add_slide_metadata(_nb(*cells))
    kinds = [slides.slide_type(c) for c in nb.cells]
    assert kinds == ["slide", "slide", "-", "slide", "skip", "skip", "skip", "slide"]
    deck = slides.appendix(nbformat.from_dict(copy.deepcopy(nb)), nb)
    assert [c.source[:12] for c in deck.cells] == ["# 01 · Title", "## Going fur", "### A deriva", "y = 2"]
    assert [slides.slide_type(c) for c in deck.cells] == ["slide", "slide", "subslide", "-"]


@pytest.mark.slow
def test_export_to_reveal_js_that_loads_nothing_from_the_network():
    target = slides.export(NOTEBOOKS[0])  # build/slides/, where the pinned reveal.js and MathJax are
    html = target.read_text(encoding="utf-8")
    assert "reveal" in html and html.count("<section") >= MIN_SLIDES
    assert "Traceback" not in html
    assert slides.installed_vendor(target.parent) == slides.VENDOR
    loaded = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(https?://[^"]+)"', html)
    assert not loaded, f"scripts, styles or images from the network: {loaded}"
    assert "@import url(http" not in html, "a style sheet that fetches fonts"
    for url in slides.VENDOR_URLS.values():
        assert (target.parent / url.split("?")[0]).exists(), url


@pytest.fixture
def no_vendor(monkeypatch):
    """The export without npm: reveal.js and MathJax stay where the HTML points, uninstalled."""
    monkeypatch.setattr(slides, "install_vendor", lambda out_dir=slides.OUT_DIR: None)


def _offline_deck(html: str, where: str) -> None:
    assert html.count("<section") >= MIN_SLIDES, f"{where}: fewer than {MIN_SLIDES} slides"
    assert "Traceback" not in html, where
    assert not NETWORK.findall(html), f"{where}: loads {NETWORK.findall(html)}"
    assert "colab.research.google.com" not in html, f"{where}: the Colab badge is in the slides"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_make_slides_writes_every_notebooks_deck_and_handout(path, tmp_path, no_vendor):
    """`make slides`'s English pass, for this notebook: deck and handout, offline."""
    deck, page = slides.export(path, tmp_path), slides.handout(path, tmp_path)
    assert (deck.name, page.name) == (f"{path.stem}.slides.html", f"{path.stem}.handout.html")
    _offline_deck(deck.read_text(encoding="utf-8"), deck.name)
    further = slides.export(path, tmp_path, further=True)
    nb = read(path)
    if any(slides.going_further(nb.cells)):  # the core deck leaves out what the appendix deck shows
        assert further.name == f"{path.stem}.further.slides.html"
        assert 'id="Going-further"' not in deck.read_text(encoding="utf-8")
        assert 'id="Going-further"' in further.read_text(encoding="utf-8")
    handout = page.read_text(encoding="utf-8")
    assert "Traceback" not in handout and not NETWORK.findall(handout), page.name


@pytest.mark.slow
@pytest.mark.parametrize("lang, path", TRANSLATED, ids=lambda x: x if isinstance(x, str) else x.stem[:2])
def test_make_slides_writes_every_translated_deck(lang, path, tmp_path, no_vendor):
    """`make slides`'s pass for each language, on its prose: the translated notebook's markdown
    cells (its code cells and outputs are the English ones, byte for byte, exported above),
    copied to a folder named for the language, as notebooks/<lang>/ is."""
    translated = nbformat.read(ROOT / "notebooks" / lang / path.name, as_version=4)
    translated.cells = [c for c in translated.cells if c.cell_type == "markdown"]
    (tmp_path / lang).mkdir()
    nbformat.write(translated, tmp_path / lang / path.name)
    deck = slides.export(tmp_path / lang / path.name, tmp_path)
    assert deck.name == f"{path.stem}.{lang}.slides.html"
    html = deck.read_text(encoding="utf-8")
    _offline_deck(html, deck.name)
    if lang == "fa":  # every cell of prose right to left (rtl.css, in every deck, aligns it right)
        rtl = len(re.findall(r'<div dir="rtl"[^>]*\blang="fa"[^>]*text-align: right', html))
        shown = slides.screens(translated)
        assert rtl == sum(map(len, shown)), (
            f"{deck.name}: {rtl} of {sum(map(len, shown))} cells right to left"
        )


def test_the_command_refuses_a_language_or_notebook_it_does_not_have():
    assert [p.name for p in slides.selected(["00", "04"])] == [NOTEBOOKS[0].name, NOTEBOOKS[4].name]
    assert len(slides.selected(["--lang", "fa"])) == len(NOTEBOOKS)
    for argv in (["--lang", "xx"], ["99"], ["--lang"], ["--lang", "fa", "99"]):
        with pytest.raises(SystemExit):
            slides.selected(argv)
