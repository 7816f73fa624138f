"""Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5), and what order costs without it."""

import math

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


def _check_pair(i: int, d_model: int) -> None:
    require_positive_int(d_model, "d_model")
    if d_model % 2:
        raise ValueError(f"d_model must be even (pairs of dimensions), got {d_model}")
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < d_model // 2:
        raise ValueError(
            f"i (the pair of dimensions 2i, 2i+1) must be an integer in 0..{d_model // 2 - 1}, got {i!r}"
        )


def shift_rotation(k: int, i: int, d_model: int) -> torch.Tensor:
    """(2, 2) R with [PE[p+k, 2i], PE[p+k, 2i+1]] = R @ [PE[p, 2i], PE[p, 2i+1]] for every p.

    Pair i turns by w_i = 10000^(-2i/d_model) radians per position, so k positions later by
    a = k w_i: sin(x + a) = cos(a) sin(x) + sin(a) cos(x), cos(x + a) = -sin(a) sin(x) + cos(a) cos(x).
    """
    if isinstance(k, bool) or not isinstance(k, int):
        raise ValueError(f"k (the shift, in positions) must be an integer, got {k!r}")
    _check_pair(i, d_model)
    a = k * 10000 ** (-2 * i / d_model)  # the angle turned in k positions
    return torch.tensor([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])  # float32


def shift_matrix(k: int, d_model: int) -> torch.Tensor:
    """(d_model, d_model) block-diagonal M, one rotation per pair: PE[p + k] = M @ PE[p] for every p."""
    _check_pair(0, d_model)
    return torch.block_diag(*(shift_rotation(k, i, d_model) for i in range(d_model // 2)))


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
