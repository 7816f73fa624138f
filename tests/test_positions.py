"""helpers.positions: the sinusoidal encoding and the permutation test."""

import math

import pytest
import torch

import helpers
from helpers import positions


def test_encoding_formula_and_relative_positions():
    pe = helpers.sinusoidal_positional_encoding(20, 8)
    assert pe[3, 2].item() == pytest.approx(math.sin(3 / 10000 ** (2 / 8)), abs=1e-6)
    assert pe[3, 3].item() == pytest.approx(math.cos(3 / 10000 ** (2 / 8)), abs=1e-6)
    dots = (pe[:-4] * pe[4:]).sum(-1)  # PE[p] . PE[p + 4] does not depend on p
    assert dots.max() - dots.min() < 1e-4


def test_self_attention_is_permutation_equivariant_without_encoding():
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    layer = helpers.MultiHeadSelfAttention(16, 4)
    x = torch.randn(1, 8, 16, generator=g)
    perm = torch.randperm(8, generator=g)
    assert positions.permutation_gap(layer, x, perm) < 1e-5
    assert positions.permutation_gap(layer, x, perm, pe=helpers.sinusoidal_positional_encoding(8, 16)) > 0.05
    assert positions.permutation_gap(layer, x, perm, mask=helpers.causal_mask(8)) > 0.05


def test_permutation_gap_rejects_a_non_permutation():
    layer = helpers.MultiHeadSelfAttention(4, 1)
    with pytest.raises(ValueError, match="perm"):
        positions.permutation_gap(layer, torch.ones(1, 3, 4), torch.tensor([0, 0, 1]))


def test_a_shift_by_k_is_one_rotation_per_pair():
    d, T = 16, 40
    p = torch.arange(T, dtype=torch.float64)[:, None]
    omega = 10000 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # (d/2,)
    pe = torch.stack([torch.sin(p * omega), torch.cos(p * omega)], dim=-1).reshape(T, d)  # the formula
    for k in (1, 3, 17):
        M = positions.shift_matrix(k, d).double()
        torch.testing.assert_close(pe[:-k] @ M.T, pe[k:], atol=1e-6, rtol=0)
        R = positions.shift_rotation(k, 2, d).double()
        torch.testing.assert_close(R @ R.T, torch.eye(2, dtype=torch.float64), atol=1e-6, rtol=0)
    R2, R5 = positions.shift_rotation(2, 1, d), positions.shift_rotation(5, 1, d)
    torch.testing.assert_close(R2 @ R5, positions.shift_rotation(7, 1, d))  # shifts compose
    assert positions.shift_rotation(2, 1, d).dtype == torch.float32


@pytest.mark.parametrize(
    "k, i, d_model, words",
    [(1, 0, 7, "even"), (1, 4, 8, "0..3"), (1, -1, 8, "0..3"), (1.5, 0, 8, "k"), (1, 0, 0, "d_model")],
)
def test_shift_rotation_rejects_bad_arguments(k, i, d_model, words):
    with pytest.raises(ValueError, match=words):
        positions.shift_rotation(k, i, d_model)
