"""Timing and counting: how long the article's models take, and how much work they do.

Wall time is measured with torch.utils.benchmark (warm-up, repeats, median and IQR,
a fixed thread count); work is counted with torch.utils.flop_counter.FlopCounterMode,
which is exact and deterministic, and operators by walking the autograd graph.
Notebooks 06 and 08 use what is here.
"""

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn
from torch.utils import benchmark
from torch.utils.flop_counter import FlopCounterMode

from .checks import require_positive_int
from .exercises import register_exercise
from .plots import COLORS, fix_margins, log_axis, new_figure
from .tables import Table
from .widgets import Explorer, choice, register


@contextlib.contextmanager
def thread_count(n: int):
    """Run the body on `n` CPU threads, then restore the previous count."""
    require_positive_int(n, "threads")
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def one_thread():
    """Run small matrix work on one CPU thread: faster and steadier than several on small sizes."""
    return thread_count(1)


THREADS = 1  # every timing runs on one CPU thread: comparable across machines, robust under load
D_MODEL = 128  # the article's embedding_dim
HEADS = 4  # the article's num_heads
MODELS = ("RNNCell loop", "nn.RNN (fused)", "attention (MHA)")


# --- the article's two models, copied exactly, and PyTorch's fused RNN -----------------
# Notebook 06 also shows these classes verbatim, because it runs the article's snippet as
# written; this copy serves the benchmark grid and the widget, which also run outside 06.


class CustomRNN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.rnn_cell = nn.RNNCell(dim, dim)

    def forward(self, x):
        h = torch.zeros(x.size(0), x.size(2), device=x.device)
        # Sequential loop over time steps (cannot be parallelised)
        for t in range(x.size(1)):
            h = self.rnn_cell(x[:, t, :], h)
        return h


class CustomSelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.num_heads = 4
        self.mha = nn.MultiheadAttention(dim, self.num_heads, batch_first=True)

    def forward(self, x):
        # Parallel matrix multiplication over all time steps
        attn_out, _ = self.mha(x, x, x)
        return attn_out


