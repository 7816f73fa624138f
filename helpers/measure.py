"""Measuring work: threads, one timer, one FLOP counter, one operator counter, graph depth."""

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn
from torch.utils import benchmark
from torch.utils.flop_counter import FlopCounterMode

from .checks import require_positive_int


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
    n_threads = THREADS if threads is None else threads  # read at call time: set measure.THREADS
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


def devices() -> list[str]:
    """Where to time: the CPU, and the GPU when there is one."""
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


# --- work: FLOPs and operator calls -----------------------------------------------------


def count_flops(fn: Callable[[], object]) -> int:
    """FLOPs of fn(), counted by FlopCounterMode: matmuls and convolutions, a multiply-add counts 2."""
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


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


# --- dependent steps: the longest chain in the autograd graph ----------------------------


def graph_depth(output: torch.Tensor) -> int:
    """The longest chain of autograd operations from `output` back to the inputs."""
    depth = {}
    for node in autograd_nodes(output):  # children come before parents
        depth[node] = 1 + max((depth.get(c, 0) for c, _ in node.next_functions if c), default=0)
    return depth[output.grad_fn]
