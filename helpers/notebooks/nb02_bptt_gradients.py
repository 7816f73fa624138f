"""Notebook 02: its figures, widgets, constants and exercises."""

import torch

from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, finite_or_marked, fix_margins, log_axis, new_figure
from ..course.widgets import Explorer, register, slider
from ..jacobians import (
    NONLINEARITIES,
    _product_norms,
    hidden_states,
    jacobian_norms,
    power_norms,
    step_jacobian,
)
from ..measure import one_thread
from ..spectra import largest_singular_value, matrix_with_spectral_radius

# --- the figures ------------------------------------------------------------------------


CASES = [  # (nonlinearity, kind, line style)
    ("linear", "orthogonal", "-"),
    ("linear", "gaussian", "--"),
    ("tanh", "orthogonal", "-"),
    ("tanh", "gaussian", "--"),
]


def unit_inputs(T: int, d: int, seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """Realistic drive for the tanh RNN: x_t ~ N(0, I_d) and W_xh = I, so W_xh x_t has unit scale."""
    x = torch.randn(T, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    return x, torch.eye(d, dtype=torch.float64)


def gradient_norms(
    rho: float,
    T: int,
    *,
    d: int = 64,
    kind: str = "orthogonal",
    nonlinearity: str = "linear",
    seed: int = 0,
    every: int = 1,
) -> torch.Tensor:
    """||dh_k/dh_0|| (k = every, 2 every, ...) for W_hh with spectral radius rho; tanh gets unit inputs."""
    W = matrix_with_spectral_radius(d, rho, kind=kind, generator=torch.Generator().manual_seed(seed))
    x, W_xh = unit_inputs(T, d) if nonlinearity == "tanh" else (None, None)
    if every == 1:
        return jacobian_norms(W, T, nonlinearity=nonlinearity, x=x, W_xh=W_xh)
    with one_thread():
        return _product_norms(W, T, nonlinearity, x, W_xh, None, every)


def plot_gradient_norm_grid(T: int = 200, rhos: tuple = (0.9, 1.0, 1.1), d: int = 64):
    """Two panels (linear, tanh): ||dh_T/dh_0|| against T for each rho, orthogonal and Gaussian W_hh."""
    fig, axes = new_figure(1, 2, width=10, height=3.8)
    every = 2  # T/2 points per curve: smooth enough
    steps = [min(k, T) for k in range(every, T + every, every)]
    for ax, nonlinearity in zip(axes, NONLINEARITIES[::-1]):
        for color, rho in zip(COLORS, rhos):
            for _, kind, style in [c for c in CASES if c[0] == nonlinearity]:
                norms = gradient_norms(rho, T, d=d, kind=kind, nonlinearity=nonlinearity, every=every)
                finite_or_marked(ax, steps, norms, label=f"ρ = {rho:g}, {kind}", color=color, ls=style)
        log_axis(ax, "y")
        note = ", unit inputs (lines as on the left)" if nonlinearity == "tanh" else ""
        ax.set(xlabel="sequence length T (steps back)", title=f"{nonlinearity} RNN{note}")
    for ax in axes:
        ax.set_ylabel(r"gradient norm $\|\partial h_T / \partial h_0\|_2$")
    axes[0].legend(fontsize=8, ncol=1)
    return fig


def plot_gradient_norms(eigenvalue: float = 1.0, seq_len: int = 100, d: int = 32):
    """||dh_T/dh_0|| against T at one spectral radius: linear/tanh x orthogonal/Gaussian, with rho^T."""
    if not 0 < eigenvalue <= 3:
        raise ValueError(f"eigenvalue (the spectral radius) must be in (0, 3], got {eigenvalue!r}")
    require_positive_int(seq_len, "seq_len (the sequence length)")
    every = max(1, seq_len // 50)  # ~50 points: a fast redraw
    steps = [min(k, seq_len) for k in range(every, seq_len + every, every)]
    fig, ax = new_figure(width=6.4, height=3.6)
    for i, (nonlinearity, kind, style) in enumerate(CASES):
        norms = gradient_norms(eigenvalue, seq_len, d=d, kind=kind, nonlinearity=nonlinearity, every=every)
        finite_or_marked(
            ax, steps, norms, label=f"{nonlinearity}, {kind}", color=COLORS[i // 2 * 2], ls=style
        )
    ks = torch.arange(1, seq_len + 1, dtype=torch.float64)
    ax.plot(
        ks, eigenvalue**ks, color=COLORS[7], lw=6, alpha=0.3, zorder=1, label=r"$\rho^T$"
    )  # a band behind
    log_axis(ax, "y")
    ax.set(
        xlabel="sequence length T (steps back)",
        ylabel=r"$\|\partial h_T / \partial h_0\|_2$",
        title=f"spectral radius ρ = {eigenvalue:.2f}, d = {d}",
    )
    ax.legend(fontsize=8)
    return fix_margins(fig)


@register
def explore_gradient_norms() -> Explorer:
    """Eigenvalue and sequence-length sliders over plot_gradient_norms."""
    return Explorer(
        plot_gradient_norms,
        {
            "eigenvalue": slider("eigenvalue", 0.5, 1.5, 0.05, 1.0),
            "seq_len": slider("sequence length", 10, 300, 10, 100),
        },
        name="gradient_norms",
    )


def plot_non_normal(coupling: float = 5.0, eigenvalue: float = 0.9, K: int = 60):
    """||W^k|| for W = [[lambda, c], [0, lambda]] against the normal matrix lambda*I and lambda^k."""
    if not 0 < eigenvalue < 1.5:
        raise ValueError(f"eigenvalue must be in (0, 1.5), got {eigenvalue!r}")
    W = torch.tensor([[eigenvalue, coupling], [0.0, eigenvalue]], dtype=torch.float64)
    ks = list(range(K + 1))
    fig, ax = new_figure(width=6.4, height=3.4)
    ax.plot(
        ks,
        power_norms(W, K),
        color=COLORS[3],
        label=f"W = [[{eigenvalue:g}, {coupling:g}], [0, {eigenvalue:g}]]",
    )
    ax.plot(
        ks, [eigenvalue**k for k in ks], color=COLORS[0], ls="--", label=r"$\lambda I$ (normal): $\lambda^k$"
    )
    ax.axhline(1.0, color=COLORS[7], lw=0.6)
    log_axis(ax, "y")
    ax.set(
        xlabel="power k (steps back)",
        ylabel=r"$\|W^k\|_2$",
        title=f"ρ = {eigenvalue:g} for both; σ_max = {largest_singular_value(W):.2f} for W, "
        f"{eigenvalue:g} for λI",
    )
    ax.legend(fontsize=8)
    return fig


@register
def explore_non_normal() -> Explorer:
    """Coupling and eigenvalue sliders over plot_non_normal: transient growth despite rho < 1."""
    return Explorer(
        plot_non_normal,
        {
            "coupling": slider("off-diagonal coupling", 0.0, 10.0, 0.5, 5.0),
            "eigenvalue": slider("eigenvalue", 0.5, 1.2, 0.05, 0.9),
        },
        name="non_normal",
    )


# --- exercises --------------------------------------------------------------------------


def linear_rnn_jacobian(W_hh: torch.Tensor, T: int) -> torch.Tensor:
    """dh_T/dh_0 of the linear RNN h_k = W_hh h_{k-1} + W_xh x_k: every J_k is W_hh."""
    return torch.linalg.matrix_power(W_hh, T)


def _tanh_jacobian_inputs():
    return torch.tanh(torch.randn(5)), torch.randn(5, 5)


def _linear_jacobian_inputs():
    """A non-symmetric W_hh and T >= 2: W_hh ** T (elementwise) and W_hh.T powers both fail."""
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
)


def input_gradient_norms(W_hh: torch.Tensor, T: int, *, seed: int = 1) -> torch.Tensor:
    """||dL/dx_t|| for t = 1..T, L = sum(h_T) of a tanh RNN with unit inputs (W_xh = I), float64."""
    d = W_hh.shape[0]
    x, W_xh = unit_inputs(T, d, seed)
    x.requires_grad_(True)
    hidden_states(W_hh, T, x=x, W_xh=W_xh)[-1].sum().backward()
    return x.grad.norm(dim=1)  # (T,)
