"""Notebook 01: its figures, widgets, constants and exercises."""

import functools
import math
import re
from collections.abc import Callable

import numpy as np
import torch
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..checks import require_positive_int, require_tensor
from ..course.exercises import register_exercise
from ..course.style import COLORS, finding, log_axis, new_figure
from ..course.tables import Table
from ..course.widgets import Explorer, choice, moving, register, slider
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
        f"The inputs x_1 to x_{N} feed one matrix product, W_xh x_t for all {N} steps at once: a row of blue "
        f"boxes inside a dashed box. The states h_1 to h_{N}, orange boxes joined by red arrows, form a "
        f"chain from h_0, each waiting for the one before: h_t is ready after t tanh steps, h_{N} after {N}.",
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
CORE_WAYS = (WAYS[0], WAYS[2])  # the same work with and without the chain: the core path's figure
BATCHES = (1, 4, 32, 64)  # the batch sizes timed and shown; 32 is the article's timing snippet's


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


def count_ways(batches=(1, 64), ways=WAYS) -> Table:
    """The ways, counted: tanh calls, their longest chain and matmul calls (autograd), FLOPs."""
    rows = []
    for way, fn in three_ways(1, grad=True).items():
        if way not in ways:
            continue
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

    Each time is the first quartile of the rounds (a quarter of them were faster), not the median: load
    from other programs only ever slows a round down, so the faster rounds are the truer ones, and a
    busy machine must slow three rounds in four to move it.
    Remembered, so that the widget redraws a batch size already timed without timing it again.
    """
    for b in batches:
        require_positive_int(b, "batch (the batch size B)")
    with torch.no_grad():
        calls = {(b, w): fn for b in batches for w, fn in three_ways(b).items()}
        times = time_fns(calls, repeats=repeats)
    for b in batches:
        _MEASURED[b] = {w: times[b, w].q1_ms for w in WAYS}
    return {b: _MEASURED[b] for b in batches}


def ways_table(ms: dict[int, dict[str, float]], ways=WAYS) -> Table:
    """The timings of time_ways as a table, with the chain's time per step in microseconds and, when the
    table shows them, how many times as long as one call the chain took and what share of the chain's
    time the independent calls took."""
    ratio, share = WAYS[0] in ways, WAYS[1] in ways
    rows = [
        [
            b,
            *(f"{ms[b][w]:.2f}" for w in ways),
            f"{1e3 * ms[b][WAYS[2]] / N_STEPS:.1f}",
            *([f"{ms[b][WAYS[2]] / ms[b][WAYS[0]]:.0f}x"] if ratio else []),
            *([f"{ms[b][WAYS[1]] / ms[b][WAYS[2]]:.2f}"] if share else []),
        ]
        for b in sorted(ms)
    ]
    header = [
        "B",
        *(f"{w} (ms)" for w in ways),
        "chain: µs per step",
        *(["chain / one call"] if ratio else []),
        *(["independent calls / chain"] if share else []),
    ]
    return Table(header, rows)


def _ways_bars(batch: int) -> tuple[list[float], list[str], str, tuple[float, float]]:
    """What the figure shows at one batch size: bar heights (ms), their labels, the title, y limits."""
    if batch not in BATCHES:
        raise ValueError(f"batch must be one of {BATCHES}, got {batch!r}")
    if batch not in _MEASURED:
        time_ways([batch], repeats=2)  # a first visit: two short rounds, in turns
    ms = [_MEASURED[batch][w] for w in CORE_WAYS]
    title = (
        f"B = {batch}: {way_flops(batch) / 1e6:.2g} MFLOP each; the chain took {ms[1] / ms[0]:.0f}x one call"
    )
    return ms, [f"{m:.2f}" for m in ms], title, (min(0.01, min(ms) / 2), max(100.0, 2 * max(ms)))


WAY_NAMES = ("the same work in one call", f"the {N_STEPS}-step chain")  # the bars, as drawn


def _cost_finding(labels: list[str]) -> str:
    """The bars' times in words, for the figure's alt text: "the same work in one call 0.05 ms, ..."."""
    return "Times: " + ", ".join(f"{name} {label} ms" for name, label in zip(WAY_NAMES, labels)) + "."


def plot_sequential_cost(batch: int = 1):
    """The chain's time against the same work in one call, at one batch size, as bars on a log axis
    (timed once per batch size)."""
    ms, labels, title, ylim = _ways_bars(batch)
    fig, ax = new_figure(width=6.0, height=3.2)
    ax.bar(WAY_NAMES, ms, color=[COLORS[0], COLORS[3]], width=0.5)
    log_axis(ax, "y")
    for i, (m, label) in enumerate(zip(ms, labels)):
        ax.text(i, m * 1.2, label, ha="center", fontsize=9)
    ax.set(ylim=ylim, ylabel=f"time for N = {N_STEPS} steps (ms)")
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


# --- a stacked RNN: layer l reads layer l - 1's state at the same step -------------------

LAYER_RANGE, STEP_RANGE = (1, 4), (2, 10)  # the widget's bounds


@functools.cache
def stacked_depths(N: int, layers: int) -> tuple[tuple[int, ...], ...]:
    """The longest chain of tanh steps behind each state of a stacked tanh RNN, counted in its autograd
    graph (count_chain): row l - 1 is layer l, column t - 1 is step t.

    Layer 1 reads x_t; layer l > 1 reads layer l - 1's state at the same step t (helpers.rnn_step, one
    step of one layer at a time, so that nothing waits for more than it needs)."""
    require_positive_int(N, "N (the number of steps)")
    require_positive_int(layers, "layers")
    d = 3
    with seeded(0), torch.enable_grad():
        x = torch.randn(1, N, d, requires_grad=True)
        weights = [(torch.randn(d, d), torch.randn(d, d) / d, torch.zeros(d)) for _ in range(layers)]
        h = [torch.zeros(1, d) for _ in range(layers)]  # h_0 of each layer
        depths = [[0] * N for _ in range(layers)]
        for t in range(N):
            below = x[:, t]  # (1, d): the input of layer 1
            for layer, (W_xh, W_hh, b) in enumerate(weights):
                h[layer] = rnn_step(below, h[layer], W_xh, W_hh, b)  # (1, d)
                depths[layer][t] = count_chain(h[layer])[1]
                below = h[layer]
    return tuple(tuple(row) for row in depths)


def wavefront_width(N: int, layers: int) -> int:
    """The most states of a stacked RNN that are ready after the same number of steps: the most that
    could be computed at the same time."""
    depths = [k for row in stacked_depths(N, layers) for k in row]
    return max(depths.count(k) for k in set(depths))


def _stacked_grid(layers: int, N: int):
    """What the stacked-chain figure shows: the grid of depths (masked outside layers x N), its labels,
    the title and the finding."""
    lo, hi = LAYER_RANGE
    if not (isinstance(layers, int) and lo <= layers <= hi):
        raise ValueError(f"layers must be an int from {lo} to {hi}, got {layers!r}")
    lo, hi = STEP_RANGE
    if not (isinstance(N, int) and lo <= N <= hi):
        raise ValueError(f"N (the number of steps) must be an int from {lo} to {hi}, got {N!r}")
    full = stacked_depths(
        STEP_RANGE[1], LAYER_RANGE[1]
    )  # a state's chain does not depend on what comes after
    depths = [row[:N] for row in full[:layers]]
    grid = torch.full((LAYER_RANGE[1], STEP_RANGE[1]), float("nan"))  # (4, 10): every slot the widget has
    grid[:layers, :N] = torch.tensor(depths, dtype=torch.float32)
    labels = [k for row in depths for k in row]
    last, width = depths[-1][-1], max(labels.count(k) for k in set(labels))
    title = (
        f"{layers} layer{'s' if layers > 1 else ''}, {N} steps: {layers * N} tanh steps, "
        f"the top state at t = {N} after {last} in a row"
    )
    text = (
        f"A grid of states, {layers} layers by {N} steps, each labelled with the longest chain of tanh steps "
        f"behind it: it grows by 1 along a layer and by 1 up the layers, so the top state at t = {N} waits "
        f"for {last} steps; at most {width} of them share a label."
    )
    return grid, title, text


def _draw_stacked(ax, labels, arrows, image, layers: int, N: int) -> str:
    """Put the grid of (layers, N) into the figure's image, labels and arrows; return its finding.

    The labels are one marker line per depth (a digit drawn as a marker): far quicker to redraw than
    one text per state."""
    grid, title, text = _stacked_grid(layers, N)
    image.set_data(np.ma.masked_invalid(grid.numpy()))
    for k, label in labels.items():
        where = (grid == k).nonzero().tolist()  # [(layer, t), ...] of the states k steps deep
        label.set_data([t for _, t in where], [layer for layer, _ in where])
    right, up = arrows  # markers between the states: from the state before, and from the layer below
    right.set_data(
        [t + 0.5 for _ in range(layers) for t in range(N - 1)],
        [i for i in range(layers) for _ in range(N - 1)],
    )
    up.set_data(
        [t for _ in range(layers - 1) for t in range(N)],
        [i + 0.5 for i in range(layers - 1) for _ in range(N)],
    )
    ax.set_title(title, fontsize=10)
    return text


def plot_stacked_chain(layers: int = 2, N: int = 6):
    """A stacked tanh RNN as a grid of states, each labelled with the longest chain of tanh steps behind it
    (stacked_depths), with arrows from the state before (same layer) and from the layer below (same step).
    The grid has the widget's largest size; the slots beyond layers x N are left blank."""
    L_max, N_max = LAYER_RANGE[1], STEP_RANGE[1]
    fig, ax = new_figure(width=6.4, height=3.0)
    image = ax.imshow(
        np.ma.masked_all((L_max, N_max)),
        origin="lower",
        cmap="viridis",
        vmin=1,
        vmax=N_max + L_max - 1,  # the deepest state the widget can show
        aspect="auto",
        interpolation="nearest",
    )
    deepest = N_max + L_max - 1
    labels = {  # one line of markers per depth k, the digits of k as its marker
        k: ax.plot(
            [],
            [],
            ls="none",
            marker=f"${k}$",
            markersize=9 if k < 10 else 13,
            mew=0.4,
            color="white" if k < 8 else "black",
        )[0]
        for k in range(1, deepest + 1)
    }
    arrow = dict(ls="none", color=COLORS[7], markersize=6)
    arrows = (ax.plot([], [], marker=">", **arrow)[0], ax.plot([], [], marker="^", **arrow)[0])
    ax.set_xticks(range(N_max), [str(t + 1) for t in range(N_max)])
    ax.set_yticks(range(L_max), [str(layer + 1) for layer in range(L_max)])
    ax.set(xlabel="time step t", ylabel="layer", xlim=(-0.5, N_max - 0.5), ylim=(-0.5, L_max - 0.5))
    fig._stacked = (ax, labels, arrows, image)  # what update_stacked_chain changes
    moving(image, ax.title, *arrows, *labels.values())  # drawn over a kept background
    return finding(fig, _draw_stacked(ax, labels, arrows, image, layers, N))


