"""Lecture mode: slide metadata for every notebook, and export to reveal.js slides.

`tools/build_notebooks.py` calls `add_slide_metadata` on every notebook it builds, so each
cell carries `metadata.slideshow.slide_type` (RISE in JupyterLab and nbconvert read it):

* the title cell and every `## ` section start a **slide**; a `### ` heading a **subslide**
  (a heading anywhere in a markdown cell makes the whole cell start it: begin the cell
  with the heading);
* the setup cell (tag `setup`) is **skipped**, and so is the `## Going further` section: the
  deck is the notebook's core path, about 20 minutes; `NN_name.further.slides.html` is the
  appendix deck of Going further alone (after the title);
* a long code cell (more than LONG_CODE_LINES lines) starts a **subslide**, and so does
  any cell that would overflow the screen (SCREEN_ROWS rows of text, code and figures) or
  put more than MAX_CODE_LINES lines of code on one screen;
* everything else continues the current screen ("-").

An author overrides any cell in the .py source, e.g. `# %% slideshow={"slide_type": "fragment"}`
(or `# %% [markdown] slideshow={"slide_type": "fragment"}`): the build keeps it as it is.

    python tools/slides.py            # every notebook: build/slides/NN_name.slides.html (+ .further.)
    python tools/slides.py 00 04      # only these
    python tools/slides.py --lang fa  # the Persian notebooks: build/slides/NN_name.fa.slides.html

A language or a notebook number that matches no notebook stops it with a message.

The slides present with the network off. The first export installs pinned reveal.js,
MathJax 2, require.js and jQuery from the npm registry into build/slides/vendor/ (VENDOR;
nothing is committed), and the HTML loads them from there, with a template
(tools/templates/offline_reveal/) that drops the mermaid and widget-renderer scripts. The
Colab badge (an image on colab.research.google.com) is left out of the slides. Open the
slides through a local web server, so that MathJax may load its fonts:

    python -m http.server --directory build/slides 8000   # then http://localhost:8000/

Beside each deck, NN_name.handout.html is the notebook as one printable page with every
figure (nbconvert's HTML export, offline the same way; print it to PDF from the browser:
nbconvert's own PDF export needs a TeX installation or a Chromium download).
"""

from __future__ import annotations

import base64
import fcntl
import json
import math
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
OUT_DIR = ROOT / "build" / "slides"
TEMPLATES = Path(__file__).resolve().parent / "templates"
VENDOR = {"reveal.js": "4.0.2", "mathjax": "2.7.7", "requirejs": "2.1.10", "jquery": "2.2.4"}  # npm, pinned
VENDOR_URLS = {  # relative to the slides; nbconvert's reveal template expects reveal.js 4.0.2, MathJax 2
    "reveal_url_prefix": "vendor/node_modules/reveal.js",
    "mathjax_url": "vendor/node_modules/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
    "require_js_url": "vendor/node_modules/requirejs/require.js",
    "jquery_url": "vendor/node_modules/jquery/dist/jquery.min.js",
}
COLAB_BADGE = re.compile(r"\[!\[Open In Colab\]\([^)]*\)\]\([^)]*\)\s*")

SCREEN_ROWS = 32  # what fits on one reveal.js screen, in rows of text (~22 px each)
MAX_CODE_LINES = 30  # never more code than this on one screen
LONG_CODE_LINES = 15  # a code cell longer than this gets a screen of its own
ROW_PX = 22  # a figure of h pixels takes h / ROW_PX rows
WIDGET_ROWS = 16  # controls plus the figure under them
TEXT_OUTPUT_ROWS = 12  # a long printed output scrolls; count at most this much
CHARS_PER_ROW = 90
NEW_SCREEN = ("slide", "subslide")
HIDDEN = ("skip", "notes")
FURTHER = "going further"  # the English heading; a translation's cells are found by their English ids


def slide_type(cell) -> str | None:
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type")


def _png_height(b64: str) -> int:
    raw = base64.b64decode(b64[:64])  # the IHDR chunk: width, height at bytes 16..24
    return struct.unpack(">II", raw[16:24])[1]


def _text_rows(text: str) -> int:
    return sum(max(1, math.ceil(len(line) / CHARS_PER_ROW)) for line in text.splitlines())


def code_lines(cell) -> int:
    """Non-blank lines of a code cell (what a reader has to read on the slide)."""
    if cell["cell_type"] != "code":
        return 0
    return sum(1 for line in cell["source"].splitlines() if line.strip())


