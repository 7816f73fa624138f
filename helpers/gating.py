"""LSTM gating: the gates over a sequence, the cell path dc_T/dc_0 = prod f_t, and how far
gradients flow through an LSTM compared with a vanilla RNN (notebook 03)."""

import functools
import itertools
import math

import numpy as np
import torch

from .bptt import LOG_FLOAT64_MAX, jacobian_norms
from .checks import require_positive_int, require_tensor
from .exercises import register_exercise
from .lstm import LSTMGates, lstm_step, lstm_weights
from .plots import COLORS, finite_or_marked, fix_margins, log_axis, new_figure
from .rnn import rnn_weights
from .seed import seeded
from .timing import one_thread
from .widgets import Explorer, register, slider

D = 64  # hidden size of the experiments (and input size)
T_MAX = 500  # the longest sequence the figures and widgets compute
SEED = 3  # weights and inputs of the experiments (notebook 03)


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


def make_lstm(forget_bias: float | None = None, d: int = D, seed: int = SEED) -> torch.nn.LSTMCell:
    """A torch LSTMCell(d, d) with PyTorch's default initialisation; forget bias set if given."""
    require_positive_int(d, "d (the hidden size)")
    with seeded(seed):
        cell = torch.nn.LSTMCell(d, d)
    return cell if forget_bias is None else set_forget_bias(cell, forget_bias)


