"""Notebook 05's module: the toy sentence, hand-built and random heads, the heads widget."""

import math

import pytest
import torch
from torch.testing import assert_close

import helpers
from helpers.course.exercises import passes
from helpers.notebooks import nb05_multihead_positions as nb05


def test_heads_explorer_offers_only_divisors_and_keeps_the_parameter_count():
    ex = nb05.explore_heads()
    assert all(16 % h == 0 for h in ex.controls["n_heads"].options)
    counts = {
        nb05.parameter_count(nb05.random_heads(h, scale)) for h in nb05.HEAD_CHOICES for scale in (1, 8)
    }
    assert counts == {4 * 16 * 16 + 4 * 16}
    ex.controls["n_heads"].value = 8
    assert "8 heads × 2 dims" in ex.result.axes[0].get_title()
    ex.controls["scale"].value = 1
    assert "W_q, W_k, W_v × 1:" in ex.result.axes[0].get_title() and ex.error is None


def test_random_heads_are_uniform_at_init_and_sharper_when_scaled():
    for h in nb05.HEAD_CHOICES:
        _, H_init = nb05.random_head_maps(h, 1)
        _, H_sharp = nb05.random_head_maps(h, nb05.SHARP_SCALE)
        assert H_init.min() > 0.99 * math.log(6)  # PyTorch's init: every map almost uniform
        assert H_sharp.mean() < 0.7 * math.log(6)
    _, H16 = nb05.random_head_maps(16, nb05.SHARP_SCALE)
    assert H16.max() - H16.min() > 0.5  # narrow heads differ from one another


def test_random_heads_scale_only_the_input_projection():
    base, scaled = nb05.random_heads(4, 1), nb05.random_heads(4, 8)
    assert_close(scaled.in_proj.weight, 8 * base.in_proj.weight)
    assert_close(scaled.out_proj.weight, base.out_proj.weight)
    with pytest.raises(ValueError, match="scale"):
        nb05.random_heads(4, 0)
    with pytest.raises(ValueError, match="n_heads"):
        nb05.random_heads(3)


def test_hand_built_heads_attend_to_their_partner():
    x = nb05.toy_embeddings()
    mha = nb05.hand_built_heads()
    _, w = mha(x, x, x, average_attn_weights=False)  # (1, 2, 6, 6)
    assert (w[0, 0, 1:].argmax(-1) == torch.arange(5)).all()  # previous word
    assert w[0, 1, 1].argmax() == 2 and w[0, 1, 2, [1, 5]].sum() > 0.9  # cat -> sat, sat -> nouns
    ours = helpers.MultiHeadSelfAttention.from_torch(mha)
    assert_close(ours(x)[1], w)


def test_toy_embeddings_reject_unknown_words():
    with pytest.raises(ValueError, match="dog"):
        nb05.toy_embeddings(("the", "dog"))


def test_plot_encoding_returns_a_figure_with_two_maps():
    fig = nb05.plot_encoding(16, 8)
    assert len(fig.axes) >= 2


def test_random_heads_use_the_initialisation_asked_for():
    ours = nb05.random_heads(4, 1)  # nn.Linear's default: weights and biases uniform in +-1/sqrt(16)
    assert ours.in_proj.bias.abs().max() > 0 and ours.in_proj.weight.abs().max() <= 0.25
    torch.manual_seed(3)
    theirs = torch.nn.MultiheadAttention(16, 4, batch_first=True)
    copied = nb05.random_heads(4, 2, seed=3, init="torch_mha")
    assert_close(copied.in_proj.weight, 2 * theirs.in_proj_weight)  # Xavier weights, x the factor
    assert (copied.in_proj.bias == 0).all() and (copied.out_proj.bias == 0).all()
    with pytest.raises(ValueError, match="init"):
        nb05.random_heads(4, init="xavier")


def test_mean_head_entropy_averages_every_head_of_every_seed():
    H = [nb05.random_head_maps(8, 8, seed)[1] for seed in range(3)]  # (8,) each
    assert nb05.mean_head_entropy(8, 8, seeds=range(3)) == pytest.approx(torch.cat(H).mean().item())


def test_one_head_holds_the_two_heads_weights_and_adds_their_scores():
    two, one = nb05.hand_built_heads(), nb05.one_head()
    assert_close(one.in_proj_weight, two.in_proj_weight)  # W_q = W_q0 + W_q1 (zero-padded), likewise W_k
    assert nb05.parameter_count(one) == nb05.parameter_count(two)
    x = nb05.toy_embeddings()[0]  # (N, 16)
    q, k = x @ two.in_proj_weight[:16].T, x @ two.in_proj_weight[16:32].T  # (N, 16) each
    s0, s1 = q[:, :8] @ k[:, :8].T, q[:, 8:] @ k[:, 8:].T  # each head's unscaled scores
    _, w = one(x[None], x[None], x[None])
    assert_close(w[0], ((s0 + s1) / 4).softmax(-1))  # one softmax over the summed scores, 1/sqrt(16)


def test_targets_of_the_toy_sentence():
    previous, grammar = nb05.targets()
    assert previous == [None, 0, 1, 2, 3, 4]
    assert grammar == [[1, 5], [2], [1, 5], [1, 5], [1, 5], [2]]  # nouns, or the verb
    assert nb05.apart() == [1, 3, 4, 5]  # "sat"'s previous word "cat" is also a grammar partner


def test_two_heads_keep_both_patterns_and_one_head_blends_them_at_every_sharpness():
    for s in nb05.SHARPNESS_CHOICES:
        two, one = nb05.one_and_two_heads(float(s))
        weak2, weak1 = (w[nb05.apart()] for w in nb05.weaker_pattern(two, one))
        assert weak1.max() <= 0.5 + 1e-6  # one softmax: two different targets share a weight of 1
        assert weak2.min() > weak1.max()
    assert weak2.min() > 0.99  # sharp enough, each head spends its whole 1 on its own target


def test_one_head_limit_is_the_widgets_largest_value():
    _, one = nb05.one_and_two_heads(float(max(nb05.SHARPNESS_CHOICES)))
    assert one[3, 2].item() == pytest.approx(1 / 3, rel=1e-5)  # "on" -> "sat": three keys tie
    at_12 = nb05.one_and_two_heads(nb05.SHARPNESS)[1][3, 2].item()  # the committed figure's value
    assert passes("one_head_limit", 1 / 3) and not passes("one_head_limit", at_12)


def test_one_and_two_heads_explorer_moves_the_curves_and_the_title():
    ex = nb05.explore_one_and_two_heads()
    before = [line.get_ydata().copy() for line in ex.result.axes[1].lines]
    ex.controls["sharpness"].value = 2
    assert "W_q entries 2" in ex.result.axes[1].get_title() and ex.error is None
    after = [line.get_ydata() for line in ex.result.axes[1].lines]
    assert all(
        not torch.allclose(torch.tensor(a), torch.tensor(b), equal_nan=True) for a, b in zip(after, before)
    )
    with pytest.raises(ValueError, match="sharpness"):
        nb05.plot_one_and_two_heads(0)
