"""Widgets are thin wrappers: controls above a figure that a plain function draws."""

import base64
import io
import time
from collections.abc import Callable

import ipywidgets as ipw
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from .languages import label, verdict
from .style import describe

EXPLORERS: dict[str, Callable[[], "Explorer"]] = {}


def register(factory: Callable[[], "Explorer"]) -> Callable[[], "Explorer"]:
    """Record an explorer factory so that tests and the benchmark can find it."""
    EXPLORERS[factory.__name__] = factory
    return factory


def explorers() -> dict[str, Callable[[], "Explorer"]]:
    """Every registered explorer factory, by name, after importing every helpers module."""
    from .. import import_all

    import_all()
    return EXPLORERS


def slider(description: str, min, max, step, value, **kw) -> ipw.ValueWidget:
    """An int or float slider that redraws on release (not on every pixel of a drag); its label is
    `description` in the learner's language (helpers.use_language), when it has one there."""
    kind = ipw.IntSlider if all(isinstance(v, int) for v in (min, max, step, value)) else ipw.FloatSlider
    return kind(
        description=label(description),
        min=min,
        max=max,
        step=step,
        value=value,
        continuous_update=False,
        style={"description_width": "initial"},
        **kw,
    )


def choice(description: str, options, value) -> ipw.SelectionSlider:
    """A slider over a fixed list of options (sizes, powers of two...), redrawn on release; labelled in
    the learner's language, as `slider` is."""
    return ipw.SelectionSlider(
        description=label(description),
        options=list(options),
        value=value,
        continuous_update=False,
        style={"description_width": "initial"},
    )


def labelled_field(control: ipw.ValueWidget) -> ipw.ValueWidget:
    """A number field (or a drop-down) linked to `control`, with the control's label tied to it.

    ipywidgets 8's slider handle has no accessible name and its label is not tied to it, so a
    screen reader announces only "slider, 0.5". noUiSlider's author advises a labelled input
    beside it; this is that input: a screen reader names it, and typing a value moves the slider.
    """
    common = dict(description=control.description, style={"description_width": "initial"})
    if hasattr(control, "options"):
        field = ipw.Dropdown(options=control.options, value=control.value, **common)
    else:
        kind = ipw.BoundedIntText if isinstance(control, ipw.IntSlider) else ipw.BoundedFloatText
        field = kind(min=control.min, max=control.max, step=control.step, value=control.value, **common)
    field.layout.width = "max-content"
    ipw.link((control, "value"), (field, "value"))
    control.description, control.readout = "", False  # the field names it and shows its value
    control.layout.width = "180px"
    return field


def _png(fig: Figure) -> str:
    """The figure as a base64 PNG, as a notebook stores it (every artist, animated ones too)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def moving(*artists: Artist, zorder: float | None = None) -> None:
    """Mark the artists that a widget's `update` changes while the rest of the figure stays.

    A saved figure draws them like any other. A widget draws them, and every artist its axes
    draws after them (a legend, zorder 5, above a moving line), over a kept picture of the
    rest; `zorder` (e.g. 6, above legends) leaves fewer artists to draw on each move.
    """
    for artist in artists:
        artist.set_animated(True)
        if zorder is not None:
            artist.set_zorder(zorder)


def _drawn_over(ax) -> list[Artist]:
    """The axes' moving artists and all that a save draws after them (by zorder, then as added;
    the axes' background patch is drawn first, whatever its zorder)."""
    drawn = (a for a in ax.get_children() if a.get_visible() and a is not ax.patch)
    ordered = sorted(drawn, key=lambda a: a.get_zorder())
    first = next((i for i, a in enumerate(ordered) if a.get_animated()), len(ordered))
    return ordered[first:]


class _Frames:
    """A figure rendered to PNG for a live redraw: the background (what a save draws before the
    first moving artist) is drawn when its key changes and kept; the rest is drawn over it.

    The key is whatever the background depends on (the figure and some control values), so a
    redraw that changes only moving artists draws a few lines and texts, not the whole figure.
    """

    def __init__(self):
        self.key, self.background, self.backgrounds_drawn = object(), None, 0  # no key matches

    def png(self, fig: Figure, key) -> str:
        canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
        over = [(ax, _drawn_over(ax)) for ax in fig.axes]
        for _, artists in over:  # Agg leaves animated artists out of a draw that is not a save
            for artist in artists:
                artist.set_animated(True)
        if key != self.key:
            canvas.draw()
            self.key, self.background = key, canvas.copy_from_bbox(fig.bbox)
            self.backgrounds_drawn += 1
        else:
            canvas.restore_region(self.background)
        for ax, artists in over:
            for artist in artists:
                ax.draw_artist(artist)
        buf = io.BytesIO()  # a live frame: compressed less than a saved figure
        Image.fromarray(np.asarray(canvas.buffer_rgba())).save(buf, format="png", compress_level=1)
        return base64.b64encode(buf.getvalue()).decode("ascii")


def _display_bundle(result, png: str | None = None) -> dict:
    """A notebook display_data output: a Figure as `png` (its live frame), any other value as text."""
    if isinstance(result, Figure):
        return {
            "output_type": "display_data",
            "data": {"image/png": png, "text/plain": repr(result)},
            "metadata": {"image/png": {"alt": describe(result)}},
        }
    return {"output_type": "display_data", "data": {"text/plain": str(result)}, "metadata": {}}


