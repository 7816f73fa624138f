"""Jacobian norms: how much of a gradient survives k steps back, through an RNN, an LSTM or attention."""

import math

import numpy as np
import torch

from .checks import require_positive_int, require_square, require_tensor
from .lstm import forward_mode
from .measure import one_thread
from .rnn import input_projection, pre_activation, tanh_step

NONLINEARITIES = ("tanh", "linear")
LOG_FLOAT64_MAX = math.log(torch.finfo(torch.float64).max)  # 709.78: e^this is the largest float64


def hidden_states(
    W_hh: torch.Tensor,
    T: int,
    *,
    nonlinearity: str = "tanh",
    x: torch.Tensor | None = None,
    W_xh: torch.Tensor | None = None,
    h0: torch.Tensor | None = None,
) -> torch.Tensor:
    """h_1..h_T of the unbatched recurrence h_k = phi(W_hh h_{k-1} + W_xh x_k), float64, (T, d)."""
    d = W_hh.shape[0]
    W = W_hh.double()
    drive = torch.zeros(T, d, dtype=torch.float64) if x is None else x.double() @ W_xh.double().T
    h = torch.zeros(d, dtype=torch.float64) if h0 is None else h0.double()
    hs = []
    step = tanh_step if nonlinearity == "tanh" else pre_activation  # phi = tanh, or the identity
    for k in range(T):
        h = step(drive[k], h, W)  # (d,): phi(W_hh h_{k-1} + W_xh x_k)
        hs.append(h)
    return torch.stack(hs)  # (T, d)


def step_jacobian(h_k: torch.Tensor, W_hh: torch.Tensor) -> torch.Tensor:
    """J_k = dh_k/dh_{k-1} = diag(1 - h_k^2) W_hh, for h_k = tanh(W_hh h_{k-1} + ...).

    h_k (d,), W_hh (d, d) -> J_k (d, d).
    """
    require_square(W_hh, "W_hh")
    return (1 - h_k**2)[:, None] * W_hh  # row i scaled by tanh'(a_i)


def jacobian_product(
    W_hh: torch.Tensor,
    T: int,
    *,
    x: torch.Tensor | None = None,
    W_xh: torch.Tensor | None = None,
    h0: torch.Tensor | None = None,
) -> torch.Tensor:
    """dh_T/dh_0 = J_T J_{T-1} ... J_1 of a tanh RNN, multiplied out plainly in float64, (d, d)."""
    require_square(W_hh, "W_hh")
    require_positive_int(T, "T (the sequence length)")
    H = hidden_states(W_hh, T, x=x, W_xh=W_xh, h0=h0)  # (T, d)
    P = torch.eye(W_hh.shape[0], dtype=torch.float64)
    for k in range(T):
        P = step_jacobian(H[k], W_hh.double()) @ P  # J_k (J_{k-1} ... J_1)
    return P


def jacobian_norms(
    W_hh: torch.Tensor,
    T: int,
    *,
    nonlinearity: str = "tanh",
    x: torch.Tensor | None = None,
    W_xh: torch.Tensor | None = None,
    h0: torch.Tensor | None = None,
) -> torch.Tensor:
    """||dh_k/dh_0||_2 for k = 1..T, as a float64 tensor (T,).

    dh_k/dh_0 = J_k ... J_1 with J_k = diag(phi'(z_k)) W_hh. The product is kept
    normalised and its scale tracked as a logarithm, so the result is exact up to
    float64 range: beyond it the entry is honestly inf (or 0), never NaN.
    """
    require_square(W_hh, "W_hh")
    require_positive_int(T, "T (the sequence length)")
    if nonlinearity not in NONLINEARITIES:
        raise ValueError(f"nonlinearity must be one of {NONLINEARITIES}, got {nonlinearity!r}")
    if x is not None and (W_xh is None or x.shape[0] < T):
        raise ValueError(f"x needs W_xh and at least T={T} rows, got x of shape {tuple(x.shape)}")
    with one_thread():
        return _product_norms(W_hh, T, nonlinearity, x, W_xh, h0, every=1)


def _product_norms(W_hh, T, nonlinearity, x, W_xh, h0, every: int) -> torch.Tensor:
    """||J_k...J_1||_2 at k = every, 2*every, ..., (and T), for one RNN: (n,)."""
    H = hidden_states(W_hh, T, nonlinearity=nonlinearity, x=x, W_xh=W_xh, h0=h0)
    slopes = 1 - H**2 if nonlinearity == "tanh" else torch.ones_like(H)  # phi'(z_k), (T, d)
    return product_norms(W_hh[None], slopes[None], every)[0]


