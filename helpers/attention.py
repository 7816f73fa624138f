"""Scaled dot-product attention and multi-head self-attention, from scratch."""
import math

import torch
from torch import nn

from .checks import require_positive_int, require_tensor


def scaled_dot_product_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                                 mask: torch.Tensor | None = None
                                 ) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(q k^T / sqrt(d_k)) v, with mask True = may attend.

    q (..., L, d_k), k (..., S, d_k), v (..., S, d_v), mask broadcastable to (..., L, S).
    Returns out (..., L, d_v) and weights (..., L, S), whose rows sum to 1.
    Equals torch.nn.functional.scaled_dot_product_attention.
    """
    for name, t in (("q", q), ("k", k), ("v", v)):
        require_tensor(t, name)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q {tuple(q.shape)} and k {tuple(k.shape)} must share their last "
                         f"dimension d_k")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k {tuple(k.shape)} and v {tuple(v.shape)} must have the same "
                         f"number of positions S (dimension -2)")
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., L, S)
    if mask is not None:
        if mask.dtype != torch.bool:
            raise ValueError(f"mask must be boolean (True = may attend), got {mask.dtype}")
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(dim=-1)                            # (..., L, S)
    return weights @ v, weights                                 # (..., L, d_v)


def causal_mask(L: int) -> torch.Tensor:
    """(L, L) boolean, True on and below the diagonal: position t may attend to 0..t."""
    require_positive_int(L, "L (the sequence length)")
    return torch.ones(L, L, dtype=torch.bool).tril()


class MultiHeadSelfAttention(nn.Module):
    """Split into heads, attend, merge, project; the layout of nn.MultiheadAttention."""

    def __init__(self, d_model: int, n_heads: int, bias: bool = True):
        super().__init__()
        require_positive_int(d_model, "d_model")
        require_positive_int(n_heads, "n_heads")
        if d_model % n_heads:
            raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}: "
                             f"each head needs d_model / n_heads dimensions")
        self.d_model, self.n_heads = d_model, n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model, bias=bias)  # rows [W_q; W_k; W_v]
        self.out_proj = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """x (B, L, d_model) -> out (B, L, d_model), per-head weights (B, n_heads, L, L)."""
        if x.dim() != 3 or x.shape[-1] != self.d_model:
            raise ValueError(f"x must have shape (B, L, {self.d_model}), got {tuple(x.shape)}")
        B, L, _ = x.shape
        hs = self.d_model // self.n_heads
        q, k, v = self.in_proj(x).split(self.d_model, dim=-1)   # each (B, L, d_model)
        q, k, v = (t.view(B, L, self.n_heads, hs).transpose(1, 2) for t in (q, k, v))  # (B, nh, L, hs)
        out, weights = scaled_dot_product_attention(q, k, v, mask)  # (B, nh, L, hs)
        out = out.transpose(1, 2).reshape(B, L, self.d_model)   # (B, L, d_model)
        return self.out_proj(out), weights

    @classmethod
    def from_torch(cls, mha: nn.MultiheadAttention) -> "MultiHeadSelfAttention":
        """Copy the weights of a torch.nn.MultiheadAttention(batch_first=True)."""
        if not mha.batch_first:
            raise ValueError("from_torch expects nn.MultiheadAttention(..., batch_first=True); "
                             "with batch_first=False it reads x as (L, B, d_model)")
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
