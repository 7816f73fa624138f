"""Notebook 00: its figures, widgets, constants and exercises."""

import torch

from ..course.exercises import register_exercise
from ..course.style import new_figure
from ..course.widgets import Explorer, register, slider


def plot_softmax(temperature: float = 1.0):
    """softmax(s / temperature) of five fixed scores, as bars: a first widget to move."""
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    scores = torch.tensor([2.0, 1.0, 0.5, 0.0, -1.0])
    p = (scores / temperature).softmax(-1)
    fig, ax = new_figure(width=4.8, height=2.6)
    ax.bar([f"{s:g}" for s in scores.tolist()], p.tolist())
    ax.set(
        ylim=(0, 1),
        xlabel="score s",
        ylabel="probability",
        title=f"softmax(s / τ) at temperature τ = {temperature:g}",
    )
    return fig


@register
def explore_softmax() -> Explorer:
    """A temperature slider over plot_softmax."""
    return Explorer(plot_softmax, {"temperature": slider("temperature", 0.1, 5.0, 0.1, 1.0)}, name="softmax")


register_exercise(
    "softmax_cold_limit",
    reference=lambda: 1.0,
    hint="the largest score's weight e^{s/tau} dominates all others as tau -> 0.",
    worked="Divide by e^{s_max/tau}: p_max = 1 / (1 + sum_{j != max} e^{(s_j - s_max)/tau}).\n"
    "Each exponent (s_j - s_max)/tau is negative and -> -inf as tau -> 0: each term -> 0.\n"
    "So p_max -> 1 / (1 + 0) = 1 (when the largest score is unique); the others -> 0.",
)
