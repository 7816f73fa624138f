"""The article's models on a GPU: the measurements shipped with the course, and how to redo them.

helpers/data/gpu/ holds sweeps measured on an NVIDIA H200 (its README gives the provenance
and the columns). `measure_sweep` and `measure_width` redo them on any device in the same CSV
formats (`make gpu-bench`, tools/gpu_bench.py); on a CPU they run a small grid in the tests.
Every time is a median of interleaved runs by helpers.timing.time_fns, synchronised on a GPU.
"""

import csv
import itertools
from pathlib import Path

import torch
from matplotlib.figure import Figure
from torch import nn

from . import timing
from .plots import COLORS, log_axis, new_figure
from .seed import seeded

DATA = Path(__file__).parent / "data" / "gpu"
SWEEP_COLUMNS = ["device", "torch", "batch", "seq_len", "dim", "pass", "model"] + [
    "median_ms",
    "q1_ms",
    "q3_ms",
    "runs",
    "peak_mib",
]
WIDTH_COLUMNS = ["device", "torch", "dtype", "dim", "heads", "batch", "seq_len", "pass", "model"] + [
    "median_ms",
    "q1_ms",
    "q3_ms",
    "peak_mib",
]
LOOP, RNN, MHA = "RNNCell loop", "nn.RNN (fused)", "attention (MHA)"  # the article's call of MHA
FAST_MHA, LSTM = "attention, need_weights=False", "nn.LSTM (fused)"
SWEEP_MODELS = (LOOP, RNN, MHA, FAST_MHA, LSTM)
NUMBERS = {"batch", "seq_len", "dim", "heads", "runs", "median_ms", "q1_ms", "q3_ms", "peak_mib"}


class FastAttention(nn.Module):
    """The article's attention asked for no weights: PyTorch's fused attention kernels.

    With need_weights=True (the default the article uses) nn.MultiheadAttention computes and
    returns the B x heads x N x N weights, so it cannot take the fused path.
    """

    def __init__(self, dim: int, heads: int = timing.HEADS):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mha(x, x, x, need_weights=False)[0]  # (B, N, d)


