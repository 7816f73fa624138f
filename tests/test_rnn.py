"""helpers.rnn against torch.nn: the step, the sequence, the chain alone, Newton's method over all t."""

import ast
import inspect
import math
import pathlib
import textwrap

import pytest
import torch
from torch.testing import assert_close

import helpers
from conftest import ATOL
from helpers import rnn
from helpers.course.languages import verdict
from helpers.measure import count_flops
from helpers.rnn import rnn_weights

ROOT = pathlib.Path(__file__).resolve().parents[1]
MATMULS = {"matmul", "mm", "bmm", "addmm", "baddbmm", "linear", "einsum"}
CODE_LINES = lambda fn: textwrap.dedent(inspect.getdoc(fn).split("\n\n")[1])  # a docstring's 2nd paragraph


def nn_rnn_with(cell: torch.nn.RNNCell) -> torch.nn.RNN:
    """A torch.nn.RNN (batch first) with the weights of `cell`."""
    layer = torch.nn.RNN(cell.input_size, cell.hidden_size, batch_first=True)
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(layer, name + "_l0").copy_(getattr(cell, name))
    return layer


def test_rnn_step_and_tanh_step_equal_nn_rnncell(g):
    cell = torch.nn.RNNCell(4, 6)
    x, h = torch.randn(3, 4, generator=g), torch.randn(3, 6, generator=g)
    W_xh, W_hh, b = rnn_weights(cell)
    with torch.no_grad():
        assert_close(helpers.rnn_step(x, h, W_xh, W_hh, b), cell(x, h), **ATOL)
        assert_close(rnn.tanh_step(rnn.input_projection(x, W_xh, b), h, W_hh), cell(x, h), **ATOL)
        namespace = dict(torch=torch, x_t=x, h_prev=h, W_xh=W_xh, W_hh=W_hh, b=b)
        exec(CODE_LINES(rnn.rnn_step), namespace)  # the formula its docstring shows (solution prints it)
        assert_close(namespace["h_t"], cell(x, h), **ATOL)


def test_tanh_step_takes_one_weight_per_member_and_an_unbatched_state(g):
    W, u, h = (
        torch.randn(3, 5, 5, generator=g),
        torch.randn(3, 2, 5, generator=g),
        torch.randn(3, 2, 5, generator=g),
    )
    ensemble = rnn.tanh_step(u, h, W)  # (M, B, d): member m with its own W[m]
    for m in range(3):
        assert_close(ensemble[m], torch.tanh(u[m] + h[m] @ W[m].T))
    assert_close(rnn.tanh_step(u[0, 0], h[0, 0], W[0]), torch.tanh(W[0] @ h[0, 0] + u[0, 0]))  # (d,): W h


def test_tanh_tangent_step_is_forward_mode_autograd(g):
    W, u, h = (torch.randn(*s, dtype=torch.float64, generator=g) for s in ((5, 5), (1, 5), (1, 5)))
    dh, du = (
        torch.randn(3, 5, dtype=torch.float64, generator=g),
        torch.randn(3, 5, dtype=torch.float64, generator=g),
    )
    h_t, dh_t = rnn.tanh_tangent_step(u, h, W, dh, du)
    for j in range(3):  # direction j: one jvp
        out, tangent = torch.func.jvp(
            lambda u, h: rnn.tanh_step(u, h, W), (u, h), (du[j : j + 1], dh[j : j + 1])
        )
        assert_close(h_t, out)
        assert_close(dh_t[j : j + 1], tangent)


