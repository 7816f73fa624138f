"""The LSTM cell from its equations, gates in PyTorch's order i, f, g, o; the cell path prod f_t;
how much of the first input reaches h_k, ||dh_k/dx_1||, through an LSTM or a tanh RNN.

References: Hochreiter & Schmidhuber 1997 (the LSTM); Gers, Schmidhuber & Cummins 2000 (the forget gate).
"""

import math
from typing import NamedTuple

import torch

from .checks import require_last_dim, require_positive_int, require_tensor
from .measure import one_thread
from .rnn import input_projection, pre_activation, tanh_tangent_step


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
    return lstm_cell_step(input_projection(x_t, W_ih, b), h_prev, c_prev, W_hh)


def lstm_cell_step(
    u_t: torch.Tensor, h_prev: torch.Tensor, c_prev: torch.Tensor, W_hh: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, LSTMGates]:
    """The LSTM's step given its drive u_t = x_t W_ih^T + b: z = u_t + h_prev W_hh^T, gates
    i, f, g, o = sigmoid, sigmoid, tanh, sigmoid of z's four slices, c_t = f*c_prev + i*g, h_t = o*tanh(c_t).

    The one definition: lstm_step, lstm_sequence, the forward-mode derivative (lstm_tangent_step), the
    ensembles and the notebooks' helpers all step through it. Rows are batch items (helpers.rnn's
    convention): u_t (..., 4 d_h), h_prev and c_prev (..., d_h), W_hh (4 d_h, d_h) or (..., 4 d_h, d_h).
    Returns h_t, c_t (..., d_h) and the gates.
    """
    zi, zf, zg, zo = pre_activation(u_t, h_prev, W_hh).chunk(4, dim=-1)  # each (..., d_h)
    gates = LSTMGates(zi.sigmoid(), zf.sigmoid(), zg.tanh(), zo.sigmoid())
    c_t = gates.f * c_prev + gates.i * gates.g  # (..., d_h)
    h_t = gates.o * torch.tanh(c_t)  # (..., d_h)
    return h_t, c_t, gates


def lstm_tangent_step(
    u_t: torch.Tensor,
    h_prev: torch.Tensor,
    c_prev: torch.Tensor,
    W_hh: torch.Tensor,
    dh_prev: torch.Tensor,
    dc_prev: torch.Tensor,
    du_t: torch.Tensor | float = 0.0,
) -> tuple[tuple[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor], torch.Tensor]:
    """lstm_cell_step and its forward-mode derivative: ((h_t, c_t), (dh_t, dc_t), f_t).

    dh_prev, dc_prev (..., n, d_h) and du_t (..., n, 4 d_h) hold n directions, one per row, beside
    the states h_prev, c_prev (..., 1, d_h). dz = du_t + dh_prev W_hh^T moves the gates;
    dc_t = f dc_prev (the cell path) + g i(1-i) dz_i + c_prev f(1-f) dz_f + i(1-g^2) dz_g,
    dh_t = tanh(c_t) o(1-o) dz_o + o (1 - tanh^2 c_t) dc_t.
    """
    h, c, (i, f, g, o) = lstm_cell_step(u_t, h_prev, c_prev, W_hh)
    dzi, dzf, dzg, dzo = pre_activation(du_t, dh_prev, W_hh).chunk(4, dim=-1)  # each (..., n, d_h)
    dc = f * dc_prev + g * i * (1 - i) * dzi + c_prev * f * (1 - f) * dzf + i * (1 - g**2) * dzg
    tc = c.tanh()
    dh = tc * o * (1 - o) * dzo + o * (1 - tc**2) * dc
    return (h, c), (dh, dc), f


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
    respect to x_1 (d_in directions, one row of d numbers each) is pushed through each step's
    derivative (forward_mode), kept normalised, its scale tracked as a logarithm. Exact up to
    float64 range; beyond it an entry is 0 (or inf), never NaN. With `with_cell_path` (LSTMs
    only), also returns the cell path alone at the same k, max_j prod_{2<=t<=k} f_t[j], (M, n):
    x_1 enters c_1 through i_1 g_1, then each later step multiplies by f_t (f_1 multiplies c_0,
    which is not on x_1's path).
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
    with one_thread():
        U = input_projection(x.double(), W_ih, b[:, None])  # (M, T, G d): the drive, all t at once
        du_1 = W_ih.mT  # (M, d_in, G d): dx_1 W_ih^T for the d_in directions (rows) of x_1
        zero = torch.zeros(M, d_in, cells[0].hidden_size, dtype=torch.float64)  # dh_0 (and dc_0) = 0
        log_f, logs, cells_log = torch.zeros_like(zero[:, 0]), [], []
        steps = forward_mode(U, W_hh, (zero, zero) if lstm else (zero,), du_1)
        for k, (log_scale, tangent, f) in enumerate(steps):  # sequential, like the cell
            if with_cell_path and k > 0:
                log_f = log_f + f[:, 0].log()  # log f_2 ... f_(k+1), per unit: f_1 scales c_0, off x_1's path
            if (k + 1) % every == 0 or k + 1 == x.shape[1]:
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


def forward_mode(U: torch.Tensor, W_hh: torch.Tensor, tangent: tuple, du_1: torch.Tensor | float = 0.0):
    """Forward accumulation through M tanh RNNs (one tangent, dh) or M LSTMs (two, dh and dc), float64.

    U (M, T, G d) the drives, W_hh (M, G d, d); `tangent` the derivatives of h_0 (and c_0) in n
    directions, each (M, n, d); du_1 (M, n, G d) the derivative of the first drive (later drives are
    fixed). The states start at 0. Each step is tanh_tangent_step or lstm_tangent_step; then the
    tangents are rescaled together to Frobenius norm 1, their scale tracked as a logarithm (exact up
    to float64 range; -inf once they are exactly 0). Yields, at every k = 1..T, (log scale (M,),
    the rescaled tangents, f_k (M, 1, d) or None for an RNN).
    """
    M, d = U.shape[0], W_hh.shape[-1]
    state = (U.new_zeros(M, 1, d),) * len(tangent)  # h_0 (and c_0) = 0, one row each
    log_scale = U.new_zeros(M)
    for k in range(U.shape[1]):  # sequential, like the cell
        u, du = U[:, k, None], du_1 if k == 0 else 0.0  # (M, 1, G d)
        if len(tangent) == 2:
            state, tangent, f = lstm_tangent_step(u, *state, W_hh, *tangent, du)
        else:
            h, dh = tanh_tangent_step(u, state[0], W_hh, tangent[0], du)
            state, tangent, f = (h,), (dh,), None
        size = sum(t.square().sum(dim=(1, 2)) for t in tangent).sqrt()  # (M,), Frobenius
        log_scale = log_scale + size.log()  # -inf once a tangent is exactly 0
        tangent = tuple(t / torch.where(size > 0, size, 1.0)[:, None, None] for t in tangent)
        yield log_scale, tangent, f
