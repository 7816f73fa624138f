"""Notebook 06: its figures, widgets, constants and exercises."""

import itertools
from dataclasses import dataclass

import torch
from matplotlib.figure import Figure

from ..article import (
    D_MODEL,
    MODELS,
    FusedLSTM,
    article_models,
    attention_flops,
    counted_flops,
    rnn_flops,
    time_models,
)
from ..course.exercises import register_exercise
from ..course.style import COLORS, fix_margins, log_axis, log_limits, new_figure
from ..course.tables import Table
from ..course.widgets import Explorer, choice, moving, register
from ..gpu_sweep import FAST_MHA, LOOP, LSTM, MHA, RNN, SWEEP_MODELS, pick
from ..measure import Timing, count_flops, operator_calls, workload


def show(times: dict[str, Timing], title: str) -> None:
    """Print each model's median time (IQR) and its ratio to the fused nn.RNN."""
    print(title)
    base = times[MODELS[1]].median_ms
    for name, t in times.items():
        print(f"  {name:<16}{t}  = {t.median_ms / base:4.1f} x nn.RNN")


def _calls_at(name: str, seq_len: int, dim: int) -> int:
    """Operator calls of one forward of model `name` on zeros (1, seq_len, dim)."""
    return operator_calls(article_models(dim)[name], torch.zeros(1, seq_len, dim))


def counted_lstm_flops(batch: int, seq_len: int, dim: int = D_MODEL) -> int:
    """FlopCounterMode's count for one forward of nn.LSTM(dim, dim), the GPU sweep's model, on zeros
    (batch, seq_len, dim). On the meta device, which carries shapes only (on the CPU PyTorch runs the
    LSTM as one operator that FlopCounterMode does not see into)."""
    model = FusedLSTM(dim).to("meta")
    return count_flops(workload(model, torch.zeros(batch, seq_len, dim, device="meta"), False))


def complexity_table(seq_len: int = 512, dim: int = D_MODEL) -> Table:
    """The article's table (Vaswani et al. 2017, Table 1, rows 1-3) beside what is counted here, at B=1.

    Every "counted" cell is a count made by this call (operator calls, FlopCounterMode); the
    formulas the counts match and the path length, derived elsewhere, are labelled as such."""
    rnn, att = MODELS[1], MODELS[2]

    def calls(name):  # operator calls at N, then at 2N
        return f"{_calls_at(name, seq_len, dim)} -> {_calls_at(name, 2 * seq_len, dim)} operator calls"

    def flops(name):
        return f"{counted_flops(name, 1, seq_len, dim):,}"

    def growth(name, n, d):  # FLOPs at (n, d) over FLOPs at (seq_len, dim)
        return f"x{counted_flops(name, 1, n, d) / counted_flops(name, 1, seq_len, dim):.2f}"

    return Table(
        ["", "article: RNN", f"here: {rnn}", "article: attention", f"here: {att}"],
        [
            ["sequential operations (counted)", "O(N)", calls(rnn), "O(1)", calls(att)],
            [
                f"FLOPs per layer (counted, N={seq_len}, d={dim})",
                "O(N d^2)",
                flops(rnn),
                "O(N^2 d)",
                flops(att),
            ],
            [
                f"  when N doubles (N={seq_len})",
                "x2",
                growth(rnn, 2 * seq_len, dim),
                "x4",
                growth(att, 2 * seq_len, dim),
            ],
            [
                f"  when d doubles (d={dim})",
                "x4",
                growth(rnn, seq_len, 2 * dim),
                "x2",
                growth(att, seq_len, 2 * dim),
            ],
            ["  the formula they match (not a count)", "", "4 N d^2", "", "8 N d^2 + 4 N^2 d"],
            ["maximum path length (derived in 04, counted in 08)", "O(N)", "N", "O(1)", "1"],
        ],
    )


# --- a grid of measurements for the explorer ----------------------------------------------


@dataclass
class Grid:
    """Forward times measured once, so that the explorer redraws without re-timing."""

    seq_lens: tuple[int, ...]
    batches: tuple[int, ...]
    dim: int
    times: dict  # (device type, model name, batch, seq_len) -> Timing

    @property
    def devices(self) -> list[str]:
        return sorted({key[0] for key in self.times}, key=lambda d: d != "cpu")

    def at(self, batch: int, seq_len: int, device: str = "cpu") -> dict[str, Timing]:
        """The three models' timings at one grid point."""
        if (device, MODELS[0], batch, seq_len) not in self.times:
            raise ValueError(
                f"batch={batch}, seq_len={seq_len} on {device!r} was not measured; "
                f"measured seq_lens {self.seq_lens}, batches {self.batches}"
            )
        return {name: self.times[(device, name, batch, seq_len)] for name in MODELS}


