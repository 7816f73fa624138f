"""The course in other languages: notebooks/<lang>/ from the English notebooks and a translation per cell.

The English notebooks are the source. A language's notebooks take every code cell and every
output from them, byte for byte (nothing is executed again), and replace each markdown cell by its
translation from notebooks/<lang>/sources/NN_name.md. There every translated cell opens with

    <!-- cell-012 en:3f9a1c2b7d4e -->

the id of the English cell and a hash of its English text. When the English text changes, its
hash no longer matches and the cell is stale until someone translates it again.

    python tools/translations.py status            # what needs translating, per language and cell
    python tools/translations.py check [it ...]    # maths, code, links, headings, tables kept; glossary used
    python tools/translations.py skeleton it       # add English cells missing in notebooks/it/sources/ (todo)
    python tools/translations.py build [it ...]    # write notebooks/<lang>/NN_*.ipynb (running each, below)
    python tools/translations.py build --check     # change nothing; exit 1 if a built notebook is out of date

Every notebook prints in the learner's language (the verdicts of helpers.check, the widgets' labels,
the course map and the ledger), so its outputs differ from the English ones: the build runs each
translated notebook again, in its own language, in notebooks/<lang>/. It records what the run
depended on (`execution_key`: the English notebook's code and outputs, the language's words and the
helpers that print them) in the notebook's metadata, and runs it again only when that changes; a
change of the translated prose alone keeps the outputs.

Each command takes `--nb NN` (repeatable) to act on those notebooks only: `status --nb 04 it` lists
what 04 needs in Italian, `build --nb 04` writes 04 in every language and leaves the READMEs alone
(a full `build` writes them).
"""

from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import tomllib

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]
from colab import badge, binder_url, config  # noqa: E402

from helpers.course.languages import LANGUAGES, TRANSLATED, language_line, setup_line  # noqa: E402
from helpers.course.words.figures import figure_words_section  # noqa: E402

EXECUTION_INPUTS = [  # what a translated run prints besides the English notebook itself
    "helpers/course/languages.py",
    "helpers/course/exercises.py",
    "helpers/course/widgets.py",
    "helpers/course/ledger.py",
]

NOTEBOOKS = ROOT / "notebooks"
STYLE_CALL = "helpers.use_style()  # the course's figure style; a returned figure shows as a PNG"
HEADER = re.compile(r"^<!-- (cell-\d{3}) en:([0-9a-f]{12})( todo)? -->$", re.M)
LANGUAGE_LINE = re.compile(r"^🌐 .*\n\n?", re.M)  # the switcher line under a notebook's title


def english_hash(text: str) -> str:
    """The hash a translation records: of the English text without its language line."""
    return hashlib.sha256(without_language_line(text).encode()).hexdigest()[:12]


def without_language_line(text: str) -> str:
    return LANGUAGE_LINE.sub("", text)


def with_language_line(text: str, line: str) -> str:
    """`text` with `line` under its title (its first line), as the English title cell has it."""
    title, _, rest = text.partition("\n")
    return f"{title}\n\n{line}\n\n{rest.lstrip(chr(10))}"


@dataclass(frozen=True)
class Entry:
    cell: str  # id of the English cell it was translated from
    en: str  # hash of that English text
    todo: bool  # still the English text, waiting for a translator
    text: str


def english_notebooks() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def english_cells(notebook: Path) -> list[nbformat.NotebookNode]:
    """The markdown cells of an English notebook that a language translates."""
    nb = nbformat.read(notebook, as_version=4)
    return [c for c in nb.cells if c.cell_type == "markdown"]


def translation_file(lang: str, notebook: Path) -> Path:
    return NOTEBOOKS / lang / "sources" / f"{notebook.stem}.md"


