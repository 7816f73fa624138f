"""The course as a static web book in its five languages: build/book/ (`make book`).

    python tools/book/build.py                    # every language: build/book/{en,it,ru,fa,es}/
    python tools/book/build.py --lang en --lang fa  # only these (the others' links stay, unbuilt)
    python tools/book/build.py --out /tmp/book    # elsewhere

Sphinx with myst-nb and sphinx-book-theme, from PyPI (Jupyter Book 2 / mystmd fetches its theme
from its own API and GitHub at build time, which this project cannot reach: see README, "The
book"). Nothing is executed: each page is a committed notebook as it is, its outputs included.
Per language, this script stages the sources in build/book-src/<lang>/ (the language's README as
the landing page, its notebooks in course order, each widget replaced by its frames; the
notebooks' own language line and badges out, since every page has a switcher and launch links),
then runs Sphinx with docs/book/ as configuration, then puts dir="rtl" on the Persian pages and
each figure's description back as its alt text (myst-nb drops it).

Shared by the languages under build/book/: _frames/ (every widget's frames, rendered once by
tools/book/frames.py: figures and their alt text are English in every language) and _vendor/mathjax/
(MathJax 3 from npm, pinned, installed once into build/book-cache/). The pages load no http(s)
script, style or font: the site opens from a local server, or file://, with the network off.

    python -m http.server --directory build/book 8000   # then http://localhost:8000/
"""

from __future__ import annotations

import argparse
import base64
import fcntl
import hashlib
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import tomllib

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from book import frames as F  # noqa: E402
from helpers.course.languages import LANGUAGES  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
CONF = ROOT / "docs" / "book"
OUT = ROOT / "build" / "book"
STAGE = ROOT / "build" / "book-src"
NPM_CACHE = ROOT / "build" / "book-cache" / "npm"
MATHJAX = "3.2.2"  # npm, pinned; MathJax 3 ships its fonts (4 fetches them from a CDN by default)
MATHJAX_PARTS = ["tex-chtml.js", "input", "output/chtml", "a11y", "ui", "adaptors"]  # of its es5/
SITE = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["why-transformers"]

# The book's own words in each language (its pages' prose is the notebooks').
LABELS = {
    "en": {
        "languages": "Language",
        "colab": "Open in Colab",
        "binder": "Launch on Binder",
        "download": "Download the notebook",
        "note": "Precomputed frames, no kernel: the controls move one at a time from the notebook's "
        "defaults (moving one puts the others back). Run the notebook for the full widget.",
        "grid": "Precomputed frames, no kernel: every combination of these controls has its frame. "
        "Run the notebook for the full widget.",
        "own_data": "In the book, {what}.",
        "course": "The course",
    },
    "it": {
        "languages": "Lingua",
        "colab": "Apri in Colab",
        "binder": "Avvia su Binder",
        "download": "Scarica il notebook",
        "note": "Fotogrammi precalcolati, senza kernel: i controlli si muovono uno alla volta dai valori "
        "predefiniti del notebook (muoverne uno riporta gli altri al loro valore). Esegui il notebook "
        "per il widget completo.",
        "grid": "Fotogrammi precalcolati, senza kernel: ogni combinazione di questi controlli ha il suo "
        "fotogramma. Esegui il notebook per il widget completo.",
        "own_data": "Nel libro, {what}.",
        "course": "Il corso",
    },
    "ru": {
        "languages": "Язык",
        "colab": "Открыть в Colab",
        "binder": "Запустить в Binder",
        "download": "Скачать ноутбук",
        "note": "Заранее построенные кадры, без ядра: элементы управления меняются по одному от значений "
        "ноутбука по умолчанию (движение одного возвращает остальные). Полный виджет — в самом ноутбуке.",
        "grid": "Заранее построенные кадры, без ядра: у каждой комбинации этих элементов управления есть "
        "свой кадр. Полный виджет — в самом ноутбуке.",
        "own_data": "В книге {what}.",
        "course": "Курс",
    },
    "fa": {
        "languages": "زبان",
        "colab": "باز کردن در Colab",
        "binder": "اجرا در Binder",
        "download": "دریافت نوت‌بوک",
        "note": "فریم‌های ازپیش‌ساخته، بدون کرنل: کنترل‌ها یکی‌یکی از مقدارهای پیش‌فرض نوت‌بوک جابه‌جا "
        "می‌شوند (جابه‌جا کردن یکی، بقیه را به پیش‌فرض برمی‌گرداند). ویجت کامل در خود نوت‌بوک است.",
        "grid": "فریم‌های ازپیش‌ساخته، بدون کرنل: هر ترکیب این کنترل‌ها فریم خودش را دارد. ویجت کامل در "
        "خود نوت‌بوک است.",
        "own_data": "در این کتاب، {what}.",
        "course": "دوره",
    },
    "es": {
        "languages": "Idioma",
        "colab": "Abrir en Colab",
        "binder": "Abrir en Binder",
        "download": "Descargar el notebook",
        "note": "Fotogramas precalculados, sin kernel: los controles se mueven de uno en uno desde los "
        "valores por defecto del notebook (mover uno devuelve los demás a los suyos). Ejecuta el notebook "
        "para el widget completo.",
        "grid": "Fotogramas precalculados, sin kernel: cada combinación de estos controles tiene su "
        "fotograma. Ejecuta el notebook para el widget completo.",
        "own_data": "En el libro, {what}.",
        "course": "El curso",
    },
}

