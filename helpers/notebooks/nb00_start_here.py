"""Notebook 00: its figures, widgets, constants and exercises."""

import torch

from ..course.exercises import register_exercise
from ..course.style import new_figure
from ..course.widgets import Explorer, register, slider

SCORES = (2.0, 1.0, 0.5, 0.0, -1.0)  # the five fixed scores of the softmax widget


def _softmax_bars(temperature: float) -> tuple[list[float], str]:
    """The bar heights softmax(s / temperature) and the title that states the temperature."""
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    p = (torch.tensor(SCORES) / temperature).softmax(-1)
    return p.tolist(), f"softmax(s / τ) at temperature τ = {temperature:g}"


def plot_softmax(temperature: float = 1.0):
    """softmax(s / temperature) of five fixed scores, as bars: a first widget to move."""
    heights, title = _softmax_bars(temperature)
    fig, ax = new_figure(width=4.8, height=2.6)
    ax.bar([f"{s:g}" for s in SCORES], heights)
    ax.set(ylim=(0, 1), xlabel="score s", ylabel="probability", title=title)
    return fig


def update_softmax(fig, temperature: float = 1.0) -> None:
    """plot_softmax's figure, redrawn in place at another temperature."""
    heights, title = _softmax_bars(temperature)
    ax = fig.axes[0]
    for bar, height in zip(ax.patches, heights):
        bar.set_height(height)
    ax.set_title(title)


@register
def explore_softmax() -> Explorer:
    """A temperature slider over plot_softmax."""
    control = {"temperature": slider("temperature", 0.1, 5.0, 0.1, 1.0)}
    return Explorer(plot_softmax, control, name="softmax", update=update_softmax)


register_exercise(
    "softmax_cold_limit",
    reference=lambda: 1.0,
    hint="the largest score's weight e^{s/tau} dominates all others as tau -> 0.",
    worked="Divide by e^{s_max/tau}: p_max = 1 / (1 + sum_{j != max} e^{(s_j - s_max)/tau}).\n"
    "Each exponent (s_j - s_max)/tau is negative and -> -inf as tau -> 0: each term -> 0.\n"
    "So p_max -> 1 / (1 + 0) = 1 (when the largest score is unique); the others -> 0.",
)
