"""Notebook 05's module: the toy sentence, hand-built and random heads, the heads widget."""

import pytest
import torch
from torch.testing import assert_close

import helpers
from helpers.notebooks import nb05_multihead_positions as nb05


def test_heads_explorer_offers_only_divisors_and_keeps_the_parameter_count():
    ex = nb05.explore_heads()
    assert all(16 % h == 0 for h in ex.controls["n_heads"].options)
    counts = {nb05.parameter_count(nb05.random_heads(h)) for h in nb05.HEAD_CHOICES}
    assert counts == {4 * 16 * 16 + 4 * 16}
    ex.controls["n_heads"].value = 8
    assert "8 heads × 2 dimensions" in ex.result.axes[0].get_title()


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
