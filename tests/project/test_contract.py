"""The helpers contract: every from-scratch piece equals PyTorch's own (float32, atol 1e-5)."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

import helpers
from conftest import ATOL
from helpers.lstm import lstm_weights
from helpers.rnn import rnn_weights


def test_set_seed_seeds_everything_and_returns_a_generator():
    import random

    import numpy as np

    gen = helpers.set_seed(123)
    a = (random.random(), np.random.rand(), torch.rand(1).item(), torch.rand(1, generator=gen).item())
    gen = helpers.set_seed(123)
    b = (random.random(), np.random.rand(), torch.rand(1).item(), torch.rand(1, generator=gen).item())
    assert a == b
    assert isinstance(gen, torch.Generator) and gen.initial_seed() == 123


def test_spectral_radius_of_known_matrices():
    assert helpers.spectral_radius(torch.diag(torch.tensor([0.5, -2.0, 1.0]))) == pytest.approx(2.0)
    rotation = torch.tensor([[0.0, -1.5], [1.5, 0.0]])  # eigenvalues +-1.5i
    assert helpers.spectral_radius(rotation) == pytest.approx(1.5)


@pytest.mark.parametrize("kind", ["gaussian", "orthogonal"])
@pytest.mark.parametrize("rho", [0.5, 1.0, 1.3])
def test_matrix_with_spectral_radius(kind, rho, g):
    W = helpers.matrix_with_spectral_radius(64, rho, kind=kind, generator=g)
    assert W.shape == (64, 64)
    assert abs(helpers.spectral_radius(W) - rho) / rho < 1e-4
    s = torch.linalg.svdvals(W.double())
    if kind == "orthogonal":
        assert_close(s, torch.full_like(s, rho), atol=1e-5, rtol=1e-5)
    else:
        assert s.max() > 1.2 * rho  # a Gaussian matrix is non-normal: sigma_max > rho


def test_matrix_with_spectral_radius_is_reproducible():
    a = helpers.matrix_with_spectral_radius(8, 0.9, generator=torch.Generator().manual_seed(1))
    b = helpers.matrix_with_spectral_radius(8, 0.9, generator=torch.Generator().manual_seed(1))
    assert torch.equal(a, b)


def test_rnn_step_equals_rnncell(g):
    cell = torch.nn.RNNCell(5, 7)
    x, h = torch.randn(3, 5, generator=g), torch.randn(3, 7, generator=g)
    assert_close(helpers.rnn_step(x, h, *rnn_weights(cell)), cell(x, h), **ATOL)


def test_rnn_forward_equals_nn_rnn(g):
    rnn = torch.nn.RNN(5, 7, batch_first=True)
    x, h0 = torch.randn(3, 11, 5, generator=g), torch.randn(3, 7, generator=g)
    H, h_T = helpers.rnn_forward(x, *rnn_weights(rnn), h0=h0)
    H_ref, h_ref = rnn(x, h0[None])
    assert H.shape == (3, 11, 7)
    assert_close(H, H_ref, **ATOL)
    assert_close(h_T, h_ref[0], **ATOL)
    assert_close(helpers.rnn_forward(x, *rnn_weights(rnn))[0], rnn(x)[0], **ATOL)  # h0 = zeros


def _autograd_jacobian_norms(W, T, nonlinearity, x=None, W_xh=None):
    """||dh_k/dh_0||_2 by autograd, float64, for small T (the reference)."""
    W = W.double()
    phi = torch.tanh if nonlinearity == "tanh" else (lambda a: a)

    def h_k(h0, k):
        h = h0
        for t in range(k):
            drive = 0 if x is None else W_xh.double() @ x[t].double()
            h = phi(W @ h + drive)
        return h

    h0 = torch.zeros(W.shape[0], dtype=torch.float64)
    return torch.tensor(
        [
            torch.linalg.matrix_norm(
                torch.autograd.functional.jacobian(lambda h, k=k: h_k(h, k), h0), ord=2
            ).item()
            for k in range(1, T + 1)
        ],
        dtype=torch.float64,
    )


@pytest.mark.parametrize("nonlinearity", ["tanh", "linear"])
def test_jacobian_norms_equal_autograd(nonlinearity, g):
    W = helpers.matrix_with_spectral_radius(6, 1.2, generator=g)
    W_xh = torch.randn(6, 3, generator=g)
    x = torch.randn(8, 3, generator=g)
    ours = helpers.jacobian_norms(W, 8, nonlinearity=nonlinearity, x=x, W_xh=W_xh)
    assert ours.dtype == torch.float64 and ours.shape == (8,)
    assert_close(ours, _autograd_jacobian_norms(W, 8, nonlinearity, x, W_xh), atol=1e-9, rtol=1e-7)


def test_linear_jacobian_norms_are_matrix_power_norms(g):
    W = helpers.matrix_with_spectral_radius(5, 0.8, generator=g).double()
    want = torch.tensor(
        [torch.linalg.matrix_norm(torch.linalg.matrix_power(W, k), ord=2).item() for k in range(1, 13)],
        dtype=torch.float64,
    )
    assert_close(helpers.jacobian_norms(W, 12, nonlinearity="linear"), want, atol=1e-10, rtol=1e-8)


def test_orthogonal_linear_recurrence_keeps_norm_one(g):
    W = helpers.matrix_with_spectral_radius(32, 1.0, kind="orthogonal", generator=g)
    assert_close(
        helpers.jacobian_norms(W, 300, nonlinearity="linear"),
        torch.ones(300, dtype=torch.float64),
        atol=1e-4,
        rtol=1e-4,
    )


def test_jacobian_norms_never_nan_at_extremes(g):
    big = helpers.matrix_with_spectral_radius(16, 10.0, kind="orthogonal", generator=g)
    small = helpers.matrix_with_spectral_radius(16, 0.05, kind="orthogonal", generator=g)
    up = helpers.jacobian_norms(big, 500, nonlinearity="linear")  # 10^500: beyond float64
    down = helpers.jacobian_norms(small, 500, nonlinearity="linear")  # 0.05^500: below it
    assert not up.isnan().any() and not down.isnan().any()
    assert math.isinf(up[-1]) and up[100] == pytest.approx(1e101, rel=1e-3)
    assert down[-1] == 0.0 and down[100] == pytest.approx(0.05**101, rel=1e-3)
    zero = helpers.jacobian_norms(torch.zeros(4, 4), 5)
    assert torch.equal(zero, torch.zeros(5, dtype=torch.float64))


def test_lstm_step_equals_lstmcell(g):
    cell = torch.nn.LSTMCell(5, 7)
    x, h, c = (torch.randn(3, n, generator=g) for n in (5, 7, 7))
    h_t, c_t, gates = helpers.lstm_step(x, h, c, *lstm_weights(cell))
    h_ref, c_ref = cell(x, (h, c))
    assert_close(h_t, h_ref, **ATOL)
    assert_close(c_t, c_ref, **ATOL)
    assert gates._fields == ("i", "f", "g", "o")
    assert_close(c_t, gates.f * c + gates.i * gates.g, **ATOL)
    assert all(0 < v.min() and v.max() < 1 for v in (gates.i, gates.f, gates.o))


def test_forget_gate_is_the_second_slice(g):
    cell = torch.nn.LSTMCell(3, 4)
    with torch.no_grad():
        cell.bias_ih[4:8] = 50.0  # forget bias huge -> f = 1
    x, h, c = torch.randn(2, 3, generator=g), torch.randn(2, 4, generator=g), torch.randn(2, 4, generator=g)
    _, _, gates = helpers.lstm_step(x, h, c, *lstm_weights(cell))
    assert_close(gates.f, torch.ones_like(gates.f))


@pytest.mark.parametrize("mask_kind", [None, "causal", "padding"])
def test_sdpa_equals_torch(mask_kind, g):
    q, k, v = (
        torch.randn(2, 3, 6, 8, generator=g),
        torch.randn(2, 3, 6, 8, generator=g),
        torch.randn(2, 3, 6, 5, generator=g),
    )
    mask = {
        None: None,
        "causal": helpers.causal_mask(6),
        "padding": torch.tensor([True] * 4 + [False] * 2).expand(6, 6),
    }[mask_kind]
    out, weights = helpers.scaled_dot_product_attention(q, k, v, mask)
    assert_close(out, F.scaled_dot_product_attention(q, k, v, attn_mask=mask), **ATOL)
    assert weights.shape == (2, 3, 6, 6)
    assert_close(weights.sum(-1), torch.ones(2, 3, 6), **ATOL)


def test_sdpa_different_query_and_key_lengths(g):
    q, k, v = (
        torch.randn(4, 3, 8, generator=g),
        torch.randn(4, 9, 8, generator=g),
        torch.randn(4, 9, 2, generator=g),
    )
    out, weights = helpers.scaled_dot_product_attention(q, k, v)
    assert out.shape == (4, 3, 2) and weights.shape == (4, 3, 9)
    assert_close(out, F.scaled_dot_product_attention(q, k, v), **ATOL)


def test_causal_mask():
    m = helpers.causal_mask(4)
    assert m.dtype == torch.bool and m.shape == (4, 4)
    assert torch.equal(
        m, torch.tensor([[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]], dtype=torch.bool)
    )
    x = torch.randn(1, 4, 8)
    assert_close(
        F.scaled_dot_product_attention(x, x, x, attn_mask=m),
        F.scaled_dot_product_attention(x, x, x, is_causal=True),
        **ATOL,
    )


@pytest.mark.parametrize("n_heads", [1, 2, 4, 8])
def test_multihead_equals_nn_multiheadattention(n_heads, g):
    mha = torch.nn.MultiheadAttention(16, n_heads, batch_first=True)
    ours = helpers.MultiHeadSelfAttention.from_torch(mha)
    x = torch.randn(3, 7, 16, generator=g)
    out, weights = ours(x)
    assert_close(out, mha(x, x, x, need_weights=False)[0], **ATOL)
    assert weights.shape == (3, n_heads, 7, 7)
    ref_w = mha(x, x, x, need_weights=True, average_attn_weights=False)[1]
    assert_close(weights, ref_w, **ATOL)


def test_multihead_causal_mask_convention(g):
    """Ours: True = may attend. nn.MultiheadAttention's attn_mask: True = may NOT attend."""
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    ours = helpers.MultiHeadSelfAttention.from_torch(mha)
    x = torch.randn(2, 5, 8, generator=g)
    mask = helpers.causal_mask(5)
    assert_close(ours(x, mask)[0], mha(x, x, x, attn_mask=~mask, need_weights=False)[0], **ATOL)


