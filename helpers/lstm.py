"""The LSTM cell from its equations, gates in PyTorch's order i, f, g, o; the cell path prod f_t;
how much of the first input reaches h_k, ||dh_k/dx_1||, through an LSTM or a tanh RNN.

References: Hochreiter & Schmidhuber 1997 (the LSTM); Gers, Schmidhuber & Cummins 2000 (the forget gate).
"""

import math
from typing import NamedTuple

import torch

from .checks import require_last_dim, require_positive_int, require_tensor
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


# --- how much of the first input reaches h_k: ||dh_k/dx_1||, an RNN or an LSTM ----------------

LOG_FLOAT64_MAX = math.log(torch.finfo(torch.float64).max)  # 709.78: e^this is the largest float64


def input_gradient_norms(cells, x: torch.Tensor, every: int = 1, with_cell_path: bool = False):
    """||dh_k/dx_1||_F at k = every, 2 every, ..., (and T) for M cells at once: (M, n), float64.

    `cells`: M torch LSTMCells, or M tanh RNNCells, all of one size, each run from h_0 = c_0 = 0
    over x (T, d_in) (the same inputs for all) or x (M, T, d_in) (one sequence each).
    Forward accumulation, as forward-mode autograd does it: the derivative of the state with
    respect to x_1, a (d, d_in) matrix, is pushed through each step's derivative, kept
    normalised, its scale tracked as a logarithm. Exact up to float64 range; beyond it an
    entry is 0 (or inf), never NaN. With `with_cell_path` (LSTMs only), also returns the cell
    path alone at the same k, max_j prod_{2<=t<=k} f_t[j], (M, n): x_1 enters c_1 through i_1 g_1,
    then each later step multiplies by f_t (f_1 multiplies c_0, which is not on x_1's path).
    """
    cells = list(cells)
    lstm = _cell_kind(cells) == "lstm"
    if with_cell_path and not lstm:
        raise ValueError("with_cell_path needs LSTMCells: an RNN has no cell path")
    require_tensor(x, "x")
    M, d_in = len(cells), cells[0].input_size
    if x.dim() == 2:
        x = x.expand(M, *x.shape)
    if x.dim() != 3 or x.shape[0] != M or x.shape[2] != d_in or x.shape[1] < 1:
        raise ValueError(
            f"x must have shape (T, d_in) or (M, T, d_in) with M = {M}, d_in = {d_in}; got {tuple(x.shape)}"
        )
    require_positive_int(every, "every")
    W_ih, W_hh, b = (
        torch.stack([param(cell).detach().double() for cell in cells])
        for param in (
            lambda c: c.weight_ih,
            lambda c: c.weight_hh,
            lambda c: c.bias_ih.double() + c.bias_hh.double(),
        )
    )  # (M, G d, d_in), (M, G d, d), (M, G d): G = 4 gates (LSTM) or 1 (RNN)
    step = _lstm_tangent_step if lstm else _rnn_tangent_step
    T, d, n_states = x.shape[1], cells[0].hidden_size, 2 if lstm else 1
    with one_thread():
        U = x.double() @ W_ih.transpose(1, 2) + b[:, None]  # (M, T, G d): the input drive, all t at once
        state = (torch.zeros(M, d, dtype=torch.float64),) * n_states  # h_0 (and c_0) = 0
        tangent = (torch.zeros(M, d, d_in, dtype=torch.float64),) * n_states  # dh_0/dx_1 (and dc_0/dx_1) = 0
        log_scale, log_f = torch.zeros(M, dtype=torch.float64), torch.zeros(M, d, dtype=torch.float64)
        logs, cells_log = [], []
        for k in range(T):  # sequential, like the cell
            z = U[:, k] + (W_hh @ state[0][..., None])[..., 0]  # (M, G d): pre-activations
            dz = W_ih if k == 0 else W_hh @ tangent[0]  # (M, G d, d_in): dz_k/dx_1 (x_k, k > 1, fixed)
            state, tangent, f = step(z, dz, state, tangent)
            size = sum(t.square().sum(dim=(1, 2)) for t in tangent).sqrt()  # (M,), Frobenius
            log_scale = log_scale + size.log()  # -inf once a tangent is exactly 0
            tangent = tuple(t / torch.where(size > 0, size, 1.0)[:, None, None] for t in tangent)
            if with_cell_path and k > 0:
                log_f = log_f + f.log()  # log f_2 ... f_(k+1), per unit: f_1 scales c_0, off x_1's path
            if (k + 1) % every == 0 or k + 1 == T:
                logs.append(log_scale + torch.linalg.matrix_norm(tangent[0]).log())  # log ||dh_k/dx_1||_F
                cells_log.append(log_f.max(dim=1).values)
    norms = _exp_or_inf(torch.stack(logs, dim=1))  # (M, n)
    return (norms, _exp_or_inf(torch.stack(cells_log, dim=1))) if with_cell_path else norms


def _exp_or_inf(log_values: torch.Tensor) -> torch.Tensor:
    """exp(log_values): 0 below float64's range, inf above it, never NaN."""
    return torch.where(log_values < LOG_FLOAT64_MAX, log_values.exp(), torch.inf)


def _cell_kind(cells: list) -> str:
    """ "lstm" or "rnn" for a non-empty list of torch LSTMCells or tanh RNNCells of one size, with biases."""
    if not cells or not all(isinstance(c, (torch.nn.LSTMCell, torch.nn.RNNCell)) for c in cells):
        raise ValueError(f"cells must be torch LSTMCells or RNNCells, got {cells!r}")
    kinds = {type(c) for c in cells}
    sizes = {(c.input_size, c.hidden_size) for c in cells}
    if len(kinds) > 1 or len(sizes) > 1:
        raise ValueError(
            f"cells must be of one kind and one size, got {sorted(k.__name__ for k in kinds)}, {sizes}"
        )
    if not all(c.bias for c in cells) or any(getattr(c, "nonlinearity", "tanh") != "tanh" for c in cells):
        raise ValueError("cells must have biases, and an RNNCell the tanh nonlinearity")
    return "lstm" if kinds == {torch.nn.LSTMCell} else "rnn"


def _rnn_tangent_step(z, dz, state, tangent):
    """h_k = tanh(z_k) and its derivative dh_k = diag(1 - h_k^2) dz_k, (M, d, d_in); no forget gate."""
    h = z.tanh()  # (M, d)
    return (h,), ((1 - h**2)[..., None] * dz,), None


def _lstm_tangent_step(z, dz, state, tangent):
    """One LSTM step (gates i, f, g, o) and its derivative: dh_k and dc_k, each (M, d, d_in); and f_k."""
    (_, c_prev), (_, dc_prev) = state, tangent
    zi, zf, zg, zo = z.chunk(4, dim=-1)  # each (M, d)
    i, f, g, o = zi.sigmoid(), zf.sigmoid(), zg.tanh(), zo.sigmoid()
    c = f * c_prev + i * g
    tc, d = c.tanh(), c.shape[-1]
    # dc_k = diag(f_k) dc_{k-1} (the cell path) + how the gates i, f, g move: one product for the three
    slopes = torch.cat([g * i * (1 - i), c_prev * f * (1 - f), i * (1 - g**2)], dim=-1)  # (M, 3d)
    moved = (slopes[..., None] * dz[:, : 3 * d]).unflatten(1, (3, -1)).sum(dim=1)  # (M, d, d_in)
    dc = f[..., None] * dc_prev + moved
    dh = (tc * o * (1 - o))[..., None] * dz[:, 3 * d :] + (o * (1 - tc**2))[..., None] * dc
    return (o * tc, c), (dh, dc), f
