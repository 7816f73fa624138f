"""Drift check: the course under the newest releases pyproject.toml allows (`make test-latest`).

Colab and Binder learners get whatever is current, not requirements.txt's pins. Run with
the python of .venv-latest (the Makefile installs it with `pip install --upgrade`):

    .venv-latest/bin/python tools/test_latest.py
    .venv-latest/bin/python tools/test_latest.py --only 00 04  # these notebooks, then the unit tests
    .venv-latest/bin/python tools/test_latest.py --dry-run     # check the kernel, read the sources only

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


def sources(only: list[str] = ()) -> list[Path]:
    """The notebooks' jupytext sources, only those numbered `only` when given; SystemExit on a
    number that names no notebook."""
    found = sorted(SOURCES.glob("[0-9][0-9]_*.py"))
    unknown = sorted(set(only) - {s.name[:2] for s in found})
    if unknown:
        raise SystemExit(f"no notebook {', '.join(unknown)} in {SOURCES.relative_to(ROOT)}/")
    return [s for s in found if not only or s.name[:2] in only]


def run_notebooks(only: list[str] = (), dry_run: bool = False) -> list[str]:
    """Execute each source (or, on a dry run, only read it); the stems of those that failed."""
    failed = []
    for source in sources(only):
        nb = jupytext.read(source)
        if dry_run:
            print(f"{source.stem:26s} would run its {len(nb.cells)} cells", flush=True)
            continue
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


def parse(argv: list[str]) -> tuple[list[str], bool]:
    """(the notebook numbers after --only, --dry-run); SystemExit on anything else."""
    args = [a for a in argv if a != "--dry-run"]
    only = args[args.index("--only") + 1 :] if "--only" in args else []
    rest = args[: args.index("--only")] if "--only" in args else args
    if rest or ("--only" in args and not only):
        raise SystemExit(__doc__)
    return only, "--dry-run" in argv


def main(argv: list[str]) -> int:
    only, dry_run = parse(argv)
    sources(only)  # an unknown notebook stops it before a kernel starts
    start = time.perf_counter()
    print(f"python {sys.version.split()[0]}: {sys.executable}")
    kernel = kernel_python()
    print(f"kernel python3 runs in {kernel}")
    if kernel != sys.prefix:
        sys.exit(f"the python3 kernel runs in {kernel}, not in {sys.prefix}")
    failed = run_notebooks(only, dry_run)
    if dry_run:
        print("would run: " + " ".join(PYTEST[1:]))
        return 0
    tests = subprocess.run(PYTEST, cwd=ROOT).returncode
    if tests:
        failed.append("unit tests")
    print("versions: " + ", ".join(f"{p} {version(p)}" for p in PACKAGES))
    print(
        f"{'FAILED: ' + ', '.join(failed) if failed else 'all passed'} in {time.perf_counter() - start:.0f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
