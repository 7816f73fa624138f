"""Notebook 01: its figures, widgets, constants and exercises."""

import math
import re
from collections.abc import Callable

import torch
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..checks import require_positive_int, require_tensor
from ..course.exercises import register_exercise
from ..course.style import COLORS, finding, log_axis, new_figure
from ..course.tables import Table
from ..course.widgets import Explorer, choice, register
from ..measure import autograd_nodes, time_fns
from ..rnn import input_projection, rnn_chain, rnn_newton, rnn_newton_flops, rnn_step, tanh_step
from ..seed import seeded
from ..spectra import spectral_radius


def _box(ax, x, y, text, color, w=0.7, h=0.5):
    ax.add_patch(
        FancyBboxPatch(
            (x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.05", fc=color, ec="black", lw=0.8, alpha=0.9
        )
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=10)


def _arrow(ax, start, end, color="black"):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12, color=color, lw=1.2))


def plot_unrolled_chain(N: int = 6):
    """The RNN unrolled over N steps: parallel input projections below, the sequential chain above."""
    require_positive_int(N, "N (the number of steps drawn)")
    fig, ax = new_figure(width=min(0.95 * (N + 2.5), 11), height=3.4)
    for t in range(1, N + 1):
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
            (0.45, 0.8), N + 0.1, 0.8, boxstyle="round,pad=0.02", fc="none", ec=COLORS[0], ls="--", lw=1.2
        )
    )
    ax.text(N + 0.6, 1.2, "one matmul\nfor all t\n(parallel)", va="center", fontsize=9, color=COLORS[0])
    ax.text(N + 0.6, 2.4, "tanh chain:\none step\nat a time", va="center", fontsize=9, color=COLORS[3])
    ax.set(xlim=(-0.5, N + 2.0), ylim=(-0.45, 3.3), aspect="equal")
    ax.set_title(
        "The unrolled RNN: $h_t$ waits for $h_{t-1}$\n"
        "(above each $h_t$: the tanh steps, one after another, that compute it)",
        fontsize=9,
    )
    ax.axis("off")
    return finding(
        fig,
        f"The inputs x_1 to x_{N} feed one matrix product, W_xh x_t for all {N} steps at once; the states "
        f"h_1 to h_{N} form a chain from h_0, each waiting for the one before: h_t is ready after t tanh "
        f"steps, h_{N} after {N}.",
    )


# --- counting: the autograd graph behind a state -------------------------------------------

MATMULS = ("Mm", "Addmm", "Bmm")  # the autograd nodes of a matrix product


def _op(node) -> str:
    """The operator of an autograd node: TanhBackward0 -> Tanh."""
    return re.sub(r"Backward\d*$", "", type(node).__name__)


def count_chain(output: torch.Tensor) -> tuple[int, int, int]:
    """(tanh calls, the longest chain of tanh calls, matmuls) in the autograd graph behind `output`.

    The longest chain counts the tanh calls on one path from `output` back to the inputs: calls
    that must run one after another, whatever the hardware.
    """
    require_tensor(output, "output")
    if output.grad_fn is None:
        raise ValueError("output must come from a computation autograd recorded (no grad_fn)")
    nodes = autograd_nodes(output)  # children before parents
    chain = {}
    for node in nodes:
        below = max((chain[c] for c, _ in node.next_functions if c is not None), default=0)
        chain[node] = below + (_op(node) == "Tanh")
    tanhs = sum(_op(n) == "Tanh" for n in nodes)
    return tanhs, chain[output.grad_fn], sum(_op(n) in MATMULS for n in nodes)


# --- Newton's method over all t at once (Lim et al. 2024) --------------------------------


def newton_table(U: torch.Tensor, W_hh: torch.Tensor, scales=(1, 2, 3)) -> Table:
    """rnn_newton on h_t = tanh(u_t + h_{t-1} (s W_hh)^T) for each scale s: iterations, then scan levels
    and matmul FLOPs against the loop's, for rnn_newton's Hillis-Steele scan and, counted only, for a
    work-efficient one (rnn_newton_flops; the tests check the first against FlopCounterMode, whose first
    use imports torch._dynamo, seconds). U (B, N, d_h)."""
    require_tensor(U, "U")
    B, N, d = U.shape
    levels, loop = math.ceil(math.log2(N)), 2 * B * N * d**2  # the loop: one (B, d) @ (d, d) per step
    rows = []
    for s in scales:
        changes = rnn_newton(U, s * W_hh, max_iterations=N + 1)[1]  # N + 1 always suffice (in exact maths)
        k = len(changes)
        done = k if changes[-1] <= 1e-12 else f"over {N + 1}"
        hs, we = (
            rnn_newton_flops(B, N, d, k, scan=scan) / loop for scan in ("hillis-steele", "work-efficient")
        )
        rows.append(
            [
                s,
                f"{spectral_radius(s * W_hh):.2f}",
                done,
                k * levels,
                f"{hs:.0f}x",
                2 * k * levels,
                f"{we:.0f}x",
            ]
        )
    header = [
        "scale s of W_hh",
        "spectral radius",
        "Newton iterations",
        f"Hillis-Steele: levels (x {levels})",
        "matmul FLOPs",
        f"work-efficient: levels (x {2 * levels}, at most)",
        "matmul FLOPs",
    ]
    return Table(header, rows)


