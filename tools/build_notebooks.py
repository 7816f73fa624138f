"""Rebuild notebooks/NN_*.ipynb from their jupytext sources and execute them.

    python tools/build_notebooks.py          # every notebook
    python tools/build_notebooks.py 01 04    # only these

Each notebook runs top to bottom in a fresh `python3` kernel, in notebooks/, and is
written with its outputs, with slide metadata for lecture mode (tools/slides.py: RISE and
`make slides` read it) and with clean metadata (no timings, no jupytext header).
"""
import sys
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slides import add_slide_metadata  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
CELL_METADATA = ("tags", "slideshow")


def sources(prefixes: list[str]) -> list[Path]:
    found = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
    return [p for p in found if not prefixes or p.name[:2] in prefixes]


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Keep only the metadata a reader needs: kernelspec, language, widget state, tags, slides."""
    keep = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    if "widgets" in nb.metadata:
        keep["widgets"] = nb.metadata["widgets"]
    nb.metadata = nbformat.from_dict(keep)
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"  # stable ids: a rebuild with no change leaves no diff
        cell.metadata = nbformat.from_dict({k: v for k, v in cell.metadata.items() if k in CELL_METADATA})
    return nb


def build(source: Path) -> float:
    nb = jupytext.read(source)
    nb.metadata["kernelspec"] = KERNELSPEC
    start = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    seconds = time.perf_counter() - start
    nbformat.write(clean(add_slide_metadata(nb)), source.with_suffix(".ipynb"))
    return seconds


if __name__ == "__main__":
    for src in sources(sys.argv[1:]):
        print(f"{src.stem}: executed in {build(src):.1f} s", flush=True)
