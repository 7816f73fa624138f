"""helpers.jacobians: the Jacobian products and norms against autograd."""

import pytest
import torch
from torch.testing import assert_close

import helpers
from helpers import jacobians


def test_step_jacobian_equals_autograd(g):
    W, h_prev, u = (
        torch.randn(5, 5, generator=g, dtype=torch.float64),
        torch.randn(5, dtype=torch.float64),
        torch.randn(5, dtype=torch.float64),
    )
    h = torch.tanh(W @ h_prev + u)
    want = torch.autograd.functional.jacobian(lambda hp: torch.tanh(W @ hp + u), h_prev)
    assert_close(jacobians.step_jacobian(h, W), want)


def test_jacobian_product_equals_autograd(g):
    W = helpers.matrix_with_spectral_radius(6, 1.1, generator=g).double()
    x, W_xh = (
        torch.randn(12, 3, generator=g, dtype=torch.float64),
        torch.randn(6, 3, generator=g, dtype=torch.float64),
    )
    h0 = torch.randn(6, generator=g, dtype=torch.float64)
    want = torch.autograd.functional.jacobian(
        lambda h: jacobians.hidden_states(W, 12, x=x, W_xh=W_xh, h0=h)[-1], h0
    )
    assert_close(jacobians.jacobian_product(W, 12, x=x, W_xh=W_xh, h0=h0), want)
    norms = helpers.jacobian_norms(W, 12, x=x, W_xh=W_xh, h0=h0)
    assert norms[-1].item() == pytest.approx(torch.linalg.matrix_norm(want, ord=2).item(), rel=1e-9)


def test_float32_underflows_where_float64_does_not():
    W = 0.5 * torch.eye(4)
    assert jacobians.naive_product_norm(W, 200, torch.float32) == 0.0
    assert jacobians.naive_product_norm(W, 200, torch.float64) == pytest.approx(0.5**200)


def test_non_normal_trap():
    W = torch.tensor([[0.9, 5.0], [0.0, 0.9]])
    norms = jacobians.power_norms(W, 60)
    assert helpers.spectral_radius(W) == pytest.approx(0.9)
    assert 15 < norms[5] < 18 and norms[60] < 1


def test_exercises(capsys):
    helpers.check("linear_rnn_jacobian", lambda W, T: torch.linalg.matrix_power(W, T))
    helpers.check("tanh_step_jacobian", lambda h, W: torch.diag(1 - h**2) @ W)
    helpers.check("vanishing_bound", 0.9**50)
    assert capsys.readouterr().out.count("correct") == 3
    helpers.check("tanh_step_jacobian", lambda h, W: W * (1 - h**2))  # columns, not rows
    assert "not yet" in capsys.readouterr().out