class FusedRNN(nn.Module):
    """The same recurrence as CustomRNN, run by torch.nn.RNN's C++ loop: x (B, N, d) -> h_N (B, d)."""

    def __init__(self, dim: int):
        super().__init__()
        self.rnn = nn.RNN(dim, dim, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _, h_n = self.rnn(x)  # h_n (1, B, d)
        return h_n[0]  # (B, d)


def article_models(dim: int = D_MODEL, device: str | torch.device = "cpu") -> dict[str, nn.Module]:
    """The three models compared, by name (MODELS), on `device`; dim must be divisible by 4."""
    require_positive_int(dim, "dim")
    if dim % HEADS:
        raise ValueError(f"dim={dim} must be divisible by the article's {HEADS} heads")
    models = [CustomRNN(dim), FusedRNN(dim), CustomSelfAttention(dim)]
    return {name: m.to(device) for name, m in zip(MODELS, models)}


# --- wall time ------------------------------------------------------------------------


@dataclass
class Timing:
    """Per-call wall time of one workload, in milliseconds: median, quartiles (IQR), runs."""

    median_ms: float
    q1_ms: float  # first quartile: a quarter of the runs were faster
    q3_ms: float  # third quartile: a quarter were slower
    runs: int

    @classmethod
    def from_seconds(cls, times: list[float]) -> "Timing":
        """Summarise per-call times given in seconds."""
        ms = torch.tensor(times, dtype=torch.float64) * 1000
        q1, med, q3 = ms.quantile(torch.tensor([0.25, 0.5, 0.75], dtype=torch.float64)).tolist()
        return cls(med, q1, q3, len(times))

    def __str__(self) -> str:
        return f"{self.median_ms:8.2f} ms (IQR {self.q1_ms:.2f}-{self.q3_ms:.2f}, {self.runs} runs)"


def _sync(device: torch.device | str) -> None:
    """Wait for queued GPU kernels (a no-op on the CPU)."""
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


def _block(fn: Callable[[], object], number: int, device) -> float:
    """Seconds per call of fn over a block of `number` calls, synchronised on a GPU."""
    _sync(device)
    start = time.perf_counter()
    for _ in range(number):
        fn()
    _sync(device)
    return max(time.perf_counter() - start, 1e-9) / number


def _calls_per_block(fn: Callable[[], object], device) -> tuple[float, int]:
    """Warm fn up; return the seconds of one warm call and how many calls fill 5 ms."""
    one = _block(fn, 1, device)  # warm-up: allocations, caches, lazy set-up
    if one < 0.005:  # tiny: size the block from a warm call
        one = _block(fn, 1, device)
    return one, max(1, int(0.005 / one))


def time_fn(
    fn: Callable[[], object],
    *,
    repeats: int = 5,
    threads: int | None = None,
    device: str | torch.device = "cpu",
) -> Timing:
    """Warm up `fn`, then time it with torch.utils.benchmark.Timer.blocked_autorange.

    Tiny calls are repeated inside each timed block so that the timer's own cost is
    negligible. On a GPU the benchmark timer synchronises, so queued kernels are counted.
    """
    n_threads = THREADS if threads is None else threads  # read at call time: set timing.THREADS
    require_positive_int(repeats, "repeats")
    with thread_count(n_threads):
        one, _ = _calls_per_block(fn, device)  # warm-up
        timer = benchmark.Timer("fn()", globals={"fn": fn}, num_threads=n_threads)
        times = []  # seconds per call, one entry per timed block
        while len(times) < repeats:  # each autorange times blocks for min_run_time
            left = repeats - len(times)
            times += timer.blocked_autorange(min_run_time=max(0.02, left * one)).times
    return Timing.from_seconds(times)


def time_fns(
    fns: dict[str, Callable[[], object]],
    *,
    repeats: int = 5,
    threads: int | None = None,
    device: str | torch.device = "cpu",
) -> dict[str, Timing]:
    """Time several calls *interleaved*: after a warm-up of each, every round times each once.

    A burst of load from other programs then slows all of them alike, instead of biasing
    whichever happened to be measured during it. Tiny calls are timed in blocks of >= 5 ms.
    """
    require_positive_int(repeats, "repeats")
    with thread_count(THREADS if threads is None else threads):
        number = {name: _calls_per_block(fn, device)[1] for name, fn in fns.items()}  # warm-up
        times = {name: [] for name in fns}
        for _ in range(repeats):
            for name, fn in fns.items():
                times[name].append(_block(fn, number[name], device))
    return {name: Timing.from_seconds(t) for name, t in times.items()}


def workload(model: nn.Module, x: torch.Tensor, backward: bool = False) -> Callable[[], None]:
    """A call to time: model(x) (forward, as the article runs it), or model(x).sum().backward()."""
    if backward:
        return lambda: model(x).sum().backward()
    return lambda: model(x)


def time_models(
    batch: int,
    seq_len: int,
    dim: int = D_MODEL,
    *,
    backward: bool = False,
    repeats: int = 5,
    device: str | torch.device = "cpu",
) -> dict[str, Timing]:
    """Time the three models (MODELS) on one random input x (batch, seq_len, dim)."""
    require_positive_int(batch, "batch")
    require_positive_int(seq_len, "seq_len")
    models = article_models(dim, device)
    x = torch.randn(batch, seq_len, dim, device=device)
    return time_fns(
        {name: workload(m, x, backward) for name, m in models.items()}, repeats=repeats, device=device
    )


def show(times: dict[str, Timing], title: str) -> None:
    """Print each model's median time (IQR) and its ratio to the fused nn.RNN."""
    print(title)
    base = times[MODELS[1]].median_ms
    for name, t in times.items():
        print(f"  {name:<16}{t}  = {t.median_ms / base:4.1f} x nn.RNN")


def devices() -> list[str]:
    """Where to time: the CPU, and the GPU when there is one."""
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


# --- work: FLOPs and operator calls -----------------------------------------------------


def count_flops(fn: Callable[[], object]) -> int:
    """FLOPs of fn(), counted by FlopCounterMode: matmuls and convolutions, a multiply-add counts 2."""
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


def rnn_flops(batch: int, seq_len: int, dim: int) -> int:
    """Forward FLOPs of the RNN: per step x_t W_ih^T and h W_hh^T, 2 B d^2 each: 4 B N d^2."""
    return 4 * batch * seq_len * dim**2


def attention_flops(batch: int, seq_len: int, dim: int) -> int:
    """Forward FLOPs of nn.MultiheadAttention: projections 8 B N d^2, QK^T and AV 4 B N^2 d."""
    return 8 * batch * seq_len * dim**2 + 4 * batch * seq_len**2 * dim


def counted_flops(name: str, batch: int, seq_len: int, dim: int, backward: bool = False) -> int:
    """FlopCounterMode's count for model `name` (one of MODELS) on zeros (batch, seq_len, dim)."""
    if name not in MODELS:
        raise ValueError(f"name must be one of {MODELS}, got {name!r}")
    # meta tensors carry shapes only, so attention's big products cost nothing to count;
    # the RNNs' thousands of tiny operators are quicker on the CPU
    device = "meta" if name == MODELS[2] else "cpu"
    model = article_models(dim, device)[name]
    return count_flops(workload(model, torch.zeros(batch, seq_len, dim, device=device), backward))


def autograd_nodes(output: torch.Tensor) -> list:
    """The autograd graph behind `output`, children before parents (an iterative post-order)."""
    order, seen, stack = [], set(), [(output.grad_fn, False)]
    while stack:  # no recursion limit
        node, done = stack.pop()
        if done:
            order.append(node)
        elif node is not None and node not in seen:
            seen.add(node)
            stack.append((node, True))
            stack.extend((child, False) for child, _ in node.next_functions)
    return order


def operator_calls(model: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> int:
    """ATen operators that model(x) runs from x and its weights to the output: its autograd graph's nodes."""
    with torch.enable_grad():
        nodes = autograd_nodes(model(x.detach().requires_grad_()))
    return sum(not hasattr(node, "variable") for node in nodes)  # AccumulateGrad (a leaf's) is no operator


def _calls_at(name: str, seq_len: int, dim: int) -> int:
    """Operator calls of one forward of model `name` on zeros (1, seq_len, dim)."""
    return operator_calls(article_models(dim)[name], torch.zeros(1, seq_len, dim))


def complexity_table(seq_len: int = 512, dim: int = D_MODEL) -> Table:
    """The article's table (Vaswani et al. 2017, Table 1, rows 1-3) beside counts made here, at B=1."""
    rnn, att = MODELS[1], MODELS[2]

    def calls(name):  # operator calls at N, then at 2N
        return f"{_calls_at(name, seq_len, dim)} -> {_calls_at(name, 2 * seq_len, dim)} operator calls"

    def growth(name, n, d):  # FLOPs at (n, d) over FLOPs at (seq_len, dim)
        return f"x{counted_flops(name, 1, n, d) / counted_flops(name, 1, seq_len, dim):.2f}"

    return Table(
        ["", "article: RNN", f"counted: {rnn}", "article: attention", f"counted: {att}"],
        [
            ["sequential operations", "O(N)", calls(rnn), "O(1)", calls(att)],
            ["FLOPs per layer", "O(N d^2)", "4 N d^2", "O(N^2 d)", "8 N d^2 + 4 N^2 d"],
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
            ["maximum path length", "O(N)", "N (notebook 04)", "O(1)", "1 (notebook 04)"],
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


LATEST_GRID: list[Grid] = []  # the last grid measured; the explorer draws it


def measure_grid(
    seq_lens=(16, 32, 64, 128, 256, 512),
    batches=(1, 4, 32),
    dim: int = D_MODEL,
    repeats: int = 4,
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
    LATEST_GRID[:] = [Grid(tuple(seq_lens), tuple(batches), dim, times)]
    return LATEST_GRID[0]


def plot_cost(seq_len: int = 512, batch: int = 32, grid: Grid | None = None):
    """Measured forward time (left) and FLOPs (right) against sequence length N, at one batch."""
    grid = grid or (LATEST_GRID[0] if LATEST_GRID else None)
    if grid is None:
        raise ValueError("no measurements yet: run measure_grid() first")
    at = grid.at(batch, seq_len)  # checks that (batch, seq_len) was measured
    fig, (ax_t, ax_f) = new_figure(1, 2, width=10, height=3.6)
    fix_margins(fig, left=0.07, right=0.99, bottom=0.14, top=0.9, wspace=0.22)
    for dev, style in zip(grid.devices, ("-o", "--s")):
        for name, color in zip(MODELS, COLORS):
            ts = [grid.times[(dev, name, batch, n)] for n in grid.seq_lens]
            ax_t.errorbar(
                grid.seq_lens,
                [t.median_ms for t in ts],
                fmt=style,
                color=color,
                ms=4,
                yerr=[[t.median_ms - t.q1_ms for t in ts], [t.q3_ms - t.median_ms for t in ts]],
                label=f"{name}, {dev}",
            )
    ns = [n for n in range(grid.seq_lens[0], grid.seq_lens[-1] + 1, 4)]
    ax_f.plot(ns, [rnn_flops(batch, n, grid.dim) for n in ns], color=COLORS[0], label="RNN (loop or fused)")
    ax_f.plot(ns, [attention_flops(batch, n, grid.dim) for n in ns], color=COLORS[2], label=MODELS[2])
    ax_f.plot(
        ns,
        [4 * batch * n**2 * grid.dim for n in ns],
        color=COLORS[2],
        ls="--",
        label="attention: QKᵀ and AV only, 4BN²d",
    )
    ax_f.axvline(grid.dim, color="gray", ls=":", label=f"N = d = {grid.dim}: N²d = Nd²")
    for ax in (ax_t, ax_f):
        ax.axvline(seq_len, color="black", ls="-.", lw=1, label=f"chosen N = {seq_len}")
        log_axis(ax, "x", ticks=grid.seq_lens)
        log_axis(ax, "y", subs=(1.0, 3.0))
        ax.set_xlabel("sequence length N (tokens)")
        ax.legend(fontsize=8, loc="upper left")
    ratio = at[MODELS[2]].median_ms / at[MODELS[1]].median_ms
    ax_t.set(
        ylabel="forward time (ms; median, IQR bars)",
        title=f"measured ({grid.devices[0]}), B={batch}; at N={seq_len}: attention / nn.RNN = {ratio:.2g}",
    )
    flop_ratio = attention_flops(batch, seq_len, grid.dim) / rnn_flops(batch, seq_len, grid.dim)
    ax_f.set(
        ylabel="forward FLOPs (multiply-add = 2)",
        title=f"counted, B={batch}; at N={seq_len}: attention / RNN = N/d + 2 = {flop_ratio:.3g}",
    )
    return fig


@register
def explore_cost() -> Explorer:
    """Sliders for sequence length and batch size over the measured grid (no re-timing)."""
    if not LATEST_GRID:  # outside notebook 06: measure a small grid first (a second or two)
        measure_grid(seq_lens=(16, 64, 256), batches=(1, 32), repeats=1)
    grid = LATEST_GRID[0]
    return Explorer(
        lambda seq_len, batch: plot_cost(seq_len, batch, grid),
        {
            "seq_len": choice("sequence length", grid.seq_lens, grid.seq_lens[-1]),
            "batch": choice("batch size", grid.batches, grid.batches[-1]),
        },
        name="cost",
    )


# --- exercises --------------------------------------------------------------------------


def _small_shape() -> tuple[int, int, int]:
    """batch 2..5 < dim 8..32 (a multiple of 4 heads) and an odd seq_len 7..31: no two can be swapped."""
    g = torch.randint(0, 1000, (3,)).tolist()
    return 2 + g[0] % 4, 7 + 2 * (g[1] % 13), 8 * (1 + g[2] % 4)  # batch, seq_len, dim


register_exercise(
    "rnn_flops",
    reference=lambda b, n, d: counted_flops(MODELS[0], b, n, d),
    make_inputs=_small_shape,
    hint="each of the N steps does two (B, d) x (d, d) matmuls; one costs 2 B d^2.",
    worked="Each of the N steps runs x_t W_ih^T and h W_hh^T: two (B, d) x (d, d) matmuls.\n"
    "One costs B d^2 multiply-adds = 2 B d^2 FLOPs; the biases and tanh are not counted.\n"
    "def rnn_flops(B, N, d): return N * 2 * (2 * B * d**2)   # = 4 B N d^2\n"
    "e.g. B, N, d = 2, 9, 16: 4 * 2 * 9 * 16**2 = 18432.",
)
register_exercise(
    "attention_flops",
    reference=lambda b, n, d: counted_flops(MODELS[2], b, n, d),
    make_inputs=_small_shape,
    hint="four (B N, d) x (d, d) projections (q, k, v, out), then Q K^T and A V, "
    "2 B N^2 d each; a multiply-add counts as 2 FLOPs.",
    worked="q, k, v and the output projection: four (B N, d) x (d, d) matmuls, 2 B N d^2 each.\n"
    "Q K^T and A V over the heads: (N, d/h) x (d/h, N) per head, 2 B N^2 d each in all.\n"
    "def attention_flops(B, N, d): return 8 * B * N * d**2 + 4 * B * N**2 * d\n"
    "e.g. B, N, d = 2, 9, 16: 8*2*9*16**2 + 4*2*9**2*16 = 36864 + 10368 = 47232.",
)
register_exercise(
    "ten_times_the_flops",
    reference=lambda: 8 * D_MODEL,
    hint="solve N/d + 2 = 10 for N, with d = 128.",
    worked="attention / RNN = (8 B N d^2 + 4 B N^2 d) / (4 B N d^2) = 2 + N/d.\n"
    "2 + N/d = 10 gives N = 8 d; with d = 128: N = 8 * 128 = 1024.",
)
