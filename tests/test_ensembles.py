"""helpers.ensembles: each member is exactly a torch.nn model, and members train
independently (one batched loop == separate trainings)."""

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

from conftest import ATOL
from helpers import ensembles
from helpers.positions import sinusoidal_positional_encoding

D, T = 6, 7


@pytest.fixture
def x():
    return torch.randint(0, 8, (4, T + 3), generator=torch.Generator().manual_seed(0))


def test_rnn_member_equals_nn_rnn(x):
    ens = ensembles.RNNEnsemble(2, T, D, torch.Generator().manual_seed(1))
    m = 1
    rnn = torch.nn.RNN(D, D, batch_first=True)
    with torch.no_grad():
        rnn.weight_ih_l0.copy_(ens.W_xh[m])
        rnn.weight_hh_l0.copy_(ens.W_hh[m])
        rnn.bias_ih_l0.copy_(ens.b[m, 0])
        rnn.bias_hh_l0.zero_()
    H, _ = rnn(ens.emb[m][x[:, : T + 1]])  # (B, T+1, D)
    assert_close(ens(x)[m], H[:, -1] @ ens.W_out[m] + ens.b_out[m], **ATOL)


def test_lstm_member_equals_nn_lstm(x):
    ens = ensembles.LSTMEnsemble([0.0, 3.0], T, D, torch.Generator().manual_seed(2))
    for m in range(2):
        lstm = torch.nn.LSTM(D, D, batch_first=True)
        with torch.no_grad():
            lstm.weight_ih_l0.copy_(ens.W_ih[m])
            lstm.weight_hh_l0.copy_(ens.W_hh[m])
            lstm.bias_ih_l0.copy_(ens.b[m, 0])
            lstm.bias_hh_l0.zero_()
        H, _ = lstm(ens.emb[m][x[:, : T + 1]])
        assert_close(ens(x)[m], H[:, -1] @ ens.W_out[m] + ens.b_out[m], **ATOL)


def test_forget_bias_shifts_only_the_forget_slice():
    ens = ensembles.LSTMEnsemble([0.0, 3.0], T, 64, torch.Generator().manual_seed(3))
    f_bias = ens.b[:, 0, 64:128].mean(-1)
    others = torch.cat([ens.b[:, 0, :64], ens.b[:, 0, 128:]], dim=-1).mean(-1)
    assert abs(f_bias[0]) < 0.1 and abs(f_bias[1] - 3) < 0.1
    assert others.abs().max() < 0.1


@pytest.mark.parametrize("m, positions", [(0, True), (1, False)])
def test_attention_member_equals_sdpa_at_the_last_position(x, m, positions):
    ens = ensembles.AttentionEnsemble([True, False], T, D, torch.Generator().manual_seed(4))
    e = ens.emb[m][x[:, : T + 1]] + (sinusoidal_positional_encoding(T + 1, D) if positions else 0)
    q, k, v = (e @ ens.W_qkv[m] + ens.b_qkv[m, 0]).chunk(3, dim=-1)  # (B, T+1, D) each
    out = F.scaled_dot_product_attention(q, k, v)[:, -1]  # (B, D)
    logits, w = ens(x, return_weights=True)
    assert_close(logits[m], out @ ens.W_out[m] + ens.b_out[m], **ATOL)
    assert w.shape == (2, 4, T + 1)
    assert_close(w.sum(-1), torch.ones(2, 4), **ATOL)


def test_attention_without_positions_is_blind_to_order(x):
    ens = ensembles.AttentionEnsemble([True, False], T, D, torch.Generator().manual_seed(5))
    shuffled = x[:, : T + 1].clone()
    shuffled[:, :T] = shuffled[:, torch.randperm(T, generator=torch.Generator().manual_seed(6))]
    a, b = ens(x[:, : T + 1]), ens(shuffled)  # the last (query) token stays put
    assert_close(a[1], b[1], **ATOL)  # no positions: same answer
    assert (a[0] - b[0]).abs().max() > 1e-3  # with positions: it changes


@pytest.mark.parametrize("kind", ["rnn", "lstm", "attention"])
def test_members_are_independent(x, kind):
    """The gradient of member 0 from the summed loss equals that from its own loss alone."""
    g = torch.Generator().manual_seed(7)
    ens = {
        "rnn": lambda: ensembles.RNNEnsemble(2, T, D, g),
        "lstm": lambda: ensembles.LSTMEnsemble([0.0, 3.0], T, D, g),
        "attention": lambda: ensembles.AttentionEnsemble([True, False], T, D, g),
    }[kind]()
    y = x[:, 0]
    grads = []
    for members in (slice(None), slice(0, 1)):
        ens.zero_grad()
        logits = ens(x)[members]
        F.cross_entropy(logits.flatten(0, 1), y.repeat(len(logits)), reduction="sum").backward()
        grads.append([p.grad[0].clone() for p in ens.parameters()])
    for both, alone in zip(*grads):
        assert_close(both, alone, **ATOL)


def test_train_all_a_selection_of_kinds():
    budget = ensembles.Budget(steps=2, batch=4, d=8, eval_every=1, n_test=8)
    r = ensembles.train_all(
        delays=(3,), budget=budget, kinds=("attention + positions", "LSTM, forget bias +3")
    )
    assert r.kinds == ("LSTM, forget bias +3", "attention + positions")  # in the order of KINDS
    assert r.at().shape == (2, 1) and len(r.table().splitlines()) == 3
    assert list(ensembles.attention_on_first_token(r, 3)) == ["attention + positions"]
    with pytest.raises(ValueError, match="kinds"):
        ensembles.make_models((3,), kinds=("GRU",))