LANGUAGE_LINE = re.compile(r"^.*🌐.*\n?", re.M)  # the notebook's language line: every page has a switcher
BADGE = re.compile(r"\[!\[(?:Open In Colab|Binder)\]\([^)]*\)\]\([^)]*\)[ \t]*\n?")
RTL_WRAPPER = re.compile(r'^\s*<div dir="rtl" lang="\w+">\s*\n|\n\s*</div>\s*$')
MD_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
HTML_ATTR = re.compile(r'\b(href|src)="([^"]+)"')
IMAGE_SUFFIXES = {".png", ".svg", ".jpg", ".jpeg", ".gif"}


def folder(lang: str) -> Path:
    return NOTEBOOKS if lang == "en" else NOTEBOOKS / lang


def notebooks(lang: str) -> list[Path]:
    """The language's notebooks in course order (their numbers)."""
    return sorted(folder(lang).glob("[0-9][0-9]_*.ipynb"))


def repo_path(path: Path) -> str:
    return path.resolve().relative_to(ROOT).as_posix()


class Stager:
    """Writes one language's Sphinx sources; collects the frames and repository images they use."""

    def __init__(self, lang: str, src: Path, renderer: F.Renderer):
        self.lang, self.src, self.renderer = lang, src, renderer
        self.frames: set[str] = set()
        self.widgets = 0
        self.names = {nb.name for nb in notebooks(lang)}

    # ------------------------------------------------------------------ links
    def _target(self, target: str, origin: Path) -> tuple[str, str] | None:
        """(kind, new target) for a relative link in a file of folder `origin`; None to leave it."""
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            return None
        path, _, anchor = target.partition("#")
        anchor = f"#{anchor}" if anchor else ""
        resolved = Path(posixpath.normpath((origin / path).as_posix()))
        try:
            rel = resolved.relative_to(ROOT)
        except ValueError:
            return None
        if rel.suffix == ".ipynb" and rel.parent.as_posix() in (
            "notebooks",
            *(f"notebooks/{c}" for c in LANGUAGES),
        ):
            lang = "en" if rel.parent.as_posix() == "notebooks" else rel.parent.name
            if lang == self.lang and rel.name in self.names:
                return "doc", f"{rel.name}{anchor}"
            return "html", f"../{lang}/{rel.stem}.html{anchor}"
        if rel.name == "README.md" and rel.parent.as_posix() in (
            "",
            "notebooks",
            *(f"notebooks/{c}" for c in LANGUAGES),
        ):
            lang = rel.parent.name if rel.parent.name in LANGUAGES else "en"
            return (
                ("doc", f"index.md{anchor}")
                if lang == self.lang
                else ("html", f"../{lang}/index.html{anchor}")
            )
        if rel.suffix.lower() in IMAGE_SUFFIXES and resolved.exists():
            copy = self.src / "_repo" / rel
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(resolved, copy)
            return "doc", f"_repo/{rel.as_posix()}"
        return "html", f"{SITE['repository']}/blob/{SITE['branch']}/{rel.as_posix()}{anchor}"

    def markdown(self, text: str, origin: Path, output: bool = False) -> str:
        """A markdown text of the repository, ready for the book (see the module docstring).

        output=True: a cell's output, whose links myst-nb leaves as they are (a page is NN.html)."""
        text = LANGUAGE_LINE.sub("", BADGE.sub("", text))
        if LANGUAGES[self.lang].direction == "rtl":
            text = RTL_WRAPPER.sub("", text)

        def link(m: re.Match) -> str:
            bang, label, target = m.groups()
            found = self._target(target, origin)
            if found is None:
                return m.group(0)
            kind, new = found
            if output and kind == "doc":
                new = re.sub(r"\.(ipynb|md)(#|$)", r".html\2", new.replace("index.md", "index.html"))
            if kind == "doc" or bang or new.startswith("http"):
                return f"{bang}[{label}]({new})"
            return f'<a href="{html.escape(new)}">{label}</a>'  # another language's page: plain HTML

        def attr(m: re.Match) -> str:
            found = self._target(m.group(2), origin)
            if found is None:
                return m.group(0)
            kind, new = found
            if kind == "doc" and new.endswith((".ipynb", ".md")) or new.endswith(".md"):
                new = re.sub(r"\.(ipynb|md)(#|$)", r".html\2", new)
            return f'{m.group(1)}="{html.escape(new)}"'

        return HTML_ATTR.sub(attr, MD_LINK.sub(link, text))

    # ------------------------------------------------------------------ widgets
    def widget_html(self, factory: str) -> str:
        w = self.renderer.widget(factory)
        self.widgets += 1
        wid = f"explorer-{self.widgets}"
        labels = LABELS[self.lang]
        defaults = tuple(c.default for c in w.controls)
        table = {}
        for combo, frame in w.frames.items():
            key = ",".join(map(str, combo))
            if "file" in frame:
                self.frames.add(frame["file"])
                table[key] = {"src": f"../_frames/{frame['file']}", "alt": frame["alt"]}
            else:
                table[key] = {"text": frame["text"]}
        first = table[",".join(map(str, defaults))]
        controls = []
        for i, c in enumerate(w.controls):
            shown = c.shown or [F._label(v) for v in c.values]
            cid = f"{wid}-{i}"
            controls.append(
                f'<div class="book-explorer-control"><label for="{cid}">{html.escape(c.label)}</label>'
                f'<input type="range" class="book-explorer-input" id="{cid}" min="0" max="{len(shown) - 1}" '
                f'step="1" value="{c.default}" data-default="{c.default}" '
                f"data-values='{html.escape(json.dumps(shown), quote=True)}' "
                f'aria-valuetext="{html.escape(shown[c.default])}">'
                f'<output for="{cid}">{html.escape(shown[c.default])}</output></div>'
            )
        note = labels["grid" if w.grid else "note"]
        if factory in F.OWN_DATA:
            note += " " + labels["own_data"].format(what=F.OWN_DATA[factory])
        img_hidden = " hidden" if "text" in first else ""
        frames_json = json.dumps(table, ensure_ascii=False).replace("</", "<\\/")
        return (
            f'<figure class="book-explorer" id="{wid}" data-grid="{int(w.grid)}" '
            f'data-frame="{",".join(map(str, defaults))}" data-widget="{html.escape(w.name)}">\n'
            f'<div class="book-explorer-controls" dir="ltr" lang="en">{"".join(controls)}</div>\n'
            f'<img class="book-explorer-frame" lang="en" src="{html.escape(first.get("src", ""))}" '
            f'alt="{html.escape(first.get("alt", ""))}"{img_hidden}>\n'
            f'<p class="book-explorer-text" dir="ltr" lang="en"{"" if img_hidden else " hidden"}>'
            f"{html.escape(first.get('text', ''))}</p>\n"
            f'<figcaption class="book-explorer-note">{html.escape(note)}</figcaption>\n'
            f'<script type="application/json" class="book-explorer-frames">{frames_json}</script>\n'
            f"</figure>"
        )

    # ------------------------------------------------------------------ pages
    def notebook(self, path: Path, alts: dict[str, str]) -> None:
        nb = json.loads(path.read_text(encoding="utf-8"))
        nb.get("metadata", {}).pop("widgets", None)
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                cell["source"] = self.markdown("".join(cell["source"]), path.parent)
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                text = "".join(data.get("text/plain", ""))
                if F.WIDGET_MIME in data and text.startswith(F.EXPLORER_PREFIX):
                    called = re.findall(r"\b(explore_\w+)\s*\(", "".join(cell["source"]))
                    out["data"] = {"text/html": self.widget_html(called[-1])}
                    out["metadata"] = {}
                    continue
                for mime in ("text/markdown", "text/html"):  # the ledger's tables link notebooks too
                    if mime in data:
                        data[mime] = self.markdown("".join(data[mime]), path.parent, output=True)
                if "image/png" in data:
                    alt = out.get("metadata", {}).get("image/png", {}).get("alt")
                    if alt:
                        raw = base64.b64decode("".join(data["image/png"]))
                        alts[hashlib.sha256(raw).hexdigest()] = alt
        (self.src / path.name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")

    def index(self) -> None:
        readme = ROOT / "README.md" if self.lang == "en" else folder(self.lang) / "README.md"
        text = self.markdown(readme.read_text(encoding="utf-8"), readme.parent)
        toc = "\n".join(nb.stem for nb in notebooks(self.lang))
        caption = LABELS[self.lang]["course"]
        text += f"\n\n```{{toctree}}\n:hidden:\n:maxdepth: 1\n:caption: {caption}\n\n{toc}\n```\n"
        (self.src / "index.md").write_text(text, encoding="utf-8")


def book_json(lang: str, langs: list[str]) -> dict:
    pages = {}
    for nb in notebooks(lang):
        path = repo_path(nb)
        pages[nb.stem] = {
            "colab": f"{SITE['repository'].replace('https://github.com/', 'https://colab.research.google.com/github/')}"
            f"/blob/{SITE['branch']}/{path}",
            "binder": f"{SITE['repository'].replace('https://github.com/', 'https://mybinder.org/v2/gh/')}"
            f"/{SITE['branch']}?urlpath=lab/tree/{path}",
            "download": f"notebooks/{nb.name}",
        }
    return {
        "lang": lang,
        "title": "why-transformers",
        "mathjax": "../../_vendor/mathjax/tex-chtml.js",  # relative to _static/
        "labels": LABELS[lang],
        "pages": pages,
        "languages": [
            {"code": c, "dir": c, "name": LANGUAGES[c].name, "direction": LANGUAGES[c].direction}
            for c in LANGUAGES
        ],
    }


def install_mathjax(out: Path) -> None:
    """MathJax (npm, pinned) into out/_vendor/mathjax/: its es5 parts that tex-chtml.js loads."""
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    package = NPM_CACHE / "node_modules" / "mathjax"
    with open(NPM_CACHE / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        meta = package / "package.json"
        if not meta.exists() or json.loads(meta.read_text())["version"] != MATHJAX:
            npm = shutil.which("npm")
            if npm is None:
                raise SystemExit("make book needs npm (apt-get install npm) to fetch MathJax once")
            subprocess.run(
                [
                    npm,
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--no-save",
                    "--prefix",
                    str(NPM_CACHE),
                    f"mathjax@{MATHJAX}",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
    target = out / "_vendor" / "mathjax"
    for part in MATHJAX_PARTS:
        src, dst = package / "es5" / part, target / part
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            shutil.copy(src, dst)
    shutil.copy(package / "LICENSE", target / "LICENSE")


def _with_alt(page: str, alts: dict[str, str]) -> str:
    """Each notebook figure's description back as its alt text (its file is named by its hash)."""

    def fix(m: re.Match) -> str:
        tag = m.group(0)
        found = re.search(r'src="[^"]*?([0-9a-f]{64})\.png"', tag)
        if not found or found.group(1) not in alts:
            return tag
        tag = re.sub(r'\salt="[^"]*"', "", tag)
        return tag.replace("<img ", f'<img alt="{html.escape(alts[found.group(1)])}" ', 1)

    return re.sub(r"<img [^>]*>", fix, page)


def run_sphinx(lang: str, src: Path, config: Path, stage: Path) -> Path:
    """Sphinx on one language's staged sources; the HTML folder it wrote, in stage/<lang>.site/.

    myst-nb writes its copies of the outputs next to Sphinx's output folder (jupyter_execute/,
    whatever its configuration says): with the HTML in a folder of its own they stay in the stage."""
    html_dir = stage / f"{lang}.site" / "html"
    shutil.rmtree(html_dir.parent, ignore_errors=True)
    log = stage / f"{lang}.log"
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(CONF)]
    command += ["-d", str(stage / f"{lang}.doctrees"), str(src), str(html_dir)]
    with open(log, "w", encoding="utf-8") as f:
        done = subprocess.run(
            command,
            env={**os.environ, "BOOK_JSON": str(config), "PYTHONHASHSEED": "0"},
            stdout=f,
            stderr=subprocess.STDOUT,
        )
    if done.returncode:
        raise SystemExit(f"sphinx failed for {lang}:\n{log.read_text(encoding='utf-8')[-4000:]}")
    return html_dir


def finish_pages(target: Path, alts: dict[str, str], rtl: bool) -> None:
    """Each figure's alt text back into the built pages, and dir="rtl" on a right-to-left language's."""
    for page in target.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = _with_alt(text, alts)
        if rtl:
            new = re.sub(r"<html\b(?![^>]*\bdir=)", '<html dir="rtl"', new, count=1)
        if new != text:
            page.write_text(new, encoding="utf-8")


def build_language(
    lang: str, langs: list[str], out: Path, renderer: F.Renderer, stage: Path = STAGE
) -> tuple[set[str], float]:
    """Stage (in stage/<lang>/) and build one language into out/<lang>/; the frames its pages use,
    and the seconds it took."""
    start = time.perf_counter()
    src = stage / lang
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    stager, alts = Stager(lang, src, renderer), {}
    stager.index()
    for nb in notebooks(lang):
        stager.notebook(nb, alts)
    config = src / "book.json"
    config.write_text(json.dumps(book_json(lang, langs), ensure_ascii=False), encoding="utf-8")
    html_dir = run_sphinx(lang, src, config, stage)
    target = out / lang
    shutil.rmtree(target, ignore_errors=True)
    shutil.move(html_dir, target)
    finish_pages(target, alts, rtl=LANGUAGES[lang].direction == "rtl")
    (target / "notebooks").mkdir(exist_ok=True)
    for nb in notebooks(lang):  # the committed notebook, to download
        shutil.copy(nb, target / "notebooks" / nb.name)
    return stager.frames, time.perf_counter() - start


def landing(out: Path, langs: list[str]) -> None:
    """build/book/index.html: to the English book, with a link to each language."""
    links = " · ".join(
        f'<a href="{c}/index.html" lang="{c}" dir="{LANGUAGES[c].direction}">{LANGUAGES[c].name}</a>'
        for c in langs
    )
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={langs[0]}/index.html">'
        "<title>why-transformers</title></head>\n"
        f"<body><main><h1>why-transformers</h1><p>{links}</p></main></body></html>\n",
        encoding="utf-8",
    )


def size_of(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build(langs: list[str], out: Path = OUT, jobs: int | None = None, stage: Path = STAGE) -> dict:
    """Build the book into `out` (its sources staged in `stage`); a summary (seconds, frames
    rendered and reused, bytes)."""
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    install_mathjax(out)
    renderer = F.Renderer()
    for _, factory in sorted({w for lang in langs for nb in notebooks(lang) for w in F.widgets_in(nb)}):
        renderer.widget(factory)  # every frame first (in this process), then the Sphinx builds
    frames_s = time.perf_counter() - start
    jobs = jobs or min(2, os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda lang: build_language(lang, langs, out, renderer, stage), langs))
    used = set().union(*(r[0] for r in results))
    (out / "_frames").mkdir(exist_ok=True)
    for name in used:
        shutil.copy(renderer.cache / name, out / "_frames" / name)
    for stale in set(p.name for p in (out / "_frames").iterdir()) - used:
        (out / "_frames" / stale).unlink()
    landing(out, langs)
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve _static/, _images/ as they are
    return {
        "seconds": round(time.perf_counter() - start, 1),
        "frames_seconds": round(frames_s, 1),
        "frames_rendered": renderer.rendered,
        "frames_reused": renderer.reused,
        "frames": len(used),
        "languages": {lang: round(r[1], 1) for lang, r in zip(langs, results)},
        "bytes": size_of(out),
        "frames_bytes": size_of(out / "_frames"),
        "mathjax_bytes": size_of(out / "_vendor"),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lang", action="append", choices=list(LANGUAGES), help="only this language (repeatable)"
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--jobs", type=int, default=None, help="Sphinx builds at once (default: 2 or the CPUs)"
    )
    args = parser.parse_args(argv)
    langs = args.lang or list(LANGUAGES)
    summary = build(langs, args.out, args.jobs)
    s = summary
    print(
        f"book: {', '.join(langs)} in {args.out} ({s['bytes'] / 1e6:.1f} MB, of which frames "
        f"{s['frames_bytes'] / 1e6:.1f} MB, MathJax {s['mathjax_bytes'] / 1e6:.1f} MB); {s['seconds']} s, "
        f"frames {s['frames_seconds']} s ({s['frames_rendered']} rendered, {s['frames_reused']} cached)"
    )
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
