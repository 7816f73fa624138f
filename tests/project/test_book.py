"""The course as a static web book (`make book`, tools/book/): built once here, all five languages.

Without a browser: every notebook of every language has its page, every internal link and anchor
resolves, no page or stylesheet loads anything over http(s), Sphinx warns about nothing, the
sidebar is in course order with previous/next and launch links, the Persian pages are right to
left, and every widget is its frames (each with alt text) from the course's own Explorer code,
cached: a second pass renders none.

In headless Chromium, every request off this machine refused: a page renders its maths with the
book's MathJax; the language switcher lands on the same notebook in Persian, right to left; the
keyboard moves each widget control to the right frame and alt text; search finds an Italian word
by its stem; axe-core finds no serious or critical violation on one page per language.
Screenshots go to artifacts/screenshots/book-*.png. Without Chromium the browser tests skip (with
CI=true they fail), as in test_browser.py.
"""

import contextlib
import functools
import html
import http.server
import json
import os
import re
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).parent), str(ROOT / "tools")]
from book import build, check  # noqa: E402
from book import frames as F  # noqa: E402

import browser_support as B  # noqa: E402
from helpers.course.languages import LANGUAGES  # noqa: E402

pytestmark = pytest.mark.slow
PAGE = "04_attention"  # the page the browser tests open (maths, a widget, every language)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The whole book, built into a temporary folder (the frames' cache is build/book-cache/)."""
    tmp = tmp_path_factory.mktemp("book")
    summary = build.build(list(LANGUAGES), tmp / "site", stage=tmp / "src")
    B.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (B.ARTIFACTS / "book_build.json").write_text(json.dumps(summary, indent=1))
    return tmp / "site"


def widgets_on(page: Path) -> list[dict]:
    """Each widget of a built page: its data-frame, its inputs' ids, defaults and values, its frames."""
    text = page.read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r'<figure class="book-explorer"(.*?)</figure>', text, re.S):
        body = m.group(1)
        inputs = re.findall(
            r'<input type="range"[^>]*id="([^"]+)"[^>]*data-default="(\d+)"[^>]*data-values=\'([^\']*)\'',
            body,
        )
        labels = re.findall(r'<label for="([^"]+)">([^<]+)</label>', body)
        frames = json.loads(re.search(r'class="book-explorer-frames">(.*?)</script>', body, re.S).group(1))
        found.append(
            {
                "grid": 'data-grid="1"' in body,
                "inputs": [(i, int(d), json.loads(html.unescape(v))) for i, d, v in inputs],
                "labels": dict(labels),
                "frames": frames,
                "frame": re.search(r'data-frame="([^"]*)"', body).group(1),
            }
        )
    return found


# --------------------------------------------------------------------------- the built site
def test_every_notebook_of_every_language_has_a_page(site):
    english = [nb.stem for nb in build.notebooks("en")]
    for lang in LANGUAGES:
        assert [nb.stem for nb in build.notebooks(lang)] == english, f"{lang} has other notebooks"
        for name in [*english, "index", "search"]:
            page = site / lang / f"{name}.html"
            assert page.exists(), f"no page {page.relative_to(site)}"
            assert f'lang="{lang}"' in page.read_text(encoding="utf-8")[:300], page
    top = {"index.html", ".nojekyll", "_frames", "_vendor", *LANGUAGES}  # no myst-nb jupyter_execute/
    assert {p.name for p in site.iterdir()} == top


def test_every_internal_link_and_anchor_resolves(site):
    assert check.broken_links(site) == []


def test_no_page_or_stylesheet_loads_anything_remote(site):
    assert check.remote_assets(site) == []
    mathjax = site / "_vendor" / "mathjax" / "tex-chtml.js"
    assert mathjax.exists()
    page = (site / "en" / f"{PAGE}.html").read_text(encoding="utf-8")
    assert 'src="_static/../../_vendor/mathjax/tex-chtml.js' in page  # = site/_vendor/, from each language


def test_sphinx_warns_about_nothing(site):
    logs = {p.stem: p.read_text(encoding="utf-8") for p in (site.parent / "src").glob("*.log")}
    assert sorted(logs) == sorted(LANGUAGES)
    assert {k: v for k, v in logs.items() if "WARNING" in v or "ERROR" in v} == {}


def test_sidebar_in_course_order_with_previous_next_and_launch_links(site):
    english = [nb.stem for nb in build.notebooks("en")]
    for lang in LANGUAGES:
        text = (site / lang / f"{PAGE}.html").read_text(encoding="utf-8")
        nav = text[text.index('<nav class="bd-links') :]
        nav = nav[: nav.index("</nav>")]
        linked = [m for m in re.findall(r'href="(\d\d_\w+)\.html"', nav)]
        assert linked == [n for n in english if n != PAGE], (lang, linked)  # the current page is "#"
        assert re.search(r'<link rel="prev"[^>]*href="03_lstm_gating.html"', text)
        assert re.search(r'<link rel="next"[^>]*href="05_multihead_positions.html"', text)
        path = f"notebooks/{'' if lang == 'en' else lang + '/'}{PAGE}.ipynb"
        assert (
            f'href="https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/{path}"'
            in text
        )
        assert (
            f'href="https://mybinder.org/v2/gh/why-transformers/why-transformers/main?urlpath=lab/tree/{path}"'
            in text
        )
        assert f'href="notebooks/{PAGE}.ipynb" download' in text
        assert (site / lang / "notebooks" / f"{PAGE}.ipynb").read_bytes() == (ROOT / path).read_bytes()
        for other in LANGUAGES:  # the switcher: the same notebook in every language
            assert f'href="../{other}/{PAGE}.html"' in text