def test_sinusoidal_positional_encoding():
    pe = helpers.sinusoidal_positional_encoding(50, 16)
    assert pe.shape == (50, 16)
    for p in (0, 7, 49):
        for i in range(8):
            angle = p / 10000 ** (2 * i / 16)
            assert pe[p, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-6)
            assert pe[p, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-6)
    assert helpers.sinusoidal_positional_encoding(3, 5).shape == (3, 5)  # odd d_model works


# --- bad input: each promised ValueError, with a message that names the problem ---------


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: helpers.set_seed(-1), "seed"),
        (lambda: helpers.set_seed(1.5), "seed"),
        (lambda: helpers.spectral_radius(torch.ones(2, 3)), "square"),
        (lambda: helpers.matrix_with_spectral_radius(4, -0.1), "rho"),
        (lambda: helpers.matrix_with_spectral_radius(0, 0.9), "n"),
        (lambda: helpers.matrix_with_spectral_radius(4, 0.9, kind="unitary"), "kind"),
        (lambda: helpers.matrix_with_spectral_radius(4, float("nan")), "rho"),
        (lambda: helpers.jacobian_norms(torch.eye(3), 0), "T"),
        (lambda: helpers.jacobian_norms(torch.eye(3), 5, nonlinearity="relu"), "nonlinearity"),
        (lambda: helpers.jacobian_norms(torch.ones(3, 2), 5), "square"),
        (
            lambda: helpers.rnn_step(
                torch.ones(2, 4), torch.ones(2, 3), torch.ones(3, 5), torch.ones(3, 3), torch.zeros(3)
            ),
            "x_t",
        ),
        (
            lambda: helpers.rnn_forward(torch.ones(2, 4), torch.ones(3, 4), torch.ones(3, 3), torch.zeros(3)),
            "(B, T, d_in)",
        ),
        (
            lambda: helpers.lstm_step(
                torch.ones(2, 4),
                torch.ones(2, 3),
                torch.ones(2, 3),
                torch.ones(8, 4),
                torch.ones(8, 3),
                torch.zeros(8),
            ),
            "4 gates",
        ),
        (
            lambda: helpers.scaled_dot_product_attention(
                torch.ones(2, 3, 4), torch.ones(2, 3, 5), torch.ones(2, 3, 4)
            ),
            "(2, 3, 4)",
        ),
        (
            lambda: helpers.scaled_dot_product_attention(
                torch.ones(2, 3, 4), torch.ones(2, 3, 4), torch.ones(2, 6, 4)
            ),
            "(2, 6, 4)",
        ),
        (
            lambda: helpers.scaled_dot_product_attention(
                torch.ones(3, 4), torch.ones(3, 4), torch.ones(3, 4), torch.ones(3, 3)
            ),
            "boolean",
        ),
        (lambda: helpers.causal_mask(0), "L"),
        (lambda: helpers.MultiHeadSelfAttention(10, 3), "d_model=10"),
        (lambda: helpers.MultiHeadSelfAttention.from_torch(torch.nn.MultiheadAttention(8, 2)), "batch_first"),
        (lambda: helpers.sinusoidal_positional_encoding(0, 4), "T"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError, match=None) as info:
        call()
    assert words in str(info.value)


def test_multihead_error_names_both_numbers():
    with pytest.raises(ValueError) as info:
        helpers.MultiHeadSelfAttention(10, 3)
    assert "10" in str(info.value) and "3" in str(info.value)
