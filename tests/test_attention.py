"""Attention helpers against PyTorch: SDPA, masks, heads, path length, the explorers."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

import helpers
from helpers import attention, multihead, pathlength


def test_padding_mask_equals_key_padding_in_sdpa(g):
    q, k, v = torch.randn(3, 2, 5, 4, generator=g)
    mask = attention.padding_mask([5, 3], 5)  # (2, 1, 5)
    out, w = helpers.scaled_dot_product_attention(q, k, v, mask)
    assert_close(out, F.scaled_dot_product_attention(q, k, v, attn_mask=mask))
    assert w[1, :, 3:].abs().max() == 0 and w[0].min() > 0


def test_mask_conventions_identity():
    x = torch.randn(1, 6, 8, generator=torch.Generator().manual_seed(1))
    mha = attention.identity_attention(8)
    tril = helpers.causal_mask(6)
    ref = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    assert_close(mha(x, x, x, attn_mask=~tril)[0], ref)
    assert_close(F.scaled_dot_product_attention(x, x, x, attn_mask=tril), ref)
    wrong = mha(x, x, x, attn_mask=tril)[0]
    assert torch.isnan(wrong[0, -1]).all()  # the last row has nothing left


def test_identity_attention_is_plain_attention(g):
    x = torch.randn(2, 5, 8, generator=g)
    assert_close(attention.identity_attention(8)(x, x, x)[0], F.scaled_dot_product_attention(x, x, x))


@pytest.mark.parametrize("n_heads", [1, 2, 3, 6])
def test_split_and_merge_heads(n_heads, g):
    x = torch.randn(2, 5, 12, generator=g)
    heads = attention.split_heads(x, n_heads)
    assert heads.shape == (2, n_heads, 5, 12 // n_heads)
    assert_close(
        heads[:, 1 % n_heads], x[..., (1 % n_heads) * (12 // n_heads) : ((1 % n_heads) + 1) * (12 // n_heads)]
    )
    assert_close(attention.merge_heads(heads), x)


def test_split_heads_rejects_a_non_divisor():
    with pytest.raises(ValueError, match="n_heads=5"):
        attention.split_heads(torch.ones(1, 2, 12), 5)


def test_padding_mask_rejects_bad_lengths():
    with pytest.raises(ValueError, match="length"):
        attention.padding_mask([6], 5)


def test_variance_of_scores_grows_with_dk():
    for d_k in (4, 256):
        assert attention.random_scores(d_k, 500, 500).var().item() == pytest.approx(d_k, rel=0.15)


def test_entropy_limits():
    assert attention.entropy(torch.full((8,), 1 / 8)).item() == pytest.approx(math.log(8))
    assert attention.entropy(torch.tensor([1.0, 0.0, 0.0])).item() == pytest.approx(0.0)


def test_scaling_keeps_entropy_and_raw_scores_saturate():
    rows = attention.mean_entropies()
    assert rows["raw"][-1] < 0.3 < 2.0 < min(rows["scaled"])


def test_scaling_explorer_changes_the_unscaled_entropy():
    ex = attention.explore_scaling()
    labels = lambda: ex.result.axes[0].get_legend_handles_labels()[1][0]
    ex.controls["d_k"].value = 1
    small = labels()
    ex.controls["d_k"].value = 1024
    assert small != labels() and ex.error is None


def test_heads_explorer_offers_only_divisors_and_keeps_the_parameter_count():
    ex = multihead.explore_heads()
    assert all(16 % h == 0 for h in ex.controls["n_heads"].options)
    counts = {multihead.parameter_count(multihead.random_heads(h)) for h in multihead.HEAD_CHOICES}
    assert counts == {4 * 16 * 16 + 4 * 16}
    ex.controls["n_heads"].value = 8
    assert "8 heads × 2 dimensions" in ex.result.axes[0].get_title()


def test_hand_built_heads_attend_to_their_partner():
    x = multihead.toy_embeddings()
    mha = multihead.hand_built_heads()
    _, w = mha(x, x, x, average_attn_weights=False)  # (1, 2, 6, 6)
    assert (w[0, 0, 1:].argmax(-1) == torch.arange(5)).all()  # previous word
    assert w[0, 1, 1].argmax() == 2 and w[0, 1, 2, [1, 5]].sum() > 0.9  # cat -> sat, sat -> nouns
    ours = helpers.MultiHeadSelfAttention.from_torch(mha)
    assert_close(ours(x)[1], w)


def test_toy_embeddings_reject_unknown_words():
    with pytest.raises(ValueError, match="dog"):
        multihead.toy_embeddings(("the", "dog"))


def test_last_token_attention_equals_the_full_layer(g):
    attn = helpers.MultiHeadSelfAttention(8, 2)
    x = torch.randn(3, 7, 8, generator=g)
    assert_close(pathlength.last_token_attention(attn, x), attn(x)[0][:, -1])


def test_output_jacobian_norms_match_autograd_jacobian(g):
    f = pathlength.make_model("LSTM", d=4)
    x = torch.randn(5, 4, dtype=torch.float64, generator=g)
    J = torch.autograd.functional.jacobian(lambda t: f(t[None])[0], x)  # (4, 5, 4)
    assert_close(pathlength.output_jacobian_norms(f, x), J.pow(2).sum(dim=(0, 2)).sqrt())


def test_rnn_gradient_vanishes_with_distance_attention_does_not():
    norms = pathlength.gradient_vs_distance(N=40, d=16)
    assert norms["RNN"][-1] < 1e-8 * norms["RNN"][0]
    assert norms["attention"].max() < 5 * norms["attention"].min()


def test_attention_gradient_is_diluted_like_one_over_n():
    rows = pathlength.attention_dilution(Ns=(16, 256), d=16)
    ratio = rows["mean"][0] / rows["mean"][1]
    assert 8 < ratio < 32  # 256 / 16 = 16


def test_make_model_rejects_unknown_kind():
    with pytest.raises(ValueError, match="GRU"):
        pathlength.make_model("GRU")
