"""The package installs whole, the way Colab and Binder install it: not editable, not from the repository.

Every other install the project makes is `pip install --editable .`, which finds `helpers` in the
checkout whatever pyproject.toml ships. Here the tree is exported as it would be committed (tracked
and new files, nothing ignored: no .venv, no build/), and then:

1. a wheel is built from the export and installed with --no-deps into a fresh environment that
   sees the runtime dependencies (.venv's packages, less this project's) but not the project:
   every module of the source tree must import from that install, from a folder outside the
   repository, and notebooks 00 and 04 (helpers.notebooks, helpers.course, the GPU data) must run
   top to bottom in a kernel of that environment;
2. the Colab setup cell itself runs, on a `git+file://` URL of a clean clone of the export (the
   only change to the cell), in a second such environment: it must install the wheel's files;
3. the pip line of environment.yml that installs the course (Binder) must install them too.
"""

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import colab  # noqa: E402

pytestmark = pytest.mark.slow
PROJECT = "why_transformers_helpers"  # the distribution's name in dist-info and the editable finder
RUNS = ["00_start_here", "04_attention"]  # notebooks executed against the installed package


def run(command: list[str], **options) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **options)
    assert result.returncode == 0, f"{command[:4]} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def export(dest: Path) -> Path:
    """The working tree as it would be committed: tracked and untracked files, not the ignored ones."""
    files = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout
    for name in filter(None, files.split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes((ROOT / name).read_bytes())
    return dest


def fresh_environment(path: Path) -> Path:
    """A venv without pip or the project that sees .venv's other packages through one .pth file.

    The packages are linked into one folder, minus this project's dist-info and editable finder
    (a .pth in a folder named by a .pth is not run: nothing can put the checkout on sys.path)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    python = path / "bin" / "python"
    site = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    )
    deps = path / "deps"
    deps.mkdir()
    for entry in Path(sysconfig.get_path("purelib")).iterdir():
        if not entry.name.startswith((PROJECT, f"__editable__.{PROJECT}", f"__editable___{PROJECT}")):
            (deps / entry.name).symlink_to(entry)
    (site / "runtime-dependencies.pth").write_text(f"{deps}\n")
    return python


def installed_files(python: Path) -> dict[str, str]:
    """path -> sha256 of every file the project's dist-info RECORD lists under helpers/."""
    code = (
        "import importlib.metadata as m, json; d = m.distribution('why-transformers-helpers'); "
        "print(json.dumps({str(f): f.hash.value for f in d.files if f.parts[0] == 'helpers' and f.hash}))"
    )
    return json.loads(run([str(python), "-c", code], cwd=python.parents[1]).stdout)


def source_modules(tree: Path) -> set[str]:
    """Every module of the package in the source tree, as a dotted name: each .py file under helpers/,
    in a folder with an __init__.py or not, except helpers/data/ (measurements, and the scripts kept
    verbatim as their provenance)."""
    return {
        ".".join(p.relative_to(tree).with_suffix("").parts).removesuffix(".__init__")
        for p in (tree / "helpers").rglob("*.py")
        if not p.is_relative_to(tree / "helpers" / "data")
    }


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    return export(tmp_path_factory.mktemp("export"))


@pytest.fixture(scope="module")
def wheel(tree, tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(tree)])
    (found,) = dist.glob("*.whl")
    return found


@pytest.fixture(scope="module")
def wheel_env(wheel, tmp_path_factory) -> Path:
    python = fresh_environment(tmp_path_factory.mktemp("wheel-env") / "venv")
    run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)])
    return python


