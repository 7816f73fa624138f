"""The vanilla (Elman) RNN, from h_t = tanh(W_hh h_{t-1} + W_xh x_t + b)."""

import torch

from .checks import require_last_dim, require_tensor


def rnn_step(
    x_t: torch.Tensor, h_prev: torch.Tensor, W_xh: torch.Tensor, W_hh: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    """One step: h_t = tanh(x_t W_xh^T + h_prev W_hh^T + b).

    x_t (B, d_in), h_prev (B, d_h), W_xh (d_h, d_in), W_hh (d_h, d_h), b (d_h,) -> (B, d_h).
    """
    require_last_dim(x_t, W_xh.shape[1], "x_t", f"W_xh of shape {tuple(W_xh.shape)}")
    require_last_dim(h_prev, W_hh.shape[1], "h_prev", f"W_hh of shape {tuple(W_hh.shape)}")
    return torch.tanh(x_t @ W_xh.T + h_prev @ W_hh.T + b)  # (B, d_h)


def rnn_forward(
    x: torch.Tensor, W_xh: torch.Tensor, W_hh: torch.Tensor, b: torch.Tensor, h0: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Run the RNN over a sequence: x (B, T, d_in) -> H (B, T, d_h), h_T (B, d_h).

    The input projection is one matmul for every t (parallel); the loop over t is not.
    Equals torch.nn.RNN(batch_first=True) with b = b_ih + b_hh.
    """
    require_tensor(x, "x")
    if x.dim() != 3:
        raise ValueError(f"x must have shape (B, T, d_in), got {tuple(x.shape)}")
    require_last_dim(x, W_xh.shape[1], "x", f"W_xh of shape {tuple(W_xh.shape)}")
    B, T, _ = x.shape
    h = x.new_zeros(B, W_hh.shape[0]) if h0 is None else h0  # (B, d_h)
    U = x @ W_xh.T + b  # (B, T, d_h), all t at once
    H = []
    for t in range(T):  # sequential: t needs t-1
        h = torch.tanh(U[:, t] + h @ W_hh.T)  # (B, d_h)
        H.append(h)
    return torch.stack(H, dim=1), h  # (B, T, d_h), (B, d_h)


def rnn_weights(rnn: torch.nn.RNN | torch.nn.RNNCell) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(W_xh, W_hh, b) of a one-layer torch RNN or RNNCell, with b = b_ih + b_hh."""
    suffix = "_l0" if isinstance(rnn, torch.nn.RNN) else ""
    W_xh = getattr(rnn, "weight_ih" + suffix).detach()
    W_hh = getattr(rnn, "weight_hh" + suffix).detach()
    b = (getattr(rnn, "bias_ih" + suffix) + getattr(rnn, "bias_hh" + suffix)).detach()
    return W_xh, W_hh, b


def rnncell_loop(cell: torch.nn.RNNCell, x: torch.Tensor) -> torch.Tensor:
    """The article's loop: h = cell(x[:, t], h) for t = 0..N-1; x (B, N, d) -> h_N (B, d_h)."""
    h = x.new_zeros(x.shape[0], cell.hidden_size)
    for t in range(x.shape[1]):  # step t needs step t-1
        h = cell(x[:, t], h)
    return h


# --- exercises --------------------------------------------------------------------------


def input_projection(x: torch.Tensor, W_xh: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """W_xh x_t + b for every t at once: x (B, T, d_in) -> (B, T, d_h), one matmul."""
    return x @ W_xh.T + b
