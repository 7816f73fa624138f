"""Every command the README names works on every notebook it acts on, so that a new notebook or
exercise cannot break one silently: `make translations` (its `status` and `check`), `make colab`
(run twice, it changes nothing), `make benchmark` and `make test-latest` (a dry run over the whole
course, and the benchmark for real on notebook 00). `make assignments` and `make slides` have
their own files: test_assignments.py and test_slides.py."""

import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]
import benchmark  # noqa: E402
import colab  # noqa: E402
import readme  # noqa: E402
import test_latest  # noqa: E402
import translations  # noqa: E402

from helpers.course.languages import TRANSLATED  # noqa: E402

SOURCES = sorted((ROOT / "notebooks" / "sources").glob("[0-9][0-9]_*.py"))
STEMS = [s.stem for s in SOURCES]


def test_every_make_command_the_readme_names_is_a_makefile_target():
    readme, makefile = (ROOT / "README.md").read_text(), (ROOT / "Makefile").read_text()
    named = set(re.findall(r"(?:`|^)make ([a-z][\w-]*)", readme, re.M))  # in code, not "make a ..."
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.M))
    assert named and not named - targets, f"the README names missing targets: {named - targets}"
    for tool in re.findall(r"\btools/(\w+\.py)", makefile):
        assert (ROOT / "tools" / tool).exists(), f"the Makefile runs tools/{tool}, which is not there"


def test_the_readmes_verdicts_are_the_ledgers():
    """The course table's verdict column is rendered from helpers.course.ledger, not kept by hand."""
    assert readme.main(["--check"]) == 0, "run python tools/readme.py"
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = text.replace("C2: eigenvalue < 1 vanishes", "C2: eigenvalues decide", 1)
    assert stale != text and readme.with_verdicts(stale) == text  # a hand edit is written over
    with pytest.raises(SystemExit, match="course table has rows"):
        readme.with_verdicts(text.replace("| [05 ", "| [5 ", 1))


def test_every_make_command_the_teachers_guide_names_is_a_makefile_target():
    guide, makefile = (ROOT / "docs" / "teaching.md").read_text(), (ROOT / "Makefile").read_text()
    named = set(re.findall(r"(?:`|^)make ([a-z][\w-]*)", guide, re.M))
    assert {"slides", "assignments"} <= named <= set(re.findall(r"^([a-z][\w-]*):", makefile, re.M))


# --------------------------------------------------------------------------- make translations
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("command, clean", [("status", "every cell translated"), ("check", "no fault")])
def test_translations_status_and_check_pass_in_every_language(command, clean, lang, capsys):
    code = translations.main([command, lang])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith(clean), f"tools/translations.py {command} {lang}:\n{out}"


def test_translations_refuses_an_unknown_language():
    with pytest.raises(SystemExit, match="unknown language"):
        translations.main(["status", "xx"])


# --------------------------------------------------------------------------- make colab
@pytest.mark.parametrize("stem", STEMS, ids=lambda s: s[:2])
def test_make_colab_changes_nothing_and_then_nothing_again(stem, tmp_path, monkeypatch, capsys):
    """`python tools/colab.py NN`, twice, on a copy of the notebook's source and built .ipynb:
    the committed files are what it writes, and its second run writes the same bytes."""
    (tmp_path / "notebooks" / "sources").mkdir(parents=True)
    files = [Path("notebooks/sources") / f"{stem}.py", Path("notebooks") / f"{stem}.ipynb"]
    for f in files:
        shutil.copy(ROOT / f, tmp_path / f)
    for name, value in {"ROOT": tmp_path, "NOTEBOOKS": tmp_path / "notebooks", "DOCS": []}.items():
        monkeypatch.setattr(colab, name, value)
    monkeypatch.setattr(colab, "SOURCES", tmp_path / "notebooks" / "sources")
    runs = []
    for _ in range(2):
        assert colab.main([stem[:2]]) == 0
        runs.append({f: (tmp_path / f).read_bytes() for f in files})
    out = capsys.readouterr().out
    assert runs[1] == runs[0], f"{stem}: a second `make colab` rewrote it again:\n{out}"
    assert runs[0] == {f: (ROOT / f).read_bytes() for f in files}, f"{stem}: run `make colab`:\n{out}"
    assert colab.main(["--check", stem[:2]]) == 0


def test_make_colab_changes_no_doc_twice():
    cfg = colab.config()
    for doc in colab.DOCS:
        text = doc.read_text(encoding="utf-8")
        once = colab.rewrite_docs(text, cfg)
        assert colab.rewrite_docs(once, cfg) == once == text, f"{doc.name}: run `make colab`"


# --------------------------------------------------------------------------- make benchmark
def test_benchmark_dry_run_names_every_notebook_and_widget(capsys):
    assert benchmark.main(["--dry-run"]) == 0
    out = capsys.readouterr().out
    for stem in STEMS:
        assert stem in out, f"make benchmark would not time {stem}"
    from helpers.course.widgets import explorers

    for name in explorers():
        assert name in out, f"make benchmark would not time the widget {name}"


@pytest.mark.slow
def test_benchmark_times_notebook_00_and_its_widget(capsys):
    """The real thing on the quickest notebook: a fresh kernel, its peak memory, its widget."""
    assert benchmark.main(["--only", "00"]) == 0
    out = capsys.readouterr().out
    row = re.search(r"^\| 00_start_here \| ([\d.]+) \| (\d+) \|$", out, re.M)
    assert row and float(row[1]) > 0 and int(row[2]) > 0, out
    assert re.search(r"^\| explore_softmax \| \d+ \|", out, re.M), out
    assert "01_recurrence" not in out and "explore_sequential_cost" not in out, "--only 00 ran more"


@pytest.mark.parametrize("argv", [["--only", "99"], ["--only"], ["--bogus"], ["--only", "00", "--readme"]])
def test_benchmark_refuses_what_it_cannot_do(argv):
    with pytest.raises(SystemExit):
        benchmark.main(argv)


# --------------------------------------------------------------------------- make test-latest
def test_test_latest_dry_run_reads_every_source_and_names_the_unit_tests(capsys):
    """The kernel check and every notebook's source read, nothing executed (the notebooks run
    under nbval; the real thing needs .venv-latest, which `make test-latest` installs)."""
    assert test_latest.main(["--dry-run"]) == 0
    out = capsys.readouterr().out
    for stem in STEMS:
        assert re.search(rf"^{stem} +would run its \d+ cells$", out, re.M), f"{stem} missing:\n{out}"
    assert "would run: -m pytest tests" in out
    assert test_latest.sources(["00"]) == SOURCES[:1]


@pytest.mark.parametrize("argv", [["--only", "99"], ["--only"], ["--bogus"]])
def test_test_latest_refuses_what_it_cannot_do(argv):
    with pytest.raises(SystemExit):
        test_latest.main(argv)
