"""Notebook 03's module: the experiment's LSTM, the cached gradient curves, the gating widgets."""

import math

import pytest
import torch
from torch.testing import assert_close

import helpers
from helpers import jacobians, lstm
from helpers.course.exercises import EXERCISES, compare
from helpers.lstm import lstm_weights
from helpers.notebooks import nb03_lstm_gating as nb03


def autograd_norms(W_ih, W_hh, b, x):
    """||dc_k/dc_0||_2 for k = 1..T by autograd (the reference), float64."""
    c0 = torch.zeros(W_hh.shape[1], dtype=torch.float64)
    return torch.tensor(
        [
            torch.linalg.matrix_norm(
                torch.autograd.functional.jacobian(
                    lambda c, k=k: lstm.lstm_sequence(x[:k], W_ih, W_hh, b, c0=c)[1][-1], c0
                ),
                ord=2,
            ).item()
            for k in range(1, x.shape[0] + 1)
        ],
        dtype=torch.float64,
    )


def test_set_forget_bias_sets_the_second_slice_exactly():
    cell = nb03.make_lstm(2.5, d=6)
    b = cell.bias_ih + cell.bias_hh
    assert_close(b[6:12], torch.full((6,), 2.5))
    assert not torch.allclose(b[:6], torch.full((6,), 2.5))  # the other gates untouched


@pytest.mark.parametrize("forget_bias", [0.0, 3.0])
def test_lstm_gradient_norms_equal_autograd(forget_bias):
    W = lstm.weights64(nb03.make_lstm(forget_bias, d=8))
    x = nb03.random_inputs(9, d=8)
    norms, cell = jacobians.lstm_gradient_norms(*W, x)
    assert norms.dtype == torch.float64 and norms.shape == (9,)
    assert_close(norms, autograd_norms(*W, x), atol=1e-12, rtol=1e-9)
    _, _, gates = lstm.lstm_sequence(x, *W)
    assert_close(cell, gates.f.cumprod(0).max(dim=1).values, atol=1e-14, rtol=1e-9)
    every3, _ = jacobians.lstm_gradient_norms(*W, x, every=3)  # k = 3, 6, 9
    assert_close(every3, norms[2::3], atol=1e-12, rtol=1e-9)


def test_cell_path_is_exact_when_w_hh_is_zero():
    W_ih, W_hh, b = lstm.weights64(nb03.make_lstm(1.0, d=6))
    x = nb03.random_inputs(12, d=6)
    zero = torch.zeros_like(W_hh)
    J = torch.autograd.functional.jacobian(
        lambda c0: lstm.lstm_sequence(x, W_ih, zero, b, c0=c0)[1][-1], torch.zeros(6, dtype=torch.float64)
    )
    _, _, gates = lstm.lstm_sequence(x, W_ih, zero, b)
    assert_close(J, torch.diag(lstm.cell_path(gates.f)))
    norms, cell = jacobians.lstm_gradient_norms(W_ih, zero, b, x)
    assert_close(norms, cell)  # one path only: the two agree


