"""Notebook 03: its figures, widgets, constants and exercises."""

import functools
import itertools
import math

import torch

from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, finite_or_marked, fix_margins, log_axis, new_figure
from ..course.widgets import Explorer, register, slider
from ..jacobians import jacobian_norms, lstm_gradient_norms
from ..lstm import cell_path, lstm_sequence, set_forget_bias, weights64
from ..rnn import rnn_weights
from ..seed import seeded

D = 64  # hidden size of the experiments (and input size)
T_MAX = 500  # the longest sequence the figures and widgets compute
SEED = 3  # weights and inputs of the experiments (notebook 03)


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
