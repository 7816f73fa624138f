"""The parallel scan, the convolution and the chunks of a linear recurrence equal the sequential loop."""

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

from conftest import ATOL
from helpers.measure import count_flops
from helpers.scan import (
    combine,
    linear_recurrence_chunked,
    linear_recurrence_conv,
    linear_recurrence_loop,
    linear_recurrence_scan,
    scan_steps,
)


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


# ---- the convolution (S4) and the chunks (Mamba-2): the same h as the loop ---------------


@pytest.mark.parametrize("N", [1, 2, 7, 100, 1000])
def test_convolution_equals_loop_when_the_decay_is_fixed(N, g):
    a = torch.rand(3, 5, generator=g, dtype=torch.float64)  # one decay per channel, every t
    b = torch.randn(N, 3, 5, generator=g, dtype=torch.float64)
    h0 = torch.randn(3, 5, generator=g, dtype=torch.float64)
    loop = linear_recurrence_loop(a.expand_as(b), b, h0)
    assert_close(linear_recurrence_conv(a, b, h0), loop, atol=1e-12, rtol=1e-10)


def test_convolution_equals_pytorchs_conv1d(g):
    """h_t = sum_s a^(t-s) b_s is conv1d of b, padded on the left, with the flipped kernel a^k."""
    N, d = 50, 4
    a, b = (
        torch.rand(d, generator=g, dtype=torch.float64),
        torch.randn(N, d, generator=g, dtype=torch.float64),
    )
    kernel = a[:, None] ** torch.arange(N, dtype=torch.float64).flip(0)  # (d, N): a^(N-1) ... a^0
    theirs = F.conv1d(F.pad(b.T[None], (N - 1, 0)), kernel[:, None], groups=d)[0].T  # (N, d)
    assert_close(linear_recurrence_conv(a, b), theirs, atol=1e-12, rtol=1e-10)


@pytest.mark.parametrize("N, chunk", [(1, 1), (7, 1), (7, 3), (100, 7), (100, 100), (64, 200)])
def test_chunks_equal_loop_when_the_decay_is_one_number_per_step(N, chunk, g):
    a = torch.rand(N, generator=g, dtype=torch.float64) * 0.9 + 0.1  # (N,): shared by every channel
    b = torch.randn(N, 3, 5, generator=g, dtype=torch.float64)
    h0 = torch.randn(3, 5, generator=g, dtype=torch.float64)
    loop = linear_recurrence_loop(a.view(N, 1, 1).expand_as(b), b, h0)
    assert_close(linear_recurrence_chunked(a, b, chunk, h0), loop, atol=1e-12, rtol=1e-10)


def test_chunks_do_their_work_in_matrix_products(g):
    a, b = torch.rand(64, generator=g) + 0.1, torch.randn(64, 8, generator=g)
    assert count_flops(lambda: linear_recurrence_chunked(a, b, 16)) == 4 * 2 * 16 * 16 * 8  # 4 chunks
    assert count_flops(lambda: linear_recurrence_loop(a[:, None].expand_as(b), b)) == 0  # element-wise


def test_gradients_flow_through_the_convolution_and_the_chunks(g):
    a, b = torch.rand(16, generator=g) + 0.1, torch.randn(16, 2, generator=g, requires_grad=True)
    loop = torch.autograd.grad(linear_recurrence_loop(a[:, None].expand_as(b), b).sum(), b)[0]
    assert_close(torch.autograd.grad(linear_recurrence_chunked(a, b, 5).sum(), b)[0], loop, **ATOL)
    loop_fixed = torch.autograd.grad(linear_recurrence_loop(a[:2].expand(16, 2), b).sum(), b)[0]
    assert_close(torch.autograd.grad(linear_recurrence_conv(a[:2], b).sum(), b)[0], loop_fixed, **ATOL)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: linear_recurrence_conv(torch.ones(3, 4), torch.ones(5, 4)), "one decay per channel"),
        (lambda: linear_recurrence_conv([0.5], torch.ones(5, 1)), "a must be a torch.Tensor"),
        (lambda: linear_recurrence_chunked(torch.ones(5, 2), torch.ones(5, 2), 2), "one decay per step"),
        (lambda: linear_recurrence_chunked(torch.ones(4), torch.ones(5, 2), 2), "one decay per step"),
        (lambda: linear_recurrence_chunked(torch.zeros(5), torch.ones(5, 2), 2), "positive"),
        (lambda: linear_recurrence_chunked(torch.ones(5), torch.ones(5, 2), 0), "chunk"),
    ],
)
def test_bad_input_to_the_convolution_and_the_chunks_raises(call, match):
    with pytest.raises(ValueError, match=match):
        call()
