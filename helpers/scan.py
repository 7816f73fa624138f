"""A linear recurrence h_t = a_t * h_{t-1} + b_t, computed two ways: a loop (N dependent
steps) and a parallel scan (ceil(log2 N) steps of work on all t at once).

The trick (Blelloch 1990; Martin & Cundy 2018): one step is the affine map
h -> a h + b, and composing affine maps is associative:

    (a1, b1) then (a2, b2)  =  (a2 * a1, a2 * b1 + b2).

So the prefix compositions can be combined in any grouping, e.g. as a tree. Only the
*linear* recurrence has this property; h_t = tanh(W h_{t-1} + ...) does not."""

import math

import torch

from .checks import require_tensor


def _check(a: torch.Tensor, b: torch.Tensor) -> None:
    require_tensor(a, "a")
    require_tensor(b, "b")
    if a.shape != b.shape or a.dim() == 0:
        raise ValueError(
            f"a and b must have the same shape (N, ...) with time first, got "
            f"{tuple(a.shape)} and {tuple(b.shape)}"
        )


def combine(
    left: tuple[torch.Tensor, torch.Tensor], right: tuple[torch.Tensor, torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor]:
    """Compose two affine steps: first `left` = (a1, b1), then `right` = (a2, b2)."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


def linear_recurrence_loop(a: torch.Tensor, b: torch.Tensor, h0: torch.Tensor | None = None) -> torch.Tensor:
    """h_t = a_t * h_{t-1} + b_t for t = 0..N-1, one step after another.

    a, b (N, ...) with time first (elementwise, e.g. (N, B, d)); h0 (...) or zeros.
    Returns h (N, ...). N dependent steps.
    """
    _check(a, b)
    h = torch.zeros_like(b[0]) if h0 is None else h0
    out = []
    for a_t, b_t in zip(a, b):  # sequential: step t needs h_{t-1}
        h = a_t * h + b_t
        out.append(h)
    return torch.stack(out)  # (N, ...)


def linear_recurrence_scan(
    a: torch.Tensor, b: torch.Tensor, h0: torch.Tensor | None = None, return_steps: bool = False
):
    """The same h (N, ...) by a Hillis-Steele inclusive scan: ceil(log2 N) parallel steps.

    After the step with offset k, position t holds the composition of steps t-2k+1..t.
    Each step updates all positions at once (O(N) work per step, O(N log N) in all;
    Blelloch's two-sweep scan does O(N) work in 2 log2 N steps).
    """
    _check(a, b)
    A, Bc = a.clone(), b.clone()  # (N, ...): the composite map ending at each t
    steps, k = 0, 1
    while k < len(a):
        A_new, B_new = combine((A[:-k], Bc[:-k]), (A[k:], Bc[k:]))  # (N-k, ...) all at once
        A = torch.cat([A[:k], A_new])
        Bc = torch.cat([Bc[:k], B_new])
        steps, k = steps + 1, 2 * k
    h = Bc if h0 is None else A * h0 + Bc  # h_t = (a_t...a_0) h0 + B_t
    return (h, steps) if return_steps else h


def scan_steps(N: int) -> int:
    """Parallel steps of the Hillis-Steele scan over N positions: ceil(log2 N)."""
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise ValueError(f"N must be an integer >= 1, got {N!r}")
    return math.ceil(math.log2(N)) if N > 1 else 0
