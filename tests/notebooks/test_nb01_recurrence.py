"""Notebook 01's module: the unrolled chain, the chain counter, the three ways timed, the batch widget,
the stacked chain and its widget, Newton's table, the input projection's rule (no loop over t)."""

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

import helpers
from conftest import ATOL
from helpers.course.exercises import passes
from helpers.course.style import describe
from helpers.measure import count_flops
from helpers.notebooks import nb01_recurrence as nb01


def test_count_chain_finds_t_tanh_steps_in_one_chain_behind_nn_rnns_h_t(g):
    rnn = torch.nn.RNN(3, 4, batch_first=True)
    x = torch.randn(1, 7, 3, generator=g)
    assert nb01.count_chain(rnn(x)[1]) == (7, 7, 8)  # 7 tanh in one chain; 1 input projection + 7 steps
    assert nb01.count_chain(rnn(x[:, :6])[1]) == (6, 6, 7)


def test_count_chain_tells_independent_steps_from_a_chain():
    tanhs = {way: nb01.count_chain(fn())[:2] for way, fn in nb01.three_ways(2, grad=True).items()}
    assert tanhs == {nb01.WAYS[0]: (1, 1), nb01.WAYS[1]: (100, 1), nb01.WAYS[2]: (100, 100)}


def test_the_three_ways_do_the_same_flops_and_the_first_two_compute_the_same():
    for batch in (1, 3):
        ways = nb01.three_ways(batch)
        assert [count_flops(fn) for fn in ways.values()] == [nb01.way_flops(batch)] * 3
        assert_close(ways[nb01.WAYS[0]](), ways[nb01.WAYS[1]](), **ATOL)


def test_the_chain_is_slower_than_one_call_and_barely_slower_with_64_times_the_work():
    ms = nb01.time_ways([1, 64], repeats=3)
    one, chain = nb01.WAYS[0], nb01.WAYS[2]
    assert ms[1][chain] > 5 * ms[1][one]  # tens of times on a quiet machine
    assert ms[64][chain] < 16 * ms[1][chain]  # 64x the FLOPs


def test_sequential_cost_widget_shows_the_chain_against_the_same_work_in_one_call():
    explorer = nb01.explore_sequential_cost()
    explorer.controls["batch"].value = 64
    ax = explorer.result.axes[0]
    assert [bar.get_height() for bar in ax.patches] == [nb01._MEASURED[64][w] for w in nb01.CORE_WAYS]
    assert nb01.CORE_WAYS == (nb01.WAYS[0], nb01.WAYS[2])  # no bar for the 100 independent calls
    assert ax.get_title().startswith("B = 64: 13 MFLOP each; the chain took ")
    alt = describe(explorer.result)  # the alt text after the redraw: bars by name, B = 64's times
    assert "against 2 categories: the same work in one call; the 100-step chain" in alt
    assert f"the 100-step chain {nb01._MEASURED[64][nb01.WAYS[2]]:.2f} ms." in alt
    assert repr(explorer) == "Explorer(sequential_cost: batch size B)"


def test_the_batch_sizes_include_the_articles_snippet_and_its_100th_word():
    assert 1 in nb01.BATCHES and 32 in nb01.BATCHES and max(nb01.BATCHES) == 64


def test_the_core_tables_show_one_call_and_the_chain_only():
    counted = repr(nb01.count_ways(ways=nb01.CORE_WAYS))
    assert nb01.WAYS[1] not in counted and nb01.WAYS[0] in counted and nb01.WAYS[2] in counted
    ms = {b: {w: 1.0 + i for i, w in enumerate(nb01.WAYS)} for b in (1, 64)}
    timed = repr(nb01.ways_table(ms, ways=nb01.CORE_WAYS))
    assert nb01.WAYS[1] not in timed and "chain / one call" in timed and "3x" in timed
    assert nb01.WAYS[1] in repr(nb01.ways_table(ms))


def test_a_stacked_state_waits_for_its_step_plus_its_layer_minus_one():
    depths = nb01.stacked_depths(7, 3)
    assert depths == tuple(tuple(t + layer for t in range(1, 8)) for layer in range(3))
    assert nb01.stacked_depths(100, 2)[1][99] == 101  # exercise 3: not 200
    assert nb01.wavefront_width(8, 3) == 3 and nb01.wavefront_width(2, 4) == 2  # min(layers, N)


def test_nn_rnn_runs_its_layers_one_after_another_on_the_cpu(g):
    """What exercise 3's worked answer says: nn.RNN(num_layers=2) gives layer 2 its inputs in one matmul,
    so its graph has a chain of 2 N, where the dependency needs N + 1."""
    rnn = torch.nn.RNN(3, 4, num_layers=2, batch_first=True)
    assert nb01.count_chain(rnn(torch.randn(1, 10, 3, generator=g))[1][1])[1] == 20
    assert nb01.stacked_depths(10, 2)[1][9] == 11


