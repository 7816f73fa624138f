"""Sphinx configuration of the course's book, one language per build (tools/book/build.py).

tools/book/build.py stages a language's sources (its README as the landing page, its notebooks
with each widget as precomputed frames) and runs Sphinx with this folder as the configuration
directory; it describes the build in the JSON file named by $BOOK_JSON: the language, the other
languages' folders, the pages and their notebook's path in the repository, the labels.
Nothing is executed (nb_execution_mode "off"): the pages show the committed outputs.
"""

import json
import os
from pathlib import Path

BOOK = json.loads(Path(os.environ["BOOK_JSON"]).read_text(encoding="utf-8"))

project = BOOK["title"]
author = "the why-transformers authors"
copyright = "the why-transformers authors, MIT licence"
language = BOOK["lang"]
root_doc = "index"
extensions = ["myst_nb"]
exclude_patterns = ["_build", "book.json"]
templates_path = [str(Path(__file__).parent / "_templates")]
html_static_path = [str(Path(__file__).parent / "_static")]
html_css_files = ["book.css"]
html_js_files = ["book-explorer.js"]

# the notebooks as committed: no execution, no widget JavaScript (each widget is frames and
# plain HTML controls, see tools/book/frames.py), maths by the MathJax the build serves
nb_execution_mode = "off"
nb_ipywidgets_js = {}
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath", "html_image"]
myst_heading_anchors = 3
mathjax_path = BOOK["mathjax"]  # relative to _static/: the one copy in build/book/_vendor/mathjax/
mathjax3_config = {"loader": {"load": []}, "options": {"enableMenu": False}}
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type", "misc.highlighting_failure"]

html_theme = "sphinx_book_theme"
html_title = BOOK["title"]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_baseurl = ""
html_sidebars = {
    "**": ["navbar-logo.html", "book-languages.html", "search-button-field.html", "sbt-sidebar-nav.html"]
}
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "article_header_end": ["book-links.html", "article-header-buttons.html"],
    "show_prev_next": True,
    "navigation_with_keys": False,
    "pygments_light_style": "a11y-high-contrast-light",  # axe: tango's strings fail contrast
    "pygments_dark_style": "a11y-high-contrast-dark",
}
html_context = {"book": BOOK, "default_mode": "light"}


def _page_context(app, pagename, templatename, context, doctree):
    """Each page's launch links (Colab, Binder, the notebook itself) and its other languages."""
    page = BOOK["pages"].get(pagename)
    context["book_page"] = page
    context["book_languages"] = [
        {**other, "href": f"../{other['dir']}/{pagename}.html", "current": other["code"] == BOOK["lang"]}
        for other in BOOK["languages"]
    ]


def setup(app):
    app.connect("html-page-context", _page_context)