def test_the_wheel_holds_every_module_and_the_data_the_code_reads(tree, wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(m for m in source_modules(tree) if not _in_wheel(m, names))
    assert not missing, f"modules missing from the wheel: {missing}"
    data = {p.relative_to(tree).as_posix() for p in (tree / "helpers" / "data" / "gpu").glob("*.csv")}
    assert data and data <= names, f"GPU data missing from the wheel: {sorted(data - names)}"


def _in_wheel(module: str, names: set[str]) -> bool:
    path = module.replace(".", "/")
    return f"{path}.py" in names or f"{path}/__init__.py" in names


IMPORT_ALL = """
import importlib, json, pkgutil, sys
import helpers
from helpers import gpu_sweep
found = ["helpers"] + [m.name for m in pkgutil.walk_packages(helpers.__path__, "helpers.")]
for name in found:
    importlib.import_module(name)
helpers.import_all()
for path in sorted(gpu_sweep.DATA.glob("*.csv")):
    assert gpu_sweep.read(path.stem), path
print(json.dumps({"file": helpers.__file__, "modules": found, "path": sys.path,
                  "finders": [type(f).__name__ for f in sys.meta_path],
                  "executed_06": gpu_sweep.executed_06()}))
"""


def test_every_module_imports_from_the_installed_wheel_not_from_the_checkout(tree, wheel_env, tmp_path):
    report = json.loads(run([str(wheel_env), "-c", IMPORT_ALL], cwd=tmp_path, env=_clean_env()).stdout)
    site = wheel_env.parents[1] / "lib"
    assert Path(report["file"]).is_relative_to(site), f"helpers came from {report['file']}"
    assert set(report["modules"]) == source_modules(tree)
    assert not any(str(ROOT) in p for p in report["path"]), "the checkout is on sys.path"
    assert not any("Editable" in f for f in report["finders"]), report["finders"]
    assert set(report["executed_06"]) == {"fwd", "fwd+bwd"}


EXECUTE = """
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
nb.cells.append(nbformat.v4.new_code_cell("import helpers; print(helpers.__file__)"))
client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}})
client.execute()
nbformat.write(nb, sys.argv[1])
"""


@pytest.mark.parametrize("stem", RUNS)
def test_a_notebook_runs_top_to_bottom_against_the_installed_wheel(stem, tree, wheel_env, tmp_path):
    """In a kernel of the fresh environment (its own kernelspec, first on JUPYTER_PATH), in a folder
    that holds nothing but the notebook."""
    kernels = tmp_path / "jupyter" / "kernels" / "python3"
    kernels.mkdir(parents=True)
    argv = [str(wheel_env), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (kernels / "kernel.json").write_text(
        json.dumps({"argv": argv, "language": "python", "display_name": "x"})
    )
    work = tmp_path / "work"
    work.mkdir()
    notebook = work / f"{stem}.ipynb"
    notebook.write_bytes((tree / "notebooks" / f"{stem}.ipynb").read_bytes())
    env = _clean_env() | {"JUPYTER_PATH": str(tmp_path / "jupyter"), "MPLBACKEND": "agg"}
    run([str(wheel_env), "-c", EXECUTE, str(notebook), str(work)], cwd=work, env=env, timeout=600)
    last = nbformat.read(notebook, as_version=4).cells[-1]
    assert Path(last.outputs[0].text.strip()).is_relative_to(wheel_env.parents[1]), last.outputs


def test_the_colab_setup_cell_installs_the_same_files_from_a_clean_clone(tree, wheel_env, tmp_path):
    clone = tmp_path / "clone"
    _commit(tree, tmp_path / "origin")
    run(["git", "clone", "--quiet", str(tmp_path / "origin"), str(clone)])
    cell = colab.setup_source(colab.config())
    url = f"git+{clone.as_uri()}"
    assert cell.count(colab.pip_target(colab.config())) == 1
    cell = cell.replace(colab.pip_target(colab.config()), url)  # only the URL differs from Colab's
    colab_python = fresh_environment(tmp_path / "colab")
    on_colab = "import sys, types\nsys.modules['google.colab'] = types.ModuleType('google.colab')\n"
    run([str(colab_python), "-c", on_colab + cell], cwd=tmp_path, env=_clean_env(), timeout=600)
    files = installed_files(colab_python)
    assert files == installed_files(wheel_env)
    assert {f"{m.replace('.', '/')}.py" for m in source_modules(tree)} <= {
        f.replace("/__init__.py", ".py") for f in files
    }


def test_binder_installs_the_course_as_a_package_with_the_same_files(tree, wheel_env, tmp_path):
    """environment.yml's pip lines, run from the repository's root as repo2docker does, without
    conda (which cannot run here): the course's own line must be a normal install of `.`."""
    env = yaml.safe_load((tree / "environment.yml").read_text())
    pip_lines = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    course = [line for line in pip_lines if line.split("#")[0].split()[-1] in {".", "./"}]
    assert course == ["."], f"environment.yml should install the course with `- .`, found {course}"
    assert not any(line.startswith(("-e", "--editable")) for line in pip_lines)
    binder_python = fresh_environment(tmp_path / "binder")
    run([str(binder_python), "-m", "pip", "install", "--quiet", "--no-deps", *course], cwd=tree)
    assert installed_files(binder_python) == installed_files(wheel_env)


def _commit(tree: Path, origin: Path) -> None:
    """A git repository whose one commit is the exported tree (what a clean clone of main holds)."""
    run(["cp", "-r", str(tree), str(origin)])
    git = ["git", "-C", str(origin), "-c", "user.name=t", "-c", "user.email=t@t"]
    run([*git, "init", "--quiet", "--initial-branch=main"])
    run([*git, "add", "-A"])
    run([*git, "commit", "--quiet", "-m", "export"])


def _clean_env() -> dict[str, str]:
    """This process's environment without anything that would put the checkout on sys.path."""
    return {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}}
