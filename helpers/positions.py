"""Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5), and what order costs without it."""

import torch

from .checks import require_positive_int


def sinusoidal_positional_encoding(T: int, d_model: int) -> torch.Tensor:
    """PE (T, d_model): PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d))."""
    require_positive_int(T, "T (the number of positions)")
    require_positive_int(d_model, "d_model")
    p = torch.arange(T, dtype=torch.float64)[:, None]  # (T, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d/2),)
    angle = p / 10000 ** (two_i / d_model)  # (T, ceil(d/2))
    pe = torch.zeros(T, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)[:, : d_model // 2]
    return pe.float()


def permutation_gap(
    layer,
    x: torch.Tensor,
    perm: torch.Tensor,
    pe: torch.Tensor | None = None,
    mask: torch.Tensor | None = None,
) -> float:
    """max |layer(P x + PE) - P layer(x + PE)|: 0 (up to float error) iff the layer ignores order.

    layer maps (B, L, d) to (out, weights), like MultiHeadSelfAttention; perm is a permutation
    of range(L); pe (L, d) is added to the slots *after* the tokens are permuted.
    """
    if sorted(perm.tolist()) != list(range(x.shape[1])):
        raise ValueError(f"perm must be a permutation of 0..{x.shape[1] - 1}, got {perm.tolist()}")
    add = (lambda t: t) if pe is None else (lambda t: t + pe)
    with torch.no_grad():
        permuted_first = layer(add(x[:, perm]), mask)[0]  # (B, L, d): shuffle, then attend
        permuted_after = layer(add(x), mask)[0][:, perm]  # (B, L, d): attend, then shuffle
    return (permuted_first - permuted_after).abs().max().item()
