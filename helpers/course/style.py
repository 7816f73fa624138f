"""One plotting style for the whole course; figures are built without pyplot state."""

import math
import re

import matplotlib
from matplotlib.category import StrCategoryFormatter
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedFormatter, FixedLocator, FuncFormatter, Locator, LogLocator, NullLocator

# Okabe & Ito (2008): distinguishable with every common colour-vision deficiency.
COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]

STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "figure.figsize": (6.4, 3.6),
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titley": 1.0,  # titles at a fixed height: no measuring of tick labels on every redraw
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=COLORS),
    "image.cmap": "viridis",
    "legend.frameon": False,
}


OVERFLOW_LABEL = "overflow: beyond float64 (> 1.8e308)"


def use_style() -> None:
    """The course's figure style, and a returned Figure shown as a PNG in Jupyter.

    Each notebook calls it once, in its first code cell (`helpers.use_style()`); importing
    helpers changes no global setting.
    """
    matplotlib.rcParams.update(STYLE)
    _show_figures_in_ipython()


def new_figure(
    nrows: int = 1, ncols: int = 1, *, width: float | None = None, height: float | None = None, **subplot_kw
):
    """A Figure and its axes, constrained layout; `width` and `height` in inches."""
    w, h = STYLE["figure.figsize"]
    default_width = w if ncols == 1 else min(3.6 * ncols, 12.0)
    fig = Figure(figsize=(width or default_width, height or h), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=True, **subplot_kw)
    return fig, axes


def fix_margins(fig: Figure, left=0.14, bottom=0.13, right=0.98, top=0.92, **adjust) -> Figure:
    """Fixed margins instead of constrained layout: a widget's redraw gets about a third faster."""
    fig.set_layout_engine(None)
    fig.subplots_adjust(left=left, bottom=bottom, right=right, top=top, **adjust)
    return fig


def tick_label(v: float, _pos=None) -> str:
    """A log axis's tick label: 0.001 to 99999 as they are (0.3, 1, 30, 1000), others short (3e5, 1e-50)."""
    if v == 0 or 1e-3 <= abs(v) < 1e5:
        return f"{v:g}"
    mantissa, exponent = f"{v:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"


class RoundPowers(Locator):
    """Ticks at base^k, k a multiple of a round step (1, 2, 5, 10, 20, 25, 50, 100): at most 8 of them."""

    def __init__(self, base: int = 10):
        self.base = base

    def __call__(self):
        return self.tick_values(*self.axis.get_view_interval())

    def tick_values(self, vmin, vmax):
        low, high = sorted(math.log(max(v, 1e-300), self.base) for v in (vmin, vmax))
        step = next((s for s in (1, 2, 5, 10, 20, 25, 50, 100) if high - low <= 7 * s), 200)
        first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
        return [float(self.base) ** (k * step) for k in range(first, last + 1)]


def log_axis(ax, which: str = "y", *, ticks=None, subs=(1.0,), base: int = 10) -> None:
    """A log x or y axis, ticks at `ticks` or subs x base^k (RoundPowers if subs=(1,)), no minor ticks."""
    if which not in ("x", "y"):
        raise ValueError(f"which must be 'x' or 'y', got {which!r}")
    getattr(ax, f"set_{which}scale")("log", base=base)
    axis = ax.xaxis if which == "x" else ax.yaxis
    if ticks is not None:
        axis.set_major_locator(FixedLocator(list(ticks)))
    else:
        axis.set_major_locator(RoundPowers(base) if tuple(subs) == (1.0,) else LogLocator(base, subs))
    axis.set_major_formatter(FuncFormatter(tick_label))
    axis.set_minor_locator(NullLocator())


def log_limits(*curves) -> tuple[float, float]:
    """Limits of a log axis that shows every finite positive value of `curves`, with 5% margins.

    Set explicitly, so that a figure updated in place gets exactly the limits of one drawn anew.
    """
    values = [v for curve in curves for v in curve if 0 < v < math.inf]
    lo, hi = math.log10(min(values)), math.log10(max(values))
    pad = 0.05 * (hi - lo) if hi > lo else 0.5
    return 10 ** max(lo - pad, -300.0), 10 ** min(hi + pad, 306.0)  # within float64


