"""Colab: every notebook opens with a badge and a setup cell pointing at the repository
configured in pyproject.toml ([tool.why-transformers]), and the setup cell does nothing
outside Colab. `make colab` (tools/colab.py) fixes whatever these tests find."""

import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import colab  # noqa: E402

CFG = colab.config()
NOTEBOOKS = sorted((ROOT / "notebooks" / "sources").glob("[0-9][0-9]_*.py")) + sorted(
    (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
)


def read(path: Path) -> nbformat.NotebookNode:
    return jupytext.read(path) if path.suffix == ".py" else nbformat.read(path, as_version=4)


def setup_cells(nb) -> list:
    return [c for c in nb.cells if "setup" in c.metadata.get("tags", [])]


def test_repository_is_configured_once():
    assert CFG["repository"].startswith("https://github.com/") and CFG["branch"]
    assert colab.pip_target(CFG).startswith(f"git+{CFG['repository']}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_badge_in_first_markdown_cell(path):
    first_md = next(c for c in read(path).cells if c.cell_type == "markdown")
    assert colab.badge(path.stem, CFG) in first_md.source.splitlines(), (
        f"{path.name}: no Colab badge for {colab.colab_url(path.stem, CFG)}; run `make colab`"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_setup_cell_is_the_first_code_cell_and_points_at_the_repository(path):
    nb = read(path)
    setup = setup_cells(nb)
    assert len(setup) == 1, f"{path.name}: needs exactly one cell tagged `setup`"
    assert next(c for c in nb.cells if c.cell_type == "code") is setup[0], "setup comes first"
    assert setup[0].source.strip() == colab.setup_source(CFG), f"{path.name}: run `make colab`"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_setup_cell_does_nothing_outside_colab(path, monkeypatch):
    """On Colab the cell really installs the course: tests/project/test_install.py runs it."""
    monkeypatch.delitem(sys.modules, "google.colab", raising=False)

    def forbidden(*a, **k):
        raise AssertionError(f"the setup cell ran a command outside Colab: {a}")

    for name in ("run", "Popen", "check_call"):
        monkeypatch.setattr(subprocess, name, forbidden)
    for cell in setup_cells(read(path)):
        exec(compile(cell.source, "<setup cell>", "exec"), {"__name__": "__main__"})


def test_tool_adds_a_missing_badge_and_setup_cell_and_is_idempotent():
    cfg = {"repository": "https://github.com/someone/fork", "branch": "dev"}
    source = (
        "# ---\n# jupyter:\n#   jupytext:\n#     formats: ipynb,py:percent\n# ---\n\n"
        "# %% [markdown]\n# # 09 · New\n#\n# **You will learn** things.\n\n"
        "# %%\nimport helpers\n"
    )
    new, added = colab.rewrite_source(source, "09_new", cfg)
    nb = jupytext.reads(new, fmt="py:percent")
    assert added and colab.badge("09_new", cfg) in nb.cells[0].source.splitlines()
    assert "**You will learn** things." in nb.cells[0].source
    assert setup_cells(nb)[0].source.strip() == colab.setup_source(cfg)
    assert "git+https://github.com/someone/fork@dev" in new
    assert nb.cells[2].source == "import helpers"
    assert colab.rewrite_source(new, "09_new", cfg) == (new, False)
    moved = {"repository": "https://github.com/other/place", "branch": "main"}
    again, added = colab.rewrite_source(new, "09_new", moved)
    assert not added and "someone" not in again and again.count("Open In Colab") == 1


def test_docs_badges_follow_the_repository():
    cfg = {"repository": "https://github.com/other/place", "branch": "main"}
    text = (
        "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/a/b/main?urlpath=lab)"
        " [c](https://colab.research.google.com/github/a/b/blob/main/notebooks/00_start_here.ipynb)"
    )
    out = colab.rewrite_docs(text, cfg)
    assert "gh/other/place/main?urlpath" in out and "github/other/place/blob/main/notebooks" in out
