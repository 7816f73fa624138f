"""Graded assignments with nbgrader, generated from the course's own notebooks.

    python tools/assignments.py            # every notebook with exercises
    python tools/assignments.py 01 04      # only these

writes an nbgrader course in build/assignments/ and runs `nbgrader generate_assignment` (in
this process, through nbgrader's Python API):

* source/NN_name/NN_name.ipynb: the built notebook, its exercises turned into graded cells.
  The cell that defines the learner's answer (a stub that raises NotImplementedError, or
  `answer = None`, a comment after either allowed) becomes an *autograded answer*: the
  reference solution between `### BEGIN SOLUTION` and `### END SOLUTION`. The
  `helpers.check(...)` line after it becomes an *autograder test* cell worth POINTS (2 for a
  function, 1 for a number): it prints the learner's verdict, asserts `passes(...)` on the
  exercise's own draws, and, in a hidden block the students never see, on HIDDEN_TRIALS more
  draws under another seed.
* release/NN_name/NN_name.ipynb: what students get, written by nbgrader: no solution.

The tests are the same references `helpers.check` uses (helpers.course.exercises). The
reference solutions come from the registered reference functions (a def's code, inlined when
it needs only torch and math, else a call into helpers; a lambda's expression, with the names it
takes from its module imported from there) or values. A `helpers.check` call that makes no
graded exercise, or an exercise with no solution, stops the command with the notebook, the cell
and the reason. Teachers then collect
submissions into submitted/<student>/NN_name/ and run `nbgrader autograde NN_name` in
build/assignments/ (nbgrader's own commands; see the README's teacher's guide).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
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
CALLS = re.compile(r"^\s*helpers\.check\(", re.M)  # every check call a notebook makes
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


def _definition(reference) -> ast.FunctionDef | ast.Lambda:
    """The reference's definition, parsed: its `def`, or the `lambda` it was made from.

    `inspect.getsource` of a lambda is not a definition but the whole lines it sits on: for
    notebook 06's `reference=lambda b, n, d: counted_flops(MODELS[0], b, n, d),` that line,
    which parses as an assignment (or not at all, when the lambda opens a call). So a lambda is
    found in its module's source by its first line and its parameters."""
    code = getattr(reference, "__code__", None)
    if code is None or not inspect.getmodule(reference):
        raise ValueError(f"{reference!r} is neither a def nor a lambda in a module")
    if reference.__name__ != "<lambda>":
        node = ast.parse(textwrap.dedent(inspect.getsource(reference))).body[0]
        if not isinstance(node, ast.FunctionDef):
            raise ValueError(f"the source of {reference.__qualname__} is not a def")
        return node
    params = list(code.co_varnames[: code.co_argcount])
    tree = ast.parse(inspect.getsource(inspect.getmodule(reference)))
    found = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Lambda)
        and n.lineno == code.co_firstlineno
        and [a.arg for a in n.args.args] == params
    ]
    if len(found) != 1:
        raise ValueError(
            f"{len(found)} lambdas of ({', '.join(params)}) on line {code.co_firstlineno} of "
            f"{reference.__module__}: make the reference a def"
        )
    return found[0]


