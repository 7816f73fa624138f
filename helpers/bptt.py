"""Backpropagation through time: the product of Jacobians dh_k/dh_{k-1}."""
import math

import torch

from .checks import require_positive_int, require_square

NONLINEARITIES = ("tanh", "linear")


def hidden_states(W_hh: torch.Tensor, T: int, *, nonlinearity: str = "tanh",
                  x: torch.Tensor | None = None, W_xh: torch.Tensor | None = None,
                  h0: torch.Tensor | None = None) -> torch.Tensor:
    """h_1..h_T of the unbatched recurrence h_k = phi(W_hh h_{k-1} + W_xh x_k), float64, (T, d)."""
    d = W_hh.shape[0]
    W = W_hh.double()
    drive = torch.zeros(T, d, dtype=torch.float64) if x is None else x.double() @ W_xh.double().T
    h = torch.zeros(d, dtype=torch.float64) if h0 is None else h0.double()
    hs = []
    for k in range(T):
        a = W @ h + drive[k]                                   # (d,)
        h = torch.tanh(a) if nonlinearity == "tanh" else a
        hs.append(h)
    return torch.stack(hs)                                     # (T, d)


def jacobian_norms(W_hh: torch.Tensor, T: int, *, nonlinearity: str = "tanh",
                   x: torch.Tensor | None = None, W_xh: torch.Tensor | None = None,
                   h0: torch.Tensor | None = None) -> torch.Tensor:
    """||dh_k/dh_0||_2 for k = 1..T, as a float64 tensor (T,).

    dh_k/dh_0 = J_k ... J_1 with J_k = diag(phi'(a_k)) W_hh. The product is kept
    normalised and its scale tracked as a logarithm, so the result is exact up to
    float64 range: beyond it the entry is honestly inf (or 0), never NaN.
    """
    require_square(W_hh, "W_hh")
    require_positive_int(T, "T (the sequence length)")
    if nonlinearity not in NONLINEARITIES:
        raise ValueError(f"nonlinearity must be one of {NONLINEARITIES}, got {nonlinearity!r}")
    if x is not None and (W_xh is None or x.shape[0] < T):
        raise ValueError(f"x needs W_xh and at least T={T} rows, got x of shape {tuple(x.shape)}")
    W = W_hh.double()
    H = hidden_states(W_hh, T, nonlinearity=nonlinearity, x=x, W_xh=W_xh, h0=h0)
    slopes = 1 - H**2 if nonlinearity == "tanh" else torch.ones_like(H)  # phi'(a_k), (T, d)
    P = torch.eye(W.shape[0], dtype=torch.float64)              # normalised product
    log_scale, norms = 0.0, []
    for k in range(T):
        P = slopes[k, :, None] * (W @ P)                         # J_k P, (d, d)
        n = torch.linalg.matrix_norm(P, ord=2).item()
        if n == 0.0:                                             # exactly zero from here on
            return torch.tensor(norms + [0.0] * (T - k), dtype=torch.float64)
        log_scale += math.log(n)
        P = P / n
        norms.append(math.exp(log_scale) if log_scale < 709.78 else math.inf)
    return torch.tensor(norms, dtype=torch.float64)
