"""Notebook 04's module: the scaling experiment, path length and dilution, the explorers."""

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

import helpers
from helpers import jacobians
from helpers.notebooks import nb04_attention as nb04


def test_mask_conventions_identity():
    x = torch.randn(1, 6, 8, generator=torch.Generator().manual_seed(1))
    mha = nb04.identity_attention(8)
    tril = helpers.causal_mask(6)
    ref = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    assert_close(mha(x, x, x, attn_mask=~tril)[0], ref)
    assert_close(F.scaled_dot_product_attention(x, x, x, attn_mask=tril), ref)
    wrong = mha(x, x, x, attn_mask=tril)[0]
    assert torch.isnan(wrong[0, -1]).all()  # the last row has nothing left


def test_identity_attention_is_plain_attention(g):
    x = torch.randn(2, 5, 8, generator=g)
    assert_close(nb04.identity_attention(8)(x, x, x)[0], F.scaled_dot_product_attention(x, x, x))


def test_variance_of_scores_grows_with_dk():
    for d_k in (4, 256):
        assert nb04.random_scores(d_k, 500, 500).var().item() == pytest.approx(d_k, rel=0.15)


def test_scaling_keeps_entropy_and_raw_scores_saturate():
    rows = nb04.mean_entropies()
    assert rows["raw"][-1] < 0.3 < 2.0 < min(rows["scaled"])


def test_scaling_explorer_changes_the_unscaled_entropy():
    ex = nb04.explore_scaling()
    labels = lambda: ex.result.axes[0].get_legend_handles_labels()[1][0]
    ex.controls["d_k"].value = 1
    small = labels()
    ex.controls["d_k"].value = 1024
    assert small != labels() and ex.error is None


def test_output_jacobian_norms_match_autograd_jacobian(g):
    f = nb04.make_model("LSTM", d=4)
    x = torch.randn(5, 4, dtype=torch.float64, generator=g)
    J = torch.autograd.functional.jacobian(lambda t: f(t[None])[0], x)  # (4, 5, 4)
    assert_close(jacobians.output_jacobian_norms(f, x), J.pow(2).sum(dim=(0, 2)).sqrt())


def test_rnn_gradient_vanishes_with_distance_attention_does_not():
    norms = nb04.gradient_vs_distance(N=40, d=16)
    assert norms["RNN"][-1] < 1e-8 * norms["RNN"][0]
    assert norms["attention"].max() < 5 * norms["attention"].min()


def test_attention_gradient_is_diluted_like_one_over_n():
    rows = nb04.attention_dilution(Ns=(16, 256), d=16)
    ratio = rows["mean"][0] / rows["mean"][1]
    assert 8 < ratio < 32  # 256 / 16 = 16


def test_make_model_rejects_unknown_kind():
    with pytest.raises(ValueError, match="GRU"):
        nb04.make_model("GRU")
