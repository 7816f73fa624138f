"""helpers.lstm against PyTorch: the cell, the sequence, the cell path, ||dh_k/dx_1||; each ValueError."""

import ast

import pytest
import torch
from test_rnn import CODE_LINES, code_calls
from torch.testing import assert_close

import helpers
from conftest import ATOL
from helpers import lstm
from helpers.course.exercises import passes
from helpers.course.languages import verdict
from helpers.lstm import lstm_weights
from helpers.notebooks import nb03_lstm_gating as nb03
from helpers.rnn import input_projection


def test_lstm_step_and_lstm_cell_step_equal_nn_lstmcell(g):
    cell = torch.nn.LSTMCell(5, 7)
    x, h, c = torch.randn(3, 5, generator=g), torch.randn(3, 7, generator=g), torch.randn(3, 7, generator=g)
    W_ih, W_hh, b = lstm_weights(cell)
    with torch.no_grad():
        h_ref, c_ref = cell(x, (h, c))
        for h_t, c_t, _ in (
            helpers.lstm_step(x, h, c, W_ih, W_hh, b),
            lstm.lstm_cell_step(input_projection(x, W_ih, b), h, c, W_hh.clone()),
        ):
            assert_close(h_t, h_ref, **ATOL)
            assert_close(c_t, c_ref, **ATOL)
        namespace = dict(torch=torch, x_t=x, h_prev=h, c_prev=c, W_ih=W_ih, W_hh=W_hh, b=b)
        exec(CODE_LINES(nb03.lstm_step_solution), namespace)  # the code its solution prints
        assert_close((namespace["h_t"], namespace["c_t"]), (h_ref, c_ref), **ATOL)


def test_lstm_cell_step_takes_one_weight_per_member(g):
    W, u = torch.randn(3, 20, 5, generator=g), torch.randn(3, 2, 20, generator=g)
    h, c = torch.randn(3, 2, 5, generator=g), torch.randn(3, 2, 5, generator=g)
    ensemble = lstm.lstm_cell_step(u, h, c, W)  # member m with its own W[m]
    for m in range(3):
        for ours, alone in zip(ensemble[:2], lstm.lstm_cell_step(u[m], h[m], c[m], W[m])[:2]):
            assert_close(ours[m], alone)


def test_lstm_tangent_step_is_forward_mode_autograd_through_nn_lstmcell(g):
    cell = torch.nn.LSTMCell(4, 6).double()
    W_ih, W_hh, b = lstm.weights64(cell)
    x, h, c = (torch.randn(1, n, dtype=torch.float64, generator=g) for n in (4, 6, 6))
    dx, dh, dc = (torch.randn(3, n, dtype=torch.float64, generator=g) for n in (4, 6, 6))
    (h_t, c_t), (dh_t, dc_t), f = lstm.lstm_tangent_step(
        input_projection(x, W_ih, b), h, c, W_hh, dh, dc, du_t=dx @ W_ih.T
    )
    for j in range(3):  # direction j: one jvp through PyTorch's cell
        out, tangent = torch.func.jvp(
            lambda x, h, c: cell(x, (h, c)), (x, h, c), (dx[j : j + 1], dh[j : j + 1], dc[j : j + 1])
        )
        assert_close((h_t, c_t), out)
        assert_close((dh_t[j : j + 1], dc_t[j : j + 1]), tangent)
    assert_close(f, lstm.lstm_cell_step(input_projection(x, W_ih, b), h, c, W_hh)[2].f)


def test_nothing_else_writes_the_lstm_gates():
    """Splitting pre-activations into the four gates is the LSTM's step: only helpers/lstm.py does it
    (lstm_cell_step, and its derivative lstm_tangent_step)."""
    four = lambda n: isinstance(n, ast.Constant) and n.value == 4
    assert {path for path, _ in code_calls("chunk", four)} == {"helpers/lstm.py"}
    assert len(code_calls("chunk", four)) == 2


def test_lstm_sequence_equals_nn_lstm():
    torch.manual_seed(0)
    layer = torch.nn.LSTM(5, 7, batch_first=True).double()
    cell = torch.nn.LSTMCell(5, 7).double()
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(cell, name).copy_(getattr(layer, name + "_l0"))
    x = torch.randn(11, 5, dtype=torch.float64)
    H, C, gates = lstm.lstm_sequence(x, *lstm_weights(cell))
    H_ref, (h_T, c_T) = layer(x[None])
    assert H.shape == C.shape == gates.f.shape == (11, 7)
    assert_close(H, H_ref[0])
    assert_close(C[-1], c_T[0, 0])


def test_checks_say_not_attempted_for_stubs_and_correct_for_lstm_step(capsys):
    def stub(*args):
        raise NotImplementedError

    helpers.check("lstm_step", stub)
    assert capsys.readouterr().out == f"[lstm_step] {verdict('not_attempted', name='lstm_step')}\n"
    right = lambda *args: lstm.lstm_step(*args)[:2]  # (h_t, c_t), the exercise's answer
    helpers.check("lstm_step", right)
    assert capsys.readouterr().out == f"[lstm_step] {verdict('correct')}\n"  # the line: not "incorrect"
    assert passes("lstm_step", right) and not passes("lstm_step", lambda *args: right(*args)[::-1])