def measure_grid(
    seq_lens=(16, 32, 64, 128, 256, 512),
    batches=(1, 4, 32),
    dim: int = D_MODEL,
    repeats: int = 3,
    on=("cpu",),
) -> Grid:
    """Forward time of every model at every (batch, seq_len), on every device in `on`."""
    if not seq_lens or not batches:
        raise ValueError(f"seq_lens and batches must be non-empty, got {seq_lens!r}, {batches!r}")
    times = {}
    for device in on:
        for b in batches:
            for n in seq_lens:
                for name, t in time_models(b, n, dim, repeats=repeats, device=device).items():
                    times[(torch.device(device).type, name, b, n)] = t
    return Grid(tuple(seq_lens), tuple(batches), dim, times)


@dataclass
class _CostView:
    """What plot_cost draws at one (seq_len, batch): computed once, drawn anew or in place."""

    times: list[tuple[list[float], list[float], list[float]]]  # per (device, model): median, q1, q3
    flops: list[list[float]]  # RNN, attention, attention's N^2 part, at every N in ns
    ns: list[int]
    time_limits: tuple[float, float]
    flop_limits: tuple[float, float]
    time_title: str
    flop_title: str


def _cost_view(grid: Grid, seq_len: int, batch: int) -> _CostView:
    at = grid.at(batch, seq_len)  # checks that (batch, seq_len) was measured
    times = []  # the grid's measurements, read (never re-timed)
    for dev, name in itertools.product(grid.devices, MODELS):
        ts = [grid.times[(dev, name, batch, n)] for n in grid.seq_lens]
        times.append(([t.median_ms for t in ts], [t.q1_ms for t in ts], [t.q3_ms for t in ts]))
    ns = list(range(grid.seq_lens[0], grid.seq_lens[-1] + 1, 4))
    flops = [
        [rnn_flops(batch, n, grid.dim) for n in ns],
        [attention_flops(batch, n, grid.dim) for n in ns],
        [4 * batch * n**2 * grid.dim for n in ns],
    ]
    ratio = at[MODELS[2]].median_ms / at[MODELS[1]].median_ms
    flop_ratio = attention_flops(batch, seq_len, grid.dim) / rnn_flops(batch, seq_len, grid.dim)
    return _CostView(
        times,
        flops,
        ns,
        log_limits([v for _, q1, q3 in times for v in q1 + q3]),
        log_limits([v for ys in flops for v in ys]),
        f"measured ({grid.devices[0]}), B={batch}; at N={seq_len}: attention / nn.RNN = {ratio:.2g}",
        f"by formula, B={batch}; N={seq_len}: attention / RNN = {flop_ratio:.3g}",
    )


def plot_cost(seq_len: int = 512, batch: int = 32, grid: Grid | None = None):
    """Measured forward time (left) and FLOPs by formula (right; FlopCounterMode checks the formulas
    in notebook 06, section 3) against sequence length N, at one batch."""
    if grid is None:
        raise ValueError("grid must be the Grid that measure_grid() returned, got None")
    view = _cost_view(grid, seq_len, batch)
    fig, (ax_t, ax_f) = new_figure(1, 2, width=10, height=3.6)
    fix_margins(fig, left=0.07, right=0.99, bottom=0.14, top=0.9, wspace=0.22)
    labels = [f"{name}, {dev}" for dev, name in itertools.product(grid.devices, MODELS)]
    styles = [  # a line style per device, a marker per model: not told apart by colour alone
        (line + marker, color)
        for line in ("-", "--")[: len(grid.devices)]
        for marker, color in zip("os^", COLORS[: len(MODELS)])
    ]
    for (medians, q1, q3), label, (style, color) in zip(view.times, labels, styles):
        yerr = [[m - a for m, a in zip(medians, q1)], [b - m for m, b in zip(medians, q3)]]
        ax_t.errorbar(grid.seq_lens, medians, yerr=yerr, fmt=style, color=color, ms=4, label=label)
    flop_styles = [
        (COLORS[0], "-", "RNN (loop or fused)"),
        (COLORS[2], "-", MODELS[2]),
        (COLORS[2], "--", "attention: QKᵀ and AV only, 4BN²d"),
    ]
    for ys, (color, ls, label) in zip(view.flops, flop_styles):
        marks = dict(marker="^", ms=3, markevery=0.1) if label == MODELS[2] else {}  # triangles, as at left
        ax_f.plot(view.ns, ys, color=color, ls=ls, label=label, **marks)
    ax_f.axvline(grid.dim, color="gray", ls=":", label=f"N = d = {grid.dim}: N²d = Nd²")
    for ax in (ax_t, ax_f):
        chosen = ax.axvline(seq_len, color="black", ls="-.", lw=1, label="chosen N", gid="chosen N")
        moving(chosen, ax.title, zorder=6)  # the N slider moves only these, drawn above the legend
        log_axis(ax, "x", ticks=grid.seq_lens)
        log_axis(ax, "y", subs=(1.0, 3.0))
        ax.set_xlabel("sequence length N (tokens)")
        ax.legend(fontsize=8, loc="upper left")
    ax_t.set(ylabel="forward time (ms; median, IQR bars)", ylim=view.time_limits, title=view.time_title)
    ax_f.set(ylabel="forward FLOPs (multiply-add = 2)", ylim=view.flop_limits, title=view.flop_title)
    return fig


