"""Notebook 08's module: counts that match the formulas of Vaswani et al.'s Table 1, path lengths
counted through stacked layers, the algorithms of the epilogue, and the cost widget."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from conftest import ATOL
from helpers import measure
from helpers.notebooks import nb08_verdict as nb08
from helpers.seed import seeded


@pytest.mark.parametrize("N, d", [(64, 32), (256, 64), (24, 8)])
def test_layer_flops_match_the_formulas(N, d):
    for kind, formula in nb08.FLOP_FORMULAS.items():
        assert nb08.layer_flops(kind, N, d) == formula(N, d), kind
    assert nb08.FLOP_FORMULAS["recurrent"](N, d) == 4 * N * d * d  # W_xh x, W_hh h
    assert nb08.FLOP_FORMULAS["recurrent (LSTM)"](N, d) == 16 * N * d * d  # the same, for 4 gates
    assert (
        nb08.FLOP_FORMULAS["self-attention"](N, d) == 8 * N * d * d + 4 * N * N * d
    )  # 4 projections, QK^T, AV
    assert nb08.FLOP_FORMULAS["convolutional (k=3)"](N, d) == 2 * 3 * N * d * d
    restricted = nb08.FLOP_FORMULAS["restricted self-attention (r=16)"](N, d)
    assert restricted == 8 * N * d * d + 4 * (16 + 1) * N * d  # each query meets itself and 16 keys before
    assert nb08.layer_flops(nb08.DILATED, N, d) == 2 * 3 * N * d * d  # gaps, not more taps


def test_the_window_is_attention_with_a_band_mask(g):
    """The sliding window equals PyTorch's attention over all N keys, masked to t-r .. t."""
    N, d, r = 40, 8, 16
    layer = nb08._layer("restricted self-attention (r=16)", N, d)
    with seeded(0):  # the same draws, in the same order, as the layer's
        proj, out = nn.Linear(d, 3 * d), nn.Linear(d, d)
    x = torch.randn(1, N, d, generator=g)
    q, k, v = proj(x[0]).chunk(3, dim=-1)
    t = torch.arange(N)
    band = (t[None, :] <= t[:, None]) & (t[None, :] >= t[:, None] - r)  # (N, N): query t, keys t-r .. t
    expected = out(F.scaled_dot_product_attention(q, k, v, attn_mask=band))[None]
    torch.testing.assert_close(layer(x), expected, **ATOL)


def test_recurrent_depth_grows_with_n_attention_depth_does_not():
    rnn = [nb08.dependent_steps("recurrent", N) for N in (8, 16, 24)]
    att = [nb08.dependent_steps("self-attention", N) for N in (8, 16, 24)]
    window = [nb08.dependent_steps("restricted self-attention (r=16)", N) for N in (8, 16, 40)]
    assert rnn[1] - rnn[0] == rnn[2] - rnn[1] == 3 * 8  # 3 operations per time step
    assert len(set(att)) == 1 and len(set(window)) == 1


def test_graph_depth_of_a_chain():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(5):
        y = y * 2
    assert measure.graph_depth(y) == 6  # five multiplications and the leaf's accumulator


@pytest.mark.parametrize(
    "kind, layers",
    [
        ("self-attention", lambda D: 1),
        ("recurrent", lambda D: 1),  # one layer, through D steps of its chain
        ("recurrent (LSTM)", lambda D: 1),
        ("restricted self-attention (r=16)", lambda D: math.ceil(D / 16)),
        ("convolutional (k=3)", lambda D: D),  # one token further per layer
        (nb08.DILATED, lambda D: math.ceil(math.log(D + 1, 3) - 1e-9)),  # 3^L - 1 tokens back
    ],
)
@pytest.mark.parametrize("distance", [1, 8, 16, 17, 26, 27])
def test_layers_to_link_counts_the_path(kind, layers, distance):
    assert nb08.layers_to_link(kind, distance) == layers(distance)


def test_link_depths_gives_every_position_in_one_pass():
    window = nb08.link_depths("restricted self-attention (r=16)", 50)
    assert window == [0] + [math.ceil(t / 16) for t in range(1, 50)]
    assert nb08.link_depths("convolutional (k=3)", 30) == list(range(30))
    assert nb08.link_depths("self-attention", 30) == [0] + [1] * 29


def test_layers_to_link_is_not_fooled_by_a_vanishing_derivative():
    """A tanh chain of 300 steps shrinks the derivative far below float32's range: still linked."""
    assert nb08.layers_to_link("recurrent", 300) == 1
    assert nb08.layers_to_link("convolutional (k=3)", 80) == 80  # rescaled after each layer


