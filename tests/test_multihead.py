"""helpers.multihead against PyTorch: heads split and merged, multi-head self-attention."""

import pytest
import torch
from torch.testing import assert_close

import helpers
from helpers import multihead


@pytest.mark.parametrize("n_heads", [1, 2, 3, 6])
def test_split_and_merge_heads(n_heads, g):
    x = torch.randn(2, 5, 12, generator=g)
    heads = multihead.split_heads(x, n_heads)
    assert heads.shape == (2, n_heads, 5, 12 // n_heads)
    assert_close(
        heads[:, 1 % n_heads], x[..., (1 % n_heads) * (12 // n_heads) : ((1 % n_heads) + 1) * (12 // n_heads)]
    )
    assert_close(multihead.merge_heads(heads), x)


def test_split_heads_rejects_a_non_divisor():
    with pytest.raises(ValueError, match="n_heads=5"):
        multihead.split_heads(torch.ones(1, 2, 12), 5)


def test_last_token_attention_equals_the_full_layer(g):
    attn = helpers.MultiHeadSelfAttention(8, 2)
    x = torch.randn(3, 7, 8, generator=g)
    assert_close(multihead.last_token_attention(attn, x), attn(x)[0][:, -1])