def product_norms(W_hh: torch.Tensor, slopes: torch.Tensor, every: int = 1) -> torch.Tensor:
    """||diag(s_k) W ... diag(s_1) W||_2 at k = every, 2*every, ..., (and T), for B products at once.

    W_hh (B, d, d), slopes (B, T, d) with s_k = phi'(z_k) -> (B, n) float64, n = ceil(T / every).
    Each product is kept Frobenius-normalised and its scale tracked as a logarithm, so the result
    is exact up to float64 range: beyond it an entry is honestly inf (or 0), never NaN. The loop
    runs in NumPy (small arrays: little overhead per step), the spectral norms in one batched SVD.
    """
    if W_hh.dim() != 3 or slopes.dim() != 3 or slopes.shape[::2] != W_hh.shape[:2] or slopes.shape[1] < 1:
        raise ValueError(
            f"W_hh must be (B, d, d) and slopes (B, T, d), got {tuple(W_hh.shape)} and {tuple(slopes.shape)}"
        )
    require_positive_int(every, "every")
    W, S = (t.detach().double().numpy() for t in (W_hh, slopes))
    B, T, d = S.shape
    P = np.broadcast_to(np.eye(d), (B, d, d))  # the products, Frobenius-normalised
    log_scale, kept, logs = np.zeros(B), [], []
    with np.errstate(divide="ignore"):  # log 0 = -inf: a product exactly 0 stays 0
        for k in range(T):
            P = S[:, k, :, None] * (W @ P)  # J_k P, (B, d, d)
            f = np.sqrt(np.einsum("bij,bij->b", P, P))  # (B,) Frobenius: cheap
            log_scale = log_scale + np.log(f)
            P = P / np.where(f > 0, f, 1.0)[:, None, None]
            if (k + 1) % every == 0 or k + 1 == T:
                kept.append(P), logs.append(log_scale)
        with one_thread():
            spectral = torch.linalg.matrix_norm(torch.from_numpy(np.stack(kept, axis=1)), ord=2).numpy()
        return torch.from_numpy(_exp_or_inf(np.stack(logs, axis=1) + np.log(spectral)))  # (B, n)


def naive_product_norm(W_hh: torch.Tensor, T: int, dtype: torch.dtype = torch.float32) -> float:
    """||W_hh^k||_2 at k = T (the T-th matrix power: a linear RNN's dh_T/dh_0), multiplied out
    step by step in `dtype` with no rescaling."""
    require_square(W_hh, "W_hh")
    P = torch.eye(W_hh.shape[0], dtype=dtype)
    for _ in range(T):
        P = W_hh.to(dtype) @ P
    return torch.linalg.matrix_norm(P.double(), ord=2).item()


def power_norms(W: torch.Tensor, K: int) -> torch.Tensor:
    """||W^k||_2 for k = 0..K, float64, (K + 1,)."""
    require_square(W, "W")
    W = W.double()
    P, out = torch.eye(W.shape[0], dtype=torch.float64), []
    for _ in range(K + 1):
        out.append(torch.linalg.matrix_norm(P, ord=2))
        P = W @ P
    return torch.stack(out)


def log_growth_rate(norms: torch.Tensor, first: int = 1) -> float:
    """The slope per step of the least-squares line through log norms[k - 1] against k = first..len(norms).

    For norms[k - 1] = ||J_k ... J_1|| this measures the long-run rate of the product: log rho for a
    linear RNN (Gelfand), the top Lyapunov exponent for a tanh RNN. `first` skips the transient.
    """
    require_tensor(norms, "norms")
    if norms.dim() != 1 or not 1 <= first <= len(norms) - 1:
        raise ValueError(f"norms must be 1-D, longer than first={first!r}, got shape {tuple(norms.shape)}")
    tail = norms[first - 1 :].double()
    if not (torch.isfinite(tail) & (tail > 0)).all():
        raise ValueError("norms must be finite and > 0 from `first` on (no overflow, no exact zero)")
    k = torch.arange(first, len(norms) + 1, dtype=torch.float64)
    A = torch.stack([k, torch.ones_like(k)], dim=1)  # (n, 2): slope and intercept
    return torch.linalg.lstsq(A, tail.log()[:, None]).solution[0, 0].item()


