"""Scaled dot-product attention and multi-head self-attention, from scratch."""

import functools
import math

import torch
from torch import nn

from .checks import require_positive_int, require_tensor
from .exercises import register_exercise
from .plots import COLORS, log_axis, new_figure
from .widgets import Explorer, choice, register


def scaled_dot_product_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(q k^T / sqrt(d_k)) v, with mask True = may attend.

    q (..., L, d_k), k (..., S, d_k), v (..., S, d_v), mask broadcastable to (..., L, S).
    Returns out (..., L, d_v) and weights (..., L, S), whose rows sum to 1.
    Equals torch.nn.functional.scaled_dot_product_attention.
    """
    for name, t in (("q", q), ("k", k), ("v", v)):
        require_tensor(t, name)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q {tuple(q.shape)} and k {tuple(k.shape)} must share their last dimension d_k")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"k {tuple(k.shape)} and v {tuple(v.shape)} must have the same "
            f"number of positions S (dimension -2)"
        )
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., L, S)
    if mask is not None:
        if mask.dtype != torch.bool:
            raise ValueError(f"mask must be boolean (True = may attend), got {mask.dtype}")
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(dim=-1)  # (..., L, S)
    return weights @ v, weights  # (..., L, d_v)


def causal_mask(L: int) -> torch.Tensor:
    """(L, L) boolean, True on and below the diagonal: position t may attend to 0..t."""
    require_positive_int(L, "L (the sequence length)")
    return torch.ones(L, L, dtype=torch.bool).tril()


def padding_mask(lengths: list[int], S: int) -> torch.Tensor:
    """(B, 1, S) boolean, True on the real tokens: every query may attend to them, not to padding."""
    for n in lengths:
        if not (isinstance(n, int) and 1 <= n <= S):
            raise ValueError(f"each length must be an integer in 1..S={S}, got {n!r}")
    return (torch.arange(S) < torch.tensor(lengths)[:, None])[:, None, :]  # (B, 1, S)


def split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    """(B, L, d_model) -> (B, n_heads, L, d_model / n_heads): head h gets columns h*hs:(h+1)*hs."""
    B, L, d_model = x.shape
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    return x.view(B, L, n_heads, d_model // n_heads).transpose(1, 2)  # (B, nh, L, hs)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """(B, n_heads, L, hs) -> (B, L, n_heads * hs): the heads side by side again."""
    B, nh, L, hs = x.shape
    return x.transpose(1, 2).reshape(B, L, nh * hs)  # (B, L, d_model)


class MultiHeadSelfAttention(nn.Module):
    """Split into heads, attend, merge, project; the layout of nn.MultiheadAttention."""

    def __init__(self, d_model: int, n_heads: int, bias: bool = True):
        super().__init__()
        require_positive_int(d_model, "d_model")
        require_positive_int(n_heads, "n_heads")
        if d_model % n_heads:
            raise ValueError(
                f"d_model={d_model} is not divisible by n_heads={n_heads}: "
                f"each head needs d_model / n_heads dimensions"
            )
        self.d_model, self.n_heads = d_model, n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model, bias=bias)  # rows [W_q; W_k; W_v]
        self.out_proj = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """x (B, L, d_model) -> out (B, L, d_model), per-head weights (B, n_heads, L, L)."""
        if x.dim() != 3 or x.shape[-1] != self.d_model:
            raise ValueError(f"x must have shape (B, L, {self.d_model}), got {tuple(x.shape)}")
        q, k, v = self.in_proj(x).split(self.d_model, dim=-1)  # each (B, L, d_model)
        q, k, v = (split_heads(t, self.n_heads) for t in (q, k, v))  # each (B, nh, L, hs)
        out, weights = scaled_dot_product_attention(q, k, v, mask)  # (B, nh, L, hs)
        return self.out_proj(merge_heads(out)), weights  # (B, L, d_model)

    @classmethod
    def from_torch(cls, mha: nn.MultiheadAttention) -> "MultiHeadSelfAttention":
        """Copy the weights of a torch.nn.MultiheadAttention(batch_first=True)."""
        if not mha.batch_first:
            raise ValueError(
                "from_torch expects nn.MultiheadAttention(..., batch_first=True); "
                "with batch_first=False it reads x as (L, B, d_model)"
            )
        if not mha._qkv_same_embed_dim:
            raise ValueError("from_torch needs kdim == vdim == embed_dim (one in_proj_weight)")
        has_bias = mha.in_proj_bias is not None
        ours = cls(mha.embed_dim, mha.num_heads, bias=has_bias)
        with torch.no_grad():
            ours.in_proj.weight.copy_(mha.in_proj_weight)
            ours.out_proj.weight.copy_(mha.out_proj.weight)
            if has_bias:
                ours.in_proj.bias.copy_(mha.in_proj_bias)
                ours.out_proj.bias.copy_(mha.out_proj.bias)
        return ours


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


def entropy(weights: torch.Tensor) -> torch.Tensor:
    """-sum_j p_j ln p_j over the last dimension, in nats (0 for one-hot, ln S for uniform)."""
    return -(weights * weights.clamp_min(1e-30).log()).sum(-1)


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


def _split_inputs() -> tuple[torch.Tensor, int]:
    """B, L, n_heads, hs all different and n_heads > 1: a mixed-up layout cannot pass by luck."""
    return torch.randn(2, 5, 24), int(torch.tensor([3, 4, 6, 8])[torch.randint(4, ())])


register_exercise(
    "split_heads",
    reference=split_heads,
    make_inputs=_split_inputs,
    hint="view as (B, L, n_heads, hs), then swap L and n_heads with transpose(1, 2).",
)
register_exercise(
    "mha_parameter_count",
    reference=lambda: 4 * 64 * 64 + 4 * 64,
    hint="in_proj is (3 d, d) plus 3 d biases; out_proj is (d, d) plus d biases.",
    worked="in_proj: 3 d x d weights + 3 d biases; out_proj: d x d weights + d biases.\n"
    "The 8 heads share these matrices (each reads d / 8 columns): no extra parameters.\n"
    "With d = 64: 4*64*64 + 4*64 = 16384 + 256 = 16640.",
)
