"""Notebook 00: its figures, widgets, constants and exercises."""

import torch

from ..course.exercises import compare, register_exercise
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


def cold_softmax(scores: torch.Tensor) -> torch.Tensor:
    """The limit of softmax(scores / tau) as tau -> 0, over the last dimension.

    Divide every term by e^{s_max / tau}: a score below the maximum gets e^{(s - s_max) / tau} -> 0,
    each of the k scores equal to the maximum keeps e^0 = 1. So the limit is 1/k on each of the
    k tied maxima and 0 elsewhere: one-hot only when the maximum is unique.
    """
    top = scores == scores.amax(dim=-1, keepdim=True)  # the k tied maxima of each row
    return top / top.sum(dim=-1, keepdim=True)  # 1/k on each, 0 elsewhere


TINY_GAP = 1e-6  # the smallest gap between distinct whole-number scores in rows 3 to 5 the check feeds
SMALLEST_GAP = torch.finfo(torch.float32).smallest_normal * 2.0**-23  # 1.4e-45, the smallest float32
NEAR_TIES = [  # a unique maximum just above the next score, relative to the row's own values
    [1.0, 1.0 - 2.0**-24, 0.0, -1.0, -2.0],  # two neighbouring float32 numbers on top
    [1e-30, 0.0, -1.0, -1.0, -1.0],  # a gap of 1e-30 beside an ordinary spread
    [SMALLEST_GAP, 0.0, -1.0, -1.0, -1.0],  # float32's smallest gap: refuses every float32 tau
]


def _scores_with_ties() -> tuple[torch.Tensor]:
    """(9, 5) scores: small whole numbers, so that many rows tie for the maximum; row 0 is the
    widget's SCORES (a unique maximum), row 1 has three tied maxima. Rows 3 to 5 are scaled by
    TINY_GAP: the limit does not change, but softmax(s / tau) stays far from it unless tau is far
    below TINY_GAP, so a small but finite temperature fails. Rows 6 to 8 are NEAR_TIES: a maximum
    that is not a tie, however close (down to the smallest gap float32 has, 1.4e-45), so `isclose`
    ties, a temperature scaled to the row, and any float32 temperature fail."""
    scores = torch.randint(-2, 3, (9, 5)).float()
    scores[0] = torch.tensor(SCORES)
    scores[1, :3] = scores[1].max() + 1
    scores[3:6] *= TINY_GAP  # ties stay ties: equal whole numbers times the same number
    scores[6:] = torch.tensor(NEAR_TIES)
    return (scores,)


register_exercise(
    "softmax_cold_limit",
    reference=lambda: 1.0,
    hint="the largest score's weight e^{s/tau} dominates all others as tau -> 0.",
    worked="Divide by e^{s_max/tau}: p_max = 1 / (1 + sum_{j != max} e^{(s_j - s_max)/tau}).\n"
    "Each exponent (s_j - s_max)/tau is negative and -> -inf as tau -> 0: each term -> 0.\n"
    "So p_max -> 1 / (1 + 0) = 1 (when the largest score is unique, as 2 is here); the others -> 0.",
)


def limit_everywhere(answer) -> str | None:
    """A rule for cold_softmax, once its values passed on (9, 5) scores: the limit over the last
    dimension of any shape (one row; (3, 3, 5), as attention's scores are), and at large scores
    (1e30 times, at most 3e30), where softmax(s / tau) at a tau tiny enough to pass overflows."""
    (scores,) = _scores_with_ties()
    cases = {"a single row of scores": scores[1], "scores of shape (3, 3, 5)": scores.reshape(3, 3, 5)}
    cases["every score times 1e30"] = scores * 1e30
    for what, s in cases.items():
        try:
            problem = compare(answer(s), cold_softmax(s), f"its result on {what}", atol=1e-6, rtol=0)
        except Exception as e:  # e.g. a dim=1 written for 2-D scores
            problem = f"it fails on {what}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        if problem:
            return problem
    return None


register_exercise(
    "cold_softmax",
    reference=cold_softmax,
    make_inputs=_scores_with_ties,
    hint="as tau -> 0 every score below the maximum gets weight 0; the scores equal to the maximum "
    "(there may be several) share the total weight of 1 equally.",
    rule=limit_everywhere,
)
