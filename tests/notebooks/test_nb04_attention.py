"""Notebook 04's module: the scaling experiment, path length and dilution, the explorers."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

import helpers
from helpers import attention, jacobians
from helpers.course.exercises import EXERCISES, passes
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


def test_softmax_jacobian_norms_match_the_formula_and_compare_at_the_same_scores():
    J = nb04.softmax_jacobian_norms(512, n_queries=50)
    s = nb04.random_scores(512, 50, 16).double()
    for name, c in (("raw", 1.0), ("scaled", 512**0.5)):
        a = (s / c).softmax(-1)  # d softmax(s / c) / d s = (diag(a) - a a^T) / c
        formula = (torch.diag_embed(a) - a[:, :, None] * a[:, None, :]) / c
        assert_close(J[name], formula.norm(dim=(-2, -1)))
    big, small = nb04.softmax_jacobian_norms(512), nb04.softmax_jacobian_norms(16)
    assert big["scaled"].median() > 10 * big["raw"].median()  # saturated without the scaling
    assert small["raw"].median() > small["scaled"].median()  # small d_k: the 1/sqrt(d_k) factor wins


def test_mha_attn_mask_gives_nn_multihead_attention_the_sdpa_result(g):
    lengths, L = [6, 4, 2], 6
    x = torch.randn(3, L, 8, generator=g)
    allowed = helpers.causal_mask(L) & attention.padding_mask(lengths, L)  # SDPA: True = may attend
    ref = F.scaled_dot_product_attention(x, x, x, attn_mask=allowed)
    mha = nb04.identity_attention(8)  # one head: attn_mask (B * 1, L, L)
    assert_close(mha(x, x, x, attn_mask=nb04.mha_attn_mask(lengths, L))[0], ref)
    assert not torch.allclose(mha(x, x, x, attn_mask=allowed)[0], ref, equal_nan=True)


def test_the_rnn_of_the_distance_figure_has_spectral_radius_below_one(g):
    rnn = nb04.make_module("RNN", d=32)
    x = torch.randn(1, 5, 32, dtype=torch.float64, generator=g)
    assert_close(nb04.make_model("RNN", d=32)(x), rnn(x)[0][:, -1])  # the same layer
    rho = nb04.rnn_spectral_radius(d=32)
    assert rho == pytest.approx(torch.linalg.eigvals(rnn.weight_hh_l0.detach()).abs().max().item())
    assert 0.4 < rho < 0.75  # uniform(-1/sqrt(d), 1/sqrt(d)) entries: about 1/sqrt(3)


def test_scaling_update_moves_the_lines():
    fig = nb04.plot_scaling(d_k=1)
    nb04.update_scaling(fig, d_k=1024)
    raw = fig.axes[0].lines[0].get_ydata()
    assert max(raw) > 0.99 and "d_k = 1024" in fig.axes[0].get_title()


def test_attention_checker_refuses_a_fixed_d_k_or_a_fixed_axis():
    fixed_both = lambda q, k, v: (q @ k.transpose(1, 2) / math.sqrt(8)).softmax(-1) @ v
    fixed_d_k = lambda q, k, v: (q @ k.transpose(-2, -1) / math.sqrt(8)).softmax(-1) @ v
    fixed_axis = lambda q, k, v: (q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])).softmax(-1) @ v
    for seed in range(5):
        assert passes("attention", nb04.attention, seed=seed)
        assert passes("attention", lambda q, k, v: F.scaled_dot_product_attention(q, k, v), seed=seed)
        for wrong in (fixed_both, fixed_d_k, fixed_axis):
            assert not passes("attention", wrong, seed=seed)  # the default 3 trials already refuse it
            assert not passes("attention", wrong, trials=10, seed=seed)


def test_attention_inputs_vary_d_k_and_the_number_of_batch_dims():
    draws = [EXERCISES["attention"].make_inputs(trial) for trial in range(6)]
    assert [q.dim() for q, _, _ in draws] == [3, 4] * 3  # by the trial's number, whatever ran before
    assert len({q.shape[-1] for q, _, _ in draws}) > 1
    for q, k, v in draws:
        assert q.shape[-1] == k.shape[-1] and k.shape[-2] == v.shape[-2] and q.shape[:-2] == k.shape[:-2]


def test_the_toy_query_of_sat_asks_for_a_noun_and_the_keys_are_word_types():
    K, q = nb04.toy_keys(), nb04.toy_query("sat")
    assert K.shape == (6, 4) and (K.sum(1) == 1).all()
    weights = (K @ q / 2).softmax(0)  # d_k = 4
    nouns = [j for j, w in enumerate(nb04.SENTENCE) if w in ("cat", "mat")]
    assert set(weights.topk(2).indices.tolist()) == set(nouns)
    with pytest.raises(ValueError, match="dog"):
        nb04.toy_query("dog")
    with pytest.raises(ValueError, match="dog"):
        nb04.toy_keys(["the", "dog"])


def test_the_query_strength_answer_gives_the_nouns_ninety_percent():
    strength = EXERCISES["query_strength"].reference()
    weights = (nb04.toy_keys() @ nb04.toy_query("sat", strength) / 2).softmax(0)
    assert weights[[1, 5]].sum().item() == pytest.approx(0.9)


def test_the_word_heatmap_is_labelled_with_the_words():
    fig = nb04.plot_word_attention(torch.full((6, 6), 1 / 6))
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(nb04.SENTENCE)
    assert len(ax.texts) == 36


def test_score_gradients_match_autograd():
    d, N = 8, 12
    attn = nb04.make_module("attention", d)
    x = nb04.random_sequence(N, d)
    q, k, v = attn.in_proj(x).detach().split(d, dim=-1)
    s = (k @ q[-1] / math.sqrt(d)).requires_grad_()
    J = torch.autograd.functional.jacobian(lambda s: attn.out_proj(s.softmax(0) @ v), s)  # (d, N)
    want = J.T.norm(dim=1)[:-1].mean().item()
    assert nb04.score_gradient_dilution(Ns=(N,), d=d)[0] == pytest.approx(want)


def test_the_rnn_decays_with_sigma_max_above_one_faster_than_rho():
    rho, sigma_max = nb04.rnn_norms(d=32)
    assert sigma_max > 1 > rho  # notebook 02's sufficient condition does not hold
    saturated, linear = nb04.rnn_decay(input_scale=1.0), nb04.rnn_decay(input_scale=0.01)
    assert saturated["rate"] < linear["rate"] < rho * 1.05
    assert linear["rate"] > 0.9 * rho and saturated["slope"] < linear["slope"]


def test_diffuse_attention_is_close_to_a_plain_average():
    rows = nb04.attention_dilution(Ns=(64, 1024), d=32)
    for N, mean in zip(rows["N"], rows["mean"]):
        assert N * mean == pytest.approx(nb04.average_gradient_norm(d=32), rel=0.2)
    scores = nb04.score_gradient_dilution(Ns=(64, 1024), d=32)
    assert 8 < scores[0] / scores[1] < 32  # 1024 / 64 = 16: the gradient to one score falls like 1/N


def test_the_scaling_title_prints_the_spread_the_exercise_asks_to_predict():
    fig = nb04.plot_scaling(d_k=64)
    nb04.update_scaling(fig, d_k=256)
    title = fig.axes[0].get_title()
    spread = float(title.split("q·k: ")[1].split("\n")[0])
    assert "d_k = 256" in title and 10 < spread < 22  # 16 scores drawn; the expected spread is sqrt(256) = 16
