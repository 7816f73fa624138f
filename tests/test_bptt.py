"""Notebook 02's helpers: the Jacobian product against autograd, norms, figures and widgets."""

import math

import pytest
import torch
from torch.testing import assert_close

import helpers
from helpers import bptt


def test_step_jacobian_equals_autograd(g):
    W, h_prev, u = (
        torch.randn(5, 5, generator=g, dtype=torch.float64),
        torch.randn(5, dtype=torch.float64),
        torch.randn(5, dtype=torch.float64),
    )
    h = torch.tanh(W @ h_prev + u)
    want = torch.autograd.functional.jacobian(lambda hp: torch.tanh(W @ hp + u), h_prev)
    assert_close(bptt.step_jacobian(h, W), want)


def test_jacobian_product_equals_autograd(g):
    W = helpers.matrix_with_spectral_radius(6, 1.1, generator=g).double()
    x, W_xh = (
        torch.randn(12, 3, generator=g, dtype=torch.float64),
        torch.randn(6, 3, generator=g, dtype=torch.float64),
    )
    h0 = torch.randn(6, generator=g, dtype=torch.float64)
    want = torch.autograd.functional.jacobian(
        lambda h: bptt.hidden_states(W, 12, x=x, W_xh=W_xh, h0=h)[-1], h0
    )
    assert_close(bptt.jacobian_product(W, 12, x=x, W_xh=W_xh, h0=h0), want)
    norms = helpers.jacobian_norms(W, 12, x=x, W_xh=W_xh, h0=h0)
    assert norms[-1].item() == pytest.approx(torch.linalg.matrix_norm(want, ord=2).item(), rel=1e-9)


@pytest.mark.parametrize("every", [1, 3, 7])
def test_strided_norms_are_a_subset_of_the_full_curve(every, g):
    full = bptt.gradient_norms(1.05, 20, d=8, kind="gaussian", nonlinearity="tanh")
    part = bptt.gradient_norms(1.05, 20, d=8, kind="gaussian", nonlinearity="tanh", every=every)
    ks = [min(k, 20) for k in range(every, 20 + every, every)]
    assert_close(part, full[[k - 1 for k in ks]])


def test_curriculum_numbers_for_orthogonal_linear_rnn():
    at = {rho: bptt.gradient_norms(rho, 200) for rho in (0.9, 1.0, 1.1)}
    assert at[0.9][49].item() == pytest.approx(0.9**50, rel=1e-4)
    assert at[1.0][199].item() == pytest.approx(1.0, rel=1e-4)
    assert at[1.1][199].item() == pytest.approx(1.1**200, rel=1e-4)


def test_tanh_with_unit_inputs_vanishes_even_above_one():
    assert bptt.gradient_norms(1.1, 100, nonlinearity="tanh")[-1] < 1e-6


def test_float32_underflows_where_float64_does_not():
    W = 0.5 * torch.eye(4)
    assert bptt.naive_product_norm(W, 200, torch.float32) == 0.0
    assert bptt.naive_product_norm(W, 200, torch.float64) == pytest.approx(0.5**200)


def test_non_normal_trap():
    W = torch.tensor([[0.9, 5.0], [0.0, 0.9]])
    norms = bptt.power_norms(W, 60)
    assert helpers.spectral_radius(W) == pytest.approx(0.9)
    assert 15 < norms[5] < 18 and norms[60] < 1


def test_input_gradients_decay_with_distance(g):
    W = helpers.matrix_with_spectral_radius(16, 0.9, kind="orthogonal", generator=g)
    grads = bptt.input_gradient_norms(W, 40)
    assert grads.shape == (40,) and grads[0] < 1e-6 * grads[-1]


def test_gradient_widget_draws_overflow_as_a_marker():
    explorer = bptt.explore_gradient_norms()
    assert repr(explorer) == "Explorer(gradient_norms: eigenvalue, sequence length)"
    explorer.controls["eigenvalue"].value = 1.5
    explorer.controls["seq_len"].value = 300
    ax = explorer.result.axes[0]
    assert explorer.error is None
    assert max(ax.get_ylim()) > 1e40  # 1.5^300 ~ 1e53: drawn, not dropped
    explorer.controls["eigenvalue"].value = 0.5
    assert max(ax.get_ylim()) > max(explorer.result.axes[0].get_ylim())


def test_overflow_is_marked_not_dropped():
    fig = bptt.plot_gradient_norms(1.5, 300, d=8)  # fine; now force float64 overflow:
    norms = bptt.gradient_norms(12.0, 300, d=8)  # 12^300 > 1.8e308
    assert math.isinf(norms[-1]) and not norms.isnan().any()
    ax = fig.axes[0]
    helpers.plots.finite_or_marked(ax, range(1, 301), norms, label="x")
    assert helpers.plots.OVERFLOW_LABEL in ax.get_legend_handles_labels()[1]


def test_non_normal_widget_changes_with_coupling():
    explorer = bptt.explore_non_normal()
    peak = lambda: max(explorer.result.axes[0].lines[0].get_ydata())
    explorer.controls["coupling"].value = 0.0
    flat = peak()
    explorer.controls["coupling"].value = 10.0
    assert flat == pytest.approx(1.0) and peak() > 30


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: bptt.plot_gradient_norms(0.0, 10), "eigenvalue"),
        (lambda: bptt.plot_gradient_norms(1.0, 0), "seq_len"),
        (lambda: bptt.plot_non_normal(eigenvalue=2.0), "eigenvalue"),
        (lambda: bptt.step_jacobian(torch.ones(3), torch.ones(3, 2)), "W_hh"),
        (lambda: bptt.jacobian_product(torch.eye(3), 0), "T"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)


def test_exercises(capsys):
    helpers.check("linear_rnn_jacobian", lambda W, T: torch.linalg.matrix_power(W, T))
    helpers.check("tanh_step_jacobian", lambda h, W: torch.diag(1 - h**2) @ W)
    helpers.check("vanishing_bound", 0.9**50)
    assert capsys.readouterr().out.count("correct") == 3
    helpers.check("tanh_step_jacobian", lambda h, W: W * (1 - h**2))  # columns, not rows
    assert "not yet" in capsys.readouterr().out
