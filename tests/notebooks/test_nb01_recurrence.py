"""Notebook 01's module: the unrolled chain, the chain counter, the three ways timed, the batch widget,
Newton's table, the input projection's rule (no loop over t)."""

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


def test_sequential_cost_widget_shows_the_timed_batch():
    explorer = nb01.explore_sequential_cost()
    explorer.controls["batch"].value = 64
    ax = explorer.result.axes[0]
    assert [bar.get_height() for bar in ax.patches] == [nb01._MEASURED[64][w] for w in nb01.WAYS]
    assert ax.get_title().startswith("B = 64: 13 MFLOP each")
    alt = describe(explorer.result)  # the alt text after the redraw: bars by name, B = 64's times
    assert "against 3 categories: one call; 100 independent calls; 100-step chain" in alt
    assert f"100-step chain {nb01._MEASURED[64][nb01.WAYS[2]]:.2f} ms." in alt
    assert repr(explorer) == "Explorer(sequential_cost: batch size B)"


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
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)