def update_cost(fig, seq_len: int, batch: int, grid: Grid) -> None:
    """plot_cost's figure, redrawn in place at another (seq_len, batch) of the same grid."""
    view = _cost_view(grid, seq_len, batch)
    ax_t, ax_f = fig.axes
    for container, (medians, q1, q3) in zip(ax_t.containers, view.times):
        line, _caps, (bars,) = container.lines  # the medians, and the IQR bars
        line.set_ydata(medians)
        bars.set_segments([[(n, a), (n, b)] for n, a, b in zip(grid.seq_lens, q1, q3)])
    for line, ys in zip(ax_f.lines, view.flops):  # the first three lines are the FLOP curves
        line.set_ydata(ys)
    for ax in (ax_t, ax_f):
        next(line for line in ax.lines if line.get_gid() == "chosen N").set_xdata([seq_len, seq_len])
    ax_t.set(ylim=view.time_limits, title=view.time_title)
    ax_f.set(ylim=view.flop_limits, title=view.flop_title)


@register
def explore_cost(grid: Grid | None = None) -> Explorer:
    """Sliders for sequence length and batch size over `grid` (what measure_grid returned): a redraw
    reads the grid's timings (no re-timing) and moves the lines of the first figure. Without a grid
    it measures a small one first (a second or two)."""
    if grid is None:
        grid = measure_grid(seq_lens=(16, 64, 256), batches=(1, 32), repeats=1)
    return Explorer(
        lambda seq_len, batch: plot_cost(seq_len, batch, grid),
        {
            "seq_len": choice("sequence length", grid.seq_lens, grid.seq_lens[-1]),
            "batch": choice("batch size", grid.batches, grid.batches[-1]),
        },
        name="cost",
        update=lambda fig, seq_len, batch: update_cost(fig, seq_len, batch, grid),
        background=("batch",),  # the measured lines and the axes depend on the batch, not on N
    )


# --- exercises --------------------------------------------------------------------------


def _small_shape() -> tuple[int, int, int]:
    """batch 2..5 < dim 8..32 (a multiple of 4 heads) and an odd seq_len 7..31: no two can be swapped."""
    g = torch.randint(0, 1000, (3,)).tolist()
    return 2 + g[0] % 4, 7 + 2 * (g[1] % 13), 8 * (1 + g[2] % 4)  # batch, seq_len, dim


register_exercise(
    "lstm_flops",
    reference=lambda b, n, d: counted_lstm_flops(b, n, d),
    make_inputs=_small_shape,
    hint="an LSTM step computes four gates, and each gate is computed as the tanh RNN's one step is: "
    "from x_t and h_(t-1), two (B, d) x (d, d) products of 2 B d^2 FLOPs each.",
    worked="Each of the N steps computes four gates (input, forget, cell, output),\n"
    "each from x_t W^T and h W^T: eight (B, d) x (d, d) matmuls per step, 2 B d^2 FLOPs each;\n"
    "the biases and nonlinearities are not counted.\n"
    "def lstm_flops(B, N, d): return N * 8 * (2 * B * d**2)   # = 16 B N d^2, four times the tanh RNN\n"
    "e.g. B, N, d = 2, 9, 16: 16 * 2 * 9 * 16**2 = 73728.",
)
register_exercise(
    "lstm_attention_break_even",
    reference=lambda: 2 * D_MODEL,
    hint="set attention's 8 B N d^2 + 4 B N^2 d equal to the LSTM's count and solve for N: "
    "the factor B N d divides out of both sides.",
    worked="The LSTM does 16 B N d^2 (four gates, each two products), attention 8 B N d^2 + 4 B N^2 d.\n"
    "Equal when 16 d = 8 d + 4 N, that is N = 2 d = 256 for d = 128.\n"
    "Above N = 256 attention does more FLOPs than the LSTM; at N = 512, 1.5 times as many.",
)
register_exercise(
    "widget_flop_ratio",
    reference=lambda: 256 / D_MODEL + 2,
    hint="the title gives F_att / F_RNN = (8 B N d^2 + 4 B N^2 d) / (4 B N d^2): "
    "does the batch B survive the division?",
    worked="F_att / F_RNN = (8 B N d^2 + 4 B N^2 d) / (4 B N d^2) = 2 + N / d: the batch cancels.\n"
    "At N = 256, d = 128: 2 + 2 = 4, at batch 1 as at batch 32.",
)


