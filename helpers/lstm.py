"""The LSTM cell from its equations, gates in PyTorch's order i, f, g, o."""

from typing import NamedTuple

import torch

from .checks import require_last_dim


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
