"""Notebook 04: its figures, widgets, constants and exercises."""

import functools
import math

import torch
from torch import nn

from ..attention import entropy
from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, finite_or_marked, log_axis, new_figure
from ..course.widgets import Explorer, choice, register
from ..jacobians import output_jacobian_norms
from ..multihead import MultiHeadSelfAttention, last_token_attention
from ..seed import seeded


def identity_attention(d: int) -> nn.MultiheadAttention:
    """nn.MultiheadAttention(d, 1 head, batch_first=True) whose projections are the identity.

    Then mha(x, x, x) is plain softmax(x x^T / sqrt(d)) x: only the masks differ.
    """
    mha = nn.MultiheadAttention(d, 1, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(d).repeat(3, 1))  # [W_q; W_k; W_v] = [I; I; I]
        mha.out_proj.weight.copy_(torch.eye(d))
    return mha


# ---- Why sqrt(d_k): the variance of q.k grows with d_k --------------------------------

DK_CHOICES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


def random_scores(d_k: int, n_queries: int = 1, S: int = 16, seed: int = 0) -> torch.Tensor:
    """q . k for q, k with independent N(0, 1) entries: (n_queries, S), variance d_k."""
    require_positive_int(d_k, "d_k")
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n_queries, d_k, generator=g)
    k = torch.randn(S, d_k, generator=g)
    return q @ k.T  # (n_queries, S)


@functools.cache
def mean_entropies(S: int = 16, n_queries: int = 256) -> dict[str, list[float]]:
    """Mean entropy of softmax(q.k) and softmax(q.k / sqrt(d_k)) for each d_k in DK_CHOICES."""
    rows = {"raw": [], "scaled": []}
    for d_k in DK_CHOICES:
        s = random_scores(d_k, n_queries, S, seed=d_k)
        rows["raw"].append(entropy(s.softmax(-1)).mean().item())
        rows["scaled"].append(entropy((s / math.sqrt(d_k)).softmax(-1)).mean().item())
    return rows


def plot_scaling(d_k: int = 64, S: int = 16):
    """One query against S keys: the weights with and without 1/sqrt(d_k), and their entropy."""
    s = random_scores(d_k, 1, S)[0]  # (S,)
    raw, scaled = s.softmax(-1), (s / math.sqrt(d_k)).softmax(-1)
    fig, ax = new_figure(width=6.0, height=3.0)
    j = list(range(S))
    ax.plot(j, raw.tolist(), "o-", color=COLORS[3], label=f"softmax(q·k): entropy {entropy(raw):.2f} nats")
    ax.plot(
        j,
        scaled.tolist(),
        "s-",
        color=COLORS[0],
        label=f"softmax(q·k / √d_k): entropy {entropy(scaled):.2f} nats",
    )
    ax.set(
        ylim=(-0.02, 1.4),
        yticks=[0, 0.2, 0.4, 0.6, 0.8, 1.0],
        xlabel="key j",
        ylabel="attention weight",
        title=f"One query, {S} keys, d_k = {d_k} (uniform: entropy ln {S} = {math.log(S):.2f})",
    )
    ax.legend(fontsize=8, loc="upper left")  # above the weights, which are <= 1
    return fig


def plot_entropy_vs_dk(S: int = 16):
    """Mean entropy of the weights against d_k, with and without the 1/sqrt(d_k) scaling."""
    rows = mean_entropies(S)
    fig, ax = new_figure(width=6.0, height=3.2)
    ax.plot(DK_CHOICES, rows["raw"], "o-", color=COLORS[3], label="softmax(q·k)")
    ax.plot(DK_CHOICES, rows["scaled"], "s-", color=COLORS[0], label="softmax(q·k / √d_k)")
    ax.axhline(math.log(S), ls=":", color=COLORS[7], label=f"uniform: ln {S} = {math.log(S):.2f}")
    log_axis(ax, "x", ticks=DK_CHOICES)
    ax.set(
        ylim=(0, math.log(S) * 1.1),
        xlabel="d_k (dimensions, log scale)",
        ylabel="entropy (nats)",
        title=f"Mean entropy over 256 random queries, {S} keys",
    )
    ax.legend(fontsize=8)
    return fig


@register
def explore_scaling() -> Explorer:
    """A d_k slider (powers of two) over plot_scaling."""
    return Explorer(plot_scaling, {"d_k": choice("d_k", DK_CHOICES, 64)}, name="scaling")


