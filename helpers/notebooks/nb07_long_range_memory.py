"""Notebook 07: its figures, widgets, constants and exercises; the batched training run.

The models and the training loop a learner reads are in the notebook itself (plain nn.Modules and
a plain loop); `train_batched` runs the same loop for all fifteen at once (helpers.ensembles), and
tests/notebooks/test_nb07_long_range_memory.py checks the two step for step."""

import functools
import math

import torch

from ..course.exercises import register_exercise
from ..course.style import COLORS, fix_margins, log_axis, new_figure
from ..course.widgets import Explorer, moving, progress_line, register, slider
from ..ensembles import DELAYS, KINDS, Budget, Results, train_all
from ..tasks import VOCAB, most_frequent_token, order_blind_ceiling


def train_batched(
    delays=DELAYS,
    budget: Budget = Budget(),  # noqa: B008
    seed: int = 0,
    kinds=KINDS,
    dtype: torch.dtype = torch.float32,
) -> Results:
    """The notebook's loop for every kind at every delay at once (ensembles.train_all), with a progress
    line; pass the run to explore_training to explore it."""
    return train_all(delays, budget, seed, progress=progress_line(budget.steps), kinds=kinds, dtype=dtype)


# --- figures ----------------------------------------------------------------------------

_KIND_STYLE = {
    "tanh RNN": (COLORS[7], "o", "-"),
    "LSTM": (COLORS[1], "s", "-"),
    "LSTM, forget bias +3": (COLORS[3], "s", "--"),
    "attention + positions": (COLORS[0], "D", "-"),
    "attention, no positions": (COLORS[5], "D", ":"),
}


def _accuracy_axes(ax, xlabel: str, title: str) -> None:
    """Test accuracy from 0 to 1 against `xlabel`, with the legend outside, on the right."""
    ax.set(ylim=(0, 1.05), xlabel=xlabel, ylabel="test accuracy", title=title)
    legend = ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1, 0.5))
    legend.set_zorder(1)  # outside the axes it covers nothing; below the lines, a widget keeps it


def _accuracy_at(results: Results, step: int | None) -> tuple[list[list[float]], str]:
    """Each kind's test accuracy at every delay at training `step` (default: the end), and the title."""
    shown = results.steps[-1] if step is None else step
    return results.at(step).tolist(), f"first-token recall after {shown} Adam steps"


def plot_accuracy_vs_delay(results: Results, step: int | None = None, bound=None):
    """Test accuracy against the delay T, one line per model kind, at training `step`.

    `bound` (optional, one value per delay) is the ceiling of an order-blind model.
    """
    rows, title = _accuracy_at(results, step)
    fig, ax = new_figure(width=6.8, height=3.8)
    for kind, row in zip(results.kinds, rows):
        color, marker, ls = _KIND_STYLE[kind]
        moving(*ax.plot(results.delays, row, marker=marker, ls=ls, color=color, label=kind))
    moving(ax.title)  # the training-step slider moves only these
    ax.axhline(1 / VOCAB, color="grey", lw=1, ls="--", label=f"chance (1/{VOCAB})")
    if bound is not None:
        ax.plot(results.delays, list(bound), color="grey", lw=1, ls=":", label="best order-blind guess")
    log_axis(ax, "x", ticks=results.delays)
    _accuracy_axes(ax, "delay T (tokens between the target and the answer)", title)
    return fix_margins(fig, left=0.1, bottom=0.14, right=0.66, top=0.92)  # room for the legend


def update_accuracy_vs_delay(fig, results: Results, step: int | None = None) -> None:
    """plot_accuracy_vs_delay's figure, redrawn in place at another training step."""
    rows, title = _accuracy_at(results, step)
    ax = fig.axes[0]
    for line, row in zip(ax.lines, rows):  # the first lines are the kinds, in order
        line.set_ydata(row)
    ax.set_title(title)


def plot_learning_curves(results: Results, delay: int, bound: float | None = None):
    """Test accuracy against training step at one delay, one line per model kind; `bound` (optional)
    is the order-blind ceiling at that delay, the most attention without positions can score."""
    if delay not in results.delays:
        raise ValueError(f"delay must be one of the trained delays {results.delays}, got {delay!r}")
    j = results.delays.index(delay)
    curves = torch.stack(results.accuracy)[:, :, j]  # (n_steps, kinds)
    fig, ax = new_figure(width=6.8, height=3.4)
    for i, kind in enumerate(results.kinds):
        color, marker, ls = _KIND_STYLE[kind]
        ax.plot(results.steps, curves[:, i].tolist(), marker=marker, ms=3, ls=ls, color=color, label=kind)
    ax.axhline(1 / VOCAB, color="grey", lw=1, ls="--", label="chance")
    if bound is not None:
        ax.axhline(bound, color="grey", lw=1, ls=":", label=f"best order-blind guess ({bound:.3f})")
    _accuracy_axes(ax, "Adam step", f"learning curves at delay T = {delay}")
    return fig


# --- the cell path at initialisation ------------------------------------------------------

CELL_PATH_DELAYS = tuple(range(1, 301))  # the x axis of the cell-path figure
BIAS_CHOICES = (-2.0, 8.0, 0.25)  # the widget's forget bias: min, max, step


def cell_path(bias: float, delays=CELL_PATH_DELAYS) -> list[float]:
    """sigma(bias)^T for each delay T: the share of the signal the cell path keeps over T steps when
    every forget gate sits at its bias (what the inputs add to the gate ignored)."""
    f = torch.sigmoid(torch.tensor(float(bias), dtype=torch.float64))
    return (f ** torch.tensor(delays, dtype=torch.float64)).tolist()


