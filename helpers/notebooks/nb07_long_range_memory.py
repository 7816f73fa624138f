"""Notebook 07: its figures, widgets, constants and exercises."""

import functools

import torch

from ..course.exercises import register_exercise
from ..course.style import COLORS, fix_margins, log_axis, new_figure
from ..course.widgets import Explorer, moving, progress_line, register, slider
from ..ensembles import DELAYS, KINDS, Budget, Results, train_all
from ..tasks import VOCAB, most_frequent_token, order_blind_ceiling


def train(delays=DELAYS, budget: Budget = Budget(), seed: int = 0, kinds=KINDS) -> Results:  # noqa: B008
    """ensembles.train_all with a progress line; pass the run to explore_training to explore it."""
    return train_all(delays, budget, seed, progress=progress_line(budget.steps), kinds=kinds)


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


def plot_learning_curves(results: Results, delay: int):
    """Test accuracy against training step at one delay, one line per model kind."""
    if delay not in results.delays:
        raise ValueError(f"delay must be one of the trained delays {results.delays}, got {delay!r}")
    j = results.delays.index(delay)
    curves = torch.stack(results.accuracy)[:, :, j]  # (n_steps, kinds)
    fig, ax = new_figure(width=6.8, height=3.4)
    for i, kind in enumerate(results.kinds):
        color, marker, ls = _KIND_STYLE[kind]
        ax.plot(results.steps, curves[:, i].tolist(), marker=marker, ms=3, ls=ls, color=color, label=kind)
    ax.axhline(1 / VOCAB, color="grey", lw=1, ls="--", label="chance")
    _accuracy_axes(ax, "Adam step", f"learning curves at delay T = {delay}")
    return fig


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