def read_entries(path: Path) -> list[Entry]:
    """The entries of a translation file, in order; an empty list when there is no file."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    heads = list(HEADER.finditer(text))
    if text[: heads[0].start() if heads else len(text)].strip():
        raise ValueError(f"{path}: text before the first '<!-- cell-NNN en:HASH -->' line")
    ends = [h.start() for h in heads[1:]] + [len(text)]
    return [
        Entry(h[1], h[2], bool(h[3]), text[h.end() : end].strip("\n"))
        for h, end in zip(heads, ends, strict=True)
    ]


def write_entries(path: Path, entries: list[Entry]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    blocks = [f"<!-- {e.cell} en:{e.en}{' todo' if e.todo else ''} -->\n{e.text}\n" for e in entries]
    path.write_text("\n".join(blocks), encoding="utf-8")


def needs_work(lang: str, notebooks: list[Path] | None = None) -> list[str]:
    """One line per English cell with no current translation in `lang`: missing, stale or todo."""
    lines = []
    for notebook in english_notebooks() if notebooks is None else notebooks:
        entries = read_entries(translation_file(lang, notebook))
        done = {e.en for e in entries if not e.todo}
        todo = {e.en for e in entries if e.todo}
        by_cell = {e.cell: e for e in entries}
        for cell in english_cells(notebook):
            h = english_hash(cell.source)
            if h in done:
                continue
            if h in todo:
                why = "not translated yet (todo)"
            elif cell.id in by_cell:
                why = f"stale: translates an older English text (en:{by_cell[cell.id].en}, now en:{h})"
            else:
                why = "missing"
            lines.append(f"{lang} {notebook.stem} {cell.id}: {why}")
    return lines


MATHS = re.compile(r"\$\$.+?\$\$|\$[^$]+?\$", re.S)  # inline maths may wrap onto the next line
CODE = re.compile(r"`[^`\n]+`")
TARGET = re.compile(r"\]\(([^)\s]+)")


def _shape(text: str) -> dict[str, list[str]]:
    """What a translation keeps from the English: maths, code, link targets, headings, table rows."""
    lines = text.splitlines()
    return {
        "maths": sorted(" ".join(m.split()) for m in MATHS.findall(text)),  # line breaks may move
        "code": sorted(CODE.findall(MATHS.sub("", text))),
        "link targets": sorted(TARGET.findall(text)),
        "headings": [line.split(" ")[0] for line in lines if re.match(r"#+ ", line)],
        "table rows": [str(line.count("|")) for line in lines if line.startswith("|")],
    }


def differences(english: str, translation: str) -> list[str]:
    """What a translation changed that it must keep: maths, code, link targets, headings, table rows."""
    want, got = _shape(without_language_line(english)), _shape(translation)
    out = []
    for what in want:
        if want[what] != got[what]:
            lost = [x for x in want[what] if x not in got[what]][:3]
            added = [x for x in got[what] if x not in want[what]][:3]
            out.append(
                f"{what} differ: English has {lost or '-'} that the translation lacks, it has {added or '-'}"
            )
    return out


def read_glossary(lang: str) -> dict[str, dict]:
    """{English term: {"seed": quote, "forms": [...], ...}} from notebooks/<lang>/sources/glossary.toml."""
    path = NOTEBOOKS / lang / "sources" / "glossary.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def plain(text: str) -> str:
    """Lower case, without zero-width non-joiners (Persian writes them; its article lost them)."""
    return text.lower().replace("\u200c", "")


def glossary_misses(lang: str, english: str, translation: str) -> list[str]:
    """The glossary terms whose English term is in `english` but none of whose forms is in `translation`."""
    out = []
    for term, entry in read_glossary(lang).items():
        if re.search(rf"\b{re.escape(term)}", english, re.I) and not any(
            plain(form) in plain(translation) for form in entry["forms"]
        ):
            out.append(f"'{term}' is in the English but none of {entry['forms']} is in the translation")
    return out


def is_reading_list(english: str) -> bool:
    """A notebook's Further reading: its titles stay as published, so no glossary term is asked of it."""
    return english.lstrip().startswith("## Further reading")