class FusedLSTM(nn.Module):
    """torch.nn.LSTM, one call for all N steps (cuDNN on a GPU): x (B, N, d) -> h_N (B, d)."""

    def __init__(self, dim: int):
        super().__init__()
        self.lstm = nn.LSTM(dim, dim, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lstm(x)[1][0][0]


# --- the shipped measurements -------------------------------------------------------------


def read(name: str) -> list[dict]:
    """The rows of helpers/data/gpu/<name>.csv, numbers as numbers ("OOM" stays text)."""
    path = DATA / f"{name}.csv"
    if not path.exists():
        known = sorted(p.stem for p in DATA.glob("*.csv"))
        raise ValueError(f"no GPU measurement called {name!r}; known: {', '.join(known)}")
    with path.open(newline="") as f:
        return [{k: _number(v) if k in NUMBERS else v for k, v in row.items()} for row in csv.DictReader(f)]


def _number(text: str) -> float | int | str:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def pick(rows: list[dict], **where) -> list[dict]:
    """The rows whose columns equal every `where` value (pass_="fwd" for the column "pass")."""
    where = {k.rstrip("_"): v for k, v in where.items()}
    return [r for r in rows if all(r[k] == v for k, v in where.items())]


def value(rows: list[dict], column: str = "median_ms", **where) -> float:
    """The one row matching `where`, its `column`."""
    found = pick(rows, **where)
    if len(found) != 1:
        raise ValueError(f"expected one row for {where}, found {len(found)}")
    return found[0][column]


# --- measuring again ----------------------------------------------------------------------


def sweep_models(dim: int, device: str | torch.device) -> dict[str, nn.Module]:
    """The five models of the sweep, by name (SWEEP_MODELS), on `device` (weights drawn under seed 0)."""
    with seeded(0):
        models = timing.article_models(dim, device)
        models[FAST_MHA] = FastAttention(dim).to(device)
        models[LSTM] = FusedLSTM(dim).to(device)
    return models


def _measure(model: nn.Module, x: torch.Tensor, backward: bool) -> dict:
    """Median, quartiles and runs of model(x) (with backward), and the peak GPU memory in MiB."""
    cuda = x.device.type == "cuda"
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    try:
        t = timing.time_fns({"m": timing.workload(model, x, backward)}, repeats=5, device=x.device)["m"]
    except torch.OutOfMemoryError:
        return {"median_ms": "OOM", "q1_ms": "", "q3_ms": "", "runs": 0, "peak_mib": ""}
    finally:
        model.zero_grad(set_to_none=True)
    peak = torch.cuda.max_memory_allocated() / 2**20 if cuda else 0.0
    return {
        "median_ms": round(t.median_ms, 4),
        "q1_ms": round(t.q1_ms, 4),
        "q3_ms": round(t.q3_ms, 4),
        "runs": t.runs,
        "peak_mib": round(peak, 1),
    }


def _device_name(device: torch.device) -> str:
    return torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"


def measure_sweep(
    device="cuda",
    seq_lens=(16, 64, 256, 512, 1024, 2048, 4096, 8192),
    batches=(1, 32),
    dim: int = timing.D_MODEL,
    loop_limit: int = 2048,
) -> list[dict]:
    """The h200_sweep grid: fp32, every model, forward and forward + backward.

    The Python loop's forward + backward is skipped above `loop_limit` steps (seconds per call).
    """
    device = torch.device(device)
    rows = []
    for backward in (False, True):
        for batch in batches:
            for n in seq_lens:
                for name, model in sweep_models(dim, device).items():
                    if name == LOOP and backward and n > loop_limit:
                        continue
                    x = torch.randn(batch, n, dim, device=device)
                    rows.append(
                        {
                            "device": _device_name(device),
                            "torch": torch.__version__,
                            "batch": batch,
                            "seq_len": n,
                            "dim": dim,
                            "pass": "fwd+bwd" if backward else "fwd",
                            "model": name,
                            **_measure(model, x, backward),
                        }
                    )
    return rows


def measure_width(
    device="cuda",
    seq_lens=(512, 2048, 8192),
    widths=((128, 4), (1024, 16)),
    dtypes=(torch.float32, torch.bfloat16),
    batch: int = 32,
) -> list[dict]:
    """The h200_width_precision grid: forward + backward of nn.RNN, nn.LSTM and fast attention."""
    device = torch.device(device)
    rows = []
    for dtype in dtypes:
        for dim, heads in widths:
            for n in seq_lens:
                for name, model in (
                    (RNN, timing.FusedRNN(dim)),
                    (LSTM, FusedLSTM(dim)),
                    (FAST_MHA, FastAttention(dim, heads)),
                ):
                    model = model.to(device, dtype)
                    for module in model.modules():
                        if isinstance(module, nn.RNNBase):
                            module.flatten_parameters()  # one contiguous weight buffer after the cast
                    x = torch.randn(batch, n, dim, device=device, dtype=dtype)
                    timed = _measure(model, x, backward=True)
                    del timed["runs"]
                    rows.append(
                        {
                            "device": _device_name(device),
                            "torch": torch.__version__,
                            "dtype": str(dtype).removeprefix("torch."),
                            "dim": dim,
                            "heads": heads,
                            "batch": batch,
                            "seq_len": n,
                            "pass": "fwd+bwd",
                            "model": name,
                            **timed,
                        }
                    )
    return rows


def write(rows: list[dict], path: Path, columns: list[str]) -> None:
    """Write rows as CSV with the shipped files' columns, in their order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, columns)
        writer.writeheader()
        writer.writerows(rows)


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
        color, marker, _ = STYLES[FAST_MHA]
        _line(
            ax,
            pick(rows, dim=dim, dtype="bfloat16", model=FAST_MHA),
            "seq_len",
            "median_ms",
            f"{FAST_MHA}, bf16",
            (COLORS[2], marker, "-"),
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
    axes[0].set_ylabel("forward + backward (ms)")
    axes[1].legend(fontsize=7)
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


def ratios(
    rows: list[dict], batch: int, pass_: str, model: str = FAST_MHA, over: str = RNN
) -> dict[int, float]:
    """time(model) / time(over) at each N measured for both."""
    mine, theirs = (
        pick(rows, batch=batch, pass_=pass_, model=model),
        pick(rows, batch=batch, pass_=pass_, model=over),
    )
    base = {r["seq_len"]: r["median_ms"] for r in theirs}
    return {r["seq_len"]: r["median_ms"] / base[r["seq_len"]] for r in mine if r["seq_len"] in base}


def time_here(
    models: list[str],
    batch: int = 32,
    seq_len: int = 512,
    *,
    backward: bool = False,
    device="cpu",
    repeats: int = 3,
    dim: int = timing.D_MODEL,
) -> dict[str, timing.Timing]:
    """Time some of the sweep's models on this machine, in turns, on one random x (batch, seq_len, dim)."""
    everything = sweep_models(dim, device)
    x = torch.randn(batch, seq_len, dim, device=device, generator=torch.Generator(device).manual_seed(0))
    calls = {name: timing.workload(everything[name], x, backward) for name in models}
    with torch.set_grad_enabled(backward):
        return timing.time_fns(calls, repeats=repeats, device=device)