# --- figures and the numbers the prose quotes ----------------------------------------------


STYLES = {  # colour, marker, line: colour says the family, marker and line tell them apart in grey
    LOOP: (COLORS[7], "o", ":"),
    RNN: (COLORS[0], "s", "-"),
    LSTM: (COLORS[5], "D", "-."),
    MHA: (COLORS[3], "^", "--"),
    FAST_MHA: (COLORS[3], "v", "-"),
}
PASSES = {"fwd": "forward", "fwd+bwd": "forward + backward"}


def _line(ax, rows: list[dict], x: str, y: str, label: str, style: tuple, **kw) -> None:
    """Plot the rows' y against x (rows that ran out of memory are left out) in a model's style."""
    points = sorted((r[x], r[y]) for r in rows if isinstance(r[y], float))
    color, marker, ls = style
    ax.plot(*zip(*points), color=color, marker=marker, ls=ls, ms=4, label=label, **kw)


def _log_log(ax, **labels) -> None:
    """Sequence length on a base-2 log axis, the measured quantity on a base-10 one."""
    ax.set(**labels)
    log_axis(ax, "x", base=2)
    log_axis(ax, "y")


def plot_times(rows: list[dict]) -> Figure:
    """Time against N on the GPU, d = 128, fp32: forward and forward + backward, batch 1 and 32."""
    fig, axes = new_figure(2, 2, width=10.0, height=6.6, sharex=True)
    for (i, pass_), (j, batch) in itertools.product(enumerate(PASSES), enumerate((1, 32))):
        ax = axes[i, j]
        for model in SWEEP_MODELS:
            _line(
                ax,
                pick(rows, batch=batch, pass_=pass_, model=model),
                "seq_len",
                "median_ms",
                model,
                STYLES[model],
            )
        _log_log(ax, title=f"{PASSES[pass_]}, batch {batch}", ylabel="time (ms, median)")
    for ax in axes[1]:
        ax.set_xlabel("sequence length N")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"{rows[0]['device']}, d = 128, float32 (measured; {rows[0]['torch']})", fontsize=10)
    return fig


def plot_width_precision(rows: list[dict]) -> Figure:
    """Forward + backward time at batch 32 against N: d = 128 and 1024, float32 and bfloat16."""
    fig, axes = new_figure(1, 2, width=10.0, height=3.6, sharey=True)
    for ax, dim in zip(axes, (128, 1024)):
        for model in (RNN, LSTM, FAST_MHA):
            _line(
                ax,
                pick(rows, dim=dim, dtype="float32", model=model),
                "seq_len",
                "median_ms",
                f"{model}, fp32",
                STYLES[model],
            )
        _line(
            ax,
            pick(rows, dim=dim, dtype="bfloat16", model=FAST_MHA),
            "seq_len",
            "median_ms",
            f"{FAST_MHA}, bf16",
            (COLORS[2], "*", "-"),  # stars: told apart from fp32's triangles without colour
            lw=2,
        )
        slow = " (a slow path)" if dim == 128 else ""
        _line(
            ax,
            pick(rows, dim=dim, dtype="bfloat16", model=RNN),
            "seq_len",
            "median_ms",
            f"{RNN}, bf16{slow}",
            (COLORS[0], "x", ":"),
        )
        _log_log(ax, xlabel="sequence length N", title=f"d = {dim}, batch 32")
        ax.legend(fontsize=7)  # each panel its own: only d = 128 has the slow path
    axes[0].set_ylabel("forward + backward (ms)")
    return fig


def plot_memory(rows: list[dict]) -> Figure:
    """Peak GPU memory against N at batch 32: the article's MHA call against need_weights=False."""
    fig, axes = new_figure(1, 2, width=10.0, height=3.6, sharey=True)
    for ax, pass_ in zip(axes, PASSES):
        for model in (MHA, FAST_MHA, RNN, LSTM):
            _line(
                ax,
                pick(rows, batch=32, pass_=pass_, model=model),
                "seq_len",
                "peak_mib",
                model,
                STYLES[model],
            )
        _log_log(ax, xlabel="sequence length N", title=f"{PASSES[pass_]}, batch 32")
    axes[0].set_ylabel("peak GPU memory (MiB)")
    axes[0].legend(fontsize=7)
    return fig