# ---- Exercises ------------------------------------------------------------------------


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """softmax(q k^T / sqrt(d_k)) v; q (..., L, d_k), k (..., S, d_k), v (..., S, d_v)."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., L, S)
    return scores.softmax(dim=-1) @ v  # (..., L, d_v)


def _qkv() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return torch.randn(2, 5, 8), torch.randn(2, 7, 8), torch.randn(2, 7, 3)


register_exercise(
    "attention",
    reference=attention,
    make_inputs=_qkv,
    hint="scores are q @ k.transpose(-2, -1), divided by sqrt(d_k) = sqrt(q.shape[-1]); "
    "softmax over the keys (dim=-1), then multiply by v.",
)
register_exercise(
    "score_variance",
    reference=lambda: 64,
    hint="q.k is a sum of d_k products q_i k_i, each with mean 0 and variance 1.",
    worked="q.k = q_1 k_1 + ... + q_64 k_64: 64 independent terms.\n"
    "Each has mean 0 and variance E[q_i^2] E[k_i^2] = 1 * 1 = 1.\n"
    "Variances of independent terms add: Var(q.k) = d_k = 64.",
)
register_exercise(
    "uniform_entropy",
    reference=lambda: math.log(50),
    hint="uniform weights are 1/S each; -sum (1/S) ln(1/S) = ln S (natural log).",
    worked="Uniform over S = 50 keys: p_j = 1/50 for every j.\n"
    "H = -sum_j p_j ln p_j = -50 * (1/50) * ln(1/50) = ln 50.\n"
    "math.log(50) = 3.912 nats (math.log2(50) = 5.644 would be bits).",
)

ARCHITECTURES = ("RNN", "LSTM", "attention")


def make_model(kind: str, d: int = 32, seed: int = 0):
    """One layer at PyTorch's initialisation, in float64, as f: x (B, N, d) -> y_N (B, d)."""
    if kind not in ARCHITECTURES:
        raise ValueError(f"kind must be one of {ARCHITECTURES}, got {kind!r}")
    require_positive_int(d, "d")
    with seeded(seed):
        if kind == "RNN":
            rnn = nn.RNN(d, d, batch_first=True).double()
            return lambda x: rnn(x)[0][:, -1]
        if kind == "LSTM":
            lstm = nn.LSTM(d, d, batch_first=True).double()
            return lambda x: lstm(x)[0][:, -1]
        attn = MultiHeadSelfAttention(d, 1).double()
    return lambda x: last_token_attention(attn, x)


def random_sequence(N: int, d: int, seed: int = 0) -> torch.Tensor:
    """x (N, d), standard normal, float64 (an RNN's gradient underflows float32 past ~1e-38)."""
    require_positive_int(N, "N (the sequence length)", minimum=2)
    return torch.randn(N, d, dtype=torch.float64, generator=torch.Generator().manual_seed(seed))


def gradient_vs_distance(N: int = 100, d: int = 32, seed: int = 0) -> dict[str, torch.Tensor]:
    """Per model, ||dy_N / dx_t|| at distance N - t = 1, 2, ..., N - 1 (entry 0 = distance 1)."""
    x = random_sequence(N, d, seed)
    return {kind: output_jacobian_norms(make_model(kind, d, seed), x)[:-1].flip(0) for kind in ARCHITECTURES}


def plot_gradient_vs_distance(N: int = 100, d: int = 32, seed: int = 0):
    """Log-scale ||dy_N / dx_t|| against the distance N - t, the three models side by side."""
    norms = gradient_vs_distance(N, d, seed)
    fig, ax = new_figure(width=6.4, height=3.4)
    for color, (kind, g) in zip(COLORS, norms.items()):
        finite_or_marked(ax, range(1, N), g.tolist(), label=kind, color=color)
    log_axis(ax, "y")
    ax.set(
        xlabel="distance N - t (tokens)",
        ylabel=r"$\|\partial y_N / \partial x_t\|_F$",
        title=f"Gradient from the last output to an earlier input (N = {N}, d = {d}, at init)",
    )
    ax.legend()
    return fig


def attention_dilution(Ns=(16, 64, 256, 1024, 4096), d: int = 32, seed: int = 0) -> dict[str, list]:
    """Attention at init: gradient to the first token, mean and total over all earlier tokens, per N."""
    f = make_model("attention", d, seed)
    rows = {"N": [], "first": [], "mean": [], "total": []}
    for N in Ns:
        g = output_jacobian_norms(f, random_sequence(N, d, seed))[:-1]  # every t < N
        for key, value in (
            ("N", N),
            ("first", g[0].item()),
            ("mean", g.mean().item()),
            ("total", g.sum().item()),
        ):
            rows[key].append(value)
    return rows


def plot_dilution(rows: dict[str, list]):
    """Log-log: attention's gradient to one token against N, with a 1/N guide."""
    fig, ax = new_figure(width=6.0, height=3.4)
    N = rows["N"]
    ax.plot(N, rows["mean"], "o-", color=COLORS[2], label="mean over earlier tokens")
    ax.plot(N, rows["first"], "s--", color=COLORS[0], label="to the first token $x_1$")
    ax.plot(N, rows["total"], "^-", color=COLORS[1], label="sum over earlier tokens")
    guide = [rows["mean"][0] * N[0] / n for n in N]
    ax.plot(N, guide, ":", color=COLORS[7], label="slope 1/N")
    log_axis(ax, "x", ticks=N)
    log_axis(ax, "y")
    ax.set(
        xlabel="sequence length N (tokens)",
        ylabel=r"$\|\partial y_N / \partial x_t\|_F$",
        title="Diffuse attention shares one gradient among N tokens",
    )
    ax.legend(fontsize=8)
    return fig
