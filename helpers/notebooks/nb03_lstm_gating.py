"""Notebook 03: its figures, widgets, constants and exercises."""

import functools
import math

import torch
from matplotlib.ticker import MaxNLocator

from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, finite_or_marked, fix_margins, log_axis, log_limits, new_figure
from ..course.tables import Table
from ..course.widgets import Explorer, moving, register, slider
from ..lstm import input_gradient_norms, lstm_sequence, lstm_step, set_forget_bias, weights64
from ..seed import seeded
from ..spectra import largest_singular_value, spectral_radius

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
FORGET_BIASES = tuple(k / 2 for k in range(-2, 11))  # the widget's slider: -1, -0.5, ..., 5
RNNS = {"RNN": False, "orthogonal RNN": True}  # the two baselines: is W_hh orthogonal?


def make_rnn(orthogonal: bool = False, d: int = D, seed: int = SEED) -> torch.nn.RNNCell:
    """A tanh RNNCell(d, d) at PyTorch's default initialisation; W_hh orthogonal (rho = 1) if asked.

    Both draw the same W_ih and biases (same seed); only W_hh differs.
    """
    require_positive_int(d, "d (the hidden size)")
    with seeded(seed):
        cell = torch.nn.RNNCell(d, d)
        if orthogonal:
            torch.nn.init.orthogonal_(cell.weight_hh)
    return cell


def last_state(cell: torch.nn.LSTMCell | torch.nn.RNNCell):
    """The torch cell as f: x (B, N, d_in) -> h_N (B, d_h), run from zero state (for autograd)."""

    def f(x):
        state = None
        for t in range(x.shape[1]):  # step t needs step t-1
            state = cell(x[:, t], state)
        return state[0] if isinstance(cell, torch.nn.LSTMCell) else state

    return f


def last_cell_state(cell: torch.nn.LSTMCell, x: torch.Tensor, c0: torch.Tensor) -> torch.Tensor:
    """c_T of the torch cell run over x (T, d_in) from h_0 = 0 and c_0 (d_h,): a function of c_0,
    for autograd."""
    state = (torch.zeros_like(c0), c0)
    for t in range(x.shape[0]):  # step t needs step t-1
        state = cell(x[t], state)
    return state[1]


_LSTM_CURVES: dict[float, tuple[torch.Tensor, torch.Tensor]] = {}  # forget bias -> its two curves


def lstm_curves(*forget_biases: float) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Per forget bias, (||dh_k/dx_1||_F, the guide max_j prod_{t=2..k} f_t[j]) at k = 5, 10, ..., 500
    for the experiment's LSTM (d = 64, seed 3, PyTorch's default initialisation). Cached; the biases
    not yet cached are computed together, in one pass."""
    for bias in forget_biases:
        if isinstance(bias, bool) or not isinstance(bias, (int, float)) or not -5 <= bias <= 10:
            raise ValueError(f"forget bias must be a number between -5 and 10, got {bias!r}")
    missing = sorted({float(b) for b in forget_biases} - _LSTM_CURVES.keys())
    if missing:
        cells = [make_lstm(b) for b in missing]
        norms, cell = input_gradient_norms(cells, random_inputs(T_MAX), every=EVERY, with_cell_path=True)
        _LSTM_CURVES.update(zip(missing, zip(norms, cell)))  # each (100,): k = 5, 10, ..., 500
    return [_LSTM_CURVES[float(b)] for b in forget_biases]


@functools.lru_cache(maxsize=1)
def rnn_curves() -> dict[str, torch.Tensor]:
    """||dh_k/dx_1||_F at k = 5, 10, ..., 500 of the two RNNs of RNNS (seed 3), the LSTM's inputs."""
    cells = [make_rnn(orthogonal) for orthogonal in RNNS.values()]
    return dict(zip(RNNS, input_gradient_norms(cells, random_inputs(T_MAX), every=EVERY)))


@functools.lru_cache(maxsize=len(RNNS))
def rnn_rho(name: str) -> float:
    """The spectral radius of W_hh of one of the RNNS."""
    if name not in RNNS:
        raise ValueError(f"name must be one of {list(RNNS)}, got {name!r}")
    return spectral_radius(make_rnn(RNNS[name]).weight_hh.detach())


