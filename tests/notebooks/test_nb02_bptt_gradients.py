"""Notebook 02's module: gradient norms by spectral radius, its figures and widgets."""

import math

import numpy as np
import pytest
import torch
from matplotlib.backends.backend_agg import FigureCanvasAgg
from torch.testing import assert_close

import helpers
from helpers import jacobians
from helpers.notebooks import nb02_bptt_gradients as nb02


@pytest.mark.parametrize("every", [1, 3, 7])
def test_strided_norms_are_a_subset_of_the_full_curve(every, g):
    full = nb02.gradient_norms(1.05, 20, d=8, kind="gaussian", nonlinearity="tanh")
    part = nb02.gradient_norms(1.05, 20, d=8, kind="gaussian", nonlinearity="tanh", every=every)
    ks = [min(k, 20) for k in range(every, 20 + every, every)]
    assert_close(part, full[[k - 1 for k in ks]])


def test_gradient_norms_equal_jacobian_norms_of_the_same_rnn():
    x, W_xh = nb02.random_inputs(40, 16, scale=0.3)
    for nonlinearity in ("linear", "tanh"):
        want = helpers.jacobian_norms(
            nb02.recurrent_matrix(1.1, 16, kind="gaussian"), 40, nonlinearity=nonlinearity, x=x, W_xh=W_xh
        )
        got = nb02.gradient_norms(1.1, 40, d=16, kind="gaussian", nonlinearity=nonlinearity, input_scale=0.3)
        assert_close(got, want, rtol=1e-12, atol=0)


def test_curriculum_numbers_for_orthogonal_linear_rnn():
    at = {rho: nb02.gradient_norms(rho, 200) for rho in (0.9, 1.0, 1.1)}
    assert at[0.9][49].item() == pytest.approx(0.9**50, rel=1e-4)
    assert at[1.0][199].item() == pytest.approx(1.0, rel=1e-4)
    assert at[1.1][199].item() == pytest.approx(1.1**200, rel=1e-4)


@pytest.mark.parametrize("nonlinearity", ["linear", "tanh"])
def test_gradient_norms_obey_pascanus_bound_and_the_linear_one_reaches_it_at_one_step(nonlinearity):
    """||dh_k/dh_0|| <= sigma_max^k (gamma = 1 for tanh); sigma_max from torch.linalg.svdvals."""
    for rho in (0.9, 1.1):
        W = nb02.recurrent_matrix(rho, 32, kind="gaussian").double()
        sigma = torch.linalg.svdvals(W)[0]
        norms = nb02.gradient_norms(rho, 60, d=32, kind="gaussian", nonlinearity=nonlinearity)
        assert (norms <= sigma ** torch.arange(1, 61, dtype=torch.float64) * (1 + 1e-9)).all()
        if nonlinearity == "linear":
            assert norms[0].item() == pytest.approx(sigma.item(), rel=1e-12)
        else:
            assert norms[0].item() < sigma.item()  # tanh' < 1 where the state is not 0


def test_tanh_with_unit_inputs_vanishes_even_above_one():
    norms = nb02.gradient_norms(1.1, 200, nonlinearity="tanh")
    assert norms[-1] < 1e-6 and jacobians.log_growth_rate(norms, first=50) < math.log(0.8)


def test_input_scale_switches_saturation_on_and_off():
    """Small inputs: the tanh RNN follows rho^T (rho <= 1). Large inputs: it decays faster, monotonically."""
    small = nb02.gradient_norms(0.9, 200, nonlinearity="tanh", input_scale=0.01)
    assert small[-1].item() == pytest.approx(0.9**200, rel=0.2)
    assert math.exp(jacobians.log_growth_rate(small, first=50)) == pytest.approx(0.9, abs=0.01)
    rates = [
        jacobians.log_growth_rate(nb02.gradient_norms(0.9, 200, nonlinearity="tanh", input_scale=s), first=50)
        for s in nb02.INPUT_SCALES
    ]
    assert rates == sorted(rates, reverse=True) and rates[-1] < math.log(0.5)


def test_random_inputs_of_a_shorter_sequence_start_the_longer_one():
    short, W_xh = nb02.random_inputs(37, 8, scale=2.0)
    long, _ = nb02.random_inputs(300, 8, scale=2.0)
    assert torch.equal(short, long[:37]) and torch.equal(W_xh, torch.eye(8, dtype=torch.float64))
    assert long.std().item() == pytest.approx(2.0, rel=0.05)


def test_input_gradients_decay_with_distance(g):
    W = helpers.matrix_with_spectral_radius(16, 0.9, kind="orthogonal", generator=g)
    grads = nb02.input_gradient_norms(W, 40)
    assert grads.shape == (40,) and grads[0] < 1e-6 * grads[-1]


def test_gradient_widget_draws_large_norms_and_rescales():
    explorer = nb02.explore_gradient_norms()
    assert repr(explorer) == "Explorer(gradient_norms: spectral radius ρ, sequence length, input scale)"
    explorer.controls["rho"].value = 1.5
    explorer.controls["seq_len"].value = 300
    top = max(explorer.result.axes[0].get_ylim())
    assert explorer.error is None
    assert top > 1e40  # 1.5^300 ~ 1e53: drawn, not dropped
    explorer.controls["rho"].value = 0.5
    assert top > 1e30 * max(explorer.result.axes[0].get_ylim())