def finite_or_marked(ax, x, y, *, label: str | None = None, **line_kw):
    """Plot y(x) on a log axis: overflow (inf) marked, what a log axis cannot show (0, NaN) left out.

    An entry that overflowed is drawn as a red triangle at the height of the curve's largest finite
    value, labelled once per axes; it is never dropped. An entry that underflowed to 0 (or is negative
    or NaN) is left out: the line stops there, or has a gap.
    """
    xs = list(x)
    ys = [float(v) for v in y]
    ok = [(a, b) for a, b in zip(xs, ys) if math.isfinite(b) and b > 0]
    line = ax.plot([a for a, _ in ok], [b for _, b in ok], label=label, **line_kw)[0]
    over = [a for a, b in zip(xs, ys) if math.isinf(b)]
    if over:
        top = max([b for _, b in ok], default=1.0)
        seen = OVERFLOW_LABEL in ax.get_legend_handles_labels()[1]
        ax.plot(over, [top] * len(over), "^", color=COLORS[3], ms=5, label=None if seen else OVERFLOW_LABEL)
    return line


TEX_WORDS = {"|": "‖", "partial": "∂", "rho": "ρ", "tau": "τ", "sqrt": "√", "cdot": "·"}


def _plain(label: str) -> str:
    """A label without TeX markup, as a screen reader should say it."""
    word = lambda m: TEX_WORDS.get(m.group(1), m.group(1) + m.group(2))  # \tanh x keeps its space
    label = re.sub(r"\\(\||[a-z]+)(\s*)", word, label)
    label = re.sub(r"([_^])\{([^{}]*[-+][^{}]*)\}", r"\1(\2)", label)  # h_{t-1} is h_(t-1), not h_t-1
    return " ".join(label.replace("$", "").replace("\\", "").replace("{", "").replace("}", "").split())


LINE_STYLES = {"-": "solid", "--": "dashed", "-.": "dash-dot", ":": "dotted"}
MARKERS = {"o": "circles", "s": "squares", "D": "diamonds", "d": "diamonds", "x": "crosses", "+": "pluses"}
MARKERS |= {"^": "up-triangles", "v": "down-triangles", "<": "left-triangles", ">": "right-triangles"}
MARKERS |= {"*": "stars", ".": "dots", "p": "pentagons", "h": "hexagons"}


def look(artist) -> str:
    """How a legend entry looks apart from its colour, in words: "dashed line, circles", "bars"."""
    if isinstance(artist, ErrorbarContainer):
        artist = artist.lines[0]  # its line through the medians
    if isinstance(artist, BarContainer):
        return "bars"
    if not isinstance(artist, Line2D):
        return "shaded area"
    parts = []
    if artist.get_linestyle() in LINE_STYLES:
        thick = "thick " if artist.get_linewidth() >= 3 else ""
        parts.append(f"{thick}{LINE_STYLES[artist.get_linestyle()]} line")
    if artist.get_marker() not in (None, "", " ", "None", "none"):
        parts.append(MARKERS.get(artist.get_marker(), "markers"))
    return ", ".join(parts) or "nothing drawn"


def _legend_looks(ax) -> list[tuple[str, str]]:
    """Each legend entry of `ax` as (its text, how its line looks apart from colour)."""
    legend = ax.get_legend()
    if legend is None:
        return []
    originals = {label: handle for handle, label in zip(*ax.get_legend_handles_labels())}
    return [
        (text.get_text(), look(originals.get(text.get_text(), drawn)))
        for text, drawn in zip(legend.get_texts(), legend.legend_handles)
    ]


def colour_only(ax) -> list[str]:
    """The legend entries of `ax` that share their look with another: only colour tells them apart."""
    entries = _legend_looks(ax)
    looks = [seen for _, seen in entries]
    return [f"{label} [{seen}]" for label, seen in entries if looks.count(seen) > 1]