@functools.lru_cache(maxsize=len(RNNS))
def rnn_sigma_max(name: str) -> float:
    """The largest singular value sigma_max = ||W_hh||_2 of one of the RNNS."""
    if name not in RNNS:
        raise ValueError(f"name must be one of {list(RNNS)}, got {name!r}")
    return largest_singular_value(make_rnn(RNNS[name]).weight_hh.detach())


def linear_decay_per_step(name: str, T0: int = 50, T1: int = 500) -> float:
    """The mean factor per step from T0 to T1 of ||dh_T/dx_1||_F = ||W_hh^(T-1) W_ih||_F for one of the
    RNNS with the tanh taken out (a linear RNN with the same weights), float64."""
    if name not in RNNS:
        raise ValueError(f"name must be one of {list(RNNS)}, got {name!r}")
    if not 1 <= T0 < T1:
        raise ValueError(f"T0 must be at least 1 and below T1, got T0={T0!r}, T1={T1!r}")
    cell = make_rnn(RNNS[name]).double()
    W_hh, W_ih = cell.weight_hh.detach(), cell.weight_ih.detach()
    norm = lambda T: torch.linalg.matrix_norm(torch.linalg.matrix_power(W_hh, T - 1) @ W_ih).item()
    return math.exp((math.log(norm(T1)) - math.log(norm(T0))) / (T1 - T0))


def rnn_label(name: str, rho: str = "ρ", sigma_max: str = "σ_max") -> str:
    """One of the RNNS with rho and sigma_max of its W_hh: "RNN (ρ = 0.58, σ_max = 1.15)"."""
    return f"{name} ({rho} = {rnn_rho(name):.2f}, {sigma_max} = {rnn_sigma_max(name):.2f})"


def curve_steps(T: int = T_MAX) -> list[int]:
    """The k of the cached curves up to T."""
    return list(range(EVERY, T + 1, EVERY))


def _require_curve_T(T: int) -> None:
    if isinstance(T, bool) or not isinstance(T, int) or T % EVERY or not EVERY <= T <= T_MAX:
        raise ValueError(f"T must be a multiple of {EVERY} between {EVERY} and {T_MAX}, got {T!r}")