def test_last_cell_state_is_pytorchs_c_T_and_autograd_through_it_gives_the_cell_path():
    cell = nb03.make_lstm(1.0, d=6).double()
    x = nb03.random_inputs(12, d=6)
    layer = torch.nn.LSTM(6, 6).double()  # the same weights, run by PyTorch's sequence layer
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(layer, f"{name}_l0").copy_(getattr(cell, name))
    c0 = torch.randn(6, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    _, (_, c_n) = layer(x, (torch.zeros(1, 6, dtype=torch.float64), c0[None]))
    assert_close(nb03.last_cell_state(cell, x, c0), c_n[0])
    with torch.no_grad():
        cell.weight_hh.zero_()
    J = torch.autograd.functional.jacobian(lambda c: nb03.last_cell_state(cell, x, c), c0)
    _, _, gates = lstm.lstm_sequence(x, *lstm.weights64(cell), c0=c0)
    assert_close(J, torch.diag(lstm.cell_path(gates.f)))


@pytest.mark.parametrize("T", [50, 200, 500])
def test_one_yardstick_ranks_the_rnns_and_the_lstm_as_the_notebook_says(T):
    norm = lambda model: nb03.gradient_norm_at(T, model)
    # the default LSTM is behind the orthogonal RNN at every T; forget bias 1 overtakes it
    assert norm("RNN") < norm(0.0) < norm("orthogonal RNN") < norm(1.0) < norm(3.0) < 1
    assert norm("orthogonal RNN") > 10 * norm(0.0) and norm(1.0) > 10 * norm("orthogonal RNN")  # no near tie


def test_the_two_rnns_differ_only_in_w_hh():
    default, orthogonal = nb03.make_rnn(), nb03.make_rnn(orthogonal=True)
    assert_close(default.weight_ih, orthogonal.weight_ih)
    assert_close(default.bias_hh, orthogonal.bias_hh)
    W = orthogonal.weight_hh.detach().double()
    assert_close(W @ W.T, torch.eye(nb03.D, dtype=torch.float64), atol=1e-6, rtol=0)
    assert abs(nb03.rnn_rho("orthogonal RNN") - 1) < 1e-6 and 0.5 < nb03.rnn_rho("RNN") < 0.7


def test_the_cached_curves_are_autograd_through_the_torch_cells():
    x = nb03.random_inputs(nb03.T_MAX)[:20]
    for model, cell in [("RNN", nb03.make_rnn()), (1.0, nb03.make_lstm(1.0))]:
        autograd = jacobians.output_jacobian_norms(nb03.last_state(cell.double()), x)[0]
        assert_close(nb03.gradient_norm_at(20, model), autograd.item(), atol=0, rtol=1e-9)


def test_decay_per_step_is_the_mean_factor_between_two_lengths():
    factor = nb03.decay_per_step(1.0, 50, 500)
    at_500 = nb03.gradient_norm_at(50, 1.0) * factor**450
    assert_close(at_500, nb03.gradient_norm_at(500, 1.0), atol=0, rtol=1e-9)
    assert 1 / (1 + math.exp(-1)) < factor < 1  # slower than the cell path alone, but a decay


def test_gradient_norms_never_nan_at_extremes():
    W = lstm.weights64(nb03.make_lstm(-5.0, d=8))
    norms, cell = jacobians.lstm_gradient_norms(*W, nb03.random_inputs(500, d=8), every=50)
    assert not norms.isnan().any() and not cell.isnan().any()
    assert norms[-1] == 0.0 and cell[-1] == 0.0  # honestly below float64
    for full, cell in nb03.lstm_curves(*nb03.FORGET_BIASES):  # every curve the widget draws: finite
        assert full.isfinite().all() and cell.isfinite().all() and (full > 0).all()


def test_gradient_flow_widget_changes_with_the_bias_and_the_length():
    explorer = nb03.explore_gradient_flow()
    lines = lambda: [line.get_ydata() for line in explorer.result.axes[0].lines]
    explorer.controls["forget_bias"].value = 0.0
    rnn, low = lines()[0], lines()[2]  # the default RNN, the LSTM
    explorer.controls["forget_bias"].value = 3.0
    assert lines()[2][-1] > 1e10 * low[-1]
    assert list(lines()[0]) == list(rnn)  # the RNNs do not depend on the forget bias
    explorer.controls["T"].value = 500
    assert max(explorer.result.axes[0].lines[0].get_xdata()) == 500
    assert explorer.error is None
    assert explorer.result.axes[0].get_xlim()[1] > 500


def test_gradient_figures_tick_round_decades():
    for fig in (nb03.plot_gradient_flow(-1.0, 500), nb03.plot_gradient_flow_biases()):
        ax = fig.axes[0]
        exponents = [round(math.log10(v)) for v in ax.get_yticks()]
        assert 3 <= len(exponents) <= 8
        step = exponents[0] - exponents[1]
        assert all(e % step == 0 for e in exponents)  # 1e0, 1e-50, 1e-100, ...
        assert nb03.NO_DECAY in [t.get_text() for t in ax.texts]  # on the line itself


def test_gates_widget_moves_the_forget_gate():
    explorer = nb03.explore_gates()
    mean_f = lambda: sum(explorer.result.axes[0].lines[1].get_ydata()) / 60
    explorer.controls["forget_bias"].value = -2.0
    closed = mean_f()
    explorer.controls["forget_bias"].value = 5.0
    assert closed < 0.2 and mean_f() > 0.95


def test_exercise_references_match_the_helpers():
    args = EXERCISES["lstm_step"].make_inputs()
    h, c, _ = helpers.lstm_step(*args)
    assert compare(nb03.lstm_step_solution(*args), (h, c)) is None
    b = nb03.forget_bias_half_solution()
    assert_close(
        torch.sigmoid(torch.tensor(b, dtype=torch.float64)) ** 100, torch.tensor(0.5, dtype=torch.float64)
    )
    assert 4.9 < b < 5.0 <= nb03.FORGET_BIASES[-1]  # about 4.97: at the slider's top


def test_the_widget_exercise_is_what_the_widget_shows():
    """The lowest forget bias at which the LSTM ends above the default RNN at T = 500, read off the
    gradient-flow widget's own lines; and the cell path alone would predict a higher one."""
    explorer = nb03.explore_gradient_flow()
    explorer.controls["T"].value = nb03.T_MAX
    above = []
    for bias in nb03.FORGET_BIASES:
        explorer.controls["forget_bias"].value = bias
        rnn, lstm_line = explorer.result.axes[0].lines[0], explorer.result.axes[0].lines[2]
        assert rnn.get_xdata()[-1] == lstm_line.get_xdata()[-1] == nb03.T_MAX
        if lstm_line.get_ydata()[-1] > 10 * rnn.get_ydata()[-1]:  # no near tie
            above.append(bias)
        else:
            assert lstm_line.get_ydata()[-1] < rnn.get_ydata()[-1] / 10
    assert min(above) == nb03.lstm_below_rnn_solution() == -0.5
    assert above == [b for b in nb03.FORGET_BIASES if b >= -0.5]  # monotone: one answer
    rnn_rate = nb03.decay_per_step("RNN")
    predicted = min(b for b in nb03.FORGET_BIASES if 1 / (1 + math.exp(-b)) > rnn_rate)
    assert predicted > nb03.lstm_below_rnn_solution()  # the surprise the exercise asks about


def test_the_default_rnn_breaks_the_sufficient_condition_and_still_vanishes():
    assert nb03.rnn_rho("RNN") < 0.6 and nb03.rnn_sigma_max("RNN") > 1.1
    assert abs(nb03.rnn_sigma_max("orthogonal RNN") - 1) < 1e-5
    linear = nb03.linear_decay_per_step("RNN")
    assert abs(linear - nb03.rnn_rho("RNN")) < 0.01  # without the tanh: about rho (Gelfand)
    assert nb03.decay_per_step("RNN") < 0.85 * linear  # the tanh's slopes do the rest
    assert abs(nb03.linear_decay_per_step("orthogonal RNN") - 1) < 1e-6


def test_linear_decay_is_the_norm_of_a_power_of_w_hh():
    cell = nb03.make_rnn().double()
    W, U = cell.weight_hh.detach(), cell.weight_ih.detach()
    norm = lambda T: torch.linalg.matrix_norm(torch.linalg.matrix_power(W, T - 1) @ U).item()
    assert_close(nb03.linear_decay_per_step("RNN", 5, 15), (norm(15) / norm(5)) ** 0.1, atol=0, rtol=1e-9)


def test_the_state_bound_at_the_language_models_sizes():
    assert nb03.state_full_tokens([64], 8) == 2 * 64 * 32 / 3
    full = {name: nb03.state_full_tokens(nb03.AWD_LSTM_UNITS, v) for name, v in nb03.LM_VOCABULARIES.items()}
    assert 11_500 < full["WikiText-2"] < full["Penn Treebank"] < 13_100  # the 11,500-13,000
    assert_close(full["Penn Treebank"], 2 * 2700 * 32 / math.log2(10_000))


def test_the_state_figure_draws_no_band_from_another_model():
    ax = nb03.plot_state_size().axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert not any("Khandelwal" in label for label in labels) and not ax.patches


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: lstm.set_forget_bias(torch.nn.LSTMCell(2, 2), math.nan), "forget bias"),
        (lambda: nb03.make_lstm(d=0), "d (the hidden size)"),
        (lambda: nb03.random_inputs(0), "T (the sequence length)"),
        (
            lambda: lstm.lstm_sequence(torch.ones(2, 3, 4), *lstm_weights(torch.nn.LSTMCell(4, 2))),
            "(T, d_in)",
        ),
        (lambda: lstm.cell_path(torch.ones(5)), "(T, d)"),
        (
            lambda: jacobians.lstm_gradient_norms(*lstm_weights(torch.nn.LSTMCell(4, 2)), torch.ones(3, 5)),
            "d_in = 4",
        ),
        (
            lambda: jacobians.lstm_gradient_norms(
                *lstm_weights(torch.nn.LSTMCell(4, 2)), torch.ones(3, 4), every=0
            ),
            "every",
        ),
        (lambda: nb03.plot_gradient_flow(1.0, 501), "sequence length"),
        (lambda: nb03.plot_gradient_flow(20.0, 100), "forget bias"),
        (lambda: nb03.plot_gates(math.inf), "forget bias"),
        (lambda: nb03.gradient_norm_at(51, "RNN"), "multiple of 5"),
        (lambda: nb03.gradient_norm_at(50, "GRU"), "forget bias"),
        (lambda: nb03.rnn_rho("GRU"), "one of"),
        (lambda: nb03.make_rnn(d=0), "d (the hidden size)"),
        (lambda: nb03.decay_per_step(1.0, 500, 50), "T0 must be below T1"),
        (lambda: nb03.seed_spread(3.0, Ts=(7,)), "multiple of 5"),
        (lambda: nb03.rnn_sigma_max("GRU"), "one of"),
        (lambda: nb03.linear_decay_per_step("GRU"), "one of"),
        (lambda: nb03.linear_decay_per_step("RNN", 50, 50), "T0 must be"),
        (lambda: nb03.state_full_tokens([64, 0], 8), "each layer's units"),
        (lambda: nb03.state_full_tokens([64], 1), "vocab (the vocabulary size)"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)


def test_cell_path_guide_starts_after_x_1():
    # x_1 enters c_1 through i_1 g_1; then f_2 ... f_T carry it: f_1 (which scales c_0) is not on its path
    _, _, gates = lstm.lstm_sequence(nb03.random_inputs(20), *lstm.weights64(nb03.make_lstm(1.0)))
    assert_close(nb03.cell_path_at(20, 1.0), gates.f[1:].prod(dim=0).max().item(), atol=0, rtol=1e-9)
    factor = nb03.decay_per_step(1.0, 50, 500, cell_path=True)
    assert_close(nb03.cell_path_at(50, 1.0) * factor**450, nb03.cell_path_at(500, 1.0), atol=0, rtol=1e-9)
    assert abs(factor - 1 / (1 + math.exp(-1))) < 0.02  # about sigma(b_f) per step