def update_stacked_chain(fig, layers: int = 2, N: int = 6) -> None:
    """plot_stacked_chain's figure, redrawn in place at other sizes."""
    finding(fig, _draw_stacked(*fig._stacked, layers, N))


@register
def explore_stacked_chain() -> Explorer:
    """Layers and steps of a stacked RNN: the longest chain of tanh steps behind each state."""
    controls = {
        "layers": slider("layers", *LAYER_RANGE, 1, 2),
        "N": slider("time steps N", *STEP_RANGE, 1, 6),
    }
    return Explorer(
        plot_stacked_chain, controls, name="stacked_chain", update=update_stacked_chain, background=()
    )


def stacked_depth_solution() -> int:
    """The longest chain of tanh steps behind the state of layer 2 at t = 100, counted."""
    return stacked_depths(100, 2)[1][99]


def wavefront_solution() -> int:
    """The most states of a 3-layer RNN over 8 steps that can be computed at the same time."""
    return wavefront_width(8, 3)


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
    "stacked_depth",
    reference=stacked_depth_solution,
    hint="layer 2's state at step t waits for two states: its own at t - 1 and layer 1's at t. "
    "Follow the longest path back to h_0.",
    worked="Layer 1 is the chain of this notebook: its state at t waits for t steps.\n"
    "Layer 2's state at t needs layer 1's at t (t steps) and its own at t - 1, then one step more.\n"
    "So it is ready after t + 1 steps: the top state at t = 100 after 101, not 200.\n"
    "The 200 steps in all do not run one after another: layer 2 can start as soon as layer 1 has\n"
    "its first state. (On the CPU, nn.RNN(num_layers=2) runs layer 1 to the end first: its graph\n"
    "has a chain of 200, because it gives layer 2 all its inputs in one matmul.)",
)
register_exercise(
    "wavefront_width",
    reference=wavefront_solution,
    hint="two states can be computed at the same time only when neither waits for the other: in the "
    "widget, they share a number.",
    worked="A state at layer l and step t is ready after t + l - 1 steps.\n"
    "States that share that number wait for none of each other: they can run side by side.\n"
    "Each layer has one state with a given number, so at most 3 share one (with 8 steps >= 3 layers).\n"
    "Stacking gives parallel hardware one state per layer to run at once, never more.",
)
