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
    python tools/translations.py build [it ...]    # write notebooks/<lang>/NN_*.ipynb
    python tools/translations.py build --check     # change nothing; exit 1 if a built notebook is out of date

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


def faults(lang: str, notebooks: list[Path] | None = None) -> list[str]:
    """Every translated cell of `lang` that changed what it must keep or left out a glossary term."""
    lines = []
    for notebook in english_notebooks() if notebooks is None else notebooks:
        entries = {e.en: e for e in read_entries(translation_file(lang, notebook)) if not e.todo}
        for cell in english_cells(notebook):
            entry = entries.get(english_hash(cell.source))
            if entry is None:
                continue
            for fault in differences(cell.source, entry.text) + glossary_misses(
                lang, cell.source, entry.text
            ):
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
        text = f'<div dir="rtl" lang="{lang}">\n\n{LEFT_TO_RIGHT.sub(_isolated, text)}\n\n</div>'
    return text


# In right-to-left prose, maths and code keep their left-to-right order only when isolated:
# blocks (fenced code, display maths on their own lines) in a <div dir="ltr">, inline maths and
# code in a <span dir="ltr">. (Without it a closing bracket at the end of a formula flips.)
LEFT_TO_RIGHT = re.compile(
    r"(?P<block>^```.*?^```[ \t]*$|^\$\$.+?\$\$[ \t]*$)|(?P<inline>(?<!\$)\$[^$]+?\$(?!\$)|`[^`\n]+`)",
    re.M | re.S,
)


def _isolated(match: re.Match) -> str:
    if match["block"]:
        return f'<div dir="ltr">\n\n{match["block"]}\n\n</div>'
    return f'<span dir="ltr">{match["inline"]}</span>'


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
    rtl = LANGUAGES[lang].direction == "rtl"
    return f'<div dir="rtl" lang="{lang}">\n\n{text}\n</div>\n' if rtl else text


def build(langs: list[str], check: bool = False, notebooks: list[Path] | None = None) -> int:
    stale = 0
    for lang in langs:
        chosen = english_notebooks() if notebooks is None else notebooks
        books = {notebook.name: translated(lang, notebook) for notebook in chosen}
        outputs = {name: nbformat.writes(nb) + "\n" for name, nb in books.items()}
        if notebooks is None:
            outputs["README.md"] = readme(lang, books)
        for name, text in outputs.items():
            target = NOTEBOOKS / lang / name
            if target.exists() and target.read_text(encoding="utf-8") == text:
                continue
            stale += 1
            if check:
                print(
                    f"out of date: {target.relative_to(ROOT)} (`python tools/translations.py build {lang}`)"
                )
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
