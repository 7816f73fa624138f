"""Widgets are thin wrappers: controls above a figure that a plain function draws."""

import base64
import io
import time
from collections.abc import Callable

import ipywidgets as ipw
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

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
    """An int or float slider that redraws on release (not on every pixel of a drag)."""
    kind = ipw.IntSlider if all(isinstance(v, int) for v in (min, max, step, value)) else ipw.FloatSlider
    return kind(
        description=description,
        min=min,
        max=max,
        step=step,
        value=value,
        continuous_update=False,
        style={"description_width": "initial"},
        **kw,
    )


def choice(description: str, options, value) -> ipw.SelectionSlider:
    """A slider over a fixed list of options (sizes, powers of two...), redrawn on release."""
    return ipw.SelectionSlider(
        description=description,
        options=list(options),
        value=value,
        continuous_update=False,
        style={"description_width": "initial"},
    )


def _png(fig: Figure, fast: bool = False) -> str:
    """The figure as a base64 PNG, as a notebook stores it; `fast` compresses less (a live redraw).

    The figure keeps one Agg canvas, so a figure drawn again (updated in place) reuses its
    renderer's cache of text sizes.
    """
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", pil_kwargs={"compress_level": 1} if fast else None)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _display_bundle(result) -> dict:
    """A notebook display_data output for a Figure (PNG) or any other value (text)."""
    if isinstance(result, Figure):
        data = {"image/png": _png(result, fast=True), "text/plain": repr(result)}
        return {
            "output_type": "display_data",
            "data": data,
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
    A ValueError from either is shown as a message in place of the figure, never as a traceback.
    """

    def __init__(
        self,
        draw: Callable,
        controls: dict[str, ipw.ValueWidget],
        name: str = "explorer",
        update: Callable | None = None,
    ):
        self.draw, self.update, self.controls, self.name = draw, update, controls, name
        self.output = ipw.Output()
        self.result, self.error, self.redraws, self.last_redraw_s = None, None, 0, 0.0
        self._layout = None  # the first figure's axes positions (see _reuse_layout)
        super().__init__([ipw.HBox(list(controls.values())), self.output])
        for control in controls.values():
            control.observe(lambda _change: self.redraw(), names="value")
        self.redraw()

    def values(self) -> dict:
        return {key: c.value for key, c in self.controls.items()}

    def redraw(self) -> None:
        start = time.perf_counter()
        try:
            if self.update is not None and isinstance(self.result, Figure):
                self.update(self.result, **self.values())
            else:
                self.result = self.draw(**self.values())
                if isinstance(self.result, Figure):
                    _reuse_layout(self.result, self._layout)
            self.error = None
        except ValueError as e:
            self.result, self.error = None, str(e)
        shown = self.result if self.error is None else f"Cannot draw this: {self.error}"
        self.output.outputs = (_display_bundle(shown),)
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
        return f"Explorer({self.name}: {', '.join(c.description for c in self.controls.values())})"


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
