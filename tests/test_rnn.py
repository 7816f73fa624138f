"""helpers.rnn against torch.nn: the step, the sequence, the parallel input projection."""

import torch
from torch.testing import assert_close

import helpers
from conftest import ATOL
from helpers import rnn
from helpers.rnn import rnn_weights


def test_rnncell_loop_equals_rnn_forward_and_nn_rnn(g):
    cell = torch.nn.RNNCell(4, 6)
    x = torch.randn(2, 9, 4, generator=g)
    H, h_T = helpers.rnn_forward(x, *rnn_weights(cell))
    assert_close(rnn.rnncell_loop(cell, x), h_T, **ATOL)
    layer = torch.nn.RNN(4, 6, batch_first=True)
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(layer, name + "_l0").copy_(getattr(cell, name))
    assert_close(layer(x)[0], H, **ATOL)


def test_input_projection_is_the_per_step_projection(g):
    x, W_xh, b = (
        torch.randn(3, 7, 4, generator=g),
        torch.randn(5, 4, generator=g),
        torch.randn(5, generator=g),
    )
    per_step = torch.stack([x[:, t] @ W_xh.T + b for t in range(7)], dim=1)
    assert_close(rnn.input_projection(x, W_xh, b), per_step, **ATOL)


def test_exercise_references_pass(capsys):
    for name in ("rnn_step", "input_projection"):
        helpers.check(name, helpers.course.exercises.EXERCISES[name].reference)
        assert "correct" in capsys.readouterr().out
    helpers.check("dependent_steps", 100)
    assert "correct" in capsys.readouterr().out
    helpers.check("rnn_step", lambda x, h, W_xh, W_hh, b: x @ W_xh.T + h @ W_hh.T + b)  # forgot tanh
    assert "not yet" in capsys.readouterr().out
