"""Point every notebook's "Open in Colab" badge and Colab setup cell at the course repository.

The repository lives in one place, `[tool.why-transformers]` in pyproject.toml. This tool
rewrites from it, in place and without re-executing anything:

* in each notebook source (notebooks/sources/NN_*.py) and its built .ipynb: the badge line of the
  first markdown cell (added under the title when missing) and the body of the setup cell
  (tag `setup`; added after the first cell of a source when missing, then rebuild it);
* when run for every notebook: the Colab and Binder badge links in README.md and docs/*.md.

    python tools/colab.py            # every notebook and the docs   (make colab)
    python tools/colab.py 00 03      # only these notebooks
    python tools/colab.py --check    # change nothing; exit 1 if anything is out of date
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import tomllib

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / "sources"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BADGE_SVG = "https://colab.research.google.com/assets/colab-badge.svg"
BADGE_LINE = re.compile(r"^\[!\[Open In Colab\]\([^)]*\)\]\([^)]*\)[ \t]*$", re.M)
SETUP_HEADER = re.compile(r'^# %%.*\btags=\[[^\]]*"setup"', re.M)


def config(pyproject: Path = ROOT / "pyproject.toml") -> dict:
    """{"repository": "https://github.com/OWNER/NAME", "branch": "main"} from pyproject.toml."""
    table = tomllib.loads(pyproject.read_text())["tool"]["why-transformers"]
    repository, branch = table["repository"].rstrip("/"), table.get("branch", "main")
    if not re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", repository):
        raise ValueError(f"repository must be https://github.com/OWNER/NAME, got {repository!r}")
    return {"repository": repository, "branch": branch}


def slug(cfg: dict) -> str:
    return cfg["repository"].removeprefix("https://github.com/")


def colab_url(stem: str, cfg: dict) -> str:
    return f"https://colab.research.google.com/github/{slug(cfg)}/blob/{cfg['branch']}/notebooks/{stem}.ipynb"


def binder_url(cfg: dict, notebook: str = "00_start_here") -> str:
    return (
        f"https://mybinder.org/v2/gh/{slug(cfg)}/{cfg['branch']}?urlpath=lab/tree/notebooks/{notebook}.ipynb"
    )


def badge(stem: str, cfg: dict) -> str:
    """The markdown badge line that opens notebook `stem` in Colab."""
    return f"[![Open In Colab]({BADGE_SVG})]({colab_url(stem, cfg)})"


def pip_target(cfg: dict) -> str:
    """What Colab pip-installs: the repository (its default branch main, or @branch)."""
    at = "" if cfg["branch"] == "main" else f"@{cfg['branch']}"
    return f"git+{cfg['repository']}{at}"


def setup_source(cfg: dict) -> str:
    """The setup cell: installs `helpers` on Colab, does nothing anywhere else."""
    return (
        "# Setup: on Colab, install the course helpers; anywhere else this cell does nothing.\n"
        "import subprocess\n"
        "import sys\n"
        "\n"
        'if "google.colab" in sys.modules:\n'
        '    pip = [sys.executable, "-m", "pip", "install", "-q"]\n'
        f'    subprocess.run([*pip, "{pip_target(cfg)}"], check=True)'
    )


# --------------------------------------------------------------------------- markdown text
def with_badge(markdown: str, stem: str, cfg: dict) -> str:
    """The first markdown cell's text with the badge line replaced, or added after the title."""
    line = badge(stem, cfg)
    if BADGE_LINE.search(markdown):
        return BADGE_LINE.sub(lambda _: line, markdown, count=1)
    title, _, rest = markdown.partition("\n")
    return f"{title}\n\n{line}\n" + (f"\n{rest.lstrip(chr(10))}" if rest.strip() else "")


# --------------------------------------------------------------------------- .py sources
def _cells(text: str) -> list[str]:
    """A jupytext percent file split before each `# %%` line (the header comes first)."""
    return re.split(r"(?m)^(?=# %%)", text)


def _commented(markdown: str) -> str:
    return "\n".join(f"# {line}" if line else "#" for line in markdown.split("\n"))