def faults(lang: str, notebooks: list[Path] | None = None) -> list[str]:
    """Every translated cell of `lang` that changed what it must keep or left out a glossary term."""
    lines = []
    for notebook in english_notebooks() if notebooks is None else notebooks:
        entries = {e.en: e for e in read_entries(translation_file(lang, notebook)) if not e.todo}
        for cell in english_cells(notebook):
            entry = entries.get(english_hash(cell.source))
            if entry is None:
                continue
            misses = [] if is_reading_list(cell.source) else glossary_misses(lang, cell.source, entry.text)
            for fault in differences(cell.source, entry.text) + misses:
                lines.append(f"{lang} {notebook.stem} {cell.id}: {fault}")
    return lines


def skeleton(lang: str, notebooks: list[Path] | None = None) -> None:
    """Append every English cell `lang` lacks, as a todo entry holding the English text."""
    for notebook in english_notebooks() if notebooks is None else notebooks:
        path = translation_file(lang, notebook)
        entries = read_entries(path)
        have = {e.en for e in entries}
        new = [
            Entry(c.id, english_hash(c.source), True, without_language_line(c.source))
            for c in english_cells(notebook)
            if english_hash(c.source) not in have
        ]
        if new:
            write_entries(path, entries + new)
            print(f"{path.relative_to(ROOT)}: {len(new)} cells to translate")


def localise(text: str, lang: str, notebook: Path, language_line: str | None = None) -> str:
    """Translated markdown as its notebook shows it: its own Colab badge, its links, its switcher
    line under the title (when the English has one), its direction."""
    text = text.replace(f"/notebooks/{notebook.name}", f"/notebooks/{lang}/{notebook.name}")
    text = re.sub(r"\]\(\.\./", "](../../", text)  # links out of notebooks/ are one folder deeper
    if language_line:
        text = with_language_line(text, language_line)
    if LANGUAGES[lang].direction == "rtl":
        text = right_to_left(text, lang)
    return text


# Right to left in the markup itself, for every renderer that keeps HTML attributes (JupyterLab,
# Notebook, VS Code, nbconvert, GitHub, Colab), not only where tools/templates/rtl.css is loaded:
# JupyterLab's own stylesheet sets p { text-align: left } and blockquote { border-left }, which an
# inherited direction does not change. So the cell is a <div dir="rtl"> aligned right, each paragraph
# and list item's text a right-aligned block of its own (a <span>: Markdown inside it is still
# Markdown), each blockquote an HTML <blockquote> with its bar on the right; maths and code are
# isolated left to right (LEFT_TO_RIGHT below).
RTL_BOX = 'dir="rtl" style="direction: rtl; text-align: right"'
RTL_TEXT = '<span dir="rtl" style="display: block; direction: rtl; text-align: right">'
RTL_QUOTE = (
    '<blockquote dir="rtl" style="direction: rtl; text-align: right; border-left: none; '
    'border-right: 5px solid #e0e0e0; margin: 1em 2em; padding: 0 1em">'
)
LIST_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$")
HTML_BLOCK = re.compile(r"^\s*</?(?:div|blockquote)\b")


# In right-to-left prose, maths and code keep their left-to-right order only when isolated:
# blocks (fenced code, display maths on their own lines) in a <div dir="ltr">, inline maths and
# code in a <span dir="ltr">. (Without it a closing bracket at the end of a formula flips.)
LEFT_TO_RIGHT = re.compile(
    r"(?P<block>^```.*?^```[ \t]*$|^\$\$.+?\$\$[ \t]*$)|(?P<inline>(?<!\$)\$[^$]+?\$(?!\$)|`[^`\n]+`)",
    re.M | re.S,
)


def _isolated(match: re.Match) -> str:
    if match["block"]:  # a block of its own: blank lines around it (an HTML block ends only at one)
        return f'\n\n<div dir="ltr">\n\n{match["block"]}\n\n</div>\n\n'
    return f'<span dir="ltr">{match["inline"]}</span>'