def autograd_input_norms(cell, x):
    """||dh_k/dx_1||_F for k = 1..T by autograd through the torch cell itself (the reference)."""
    cell = cell.double()
    lstm = isinstance(cell, torch.nn.LSTMCell)

    def h_k(x1, k):
        state = None
        for t in range(k):
            state = cell(x1 if t == 0 else x[t], state)
        return state[0] if lstm else state

    jac = torch.autograd.functional.jacobian
    return torch.stack([jac(lambda x1, k=k: h_k(x1, k), x[0]).norm() for k in range(1, x.shape[0] + 1)])


@pytest.mark.parametrize("kind", [torch.nn.LSTMCell, torch.nn.RNNCell])
def test_input_gradient_norms_equal_autograd_through_torch_cells(kind, g):
    cells = [kind(5, 7), kind(5, 7)]
    x = torch.randn(2, 9, 5, dtype=torch.float64, generator=g)  # one sequence per cell
    ours = lstm.input_gradient_norms(cells, x)
    assert ours.dtype == torch.float64 and ours.shape == (2, 9)
    for m, cell in enumerate(cells):
        assert_close(ours[m], autograd_input_norms(cell, x[m]), atol=0, rtol=1e-10)
    every4 = lstm.input_gradient_norms(cells, x, every=4)  # k = 4, 8 and the last, 9
    assert_close(every4, ours[:, [3, 7, 8]], atol=0, rtol=1e-12)
    shared = lstm.input_gradient_norms(cells[:1], x[0])  # x (T, d_in): the same inputs for every cell
    assert_close(shared, ours[:1], atol=0, rtol=1e-12)


def test_input_gradient_norms_cell_path_is_the_product_of_forget_gates(g):
    cells = [lstm.set_forget_bias(torch.nn.LSTMCell(5, 6), b) for b in (0.0, 2.0)]
    x = torch.randn(12, 5, dtype=torch.float64, generator=g)
    norms, cell = lstm.input_gradient_norms(cells, x, every=3, with_cell_path=True)
    assert_close(norms, lstm.input_gradient_norms(cells, x, every=3))
    for m, c in enumerate(cells):
        b = c.bias_ih.detach().double() + c.bias_hh.detach().double()  # summed in float64, as the helper does
        _, _, gates = lstm.lstm_sequence(x, c.weight_ih.detach().double(), c.weight_hh.detach().double(), b)
        after_x1 = torch.cat([torch.ones_like(gates.f[:1]), gates.f[1:]])  # f_1 scales c_0, not x_1's path
        assert_close(cell[m], after_x1.cumprod(dim=0).max(dim=1).values[2::3], atol=0, rtol=1e-10)
    with pytest.raises(ValueError, match="cell path"):
        lstm.input_gradient_norms([torch.nn.RNNCell(5, 6)], x, with_cell_path=True)


def test_input_gradient_norms_underflow_to_zero_never_nan(g):
    cell = lstm.set_forget_bias(torch.nn.LSTMCell(4, 4), -30.0)  # f ~ 1e-13: gone in a few dozen steps
    with torch.no_grad():
        cell.weight_hh.zero_()
    norms = lstm.input_gradient_norms([cell], torch.randn(400, 4, dtype=torch.float64, generator=g))
    assert not norms.isnan().any() and norms[0, -1] == 0.0 and norms[0, 0] > 0


@pytest.mark.parametrize(
    "cells, x, every, words",
    [
        ([], torch.ones(3, 4), 1, "cells must be"),
        ([torch.nn.GRUCell(4, 2)], torch.ones(3, 4), 1, "cells must be"),
        ([torch.nn.LSTMCell(4, 2), torch.nn.RNNCell(4, 2)], torch.ones(3, 4), 1, "one kind and one size"),
        ([torch.nn.RNNCell(4, 2, nonlinearity="relu")], torch.ones(3, 4), 1, "tanh"),
        ([torch.nn.LSTMCell(4, 2)], torch.ones(3, 5), 1, "d_in = 4"),
        ([torch.nn.LSTMCell(4, 2)], torch.ones(2, 3, 4), 1, "M = 1"),
        ([torch.nn.LSTMCell(4, 2)], torch.ones(3, 4), 0, "every"),
        ([torch.nn.LSTMCell(4, 2)], [[1.0] * 4], 1, "x must be a torch.Tensor"),
    ],
)
def test_input_gradient_norms_bad_input_raises_a_clear_value_error(cells, x, every, words):
    with pytest.raises(ValueError) as info:
        lstm.input_gradient_norms(cells, x, every=every)
    assert words in str(info.value)
