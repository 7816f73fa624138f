"""Notebook 08's module: counts that match the formulas of Vaswani et al.'s Table 1."""

import pytest
import torch

from helpers import measure
from helpers.notebooks import nb08_verdict as nb08


@pytest.mark.parametrize("N, d", [(64, 32), (256, 64)])
def test_layer_flops_match_the_formulas(N, d):
    assert nb08.layer_flops("recurrent", N, d) == 4 * N * d * d  # W_xh x, W_hh h
    assert nb08.layer_flops("recurrent (LSTM)", N, d) == 16 * N * d * d  # the same, for 4 gates
    assert (
        nb08.layer_flops("self-attention", N, d) == 8 * N * d * d + 4 * N * N * d
    )  # 4 projections, QK^T, AV
    assert nb08.layer_flops("convolutional (k=3)", N, d) == 2 * 3 * N * d * d
    assert nb08.layer_flops("restricted self-attention (r=16)", N, d) == 8 * N * d * d + 4 * N * 16 * d


def test_recurrent_depth_grows_with_n_attention_depth_does_not():
    rnn = [nb08.dependent_steps("recurrent", N) for N in (8, 16, 24)]
    att = [nb08.dependent_steps("self-attention", N) for N in (8, 16, 24)]
    assert rnn[1] - rnn[0] == rnn[2] - rnn[1] == 3 * 8  # 3 operations per time step
    assert len(set(att)) == 1


def test_graph_depth_of_a_chain():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(5):
        y = y * 2
    assert measure.graph_depth(y) == 6  # five multiplications and the leaf's accumulator


def test_generation_step_costs_and_state():
    assert (
        nb08.generation_step("recurrent", 10, 16)
        == nb08.generation_step("recurrent", 1000, 16)
        == (4 * 16 * 16, 16)
    )
    flops, state = nb08.generation_step("self-attention", 100, 16)
    assert flops == 8 * 16 * 16 + 4 * 101 * 16 and state == 2 * 100 * 16


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: nb08.layer_flops("lstm", 8, 8), "kind"),
        (lambda: nb08.layer_flops("recurrent", 0, 8), "N"),
        (lambda: nb08.generation_step("conv", 8, 8), "kind"),
        (lambda: nb08.layer_flops("restricted self-attention (r=16)", 20, 8), "multiple"),
    ],
)
def test_bad_input_raises(call, match):
    with pytest.raises(ValueError, match=match):
        call()