def right_to_left(text: str, lang: str) -> str:
    """Right-to-left markdown: blockquotes as HTML, maths and code isolated left to right, each
    paragraph and list item a right-aligned block, the whole in a right-to-left <div>."""
    text = LEFT_TO_RIGHT.sub(_isolated, _html_blockquotes(text))
    blocks = [b for b in re.split(r"\n(?:[ \t]*\n)+", text.strip("\n")) if b.strip()]
    return f'<div {RTL_BOX} lang="{lang}">\n\n' + "\n\n".join(map(_aligned, blocks)) + "\n\n</div>"


def _html_blockquotes(text: str) -> str:
    """Each run of '>' lines as an HTML blockquote (its bar on the right), its inside still Markdown."""
    out, quote = [], []
    for line in [*text.split("\n"), None]:
        if line is not None and re.match(r"^ {0,3}>", line):
            quote.append(re.sub(r"^ {0,3}> ?", "", line))
            continue
        if quote:
            out += ["", RTL_QUOTE, "", _html_blockquotes("\n".join(quote)), "", "</blockquote>", ""]
            quote = []
        if line is not None:
            out.append(line)
    return "\n".join(out)


def _aligned(block: str) -> str:
    """A block of markdown with its prose right-aligned: headings, tables, HTML and isolated blocks kept.
    A paragraph's lines become one right-aligned <span>, and each list item's text one (a list may
    start under a paragraph's last line)."""
    lines = block.split("\n")
    first = lines[0].lstrip()
    if not first or first.startswith(("#", "|", "$$", "```", RTL_TEXT)) or HTML_BLOCK.match(first):
        return block
    items = [i for i, line in enumerate(lines) if LIST_ITEM.match(line)]
    prose = lines[: items[0] if items else len(lines)]
    out = [f"{RTL_TEXT}{prose[0]}", *prose[1:]] if prose else []
    if out:
        out[-1] += "</span>"
    for start, end in zip(items, [*items[1:], len(lines)]):
        marker, rest = LIST_ITEM.match(lines[start]).groups()
        out += [f"{marker}{RTL_TEXT}{rest}", *lines[start + 1 : end]]
        out[-1] += "</span>"
    return "\n".join(out)


def translated(lang: str, notebook: Path) -> nbformat.NotebookNode:
    """The notebook in `lang`: English code cells and outputs, translated markdown, language set in setup."""
    missing = needs_work(lang, [notebook])
    if missing:
        raise SystemExit("cannot build: run `python tools/translations.py status`\n" + "\n".join(missing))
    entries = {e.en: e for e in read_entries(translation_file(lang, notebook)) if not e.todo}
    out = nbformat.read(notebook, as_version=4)
    for cell in out.cells:
        if cell.cell_type == "markdown":
            line = language_line(lang, notebook.name) if LANGUAGE_LINE.search(cell.source) else None
            cell.source = localise(entries[english_hash(cell.source)].text, lang, notebook, line)
        elif cell.cell_type == "code" and STYLE_CALL in cell.source:
            cell.source = cell.source.replace(STYLE_CALL, f"{STYLE_CALL}\n{setup_line(lang)}", 1)
    out.metadata["language"] = lang
    return out


def execution_key(lang: str, notebook: Path) -> str:
    """What a run of `notebook` in `lang` depends on: the English notebook's code and outputs (which
    change with the helpers), the language's words and the helpers that print in it."""
    en = nbformat.read(notebook, as_version=4)
    digest = hashlib.sha256()
    for cell in en.cells:
        if cell.cell_type == "code":
            digest.update(cell.source.encode())
            digest.update(nbformat.writes(nbformat.from_dict({"o": cell.outputs})).encode())
    for path in [*EXECUTION_INPUTS, f"helpers/course/words/{lang}.py"]:
        digest.update((ROOT / path).read_bytes())
    digest.update(setup_line(lang).encode())
    return digest.hexdigest()[:16]