def test_persian_pages_read_right_to_left(site):
    for page in (site / "fa").glob("*.html"):
        assert re.search(r'<html dir="rtl"[^>]* lang="fa"', page.read_text(encoding="utf-8")), page.name
    for page in (site / "en").glob("*.html"):
        assert 'dir="rtl"' not in page.read_text(encoding="utf-8")[:300], page.name


def test_every_widget_is_its_frames_with_alt_text(site):
    """Each Explorer of each notebook: labelled range inputs and a frame for every combination the
    book promises (one control at a time, or all), each a PNG of the site with its own alt text."""
    for lang in LANGUAGES:
        for nb in build.notebooks(lang):
            shown, expected = widgets_on(site / lang / f"{nb.stem}.html"), F.widgets_in(nb)
            assert len(shown) == len(expected), (lang, nb.name)
            for w in shown:
                assert w["inputs"] and all(w["labels"].get(i) for i, _, _ in w["inputs"]), w["labels"]
                sizes = [len(v) for _, _, v in w["inputs"]]
                defaults = [d for _, d, _ in w["inputs"]]
                n = 1
                for s in sizes:
                    n *= s
                assert len(w["frames"]) == (n if w["grid"] else 1 + sum(s - 1 for s in sizes)), nb.name
                assert w["frame"] == ",".join(map(str, defaults))
                alts = set()
                for frame in w["frames"].values():
                    if "text" in frame:
                        continue
                    assert (site / lang / frame["src"]).resolve().exists(), frame["src"]
                    assert frame["alt"].startswith("Figure with"), frame["alt"]
                    alts.add(frame["alt"])
                assert len(alts) > 1 or len(w["frames"]) == 1, f"{nb.name}: every frame has the same alt text"


def test_a_second_pass_renders_no_frame(site):
    renderer = F.Renderer()
    for _, factory in {w for nb in build.notebooks("en") for w in F.widgets_in(nb)}:
        renderer.widget(factory)
    assert renderer.rendered == 0 and renderer.reused > 100


def test_figures_keep_their_alt_text(site):
    text = (site / "en" / f"{PAGE}.html").read_text(encoding="utf-8")
    alts = re.findall(r'<img alt="([^"]*)" src="_images/[0-9a-f]{64}\.png"', text)
    assert len(alts) >= 3 and all(a.startswith("Figure with") for a in alts), alts
    assert not re.search(r"<img(?![^>]*\balt=)[^>]*>", text)


# --------------------------------------------------------------------------- in Chromium
@pytest.fixture(scope="module")
def chromium_path():  # as test_browser.py's: for browser_support.py to share, once that file is free
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "the playwright Python package is not installed (pip install -r requirements.txt)"
    else:
        path = B.find_chromium()
        if path:
            return path
        reason = "Chromium not found: `apt-get install chromium` or set CHROMIUM; never `playwright install`"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(reason)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def served(site):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser(chromium_path):
    with B.chromium(chromium_path) as context:
        yield context


@contextlib.contextmanager
def offline_page(browser, url: str):
    """A page in a fresh context that refuses every request not to `url`; yields (page, refused, errors)."""
    context = browser.browser.new_context(viewport={"width": 1280, "height": 900})
    refused, errors = [], []

    def only_local(route):
        if route.request.url.startswith(url):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page, refused, errors
    finally:
        context.close()


TYPESET = "() => document.querySelectorAll('mjx-container').length > 10"


def test_a_page_renders_its_maths_offline(browser, served):
    with offline_page(browser, served) as (page, refused, errors):
        page.goto(f"{served}/en/{PAGE}.html")
        page.wait_for_function(TYPESET, timeout=60_000)
        failed = page.evaluate("() => document.querySelectorAll('mjx-merror, merror').length")
        fonts = page.evaluate("() => document.fonts.status")
        B.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(B.SCREENSHOTS / "book-en.png"))
    assert failed == 0 and fonts == "loaded"
    assert refused == [] and errors == []