def _uncommented(body: str) -> str:
    return "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#") for line in body.split("\n"))


def rewrite_source(text: str, stem: str, cfg: dict) -> tuple[str, bool]:
    """The source with badge and setup cell from `cfg`; and whether a cell had to be added."""
    parts, added = _cells(text), False
    first_md = next(i for i, p in enumerate(parts) if p.startswith("# %% [markdown]"))
    header, _, body = parts[first_md].partition("\n")
    content = body.rstrip("\n")
    trailing = body[len(content) :]
    parts[first_md] = f"{header}\n{_commented(with_badge(_uncommented(content), stem, cfg))}{trailing}"
    setup = next((i for i, p in enumerate(parts) if SETUP_HEADER.match(p)), None)
    if setup is None:
        parts.insert(first_md + 1, '# %% tags=["setup"]\n\n\n')
        setup, added = first_md + 1, True
    header, _, body = parts[setup].partition("\n")
    trailing = body[len(body.rstrip("\n")) :] or "\n"
    parts[setup] = f"{header}\n{setup_source(cfg)}{trailing}"
    return "".join(parts), added


# --------------------------------------------------------------------------- built notebooks
def rewrite_notebook(nb: nbformat.NotebookNode, stem: str, cfg: dict) -> bool:
    """Badge and setup source rewritten in place; False when the notebook has no setup cell."""
    first_md = next(c for c in nb.cells if c.cell_type == "markdown")
    first_md.source = with_badge(first_md.source, stem, cfg)
    setup = [c for c in nb.cells if "setup" in c.metadata.get("tags", [])]
    for cell in setup:
        cell.source = setup_source(cfg)
    return bool(setup)


def rewrite_docs(text: str, cfg: dict) -> str:
    """Colab and Binder links in a markdown document pointed at the configured repository."""
    text = re.sub(
        r"https://colab\.research\.google\.com/github/[\w.-]+/[\w.-]+/blob/[\w.-]+/",
        f"https://colab.research.google.com/github/{slug(cfg)}/blob/{cfg['branch']}/",
        text,
    )
    return re.sub(
        r"https://mybinder\.org/v2/gh/[\w.-]+/[\w.-]+/[\w.-]+",
        f"https://mybinder.org/v2/gh/{slug(cfg)}/{cfg['branch']}",
        text,
    )


def main(argv: list[str]) -> int:
    check = "--check" in argv
    prefixes = [a for a in argv if a != "--check"]
    cfg, stale, rebuild = config(), [], []
    for src in sorted(SOURCES.glob("[0-9][0-9]_*.py")):
        if prefixes and src.name[:2] not in prefixes:
            continue
        text = src.read_text(encoding="utf-8")
        new, added = rewrite_source(text, src.stem, cfg)
        changes = [(src, text, new)]
        ipynb = NOTEBOOKS / f"{src.stem}.ipynb"
        if ipynb.exists():
            old_nb = ipynb.read_text(encoding="utf-8")
            nb = nbformat.reads(old_nb, as_version=4)
            has_setup = rewrite_notebook(nb, src.stem, cfg)
            written = nbformat.writes(nb)
            changes.append((ipynb, old_nb, written if written.endswith("\n") else written + "\n"))
            if added or not has_setup:
                rebuild.append(src.name[:2])
        for path, old, updated in changes:
            if updated != old:
                stale.append(path)
                if not check:
                    path.write_text(updated, encoding="utf-8")
    for doc in DOCS if not prefixes else []:
        if doc.exists() and (new := rewrite_docs(old := doc.read_text(encoding="utf-8"), cfg)) != old:
            stale.append(doc)
            if not check:
                doc.write_text(new, encoding="utf-8")
    verb = "out of date" if check else "rewrote"
    for path in stale:
        print(f"{verb}: {path.relative_to(ROOT)}")
    if rebuild and not check:
        print(f'a setup cell was added: rebuild with `make notebooks NB="{" ".join(rebuild)}"`')
    if not stale:
        print(f"every badge and setup cell points at {cfg['repository']} ({cfg['branch']})")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
