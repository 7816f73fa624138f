"""Graded assignments with nbgrader, generated from the course's own notebooks.

    python tools/assignments.py            # every notebook with exercises
    python tools/assignments.py 01 04      # only these

writes an nbgrader course in build/assignments/ and runs `nbgrader generate_assignment`:

* source/NN_name/NN_name.ipynb: the built notebook, its exercises turned into graded cells.
  The cell that defines the learner's answer (a stub that raises NotImplementedError, or
  `answer = None`) becomes an *autograded answer*: the reference solution between
  `### BEGIN SOLUTION` and `### END SOLUTION`. The `helpers.check(...)` line after it
  becomes an *autograder test* cell worth POINTS (2 for a function, 1 for a number): it
  prints the learner's verdict, asserts `passes(...)` on the exercise's own draws, and, in
  a hidden block the students never see, on HIDDEN_TRIALS more draws under another seed.
* release/NN_name/NN_name.ipynb: what students get, written by nbgrader: no solution.

The tests are the same references `helpers.check` uses (helpers.course.exercises). The
reference solutions come from the registered reference functions (their code, inlined when
it needs only torch and math, else a call into helpers) or values. Teachers then collect
submissions into submitted/<student>/NN_name/ and run `nbgrader autograde NN_name` in
build/assignments/ (nbgrader's own commands; see the README's teacher's guide).
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
COURSE = ROOT / "build" / "assignments"
POINTS = {"function": 2, "value": 1}
HIDDEN_TRIALS, HIDDEN_SEED = 20, 2024
CELL_TIMEOUT_S = 600  # a notebook's longest cell (07's training) runs well inside this
CHECK = re.compile(r"""^helpers\.check\(\s*["'](\w+)["']\s*,\s*(\w+)\s*\)\s*$""", re.M)
ALLOWED_GLOBALS = {"torch", "math", "F", "nn", "np"}  # names a notebook has; others mean "call helpers"


def config(course: Path) -> str:
    """nbgrader_config.py: the course's root and gradebook, a cell timeout long enough for training."""
    return "\n".join(
        [
            "c = get_config()  # noqa: F821  (written by tools/assignments.py)",
            f"c.CourseDirectory.root = {str(course.resolve())!r}",
            f"c.CourseDirectory.db_url = {'sqlite:///' + str(course.resolve() / 'gradebook.db')!r}",
            f"c.Execute.timeout = {CELL_TIMEOUT_S}",
            "",
        ]
    )


def _meta(grade_id: str, *, solution: bool, grade: bool, points: int = 0) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3}
    meta |= {"solution": solution, "task": False}
    return meta | ({"points": points} if grade else {})


def _body_from_reference(reference, params: list[str]) -> list[str] | None:
    """The reference function's body, renamed to the stub's parameters; None when it needs helpers."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(reference)))
    fn = tree.body[0]
    ref_params = [a.arg for a in fn.args.args]
    if len(ref_params) != len(params):
        return None
    rename = dict(zip(ref_params, params))
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    body = [  # input validation (require_...) is the library's business, not the exercise's
        s for s in body if not (isinstance(s, ast.Expr) and ast.unparse(s.value).startswith("require_"))
    ]
    assigned = {
        n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    free = {
        n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    if free - set(ref_params) - assigned - ALLOWED_GLOBALS - set(dir(__builtins__)):
        return None
    for node in (n for s in body for n in ast.walk(s)):
        if isinstance(node, ast.Name) and node.id in rename:
            node.id = rename[node.id]
    return ast.unparse(ast.Module(body=body, type_ignores=[])).splitlines()


def solution_cell(name: str, variable: str, stub: str) -> tuple[str, str]:
    """The autograded-answer source for exercise `name` answered in `variable`, and its kind."""
    from helpers.course.exercises import _lookup

    ex = _lookup(name)
    if not ex.wants_function:
        value = f"{variable} = {ex.reference()!r}"
        return f"# {variable} = your number\n### BEGIN SOLUTION\n{value}\n### END SOLUTION", "value"
    start = stub.index(f"def {variable}(")  # the stub's signature and docstring stay; its body goes
    header = stub[start : stub.index("raise NotImplementedError", start)].rstrip()
    params = [a.arg for a in ast.parse(header + "\n    pass").body[0].args.args]
    body = _body_from_reference(ex.reference, params)
    if body is None:  # the reference uses helpers' internals: call it
        module, qualname = ex.reference.__module__, ex.reference.__qualname__
        body = [f"from {module} import {qualname} as reference", f"return reference({', '.join(params)})"]
    lines = [header, "    ### BEGIN SOLUTION", *("    " + b for b in body), "    ### END SOLUTION"]
    return "\n".join(lines), "function"


def _answer_cell(cells: list, at: int, variable: str) -> tuple[int, str] | None:
    """(index, text before the check) of the cell that defines `variable` for the check in cell `at`."""
    for i in (at, at - 1):
        source = cells[i].source.split("helpers.check(")[0] if i == at else cells[i].source
        if re.search(rf"^def {variable}\((.|\n)*?raise NotImplementedError", source, re.M) or re.search(
            rf"^{variable} = None\s*$", source, re.M
        ):
            return i, source
    return None


def make_source(notebook: Path) -> tuple[nbformat.NotebookNode, dict[str, int]]:
    """`notebook` with its exercises as nbgrader cells; the points of each exercise."""
    nb = nbformat.read(notebook, as_version=4)
    cells, points = [], {}
    for i, cell in enumerate(nb.cells):
        match = CHECK.search(cell.source) if cell.cell_type == "code" else None
        found = match and _answer_cell(nb.cells, i, match.group(2))
        if not found:
            cells.append(cell)
            continue
        name, variable = match.groups()
        j, stub = found
        if j < i:  # the stub had a cell of its own, already copied: take it back
            cells.pop()
        answer, kind = solution_cell(name, variable, stub)
        points[name] = POINTS[kind]
        answer_cell = nbformat.v4.new_code_cell(answer)
        answer_cell.metadata["nbgrader"] = _meta(f"{name}_answer", solution=True, grade=False)
        test = nbformat.v4.new_code_cell(
            f'helpers.check("{name}", {variable})\n'
            f'assert helpers.course.exercises.passes("{name}", {variable}), "{name}: not right yet"\n'
            "### BEGIN HIDDEN TESTS\n"
            f'assert helpers.course.exercises.passes("{name}", {variable}, '
            f"trials={HIDDEN_TRIALS}, seed={HIDDEN_SEED})\n"
            "### END HIDDEN TESTS"
        )
        test.metadata["nbgrader"] = _meta(f"{name}_tests", solution=False, grade=True, points=points[name])
        cells += [answer_cell, test]
    for cell in cells:
        if cell.cell_type == "code":  # nbgrader runs the notebook; no outputs in the assignment
            cell.outputs, cell.execution_count = [], None
    nb.cells = cells
    return nb, points


def nbgrader(*args: str, course: Path = COURSE) -> subprocess.CompletedProcess:
    """Run an nbgrader command in the course directory (nbgrader's own CLI, nothing else)."""
    command = [sys.executable, "-m", "nbgrader", *args]
    bin_dir = str(Path(sys.executable).parent)  # nbgrader runs `alembic` from PATH
    env = os.environ | {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run(command, cwd=course, env=env, check=True, capture_output=True, text=True)


def generate(prefixes: list[str], course: Path = COURSE) -> dict[str, dict[str, int]]:
    """Write the source notebooks and nbgrader's student release; {assignment: {exercise: points}}."""
    course.mkdir(parents=True, exist_ok=True)
    (course / "nbgrader_config.py").write_text(config(course), encoding="utf-8")
    made = {}
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if prefixes and path.name[:2] not in prefixes:
            continue
        nb, points = make_source(path)
        if not points:
            continue
        folder = course / "source" / path.stem
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / path.name)
        nbgrader("generate_assignment", path.stem, "--force", course=course)
        made[path.stem] = points
    return made


if __name__ == "__main__":
    for stem, points in generate(sys.argv[1:]).items():
        total = sum(points.values())
        print(f"{stem}: {len(points)} exercises, {total} points -> build/assignments/release/{stem}/")
