"""Benchmark the course: every notebook in a fresh kernel, and every widget redraw.

    python tools/benchmark.py              # prints Markdown tables
    python tools/benchmark.py --readme     # ... and writes them into README.md
    python tools/benchmark.py --only 00    # only notebook 00 and its widgets (not with --readme)
    python tools/benchmark.py --dry-run    # name the notebooks and widgets it would time; run nothing

Per notebook: wall time to execute top to bottom and the kernel's peak memory.
Per widget: median time of a redraw, setting each control to a few values
(`helpers.course.widgets.sample_values`), in this process (no browser). Browser redraw times
come from `artifacts/browser_redraw.json` when the browser tests have written it.
"""

import json
import re
import statistics
import sys
import time
from pathlib import Path

import nbformat
from build_notebooks import execute

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"notebook_s": 20.0, "course_s": 90.0, "redraw_ms": 100.0, "browser_redraw_ms": 200.0}
NOTEBOOK_LIMITS = {"07": 30.0}  # live training takes longer
PEAK_RSS = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"


def run_notebook(path: Path) -> tuple[float, float]:
    """(seconds, peak MiB) of executing `path` in a fresh python3 kernel."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PEAK_RSS))
    start = time.perf_counter()
    execute(nb, path.parent)
    seconds = time.perf_counter() - start
    kib = int(nb.cells[-1].outputs[0]["text"])  # Linux reports ru_maxrss in KiB
    return seconds, kib / 1024


def widget_factories(prefixes: list[str] = ()) -> dict:
    """The registered explorer factories by name; only those of notebooks `prefixes` when given
    (an explorer belongs to the notebook whose module, helpers/notebooks/nbNN_*.py, registers it)."""
    from helpers.course.widgets import explorers

    def notebook(factory) -> str:
        module = factory.__module__.rsplit(".", 1)[-1]
        return module[2:4] if re.fullmatch(r"nb\d\d_\w+", module) else ""

    return {
        name: factory
        for name, factory in sorted(explorers().items())
        if not prefixes or notebook(factory) in prefixes
    }


def widget_redraws(prefixes: list[str] = ()) -> dict[str, list[float]]:
    """Redraw times (ms) of the registered explorers (widget_factories), in the course's style
    (as a notebook draws)."""
    from helpers.course.style import use_style
    from helpers.course.widgets import sample_values

    use_style()
    times = {}
    for name, factory in widget_factories(prefixes).items():
        explorer, samples = factory(), []
        for control in explorer.controls.values():
            start_value = control.value
            for value in sample_values(control) + [start_value]:
                control.value = value
                samples.append(explorer.last_redraw_s * 1000)
        times[name] = samples
    return times


def update_readme(table: str, seconds: dict[str, float]) -> None:
    """Write the tables between the README's benchmark markers, and each notebook's run time
    into the last column of its row in the course map."""
    readme = ROOT / "README.md"
    text = re.sub(
        r"(<!-- benchmark:start -->\n).*?(<!-- benchmark:end -->)",
        lambda m: m.group(1) + table + m.group(2),
        readme.read_text(),
        flags=re.S,
    )
    for stem, s in seconds.items():
        text = re.sub(rf"^(\| \[{stem[:2]} .*\|)[^|]*(\|)$", rf"\g<1> {s:.0f} s \2", text, flags=re.M)
    readme.write_text(text)


def parse(argv: list[str]) -> tuple[list[str], bool, bool]:
    """(notebook prefixes after --only, --dry-run, --readme); SystemExit on an unknown option or
    notebook, and on --readme with --only (the README's tables are of the whole course)."""
    args = list(argv)
    dry_run, readme = "--dry-run" in args, "--readme" in args
    args = [a for a in args if a not in ("--dry-run", "--readme")]
    only = []
    if "--only" in args:
        at = args.index("--only")
        args, only = args[:at], args[at + 1 :]
        if not only:
            raise SystemExit("--only needs notebook numbers, e.g. --only 00 04")
    unknown = args + sorted(set(only) - {p.name[:2] for p in ROOT.glob("notebooks/[0-9][0-9]_*.ipynb")})
    if unknown:
        raise SystemExit(f"unknown argument or notebook: {' '.join(unknown)}\n{__doc__}")
    if only and readme:
        raise SystemExit("--readme writes the whole course's tables: leave out --only")
    return only, dry_run, readme


def main(argv: list[str] | None = None) -> int:
    only, dry_run, readme = parse(sys.argv[1:] if argv is None else argv)
    lines, seconds_by_notebook = [], {}

    def out(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    notebooks = [
        p for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) if not only or p.name[:2] in only
    ]
    if dry_run:
        out("would time the notebooks: " + ", ".join(p.stem for p in notebooks))
        out("and the widgets: " + ", ".join(widget_factories(only)))
        return 0
    out("| notebook | wall time (s) | peak memory (MiB) |\n|---|---:|---:|")
    total, slow = 0.0, []
    for path in notebooks:
        seconds, mib = run_notebook(path)
        total += seconds
        seconds_by_notebook[path.stem] = seconds
        limit = NOTEBOOK_LIMITS.get(path.name[:2], TARGETS["notebook_s"])
        slow += [path.stem] if seconds > limit else []
        out(f"| {path.stem} | {seconds:.1f} | {mib:.0f} |")
    out(f"| **all {len(notebooks)}** | **{total:.1f}** | |\n")
    browser_file = ROOT / "artifacts" / "browser_redraw.json"
    browser = json.loads(browser_file.read_text()) if browser_file.exists() else {}
    out("| widget | redraws | median redraw (ms) | max (ms) | median in the browser (ms) |")
    out("|---|---:|---:|---:|---:|")
    for name, ms in widget_redraws(only).items():
        in_browser = browser.get(name)
        shown = f"{statistics.median(in_browser):.0f}" if in_browser else "not measured"
        slow += [name] if statistics.median(ms) > TARGETS["redraw_ms"] else []
        if in_browser and statistics.median(in_browser) > TARGETS["browser_redraw_ms"]:
            slow.append(f"{name} (browser)")
        out(f"| {name} | {len(ms)} | {statistics.median(ms):.0f} | {max(ms):.0f} | {shown} |")
    slow += ["whole course"] if total > TARGETS["course_s"] else []
    out(
        f"\nTargets: each notebook <= {TARGETS['notebook_s']:.0f} s "
        f"(07: {NOTEBOOK_LIMITS['07']:.0f} s), course <= "
        f"{TARGETS['course_s']:.0f} s, redraw median <= {TARGETS['redraw_ms']:.0f} ms in the kernel and "
        f"<= {TARGETS['browser_redraw_ms']:.0f} ms in the browser. "
        + (f"Over target: {', '.join(slow)}." if slow else "All within target.")
    )
    if readme:
        update_readme("\n".join(lines) + "\n", seconds_by_notebook)
    return 0


if __name__ == "__main__":
    sys.exit(main())
