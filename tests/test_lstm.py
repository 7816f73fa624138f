"""helpers.lstm against PyTorch: the cell, the sequence, the cell path; each promised ValueError."""

import torch
from torch.testing import assert_close

import helpers
from helpers import lstm
from helpers.lstm import lstm_weights


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


def test_checks_say_not_attempted_for_stubs(capsys):
    def stub(*args):
        raise NotImplementedError

    helpers.check("lstm_step", stub)
    assert "not attempted yet" in capsys.readouterr().out
    helpers.check("cell_path", lambda f: f.prod(0))
    assert "correct" in capsys.readouterr().out
