"""Scaled dot-product attention and its masks, from scratch (Vaswani et al. 2017, section 3.2.1)."""

import math

import torch

from .checks import require_positive_int, require_tensor


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


def entropy(weights: torch.Tensor) -> torch.Tensor:
    """-sum_j p_j ln p_j over the last dimension, in nats (0 for one-hot, ln S for uniform)."""
    return -(weights * weights.clamp_min(1e-30).log()).sum(-1)