def screen_rows(cell) -> int:
    """About how many rows of a screen the cell takes, with its outputs."""
    if cell["cell_type"] == "markdown":
        return _text_rows(cell["source"]) + cell["source"].count("\n#")
    rows = code_lines(cell)
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "application/vnd.jupyter.widget-view+json" in data:
            rows += WIDGET_ROWS
        elif "image/png" in data:
            rows += math.ceil(_png_height(data["image/png"]) / ROW_PX)
        else:
            text = out.get("text") or data.get("text/markdown") or data.get("text/plain") or ""
            rows += min(TEXT_OUTPUT_ROWS, _text_rows("".join(text)))
    return rows


def _heading(cell) -> str:
    """The highest heading in a markdown cell ("#", "##", "###"), or ""; a heading anywhere in
    the cell counts, so a section that starts mid-cell still gets its slide."""
    if cell["cell_type"] != "markdown":
        return ""
    levels = [
        line.split(" ", 1)[0]
        for line in cell["source"].splitlines()
        if line.startswith("#") and " " in line and set(line.split(" ", 1)[0]) == {"#"}
    ]
    return min(levels, key=len, default="")


def going_further(cells: list) -> list[bool]:
    """For each cell, whether it lies in the `## Going further` section (up to the next `## `).

    A markdown cell belongs to the section its first `## ` heading opens (or the one it continues)."""
    inside, flags = False, []
    for cell in cells:
        titles = [
            line[3:].strip().lower()
            for line in (cell["source"].splitlines() if cell["cell_type"] == "markdown" else [])
            if line.startswith("## ")
        ]
        flags.append(titles[0].startswith(FURTHER) if titles else inside)
        inside = titles[-1].startswith(FURTHER) if titles else inside
    return flags


def add_slide_metadata(nb: nbformat.NotebookNode, core_only: bool = True) -> nbformat.NotebookNode:
    """Give every cell a slide type (see the module docstring); author's choices are kept.

    core_only=False lays out the Going further section too (the appendix deck)."""
    rows = code = 0
    further = going_further(nb.cells) if core_only else [False] * len(nb.cells)
    for i, cell in enumerate(nb.cells):
        kind = slide_type(cell)
        if kind is None:
            heading, cell_rows, cell_code = _heading(cell), screen_rows(cell), code_lines(cell)
            if "setup" in cell.get("metadata", {}).get("tags", []) or further[i]:
                kind = "skip"
            elif i == 0 or heading in ("#", "##"):
                kind = "slide"
            elif heading == "###" or cell_code > LONG_CODE_LINES:
                kind = "subslide"
            elif rows and (rows + cell_rows > SCREEN_ROWS or code + cell_code > MAX_CODE_LINES):
                kind = "subslide"
            else:
                kind = "-"
            cell.metadata["slideshow"] = {"slide_type": kind}
        if kind in NEW_SCREEN:
            rows, code = screen_rows(cell), code_lines(cell)
        elif kind not in HIDDEN:
            rows, code = rows + screen_rows(cell), code + code_lines(cell)
    return nb


def screens(nb: nbformat.NotebookNode) -> list[list]:
    """The visible cells grouped by screen (a slide or a subslide), in order."""
    groups: list[list] = []
    for cell in nb.cells:
        kind = slide_type(cell) or "-"
        if kind in HIDDEN:
            continue
        if kind in NEW_SCREEN or not groups:
            groups.append([])
        groups[-1].append(cell)
    return groups


def installed_vendor(out_dir: Path) -> dict[str, str]:
    """The versions of VENDOR's packages installed in out_dir/vendor (empty when none)."""
    found = {}
    for name in VENDOR:
        meta = out_dir / "vendor" / "node_modules" / name / "package.json"
        if meta.exists():
            found[name] = json.loads(meta.read_text(encoding="utf-8"))["version"]
    return found


def install_vendor(out_dir: Path = OUT_DIR) -> None:
    """npm-install VENDOR into out_dir/vendor, unless those exact versions are there already.

    Under a lock: two processes (`make test` runs two pytest workers) never install at once."""
    vendor = out_dir / "vendor"
    vendor.mkdir(parents=True, exist_ok=True)
    with open(vendor / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if installed_vendor(out_dir) == VENDOR:
            return
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit(
                "make slides needs npm (apt-get install npm) to fetch reveal.js and MathJax once"
            )
        specs = [f"{name}@{version}" for name, version in VENDOR.items()]
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", str(vendor), *specs],
            check=True,
            stdout=subprocess.DEVNULL,
        )