def _body_from_reference(reference, params: list[str]) -> list[str] | None:
    """The reference function's body, renamed to the stub's parameters; None when it needs helpers.

    A lambda's body is its expression, returned; the names it takes from its module
    (notebook 06: `counted_flops`, `MODELS`) are imported from there at the top of the body."""
    fn = _definition(reference)
    ref_params = [a.arg for a in fn.args.args]
    if len(ref_params) != len(params) or fn.args.vararg or fn.args.kwonlyargs or fn.args.kwarg:
        return None
    rename = dict(zip(ref_params, params))
    body = [ast.Return(fn.body)] if isinstance(fn, ast.Lambda) else fn.body
    body = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    body = [  # input validation (require_...) is the library's business, not the exercise's
        s for s in body if not (isinstance(s, ast.Expr) and ast.unparse(s.value).startswith("require_"))
    ]
    assigned = {
        n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    free = {
        n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    needs = free - set(ref_params) - assigned - ALLOWED_GLOBALS - set(dir(builtins))
    imports = []
    if needs and isinstance(fn, ast.Lambda):  # the lambda's module is where its names live
        if not needs <= set(reference.__globals__) or needs & set(params):
            return None
        imports = [f"from {reference.__module__} import {', '.join(sorted(needs))}"]
    elif needs:
        return None
    for node in (n for s in body for n in ast.walk(s)):
        if isinstance(node, ast.Name) and node.id in rename:
            node.id = rename[node.id]
    return imports + ast.unparse(ast.Module(body=body, type_ignores=[])).splitlines()


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
        if not qualname.isidentifier():  # a lambda, or a def inside a function: nothing to import
            raise ValueError(
                f"exercise {name!r}: its reference {module}.{qualname} cannot be inlined (it needs "
                "names its module cannot give) nor imported; make it a module-level def"
            )
        body = [f"from {module} import {qualname} as reference", f"return reference({', '.join(params)})"]
    lines = [header, "    ### BEGIN SOLUTION", *("    " + b for b in body), "    ### END SOLUTION"]
    return "\n".join(lines), "function"


def _answer_cell(cells: list, at: int, variable: str) -> tuple[int, str] | None:
    """(index, text before the check) of the cell that defines `variable` for the check in cell `at`."""
    for i in (at, at - 1):
        source = cells[i].source.split("helpers.check(")[0] if i == at else cells[i].source
        if re.search(rf"^def {variable}\((.|\n)*?raise NotImplementedError", source, re.M) or re.search(
            rf"^{variable} = None\s*(#.*)?$", source, re.M
        ):
            return i, source
    return None


def make_source(notebook: Path) -> tuple[nbformat.NotebookNode, dict[str, int]]:
    """`notebook` with its exercises as nbgrader cells; the points of each exercise.

    Every `helpers.check(...)` call becomes a graded exercise, or this raises a ValueError that
    names the notebook and the cell: an exercise is never left out of the assignment silently."""
    nb = nbformat.read(notebook, as_version=4)
    cells, points = [], {}
    for i, cell in enumerate(nb.cells):
        calls = len(CALLS.findall(cell.source)) if cell.cell_type == "code" else 0
        match = CHECK.search(cell.source) if calls else None
        found = match and _answer_cell(nb.cells, i, match.group(2))
        if calls and (calls > 1 or not found):
            raise ValueError(
                f"{notebook.name}, cell {i}: {calls} helpers.check call(s) that make no graded exercise; "
                'an exercise is one `helpers.check("name", variable)` line, after (in its cell or the '
                "cell before) a stub `def variable(...)` that raises NotImplementedError or `variable = None`"
            )
        if not found:
            cells.append(cell)
            continue
        name, variable = match.groups()
        j, stub = found
        if j < i:  # the stub had a cell of its own, already copied: take it back
            cells.pop()
        try:
            answer, kind = solution_cell(name, variable, stub)
        except Exception as e:
            raise ValueError(f"{notebook.name}, cell {i}: no solution for exercise {name!r}: {e}") from e
        points[name] = POINTS[kind]
        answer_cell = nbformat.v4.new_code_cell(answer, id=f"{name}-answer"[:64])  # ids: the same every run
        answer_cell.metadata["nbgrader"] = _meta(f"{name}_answer", solution=True, grade=False)
        test = nbformat.v4.new_code_cell(
            id=f"{name}-tests"[:64],
            source=(
                f'helpers.check("{name}", {variable})\n'
                f'assert helpers.course.exercises.passes("{name}", {variable}), "{name}: not right yet"\n'
                "### BEGIN HIDDEN TESTS\n"
                f'assert helpers.course.exercises.passes("{name}", {variable}, '
                f"trials={HIDDEN_TRIALS}, seed={HIDDEN_SEED})\n"
                "### END HIDDEN TESTS"
            ),
        )
        test.metadata["nbgrader"] = _meta(f"{name}_tests", solution=False, grade=True, points=points[name])
        cells += [answer_cell, test]
    for cell in cells:
        if cell.cell_type == "code":  # nbgrader runs the notebook; no outputs in the assignment
            cell.outputs, cell.execution_count = [], None
    nb.cells = cells
    return nb, points


def _path_with_this_python() -> str:
    """PATH with this interpreter's bin folder first: nbgrader runs `alembic` from PATH when it
    creates a gradebook, and `make` runs .venv/bin/python without activating .venv."""
    return str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")


@contextlib.contextmanager
def _this_python_on_path():
    old = os.environ.get("PATH")
    os.environ["PATH"] = _path_with_this_python()
    try:
        yield
    finally:
        if old is None:
            del os.environ["PATH"]
        else:
            os.environ["PATH"] = old


def nbgrader(*args: str, course: Path = COURSE) -> subprocess.CompletedProcess:
    """Run an nbgrader command in the course directory (nbgrader's own CLI, nothing else);
    its output in the error when it fails."""
    command = [sys.executable, "-m", "nbgrader", *args]
    env = os.environ | {"PATH": _path_with_this_python()}
    done = subprocess.run(command, cwd=course, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done


def generate(prefixes: list[str], course: Path = COURSE) -> dict[str, dict[str, int]]:
    """Write the source notebooks and nbgrader's student release; {assignment: {exercise: points}}.

    nbgrader's `generate_assignment` runs in this process, through nbgrader's own Python API
    (what its formgrader calls): the same command as `nbgrader generate_assignment NN_name
    --force`, without a new interpreter importing nbgrader for each notebook (5 s each)."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    course.mkdir(parents=True, exist_ok=True)
    (course / "nbgrader_config.py").write_text(config(course), encoding="utf-8")
    settings = Config()
    settings.CourseDirectory.root = str(course.resolve())
    settings.CourseDirectory.db_url = "sqlite:///" + str(course.resolve() / "gradebook.db")
    api = NbGraderAPI(config=settings)
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
        with _this_python_on_path():
            result = api.generate_assignment(path.stem, force=True, create=True)
        if not result["success"]:
            raise RuntimeError(
                f"nbgrader generate_assignment {path.stem} failed:\n{result.get('log', '')}"
                f"{result.get('error', '')}"
            )
        made[path.stem] = points
    return made


if __name__ == "__main__":
    made = generate(sys.argv[1:])
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if sys.argv[1:] and path.name[:2] not in sys.argv[1:]:
            continue
        if path.stem not in made:
            print(f"{path.stem}: no exercise, no assignment")
            continue
        points = made[path.stem]
        total = sum(points.values())
        print(
            f"{path.stem}: {len(points)} exercises, {total} points -> build/assignments/release/{path.stem}/"
        )
