"""Every widget of the course as precomputed frames, for the book's pages (no kernel there).

For each Explorer a notebook displays, the course's own factory (`helpers.course.widgets.EXPLORERS`)
builds it, and each frame is that Explorer redrawn with its controls set to one combination of
values, as a learner's move would set them in the notebook: the same `draw`/`update` code, the
same figure, the same description (`helpers.course.style.describe`) as the frame's alt text.

Which combinations: every value of every control, one control moved at a time from the defaults
(the others at their defaults); where every combination together makes at most FULL_GRID frames,
all of them, so that any setting of the controls has its frame. A slider with more than
MAX_STEPS positions keeps MAX_STEPS of them, evenly spaced, its default among them.

Frames are built, not committed: each PNG is cached in CACHE under a hash of the course's code (the
module that defines the widget's factory, every helpers module it imports, this file), the
factory and the control values, so a rebuild after a prose change renders nothing, and a change
to a widget's code renders its frames again.
"""

from __future__ import annotations

import ast
import hashlib
import io
import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "book-cache" / "frames"
FULL_GRID = 60  # at most this many frames: every combination of the controls
MAX_STEPS = 41  # a slider with more positions keeps this many, evenly spaced
EXPLORER_PREFIX = "Explorer("  # helpers.course.widgets.Explorer.__repr__, the widget's text/plain
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
# Explorers whose notebook passes them data computed by earlier cells (a measured grid, a training
# run): the book calls their factory without it, so each makes its own small one (its docstring
# says how), and the page says so.
OWN_DATA = {
    "explore_cost": "the timings come from a small grid measured when the book was built "
    "(16, 64 and 256 steps; batch 1 and 32), not the notebook's",
    "explore_training": "the curves come from a short training run made when the book was built "
    "(10 Adam steps), not the notebook's longer one",
}


@dataclass
class Control:
    key: str
    label: str
    values: list  # the values the page offers, in order
    default: int  # index of the default value in `values`
    shown: list[str] = field(default_factory=list)  # each value as the notebook's readout shows it


@dataclass
class Widget:
    """One widget of one notebook: its controls and, by combination of value indices, its frames."""

    factory: str
    name: str
    controls: list[Control]
    grid: bool  # every combination has a frame (else one control at a time)
    # by the controls' value indices: {"file", "alt"} of a PNG, or {"text"} of a message
    frames: dict[tuple[int, ...], dict] = field(default_factory=dict)

    def combinations(self) -> list[tuple[int, ...]]:
        defaults = tuple(c.default for c in self.controls)
        if self.grid:
            return list(itertools.product(*(range(len(c.values)) for c in self.controls)))
        combos = [defaults]
        for i, c in enumerate(self.controls):
            for j in range(len(c.values)):
                combo = defaults[:i] + (j,) + defaults[i + 1 :]
                if combo not in combos:
                    combos.append(combo)
        return combos


