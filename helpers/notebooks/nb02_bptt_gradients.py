"""Notebook 02: its figures, widgets, constants and exercises."""

import functools
import math

import torch

from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, finite_or_marked, fix_margins, log_axis, log_limits, new_figure
from ..course.widgets import Explorer, choice, register, slider
from ..jacobians import NONLINEARITIES, hidden_states, power_norms, product_norms, step_jacobian
from ..spectra import largest_singular_value, matrix_with_spectral_radius

# --- the figures ------------------------------------------------------------------------


CASES = [  # (nonlinearity, kind, line style)
    ("linear", "orthogonal", "-"),
    ("linear", "gaussian", "--"),
    ("tanh", "orthogonal", "-"),
    ("tanh", "gaussian", "--"),
]
INPUT_SCALES = (0.01, 0.1, 0.3, 1.0, 3.0)  # the widget's input scales (std of W_xh x_t)
CHUNK = 64  # inputs are drawn 64 rows at a time: a longer sequence starts with the same inputs


def random_inputs(T: int, d: int, *, scale: float = 1.0, seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """The tanh RNN's drive: x_t ~ N(0, scale^2 I_d) and W_xh = I, so W_xh x_t has size `scale`.

    Returns x (T, d) and W_xh (d, d), float64; x of a shorter T is the start of x of a longer one.
    """
    require_positive_int(T, "T (the sequence length)")
    if not (math.isfinite(scale) and scale >= 0):
        raise ValueError(f"scale (the input scale) must be a finite number >= 0, got {scale!r}")
    gen = torch.Generator().manual_seed(seed)
    chunks = [torch.randn(CHUNK, d, generator=gen, dtype=torch.float64) for _ in range(-(-T // CHUNK))]
    return scale * torch.cat(chunks)[:T], torch.eye(d, dtype=torch.float64)


def recurrent_matrix(rho: float, d: int = 64, *, kind: str = "orthogonal", seed: int = 0) -> torch.Tensor:
    """The W_hh of gradient_norms: spectral radius rho, drawn with generator seed `seed`, (d, d) float32."""
    return matrix_with_spectral_radius(d, rho, kind=kind, generator=torch.Generator().manual_seed(seed))


def case_norms(
    rho: float, T: int, cases, *, d: int = 64, seed: int = 0, every: int = 1, input_scale: float = 1.0
) -> torch.Tensor:
    """||dh_k/dh_0||_2 at k = every, 2 every, ..., (and T) for each (nonlinearity, kind) in `cases`.

    W_hh has spectral radius rho (drawn with `seed`); the tanh RNN is driven by random_inputs of size
    `input_scale`. All cases are multiplied out together: (len(cases), ceil(T / every)), float64.
    """
    Ws, slopes = [], []
    for nonlinearity, kind in cases:
        if nonlinearity not in NONLINEARITIES:
            raise ValueError(f"nonlinearity must be one of {NONLINEARITIES}, got {nonlinearity!r}")
        W = recurrent_matrix(rho, d, kind=kind, seed=seed)
        if nonlinearity == "tanh":
            x, W_xh = random_inputs(T, d, scale=input_scale)
            slopes.append(1 - hidden_states(W, T, x=x, W_xh=W_xh) ** 2)  # tanh'(z_k), (T, d)
        else:
            slopes.append(torch.ones(T, d, dtype=torch.float64))
        Ws.append(W)
    return product_norms(torch.stack(Ws), torch.stack(slopes), every)


def gradient_norms(
    rho: float,
    T: int,
    *,
    d: int = 64,
    kind: str = "orthogonal",
    nonlinearity: str = "linear",
    seed: int = 0,
    every: int = 1,
    input_scale: float = 1.0,
) -> torch.Tensor:
    """||dh_k/dh_0|| (k = every, 2 every, ...) for W_hh with spectral radius rho; tanh gets random_inputs."""
    return case_norms(rho, T, [(nonlinearity, kind)], d=d, seed=seed, every=every, input_scale=input_scale)[0]


def plot_gradient_norm_grid(T: int = 200, rhos: tuple = (0.9, 1.0, 1.1), d: int = 64):
    """Two panels (linear, tanh): ||dh_T/dh_0|| against T for each rho, orthogonal and Gaussian W_hh."""
    fig, axes = new_figure(1, 2, width=10, height=3.8)
    every = 2  # T/2 points per curve: smooth enough
    steps = [min(k, T) for k in range(every, T + every, every)]
    for ax, nonlinearity in zip(axes, NONLINEARITIES[::-1]):
        cases = [(nl, kind, style) for nl, kind, style in CASES if nl == nonlinearity]
        for color, marker, rho in zip(COLORS, "os^", rhos):  # rho by colour and marker, W by line style
            norms = case_norms(rho, T, [c[:2] for c in cases], d=d, every=every)
            marks = dict(marker=marker, ms=3, markevery=0.1)
            for (_, kind, style), row in zip(cases, norms):
                finite_or_marked(ax, steps, row, label=f"ρ = {rho:g}, {kind}", color=color, ls=style, **marks)
        log_axis(ax, "y")
        note = ", unit inputs (lines as on the left)" if nonlinearity == "tanh" else ""
        ax.set(xlabel="sequence length T (steps back)", title=f"{nonlinearity} RNN{note}")
    for ax in axes:
        ax.set_ylabel(r"gradient norm $\|\partial h_T / \partial h_0\|_2$")
    axes[0].legend(fontsize=8, ncol=1)
    return fig


@functools.lru_cache(maxsize=64)
def _widget_curves(rho: float, seq_len: int, input_scale: float, d: int) -> tuple:
    """(steps, one tuple of norms per case in CASES) at about 50 steps: what the widget draws.

    A pure function of its arguments (fixed seeds), so a value seen before is redrawn from the cache.
    """
    every = max(1, seq_len // 50)  # ~50 points: a fast redraw
    steps = tuple(min(k, seq_len) for k in range(every, seq_len + every, every))
    norms = case_norms(rho, seq_len, [c[:2] for c in CASES], d=d, every=every, input_scale=input_scale)
    return steps, tuple(tuple(row) for row in norms.tolist())


def _gradient_norms_view(rho: float, seq_len: int, input_scale: float, d: int) -> dict:
    """Everything plot_gradient_norms draws, checked and computed once."""
    if not 0 < rho <= 3:
        raise ValueError(f"rho (the spectral radius) must be in (0, 3], got {rho!r}")
    require_positive_int(seq_len, "seq_len (the sequence length)")
    if not (math.isfinite(input_scale) and input_scale >= 0):
        raise ValueError(f"input_scale must be a finite number >= 0, got {input_scale!r}")
    steps, norms = _widget_curves(float(rho), seq_len, float(input_scale), d)
    ks = list(range(1, seq_len + 1))
    band = (rho ** torch.arange(1, seq_len + 1, dtype=torch.float64)).tolist()  # rho^T, inf past float64
    return {
        "steps": steps,
        "norms": norms,
        "band": (ks, band),
        "xlim": (1 - 0.05 * (seq_len - 1) - (seq_len == 1), seq_len + 0.05 * (seq_len - 1) + (seq_len == 1)),
        "ylim": log_limits(band, *norms),
        "title": f"spectral radius ρ = {rho:.2f}, input scale {input_scale:g}, d = {d}",
    }


def _draw_gradient_norms(ax, view: dict) -> None:
    for i, ((nonlinearity, kind, style), row) in enumerate(zip(CASES, view["norms"])):
        color = COLORS[i // 2 * 2]
        marks = dict(marker="o", ms=3, markevery=0.1) if nonlinearity == "tanh" else {}  # not colour alone
        finite_or_marked(
            ax, view["steps"], row, label=f"{nonlinearity}, {kind}", color=color, ls=style, **marks
        )
    ax.plot(*view["band"], color=COLORS[7], lw=6, alpha=0.3, zorder=1, label=r"$\rho^T$")  # a band behind
    ax.set(xlabel="sequence length T (steps back)", ylabel=r"$\|\partial h_T / \partial h_0\|_2$")
    ax.set(title=view["title"], xlim=view["xlim"], ylim=view["ylim"])  # limits first: no autoscale
    log_axis(ax, "y")
    ax.legend(fontsize=8)


def plot_gradient_norms(rho: float = 1.0, seq_len: int = 100, input_scale: float = 1.0, d: int = 32):
    """||dh_T/dh_0|| against T at one spectral radius: linear/tanh x orthogonal/Gaussian, with rho^T.

    The tanh RNN is driven by inputs of size `input_scale`: small, it stays near linear; large, it saturates.
    """
    view = _gradient_norms_view(rho, seq_len, input_scale, d)
    fig, ax = new_figure(width=6.4, height=3.6)
    _draw_gradient_norms(ax, view)
    return fix_margins(fig)


def update_gradient_norms(fig, rho: float = 1.0, seq_len: int = 100, input_scale: float = 1.0, d: int = 32):
    """plot_gradient_norms's figure, redrawn in place for other values."""
    view = _gradient_norms_view(rho, seq_len, input_scale, d)
    ax = fig.axes[0]
    if len(ax.lines) != len(CASES) + 1 or any(math.isinf(v) for row in view["norms"] for v in row):
        ax.clear()  # overflow markers come and go: draw the axes anew
        _draw_gradient_norms(ax, view)
        return
    for line, row in zip(ax.lines, view["norms"]):  # as finite_or_marked draws them: zeros left out
        line.set_data([k for k, v in zip(view["steps"], row) if v > 0], [v for v in row if v > 0])
    ax.lines[-1].set_data(*view["band"])
    ax.set(title=view["title"], xlim=view["xlim"], ylim=view["ylim"])


@register
def explore_gradient_norms() -> Explorer:
    """Spectral radius, sequence length and input scale controls over plot_gradient_norms."""
    return Explorer(
        plot_gradient_norms,
        {
            "rho": slider("spectral radius ρ", 0.5, 1.5, 0.05, 1.0),
            "seq_len": slider("sequence length", 10, 300, 10, 100),
            "input_scale": choice("input scale", INPUT_SCALES, 1.0),
        },
        name="gradient_norms",
        update=update_gradient_norms,
    )


def _non_normal_view(coupling: float, eigenvalue: float, K: int) -> dict:
    """Everything plot_non_normal draws: ||W^k|| for W = [[lambda, c], [0, lambda]] and lambda^k."""
    if not 0 < eigenvalue < 1.5:
        raise ValueError(f"eigenvalue must be in (0, 1.5), got {eigenvalue!r}")
    W = torch.tensor([[eigenvalue, coupling], [0.0, eigenvalue]], dtype=torch.float64)
    ks = list(range(K + 1))
    powers, normal = power_norms(W, K).tolist(), [eigenvalue**k for k in ks]
    peak = max(ks, key=powers.__getitem__)  # the first k where ||W^k|| is largest
    return {
        "ks": ks,
        "powers": powers,
        "normal": normal,
        "ylim": log_limits(powers, normal, [1.0]),
        "label": f"W = [[{eigenvalue:g}, {coupling:g}], [0, {eigenvalue:g}]]",
        "title": f"ρ = {eigenvalue:g} for both; σ_max = {largest_singular_value(W):.2f} for W, "
        f"{eigenvalue:g} for λI;\n"
        + (
            f"‖W^k‖ peaks at {powers[peak]:.3g}, at k = {peak}"
            if peak < K
            else f"‖W^k‖ still grows at k = {K}"
        ),
        "peak": peak,
    }


def plot_non_normal(coupling: float = 5.0, eigenvalue: float = 0.9, K: int = 60):
    """||W^k|| for W = [[lambda, c], [0, lambda]] against the normal matrix lambda*I and lambda^k."""
    view = _non_normal_view(coupling, eigenvalue, K)
    fig, ax = new_figure(width=6.4, height=3.4)
    ax.plot(view["ks"], view["powers"], color=COLORS[3], label=view["label"])
    ax.plot(view["ks"], view["normal"], color=COLORS[0], ls="--", label=r"$\lambda I$ (normal): $\lambda^k$")
    ax.axhline(1.0, color=COLORS[7], lw=0.6)
    log_axis(ax, "y")
    ax.set(xlabel="power k (steps back)", ylabel=r"$\|W^k\|_2$", title=view["title"], ylim=view["ylim"])
    ax.legend(fontsize=8)
    return fig


def update_non_normal(fig, coupling: float = 5.0, eigenvalue: float = 0.9, K: int = 60) -> None:
    """plot_non_normal's figure, redrawn in place for another coupling or eigenvalue."""
    view = _non_normal_view(coupling, eigenvalue, K)
    ax = fig.axes[0]
    ax.lines[0].set_data(view["ks"], view["powers"])
    ax.lines[0].set_label(view["label"])
    ax.get_legend().get_texts()[0].set_text(view["label"])
    ax.lines[1].set_data(view["ks"], view["normal"])
    ax.set(title=view["title"], ylim=view["ylim"])


@register
def explore_non_normal() -> Explorer:
    """Coupling and eigenvalue sliders over plot_non_normal: transient growth despite rho < 1."""
    return Explorer(
        plot_non_normal,
        {
            "coupling": slider("off-diagonal coupling", 0.0, 10.0, 0.5, 5.0),
            "eigenvalue": slider("eigenvalue λ (= ρ)", 0.5, 1.2, 0.05, 0.9),
        },
        name="non_normal",
        update=update_non_normal,
    )


# --- exercises --------------------------------------------------------------------------


def linear_rnn_jacobian(W_hh: torch.Tensor, T: int) -> torch.Tensor:
    """dh_T/dh_0 of the linear RNN h_k = W_hh h_{k-1} + W_xh x_k: every J_k is W_hh, so the T-th power."""
    return torch.linalg.matrix_power(W_hh, T)


def _tanh_jacobian_inputs():
    return torch.tanh(torch.randn(5)), torch.randn(5, 5)


def _linear_jacobian_inputs():
    """A non-symmetric W_hh and T >= 2: W_hh ** T (elementwise) and powers of W_hh.T both fail."""
    T = int(torch.randint(2, 8, ()))  # drawn first: T = 4, 2, 3, 7 under seed 0
    return torch.randn(4, 4) / 2, T


def vanishing_bound() -> float:
    """sigma_max(W_hh) = 0.9 and |tanh'| <= 1, so ||dh_50/dh_0|| <= 0.9^50."""
    return 0.9**50


register_exercise(
    "linear_rnn_jacobian",
    reference=linear_rnn_jacobian,
    make_inputs=_linear_jacobian_inputs,
    hint="in a linear RNN every step Jacobian is the same matrix W_hh.",
    trials=4,
)
register_exercise(
    "tanh_step_jacobian",
    reference=step_jacobian,
    make_inputs=_tanh_jacobian_inputs,
    hint="tanh'(a) = 1 - tanh(a)^2 = 1 - h^2 scales row i of W_hh (not column i).",
)
register_exercise(
    "vanishing_bound",
    reference=vanishing_bound,
    hint="each of the 50 Jacobians has norm at most sigma_max * max|tanh'|.",
    worked="One step's Jacobian is diag(tanh'(a_t)) W_hh: its norm is at most max|tanh'| * 0.9 = 0.9.\n"
    "The norm of a product is at most the product of the norms: 50 factors, each <= 0.9.\n"
    "So ||dh_50/dh_0|| <= 0.9**50 = 0.005154, whatever the inputs.",
)


# The exercises of the notebook as it is now. The three above came first; tests/test_jacobians.py and the
# graders still use them, so they stay registered, though the notebook no longer asks them (its plain loop
# and its prose now print their answers).


def non_normal_peak() -> int:
    """The power k at which ||W^k|| peaks for W = [[0.85, 5], [0, 0.85]]."""
    W = torch.tensor([[0.85, 5.0], [0.0, 0.85]], dtype=torch.float64)
    return int(power_norms(W, 60).argmax())


def sigmoid_bound() -> float:
    """sigma_max(W_hh) = 3 and |sigmoid'| <= 1/4, so ||dh_20/dh_0|| <= (3/4)^20."""
    return (3 / 4) ** 20


def residual_step_jacobian(u_k: torch.Tensor, W_hh: torch.Tensor) -> torch.Tensor:
    """dh_k/dh_{k-1} = I + diag(1 - u_k^2) W_hh of the residual step h_k = h_{k-1} + u_k.

    u_k = tanh(W_hh h_{k-1} + W_xh x_k) (d,), W_hh (d, d) -> (d, d).
    """
    return torch.eye(W_hh.shape[0], dtype=W_hh.dtype) + step_jacobian(u_k, W_hh)


def _residual_jacobian_inputs():
    return torch.tanh(2 * torch.randn(5)), torch.randn(5, 5)


register_exercise(
    "non_normal_peak",
    reference=non_normal_peak,
    hint="the corner entry of W^k dominates its norm: compare it at k and at k + 1.",
    worked="W^k = [[0.85^k, 5 k 0.85^(k-1)], [0, 0.85^k]], and the corner entry dominates its norm.\n"
    "From k to k + 1 that entry is multiplied by 0.85 (k + 1) / k,\n"
    "which is above 1 while k < 0.85 / 0.15 = 5.67.\n"
    "So it grows up to k = 6 and shrinks after: the hump peaks at k = 6.",
)
register_exercise(
    "sigmoid_bound",
    reference=sigmoid_bound,
    hint="what is the largest slope of the sigmoid, s (1 - s)? It plays the part of gamma.",
    worked="One step's Jacobian is diag(sigmoid'(z_k)) W_hh, and sigmoid' = s (1 - s) <= 1/4.\n"
    "So each factor has norm at most 3 / 4 < 1: vanishing is guaranteed, although sigma_max = 3 > 1.\n"
    "Twenty factors: ||dh_20/dh_0|| <= (3/4)**20 = 0.003171.",
)
register_exercise(
    "residual_step_jacobian",
    reference=residual_step_jacobian,
    make_inputs=_residual_jacobian_inputs,
    hint="h_{k-1} itself passes through unchanged, so its Jacobian I is added to diag(1 - u_k^2) W_hh.",
)


def input_gradient_norms(W_hh: torch.Tensor, T: int, *, seed: int = 1) -> torch.Tensor:
    """||dL/dx_t|| for t = 1..T, L = sum(h_T) of a tanh RNN with unit inputs (W_xh = I), float64."""
    x, W_xh = random_inputs(T, W_hh.shape[0], seed=seed)
    x.requires_grad_(True)
    hidden_states(W_hh, T, x=x, W_xh=W_xh)[-1].sum().backward()
    return x.grad.norm(dim=1)  # (T,)