def _layout_of(fig: Figure) -> tuple:
    """The figure's size and its axes' positions, once it has been drawn; the figure keeps them."""
    fig.set_layout_engine(None)  # an update in place redraws without laying out again
    return tuple(fig.get_size_inches()), [ax.get_position(original=True) for ax in fig.axes]


def _reuse_layout(fig: Figure, layout: tuple | None) -> None:
    """Give `fig` the axes positions of an earlier figure of the same shape, and no layout engine.

    Constrained layout measures every label before it draws: about half the time of a redraw.
    A widget's figures keep their shape from one value to the next, so its first figure is
    laid out and the later ones take the same positions.
    """
    if layout is None:
        return
    size, positions = layout
    if tuple(fig.get_size_inches()) == size and len(fig.axes) == len(positions):
        fig.set_layout_engine(None)
        for ax, position in zip(fig.axes, positions):
            ax.set_position(position)


class Explorer(ipw.VBox):
    """Controls above the output of `draw(**values)`; redrawn whenever a control changes.

    `draw` returns a matplotlib Figure (or text). `update(fig, **values)`, when given, changes
    the artists of the figure `draw` made instead of making a new one: a faster redraw, and
    the figure must end up as `draw(**values)` would draw it (the tests compare the two).
    `background` names the controls that the figure's artists not marked `moving` depend on:
    while those controls keep their values, a redraw draws only the moving artists over the
    kept background (by default every control counts, so every redraw draws everything).
    A ValueError from either is shown as a message in place of the figure, never as a traceback.
    """

    def __init__(
        self,
        draw: Callable,
        controls: dict[str, ipw.ValueWidget],
        name: str = "explorer",
        update: Callable | None = None,
        background: tuple[str, ...] | None = None,
    ):
        self.draw, self.update, self.controls, self.name = draw, update, controls, name
        self.background = tuple(controls) if background is None else background
        unknown = set(self.background) - set(controls)
        if unknown:
            raise ValueError(f"background names controls that {name} lacks: {sorted(unknown)}")
        self.output = ipw.Output()
        self.result, self.error, self.redraws, self.last_redraw_s = None, None, 0, 0.0
        self.frames = _Frames()
        self._layout = None  # the first figure's axes positions (see _reuse_layout)
        self.fields = {key: labelled_field(c) for key, c in controls.items()}
        pairs = [
            ipw.HBox([self.fields[key], c], layout={"margin": "0 12px 0 0"}) for key, c in controls.items()
        ]
        super().__init__([ipw.HBox(pairs, layout={"flex_flow": "row wrap"}), self.output])
        for control in controls.values():
            control.observe(lambda _change: self.redraw(), names="value")
        self.redraw()

    def values(self) -> dict:
        return {key: c.value for key, c in self.controls.items()}

    def redraw(self) -> None:
        start = time.perf_counter()
        values = self.values()
        try:
            if self.update is not None and isinstance(self.result, Figure):
                self.update(self.result, **values)
            else:
                self.result = self.draw(**values)
                if isinstance(self.result, Figure):
                    _reuse_layout(self.result, self._layout)
            self.error = None
        except ValueError as e:
            self.result, self.error = None, str(e)
        if self.error is not None:
            bundle = _display_bundle(verdict("cannot_draw", error=self.error))
        elif isinstance(self.result, Figure):
            key = (self.result, *(values[name] for name in self.background))  # holds the figure
            bundle = _display_bundle(self.result, self.frames.png(self.result, key))
        else:
            bundle = _display_bundle(self.result)
        self.output.outputs = (bundle,)
        if self._layout is None and isinstance(self.result, Figure):
            self._layout = _layout_of(self.result)
        self.redraws += 1
        self.last_redraw_s = time.perf_counter() - start

    def _repr_mimebundle_(self, **kwargs) -> dict | tuple[dict, dict] | None:
        """The live widget, plus a PNG of its figure for renderers that draw no widgets.

        GitHub, nbviewer and VS Code's preview show the PNG; JupyterLab, Notebook and Colab
        prefer the widget view when a kernel runs it. The PNG carries the figure's description
        as its alt text (output metadata).
        """
        data = super()._repr_mimebundle_(**kwargs)
        if data is not None and isinstance(self.result, Figure):
            data["image/png"] = _png(self.result)
            return data, {"image/png": {"alt": describe(self.result)}}
        return data

    def __repr__(self) -> str:  # the text/plain that nbval compares: stable, short
        return f"Explorer({self.name}: {', '.join(f.description for f in self.fields.values())})"


def sample_values(control: ipw.ValueWidget) -> list:
    """Values a learner could pick, other than the current one: each option, or ends and middle."""
    if hasattr(control, "options"):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
    elif isinstance(control, ipw.Checkbox):
        values = [not control.value]
    else:
        mid = (control.min + control.max) / 2
        values = [control.min, round(mid) if isinstance(control.value, int) else mid, control.max]
    return [v for v in values if v != control.value]


def progress_line(total: int):
    """A function `show(step)` that updates one line, "Adam steps: 40/200, 8 s", in place.

    In a notebook the line is a display updated by its id, so a saved notebook (as on
    GitHub) keeps the last state; outside IPython nothing is shown.
    """
    from IPython import get_ipython
    from IPython.display import display

    start = time.perf_counter()
    text = lambda step: {"text/plain": f"Adam steps: {step}/{total}, {time.perf_counter() - start:.0f} s"}
    handle = display(text(0), raw=True, display_id=True) if get_ipython() else None
    return lambda step: handle and handle.update(text(step), raw=True)