def code_calls(name: str, inside=lambda node: False):
    """(file, line) of every call of `name` (torch.tanh(...), x.tanh(), ...) in helpers/ and the notebook
    sources whose arguments, or receiver, contain a node for which `inside` is true. Code only: docstrings
    and comments are not calls."""
    found = []
    for path in sorted([*ROOT.glob("helpers/**/*.py"), *ROOT.glob("notebooks/sources/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None)) == name
            ):
                if any(inside(sub) for sub in ast.walk(node) if sub is not node):
                    found.append((str(path.relative_to(ROOT)), node.lineno))
    return found


def is_matmul(node) -> bool:
    """A matrix product: a @ b, or a call of matmul, mm, bmm, addmm, baddbmm, linear."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return True
    return (
        isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in MATMULS
    )


def test_nothing_else_writes_the_tanh_step():
    """tanh of a matrix product is the tanh RNN's step: written once, in tanh_step (via pre_activation)."""
    assert code_calls("tanh", is_matmul) == []
    of_pre_activation = lambda n: isinstance(n, ast.Call) and getattr(n.func, "id", None) == "pre_activation"
    [(path, _)] = code_calls("tanh", of_pre_activation)  # the scan finds the one step, and only it
    assert path == "helpers/rnn.py"


def test_rnn_forward_equals_nn_rnn(g):
    cell = torch.nn.RNNCell(4, 6)
    x = torch.randn(2, 9, 4, generator=g)
    H, h_T = helpers.rnn_forward(x, *rnn_weights(cell))
    H_ref, h_ref = nn_rnn_with(cell)(x)
    assert_close(H, H_ref, **ATOL)
    assert_close(h_T, h_ref[0], **ATOL)


def test_rnn_chain_is_nn_rnn_given_the_projected_inputs(g):
    layer = torch.nn.RNN(5, 5, batch_first=True, bias=False)
    with torch.no_grad():
        layer.weight_ih_l0.copy_(torch.eye(5))  # nn.RNN's input projection does nothing: U goes in as is
    U = torch.randn(3, 8, 5, generator=g)
    assert_close(rnn.rnn_chain(U, layer.weight_hh_l0.detach()), layer(U)[0].detach(), **ATOL)


def newton_case(g, scale: float = 1.0, N: int = 40, d: int = 5):
    """A float64 RNN: nn.RNN, its projected inputs U (1, N, d) and its W_hh times `scale`."""
    layer = torch.nn.RNN(3, d, batch_first=True).double()
    with torch.no_grad():
        layer.weight_hh_l0.mul_(scale)
    x = torch.randn(1, N, 3, generator=g, dtype=torch.float64)
    W_xh, W_hh, b = rnn_weights(layer)
    return layer, x, x @ W_xh.T + b, W_hh


def test_rnn_newton_equals_nn_rnn_in_fewer_iterations_than_steps(g):
    layer, x, U, W_hh = newton_case(g)
    H, changes = rnn.rnn_newton(U, W_hh)
    assert_close(H, layer(x)[0].detach(), atol=1e-12, rtol=0)
    assert changes[-1] <= 1e-12 and len(changes) < 40 // 2


def test_rnn_newton_makes_the_first_k_states_exact_in_k_iterations(g):
    layer, x, U, W_hh = newton_case(g, scale=6.0, N=12)  # an expanding RNN: no fast convergence
    H_ref = layer(x)[0].detach()
    for k in (1, 3, 7, 12):
        H = rnn.rnn_newton(U, W_hh, tol=0.0, max_iterations=k)[0]
        assert_close(H[:, :k], H_ref[:, :k], atol=1e-9, rtol=0)
    assert not torch.allclose(rnn.rnn_newton(U, W_hh, tol=0.0, max_iterations=3)[0], H_ref, atol=1e-3)


@pytest.mark.parametrize("B, N, d", [(1, 100, 4), (2, 7, 3), (3, 2, 5), (1, 64, 3), (1, 65, 2), (2, 1, 3)])
def test_rnn_newton_flops_match_the_flop_counter(g, B, N, d):
    U, W = torch.randn(B, N, d, generator=g), 0.3 * torch.randn(d, d, generator=g)
    iterations = len(rnn.rnn_newton(U, W, max_iterations=3)[1])
    assert count_flops(lambda: rnn.rnn_newton(U, W, max_iterations=3)) == rnn.rnn_newton_flops(
        B, N, d, iterations
    )
    assert count_flops(lambda: rnn.rnn_chain(U, W)) == 2 * B * N * d**2


def _brent_kung(A: torch.Tensor, c: torch.Tensor) -> tuple[torch.Tensor, int, int]:
    """h_t = A_t h_{t-1} + c_t (h_0 = 0) by a work-efficient two-sweep scan (Brent & Kung's, as in
    Blelloch 1990), one pair composed at a time: (h, the pairs composed, the levels)."""
    A, c, N = list(A), list(c), len(A)
    pairs = levels = 0

    def compose(i, j):  # position j's map after position i's: (A_j A_i, A_j c_i + c_j)
        A[j], c[j] = A[j] @ A[i], A[j] @ c[i] + c[j]

    stride = 1
    while stride < N:  # up-sweep
        for j in range(2 * stride - 1, N, 2 * stride):
            compose(j - stride, j)
            pairs += 1
        levels, stride = levels + 1, stride * 2
    stride //= 2
    while stride >= 1:  # down-sweep
        todo = range(3 * stride - 1, N, 2 * stride)
        for j in todo:
            compose(j - stride, j)
            pairs += 1
        levels, stride = levels + bool(todo), stride // 2
    return torch.stack(c), pairs, levels


@pytest.mark.parametrize("N", [1, 2, 7, 64, 65, 100])
def test_the_work_efficient_count_bounds_a_work_efficient_scan(g, N):
    """A two-sweep scan gives the loop's states with at most the pairs and levels rnn_newton_flops counts."""
    A, c = (
        0.5 * torch.randn(N, 3, 3, generator=g, dtype=torch.float64),
        torch.randn(N, 3, generator=g).double(),
    )
    h, loop = torch.zeros(3, dtype=torch.float64), []
    for t in range(N):
        h = A[t] @ h + c[t]
        loop.append(h)
    H, pairs, levels = _brent_kung(A, c[..., None])  # c as columns: matrix products, counted
    assert_close(H[..., 0], torch.stack(loop))
    assert pairs <= 2 * (N - 1) and levels <= 2 * math.ceil(math.log2(max(N, 1)))
    steps = 4 * N * 3**2  # each Newton iteration's work outside the scan
    scan_flops = count_flops(lambda: _brent_kung(A, c[..., None]))  # PyTorch's count of the scan
    assert steps + scan_flops <= rnn.rnn_newton_flops(1, N, 3, 1, scan="work-efficient")
    if N > 8:
        assert rnn.rnn_newton_flops(1, N, 3, 1, scan="work-efficient") < rnn.rnn_newton_flops(1, N, 3, 1)
    with pytest.raises(ValueError, match="scan must be"):
        rnn.rnn_newton_flops(1, N, 3, 1, scan="blelloch")


def test_input_projection_is_the_per_step_projection(g):
    x, W_xh, b = (
        torch.randn(3, 7, 4, generator=g),
        torch.randn(5, 4, generator=g),
        torch.randn(5, generator=g),
    )
    per_step = torch.stack([x[:, t] @ W_xh.T + b for t in range(7)], dim=1)
    assert_close(rnn.input_projection(x, W_xh, b), per_step, **ATOL)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: rnn.rnn_chain(torch.zeros(3, 4), torch.zeros(4, 4)), "U must have shape (B, N, d_h)"),
        (lambda: rnn.rnn_chain(torch.zeros(1, 0, 4), torch.zeros(4, 4)), "N >= 1"),
        (lambda: rnn.rnn_chain(torch.zeros(1, 2, 3), torch.zeros(4, 4)), "last dimension must be 4"),
        (lambda: rnn.rnn_newton(torch.zeros(3, 4), torch.zeros(4, 4)), "U must have shape (B, N, d_h)"),
        (
            lambda: helpers.rnn_forward(torch.zeros(2, 3), *rnn_weights(torch.nn.RNNCell(3, 4))),
            "(B, T, d_in)",
        ),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)


def test_exercise_references_pass(capsys):
    for name in ("rnn_step", "input_projection"):
        helpers.check(name, helpers.course.exercises.EXERCISES[name].reference)
        assert capsys.readouterr().out == f"[{name}] {verdict('correct')}\n"  # not "incorrect"
    helpers.check("stacked_depth", 101)
    assert capsys.readouterr().out == f"[stacked_depth] {verdict('correct')}\n"
    for wrong in (100, 200):
        helpers.check("stacked_depth", wrong)
        assert "not right" in capsys.readouterr().out
    helpers.check("rnn_step", lambda x, h, W_xh, W_hh, b: x @ W_xh.T + h @ W_hh.T + b)  # forgot tanh
    assert "not yet" in capsys.readouterr().out