def test_stacked_chain_widget_labels_each_state_with_its_depth():
    explorer = nb01.explore_stacked_chain()
    explorer.controls["layers"].value = 3
    explorer.controls["N"].value = 8
    ax, labels, _, _ = explorer.result._stacked
    shown = {k: list(zip(*line.get_data())) for k, line in labels.items() if len(line.get_xdata())}
    assert sorted(k for k, at in shown.items() for _ in at) == sorted(
        t + i for t in range(1, 9) for i in range(3)
    )
    assert shown[10] == [(7, 2)] and labels[10].get_marker() == "$10$"  # the top state at t = 8, layer 3
    assert ax.get_title() == "3 layers, 8 steps: 24 tanh steps, the top state at t = 8 after 10 in a row"
    assert "at most 3 of them share a label" in describe(explorer.result)
    assert repr(explorer) == "Explorer(stacked_chain: layers, time steps N)"


def test_newton_table_counts_more_iterations_as_w_hh_grows(g):
    W_hh = 0.3 * torch.randn(4, 4, generator=g, dtype=torch.float64)
    U = torch.randn(1, 30, 4, generator=g, dtype=torch.float64)
    rows = [row.split() for row in repr(nb01.newton_table(U, W_hh, scales=(1, 3))).splitlines()[1:]]
    (_, _, fast, levels, flops, levels_we, flops_we), (_, _, slow, *_) = rows
    assert int(levels) == 5 * int(fast)  # ceil(log2 30) = 5 scan levels per iteration
    assert int(levels_we) == 2 * int(levels)  # a work-efficient scan: two sweeps
    assert int(flops_we[:-1]) < int(flops[:-1])  # fewer pairs: 2 (N - 1) = 58 against 119
    assert int(fast) < 10 and int(fast) < int(slow) <= 31  # N + 1 iterations always suffice


def test_newton_table_names_the_scale_of_w_hh(g):
    W_hh = 0.3 * torch.randn(4, 4, generator=g, dtype=torch.float64)
    U = torch.randn(1, 8, 4, generator=g, dtype=torch.float64)
    assert repr(nb01.newton_table(U, W_hh, scales=(1,))).startswith("scale s of W_hh")


LOOP_FREE = {
    "x @ W.T + b": lambda x, W, b: x @ W.T + b,
    "F.linear": lambda x, W, b: F.linear(x, W, b),
    "einsum": lambda x, W, b: torch.einsum("bni,hi->bnh", x, W) + b,
    "broadcast, no matmul": lambda x, W, b: (x[..., None, :] * W).sum(-1) + b,
}
LOOPS = {  # right values, but one t at a time
    "stack of steps": lambda x, W, b: torch.stack([x[:, t] @ W.T + b for t in range(x.shape[1])], 1),
    "cat of steps": lambda x, W, b: torch.cat([x[:, t : t + 1] @ W.T + b for t in range(x.shape[1])], 1),
    "written into a tensor": lambda x, W, b: _filled(x, W, b),
    "detached steps": lambda x, W, b: torch.stack([x[:, t] @ W.T + b for t in range(x.shape[1])], 1).detach(),
}


def _filled(x, W, b):
    out = torch.zeros(*x.shape[:2], W.shape[0])
    for t in range(x.shape[1]):
        out[:, t] = x[:, t] @ W.T + b
    return out


@pytest.mark.parametrize("name", LOOP_FREE)
def test_the_input_projection_accepts_loop_free_answers(name):
    assert passes("input_projection", LOOP_FREE[name])


@pytest.mark.parametrize("name", LOOPS)
def test_the_input_projection_refuses_a_loop_over_t(capsys, name):
    """The values are right (the first check passes them); only the rule refuses them."""
    x, W, b = torch.randn(2, 5, 3), torch.randn(4, 3), torch.randn(4)
    assert_close(LOOPS[name](x, W, b), x @ W.T + b)
    assert not passes("input_projection", LOOPS[name])
    helpers.check("input_projection", LOOPS[name])
    out = capsys.readouterr().out
    assert "[input_projection] not yet: " in out and "Hint: " in out and "correct" not in out, out


def test_the_rule_counts_more_operations_for_a_longer_loop(capsys):
    helpers.check("input_projection", LOOPS["stack of steps"])
    assert "on a sequence of 3 steps and" in capsys.readouterr().out


def test_unrolled_chain_draws_one_hidden_state_per_step():
    fig = nb01.plot_unrolled_chain(N=4)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "$h_{4}$" in texts and "$h_{5}$" not in texts and "4 steps" in texts
    alt = describe(fig)  # a diagram, told by its finding, not "bars of values against position"
    assert ": a diagram. The inputs x_1 to x_4 " in alt and "h_4 after 4." in alt and "bars" not in alt


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: nb01.three_ways(0), "batch"),
        (lambda: nb01.time_ways([1, 0]), "batch"),
        (lambda: nb01.plot_sequential_cost(3), "batch must be one of"),
        (lambda: nb01.count_chain(torch.ones(2)), "grad_fn"),
        (lambda: nb01.count_chain([1.0]), "torch.Tensor"),
        (lambda: nb01.plot_unrolled_chain(0), "N (the number of steps drawn)"),
        (lambda: nb01.plot_stacked_chain(5, 6), "layers must be an int from 1 to 4"),
        (lambda: nb01.plot_stacked_chain(2, 11), "N (the number of steps) must be an int from 2 to 10"),
        (lambda: nb01.stacked_depths(0, 2), "N (the number of steps)"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)