def widgets_in(ipynb: Path) -> list[tuple[str, str]]:
    """(Explorer name, factory called in the cell) for each Explorer output of a notebook, in order."""
    nb = json.loads(ipynb.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            text = "".join(data.get("text/plain", ""))
            if WIDGET_MIME in data and text.startswith(EXPLORER_PREFIX):
                called = re.findall(r"\b(explore_\w+)\s*\(", "".join(cell["source"]))
                name = text[len(EXPLORER_PREFIX) :].split(":")[0].rstrip(")")
                found.append((name, called[-1] if called else name))
    return found


def _module_file(name: str) -> Path | None:
    """helpers.x.y -> helpers/x/y.py (or its package's __init__.py); None outside helpers."""
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _imports(path: Path) -> set[Path]:
    """The helpers modules a helpers module imports (relative or absolute), as files."""
    package = path.relative_to(ROOT).with_suffix("").parts
    package = package[:-1] if package[-1] != "__init__" else package[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            names = [".".join(module)] + [".".join(module + [a.name]) for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name.split(".")[0] == "helpers" and (file := _module_file(name)):
                found.add(file)
    return found


def factory_file(factory: str) -> Path:
    """The helpers module that defines the widget factory `factory`."""
    for path in sorted((ROOT / "helpers").rglob("*.py")):
        if re.search(rf"^def {re.escape(factory)}\(", path.read_text(encoding="utf-8"), re.M):
            return path
    raise SystemExit(f"no helpers module defines the widget factory {factory}")


def code_hash(factory: str) -> str:
    """A hash of the code a widget's frames depend on: the module defining its factory and every
    helpers module it imports, directly or not, helpers/__init__.py, this file, matplotlib's version."""
    import matplotlib

    todo, seen = [factory_file(factory), ROOT / "helpers" / "__init__.py"], set()
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(_imports(path) - seen)
    h = hashlib.sha256(matplotlib.__version__.encode())
    for path in sorted(seen) + [Path(__file__)]:
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _positions(control) -> list:
    """The values a control can take, in order (a slider's: min to max by step)."""
    if hasattr(control, "options"):
        return [o[1] if isinstance(o, tuple) else o for o in control.options]
    n = round((control.max - control.min) / control.step)
    values = [control.min + i * control.step for i in range(n + 1)]
    return [int(v) for v in values] if isinstance(control.value, int) else [round(v, 10) for v in values]


def _thinned(values: list, default) -> list:
    """At most MAX_STEPS of `values`, evenly spaced, ends and `default` kept."""
    if len(values) <= MAX_STEPS:
        return values
    picks = {round(i * (len(values) - 1) / (MAX_STEPS - 1)) for i in range(MAX_STEPS)}
    kept = [v for i, v in enumerate(values) if i in picks]
    if default not in kept:
        kept = sorted(set(kept[1:-1]) | {values[0], values[-1], default})
    return kept


def _label(value, control=None) -> str:
    """A value as the notebook's slider reads it out (its readout_format, e.g. ".2f")."""
    fmt = getattr(control, "readout_format", None)
    if isinstance(value, float) and fmt:
        return format(value, fmt)
    return f"{value:g}" if isinstance(value, float) else str(value)


def plan(factory: str, explorer) -> Widget:
    """The controls and the combinations the book renders for one Explorer."""
    controls = []
    for key, control in explorer.controls.items():
        values = _thinned(_positions(control), control.value)
        default = min(range(len(values)), key=lambda i: abs(values[i] - control.value))
        label = explorer.fields[key].description if key in explorer.fields else key
        controls.append(Control(key, label, values, default, [_label(v, control) for v in values]))
    total = 1
    for c in controls:
        total *= len(c.values)
    return Widget(factory, explorer.name, controls, grid=total <= FULL_GRID)


def _frame_key(code: str, factory: str, values: dict) -> str:
    blob = json.dumps([code, factory, sorted((k, repr(v)) for k, v in values.items())])
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


class Renderer:
    """Builds (or finds in the cache) the frames of every widget, once per factory.

    `widget(factory)` returns the Widget with its frames; the PNGs are files CACHE/<key>.png
    with their alt text (or the message drawn in place of a figure) in CACHE/<key>.json."""

    def __init__(self, cache: Path = CACHE):
        self.cache = cache
        self.cache.mkdir(parents=True, exist_ok=True)
        self.codes: dict[str, str] = {}
        self.done: dict[str, Widget] = {}
        self.rendered = self.reused = 0

    def _cached(self, key: str) -> dict | None:
        meta = self.cache / f"{key}.json"
        return json.loads(meta.read_text(encoding="utf-8")) if meta.exists() else None

    def code(self, factory: str) -> str:
        if factory not in self.codes:
            self.codes[factory] = code_hash(factory)
        return self.codes[factory]

    def _plan_file(self, factory: str) -> Path:
        return self.cache / f"plan-{_frame_key(self.code(factory), factory, {})}.json"

    def widget(self, factory: str) -> Widget:
        if factory in self.done:
            return self.done[factory]
        saved = self._plan_file(factory)
        if saved.exists():  # every frame cached: no need to build the Explorer at all
            raw = json.loads(saved.read_text(encoding="utf-8"))
            w = Widget(factory, raw["name"], [Control(**c) for c in raw["controls"]], raw["grid"])
            keys = self._keys(w)
            metas = {combo: self._cached(key) for combo, key in keys.items()}
            if all(metas.values()):
                w.frames = {combo: self._frame(keys[combo], meta) for combo, meta in metas.items()}
                self.reused += len(metas)
                self.done[factory] = w
                return w
        self.done[factory] = w = self._render(factory)
        saved.write_text(
            json.dumps({"name": w.name, "grid": w.grid, "controls": [c.__dict__ for c in w.controls]}),
            encoding="utf-8",
        )
        return w

    @staticmethod
    def _frame(key: str, meta: dict) -> dict:
        return {**meta, "file": f"{key}.png"} if "alt" in meta else meta

    def _keys(self, w: Widget) -> dict[tuple[int, ...], str]:
        code = self.code(w.factory)
        return {
            combo: _frame_key(code, w.factory, {c.key: c.values[i] for c, i in zip(w.controls, combo)})
            for combo in w.combinations()
        }

    def _render(self, factory: str) -> Widget:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure

        import helpers
        from helpers.course.style import describe
        from helpers.course.widgets import explorers

        helpers.use_style()
        explorer = explorers()[factory]()
        w = plan(factory, explorer)
        for combo, key in self._keys(w).items():
            meta = self._cached(key)
            if meta is None:
                for c, i in zip(w.controls, combo):  # each assignment redraws, as a learner's move does
                    explorer.controls[c.key].value = c.values[i]
                result = explorer.result
                if explorer.error is None and isinstance(result, Figure):
                    (self.cache / f"{key}.png").write_bytes(_png(result))
                    meta = {"alt": describe(result)}
                else:
                    meta = {"text": f"Cannot draw this: {explorer.error}" if explorer.error else str(result)}
                (self.cache / f"{key}.json").write_text(json.dumps(meta), encoding="utf-8")
                self.rendered += 1
            else:
                self.reused += 1
            w.frames[combo] = self._frame(key, meta)
        return w
