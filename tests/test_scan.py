"""The parallel scan of a linear recurrence equals the sequential loop."""

import pytest
import torch
from torch.testing import assert_close

from helpers.scan import combine, linear_recurrence_loop, linear_recurrence_scan, scan_steps


@pytest.mark.parametrize("N", [1, 2, 3, 7, 8, 100, 1000])
def test_scan_equals_loop(N, g):
    a, b = (
        torch.rand(N, 3, 5, generator=g, dtype=torch.float64),
        torch.randn(N, 3, 5, generator=g, dtype=torch.float64),
    )
    h, steps = linear_recurrence_scan(a, b, return_steps=True)
    assert h.shape == (N, 3, 5)
    assert_close(h, linear_recurrence_loop(a, b), atol=1e-12, rtol=1e-10)
    assert steps == scan_steps(N)


def test_scan_with_initial_state_and_float32(g):
    a, b, h0 = torch.rand(64, 4, generator=g), torch.randn(64, 4, generator=g), torch.randn(4, generator=g)
    assert_close(linear_recurrence_scan(a, b, h0), linear_recurrence_loop(a, b, h0), atol=1e-5, rtol=1e-5)


def test_loop_is_the_recurrence_written_out():
    a, b = torch.tensor([0.5, 2.0, -1.0]), torch.tensor([1.0, 1.0, 3.0])
    # h0 = 0: h = 1, 2*1+1 = 3, -3+3 = 0
    assert torch.equal(linear_recurrence_loop(a, b), torch.tensor([1.0, 3.0, 0.0]))


def test_combine_is_associative_and_means_one_step_then_the_other(g):
    steps = [(torch.rand(4, generator=g), torch.randn(4, generator=g)) for _ in range(3)]
    s1, s2, s3 = steps
    assert_close(combine(combine(s1, s2), s3), combine(s1, combine(s2, s3)))
    h = torch.randn(4, generator=g)
    a, b = combine(s1, s2)
    assert_close(a * h + b, s2[0] * (s1[0] * h + s1[1]) + s2[1])


def test_scan_steps_is_log2():
    assert [scan_steps(n) for n in (1, 2, 3, 4, 5, 1000, 1024, 1025)] == [0, 1, 2, 2, 3, 10, 10, 11]


def test_gradients_flow_through_the_scan(g):
    a = torch.rand(16, 2, generator=g, requires_grad=True)
    b = torch.randn(16, 2, generator=g, requires_grad=True)
    ga = torch.autograd.grad(linear_recurrence_scan(a, b).sum(), (a, b))
    gl = torch.autograd.grad(linear_recurrence_loop(a, b).sum(), (a, b))
    assert_close(ga, gl, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize(
    "a, b", [(torch.ones(3), torch.ones(4)), (torch.tensor(1.0), torch.tensor(1.0)), ([1.0], torch.ones(1))]
)
def test_bad_shapes_raise(a, b):
    with pytest.raises(ValueError, match="a|b"):
        linear_recurrence_scan(a, b)
    with pytest.raises(ValueError):
        linear_recurrence_loop(a, b)


def test_scan_steps_rejects_non_positive():
    with pytest.raises(ValueError, match="N"):
        scan_steps(0)