def test_gradient_widget_input_scale_moves_only_the_tanh_curves():
    explorer = nb02.explore_gradient_norms()
    lines = lambda: [line.get_ydata()[-1] for line in explorer.result.axes[0].lines[:4]]
    before = lines()
    explorer.controls["input_scale"].value = 0.01
    after = lines()
    assert after[:2] == before[:2]  # linear: no inputs in the Jacobian
    assert after[2] > 1e6 * before[2] and after[3] > 1e6 * before[3]  # tanh: far less saturated


def test_widget_curves_are_the_gradient_norms_they_claim():
    """The widget's cached curves equal gradient_norms at the same points (d = 32)."""
    steps, curves = nb02._widget_curves(1.2, 120, 0.3, 32)
    assert steps == tuple(range(2, 121, 2))
    for (nonlinearity, kind, _), curve in zip(nb02.CASES, curves):
        want = nb02.gradient_norms(1.2, 120, d=32, kind=kind, nonlinearity=nonlinearity, input_scale=0.3)
        assert_close(torch.tensor(curve, dtype=torch.float64), want[1::2], rtol=1e-12, atol=0)


def pixels(fig) -> np.ndarray:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())


def test_gradient_norms_updated_in_place_equal_a_new_figure_past_float64():
    """Overflow markers come and go (rho = 3 over 700 steps): the update draws them as plot does."""
    fig = nb02.plot_gradient_norms(1.0, 100)
    for values in [(3.0, 700, 1.0), (1.0, 100, 0.1)]:
        nb02.update_gradient_norms(fig, *values)
        labels = fig.axes[0].get_legend_handles_labels()[1]
        assert (helpers.course.style.OVERFLOW_LABEL in labels) == (values[0] == 3.0)
        assert np.array_equal(pixels(fig), pixels(nb02.plot_gradient_norms(*values)))


def test_overflow_is_marked_not_dropped():
    fig = nb02.plot_gradient_norms(1.5, 300, d=8)  # fine; now force float64 overflow:
    norms = nb02.gradient_norms(12.0, 300, d=8)  # 12^300 > 1.8e308
    assert math.isinf(norms[-1]) and not norms.isnan().any()
    ax = fig.axes[0]
    helpers.course.style.finite_or_marked(ax, range(1, 301), norms, label="x")
    assert helpers.course.style.OVERFLOW_LABEL in ax.get_legend_handles_labels()[1]


def test_non_normal_widget_changes_with_coupling():
    explorer = nb02.explore_non_normal()
    peak = lambda: max(explorer.result.axes[0].lines[0].get_ydata())
    explorer.controls["coupling"].value = 0.0
    flat = peak()
    explorer.controls["coupling"].value = 10.0
    assert flat == pytest.approx(1.0) and peak() > 30
    legend = [t.get_text() for t in explorer.result.axes[0].get_legend().get_texts()]
    assert legend[0] == "W = [[0.9, 10], [0, 0.9]]"


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: nb02.plot_gradient_norms(0.0, 10), "rho"),
        (lambda: nb02.plot_gradient_norms(1.0, 0), "seq_len"),
        (lambda: nb02.plot_gradient_norms(1.0, 10, input_scale=-1.0), "input_scale"),
        (lambda: nb02.random_inputs(10, 4, scale=math.nan), "scale"),
        (lambda: nb02.gradient_norms(1.0, 10, nonlinearity="relu"), "nonlinearity"),
        (lambda: nb02.plot_non_normal(eigenvalue=2.0), "eigenvalue"),
        (lambda: jacobians.step_jacobian(torch.ones(3), torch.ones(3, 2)), "W_hh"),
        (lambda: jacobians.jacobian_product(torch.eye(3), 0), "T"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)


def test_residual_step_jacobian_is_autograds(g):
    W, W_xh, x, h = (
        torch.randn(*shape, generator=g, dtype=torch.float64) for shape in [(5, 5), (5, 5), (5,), (5,)]
    )
    step = lambda h: h + torch.tanh(W @ h + W_xh @ x)
    u = torch.tanh(W @ h + W_xh @ x)
    assert_close(nb02.residual_step_jacobian(u, W), torch.autograd.functional.jacobian(step, h))


def test_non_normal_peak_is_where_the_widget_peaks_and_its_title_says_so():
    """Exercise 1 asks for the peak at eigenvalue 0.85: moving the slider there prints it in the title."""
    view = nb02._non_normal_view(5.0, 0.85, 60)
    assert nb02.non_normal_peak() == int(np.argmax(view["powers"])) == view["peak"] == 6
    explorer = nb02.explore_non_normal()
    assert explorer.result.axes[0].get_title().endswith("at k = 9")  # the notebook's 0.9, as printed
    explorer.controls["eigenvalue"].value = 0.85
    assert explorer.error is None and explorer.result.axes[0].get_title().endswith("at k = 6")
    explorer.controls["eigenvalue"].value = 1.1
    assert explorer.result.axes[0].get_title().endswith("still grows at k = 60")


def test_sigmoid_bound_holds_for_a_sigmoid_rnn_with_sigma_max_three(g):
    W = helpers.matrix_with_spectral_radius(8, 1.0, kind="gaussian", generator=g).double()
    W = 3 * W / torch.linalg.svdvals(W)[0]  # sigma_max = 3
    x = torch.randn(20, 8, generator=g, dtype=torch.float64)
    h, product = torch.zeros(8, dtype=torch.float64), torch.eye(8, dtype=torch.float64)
    for x_t in x:
        h = torch.sigmoid(W @ h + x_t)
        product = torch.diag(h * (1 - h)) @ W @ product
    assert torch.linalg.matrix_norm(product, ord=2) <= nb02.sigmoid_bound()
