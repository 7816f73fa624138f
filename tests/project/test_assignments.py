"""`make assignments`: every notebook's assignment generates, its reference solutions pass
the hidden tests, its release shows no solution; and end to end with nbgrader itself on
notebooks 01 and 04: generate the assignment, submit it three times, autograde. The reference
solutions get full marks, the untouched release gets zero, and a transposed weight in one
answer loses exactly the points of that exercise."""

import ast
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import assignments  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ASSIGNMENTS = ("01_recurrence", "04_attention")
ANSWER = "rnn_step_answer"  # the answer cell that gets a wrong solution
CHECK_CALL = re.compile(r"""helpers\.check\(\s*["'](\w+)["']""")


def read(course: Path, kind: str, stem: str) -> nbformat.NotebookNode:
    return nbformat.read(course / kind / stem / f"{stem}.ipynb", as_version=4)


@pytest.fixture(scope="module")
def whole_course(tmp_path_factory):
    """One course folder that every notebook's assignment is generated into, as `make assignments` does."""
    return tmp_path_factory.mktemp("whole_course")


def notebook_imports(nb: nbformat.NotebookNode) -> dict:
    """The names the notebook's own import lines bind (what its answer cells can use), and helpers."""
    namespace: dict = {}
    for cell in nb.cells:
        if cell.cell_type != "code" or "setup" in cell.metadata.get("tags", []):
            continue
        for statement in ast.parse(cell.source).body:
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                exec(compile(ast.Module([statement], []), "<imports>", "exec"), namespace)
    return namespace


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_every_notebook_makes_an_assignment_whose_solutions_pass_the_hidden_tests(path, whole_course):
    """`make assignments` on this notebook: every `helpers.check` becomes a graded exercise (at
    least two, one a function, as docs/CONTRIBUTING.md asks), nbgrader writes the release, and each
    reference solution, run with only the notebook's imports, passes the hidden tests' draws."""
    import helpers.course.exercises as exercises

    made = assignments.generate([path.name[:2]], course=whole_course)
    english = nbformat.read(path, as_version=4)
    checked = [m for c in english.cells if c.cell_type == "code" for m in CHECK_CALL.findall(c.source)]
    assert path.stem in made, f"{path.name}: no assignment (no exercise found)"
    points = made[path.stem]
    assert sorted(points) == sorted(checked), f"{path.name}: exercises left out of the assignment"
    assert len(points) >= 2 and assignments.POINTS["function"] in points.values(), points
    source, release = read(whole_course, "source", path.stem), read(whole_course, "release", path.stem)
    text = "\n".join(c.source for c in release.cells)
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text, f"{path.name}: the release"
    namespace = notebook_imports(english)
    for cell in source.cells:
        grading = cell.metadata.get("nbgrader", {})
        if not grading.get("solution"):
            continue
        name = grading["grade_id"].removesuffix("_answer")
        before = set(namespace)
        exec(cell.source, namespace)
        (variable,) = set(namespace) - before  # the learner's answer, the one name the cell defines
        answer = namespace.pop(variable)
        assert exercises.passes(name, answer), f"{path.name}: the solution of {name} is wrong"
        hidden = {"trials": assignments.HIDDEN_TRIALS, "seed": assignments.HIDDEN_SEED}
        assert exercises.passes(name, answer, **hidden), f"{path.name}: {name} fails the hidden tests"


def submit(course: Path, student: str, assignment: str, nb: nbformat.NotebookNode) -> None:
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{assignment}.ipynb")