def _without_badge(notebook: Path) -> nbformat.NotebookNode:
    """The notebook without its Colab badge (an image on colab.research.google.com)."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = COLAB_BADGE.sub("", cell.source)
    return nb


def deck_name(notebook: Path) -> str:
    """ "04_attention" for the English notebook, "04_attention.fa" for notebooks/fa/04_attention.ipynb."""
    lang = notebook.parent.name
    return notebook.stem if notebook.parent == NOTEBOOKS else f"{notebook.stem}.{lang}"


def handout(notebook: Path, out_dir: Path = OUT_DIR) -> Path:
    """Write `notebook` as one printable HTML page with every figure, offline like the slides."""
    from nbconvert import HTMLExporter

    install_vendor(out_dir)
    urls = {k: v for k, v in VENDOR_URLS.items() if k in ("mathjax_url", "require_js_url")}
    exporter = HTMLExporter(
        extra_template_basedirs=[str(TEMPLATES)],
        extra_template_paths=[str(TEMPLATES)],
        template_name="offline_lab",
        **urls,
    )
    body, _ = exporter.from_notebook_node(_without_badge(notebook))
    target = out_dir / f"{deck_name(notebook)}.handout.html"
    target.write_text(body, encoding="utf-8")
    return target


def appendix(nb: nbformat.NotebookNode, english: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """`nb`'s Going further deck: its title cell, then that section laid out as slides.

    `english` is the English notebook `nb` translates (or `nb` itself): its headings say which
    cells, by id, are the section, in any language."""
    ids = {cell.id for cell, inside in zip(english.cells, going_further(english.cells)) if inside}
    deck = nbformat.v4.new_notebook(metadata=nb.metadata, cells=[nb.cells[0]])
    for cell in (c for c in nb.cells if c.id in ids):
        if slide_type(cell) == "skip":  # skipped by the core deck: laid out again here
            del cell.metadata["slideshow"]
        deck.cells.append(cell)
    return add_slide_metadata(deck, core_only=False)


def export(notebook: Path, out_dir: Path = OUT_DIR, further: bool = False) -> Path | None:
    """Write `notebook` as reveal.js slides that present offline (see the module docstring); the path.

    further=True writes its Going further deck instead (None when it has no such section)."""
    from nbconvert import SlidesExporter

    install_vendor(out_dir)
    nb = _without_badge(notebook)
    if further:
        english = (
            nb if notebook.parent == NOTEBOOKS else nbformat.read(NOTEBOOKS / notebook.name, as_version=4)
        )
        if not any(going_further(english.cells)):
            return None
        nb = appendix(nb, english)
    exporter = SlidesExporter(
        extra_template_basedirs=[str(TEMPLATES)],
        extra_template_paths=[str(TEMPLATES)],
        template_name="offline_reveal",
        reveal_scroll=True,
        reveal_transition="none",
        reveal_theme="white",  # its font ships with reveal.js ("simple" fetches two from Google Fonts)
        **VENDOR_URLS,
    )
    body, _ = exporter.from_notebook_node(nb)
    target = out_dir / f"{deck_name(notebook)}{'.further' if further else ''}.slides.html"
    target.write_text(body, encoding="utf-8")
    return target


def selected(argv: list[str]) -> list[Path]:
    """The notebooks `python tools/slides.py [NN ...] [--lang LANG]` exports; SystemExit when
    the language or a notebook number matches nothing (a typo would otherwise export nothing)."""
    args = list(argv)
    lang = ""
    if "--lang" in args:
        at = args.index("--lang")
        if at + 1 == len(args):
            raise SystemExit("--lang needs a language: it, ru, fa or es")
        lang = args.pop(at + 1)
        args.pop(at)
    folder = NOTEBOOKS / lang
    books = sorted(folder.glob("[0-9][0-9]_*.ipynb")) if lang != "sources" else []
    if not books:
        raise SystemExit(f"no notebooks in {folder.relative_to(ROOT)}/ (languages: it, ru, fa, es)")
    unknown = [a for a in args if a not in {nb.name[:2] for nb in books}]
    if unknown:
        raise SystemExit(f"no notebook {', '.join(unknown)} in {folder.relative_to(ROOT)}/")
    return [nb for nb in books if not args or nb.name[:2] in args]


if __name__ == "__main__":
    for nb in selected(sys.argv[1:]):
        written = [export(nb), export(nb, further=True), handout(nb)]
        print(f"{nb.stem}: {', '.join(str(p.relative_to(ROOT)) for p in written if p)}", flush=True)