def gradient_norm_at(T: int, model: str | float) -> float:
    """||dh_T/dx_1||_F of "RNN", "orthogonal RNN", or the experiment's LSTM with this forget bias."""
    _require_curve_T(T)
    curve = rnn_curves()[model] if model in RNNS else lstm_curves(model)[0][0]
    return curve[T // EVERY - 1].item()


def cell_path_at(T: int, forget_bias: float) -> float:
    """The dotted guide to the experiment's LSTM's cell path from x_1 to h_T: max_j prod_{t=2..T} f_t[j],
    the forget gates alone (without how x_1 enters c_1, dc_1/dx_1, or how c_T leaves, o_T tanh'(c_T))."""
    _require_curve_T(T)
    return lstm_curves(forget_bias)[0][1][T // EVERY - 1].item()


def gradient_table(Ts: tuple = (50, 200, 500), biases: tuple = (0.0, 1.0, 3.0)) -> Table:
    """||dh_T/dx_1||_F at each T: the two RNNs (with rho and sigma_max of W_hh), then the LSTM at each
    forget bias."""
    rows = [[rnn_label(name, "rho", "sigma_max")] + [gradient_norm_at(T, name) for T in Ts] for name in RNNS]
    rows += [[f"LSTM, forget bias {b:g}"] + [gradient_norm_at(T, b) for T in Ts] for b in biases]
    return Table(["model"] + [f"T = {T}" for T in Ts], [[r[0]] + [f"{v:.1e}" for v in r[1:]] for r in rows])


def decay_per_step(model: str | float, T0: int = 50, T1: int = 500, cell_path: bool = False) -> float:
    """The mean factor per step by which ||dh_T/dx_1||_F shrinks from T0 to T1 (models: gradient_norm_at);
    with `cell_path`, that of the guide prod f of an LSTM (cell_path_at)."""
    if not T0 < T1:
        raise ValueError(f"T0 must be below T1, got T0={T0!r}, T1={T1!r}")
    at = cell_path_at if cell_path else gradient_norm_at
    logs = [math.log(at(T, model)) for T in (T0, T1)]
    return math.exp((logs[1] - logs[0]) / (T1 - T0))


def seed_spread(forget_bias: float, Ts: tuple = (50, 500), seeds: range = range(8)) -> dict[int, list[float]]:
    """||dh_T/dx_1||_F at each T in Ts (multiples of 5) of LSTMs drawn with several seeds (weights, x)."""
    if any(isinstance(T, bool) or not isinstance(T, int) or T % EVERY or T < EVERY for T in Ts):
        raise ValueError(f"each T in Ts must be a positive multiple of {EVERY}, got {Ts!r}")
    cells = [make_lstm(forget_bias, seed=seed) for seed in seeds]
    x = torch.stack([random_inputs(max(Ts), seed=seed) for seed in seeds])  # (seeds, T, D)
    norms = input_gradient_norms(cells, x, every=EVERY)  # (seeds, T // 5): k = 5, 10, ...
    return {T: norms[:, T // EVERY - 1].tolist() for T in Ts}


# --- the figures ----------------------------------------------------------------------------


def _finish_gradient_axes(ax, title: str) -> None:
    """Log y axis ticked at round decades (1, 1e-50, ...), the line ||.|| = 1, labels, legend."""
    ax.axhline(1.0, color=COLORS[7], lw=0.6)
    ax.text(0.01, 1.0, NO_DECAY, transform=ax.get_yaxis_transform(), va="bottom", fontsize=8, color=COLORS[7])
    log_axis(ax, "y")
    ax.xaxis.set_major_locator(MaxNLocator(6, steps=[1, 2, 5, 10]))  # few tick labels: each costs redraw time
    ax.set(xlabel="sequence length T", ylabel="‖∂h_T/∂x_1‖_F", title=title)
    ax.legend(fontsize=8, loc="lower left")


@functools.lru_cache(maxsize=32)
def _gate_lines(forget_bias: float, T: int) -> dict[str, torch.Tensor]:
    """What plot_gates draws: the mean over units of i, f, o per step, and f's 10th and 90th percentiles."""
    _, _, gates = lstm_sequence(random_inputs(T), *weights64(make_lstm(forget_bias)))  # checks T, bias
    means = {name: getattr(gates, name).mean(dim=1) for name in "ifo"}
    return {**means, "f10": gates.f.quantile(0.1, dim=1), "f90": gates.f.quantile(0.9, dim=1)}


def _gate_texts(forget_bias: float) -> tuple[float, str]:
    """sigmoid(forget bias) and the title (short: every glyph costs redraw time)."""
    expected = 1 / (1 + math.exp(-forget_bias))
    return expected, f"LSTM gates, forget bias {forget_bias:g}: σ(bias) = {expected:.2f}"


def plot_gates(forget_bias: float = 0.0, T: int = 60):
    """The gates over a random sequence: mean over units of i, f, o per step, and the f of 10-90% of units."""
    lines = _gate_lines(forget_bias, T)
    expected, title = _gate_texts(forget_bias)
    steps = range(1, T + 1)
    fig, ax = new_figure(width=6.4, height=3.4)
    band = dict(color=COLORS[1], alpha=0.25, lw=0, label="f, 10-90 % of units")
    moving(ax.title)  # the slider moves the title, the band (above the grid, at 1.6) and the lines
    moving(ax.fill_between(steps, lines["f10"], lines["f90"], **band), zorder=1.6)
    for name, color, gate, ls in zip("ifo", COLORS[:3], ("input", "forget", "output"), ("-.", "-", "--")):
        moving(*ax.plot(steps, lines[name], color=color, ls=ls, label=f"{name}: {gate}"))  # not colour alone
    moving(ax.axhline(expected, color=COLORS[7], lw=0.8, ls=":", label="σ(forget bias)"))
    ax.set(ylim=(0, 1), xlabel="step t", ylabel="gate, mean over units (0 closed, 1 open)", title=title)
    ax.set(xticks=range(0, T + 1, 20), yticks=(0, 0.5, 1))
    ax.legend(fontsize=8, loc="lower left", ncol=2)
    return fix_margins(fig)


def update_gates(fig, forget_bias: float = 0.0, T: int = 60) -> None:
    """plot_gates's figure, redrawn in place at another forget bias."""
    lines = _gate_lines(forget_bias, T)
    expected, title = _gate_texts(forget_bias)
    ax = fig.axes[0]
    ax.collections[0].set_data(range(1, T + 1), lines["f10"], lines["f90"])
    for line, name in zip(ax.lines, "ifo"):
        line.set_ydata(lines[name])
    ax.lines[3].set_ydata([expected, expected])
    ax.set_title(title)


@register
def explore_gates() -> Explorer:
    """A forget-bias slider over plot_gates."""
    control = {"forget_bias": slider("forget bias", -2.0, 5.0, 0.5, 0.0)}
    return Explorer(plot_gates, control, name="gates", update=update_gates, background=())


def _gradient_flow_lines(forget_bias: float, T: int) -> tuple[list[int], list[torch.Tensor], str]:
    """What plot_gradient_flow draws: the steps, the curves of GRADIENT_FLOW_STYLES up to T, the title."""
    if isinstance(T, bool) or not isinstance(T, int) or not 2 * EVERY <= T <= T_MAX:
        raise ValueError(
            f"T (the sequence length) must be a whole number from {2 * EVERY} to {T_MAX}, got {T!r}"
        )
    steps = curve_steps(T)
    (full, cell), rnns = lstm_curves(forget_bias)[0], rnn_curves()  # checks the bias
    curves = [v[: len(steps)] for v in (*rnns.values(), full, cell)]
    return steps, curves, f"LSTM forget bias {forget_bias:g}"


def _gradient_flow_ylim(T: int) -> tuple[float, float]:
    """One y range per T for every forget bias on the slider: moving the bias moves the LSTM's
    lines against a fixed scale (and redraws only them)."""
    n = len(curve_steps(T))
    lstm = [curve for both in lstm_curves(*FORGET_BIASES) for curve in both]
    return log_limits(*(curve[:n].tolist() for curve in (*rnn_curves().values(), *lstm)))


GRADIENT_FLOW_STYLES = (  # (label, line style) of the curves of plot_gradient_flow, in order
    ("RNN", dict(color=COLORS[3], marker="v", ms=3, markevery=0.1)),  # style or marker too:
    ("orthogonal RNN", dict(color=COLORS[1], ls="-.")),  # colour is never the only difference
    ("LSTM", dict(color=COLORS[0])),
    ("LSTM guide ∏ f", dict(color=COLORS[0], ls=":")),
)  # short labels: every glyph of a widget's figure costs redraw time (~0.3 ms each)
NO_DECAY = "1: no decay"
UNDERFLOW_NOTE = "a line that stops has underflowed float64 (< 1e-308)"


def _positive(steps: list[int], curve: torch.Tensor) -> tuple[list[int], list[float]]:
    """The points of a curve that a log axis can show (finite_or_marked's line)."""
    points = [(k, v) for k, v in zip(steps, curve.tolist()) if math.isfinite(v) and v > 0]
    return [k for k, _ in points], [v for _, v in points]


def plot_gradient_flow(forget_bias: float = 1.0, T: int = 200):
    """||dh_T/dx_1||_F of the two RNNs and of the LSTM (and the LSTM's guide prod f) against T."""
    steps, curves, title = _gradient_flow_lines(forget_bias, T)
    fig, ax = new_figure(width=6.4, height=3.8)
    for curve, (label, style) in zip(curves, GRADIENT_FLOW_STYLES):
        name = rnn_label(label) if label == "RNN" else label  # the orthogonal one's are both 1
        line = finite_or_marked(ax, steps, curve, label=name, **style)
        if label.startswith("LSTM"):
            moving(line)  # the bias slider moves the LSTM's lines, the title and the note
    note = ax.text(
        0.99, 0.97, UNDERFLOW_NOTE, transform=ax.transAxes, ha="right", va="top", fontsize=8, color=COLORS[3]
    )
    note.set_visible(any((v == 0).any() for v in curves))  # below float64: say so, never hide it
    moving(note, ax.title)
    _finish_gradient_axes(ax, title)
    ax.set_ylim(_gradient_flow_ylim(T))
    return fix_margins(fig)


def update_gradient_flow(fig, forget_bias: float = 1.0, T: int = 200) -> None:
    """plot_gradient_flow's figure, redrawn in place at another forget bias or sequence length."""
    steps, curves, title = _gradient_flow_lines(forget_bias, T)
    if any(v.isinf().any() for v in curves):
        raise ValueError("a curve overflowed float64: draw it anew with plot_gradient_flow")
    ax = fig.axes[0]
    for line, curve in zip(ax.lines, curves):
        line.set_data(*_positive(steps, curve))
    ax.texts[0].set_visible(any((v == 0).any() for v in curves))
    ax.set_title(title)
    ax.set_ylim(_gradient_flow_ylim(T))
    ax.relim()
    ax.autoscale_view()  # x only: the y range is set


@register
def explore_gradient_flow() -> Explorer:
    """Forget-bias and sequence-length sliders over plot_gradient_flow.

    The curves for every forget bias on the slider are computed once, together, when the
    explorer is made (one batched pass, about two seconds), so that moving a slider only redraws.
    """
    bias = slider("forget bias", FORGET_BIASES[0], FORGET_BIASES[-1], 0.5, 1.0)
    lstm_curves(*FORGET_BIASES)
    return Explorer(
        plot_gradient_flow,
        {"forget_bias": bias, "T": slider("sequence length", 20, T_MAX, 10, 200)},
        name="gradient_flow",
        update=update_gradient_flow,
        background=("T",),  # the axes and the RNNs' lines; the bias moves the LSTM's lines
    )


def plot_gradient_flow_biases(biases: tuple = (0.0, 1.0, 3.0)):
    """The two RNNs and the LSTM at several forget biases, T up to 500, on one log axis."""
    steps = curve_steps()
    fig, ax = new_figure(width=6.4, height=3.8)
    for (name, curve), (_, style) in zip(rnn_curves().items(), GRADIENT_FLOW_STYLES):
        finite_or_marked(ax, steps, curve, label=rnn_label(name), **style)
    for color, marker, bias, (full, cell) in zip(
        (COLORS[5], COLORS[0], COLORS[2], COLORS[4]), "osDp", biases, lstm_curves(*biases)
    ):
        marks = dict(marker=marker, ms=3, markevery=0.1)  # not colour alone
        finite_or_marked(ax, steps, full, color=color, label=f"LSTM, forget bias {bias:g}", **marks)
        finite_or_marked(ax, steps, cell, color=color, ls=":", lw=1)
    guide = "dotted: guide ∏ f, max_j ∏_{t=2..T} f_t[j] (forget gates only)"
    ax.plot([], [], color=COLORS[7], ls=":", lw=1, label=guide)
    _finish_gradient_axes(ax, f"how much of x_1 reaches h_T, at initialisation, d = {D}")
    return fig


AWD_LSTM_UNITS = (1150, 1150, 400)  # the three layers of the LSTM language model Khandelwal et al. 2018 study
LM_VOCABULARIES = {"Penn Treebank": 10_000, "WikiText-2": 33_278}  # their two corpora's vocabularies


def state_full_tokens(units, vocab: int, bits: int = 32) -> float:
    """Tokens after which the states (h and c) of stacked LSTM layers of these sizes, `bits` bits per
    number, can no longer hold a whole sequence of tokens from a vocabulary of `vocab`:
    2 * sum(units) * bits / log2(vocab)."""
    units = list(units)
    for n in units:
        require_positive_int(n, "each layer's units")
    if isinstance(vocab, bool) or not isinstance(vocab, int) or vocab < 2:
        raise ValueError(f"vocab (the vocabulary size) must be a whole number of at least 2, got {vocab!r}")
    return 2 * sum(units) * bits / math.log2(vocab)


def plot_state_size(d: int = D, vocab: int = 8):
    """What the LSTM must remember (the history grows with T) against what it has (2d numbers)."""
    T = torch.logspace(0, 5, 60)
    fig, ax = new_figure(width=6.4, height=3.4)
    ax.plot(T, T * math.log2(vocab), color=COLORS[3], label=f"history: T tokens x log2({vocab}) bits")
    ax.plot(
        T,
        torch.full_like(T, 2 * d * 32.0),
        color=COLORS[0],
        ls="--",  # not colour alone
        label=f"LSTM state: 2d = {2 * d} float32 numbers = {2 * d * 32} bits",
    )
    full = state_full_tokens([d], vocab)  # tokens the state could hold, at best
    ax.axvline(full, color=COLORS[7], lw=0.8, ls=":", label=f"state full after {full:.0f} tokens")
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
    """One LSTM step from the equations; returns (h_t, c_t). In code (helpers.lstm_step runs it):

    z = x_t @ W_ih.T + h_prev @ W_hh.T + b  # (B, 4 d_h): gates i, f, g, o stacked
    zi, zf, zg, zo = z.chunk(4, dim=-1)  # each (B, d_h)
    i, f, g, o = zi.sigmoid(), zf.sigmoid(), zg.tanh(), zo.sigmoid()
    c_t = f * c_prev + i * g
    h_t = o * torch.tanh(c_t)
    """
    h_t, c_t, _ = lstm_step(x_t, h_prev, c_prev, W_ih, W_hh, b)
    return h_t, c_t


def _lstm_step_inputs():
    """Fresh inputs for one trial, from torch's generator (check and passes seed it, then restore it)."""
    B, d_in, d_h = 3, 5, 4
    shapes = [(B, d_in), (B, d_h), (B, d_h), (4 * d_h, d_in), (4 * d_h, d_h), (4 * d_h,)]
    return tuple(torch.randn(shape) for shape in shapes)


def lstm_below_rnn_solution() -> float:
    """The lowest forget bias on the gradient-flow slider at which the LSTM's ||dh_500/dx_1||_F is still
    above the default RNN's."""
    rnn = gradient_norm_at(T_MAX, "RNN")
    return min(b for b in FORGET_BIASES if gradient_norm_at(T_MAX, b) > rnn)


def forget_bias_half_solution() -> float:
    """The forget bias b with sigma(b)**100 = 1/2: b = logit(0.5**0.01)."""
    f = 0.5**0.01
    return math.log(f / (1 - f))


register_exercise(
    "lstm_step",
    reference=lstm_step_solution,
    make_inputs=_lstm_step_inputs,
    hint="gate order is i, f, g, o; i, f, o use sigmoid, g uses tanh; "
    "c_t = f*c_prev + i*g and h_t = o*tanh(c_t).",
)
register_exercise(
    "lstm_below_rnn",
    reference=lstm_below_rnn_solution,
    hint="set the sequence length to 500 and lower the forget bias one step at a time; compare where the "
    "LSTM's line and the RNN's line (triangles) end.",
    worked="Predicted from the cell path alone: it shrinks by sigma(b_f) per step, the default RNN by\n"
    "about 0.455, and sigma(b_f) < 0.455 for every b_f <= -0.5, so the LSTM should fall below the RNN\n"
    "already at -0.5. The widget at T = 500: at -0.5 the LSTM is still far above the RNN (about 2e-156\n"
    "against 6e-171); at -1 it falls below (about 2e-208). The lowest bias still above is -0.5: the paths\n"
    "through h and W_hh keep the LSTM's gradient above what its forget gates alone predict.",
)
register_exercise(
    "forget_bias_half",
    reference=forget_bias_half_solution,
    hint="solve sigma(b)**100 = 0.5: first the gate f = 0.5**(1/100), then the b with sigma(b) = f, "
    "b = log(f / (1 - f)).",
    worked="Each step keeps f = sigma(b) of the cell path, so 100 steps keep f**100 = 1/2:\n"
    "f = 0.5**0.01 = 0.99309. sigma(b) = f  <=>  b = log(f / (1 - f)) = 4.968:\n"
    "the gate must start almost fully open.",
)
