"""The article's models on a GPU: the measurements shipped with the course, and how to redo them.

helpers/data/gpu/ holds sweeps measured on an NVIDIA H200 (its README gives the provenance
and the columns). `measure_sweep` and `measure_width` redo them on any device in the same CSV
formats (`make gpu-bench`, tools/gpu_bench.py); on a CPU they run a small grid in the tests.
Every time is a median of 5 blocks by helpers.measure.time_fns, synchronised on a GPU. The sweeps
time each model separately, one time_fns call per model, as the shipped files were measured
(so their models were not interleaved); `time_here` interleaves the models it is given."""

import csv
from pathlib import Path

import torch
from torch import nn

from .article import D_MODEL, FastAttention, FusedLSTM, FusedRNN, article_models
from .measure import Timing, time_fns, workload
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
PASSES = ("fwd", "fwd+bwd")
NUMBERS = {"batch", "seq_len", "dim", "heads", "runs", "median_ms", "q1_ms", "q3_ms", "peak_mib"}


# --- the shipped measurements -------------------------------------------------------------


def read(name: str) -> list[dict]:
    """The rows of helpers/data/gpu/<name>.csv, numbers as numbers ("OOM" stays text)."""
    path = DATA / f"{name}.csv"
    if not path.exists():
        known = sorted(p.stem for p in DATA.glob("*.csv"))
        raise ValueError(f"no GPU measurement called {name!r}; known: {', '.join(known)}")
    with path.open(newline="") as f:
        return [{k: _number(v) if k in NUMBERS else v for k, v in row.items()} for row in csv.DictReader(f)]


def executed_06() -> dict[str, dict[str, float]]:
    """Another run at B = 32, N = 512, d = 128, fp32: notebook 06 executed top to bottom on the
    same H200, separately from the sweeps (h200_notebook06.csv; README.md there gives its
    provenance): pass ("fwd", "fwd+bwd") -> model -> median ms."""
    times: dict[str, dict[str, float]] = {}
    for row in read("h200_notebook06"):
        times.setdefault(row["pass"], {})[row["model"]] = row["median_ms"]
    if set(times) != set(PASSES):
        raise ValueError(f"h200_notebook06.csv: expected GPU times for {PASSES}, found {sorted(times)}")
    return times


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
        models = article_models(dim, device)
        models[FAST_MHA] = FastAttention(dim).to(device)
        models[LSTM] = FusedLSTM(dim).to(device)
    return models


def _measure(model: nn.Module, x: torch.Tensor, backward: bool) -> dict:
    """Median, quartiles and runs of model(x) (with backward), and the peak GPU memory in MiB.

    The model is timed on its own (median of 5 blocks), not interleaved with the others: the
    peak memory is then this model's alone."""
    cuda = x.device.type == "cuda"
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    try:
        t = time_fns({"m": workload(model, x, backward)}, repeats=5, device=x.device)["m"]
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
    dim: int = D_MODEL,
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
                    (RNN, FusedRNN(dim)),
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


RUNS_AT_512 = {  # the H200 files that timed B = 32, N = 512, d = 128, fp32, forward + backward
    "sweep": ("h200_sweep", {}),
    "width/precision": ("h200_width_precision", {"dtype": "float32"}),
    "width/precision, unflattened": ("h200_width_precision_unflattened", {"dtype": "float32"}),
    "TF32 off": ("h200_tf32", {"tf32": "False", "dtype": "float32"}),
    "TF32 on": ("h200_tf32", {"tf32": "True", "dtype": "float32"}),
}


def runs_at_512(model: str = FAST_MHA, over: str = RNN) -> dict[str, tuple[float, float]]:
    """Every H200 run at the article's sizes, forward + backward: name -> (ms of `over`, ms of `model`)."""
    at = dict(batch=32, seq_len=512, dim=128, pass_="fwd+bwd")
    runs = {}
    for name, (csv_name, where) in RUNS_AT_512.items():
        rows = read(csv_name)
        runs[name] = (value(rows, model=over, **at, **where), value(rows, model=model, **at, **where))
    return runs


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
    dim: int = D_MODEL,
) -> dict[str, Timing]:
    """Time some of the sweep's models on this machine, in turns, on one random x (batch, seq_len, dim)."""
    everything = sweep_models(dim, device)
    x = torch.randn(batch, seq_len, dim, device=device, generator=torch.Generator(device).manual_seed(0))
    calls = {name: workload(everything[name], x, backward) for name in models}
    with torch.set_grad_enabled(backward):
        return time_fns(calls, repeats=repeats, device=device)
