"""Notebook 04: its figures, widgets, constants and exercises."""

import functools
import itertools
import math

import torch
from torch import nn

from ..attention import causal_mask, entropy, padding_mask
from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, finite_or_marked, log_axis, new_figure
from ..course.widgets import Explorer, choice, register
from ..jacobians import output_jacobian_norms
from ..measure import one_thread
from ..multihead import MultiHeadSelfAttention, last_token_attention
from ..seed import seeded
from ..spectra import spectral_radius


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


def _scaling_lines(d_k: int, S: int = 16) -> tuple[list[float], list[float], list[str], str]:
    """What plot_scaling draws: the weights without and with 1/sqrt(d_k), their legend labels, the title."""
    s = random_scores(d_k, 1, S)[0]  # (S,)
    raw, scaled = s.softmax(-1), (s / math.sqrt(d_k)).softmax(-1)
    labels = [f"softmax(q·k): H = {entropy(raw):.2f}", f"softmax(q·k / √d_k): H = {entropy(scaled):.2f}"]
    title = f"One query, {S} keys, d_k = {d_k}; entropy H in nats (uniform: ln {S} = {math.log(S):.2f})"
    return raw.tolist(), scaled.tolist(), labels, title


def plot_scaling(d_k: int = 64, S: int = 16):
    """One query against S keys: the weights with and without 1/sqrt(d_k), and their entropy H."""
    raw, scaled, labels, title = _scaling_lines(d_k, S)
    fig, ax = new_figure(width=6.0, height=3.0)
    ax.plot(range(S), raw, "o-", color=COLORS[3], label=labels[0])
    ax.plot(range(S), scaled, "s-", color=COLORS[0], label=labels[1])
    ax.set(  # few ticks: each tick label costs time at every redraw
        ylim=(-0.02, 1.4),
        yticks=[0, 0.5, 1.0],
        xticks=range(0, S, 5),
        xlabel="key j",
        ylabel="attention weight",
    )
    ax.set_title(title, y=1.0)  # a fixed place: matplotlib need not measure the tick labels (faster)
    ax.legend(fontsize=8, loc="upper left")  # above the weights, which are <= 1
    return fig


def update_scaling(fig, d_k: int = 64, S: int = 16) -> None:
    """plot_scaling's figure, redrawn in place for another d_k."""
    ax = fig.axes[0]
    raw, scaled, labels, title = _scaling_lines(d_k, S)
    for line, weights, text, label in zip(ax.lines, (raw, scaled), ax.get_legend().get_texts(), labels):
        line.set_ydata(weights)
        line.set_label(label)
        text.set_text(label)
    ax.set_title(title, y=1.0)


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
    return Explorer(
        plot_scaling, {"d_k": choice("d_k", DK_CHOICES, 64)}, name="scaling", update=update_scaling
    )


def softmax_jacobian_norms(d_k: int, n_queries: int = 1000, S: int = 16, seed: int = 0) -> dict:
    """||d a / d s||_F per query, a = softmax(s) ("raw") or softmax(s / sqrt(d_k)) ("scaled").

    Both are differentiated with autograd with respect to the SAME raw scores s = q.k
    (n_queries, S), which is what the gradient to q and k flows through: one backward pass
    per key j gives row j of every query's Jacobian. Also returns the largest weight of each
    query ("raw_max", "scaled_max").
    """
    s = random_scores(d_k, n_queries, S, seed).double().requires_grad_()  # (n_queries, S), float64
    out = {}
    with one_thread():  # small tensors: one thread is many times faster than several
        for name, c in (("raw", 1.0), ("scaled", math.sqrt(d_k))):
            a = (s / c).softmax(-1)  # (n_queries, S)
            rows = [torch.autograd.grad(a[:, j].sum(), s, retain_graph=True)[0] for j in range(S)]
            out[name] = torch.stack(rows).pow(2).sum(dim=(0, 2)).sqrt()  # (n_queries,): ||J||_F per query
            out[f"{name}_max"] = a.detach().max(-1).values  # (n_queries,)
    return out


