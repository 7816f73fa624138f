"""Notebook 02's module: gradient norms by spectral radius, its figures and widgets."""

import math

import pytest
import torch
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


def test_curriculum_numbers_for_orthogonal_linear_rnn():
    at = {rho: nb02.gradient_norms(rho, 200) for rho in (0.9, 1.0, 1.1)}
    assert at[0.9][49].item() == pytest.approx(0.9**50, rel=1e-4)
    assert at[1.0][199].item() == pytest.approx(1.0, rel=1e-4)
    assert at[1.1][199].item() == pytest.approx(1.1**200, rel=1e-4)


def test_tanh_with_unit_inputs_vanishes_even_above_one():
    assert nb02.gradient_norms(1.1, 100, nonlinearity="tanh")[-1] < 1e-6


def test_input_gradients_decay_with_distance(g):
    W = helpers.matrix_with_spectral_radius(16, 0.9, kind="orthogonal", generator=g)
    grads = nb02.input_gradient_norms(W, 40)
    assert grads.shape == (40,) and grads[0] < 1e-6 * grads[-1]


def test_gradient_widget_draws_overflow_as_a_marker():
    explorer = nb02.explore_gradient_norms()
    assert repr(explorer) == "Explorer(gradient_norms: eigenvalue, sequence length)"
    explorer.controls["eigenvalue"].value = 1.5
    explorer.controls["seq_len"].value = 300
    ax = explorer.result.axes[0]
    assert explorer.error is None
    assert max(ax.get_ylim()) > 1e40  # 1.5^300 ~ 1e53: drawn, not dropped
    explorer.controls["eigenvalue"].value = 0.5
    assert max(ax.get_ylim()) > max(explorer.result.axes[0].get_ylim())


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


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: nb02.plot_gradient_norms(0.0, 10), "eigenvalue"),
        (lambda: nb02.plot_gradient_norms(1.0, 0), "seq_len"),
        (lambda: nb02.plot_non_normal(eigenvalue=2.0), "eigenvalue"),
        (lambda: jacobians.step_jacobian(torch.ones(3), torch.ones(3, 2)), "W_hh"),
        (lambda: jacobians.jacobian_product(torch.eye(3), 0), "T"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)
