"""Lecture mode: every built notebook carries slide metadata that makes a usable slide show
(several slides, no screen with more code than fits), and the reveal.js export works."""

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