def random_inputs(T: int, d: int = D, seed: int = SEED) -> torch.Tensor:
    """x_1..x_T ~ N(0, I_d), float64, (T, d): stand-ins for token embeddings."""
    require_positive_int(T, "T (the sequence length)")
    return torch.randn(T, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


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
    if x.dim() != 2 or x.shape[1] != W_ih.shape[1]:
        raise ValueError(f"x must have shape (T, d_in) with d_in = {W_ih.shape[1]}, got {tuple(x.shape)}")
    require_positive_int(every, "every")
    with one_thread():
        logs, kept, cells = _accumulate(
            *(t.detach().double().numpy() for t in (W_ih, W_hh, b, x)), every=every
        )
        spectral = (
            torch.linalg.matrix_norm(torch.from_numpy(np.stack(kept)), ord=2).numpy() if kept else np.ones(0)
        )  # one batched SVD
    with np.errstate(divide="ignore", over="ignore"):
        norms = _exp_or_inf(np.array(logs) + np.log(spectral))
        cell = _exp_or_inf(np.array(cells))
    count = -(-x.shape[0] // every)  # how many k were asked for
    pad = lambda v: torch.cat([torch.from_numpy(v), torch.zeros(count - len(v), dtype=torch.float64)])
    return pad(norms), pad(cell)


def _accumulate(W_ih, W_hh, b, x, every: int):
    """Forward accumulation, in NumPy (small arrays: little overhead per step).

    Q_k = dc_k/dc_0 and A_k = dh_k/dc_0 are pushed through each step's Jacobian, kept
    Frobenius-normalised, their scale tracked as a logarithm. Returns, at every `every`-th k,
    log scale, normalised Q_k, and log max_j prod_{t<=k} f_t[j].
    """
    T, d = x.shape[0], W_hh.shape[1]
    U = x @ W_ih.T + b  # (T, 4d): input drive, all t at once
    W_hh_t = torch.from_numpy(W_hh)  # the big matmul in torch (one thread)
    h, c = np.zeros(d), np.zeros(d)
    A, Q = np.zeros((d, d)), np.eye(d)  # dh_0/dc_0 = 0, dc_0/dc_0 = I
    log_scale, log_cell = 0.0, np.zeros(d)  # log prod_t f_t, per unit
    logs, kept, cells = [], [], []
    for k in range(T):
        z = U[k] + W_hh @ h  # (4d,): gates i, f, g, o
        i, f, o = _sigmoid(z[:d]), _sigmoid(z[d : 2 * d]), _sigmoid(z[3 * d :])
        g = np.tanh(z[2 * d : 3 * d])
        c_prev, c = c, f * c + i * g  # c_k = f*c_{k-1} + i*g
        tc = np.tanh(c)
        h = o * tc  # h_k = o*tanh(c_k)
        dz = (W_hh_t @ torch.from_numpy(A)).numpy()  # (4d, d): how the gates move
        Q = (
            f[:, None] * Q  # the cell path: diag(f_k)
            + (c_prev * f * (1 - f))[:, None] * dz[d : 2 * d]  # ... plus paths through h_{k-1}
            + (g * i * (1 - i))[:, None] * dz[:d]
            + (i * (1 - g**2))[:, None] * dz[2 * d : 3 * d]
        )
        A = (tc * o * (1 - o))[:, None] * dz[3 * d :] + (o * (1 - tc**2))[:, None] * Q
        log_cell += np.log(f)
        n = math.sqrt(float(np.einsum("ij,ij->", Q, Q)))  # Frobenius norm: cheap
        if n == 0.0 or not math.isfinite(n):
            break
        log_scale += math.log(n)
        Q, A = Q / n, A / n
        if (k + 1) % every == 0 or k + 1 == T:
            logs.append(log_scale), kept.append(Q), cells.append(log_cell.max())
    return logs, kept, cells


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1 + np.tanh(0.5 * z))  # = 1/(1+e^-z), never overflows


def _exp_or_inf(log_values: np.ndarray) -> np.ndarray:
    """exp(log_values), inf where that overflows float64 (never a warning, never NaN)."""
    return np.where(log_values < LOG_FLOAT64_MAX, np.exp(np.minimum(log_values, LOG_FLOAT64_MAX)), np.inf)


EVERY = 5  # the cached curves keep ||.|| at k = 5, 10, ..., T_MAX: 100 points, a fast redraw


@functools.lru_cache(maxsize=64)
def lstm_curves(forget_bias: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(all paths ||dc_k/dc_0||, cell path max_j prod f) at k = 5, 10, ..., 500 for the experiment's
    LSTM (d = 64, seed 3, PyTorch's default initialisation) with this forget bias."""
    return lstm_gradient_norms(*weights64(make_lstm(forget_bias)), random_inputs(T_MAX), every=EVERY)


@functools.lru_cache(maxsize=1)
def rnn_curve() -> torch.Tensor:
    """||dh_k/dh_0||_2 at k = 5, 10, ..., 500 of a tanh RNNCell(64, 64) (seed 3, default init), same inputs.

    Computed by bptt.jacobian_norms; the bias rides along as an extra input fixed at 1:
    W_xh x_t + b = [W_xh | b] [x_t; 1].
    """
    with seeded(SEED):
        W_xh, W_hh, b = rnn_weights(torch.nn.RNNCell(D, D))
    x1 = torch.cat([random_inputs(T_MAX), torch.ones(T_MAX, 1, dtype=torch.float64)], dim=1)  # (T, D + 1)
    norms = jacobian_norms(W_hh, T_MAX, x=x1, W_xh=torch.cat([W_xh, b[:, None]], dim=1))  # (T,)
    return norms[EVERY - 1 :: EVERY]


def curve_steps(T: int = T_MAX) -> list[int]:
    """The k of the cached curves up to T."""
    return list(range(EVERY, T + 1, EVERY))


def gradient_norm_at(T: int, forget_bias: float | None = None) -> float:
    """||dc_T/dc_0|| of the experiment's LSTM (or ||dh_T/dh_0|| of its RNN when forget_bias is None)."""
    if T % EVERY or not EVERY <= T <= T_MAX:
        raise ValueError(f"T must be a multiple of {EVERY} between {EVERY} and {T_MAX}, got {T!r}")
    curve = rnn_curve() if forget_bias is None else lstm_curves(float(forget_bias))[0]
    return curve[T // EVERY - 1].item()


def seed_spread(forget_bias: float, Ts: tuple = (50, 500), seeds: range = range(8)) -> dict[int, list[float]]:
    """||dc_T/dc_0|| at each T in Ts (multiples of 5) for LSTMs drawn with several seeds (weights, inputs)."""
    if any(T % EVERY or T < EVERY for T in Ts):
        raise ValueError(f"each T in Ts must be a positive multiple of {EVERY}, got {Ts!r}")
    out = {T: [] for T in Ts}
    for seed in seeds:
        W, x = weights64(make_lstm(forget_bias, seed=seed)), random_inputs(max(Ts), seed=seed)
        norms, _ = lstm_gradient_norms(*W, x, every=EVERY)  # k = 5, 10, ...
        for T in Ts:
            out[T].append(norms[T // EVERY - 1].item())
    return out


# --- the figures ----------------------------------------------------------------------------


def _finish_gradient_axes(ax, title: str) -> None:
    """Log y axis ticked at round decades (1, 1e-50, ...), the line ||.|| = 1, labels, legend."""
    ax.axhline(1.0, color=COLORS[7], lw=0.6, label="norm 1: no decay")
    log_axis(ax, "y")
    ax.set(xlabel="sequence length T (steps back)", ylabel="gradient norm (log scale)", title=title)
    ax.legend(fontsize=8, loc="lower left")


def plot_gates(forget_bias: float = 0.0, T: int = 60):
    """The gates over a random sequence: mean over units of i, f, o per step, and the f of 10-90% of units."""
    _, _, gates = lstm_sequence(random_inputs(T), *weights64(make_lstm(forget_bias)))  # checks T, bias
    steps = range(1, T + 1)
    fig, ax = new_figure(width=6.4, height=3.4)
    ax.fill_between(
        steps,
        gates.f.quantile(0.1, dim=1),
        gates.f.quantile(0.9, dim=1),
        color=COLORS[1],
        alpha=0.25,
        lw=0,
        label="f: 10-90 % of the units",
    )
    for name, color in zip("ifo", (COLORS[0], COLORS[1], COLORS[2])):
        ax.plot(steps, getattr(gates, name).mean(dim=1), color=color, label=f"{name}: mean over units")
    expected = 1 / (1 + math.exp(-forget_bias))
    ax.axhline(expected, color=COLORS[7], lw=0.8, ls=":", label=f"sigmoid(forget bias) = {expected:.2f}")
    ax.set(
        ylim=(0, 1),
        xlabel="step t",
        ylabel="gate value (0 closed, 1 open)",
        title=f"LSTM gates over a sequence, d = {D}, forget bias {forget_bias:g}",
    )
    ax.legend(fontsize=8, loc="lower left", ncol=2)
    return fix_margins(fig)


@register
def explore_gates() -> Explorer:
    """A forget-bias slider over plot_gates."""
    return Explorer(plot_gates, {"forget_bias": slider("forget bias", -2.0, 5.0, 0.5, 0.0)}, name="gates")


def plot_gradient_flow(forget_bias: float = 1.0, T: int = 200):
    """||dc_T/dc_0|| of the LSTM (all paths, and the cell path alone) against ||dh_T/dh_0|| of the RNN."""
    if isinstance(T, bool) or not isinstance(T, int) or not 2 * EVERY <= T <= T_MAX:
        raise ValueError(
            f"T (the sequence length) must be a whole number from {2 * EVERY} to {T_MAX}, got {T!r}"
        )
    if not (isinstance(forget_bias, (int, float)) and -5 <= forget_bias <= 10):
        raise ValueError(f"forget bias must be a number between -5 and 10, got {forget_bias!r}")
    steps = curve_steps(T)
    full, cell = (v[: len(steps)] for v in lstm_curves(float(forget_bias)))
    fig, ax = new_figure(width=6.4, height=3.8)
    finite_or_marked(ax, steps, rnn_curve()[: len(steps)], color=COLORS[3], label="RNN: ‖∂h_T/∂h_0‖")
    finite_or_marked(ax, steps, full, color=COLORS[0], label="LSTM: ‖∂c_T/∂c_0‖, all paths")
    finite_or_marked(
        ax, steps, cell, color=COLORS[0], ls="--", label="LSTM: cell path alone, max_j ∏_t f_t[j]"
    )
    if any((v == 0).any() for v in (full, cell)):  # below float64: say so, never hide it
        ax.text(
            0.99,
            0.97,
            "a line that stops has underflowed float64 (< 1e-308)",
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=8,
            color=COLORS[3],
        )
    _finish_gradient_axes(ax, f"gradient flow at initialisation, d = {D}, forget bias {forget_bias:g}")
    return fix_margins(fig)


@register
def explore_gradient_flow() -> Explorer:
    """Forget-bias and sequence-length sliders over plot_gradient_flow.

    The curves for every forget bias on the slider are computed once, when the explorer is made
    (about a second), so that moving a slider only redraws.
    """
    bias = slider("forget bias", -1.0, 5.0, 0.5, 1.0)
    for k in range(round((bias.max - bias.min) / bias.step) + 1):
        lstm_curves(bias.min + k * bias.step)
    return Explorer(
        plot_gradient_flow,
        {"forget_bias": bias, "T": slider("sequence length", 20, T_MAX, 10, 200)},
        name="gradient_flow",
    )


def plot_gradient_flow_biases(biases: tuple = (0.0, 1.0, 3.0)):
    """The RNN and the LSTM at several forget biases, T up to 500, on one log axis."""
    steps = curve_steps()
    fig, ax = new_figure(width=6.4, height=3.8)
    finite_or_marked(ax, steps, rnn_curve(), label="RNN (tanh)", color=COLORS[3])
    for color, bias in zip((COLORS[5], COLORS[0], COLORS[2], COLORS[4]), biases):
        full, cell = lstm_curves(float(bias))
        finite_or_marked(ax, steps, full, color=color, label=f"LSTM, forget bias {bias:g}")
        finite_or_marked(ax, steps, cell, color=color, ls=":", lw=1)
    ax.plot([], [], color=COLORS[7], ls=":", lw=1, label="dotted: cell path alone")
    _finish_gradient_axes(
        ax,
        "RNN $\\|\\partial h_T/\\partial h_0\\|$ vs LSTM $\\|\\partial c_T/\\partial c_0\\|$"
        f" at initialisation, d = {D}",
    )
    return fig


def plot_state_size(d: int = D, vocab: int = 8):
    """What the LSTM must remember (the history grows with T) against what it has (2d numbers)."""
    T = torch.logspace(0, 5, 60)
    fig, ax = new_figure(width=6.4, height=3.4)
    ax.plot(T, T * math.log2(vocab), color=COLORS[3], label=f"history: T tokens x log2({vocab}) bits")
    ax.plot(
        T,
        torch.full_like(T, 2 * d * 32.0),
        color=COLORS[0],
        label=f"LSTM state: 2d = {2 * d} float32 numbers = {2 * d * 32} bits",
    )
    ax.axvline(2 * d * 32 / math.log2(vocab), color=COLORS[7], lw=0.8, ls=":")
    ax.axvspan(
        150,
        250,
        color=COLORS[2],
        alpha=0.2,
        lw=0,
        label="context trained LSTM LMs use: ~200 tokens (Khandelwal et al. 2018)",
    )
    log_axis(ax, "x")
    log_axis(ax, "y")
    ax.set(
        xlabel="sequence length T (tokens)",
        ylabel="bits",
        title="a fixed-size state against a growing history",
    )
    ax.legend(fontsize=8, loc="upper left")
    return fig


# --- exercises ------------------------------------------------------------------------------


def lstm_step_solution(x_t, h_prev, c_prev, W_ih, W_hh, b):
    """One LSTM step from the equations; returns (h_t, c_t)."""
    z = x_t @ W_ih.T + h_prev @ W_hh.T + b  # (B, 4 d_h): gates i, f, g, o stacked
    zi, zf, zg, zo = z.chunk(4, dim=-1)  # each (B, d_h)
    i, f, g, o = zi.sigmoid(), zf.sigmoid(), zg.tanh(), zo.sigmoid()
    c_t = f * c_prev + i * g
    h_t = o * torch.tanh(c_t)
    return h_t, c_t


_TRIALS = itertools.count(1)  # each trial draws fresh inputs, without touching the global seed


def _lstm_step_inputs():
    g = torch.Generator().manual_seed(next(_TRIALS))
    B, d_in, d_h = 3, 5, 4
    return (
        torch.randn(B, d_in, generator=g),
        torch.randn(B, d_h, generator=g),
        torch.randn(B, d_h, generator=g),
        torch.randn(4 * d_h, d_in, generator=g),
        torch.randn(4 * d_h, d_h, generator=g),
        torch.randn(4 * d_h, generator=g),
    )


def _cell_path_inputs():
    """f (T, 6) in (0.5, 1), T = 7..12: the product stays well above the tolerance, and T != d."""
    g = torch.Generator().manual_seed(next(_TRIALS))
    T = 7 + int(torch.randint(6, (), generator=g))
    return (0.5 + 0.5 * torch.rand(T, 6, generator=g),)


def steps_to_one_percent_solution():
    """With a constant forget gate f = 0.9, the first T with 0.9**T < 0.01."""
    return math.ceil(math.log(0.01) / math.log(0.9))


register_exercise(
    "lstm_step",
    reference=lstm_step_solution,
    make_inputs=_lstm_step_inputs,
    hint="gate order is i, f, g, o; i, f, o use sigmoid, g uses tanh; "
    "c_t = f*c_prev + i*g and h_t = o*tanh(c_t).",
)
register_exercise(
    "cell_path",
    reference=cell_path,
    make_inputs=_cell_path_inputs,
    hint="dc_t/dc_{t-1} = diag(f_t) along the cell path; multiply over t (dim 0).",
)
register_exercise(
    "steps_to_one_percent",
    reference=steps_to_one_percent_solution,
    hint="solve 0.9**T < 0.01 for the smallest whole T: T > log(0.01) / log(0.9).",
)
