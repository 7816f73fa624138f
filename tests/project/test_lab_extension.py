"""The course's JupyterLab extension (tools/image-alt): figures' descriptions as their alt text.

Its built labextension/ is committed, so that `make setup` needs no Node.js. These tests check
that `make setup` installed exactly that build, and (where npm is, as in CI) that building
index.js again with the pinned builder and the pinned JupyterLab gives the committed files, up
to webpack's module ids and content hashes (they depend on the folder built in): an edit to
index.js without `make labextension` fails here. The browser test
`test_jupyterlab_shows_each_figures_description_as_its_alt_text` checks what it does.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

jupyterlab = pytest.importorskip("jupyterlab", reason="JupyterLab is not installed (make test-latest)")

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "tools" / "image-alt"
BUILT = SOURCE / "labextension"


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def normalised(folder: Path) -> dict[str, str]:
    """The built files, with webpack's content hashes and numeric module ids masked."""
    mask = lambda text: re.sub(r"\b\d+\b", "N", re.sub(r"\b[0-9a-f]{20}\b", "H", text))
    return {mask(name): mask(data.decode()) for name, data in files(folder).items()}


def test_setup_installed_the_committed_build():
    installed = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "why-transformers-image-alt"
    assert installed.is_dir(), f"not installed in {sys.prefix}: run `make setup`"
    assert files(installed) == files(BUILT), "the installed extension is not the committed build"


@pytest.mark.slow  # npm ci and a webpack build
def test_the_committed_build_is_index_js_built_again(tmp_path):
    if shutil.which("npm") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true and npm is missing (`.ci/run` installs it)", pytrace=False)
        pytest.skip("npm is not installed: cannot rebuild the extension")
    work = tmp_path / "image-alt"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "index.js"):
        shutil.copy(SOURCE / name, work / name)
    npm = ["npm", "ci", "--no-audit", "--no-fund", "--silent"]
    subprocess.run(npm, cwd=work, check=True, timeout=600)
    staging = Path(jupyterlab.__file__).parent / "staging"
    builder = work / "node_modules" / "@jupyterlab" / "builder" / "lib" / "build-labextension.js"
    subprocess.run(
        ["node", str(builder), "--core-path", str(staging), "."],
        cwd=work,
        check=True,
        timeout=600,
        capture_output=True,
    )
    rebuilt, committed = normalised(work / "labextension"), normalised(BUILT)
    differ = sorted(
        name for name in rebuilt.keys() | committed.keys() if rebuilt.get(name) != committed.get(name)
    )
    assert not differ, (
        f"tools/image-alt/labextension/ is not what index.js builds (run `make labextension`): {differ}"
    )