def weight_gradient_by_step(
    W_hh: torch.Tensor, x: torch.Tensor, W_xh: torch.Tensor, h0: torch.Tensor | None = None
) -> torch.Tensor:
    """Each step's term of dL/dW_hh for L = sum(h_T) of a tanh RNN, float64: (T, d, d).

    W_hh acts at every step, so dL/dW_hh = sum_k outer(delta_k, h_{k-1}), with delta_k = dL/dz_k
    (backpropagation through time): delta_T = 1 - h_T^2, delta_{k-1} = (1 - h_{k-1}^2) * (W_hh.T @ delta_k).
    Term k is what W_hh at step k alone contributes: with h_0 = 0 the first term is 0.
    """
    require_square(W_hh, "W_hh")
    require_tensor(x, "x")
    if x.dim() != 2:
        raise ValueError(f"x must have shape (T, d_in), got {tuple(x.shape)}")
    T, d, W = x.shape[0], W_hh.shape[0], W_hh.double()
    H = hidden_states(W_hh, T, x=x, W_xh=W_xh, h0=h0)  # h_1..h_T, (T, d)
    h_start = torch.zeros(d, dtype=torch.float64) if h0 is None else h0.double()
    h_before = torch.cat([h_start[None], H[:-1]])  # h_0..h_{T-1}, (T, d)
    delta, terms = 1 - H[-1] ** 2, []  # dL/da_T for L = sum(h_T), (d,)
    for k in range(T - 1, -1, -1):
        terms.append(torch.outer(delta, h_before[k]))  # outer(delta_k, h_{k-1}), (d, d)
        delta = (1 - h_before[k] ** 2) * (W.T @ delta)  # delta_{k-1}
    return torch.stack(terms[::-1])  # (T, d, d), term k at index k - 1


# --- all paths: ||dc_k/dc_0||_2 for every k ------------------------------------------------


def lstm_gradient_norms(
    W_ih: torch.Tensor, W_hh: torch.Tensor, b: torch.Tensor, x: torch.Tensor, every: int = 1
) -> tuple[torch.Tensor, torch.Tensor]:
    """||dc_k/dc_0||_2 through *every* path (cell and h), and the cell path alone, float64.

    Returns (norms, cell) at k = every, 2 every, ..., T: `norms` (n,) is the spectral norm of
    the full Jacobian dc_k/dc_0; `cell` (n,) is max_j prod_{t<=k} f_t[j], the largest entry of
    the cell path diag(f_k ... f_1) alone. Exact up to float64 range; beyond it an entry is
    inf (or 0), never NaN.
    """
    require_tensor(x, "x")
    if x.dim() != 2 or x.shape[1] != W_ih.shape[1] or x.shape[0] < 1:
        raise ValueError(
            f"x must have shape (T, d_in) with T >= 1 and d_in = {W_ih.shape[1]}, got {tuple(x.shape)}"
        )
    require_positive_int(every, "every")
    T, d = x.shape[0], W_hh.shape[1]
    W_ih, W_hh, b, x = (t.detach().double() for t in (W_ih, W_hh, b, x))
    logs, kept, log_cell, cells = [], [], torch.zeros(d, dtype=torch.float64), []
    with one_thread():
        start = (
            torch.zeros(1, d, d, dtype=torch.float64),
            torch.eye(d, dtype=torch.float64)[None],
        )  # dh_0, dc_0
        steps = forward_mode(input_projection(x, W_ih, b)[None], W_hh[None], start)  # one LSTM, d directions
        for k, (log_scale, (_, dc), f) in enumerate(steps):  # dc: (dc_k/dc_0)^T, rescaled
            log_cell = log_cell + f[0, 0].log()  # log prod_{t<=k} f_t, per unit
            if (k + 1) % every == 0 or k + 1 == T:
                logs.append(log_scale[0]), kept.append(dc[0]), cells.append(log_cell.max())
        spectral = torch.linalg.matrix_norm(torch.stack(kept), ord=2)  # one batched SVD
    norms, cell = (
        torch.from_numpy(_exp_or_inf(t.numpy()))
        for t in (torch.stack(logs) + spectral.log(), torch.stack(cells))
    )
    return norms, cell


def _exp_or_inf(log_values: np.ndarray) -> np.ndarray:
    """exp(log_values), inf where that overflows float64 (never a warning, never NaN)."""
    return np.where(log_values < LOG_FLOAT64_MAX, np.exp(np.minimum(log_values, LOG_FLOAT64_MAX)), np.inf)


def output_jacobian_norms(f, x: torch.Tensor) -> torch.Tensor:
    """||dy_N / dx_t||_F for every position t: x (N, d_in) -> (N,).

    f maps a batch x (B, N, d_in) to y_N (B, d_out). One backward pass per output
    coordinate, all at once: copy x d_out times; copy i carries row i of the Jacobian.
    """
    require_tensor(x, "x")
    if x.dim() != 2:
        raise ValueError(f"x must have shape (N, d_in), got {tuple(x.shape)}")
    with one_thread():
        d_out = f(x[None]).shape[-1]
        xs = x.expand(d_out, *x.shape).clone().requires_grad_()  # (d_out, N, d_in)
        f(xs).diagonal().sum().backward()  # copy i gets d y_N[i] / d x
    return xs.grad.pow(2).sum(dim=(0, 2)).sqrt()  # (N,)
