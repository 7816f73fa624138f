"""Multi-head self-attention from scratch: split d_model into heads, merge them back (Vaswani et al. 2017)."""

import torch
from torch import nn

from .attention import scaled_dot_product_attention
from .checks import require_positive_int


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


def last_token_attention(attn: MultiHeadSelfAttention, x: torch.Tensor) -> torch.Tensor:
    """Self-attention's output at the last position only: x (B, N, d) -> y_N (B, d).

    Equals attn(x)[0][:, -1] (the last query sees every key, with or without a causal
    mask) but costs O(N d^2) (the projections of the N tokens; its one row of scores is
    O(N d)) instead of O(N d^2 + N^2 d), so N can be in the thousands.
    """
    B, N, d = x.shape
    q, k, v = attn.in_proj(x).split(d, dim=-1)  # each (B, N, d)
    q, k, v = (t.view(B, N, attn.n_heads, -1).transpose(1, 2) for t in (q, k, v))  # (B, nh, N, hs)
    out, _ = scaled_dot_product_attention(q[:, :, -1:], k, v)  # (B, nh, 1, hs)
    return attn.out_proj(out.transpose(1, 2).reshape(B, d))  # (B, d)
