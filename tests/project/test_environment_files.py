"""requirements.txt (pip, the tested lock), environment.yml (conda, Binder) and
pyproject.toml (the helpers library's ranges) must describe the same packages."""

import re
from pathlib import Path

import tomllib
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
CONDA_NAMES = {"pytorch-cpu": "torch"}  # conda-forge name -> pip name


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements() -> dict[str, str]:
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    reqs = [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]
    return {canonical(r.name): str(r.specifier) for r in reqs}


def environment() -> tuple[dict[str, str], dict[str, str]]:
    """(conda packages, pip packages) of environment.yml, as name -> specifier."""
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    conda = {}
    for d in deps:
        if isinstance(d, str):
            name, spec = re.match(r"([A-Za-z0-9_.-]+)\s*(.*)", d).groups()
            conda[canonical(CONDA_NAMES.get(name, name))] = spec
    pip_lines = next(d["pip"] for d in deps if isinstance(d, dict))
    pip = {
        canonical(Requirement(line).name): str(Requirement(line).specifier)
        for line in pip_lines
        if not line.startswith(("-", "."))  # options, and the course's own packages (. and ./tools/image-alt)
    }
    return conda, pip


def test_every_requirement_is_pinned_exactly():
    for name, spec in requirements().items():
        assert spec.startswith("==") and "," not in spec, f"{name} is not pinned exactly: {spec!r}"
    assert requirements()["torch"] == "==2.13.0"


def test_environment_yml_has_the_same_packages_as_requirements():
    conda, pip = environment()
    assert set(pip) | (set(conda) - {"python", "pip"}) == set(requirements())
    for name, spec in pip.items():
        assert spec == requirements()[name], (
            f"{name}: environment.yml {spec} vs requirements {requirements()[name]}"
        )
    assert "torch" in conda, "PyTorch comes from conda-forge's CPU build"


def test_environment_yml_installs_helpers_and_uses_conda_forge():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    pip_lines = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "." in pip_lines, "the course's helpers package (tests/project/test_install.py installs it so)"
    assert "./tools/image-alt" in pip_lines, "JupyterLab would show figures without their alt text"


def test_pyproject_dependencies_are_ranges_the_lock_satisfies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    locked = requirements()
    for line in project["dependencies"]:
        req = Requirement(line)
        assert not str(req.specifier).startswith("=="), f"{req} should be a range, not a pin"
        name = canonical(req.name)
        assert name in locked, f"{name} is a helpers dependency missing from requirements.txt"
        assert req.specifier.contains(locked[name].lstrip("="), prereleases=True), f"{req} vs {locked[name]}"