@pytest.mark.parametrize("t, d", [(1, 8), (100, 16), (37, 24)])
def test_generation_step_costs_and_state(t, d):
    for kind, formula in nb08.GENERATION_FORMULAS.items():
        assert nb08.generation_step(kind, t, d) == formula(t, d), kind
    assert nb08.generation_step("recurrent", t, d) == (4 * d * d, d)  # whatever t
    assert nb08.generation_step("self-attention", t, d) == (8 * d * d + 4 * (t + 1) * d, 2 * t * d)


@pytest.mark.parametrize("kind", ["recurrent", "self-attention"])
@pytest.mark.parametrize("t, d", [(1, 8), (37, 16)])
def test_the_state_is_all_a_generation_step_needs(kind, t, d):
    """The step from the state equals PyTorch's layer on all t + 1 tokens; a damaged state does not."""
    assert nb08.state_suffices(kind, t, d) == "< 1e-5"
    with torch.no_grad():
        step, state, full = nb08._generation(kind, t, d)
        state[0][:, 0] = 0.0  # forget what the first cached row held
        assert (step() - full()).abs().max() > 1e-3


def test_chain_costs_count_the_products_inside_the_chain():
    N, d = 10, 8
    costs = nb08.chain_costs(N, d)
    tanh, dense, diagonal = costs.values()
    assert tanh == (2 * N * d * d, None)  # one (1 x d)(d x d) product per step
    assert dense == (2 * N * d * d, 2 * d**3 + 2 * d * d)  # a combine multiplies two d x d matrices
    assert diagonal == (0, 0)  # element-wise: no matrix product at all


def test_the_four_algorithms_equal_the_loop_and_the_scan_is_shallow(g):
    decay = torch.rand(200, 4, dtype=torch.float64, generator=g)
    b = torch.randn(200, 4, dtype=torch.float64, generator=g)
    rows = nb08.compare_algorithms(decay, b, chunk=50)
    assert [row[0] for row in rows] == ["loop", "scan", "convolution (FFT)", "chunks of 50, a matmul in each"]
    assert rows[0][-1] == "(the reference)"  # the loop: not compared with itself
    assert all(row[-1] == "< 1e-12" for row in rows[1:])
    loop, scan, conv, chunks = (row[3] for row in rows)
    assert loop > 2 * 200 and scan < 8 * 8 and conv < 10 and chunks < loop / 10


def test_the_cost_widget_draws_the_counted_values():
    explorer = nb08.explore_costs()
    assert explorer.error is None
    for d, N in [(64, 1024), (16, 16), (1024, 16384)]:
        explorer.controls["d"].value, explorer.controls["N"].value = d, N
        ax1, ax2 = explorer.result.axes
        assert [p.get_height() for p in ax1.patches] == [f(N, d) for f in nb08.FLOP_FORMULAS.values()]
        rnn, att = (
            nb08.GENERATION_FORMULAS["recurrent"](N, d),
            nb08.GENERATION_FORMULAS["self-attention"](N, d),
        )
        assert [p.get_height() for p in ax2.patches] == [*rnn, *att]
        assert f"attention = {N / d + 2:g} x RNN" in ax1.get_xlabel()  # N/d + 2
        assert f", {2 * N:,} x RNN" in ax2.get_xlabel()  # the cache: 2 N d numbers against d
        for ax in (ax1, ax2):  # nothing clipped by the fixed limits
            low, high = ax.get_ylim()
            assert all(low < p.get_height() < high for p in ax.patches)
    left = [nb08.layer_flops(kind, 64, 32) for kind in nb08.LAYERS]  # counted, not the formulas
    assert nb08._cost_bars(32, 64)[0] == left


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: nb08.layer_flops("lstm", 8, 8), "kind"),
        (lambda: nb08.layer_flops("recurrent", 0, 8), "N"),
        (lambda: nb08.generation_step("conv", 8, 8), "kind"),
        (lambda: nb08.generation_step("recurrent", 8, 0), "d"),
        (lambda: nb08.layers_to_link("lstm", 8), "kind"),
        (lambda: nb08.layers_to_link("self-attention", 0), "distance"),
        (lambda: nb08.layers_to_link("convolutional (k=3)", 50, max_layers=10), "no path"),
        (lambda: nb08.link_depths("self-attention", 1), "N"),
        (lambda: nb08.chain_costs(0, 8), "N"),
        (lambda: nb08.plot_costs(d=48), "d must be one of"),
    ],
)
def test_bad_input_raises(call, match):
    with pytest.raises(ValueError, match=match):
        call()
