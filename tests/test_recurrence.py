"""Notebook 01's helpers: the RNN against torch.nn, the parallel input projection, the loop timer."""

import pytest
import torch
from torch.testing import assert_close

import helpers
from conftest import ATOL
from helpers import recurrence
from helpers.rnn import rnn_weights


def test_rnncell_loop_equals_rnn_forward_and_nn_rnn(g):
    cell = torch.nn.RNNCell(4, 6)
    x = torch.randn(2, 9, 4, generator=g)
    H, h_T = helpers.rnn_forward(x, *rnn_weights(cell))
    assert_close(recurrence.rnncell_loop(cell, x), h_T, **ATOL)
    layer = torch.nn.RNN(4, 6, batch_first=True)
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(layer, name + "_l0").copy_(getattr(cell, name))
    assert_close(layer(x)[0], H, **ATOL)


def test_input_projection_is_the_per_step_projection(g):
    x, W_xh, b = (
        torch.randn(3, 7, 4, generator=g),
        torch.randn(5, 4, generator=g),
        torch.randn(5, generator=g),
    )
    per_step = torch.stack([x[:, t] @ W_xh.T + b for t in range(7)], dim=1)
    assert_close(recurrence.input_projection(x, W_xh, b), per_step, **ATOL)


def test_loop_time_grows_with_length():
    short, long = recurrence.time_rnn_loops([32, 512])
    assert long > 3 * short  # 16x the steps: survives one of them running twice as slow


def test_unrolled_chain_draws_one_hidden_state_per_step():
    fig = recurrence.plot_unrolled_chain(T=4)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "$h_{4}$" in texts and "$h_{5}$" not in texts and "4 steps" in texts


def test_sequential_cost_widget_measures_at_the_chosen_length():
    explorer = recurrence.explore_sequential_cost()
    explorer.controls["seq_len"].value = 64
    ax = explorer.result.axes[0]
    assert list(ax.lines[0].get_xdata()) == [16, 32, 48, 64]
    assert ax.get_title().startswith("64 dependent steps")
    assert repr(explorer) == "Explorer(sequential_cost: sequence length)"


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: recurrence.time_rnn_loops([64, 0]), "seq_len"),
        (lambda: recurrence.plot_sequential_cost(2), "seq_len"),
        (lambda: recurrence.plot_unrolled_chain(0), "T"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)


def test_exercise_references_pass(capsys):
    for name in ("rnn_step", "input_projection"):
        helpers.check(name, helpers.exercises.EXERCISES[name].reference)
        assert "correct" in capsys.readouterr().out
    helpers.check("dependent_steps", 100)
    assert "correct" in capsys.readouterr().out
    helpers.check("rnn_step", lambda x, h, W_xh, W_hh, b: x @ W_xh.T + h @ W_hh.T + b)  # forgot tanh
    assert "not yet" in capsys.readouterr().out
