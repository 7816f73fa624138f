"""helpers.jacobians: the Jacobian products and norms against autograd."""

import math

import numpy as np
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


@pytest.mark.parametrize("every", [1, 4])
def test_product_norms_equal_the_products_multiplied_out(every, g):
    """A batch of three products diag(s_k) W_b ... diag(s_1) W_b, multiplied out plainly by torch."""
    B, T, d = 3, 10, 5
    W = torch.randn(B, d, d, generator=g, dtype=torch.float64)
    slopes = torch.rand(B, T, d, generator=g, dtype=torch.float64)
    want = torch.empty(B, T, dtype=torch.float64)
    for b in range(B):
        P = torch.eye(d, dtype=torch.float64)
        for k in range(T):
            P = torch.diag(slopes[b, k]) @ W[b] @ P
            want[b, k] = torch.linalg.matrix_norm(P, ord=2)
    ks = [min(k, T) for k in range(every, T + every, every)]
    assert_close(jacobians.product_norms(W, slopes, every), want[:, [k - 1 for k in ks]], rtol=1e-12, atol=0)


def test_product_norms_batch_equals_one_at_a_time(g):
    W = torch.stack([helpers.matrix_with_spectral_radius(8, r, generator=g) for r in (0.8, 1.2)])
    x = torch.randn(30, 8, generator=g, dtype=torch.float64)
    one = [helpers.jacobian_norms(w, 30, x=x, W_xh=torch.eye(8)) for w in W]
    slopes = torch.stack([1 - jacobians.hidden_states(w, 30, x=x, W_xh=torch.eye(8)) ** 2 for w in W])
    assert_close(jacobians.product_norms(W, slopes), torch.stack(one), rtol=1e-12, atol=0)


def test_product_norms_past_float64_are_inf_or_zero_never_nan():
    W = torch.stack([10 * torch.eye(3), 0.05 * torch.eye(3), torch.eye(3)]).double()
    slopes = torch.ones(3, 400, 3, dtype=torch.float64)
    slopes[2, 5:] = 0.0  # the third product is exactly 0 from step 6 on
    norms = jacobians.product_norms(W, slopes)
    assert not norms.isnan().any()
    assert math.isinf(norms[0, -1]) and norms[0, 300] == pytest.approx(10.0**301)
    assert norms[1, -1] == 0 and norms[1, 99] == pytest.approx(0.05**100)
    assert norms[2, 4] == 1 and (norms[2, 5:] == 0).all()


def test_weight_gradient_by_step_equals_autograd_with_one_copy_of_w_hh_per_step(g):
    """Give every step its own copy of W_hh: autograd's gradient of copy k is step k's term."""
    T, d = 9, 5
    W = helpers.matrix_with_spectral_radius(d, 1.1, generator=g).double()
    x, W_xh = torch.randn(T, 3, generator=g, dtype=torch.float64), torch.randn(d, 3, generator=g).double()
    h0 = torch.randn(d, generator=g, dtype=torch.float64)
    copies = [W.clone().requires_grad_() for _ in range(T)]
    h = h0
    for k in range(T):
        h = torch.tanh(copies[k] @ h + W_xh @ x[k])
    h.sum().backward()
    terms = jacobians.weight_gradient_by_step(W, x, W_xh, h0=h0)
    assert_close(terms, torch.stack([c.grad for c in copies]))
    W_shared = W.clone().requires_grad_()  # and the terms add up to the shared weight's gradient
    jacobians.hidden_states(W_shared, T, x=x, W_xh=W_xh, h0=h0)[-1].sum().backward()
    assert_close(terms.sum(0), W_shared.grad)


def test_weight_gradient_first_term_is_zero_from_a_zero_state(g):
    x = torch.randn(6, 4, generator=g, dtype=torch.float64)
    terms = jacobians.weight_gradient_by_step(torch.eye(4) * 0.9, x, torch.eye(4))
    assert terms.shape == (6, 4, 4) and (terms[0] == 0).all() and terms[1].abs().max() > 0


@pytest.mark.parametrize("first", [1, 7])
def test_log_growth_rate_of_a_geometric_sequence_and_against_numpy(first, g):
    ks = torch.arange(1, 41, dtype=torch.float64)
    assert jacobians.log_growth_rate(3.0 * 0.9**ks, first) == pytest.approx(math.log(0.9), rel=1e-10)
    noisy = 0.9**ks * torch.exp(0.3 * torch.randn(40, generator=g, dtype=torch.float64))
    slope = np.polyfit(ks[first - 1 :].numpy(), noisy[first - 1 :].log().numpy(), 1)[0]
    assert jacobians.log_growth_rate(noisy, first) == pytest.approx(slope, rel=1e-9)


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


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: jacobians.product_norms(torch.eye(3), torch.ones(1, 4, 3)), "W_hh must be (B, d, d)"),
        (lambda: jacobians.product_norms(torch.eye(3)[None], torch.ones(1, 0, 3)), "slopes"),
        (lambda: jacobians.product_norms(torch.eye(3)[None], torch.ones(1, 4, 3), every=0), "every"),
        (lambda: jacobians.log_growth_rate(torch.ones(5), first=5), "first"),
        (lambda: jacobians.log_growth_rate(torch.tensor([1.0, 0.0, 1.0])), "finite and > 0"),
        (lambda: jacobians.log_growth_rate([1.0, 2.0]), "norms"),
        (lambda: jacobians.weight_gradient_by_step(torch.eye(3), torch.ones(3), torch.eye(3)), "x"),
        (lambda: jacobians.weight_gradient_by_step(torch.ones(3, 2), torch.ones(4, 3), torch.eye(3)), "W_hh"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)
