"""Rebuild notebooks/NN_*.ipynb from their jupytext sources, notebooks/sources/NN_*.py, and run them.

    python tools/build_notebooks.py          # every notebook
    python tools/build_notebooks.py 01 04    # only these

Each notebook runs top to bottom in a fresh `python3` kernel, in notebooks/, and is
written with its outputs, with slide metadata for lecture mode (tools/slides.py: RISE and
`make slides` read it) and with clean metadata (no timings, no jupytext header).
"""

import sys
import tempfile
import time
from pathlib import Path

import jupytext
import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slides import add_slide_metadata  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"  # the built .ipynb files a learner opens
SOURCES = NOTEBOOKS / "sources"  # their jupytext sources, NN_name.py, which contributors edit
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
CELL_METADATA = ("tags", "slideshow")


def sources(prefixes: list[str]) -> list[Path]:
    found = sorted(SOURCES.glob("[0-9][0-9]_*.py"))
    return [p for p in found if not prefixes or p.name[:2] in prefixes]


def execute(nb: nbformat.NotebookNode, cwd: Path, **client_options) -> None:
    """Run `nb` top to bottom in a fresh python3 kernel working in `cwd`, then shut the kernel down.

    The kernel talks over local IPC sockets, not TCP: nothing is sent over the network, and
    ipykernel has no reason to warn "Kernel is running over TCP without encryption".
    """
    with tempfile.TemporaryDirectory() as sockets:
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(sockets) / "kernel"))
        try:
            NotebookClient(
                nb, km=km, timeout=600, resources={"metadata": {"path": str(cwd)}}, **client_options
            ).execute()
        finally:
            if km.has_kernel:
                km.shutdown_kernel()


def merge_streams(outputs: list) -> list:
    """One stream output per run of prints (the kernel may flush them in pieces)."""
    merged = []
    for out in outputs:
        if out.output_type == "stream" and merged and merged[-1].get("name") == out.name:
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Keep only the metadata a reader needs: kernelspec, language, widget state, tags, slides.

    Consecutive prints become one stream output, as a reader sees them.
    """
    keep = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    if "widgets" in nb.metadata:
        keep["widgets"] = nb.metadata["widgets"]
    nb.metadata = nbformat.from_dict(keep)
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"  # stable ids: a rebuild with no change leaves no diff
        cell.metadata = nbformat.from_dict({k: v for k, v in cell.metadata.items() if k in CELL_METADATA})
        if "outputs" in cell:
            cell.outputs = merge_streams(cell.outputs)
    return nb


def build(source: Path) -> float:
    nb = jupytext.read(source)
    nb.metadata["kernelspec"] = KERNELSPEC
    start = time.perf_counter()
    execute(nb, NOTEBOOKS, record_timing=False)
    seconds = time.perf_counter() - start
    nbformat.write(clean(add_slide_metadata(nb)), NOTEBOOKS / f"{source.stem}.ipynb")
    return seconds


if __name__ == "__main__":
    for src in sources(sys.argv[1:]):
        print(f"{src.stem}: executed in {build(src):.1f} s", flush=True)