# --- the same work with and without the chain ---------------------------------------------

N_STEPS, WIDTH = 100, 32  # the article's 100th word; a small RNN's width d
WAYS = ("one call, all t", "N independent calls", "N dependent steps")
BATCHES = (1, 4, 16, 64)  # the batch sizes timed and shown


def three_ways(batch: int, *, grad: bool = False) -> dict[str, Callable[[], torch.Tensor]]:
    """N_STEPS tanh steps of one size (B, WIDTH), three ways, as calls to time or count.

    one call:            y = tanh(U + V W^T), every t at once (y_t needs no other y);
    N independent calls: the same, y_t = tanh(u_t + v_t W^T) one t at a time;
    N dependent steps:   the RNN's chain, h_t = tanh(u_t + h_{t-1} W^T) (helpers.rnn.rnn_chain).
    Same matmul FLOPs and the same operators per step; only the chain waits for h_{t-1}.
    """
    require_positive_int(batch, "batch (the batch size B)")
    N, d = N_STEPS, WIDTH
    with seeded(0):  # the notebook's random state is left untouched
        U, V, W = torch.randn(batch, N, d), torch.randn(batch, N, d), torch.randn(d, d) / d**0.5
    for tensor in (U, V, W):
        tensor.requires_grad_(grad)  # for counting: autograd then records every operator
    V_t = [v.contiguous() for v in V.unbind(1)]  # N inputs (B, d), ready as h_{t-1} is in the chain
    step = lambda t: tanh_step(U[:, t], V_t[t], W)  # (B, d): needs no other step
    return {
        WAYS[0]: lambda: tanh_step(U, V, W),  # (B, N, d)
        WAYS[1]: lambda: torch.stack([step(t) for t in range(N)], dim=1),  # (B, N, d)
        WAYS[2]: lambda: rnn_chain(U, W),  # (B, N, d)
    }


def way_flops(batch: int) -> int:
    """Matmul FLOPs of each of the three ways: B N vectors times W once, 2 B N d^2 (a multiply-add is 2).

    The tests check it against FlopCounterMode (whose first use imports torch._dynamo: seconds)."""
    return 2 * batch * N_STEPS * WIDTH**2


def count_ways(batches=(1, 64)) -> Table:
    """The three ways, counted: tanh calls, their longest chain and matmul calls (autograd), FLOPs."""
    rows = []
    for way, fn in three_ways(1, grad=True).items():
        tanhs, chain, matmuls = count_chain(fn())
        rows.append([way, matmuls, tanhs, chain, *(f"{way_flops(b):,}" for b in batches)])
    header = [
        "way",
        "matmul calls",
        "tanh calls",
        "longest chain of tanh",
        *(f"FLOPs, B = {b}" for b in batches),
    ]
    return Table(header, rows)


_MEASURED: dict[int, dict[str, float]] = {}  # batch -> {way: ms}: timed on this machine, in this kernel


def time_ways(batches, *, repeats: int = 5) -> dict[int, dict[str, float]]:
    """Milliseconds of each way at each batch size: one thread, no grad, every run of each in turns.

    Remembered, so that the widget redraws a batch size already timed without timing it again.
    """
    for b in batches:
        require_positive_int(b, "batch (the batch size B)")
    with torch.no_grad():
        calls = {(b, w): fn for b in batches for w, fn in three_ways(b).items()}
        times = time_fns(calls, repeats=repeats)
    for b in batches:
        _MEASURED[b] = {w: times[b, w].median_ms for w in WAYS}
    return {b: _MEASURED[b] for b in batches}


def ways_table(ms: dict[int, dict[str, float]]) -> Table:
    """The timings of time_ways as a table, with the chain's time per step in microseconds."""
    rows = [
        [b, *(f"{ms[b][w]:.2f}" for w in WAYS), f"{1e3 * ms[b][WAYS[2]] / N_STEPS:.1f}"] for b in sorted(ms)
    ]
    return Table(["B", *(f"{w} (ms)" for w in WAYS), "chain: µs per step"], rows)


def _ways_bars(batch: int) -> tuple[list[float], list[str], str, tuple[float, float]]:
    """What the figure shows at one batch size: bar heights (ms), their labels, the title, y limits."""
    if batch not in BATCHES:
        raise ValueError(f"batch must be one of {BATCHES}, got {batch!r}")
    if batch not in _MEASURED:
        time_ways([batch], repeats=2)  # a first visit: two short rounds, in turns
    ms = [_MEASURED[batch][w] for w in WAYS]
    title = f"B = {batch}: {way_flops(batch) / 1e6:.2g} MFLOP each; chain {ms[2] / ms[0]:.0f}x one call"
    return ms, [f"{m:.2f}" for m in ms], title, (min(0.01, min(ms) / 2), max(100.0, 2 * max(ms)))


