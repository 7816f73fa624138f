"""Notebook 01's module: the unrolled chain, the loop timer, the sequential-cost widget."""

import pytest

from helpers.notebooks import nb01_recurrence as nb01


def test_loop_time_grows_with_length():
    short, long = nb01.time_rnn_loops([32, 512])
    assert long > 3 * short  # 16x the steps: survives one of them running twice as slow


def test_unrolled_chain_draws_one_hidden_state_per_step():
    fig = nb01.plot_unrolled_chain(T=4)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "$h_{4}$" in texts and "$h_{5}$" not in texts and "4 steps" in texts


def test_sequential_cost_widget_measures_at_the_chosen_length():
    explorer = nb01.explore_sequential_cost()
    explorer.controls["seq_len"].value = 64
    ax = explorer.result.axes[0]
    assert list(ax.lines[0].get_xdata()) == [16, 32, 48, 64]
    assert ax.get_title().startswith("64 dependent steps")
    assert repr(explorer) == "Explorer(sequential_cost: sequence length)"


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: nb01.time_rnn_loops([64, 0]), "seq_len"),
        (lambda: nb01.plot_sequential_cost(2), "seq_len"),
        (lambda: nb01.plot_unrolled_chain(0), "T"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)