def _cell_path_title(bias: float) -> str:
    f = 1 / (1 + math.exp(-bias))
    return f"forget bias {bias:+.2f}: f = {f:.3f}, f^100 = {f**100:.3g}"


def plot_cell_path(bias: float = 2.0):
    """The cell path's share sigma(b)^T against the delay T, for forget bias `bias`, beside the two
    biases trained in this notebook (0 and +3), marked at the trained delays 10, 30, 100."""
    fig, ax = new_figure(width=6.8, height=3.6)
    for b, ls, label in ((0.0, "--", "bias 0 (PyTorch default)"), (3.0, ":", "bias +3")):
        ax.plot(CELL_PATH_DELAYS, cell_path(b), color="grey", lw=1, ls=ls, label=label)
        ax.plot(DELAYS, cell_path(b, DELAYS), color="grey", ls="none", marker="o", ms=4)
    (line,) = ax.plot(CELL_PATH_DELAYS, cell_path(bias), color=COLORS[3], lw=2, label="your bias")
    (marks,) = ax.plot(DELAYS, cell_path(bias, DELAYS), color=COLORS[3], ls="none", marker="s", ms=6)
    moving(line, marks, ax.title)
    ax.set(ylim=(1e-12, 2), xlabel="delay T (steps along the cell path)", ylabel="share kept, f^T")
    ax.set_title(_cell_path_title(bias))
    log_axis(ax, "y")
    ax.legend(fontsize=8, loc="lower left")
    return fix_margins(fig, left=0.12, bottom=0.14, right=0.97, top=0.9)


def update_cell_path(fig, bias: float) -> None:
    """plot_cell_path's figure, redrawn in place at another bias."""
    ax = fig.axes[0]
    line, marks = ax.lines[4], ax.lines[5]
    line.set_ydata(cell_path(bias))
    marks.set_ydata(cell_path(bias, DELAYS))
    ax.set_title(_cell_path_title(bias))


@register
def explore_cell_path() -> Explorer:
    """A **forget bias** slider over plot_cell_path."""
    low, high, step = BIAS_CHOICES
    return Explorer(
        plot_cell_path,
        {"bias": slider("forget bias", low, high, step, 2.0)},
        name="cell path",
        update=update_cell_path,
        background=(),
    )


@functools.cache
def _small_run() -> Results:
    """A short training, once per kernel, for the widget when no `train` run exists yet."""
    return train_all(budget=Budget(steps=10, batch=16, eval_every=5, n_test=100))


@register
def explore_training(results: Results | None = None) -> Explorer:
    """A **training step** slider over plot_accuracy_vs_delay: how the picture forms.

    Draws `results` (a `train` run; no training happens in a redraw); without one, it trains a
    small run first (the same every time). The redraw moves the lines of the first figure.
    """
    results = results or _small_run()
    bound = [order_blind_ceiling(T) for T in results.delays]
    b = results.budget
    return Explorer(
        lambda step: plot_accuracy_vs_delay(results, step, bound),
        {"step": slider("training step", 0, b.steps, b.eval_every, b.steps)},
        name="training",
        update=lambda fig, step: update_accuracy_vs_delay(fig, results, step),
        background=(),  # the axes, the chance line and the ceiling do not depend on the step
    )


def forget_bias_for_100() -> float:
    """The forget bias b with sigma(b)^100 = sigma(3)^30: the cell path's share at T = 100 that
    bias +3 gives at T = 30."""
    f = (1 / (1 + math.exp(-3.0))) ** (30 / 100)
    return math.log(f / (1 - f))


def _random_tokens() -> tuple[torch.Tensor]:
    return (torch.randint(0, VOCAB, (6, 11)),)


register_exercise(
    "most_frequent_token",
    reference=most_frequent_token,
    make_inputs=_random_tokens,
    hint="count each token per row (torch.nn.functional.one_hot(x, 8).sum(1)), "
    "then take the argmax: it returns the first maximum, i.e. the smallest id.",
)
register_exercise(
    "order_blind_two_tokens",
    reference=lambda: 9 / 16,
    hint="split into two cases. How likely are the two tokens equal, and is the "
    "guess right then? If they differ, the bag {a, b} does not say which came "
    "first: how often is a guess right? Add the two cases, weighted.",
    worked="The query x_2 is known to be last; x_0 is one of the two tokens before it.\n"
    "They are equal with probability 1/8: the bag {a, a} names the first token.\n"
    "They differ with probability 7/8: {a, b} could have started with either token,\n"
    "so a guess is right half the time.\n"
    "Accuracy = 1/8 * 1 + 7/8 * 1/2 = 2/16 + 7/16 = 9/16 = 0.5625.",
)
register_exercise(
    "forget_bias_for_100",
    reference=forget_bias_for_100,
    hint="the share kept is f**T with f = sigma(b). Set f**100 equal to sigma(3)**30, solve for f, "
    "then invert the sigmoid: b = log(f / (1 - f)).",
    worked="sigma(b)**100 = sigma(3)**30, so f = sigma(b) = sigma(3)**0.3 = 0.98553.\n"
    "b = log(f / (1 - f)) = log(0.98553 / 0.01447) = 4.2211.\n"
    "A bias about 1.2 above +3 buys more than three times the delay.",
)
