"""Checks of a built book (tests/project/test_book.py runs them; so can you):

    python tools/book/check.py [build/book]

* every internal link and anchor resolves (a relative href or src names a file of the site, and
  its #fragment an id in that page);
* no remote asset: no script, stylesheet, font, image or frame loaded over http(s), in any page or
  stylesheet of the site (links to Colab, Binder and GitHub are links, not assets).
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

SKIP = ("_vendor", "_static")  # MathJax, and the theme's template macros: no pages of ours
ASSET_ATTRS = {
    "script": "src",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "audio": "src",
    "video": "src",
}
LINKED_ASSETS = {"stylesheet", "preload", "icon", "modulepreload", "prefetch", "manifest", "apple-touch-icon"}
CSS_URL = re.compile(r"""url\(\s*['"]?(https?:)?//|@import\s+['"]?(https?:)?//""", re.I)


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []  # (tag, url)
        self.assets: list[str] = []  # remote ones

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        for key in ("href", "src"):
            if a.get(key):
                self.links.append((tag, a[key]))
        url = a.get(ASSET_ATTRS.get(tag, ""), "") or ""
        if tag == "link" and LINKED_ASSETS & set((a.get("rel") or "").lower().split()):
            url = a.get("href") or ""
        if re.match(r"^(https?:)?//", url):
            self.assets.append(f"<{tag}> {url}")
        if a.get("style") and CSS_URL.search(a["style"]):
            self.assets.append(f"<{tag} style> {a['style'][:80]}")

    def handle_data(self, data):
        if self.lasttag == "style" and CSS_URL.search(data):
            self.assets.append("<style> with a remote url()")


def _parse(path: Path, cache: dict) -> _Page:
    if path not in cache:
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        cache[path] = page
    return cache[path]


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if not set(p.relative_to(site).parts) & set(SKIP))


def broken_links(site: Path) -> list[str]:
    """Every relative link or asset reference of the site's pages that names no file, or no anchor."""
    cache: dict = {}
    broken = []
    for page in pages(site):
        parsed = _parse(page, cache)
        for tag, url in parsed.links:
            parts = urlsplit(url)
            if parts.scheme or url.startswith("//") or url.startswith(("mailto:", "javascript:")):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            where = f"{page.relative_to(site)}: <{tag}> {url}"
            if not target.exists():
                broken.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                if unquote(parts.fragment) not in _parse(target, cache).ids:
                    broken.append(f"{where} (no such anchor)")
    return broken


def remote_assets(site: Path) -> list[str]:
    """Every script, stylesheet, font or image that a page or stylesheet would fetch over the network."""
    cache: dict = {}
    found = [f"{p.relative_to(site)}: {a}" for p in pages(site) for a in _parse(p, cache).assets]
    for css in site.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        found += [f"{css.relative_to(site)}: {m.group(0)}" for m in CSS_URL.finditer(text)]
    return found


if __name__ == "__main__":
    site = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "build" / "book")
    problems = broken_links(site) + remote_assets(site)
    print("\n".join(problems) or f"{site}: {len(pages(site))} pages, every link resolves, no remote asset")
    sys.exit(1 if problems else 0)
