"""Backpropagation through time: the product of Jacobians dh_k/dh_{k-1}."""

import math

import torch

from .checks import require_positive_int, require_square
from .exercises import register_exercise
from .plots import COLORS, finite_or_marked, fix_margins, log_axis, new_figure
from .spectra import largest_singular_value, matrix_with_spectral_radius
from .timing import one_thread
from .widgets import Explorer, register, slider

NONLINEARITIES = ("tanh", "linear")
LOG_FLOAT64_MAX = math.log(torch.finfo(torch.float64).max)  # 709.78: e^this is the largest float64


def hidden_states(
    W_hh: torch.Tensor,
    T: int,
    *,
    nonlinearity: str = "tanh",
    x: torch.Tensor | None = None,
    W_xh: torch.Tensor | None = None,
    h0: torch.Tensor | None = None,
) -> torch.Tensor:
    """h_1..h_T of the unbatched recurrence h_k = phi(W_hh h_{k-1} + W_xh x_k), float64, (T, d)."""
    d = W_hh.shape[0]
    W = W_hh.double()
    drive = torch.zeros(T, d, dtype=torch.float64) if x is None else x.double() @ W_xh.double().T
    h = torch.zeros(d, dtype=torch.float64) if h0 is None else h0.double()
    hs = []
    for k in range(T):
        a = W @ h + drive[k]  # (d,)
        h = torch.tanh(a) if nonlinearity == "tanh" else a
        hs.append(h)
    return torch.stack(hs)  # (T, d)


def step_jacobian(h_k: torch.Tensor, W_hh: torch.Tensor) -> torch.Tensor:
    """J_k = dh_k/dh_{k-1} = diag(1 - h_k^2) W_hh, for h_k = tanh(W_hh h_{k-1} + ...).

    h_k (d,), W_hh (d, d) -> J_k (d, d).
    """
    require_square(W_hh, "W_hh")
    return (1 - h_k**2)[:, None] * W_hh  # row i scaled by tanh'(a_i)


def jacobian_product(
    W_hh: torch.Tensor,
    T: int,
    *,
    x: torch.Tensor | None = None,
    W_xh: torch.Tensor | None = None,
    h0: torch.Tensor | None = None,
) -> torch.Tensor:
    """dh_T/dh_0 = J_T J_{T-1} ... J_1 of a tanh RNN, multiplied out plainly in float64, (d, d)."""
    require_square(W_hh, "W_hh")
    require_positive_int(T, "T (the sequence length)")
    H = hidden_states(W_hh, T, x=x, W_xh=W_xh, h0=h0)  # (T, d)
    P = torch.eye(W_hh.shape[0], dtype=torch.float64)
    for k in range(T):
        P = step_jacobian(H[k], W_hh.double()) @ P  # J_k (J_{k-1} ... J_1)
    return P


def jacobian_norms(
    W_hh: torch.Tensor,
    T: int,
    *,
    nonlinearity: str = "tanh",
    x: torch.Tensor | None = None,
    W_xh: torch.Tensor | None = None,
    h0: torch.Tensor | None = None,
) -> torch.Tensor:
    """||dh_k/dh_0||_2 for k = 1..T, as a float64 tensor (T,).

    dh_k/dh_0 = J_k ... J_1 with J_k = diag(phi'(a_k)) W_hh. The product is kept
    normalised and its scale tracked as a logarithm, so the result is exact up to
    float64 range: beyond it the entry is honestly inf (or 0), never NaN.
    """
    require_square(W_hh, "W_hh")
    require_positive_int(T, "T (the sequence length)")
    if nonlinearity not in NONLINEARITIES:
        raise ValueError(f"nonlinearity must be one of {NONLINEARITIES}, got {nonlinearity!r}")
    if x is not None and (W_xh is None or x.shape[0] < T):
        raise ValueError(f"x needs W_xh and at least T={T} rows, got x of shape {tuple(x.shape)}")
    with one_thread():
        return _product_norms(W_hh, T, nonlinearity, x, W_xh, h0, every=1)


def _product_norms(W_hh, T, nonlinearity, x, W_xh, h0, every: int) -> torch.Tensor:
    """||J_k...J_1||_2 at k = every, 2*every, ..., (and T): scale tracked as a log, norms in one batch."""
    W = W_hh.double()
    H = hidden_states(W_hh, T, nonlinearity=nonlinearity, x=x, W_xh=W_xh, h0=h0)
    slopes = 1 - H**2 if nonlinearity == "tanh" else torch.ones_like(H)  # phi'(a_k), (T, d)
    P = torch.eye(W.shape[0], dtype=torch.float64)  # the product, Frobenius-normalised
    log_scale, kept, logs = 0.0, [], []
    for k in range(T):
        P = slopes[k, :, None] * (W @ P)  # J_k P, (d, d)
        f = torch.linalg.matrix_norm(P).item()  # Frobenius: cheap
        if f == 0.0:  # exactly zero from here on
            break
        log_scale += math.log(f)
        P = P / f
        if (k + 1) % every == 0 or k + 1 == T:
            kept.append(P)
            logs.append(log_scale)
    n = -(-T // every)  # how many k were asked for
    if not kept:
        return torch.zeros(n, dtype=torch.float64)
    spectral = torch.linalg.matrix_norm(torch.stack(kept), ord=2)  # (n,), one batched SVD
    log_norms = torch.tensor(logs, dtype=torch.float64) + spectral.log()
    norms = torch.where(log_norms < LOG_FLOAT64_MAX, log_norms.exp(), torch.inf)
    return torch.cat([norms, torch.zeros(n - len(norms), dtype=torch.float64)])


def naive_product_norm(W_hh: torch.Tensor, T: int, dtype: torch.dtype = torch.float32) -> float:
    """||W_hh^T||_2 of a linear RNN, multiplied out step by step in `dtype` with no rescaling."""
    require_square(W_hh, "W_hh")
    P = torch.eye(W_hh.shape[0], dtype=dtype)
    for _ in range(T):
        P = W_hh.to(dtype) @ P
    return torch.linalg.matrix_norm(P.double(), ord=2).item()


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


def power_norms(W: torch.Tensor, K: int) -> torch.Tensor:
    """||W^k||_2 for k = 0..K, float64, (K + 1,)."""
    require_square(W, "W")
    W = W.double()
    P, out = torch.eye(W.shape[0], dtype=torch.float64), []
    for _ in range(K + 1):
        out.append(torch.linalg.matrix_norm(P, ord=2))
        P = W @ P
    return torch.stack(out)


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


def input_gradient_norms(W_hh: torch.Tensor, T: int, *, seed: int = 1) -> torch.Tensor:
    """||dL/dx_t|| for t = 1..T, L = sum(h_T) of a tanh RNN with unit inputs (W_xh = I), float64."""
    d = W_hh.shape[0]
    x, W_xh = unit_inputs(T, d, seed)
    x.requires_grad_(True)
    hidden_states(W_hh, T, x=x, W_xh=W_xh)[-1].sum().backward()
    return x.grad.norm(dim=1)  # (T,)


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