def _shared_label(ax, which: str) -> str:
    """The x or y label of `ax`, or, where its own is empty, that of an axes it shares that axis with."""
    siblings = ax.get_shared_x_axes() if which == "x" else ax.get_shared_y_axes()
    labels = [getattr(a, f"get_{which}label")() for a in [ax, *siblings.get_siblings(ax)]]
    return next((label for label in labels if label), "")


def _number(text: str) -> bool:
    try:
        float(text.replace("−", "-"))
    except ValueError:
        return False
    return True


def _categories(axis, most: int = 8) -> str:
    """The tick labels of an axis whose ticks are named by text (bars of named things), as a list;
    "" for an axis of numbers. Formatted from its locator, without drawing the canvas."""
    formatter = axis.get_major_formatter()
    if not isinstance(formatter, (StrCategoryFormatter, FixedFormatter, FuncFormatter)):
        return ""
    names = [_plain(name) for name in formatter.format_ticks(axis.get_major_locator()())]
    names = [name for name in names if name]
    if not isinstance(formatter, StrCategoryFormatter) and all(map(_number, names)):
        return ""  # numbers, as log_axis's tick_label writes them
    if not names:
        return ""
    period = next(m for m in range(1, len(names) + 1) if names == names[:m] * (len(names) // m))
    repeated = f", repeated {len(names) // period} times" if period < len(names) else ""  # tiled maps
    names = names[:period]
    more = f"; and {len(names) - most} more" if len(names) > most else ""
    return f"{len(names)} categories{repeated}: {'; '.join(names[:most])}{more}"


def _axis_text(ax, which: str, unnamed: str) -> str:
    """How describe names one axis: its label (or a shared axes' label), its categories, log scale."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    named, categories = _shared_label(ax, which), _categories(axis)
    label = f"{named} ({categories})" if named and categories else named or categories or unnamed
    log = axis.get_scale() == "log" and "log" not in label
    return f"{label} (log scale)" if log else label


def _axes_text(ax) -> str:
    """What one panel plots, from its own labels: title, y against x (with log scales), the legend's
    entries and how each looks apart from its colour (a reader may be told "the dashed line").
    A panel with its axes hidden is a diagram: its figure's `finding` says what it shows."""
    title = ax.get_title() or "a panel"
    if not ax.axison:
        return _plain(f"{title}: a diagram")
    y, x = _axis_text(ax, "y", "values"), _axis_text(ax, "x", "position")
    kind = "bars" if ax.patches and not ax.get_lines() else "image" if ax.images else "lines"
    text = f"{title}: {kind} of {y} against {x}"
    entries = [f"{label} [{seen}]" for label, seen in _legend_looks(ax)]
    return _plain(text + (f" ({len(entries)} shown: {'; '.join(entries)})" if entries else ""))


def describe(fig: Figure) -> str:
    """A text description of `fig` for screen readers (the image's alt text): what each panel
    plots, from its labels, then what the figure shows, if its plot function said (`finding`)."""
    panels = [_axes_text(ax) for ax in fig.axes if ax.get_label() != "<colorbar>"]
    text = f"Figure with {len(panels)} panel{'s' * (len(panels) > 1)}. " + ". ".join(panels) + "."
    return text + (f" {fig.finding}" if getattr(fig, "finding", "") else "")


def finding(fig: Figure, text: str) -> Figure:
    """Say in one sentence what `fig` shows; screen readers read it after describe()'s account."""
    fig.finding = text
    return fig


def png_with_alt(fig: Figure) -> tuple[bytes, dict]:
    """The figure as PNG, with its description as the image's alt text (notebook output metadata)."""
    from IPython.core.pylabtools import print_figure

    return print_figure(fig, "png"), {"alt": describe(fig)}


def _show_figures_in_ipython() -> None:
    """Let a returned Figure display as a PNG in Jupyter, with alt text, without pyplot's global state."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["image/png"].for_type(Figure, png_with_alt)
