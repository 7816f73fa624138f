"""A linear, element-wise recurrence h_t = a_t * h_{t-1} + b_t, computed four ways: a loop
(N dependent steps), a parallel scan (ceil(log2 N) steps of work on all t at once), a
convolution (when a does not change with t) and chunks (when a_t is one number per step).

The trick (Blelloch 1990; Martin & Cundy 2018): one step is the affine map
h -> a h + b, and composing affine maps is associative:

    (a1, b1) then (a2, b2)  =  (a2 * a1, a2 * b1 + b2).

So the prefix compositions can be combined in any grouping, e.g. as a tree. Only the
*linear* recurrence has this property; h_t = tanh(W h_{t-1} + ...) does not. Element-wise
(diagonal) a_t keeps each combine as cheap as a step: no d x d matrix product in the chain.

Which model uses which: RWKV-4 runs the loop in a CUDA kernel (Peng et al. 2023); Mamba a
hardware-aware scan (Gu & Dao 2023); minGRU a scan (Feng et al. 2024); S4 the convolution
(Gu, Goel & Ré 2022); Mamba-2 the chunks (Dao & Gu 2024).
"""

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


def linear_recurrence_conv(a: torch.Tensor, b: torch.Tensor, h0: torch.Tensor | None = None) -> torch.Tensor:
    """The same h (N, ...) when the decay does not change with t: a causal convolution.

    a (...) is one decay per channel, the same at every step (a linear time-invariant system,
    as in S4: Gu, Goel & Ré 2022). Unrolled, h_t = sum_{s<=t} a^(t-s) b_s (+ a^(t+1) h0): the
    convolution of b with the kernel (1, a, a^2, ...), computed here with FFTs in O(N log N).
    An input-dependent a_t (Mamba) has no fixed kernel, so it needs the loop or the scan.
    """
    require_tensor(a, "a")
    require_tensor(b, "b")
    if b.dim() == 0 or a.shape != b.shape[1:]:
        raise ValueError(
            f"a must have the shape of one step of b (one decay per channel, the same at every t): "
            f"a {tuple(a.shape)}, b {tuple(b.shape)}"
        )
    N = len(b)
    powers = torch.arange(N, dtype=b.dtype).view(N, *[1] * a.dim())  # (N, 1, ...)
    kernel = a**powers  # (N, ...): a^0, a^1, ..., a^(N-1)
    n = 2 * N  # zero-padded: the circular convolution of the FFT becomes a linear one
    h = torch.fft.irfft(torch.fft.rfft(b, n=n, dim=0) * torch.fft.rfft(kernel, n=n, dim=0), n=n, dim=0)[:N]
    return h if h0 is None else h + a * kernel * h0


def linear_recurrence_chunked(
    a: torch.Tensor, b: torch.Tensor, chunk: int, h0: torch.Tensor | None = None
) -> torch.Tensor:
    """The same h (N, ...) in chunks: one matrix product inside each chunk, a short loop between them.

    a (N,) is one positive decay per step, shared by every channel (Mamba-2's scalar A_t:
    Dao & Gu 2024). Inside a chunk of C steps, h = L b_chunk + (a_1...a_i) h_in, where
    L[i, j] = a_{j+1} ... a_i (j <= i) is a (C, C) lower-triangular matrix: a matmul, which
    tensor cores run fast. Between chunks the state is carried over: N / C dependent steps.
    """
    require_tensor(a, "a")
    require_tensor(b, "b")
    if a.dim() != 1 or b.dim() == 0 or len(a) != len(b):
        raise ValueError(
            f"a must be (N,), one decay per step shared by every channel, and b (N, ...): "
            f"got a {tuple(a.shape)}, b {tuple(b.shape)}"
        )
    if not bool((a > 0).all()):
        raise ValueError("a must be positive (a decay in (0, 1], as exp(dt * A) in Mamba-2)")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an integer >= 1, got {chunk!r}")
    h = torch.zeros_like(b[0]) if h0 is None else h0
    out = []
    for start in range(0, len(a), chunk):  # sequential: chunk c needs the state after chunk c-1
        log_a, b_c = a[start : start + chunk].log(), b[start : start + chunk]  # (C,), (C, ...)
        S = log_a.cumsum(0)  # (C,): log(a_1 ... a_i) within the chunk
        C = len(S)
        later = torch.ones(C, C, dtype=torch.bool).triu(1)  # j > i: step j comes after i
        L = (S[:, None] - S[None, :]).masked_fill(later, float("-inf")).exp()  # (C, C)
        y = (L @ b_c.reshape(C, -1)).view_as(b_c)  # (C, ...): all C steps in one matmul
        y = y + S.exp().view(C, *[1] * (b.dim() - 1)) * h  # the state carried in
        out.append(y)
        h = y[-1]
    return torch.cat(out)  # (N, ...)


def scan_steps(N: int) -> int:
    """Parallel steps of the Hillis-Steele scan over N positions: ceil(log2 N)."""
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise ValueError(f"N must be an integer >= 1, got {N!r}")
    return math.ceil(math.log2(N)) if N > 1 else 0
