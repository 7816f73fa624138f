"""Notebook 01: its figures, widgets, constants and exercises."""

import torch
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, new_figure
from ..course.widgets import Explorer, register, slider
from ..measure import time_fns
from ..rnn import input_projection, rnn_step, rnncell_loop
from ..seed import seeded


def _box(ax, x, y, text, color, w=0.7, h=0.5):
    ax.add_patch(
        FancyBboxPatch(
            (x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.05", fc=color, ec="black", lw=0.8, alpha=0.9
        )
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=10)


def _arrow(ax, start, end, color="black"):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12, color=color, lw=1.2))


def plot_unrolled_chain(T: int = 6):
    """The RNN unrolled over T steps: parallel input projections below, the sequential chain above."""
    require_positive_int(T, "T (the number of steps drawn)")
    fig, ax = new_figure(width=min(0.95 * (T + 2.5), 11), height=3.4)
    for t in range(1, T + 1):
        _box(ax, t, 0, f"$x_{{{t}}}$", "white")
        _box(ax, t, 1.2, f"$W_{{xh}}x_{{{t}}}$", COLORS[5], w=0.84)
        _arrow(ax, (t, 0.3), (t, 0.9))
        _arrow(ax, (t, 1.5), (t, 2.1))
        _box(ax, t, 2.4, f"$h_{{{t}}}$", COLORS[1])
        ax.text(t, 2.95, f"{t} step{'s' if t > 1 else ''}", ha="center", fontsize=8, color=COLORS[3])
        _arrow(ax, (t - 0.62 if t > 1 else 0.35, 2.4), (t - 0.38, 2.4), COLORS[3])
    _box(ax, 0, 2.4, "$h_0$", "white", w=0.6)
    ax.add_patch(
        FancyBboxPatch(
            (0.45, 0.8), T + 0.1, 0.8, boxstyle="round,pad=0.02", fc="none", ec=COLORS[0], ls="--", lw=1.2
        )
    )
    ax.text(T + 0.6, 1.2, "one matmul\nfor all t\n(parallel)", va="center", fontsize=9, color=COLORS[0])
    ax.text(T + 0.6, 2.4, "tanh chain:\none step\nat a time", va="center", fontsize=9, color=COLORS[3])
    ax.set(xlim=(-0.5, T + 2.0), ylim=(-0.45, 3.3), aspect="equal")
    ax.set_title(
        "The unrolled RNN: $h_t$ waits for $h_{t-1}$\n"
        "(above each $h_t$: the dependent steps before it is known)",
        fontsize=9,
    )
    ax.axis("off")
    return fig


def time_rnn_loops(seq_lens: list[int], *, batch: int = 8, d: int = 32, repeats: int = 5) -> list[float]:
    """Seconds per RNNCell loop at each length: medians of interleaved runs, one thread, no grad.

    Interleaved (every round times each length once), so a burst of load from other programs
    slows all lengths alike; the notebook's random state is left untouched.
    """
    for n in seq_lens:
        require_positive_int(n, "seq_len (the sequence length)")
    with seeded(0), torch.no_grad():
        cell, x = torch.nn.RNNCell(d, d), torch.randn(batch, max(seq_lens), d)
        loops = {n: (lambda n=n: rnncell_loop(cell, x[:, :n])) for n in seq_lens}
        times = time_fns(loops, repeats=repeats)
    return [times[n].median_ms / 1e3 for n in seq_lens]


def plot_loop_time(lengths: list[int], seconds: list[float]):
    """Measured loop time against sequence length N (= the number of dependent steps), with a line fit."""
    fig, ax = new_figure(width=6.0, height=3.2)
    ms = [1e3 * s for s in seconds]
    slope = sum(n * m for n, m in zip(lengths, ms)) / sum(n * n for n in lengths)  # fit m = slope * N
    ax.plot(lengths, ms, "o", color=COLORS[0], label="measured")
    ax.plot(
        [0, max(lengths)],
        [0, slope * max(lengths)],
        "--",
        color=COLORS[7],
        lw=0.8,
        label=f"line through 0: {1e3 * slope:.0f} µs per step",
    )
    ax.set(
        xlabel="sequence length N  (= dependent steps)",
        ylabel="RNNCell loop time (ms)",
        title=f"{max(lengths)} dependent steps took {max(ms):.1f} ms on this machine",
        xlim=(0, None),
        ylim=(0, None),
    )
    ax.legend(fontsize=8, loc="upper left")
    return fig


def plot_sequential_cost(seq_len: int = 256):
    """Measure the loop at N/4, N/2, 3N/4 and N and draw dependent steps and time against N."""
    require_positive_int(seq_len, "seq_len (the sequence length)", minimum=4)
    lengths = [seq_len * k // 4 for k in (1, 2, 3, 4)]
    return plot_loop_time(lengths, time_rnn_loops(lengths, repeats=1))  # one run each: fast redraw


@register
def explore_sequential_cost() -> Explorer:
    """A sequence-length slider over plot_sequential_cost (it measures as it draws)."""
    return Explorer(
        plot_sequential_cost, {"seq_len": slider("sequence length", 16, 256, 16, 128)}, name="sequential_cost"
    )


def _rnn_step_inputs():
    B, d_in, d_h = 3, 4, 5
    return (
        torch.randn(B, d_in),
        torch.randn(B, d_h),
        torch.randn(d_h, d_in),
        torch.randn(d_h, d_h) / d_h**0.5,
        torch.randn(d_h),
    )


def _projection_inputs():
    return torch.randn(2, 7, 4), torch.randn(5, 4), torch.randn(5)


def dependent_steps_solution() -> int:
    """h_100 needs h_99, which needs h_98, ... back to h_0: 100 tanh steps, one after another."""
    return 100


register_exercise(
    "rnn_step",
    reference=rnn_step,
    make_inputs=_rnn_step_inputs,
    hint="h_t = tanh(x_t W_xh^T + h_prev W_hh^T + b); rows are batch items, so transpose W.",
)
register_exercise(
    "input_projection",
    reference=input_projection,
    make_inputs=_projection_inputs,
    hint="x @ W_xh.T works on (B, T, d_in) directly: matmul broadcasts over B and T.",
)
register_exercise(
    "dependent_steps",
    reference=dependent_steps_solution,
    hint="count the arrows from h_0 to h_100 in the unrolled chain.",
)
