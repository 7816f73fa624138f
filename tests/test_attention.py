"""helpers.attention against PyTorch: scaled dot-product attention and its masks."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

import helpers
from helpers import attention


def test_padding_mask_equals_key_padding_in_sdpa(g):
    q, k, v = torch.randn(3, 2, 5, 4, generator=g)
    mask = attention.padding_mask([5, 3], 5)  # (2, 1, 5)
    out, w = helpers.scaled_dot_product_attention(q, k, v, mask)
    assert_close(out, F.scaled_dot_product_attention(q, k, v, attn_mask=mask))
    assert w[1, :, 3:].abs().max() == 0 and w[0].min() > 0


def test_padding_mask_rejects_bad_lengths():
    with pytest.raises(ValueError, match="length"):
        attention.padding_mask([6], 5)


def test_entropy_limits():
    assert attention.entropy(torch.full((8,), 1 / 8)).item() == pytest.approx(math.log(8))
    assert attention.entropy(torch.tensor([1.0, 0.0, 0.0])).item() == pytest.approx(0.0)