def with_outputs_of(nb: nbformat.NotebookNode, run: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """`nb` (freshly translated) with the code outputs and widget state of an earlier run of it."""
    outputs = {c.id: c.outputs for c in run.cells if c.cell_type == "code"}
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = outputs[cell.id]
    for key in ("widgets", "why_transformers"):
        if key in run.metadata:
            nb.metadata[key] = run.metadata[key]
        else:
            nb.metadata.pop(key, None)
    return nb


def execute_translation(nb: nbformat.NotebookNode, lang: str, notebook: Path) -> nbformat.NotebookNode:
    """Run `nb` in `lang` top to bottom in notebooks/<lang>/, as a learner opens it; clean as the English."""
    from build_notebooks import clean, execute

    execute(nb, NOTEBOOKS / lang, record_timing=False)
    nb = clean(nb)
    nb.metadata["language"] = lang
    nb.metadata["why_transformers"] = {"executed_in": lang, "execution_key": execution_key(lang, notebook)}
    return nb


def built(lang: str, notebook: Path, check: bool = False) -> tuple[nbformat.NotebookNode, bool]:
    """The notebook in `lang` as the build writes it, and whether it still needs a run (check=True
    never runs one: it reports it). A notebook keeps its last run while its key holds."""
    nb = translated(lang, notebook)
    target = NOTEBOOKS / lang / notebook.name
    old = nbformat.read(target, as_version=4) if target.exists() else None
    recorded = old.metadata.get("why_transformers", {}).get("execution_key") if old else None
    if recorded == execution_key(lang, notebook):
        return with_outputs_of(nb, old), False
    if check:
        return nb, True
    print(f"running {lang}/{notebook.name} ...", flush=True)
    return execute_translation(nb, lang, notebook), False


def readme_line(code: str) -> str:
    """The switcher line of the README in language `code` (the English one, or notebooks/<code>/README.md)."""
    parts = []
    for other, language in LANGUAGES.items():
        here = "" if code == "en" else "../../"
        there = "README.md" if other == "en" else f"notebooks/{other}/README.md"
        parts.append(f"**{language.name}**" if other == code else f"[{language.name}]({here}{there})")
    return "🌐 " + " · ".join(parts)


def title(nb: nbformat.NotebookNode) -> str:
    """The notebook's title: the first heading of its first cell."""
    return next(line for line in nb.cells[0].source.splitlines() if line.startswith("# "))[2:]


README_NOTES = {  # what a README says about where it was checked (after the figure words)
    "fa": """
## راست‌به‌چپ، هر جا که باز شود

جهت و ترازِ متن فارسی در خودِ نشانه‌گذاری هر سلول است (`dir="rtl"` و `style` روی هر بند، هر فهرست و هر
نقل‌قول؛ ریاضیات و کد جدا و چپ‌به‌راست)، نه فقط در `make lab LANG=fa`. آنچه بررسی شده است، در آزمون‌های مرورگرِ
دوره (`tests/project/test_browser.py`، با تصویر در `artifacts/screenshots/`): JupyterLab بدون هیچ CSS سفارشی و
HTML ساختهٔ nbconvert. در هر دو، بندها راست‌به‌چپ و راست‌چین‌اند، فرمول‌ها چپ‌به‌راست، نوار نقل‌قول در سمت راست، و
پیوندهای زبان به ترتیب درست. پاسخ‌های `helpers.check` نیز راست‌به‌چپ و راست‌چین نمایش داده می‌شوند و کد و عددهای
درونشان ترتیب خود را نگه می‌دارند.

آنچه بررسی نشده است: GitHub و Colab. این دوره در محیطی بی‌دسترسی به اینترنت ساخته و آزموده شد، پس نمی‌دانیم
آن دو دقیقاً چه نشان می‌دهند. نشانه‌گذاری به ویژگی‌های استاندارد HTML (`dir`، `style`) تکیه دارد؛ نمایشگری که
`style` را حذف کند (گمان می‌رود GitHub چنین کند) دست‌کم `dir` را نگه می‌دارد و متن را راست‌به‌چپ نشان می‌دهد،
اما شاید بندها را چپ‌چین کند. اگر در GitHub یا Colab متن چپ‌چین یا درهم دیدید، لطفاً گزارش دهید.
""",
}


def readme(lang: str, books: dict[str, nbformat.NotebookNode]) -> str:
    """notebooks/<lang>/README.md: its sources/README.md with the switcher, the badges and the course map."""
    cfg = config()
    course_map = [
        f"- [{title(nb)}]({name}) {badge(f'{lang}/{name[:-6]}', cfg)}" for name, nb in books.items()
    ]
    badges = (
        f"{badge(f'{lang}/00_start_here', cfg)}\n"
        f"[![Binder](https://mybinder.org/badge_logo.svg)]({binder_url(cfg, f'{lang}/00_start_here')})"
    )
    text = (NOTEBOOKS / lang / "sources" / "README.md").read_text(encoding="utf-8")
    text = text.replace("{{switcher}}", readme_line(lang)).replace("{{badges}}", badges)
    text = text.replace("{{map}}", "\n".join(course_map))
    text = f"{text.rstrip()}\n\n{figure_words_section(lang)}\n{README_NOTES.get(lang, '')}"
    return f"{right_to_left(text, lang)}\n" if LANGUAGES[lang].direction == "rtl" else text


def build(langs: list[str], check: bool = False, notebooks: list[Path] | None = None) -> int:
    stale = 0
    for lang in langs:
        chosen = english_notebooks() if notebooks is None else notebooks
        books, unrun = {}, set()
        for notebook in chosen:
            books[notebook.name], needs_run = built(lang, notebook, check)
            if needs_run:
                unrun.add(notebook.name)
        outputs = {name: nbformat.writes(nb) + "\n" for name, nb in books.items()}
        if notebooks is None:
            outputs["README.md"] = readme(lang, books)
        for name, text in outputs.items():
            target = NOTEBOOKS / lang / name
            if name not in unrun and target.exists() and target.read_text(encoding="utf-8") == text:
                continue
            stale += 1
            if check:
                why = " (its run in this language is out of date)" if name in unrun else ""
                command = f"`python tools/translations.py build {lang}`"
                print(f"out of date: {target.relative_to(ROOT)}{why} ({command})")
            else:
                target.write_text(text, encoding="utf-8")
                print(f"wrote {target.relative_to(ROOT)}")
    return stale


def main(argv: list[str]) -> int:
    command, args = (argv[0], argv[1:]) if argv else ("status", [])
    check = "--check" in args
    prefixes = [args[i + 1] for i, a in enumerate(args) if a == "--nb" and i + 1 < len(args)]
    chosen = [nb for nb in english_notebooks() if nb.name[:2] in prefixes] if prefixes else None
    if prefixes and len(chosen) != len(set(prefixes)):
        raise SystemExit(f"--nb takes notebook numbers such as 04; found {[n.name for n in chosen]}")
    args = [a for i, a in enumerate(args) if a != "--nb" and (i == 0 or args[i - 1] != "--nb")]
    langs = [a for a in args if a != "--check"] or list(TRANSLATED)
    unknown = [lang for lang in langs if lang not in TRANSLATED]
    if unknown:
        raise SystemExit(f"unknown language {unknown}; translations exist for {', '.join(TRANSLATED)}")
    if command == "status":
        lines = [line for lang in langs for line in needs_work(lang, chosen)]
        print("\n".join(lines) if lines else f"every cell translated in {', '.join(langs)}")
        return 1 if lines else 0
    if command == "check":
        lines = [line for lang in langs for line in faults(lang, chosen)]
        print("\n".join(lines) if lines else f"no fault in the translated cells of {', '.join(langs)}")
        return 1 if lines else 0
    if command == "skeleton":
        for lang in langs:
            skeleton(lang, chosen)
        return 0
    if command == "build":
        return 1 if build(langs, check, chosen) and check else 0
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
