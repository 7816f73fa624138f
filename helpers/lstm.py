"""The LSTM cell from its equations, gates in PyTorch's order i, f, g, o; the cell path prod f_t."""

import math
from typing import NamedTuple

import torch

from .checks import require_last_dim, require_tensor
from .measure import one_thread


class LSTMGates(NamedTuple):
    """Activated gate values, each (B, d_h)."""

    i: torch.Tensor  # input gate, sigmoid
    f: torch.Tensor  # forget gate, sigmoid
    g: torch.Tensor  # candidate cell, tanh
    o: torch.Tensor  # output gate, sigmoid


def lstm_step(
    x_t: torch.Tensor,
    h_prev: torch.Tensor,
    c_prev: torch.Tensor,
    W_ih: torch.Tensor,
    W_hh: torch.Tensor,
    b: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, LSTMGates]:
    """One LSTM step: c_t = f*c_prev + i*g, h_t = o*tanh(c_t).

    x_t (B, d_in), h_prev and c_prev (B, d_h), W_ih (4 d_h, d_in), W_hh (4 d_h, d_h),
    b (4 d_h,) = bias_ih + bias_hh. Returns h_t (B, d_h), c_t (B, d_h), gates.
    Equals torch.nn.LSTMCell.
    """
    require_last_dim(x_t, W_ih.shape[1], "x_t", f"W_ih of shape {tuple(W_ih.shape)}")
    require_last_dim(h_prev, W_hh.shape[1], "h_prev", f"W_hh of shape {tuple(W_hh.shape)}")
    if W_ih.shape[0] != 4 * h_prev.shape[-1]:
        raise ValueError(
            f"W_ih has {W_ih.shape[0]} rows; it must stack 4 gates of "
            f"size d_h={h_prev.shape[-1]}, i.e. {4 * h_prev.shape[-1]} rows"
        )
    z = x_t @ W_ih.T + h_prev @ W_hh.T + b  # (B, 4 d_h)
    zi, zf, zg, zo = z.chunk(4, dim=-1)  # each (B, d_h)
    gates = LSTMGates(zi.sigmoid(), zf.sigmoid(), zg.tanh(), zo.sigmoid())
    c_t = gates.f * c_prev + gates.i * gates.g  # (B, d_h)
    h_t = gates.o * torch.tanh(c_t)  # (B, d_h)
    return h_t, c_t, gates


def lstm_weights(cell: torch.nn.LSTMCell) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(W_ih, W_hh, b) of a torch LSTMCell, with b = bias_ih + bias_hh."""
    return (cell.weight_ih.detach(), cell.weight_hh.detach(), (cell.bias_ih + cell.bias_hh).detach())


# --- the cell and its inputs ----------------------------------------------------------------


def set_forget_bias(cell: torch.nn.LSTMCell, value: float) -> torch.nn.LSTMCell:
    """Make the forget gate's total bias exactly `value`: bias_ih[h:2h] = value, bias_hh[h:2h] = 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"forget bias must be a finite number, got {value!r}")
    h = cell.hidden_size
    with torch.no_grad():  # gate order i, f, g, o: f is [h:2h]
        cell.bias_ih[h : 2 * h] = value
        cell.bias_hh[h : 2 * h] = 0.0
    return cell


def lstm_sequence(
    x: torch.Tensor, W_ih: torch.Tensor, W_hh: torch.Tensor, b: torch.Tensor, c0: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor, LSTMGates]:
    """Run lstm_step over x (T, d_in) from h_0 = 0 and c_0 (default 0).

    Returns H (T, d_h), C (T, d_h) and the gates, each stacked to (T, d_h).
    """
    require_tensor(x, "x")
    if x.dim() != 2:
        raise ValueError(f"x must have shape (T, d_in), got {tuple(x.shape)}")
    d_h = W_hh.shape[1]
    h = x.new_zeros(1, d_h)  # (1, d_h)
    c = x.new_zeros(1, d_h) if c0 is None else c0.reshape(1, d_h)
    H, C, G = [], [], []
    with one_thread():  # small matrices: one thread is faster
        for t in range(x.shape[0]):  # sequential, like every RNN
            h, c, gates = lstm_step(x[t : t + 1], h, c, W_ih, W_hh, b)  # (1, d_h) each
            H.append(h[0]), C.append(c[0]), G.append(gates)
    stacked = LSTMGates(*(torch.cat(g, dim=0) for g in zip(*G)))  # each (T, d_h)
    return torch.stack(H), torch.stack(C), stacked


def weights64(cell: torch.nn.LSTMCell) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(W_ih, W_hh, b) of a torch LSTMCell in float64."""
    return tuple(w.double() for w in lstm_weights(cell))


# --- the cell path: dc_T/dc_0 = prod f_t ----------------------------------------------------


def cell_path(f: torch.Tensor) -> torch.Tensor:
    """The diagonal of dc_T/dc_0 along the cell path alone: prod_t f_t, (T, d) -> (d,)."""
    require_tensor(f, "f")
    if f.dim() != 2:
        raise ValueError(f"f must have shape (T, d), got {tuple(f.shape)}")
    return f.prod(dim=0)
