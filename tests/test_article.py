"""helpers.article: the article's models as written, their fused versions, and their FLOP formulas."""

import pytest
import torch
from torch.testing import assert_close

from helpers import article
from helpers.article import MODELS


def test_fast_attention_is_the_articles_attention_without_weights():
    mha = article.FastAttention(16)
    x = torch.randn(2, 5, 16, generator=torch.Generator().manual_seed(0))
    torch.testing.assert_close(mha(x), mha.mha(x, x, x)[0])


@pytest.mark.parametrize("batch, seq_len, dim", [(1, 1, 4), (2, 7, 8), (3, 16, 12), (4, 40, 16)])
def test_flop_formulas_equal_flop_counter_mode(batch, seq_len, dim):
    loop, fused, attention = (article.counted_flops(name, batch, seq_len, dim) for name in MODELS)
    assert loop == fused == article.rnn_flops(batch, seq_len, dim) == 4 * batch * seq_len * dim**2
    assert attention == article.attention_flops(batch, seq_len, dim)
    assert attention * dim == (seq_len + 2 * dim) * loop  # attention / RNN = N/d + 2, exactly


def test_fused_rnn_computes_the_same_state_as_the_article_loop():
    models = article.article_models(8)
    loop, fused = models[MODELS[0]], models[MODELS[1]]
    cell, rnn = loop.rnn_cell, fused.rnn
    with torch.no_grad():
        for ours, theirs in (
            ("weight_ih", "weight_ih_l0"),
            ("weight_hh", "weight_hh_l0"),
            ("bias_ih", "bias_ih_l0"),
            ("bias_hh", "bias_hh_l0"),
        ):
            getattr(rnn, theirs).copy_(getattr(cell, ours))
    x = torch.randn(3, 11, 8)
    assert_close(fused(x), loop(x), atol=1e-5, rtol=1e-5)
    assert models[MODELS[2]](x).shape == (3, 11, 8)  # attention keeps every position