WAY_NAMES = ("one call", f"{N_STEPS} independent calls", f"{N_STEPS}-step chain")  # the bars, as drawn


def _cost_finding(labels: list[str]) -> str:
    """The bars' times in words, for the figure's alt text: "one call 0.05 ms, ..."."""
    return "Times: " + ", ".join(f"{name} {label} ms" for name, label in zip(WAY_NAMES, labels)) + "."


def plot_sequential_cost(batch: int = 1):
    """The three ways' times at one batch size, as bars on a log axis (timed once per batch size)."""
    ms, labels, title, ylim = _ways_bars(batch)
    fig, ax = new_figure(width=6.0, height=3.2)
    ax.bar(WAY_NAMES, ms, color=[COLORS[0], COLORS[5], COLORS[3]], width=0.6)
    log_axis(ax, "y")
    for i, (m, label) in enumerate(zip(ms, labels)):
        ax.text(i, m * 1.2, label, ha="center", fontsize=9)
    ax.set(ylim=ylim, ylabel=f"time for N = {N_STEPS} (ms)")
    ax.set_title(title, fontsize=10, y=1.0)  # a fixed y: no search for a free spot at each redraw
    return finding(fig, _cost_finding(labels))


def update_sequential_cost(fig, batch: int = 1) -> None:
    """plot_sequential_cost's figure, redrawn in place at another batch size."""
    ms, labels, title, ylim = _ways_bars(batch)
    ax = fig.axes[0]
    for bar, text, m, label in zip(ax.patches, ax.texts, ms, labels):
        bar.set_height(m)
        text.set_y(m * 1.2)
        text.set_text(label)
    ax.set_ylim(ylim)
    ax.set_title(title, fontsize=10, y=1.0)
    finding(fig, _cost_finding(labels))


@register
def explore_sequential_cost() -> Explorer:
    """A batch-size control over plot_sequential_cost: the work grows with B, the chain's time far less.

    Batch sizes not yet timed (outside notebook 01) are timed first, so that a redraw only draws."""
    missing = [b for b in BATCHES if b not in _MEASURED]
    if missing:
        time_ways(missing, repeats=2)
    control = {"batch": choice("batch size B", BATCHES, 1)}
    return Explorer(plot_sequential_cost, control, name="sequential_cost", update=update_sequential_cost)


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


def no_loop_over_t(answer) -> str | None:
    """None when `answer(x, W_xh, b)` runs no more operations on a sequence of 12 steps than on one of 3.

    The operations are counted in the autograd graph behind the result (every input requires grad): a
    loop over t adds operations for every step, one matmul on the whole (B, N, d_in) tensor does not.
    """
    W_xh, b, counts = torch.randn(5, 4, requires_grad=True), torch.randn(5, requires_grad=True), []
    for N in (3, 12):
        x = torch.randn(2, N, 4, requires_grad=True)
        try:
            with torch.enable_grad():
                out = answer(x, W_xh, b)
        except Exception as e:
            return (
                f"your function raised {type(e).__name__} on inputs that require grad (the check counts "
                f"its operations with autograd): use torch operations on x"
            )
        if not isinstance(out, torch.Tensor) or out.grad_fn is None:
            return (
                "your result is not connected to x by autograd (detached, or computed outside PyTorch), "
                "so the check cannot count its operations: use torch operations on x"
            )
        counts.append(len(autograd_nodes(out)))
    if counts[1] > counts[0]:
        return (
            f"your function runs {counts[0]} operations on a sequence of 3 steps and {counts[1]} on one of "
            f"12: a loop over t? One matmul on the whole (B, N, d_in) tensor covers every t"
        )
    return None


def dependent_steps_solution() -> int:
    """h_100 needs h_99, which needs h_98, ... back to h_0 (given): 100 tanh steps, one after another."""
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
    hint="x @ W_xh.T works on (B, N, d_in) directly: matmul broadcasts over B and N.",
    rule=no_loop_over_t,
)
register_exercise(
    "dependent_steps",
    reference=dependent_steps_solution,
    hint="count the arrows from h_0 to h_100 in the unrolled chain.",
    worked="h_1 = tanh(u_1 + W_hh h_0) is 1 step; h_2 needs h_1: 2 steps, one after the other.\n"
    "h_t needs the t - 1 states h_1 .. h_{t-1}, then its own step: t steps.\n"
    "So h_100 needs the 99 earlier states (the article's 'first 99'), then its own: 100.\n"
    "The count_chain cell counts the same chain of 100 in nn.RNN's autograd graph.",
)