def filled(course: Path, assignment: str) -> nbformat.NotebookNode:
    """The student release with every answer cell holding the reference solution."""
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    source = nbformat.read(course / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    solutions = {c.metadata.nbgrader["grade_id"]: c.source for c in source.cells if "nbgrader" in c.metadata}
    for cell in release.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = solutions[cell.metadata.nbgrader["grade_id"]]
    return release


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """{(student, assignment): {grade_id: (score, max_score)}} after nbgrader autograde."""
    course = tmp_path_factory.mktemp("course")
    points = assignments.generate([a[:2] for a in ASSIGNMENTS], course=course)
    assert set(points) == set(ASSIGNMENTS)
    for assignment in ASSIGNMENTS:
        release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
        submit(course, "unfilled", assignment, release)
        submit(course, "reference", assignment, filled(course, assignment))
        wrong = filled(course, assignment)
        if assignment == "01_recurrence":  # the classic slip: W_hh instead of its transpose
            cell = next(c for c in wrong.cells if c.metadata.get("nbgrader", {}).get("grade_id") == ANSWER)
            header = cell.source.split("### BEGIN SOLUTION")[0]  # the stub's signature
            cell.source = header + "return torch.tanh(x_t @ W_xh.T + h_prev @ W_hh + b)"
        submit(course, "transposed", assignment, wrong)
        assignments.nbgrader("autograde", assignment, "--create", "--force", course=course)
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for assignment in ASSIGNMENTS:
            for student in ("unfilled", "reference", "transposed"):
                nb = gb.find_submission_notebook(assignment, assignment, student)
                scores[student, assignment] = {g.name: (g.score, g.max_score) for g in nb.grades}
    shutil.rmtree(course / "autograded", ignore_errors=True)
    return course, points, scores


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_release_has_no_solution_and_no_hidden_test(assignment, graded):
    course, points, _ = graded
    read = lambda kind: nbformat.read(course / kind / assignment / f"{assignment}.ipynb", as_version=4)
    source, release = read("source"), read("release")
    answers = [c for c in source.cells if c.metadata.get("nbgrader", {}).get("solution")]
    assert len(answers) == len(points[assignment]) >= 3
    text = "\n".join(c.source for c in release.cells)
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text and "seed=2024" not in text
    stubs = {c.metadata.nbgrader["grade_id"]: c.source for c in release.cells if "nbgrader" in c.metadata}
    for cell in answers:  # each answer cell: the stub's signature, no line of the solution
        solution = cell.source.split("### BEGIN SOLUTION")[1].split("### END SOLUTION")[0]
        stub = stubs[cell.metadata.nbgrader["grade_id"]]
        assert "raise NotImplementedError" in stub
        for line in filter(None, (x.strip() for x in solution.splitlines())):
            assert line not in stub, f"{assignment}: the release shows the solution line {line!r}"


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_reference_solutions_get_full_marks_and_the_release_zero(assignment, graded):
    _, points, scores = graded
    total = sum(points[assignment].values())
    reference = scores["reference", assignment]
    assert sum(s for s, _ in reference.values()) == sum(m for _, m in reference.values()) == total
    assert sum(s for s, _ in scores["unfilled", assignment].values()) == 0


@pytest.mark.slow
def test_a_transposed_weight_loses_exactly_that_exercise(graded):
    _, points, scores = graded
    got = scores["transposed", "01_recurrence"]
    assert got["rnn_step_tests"] == (0, points["01_recurrence"]["rnn_step"])
    others = {k: v for k, v in got.items() if k != "rnn_step_tests"}
    assert all(score == full for score, full in others.values()), others
    assert sum(s for s, _ in scores["transposed", "04_attention"].values()) == sum(
        points["04_attention"].values()
    )


def _notebook(tmp_path: Path, *sources: str) -> Path:
    path = tmp_path / "09_new.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources]), path)
    return path


def test_a_check_that_makes_no_exercise_stops_the_command_naming_the_cell(tmp_path):
    no_stub = _notebook(tmp_path, "import helpers", 'helpers.check("rnn_step", my_rnn_step)')
    with pytest.raises(ValueError, match=r"09_new.ipynb, cell 1: 1 helpers.check"):
        assignments.make_source(no_stub)
    two = "def f(x):\n    raise NotImplementedError\n\n\n" + 'helpers.check("rnn_step", f)\n' * 2
    with pytest.raises(ValueError, match=r"cell 0: 2 helpers.check"):
        assignments.make_source(_notebook(tmp_path, two))


double = lambda x: 2 * x  # noqa: E731  (a lambda reference, as notebook 06 registers them)
pair = (lambda x: x + 1, lambda x: x - 1)  # two on one line: which one is the reference?
uses_module = lambda x: _notebook.__name__ + str(x)  # noqa: E731


def test_a_lambda_reference_is_inlined_and_its_module_names_imported():
    assert assignments._body_from_reference(double, ["y"]) == ["return 2 * y"]
    assert assignments._body_from_reference(uses_module, ["y"]) == [
        f"from {__name__} import _notebook",
        "return _notebook.__name__ + str(y)",
    ]
    with pytest.raises(ValueError, match="2 lambdas of \\(x\\) on line .*make the reference a def"):
        assignments._body_from_reference(pair[0], ["y"])