# ---- Exercises ------------------------------------------------------------------------


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """softmax(q k^T / sqrt(d_k)) v; q (..., L, d_k), k (..., S, d_k), v (..., S, d_v)."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., L, S)
    return scores.softmax(dim=-1) @ v  # (..., L, d_v)


_QKV_TRIALS = itertools.count()  # the trials alternate one batch dim (3-D) and two (4-D)


def _qkv() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """q (..., L, d_k), k (..., S, d_k), v (..., S, d_v): one or two batch dims (in turn), every size
    drawn and all different, so that a fixed d_k (sqrt(8)) or a fixed axis (transpose(1, 2)) fails."""
    n_batch = 1 + next(_QKV_TRIALS) % 2
    *batch, L, S, d_k, d_v = (2 + torch.randperm(10)[: n_batch + 4]).tolist()  # distinct sizes, 2..11
    return torch.randn(*batch, L, d_k), torch.randn(*batch, S, d_k), torch.randn(*batch, S, d_v)


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


def mha_attn_mask(lengths: list[int], L: int) -> torch.Tensor:
    """(B, L, L) attn_mask for nn.MultiheadAttention (True = may NOT attend): causal and padding.

    Query t may attend to key j when j <= t (causal) and j < lengths[b] (a real token):
    SDPA's mask (True = may attend) is their AND; nn.MultiheadAttention wants its inverse.
    """
    return ~(causal_mask(L) & padding_mask(lengths, L))  # (L, L) & (B, 1, L) -> (B, L, L)


def _lengths_and_L() -> tuple[list[int], int]:
    """3 sequences of L = 7 slots: one full, two padded (so that padding matters in every trial)."""
    L = 7
    return [L, *torch.randint(2, L, (2,)).tolist()], L


register_exercise(
    "mha_mask",
    reference=mha_attn_mask,
    make_inputs=_lengths_and_L,
    hint="build the mask in SDPA's convention first (True = may attend): helpers.causal_mask(L) "
    "& attention.padding_mask(lengths, L), which masks keys (columns); then invert it with ~.",
)

ARCHITECTURES = ("RNN", "LSTM", "attention")


def make_module(kind: str, d: int = 32, seed: int = 0) -> nn.Module:
    """One layer at PyTorch's initialisation, in float64: nn.RNN, nn.LSTM, or our one-head attention.

    The attention is helpers.MultiHeadSelfAttention(d, 1): nn.Linear projections at their
    default initialisation, no residual connection, no LayerNorm.
    """
    if kind not in ARCHITECTURES:
        raise ValueError(f"kind must be one of {ARCHITECTURES}, got {kind!r}")
    require_positive_int(d, "d")
    layer = {"RNN": nn.RNN, "LSTM": nn.LSTM}.get(kind)
    with seeded(seed):
        if layer is not None:
            return layer(d, d, batch_first=True).double()
        return MultiHeadSelfAttention(d, 1).double()


def make_model(kind: str, d: int = 32, seed: int = 0):
    """make_module's layer as f: x (B, N, d) -> y_N (B, d), its output at the last position."""
    module = make_module(kind, d, seed)
    if kind == "attention":
        return lambda x: last_token_attention(module, x)
    return lambda x: module(x)[0][:, -1]


def rnn_spectral_radius(d: int = 32, seed: int = 0) -> float:
    """rho(W_hh) of the nn.RNN that make_model("RNN", d, seed) builds."""
    return spectral_radius(make_module("RNN", d, seed).weight_hh_l0.detach())


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
    for color, style, (kind, g) in zip(COLORS, ("-", "--", "-."), norms.items()):
        finite_or_marked(ax, range(1, N), g.tolist(), label=kind, color=color, ls=style)  # not colour alone
    log_axis(ax, "y")
    ax.set(
        xlabel="distance N - t (tokens)",
        ylabel=r"$\|\partial y_N / \partial x_t\|_F$",
        title=f"Gradient from the last output to an earlier input (N = {N}, d = {d}, at init)",
    )
    ax.legend()
    return fig


def attention_dilution(Ns=(16, 64, 256, 1024, 4096), d: int = 32, seed: int = 0) -> dict[str, list]:
    """Attention at init: ||dy_N/dx_t||_F to the first token, and its mean and sum over the N - 1
    earlier tokens t < N, per N."""
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
    """Log-log: attention's gradient to one token against N, with a 1/N guide, and the sum over tokens."""
    fig, ax = new_figure(width=6.0, height=3.4)
    N = rows["N"]
    norm = r"$\|\partial y_N / \partial x_t\|_F$"
    ax.plot(N, rows["mean"], "o-", color=COLORS[2], label=f"{norm}, mean over the N - 1 tokens t < N")
    ax.plot(N, rows["first"], "s--", color=COLORS[0], label=r"$\|\partial y_N / \partial x_1\|_F$")
    ax.plot(N, rows["total"], "^-", color=COLORS[1], label=f"{norm}, sum over the N - 1 tokens t < N")
    guide = [rows["mean"][0] * N[0] / n for n in N]
    ax.plot(N, guide, ":", color=COLORS[7], label="slope 1/N")
    log_axis(ax, "x", ticks=N)
    log_axis(ax, "y")
    ax.set(
        xlabel="sequence length N (tokens)",
        ylabel="gradient norm (Frobenius)",
        title="Diffuse attention shares one gradient among N tokens",
    )
    ax.legend(fontsize=8)
    return fig
