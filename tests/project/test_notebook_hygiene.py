"""What a reader sees on GitHub is what the code produces: executed, in order, no errors,
no local paths, in sync with the jupytext source, with the structure every notebook shares."""

import json
import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOURCES = sorted((ROOT / "notebooks" / "sources").glob("[0-9][0-9]_*.py"))
LOCAL_PATH = re.compile(r"/(root|home|tmp|work|Users)/|[A-Z]:\\\\Users")


def code_cells(path: Path) -> list[dict]:
    cells = json.loads(path.read_text())["cells"]
    return [c for c in cells if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def test_every_source_has_its_notebook_and_back():
    assert [p.stem for p in NOTEBOOKS] == [p.stem for p in SOURCES]
    assert NOTEBOOKS[0].stem == "00_start_here"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_code_cell_executed_in_order(nb):
    counts = [c["execution_count"] for c in code_cells(nb)]
    assert None not in counts, f"{nb.name}: unexecuted cells; run `make notebooks NB={nb.name[:2]}`"
    assert counts == list(range(1, len(counts) + 1)), f"{nb.name}: not run top to bottom in a fresh kernel"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_errors_and_no_local_paths_in_outputs(nb):
    for cell in code_cells(nb):
        for out in cell["outputs"]:
            assert out["output_type"] != "error", f"{nb.name}: an error output: {out.get('evalue')}"
            assert out.get("name") != "stderr" or "Warning" not in "".join(out["text"]), (
                f"{nb.name}: a warning in the output: {''.join(out['text'])[:200]}"
            )
            text = json.dumps(
                {k: v for k, v in out.get("data", {}).items() if not k.startswith("image/")}
            ) + "".join(out.get("text", ""))
            assert not LOCAL_PATH.search(text), f"{nb.name}: a local path in an output: {text[:300]}"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_clean_metadata_and_python3_kernel(nb):
    meta = json.loads(nb.read_text())["metadata"]
    assert meta["kernelspec"]["name"] == "python3"
    assert set(meta) <= {"kernelspec", "language_info", "widgets"}, f"{nb.name}: extra metadata {set(meta)}"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_matches_its_source(nb):
    built, source = jupytext.read(nb), jupytext.read(nb.parent / "sources" / f"{nb.stem}.py")
    cells = lambda book: [(c.cell_type, c.source.strip()) for c in book.cells]
    assert cells(built) == cells(source), f"{nb.name} is out of date: run `make notebooks NB={nb.name[:2]}`"


@pytest.mark.parametrize("nb", NOTEBOOKS[1:], ids=lambda p: p.stem)
def test_every_chapter_has_goals_verdict_summary_and_checked_exercises(nb):
    book = jupytext.read(nb)
    markdown = "\n".join(c.source for c in book.cells if c.cell_type == "markdown")
    code = "\n".join(c.source for c in book.cells if c.cell_type == "code")
    assert markdown.startswith(f"# {nb.name[:2]}"), "the first cell is the title"
    for heading in ("## Verdict", "## Exercises"):
        assert heading in markdown, f"{nb.name} lacks a '{heading}' section"
    assert "## Takeaways" in markdown or "## Summary" in markdown, f"{nb.name} lacks its takeaways"
    order = ["## Verdict", "## Takeaways", "## Exercises", "## Going further", "## Further reading"]
    found = [markdown.index(h) for h in order if h in markdown]
    assert found == sorted(found), f"{nb.name}: the sections should come in the order {order}"
    assert "You will learn" in markdown or "you will learn" in markdown
    assert code.count("check(") >= 2, f"{nb.name} needs at least two checked exercises"
    assert "NotImplementedError" in code, f"{nb.name} needs an exercise where the learner writes code"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_ignored_outputs_assert_their_claim(nb):
    """A cell whose output nbval ignores (timing, training) must assert what it shows."""
    for cell in code_cells(nb):
        source = "".join(cell["source"])
        if "NBVAL_IGNORE_OUTPUT" in source:
            assert "assert" in source, (
                f"{nb.name}: an NBVAL_IGNORE_OUTPUT cell asserts nothing:\n{source[:300]}"
            )


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_widget_has_a_static_image_and_valid_state(nb):
    """GitHub, nbviewer and VS Code draw no widgets: each widget output carries a PNG of its
    figure, and the notebook's widget metadata has the `state` key GitHub's renderer needs."""
    book = json.loads(nb.read_text())
    views = [
        (cell["id"], out["data"])
        for cell in code_cells(nb)
        for out in cell["outputs"]
        if WIDGET_VIEW in out.get("data", {})
    ]
    for cell_id, data in views:
        assert "image/png" in data, f"{nb.name} {cell_id}: a widget output with no static image"
    if views:
        state = book["metadata"]["widgets"][WIDGET_STATE]["state"]
        for cell_id, data in views:
            assert data[WIDGET_VIEW]["model_id"] in state, f"{nb.name} {cell_id}: widget not in saved state"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_progress_is_saved_finished(nb):
    """A saved notebook shows training progress at its end ("Adam steps: 200/200"), never at 0%."""
    for cell in code_cells(nb):
        for out in cell["outputs"]:
            text = "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
            assert "0%|" not in text, f"{nb.name} {cell['id']}: a progress bar saved at its first frame"
            for done, total in re.findall(r"Adam steps: (\d+)/(\d+)", text):
                assert done == total, f"{nb.name} {cell['id']}: progress saved at {done}/{total}"


GENERIC_ALT = re.compile(r"^(<Figure|Figure$|image$|No description)")
DIAGRAM = re.compile(r": a diagram\. \S.{40,}")  # a diagram panel, then more than a few words


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_says_what_it_plots(nb):
    """Each image output carries a specific text description (alt text for screen readers):
    what each panel plots, from its labels (helpers.course.style.describe)."""
    for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
        for out in cell.get("outputs", []):
            if "image/png" not in out.get("data", {}):
                continue
            alt = out.get("metadata", {}).get("image/png", {}).get("alt", "")
            assert alt and not GENERIC_ALT.match(alt), f"cell {i}: image without a description: {alt!r}"
            # names what is plotted against what, or, for a diagram, what it shows (a finding after it)
            specific = len(alt) >= 60 and (" against " in alt or DIAGRAM.search(alt) is not None)
            assert specific, f"{nb.name} cell {i}: too vague a description: {alt!r}"


LOOK = (
    r"\[((?:thick )?(?:solid|dashed|dash-dot|dotted) line(?:, [a-z-]+)?|[a-z-]+|shaded area|nothing drawn)\]"
)
ENTRY = re.compile(rf"(.*?) {LOOK}(?:; |\))")


def legend_looks(alt: str) -> list[list[str]]:
    """Per panel with a legend, how each entry looks apart from its colour, read from the alt text
    that helpers.course.style.describe writes: "(2 shown: RNN [solid line]; LSTM [dashed line])"."""
    panels = []
    for shown in re.finditer(r"\((\d+) shown: ", alt):
        looks, at = [], shown.end()
        for _ in range(int(shown[1])):
            entry = ENTRY.match(alt, at)
            assert entry, f"a legend entry without its look at {alt[at : at + 80]!r}"
            looks.append(entry[2])
            at = entry.end()
        panels.append(looks)
    return panels


def test_legend_looks_are_read_from_a_description():
    alt = (
        "Figure with 1 panel. a: lines of y against x (4 shown: W = [[0.9, 5], [0, 1]] [solid line]; "
        "f: σ(b) [dashed line, circles]; g [solid line, up-triangles]; band [shaded area])."
    )
    assert legend_looks(alt) == [
        ["solid line", "dashed line, circles", "solid line, up-triangles", "shaded area"]
    ]


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_figure_tells_its_lines_apart_by_colour_alone(nb):
    """Colour-blind readers: in every committed figure, no two legend entries of one panel share
    line style, marker and width (or both are bars, or shaded areas)."""
    for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
        for out in cell.get("outputs", []):
            alt = out.get("metadata", {}).get("image/png", {}).get("alt", "")
            for looks in legend_looks(alt):
                same = sorted({look for look in looks if looks.count(look) > 1})
                assert not same, f"{nb.name} cell {i}: only colour tells apart entries drawn as {same}: {alt}"
