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


def test_linear_attention_is_a_linear_recurrence(g):
    """Katharopoulos et al.'s causal linear attention, as attention, equals the loop over its state
    S_t = S_{t-1} + phi(k_t) v_t^T and the scan of that recurrence; the state does not grow with N."""
    N, d, d_v = 50, 4, 3
    q, k, v = (torch.randn(N, n, dtype=torch.float64, generator=g) for n in (d, d, d_v))
    S, z, loop = torch.zeros(d, d_v, dtype=torch.float64), torch.zeros(d, dtype=torch.float64), []
    for t in range(N):  # the recurrence, one step after another
        fk, fq = nb08.feature_map(k[t]), nb08.feature_map(q[t])
        S, z = S + torch.outer(fk, v[t]), z + fk
        loop.append(fq @ S / (fq @ z))
    y_scan, state = nb08.linear_attention_by_scan(q, k, v)
    torch.testing.assert_close(nb08.linear_attention(q, k, v), torch.stack(loop))
    torch.testing.assert_close(y_scan, torch.stack(loop))
    assert state == d * d_v + d and nb08.linear_attention_by_scan(q[:7], k[:7], v[:7])[1] == state
    assert (nb08.feature_map(torch.tensor([-10.0, 0.0, 2.0], dtype=torch.float64)) > 0).all()


def test_maxplus_combine_is_two_steps_in_one(g):
    """The reference of exercise 1 applied once equals the two steps applied in turn, and it is
    associative, so a scan may use it."""
    h = torch.randn(5, generator=g)
    steps = [(torch.randn(5, generator=g), torch.randn(5, generator=g)) for _ in range(3)]
    step = lambda s, h: torch.maximum(h + s[0], s[1])
    a, b = nb08.maxplus_combine(steps[0], steps[1])
    torch.testing.assert_close(step((a, b), h), step(steps[1], step(steps[0], h)))
    left = nb08.maxplus_combine(nb08.maxplus_combine(steps[0], steps[1]), steps[2])
    right = nb08.maxplus_combine(steps[0], nb08.maxplus_combine(steps[1], steps[2]))
    for x, y in zip(left, right):
        torch.testing.assert_close(x, y)


def test_the_h200_rows_are_the_shipped_sweep():
    """B = 32, N = 512, d = 128, fp32: attention between cuDNN's RNN and LSTM, in both passes; the
    FLOP ratios are the counted formulas' (1/6 and 2/3 of attention's)."""
    from helpers import gpu_sweep as gs

    rows = {row[0]: row[1:] for row in nb08.h200_at_article_sizes()}
    sweep = gs.read("h200_sweep")
    for model, (fwd, both, _) in rows.items():
        at = dict(model=model, batch=32, seq_len=512, dim=128)
        assert (fwd, both) == (gs.value(sweep, pass_="fwd", **at), gs.value(sweep, pass_="fwd+bwd", **at))
    assert [r[2] for r in rows.values()] == [round(1 / 6, 4), round(2 / 3, 4), 1.0, 1.0]
    for i in (0, 1):
        assert rows[gs.RNN][i] < min(rows[gs.MHA][i], rows[gs.FAST_MHA][i])
        assert max(rows[gs.MHA][i], rows[gs.FAST_MHA][i]) < rows[gs.LSTM][i]
    assert len(nb08.h200_runs_against(gs.LSTM)) == 5


def test_exercise_3s_width_levels_the_lstm_and_attention_bars():
    """At N = 1024 the widget's attention and LSTM bars are level at d = 512, and only there."""
    explorer = nb08.explore_costs()
    for d in nb08.WIDTHS:
        explorer.controls["d"].value, explorer.controls["N"].value = d, 1024
        rnn, lstm, attention = (p.get_height() for p in explorer.result.axes[0].patches[:3])
        assert (attention == lstm) == (d == 512), d
    assert "attention = 3 x RNN" in explorer.result.axes[0].get_xlabel()  # d = 1024 last: N/d + 2 = 3
    explorer.controls["d"].value = 512
    assert "attention = 4 x RNN" in explorer.result.axes[0].get_xlabel()  # the LSTM's 16 / 4


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