def test_the_switcher_lands_on_the_same_notebook_in_persian_right_to_left(browser, served):
    with offline_page(browser, served) as (page, refused, errors):
        page.goto(f"{served}/en/{PAGE}.html")
        page.locator('nav.book-languages a[lang="fa"]').click()
        page.wait_for_url(f"{served}/fa/{PAGE}.html")
        page.wait_for_function(TYPESET, timeout=60_000)
        found = page.evaluate(
            """() => {
              const box = s => document.querySelector(s).getBoundingClientRect();
              const dir = e => getComputedStyle(e).direction;
              const prose = [...document.querySelectorAll('article p')].find(p => p.textContent.length > 60);
              const maths = [...document.querySelectorAll('article p mjx-container')];
              return {dir: document.documentElement.dir, lang: document.documentElement.lang,
                      prose: dir(prose), maths: maths.length,
                      maths_ltr: maths.filter(m => dir(m) === 'ltr').length,
                      code_ltr: [...document.querySelectorAll('.highlight pre')].every(p => dir(p) === 'ltr'),
                      sidebar_right: box('.bd-sidebar-primary').left > box('article').left};
            }"""
        )
        B.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(B.SCREENSHOTS / "book-fa.png"))
    assert found["dir"] == "rtl" and found["lang"] == "fa" and found["prose"] == "rtl", found
    assert found["maths"] >= 3 and found["maths_ltr"] == found["maths"] and found["code_ltr"], found
    assert found["sidebar_right"], found
    assert refused == [] and errors == []


def _moved(w: dict, state: list[int], index: int, position: int) -> str:
    """The data-frame a widget should show after control `index` moves to `position`, from `state`
    (the positions now; updated): with every combination rendered the others stay where they are,
    else they go back to their defaults."""
    if not w["grid"]:
        state[:] = [d for _, d, _ in w["inputs"]]
    state[index] = position
    return ",".join(map(str, state))


def test_the_keyboard_moves_every_widget_to_the_right_frame(browser, served, site):
    """On every English page, each control of each widget: an arrow key (End on the first) moves it,
    and the figure becomes that position's frame with that frame's alt text (the others at their
    defaults, unless every combination has its frame). Before/after screenshots of notebook 02's
    gradient-norm widget."""
    checked = 0
    with offline_page(browser, served) as (page, refused, errors):
        for nb in build.notebooks("en"):
            expected = widgets_on(site / "en" / f"{nb.stem}.html")
            if not expected:
                continue
            page.goto(f"{served}/en/{nb.stem}.html")
            figures = page.locator("figure.book-explorer")
            for k, w in enumerate(expected):
                figure = figures.nth(k)
                figure.scroll_into_view_if_needed()
                if nb.stem.startswith("02") and k == 1:
                    B.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                    figure.screenshot(path=str(B.SCREENSHOTS / "book-widget-before.png"))
                state = [d for _, d, _ in w["inputs"]]
                for index, (cid, default, values) in enumerate(w["inputs"]):
                    key = "End" if default < len(values) - 1 else "ArrowLeft"
                    page.locator(f"#{cid}").focus()
                    page.keyboard.press(key)
                    target = _moved(w, state, index, len(values) - 1 if key == "End" else default - 1)
                    assert figure.get_attribute("data-frame") == target, (nb.name, cid)
                    frame = w["frames"][target]
                    if "alt" in frame:
                        img = figure.locator("img.book-explorer-frame")
                        assert (
                            img.get_attribute("src") == frame["src"]
                            and img.get_attribute("alt") == frame["alt"]
                        )
                        assert img.evaluate("i => i.decode().then(() => i.naturalWidth)") > 0  # loaded, a PNG
                    shown = page.locator(f'output[for="{cid}"]').text_content()
                    assert shown == values[len(values) - 1 if key == "End" else default - 1]
                    checked += 1
                if nb.stem.startswith("02") and k == 1:
                    figure.screenshot(path=str(B.SCREENSHOTS / "book-widget-after.png"))
    assert checked >= 20, checked
    assert refused == [] and errors == []


def test_search_finds_an_italian_word_by_its_stem(browser, served):
    """ "ricorrenti" (plural) finds the recurrence notebook, whose text says "ricorrente", "ricorrenza"..."""
    with offline_page(browser, served) as (page, refused, errors):
        page.goto(f"{served}/it/search.html?q=ricorrenti")
        page.wait_for_function(
            "() => document.querySelectorAll('#search-results li, ul.search li').length > 0", timeout=60_000
        )
        hits = page.evaluate(
            "() => [...document.querySelectorAll('#search-results li a, ul.search li a')]"
            ".map(a => a.getAttribute('href'))"
        )
    assert any("01_recurrence" in h for h in hits), hits
    assert refused == [] and errors == []


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_serious_accessibility_violation_in_any_language(lang, browser, served):
    from axe_playwright_python.sync_playwright import Axe

    with offline_page(browser, served) as (page, refused, errors):
        page.goto(f"{served}/{lang}/{PAGE}.html")
        page.wait_for_function(TYPESET, timeout=60_000)
        results = Axe().run(page).response
    record = {v["id"]: (v["impact"], len(v["nodes"]), v["nodes"][0]["target"]) for v in results["violations"]}
    B.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (B.ARTIFACTS / f"axe__book_{lang}.json").write_text(json.dumps(record, indent=1))
    serious = {k: v for k, v in record.items() if v[0] in ("serious", "critical")}
    assert not serious, f"axe on {lang}/{PAGE}.html: {serious}"
    assert refused == []
