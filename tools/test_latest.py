"""Drift check: the course under the newest releases pyproject.toml allows (`make test-latest`).

Colab and Binder learners get whatever is current, not requirements.txt's pins. Run with
the python of .venv-latest (the Makefile installs it with `pip install --upgrade`):

    .venv-latest/bin/python tools/test_latest.py

1. Executes every notebook from its jupytext source, top to bottom, in a fresh kernel of
   this interpreter, in notebooks/. Errors only: outputs are not compared, nothing is written.
2. Runs the unit tests in tests/ without the browser tests and without strict nbval of the
   committed notebooks (see PYTEST below).
Prints one line per notebook, the versions found, and exits non-zero on any failure.
"""

import subprocess
import sys
import time
from importlib.metadata import requires, version
from pathlib import Path

import jupytext
import nbformat
from nbclient.exceptions import CellExecutionError
from packaging.requirements import Requirement

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_notebooks import NOTEBOOKS, SOURCES, execute  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HELPERS_NEEDS = [Requirement(r).name for r in requires("why-transformers-helpers")]  # pyproject.toml
PACKAGES = [*HELPERS_NEEDS, "nbclient", "ipykernel", "nbformat", "nbconvert", "jupytext", "pytest"]
# Not here: the browser tests (Chromium, Playwright, JupyterLab) and strict nbval of the
# committed notebooks (nbval; their outputs are pinned-version outputs): the pytest addopts,
# and test_portable_kernels.py, which runs it again on PyTorch's portable kernels.
PYTEST = [
    sys.executable,
    "-m",
    "pytest",
    "tests",
    "-o",
    "addopts=",
    "-p",
    "no:randomly",
    "-p",
    "no:cacheprovider",
    "--ignore=tests/project/test_browser.py",
    "--ignore=tests/project/test_portable_kernels.py",
    "-q",
]


def kernel_python() -> str:
    """The environment the `python3` kernel runs in: it must be this one, not .venv's."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.prefix)")])
    execute(nb, NOTEBOOKS)
    return nb.cells[0].outputs[0].text.strip()


def failing_cell(nb: nbformat.NotebookNode) -> str:
    for i, cell in enumerate(nb.cells):
        if any(out.output_type == "error" for out in cell.get("outputs", [])):
            first = next((line for line in cell.source.splitlines() if line.strip()), "")
            return f"cell {i}: {first[:60]}"
    return "no cell (the kernel failed)"


def run_notebooks() -> list[str]:
    failed = []
    for source in sorted(SOURCES.glob("[0-9][0-9]_*.py")):
        nb = jupytext.read(source)
        start = time.perf_counter()
        try:
            execute(nb, NOTEBOOKS)
            status = "ok"
        except Exception as e:  # CellExecutionError, a timeout or a dead kernel
            what = f"{e.ename}: {e.evalue}" if isinstance(e, CellExecutionError) else repr(e)
            status = f"ERROR in {failing_cell(nb)}\n    {what}"
            failed.append(source.stem)
        print(f"{source.stem:26s} {time.perf_counter() - start:6.1f} s  {status}", flush=True)
    return failed


if __name__ == "__main__":
    start = time.perf_counter()
    print(f"python {sys.version.split()[0]}: {sys.executable}")
    kernel = kernel_python()
    print(f"kernel python3 runs in {kernel}")
    if kernel != sys.prefix:
        sys.exit(f"the python3 kernel runs in {kernel}, not in {sys.prefix}")
    failed = run_notebooks()
    tests = subprocess.run(PYTEST, cwd=ROOT).returncode
    if tests:
        failed.append("unit tests")
    print("versions: " + ", ".join(f"{p} {version(p)}" for p in PACKAGES))
    print(
        f"{'FAILED: ' + ', '.join(failed) if failed else 'all passed'} in {time.perf_counter() - start:.0f} s"
    )
    sys.exit(1 if failed else 0)
