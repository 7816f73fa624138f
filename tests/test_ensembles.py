"""helpers.ensembles: each member is exactly a torch.nn model, and members train
independently (one batched loop == separate trainings)."""

import pytest
import torch
import torch.nn.functional as F
from torch.testing import assert_close

from conftest import ATOL
from helpers import ensembles
from helpers.positions import sinusoidal_positional_encoding
from helpers.tasks import first_token_recall

D, T = 6, 7


@pytest.fixture
def x():
    return torch.randint(0, 8, (4, T + 3), generator=torch.Generator().manual_seed(0))


@pytest.mark.parametrize(
    "ensemble, layer",
    [
        (lambda g: ensembles.RNNEnsemble(2, T, D, g), torch.nn.RNN),
        (lambda g: ensembles.LSTMEnsemble([0.0, 3.0], T, D, g), torch.nn.LSTM),
    ],
    ids=["rnn", "lstm"],
)
def test_every_member_equals_pytorchs_layer(ensemble, layer, x):
    ens = ensemble(torch.Generator().manual_seed(1))
    for m in range(2):
        reference = layer(D, D, batch_first=True)
        with torch.no_grad():
            reference.weight_ih_l0.copy_(ens.drive.weight[m])
            reference.weight_hh_l0.copy_(ens.W_hh[m])
            reference.bias_ih_l0.copy_(ens.drive.bias[m])
            reference.bias_hh_l0.zero_()
        H, _ = reference(ens.embed.weight[m][x[:, : T + 1]])  # (B, T+1, D)
        assert_close(ens(x)[m], H[:, -1] @ ens.out.weight[m].T + ens.out.bias[m], **ATOL)


@pytest.mark.parametrize("kind", ["rnn", "lstm"])
def test_a_recurrent_member_read_out_at_another_delay_equals_torch_at_that_step(x, kind):
    """No weight depends on the delay: forward(x, delay=t) is the torch model's output at step t."""
    g = torch.Generator().manual_seed(8)
    ens = ensembles.RNNEnsemble(1, T, D, g) if kind == "rnn" else ensembles.LSTMEnsemble([3.0], T, D, g)
    net = torch.nn.RNN(D, D, batch_first=True) if kind == "rnn" else torch.nn.LSTM(D, D, batch_first=True)
    with torch.no_grad():
        net.weight_ih_l0.copy_(ens.drive.weight[0])
        net.weight_hh_l0.copy_(ens.W_hh[0])
        net.bias_ih_l0.copy_(ens.drive.bias[0])
        net.bias_hh_l0.zero_()
    H, _ = net(ens.embed.weight[0][x])  # (B, T+3, D): every step of the whole sequence
    for t in (2, T + 2):  # shorter and longer than the delay it was made for
        assert_close(ens(x, delay=t)[0], H[:, t] @ ens.out.weight[0].T + ens.out.bias[0], **ATOL)
    with pytest.raises(ValueError, match="delay"):
        ens(x, delay=T + 3)  # x has only T + 3 tokens: t = 0 .. T + 2


def test_forget_bias_shifts_only_the_forget_slice():
    ens = ensembles.LSTMEnsemble([0.0, 3.0], T, 64, torch.Generator().manual_seed(3))
    f_bias = ens.drive.bias[:, 64:128].mean(-1)
    others = torch.cat([ens.drive.bias[:, :64], ens.drive.bias[:, 128:]], dim=-1).mean(-1)
    assert abs(f_bias[0]) < 0.1 and abs(f_bias[1] - 3) < 0.1
    assert others.abs().max() < 0.1


@pytest.mark.parametrize("m, positions", [(0, True), (1, False)])
def test_attention_member_equals_sdpa_at_the_last_position(x, m, positions):
    ens = ensembles.AttentionEnsemble([True, False], T, D, torch.Generator().manual_seed(4))
    e = ens.embed.weight[m][x[:, : T + 1]] + (sinusoidal_positional_encoding(T + 1, D) if positions else 0)
    q, k, v = F.linear(e, ens.qkv.weight[m], ens.qkv.bias[m]).chunk(3, dim=-1)  # (B, T+1, D) each
    out = F.scaled_dot_product_attention(q, k, v)[:, -1]  # (B, D)
    logits, w = ens(x, return_weights=True)
    assert_close(logits[m], F.linear(out, ens.out.weight[m], ens.out.bias[m]), **ATOL)
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
        logits = ens(x[:, : T + 1])[members]
        F.cross_entropy(logits.flatten(0, 1), y.repeat(len(logits)), reduction="sum").backward()
        grads.append([p.grad[0].clone() for p in ens.parameters()])
    for both, alone in zip(*grads):
        assert_close(both, alone, **ATOL)


def test_the_drive_looked_up_per_symbol_is_the_drive_of_every_position(x):
    """The speed-up is algebra: a token's x_t W^T + b depends only on the token."""
    ens = ensembles.LSTMEnsemble([0.0, 3.0], T, D, torch.Generator().manual_seed(9))
    W, b = ens.drive.weight, ens.drive.bias
    every_position = ens.embed.weight[:, x] @ W[:, None].mT + b[:, None, None]  # (2, B, L, 4D)
    assert_close(ens.lookup_drive(x, W, b), every_position, **ATOL)


def test_member_weights_are_copies_named_as_the_plain_model_names_them():
    models = ensembles.make_models((3,), d=4)
    w = ensembles.member_weights(models, "LSTM, forget bias +3", 3)
    assert set(w) == {"embed.weight", "drive.weight", "drive.bias", "W_hh", "out.weight", "out.bias"}
    assert w["drive.weight"].shape == (16, 4) and w["out.weight"].shape == (8, 4)
    w["W_hh"].zero_()
    assert models[3][1].W_hh[1].abs().sum() > 0  # a copy
    assert set(ensembles.member_weights(models, "attention, no positions", 3)) == {
        "embed.weight",
        "qkv.weight",
        "qkv.bias",
        "out.weight",
        "out.bias",
    }
    with pytest.raises(ValueError, match="kind"):
        ensembles.member_weights(models, "GRU", 3)
    with pytest.raises(ValueError, match="delay"):
        ensembles.member_weights(models, "LSTM", 4)


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


@pytest.fixture(scope="module")
def small_run():
    budget = ensembles.Budget(steps=6, batch=8, d=8, eval_every=3, n_test=32)
    return ensembles.train_all(delays=(2, 5), budget=budget, seed=3)


def test_results_keep_the_held_out_sequences(small_run):
    x, y = small_run.test
    expected, _ = first_token_recall(32, 5, generator=torch.Generator().manual_seed(3 + 2))
    assert torch.equal(x, expected) and torch.equal(y, x[:, 0])


def test_losses_are_each_models_mean_loss_on_its_batch(small_run):
    assert len(small_run.losses) == 6 and small_run.losses[0].shape == (len(ensembles.KINDS), 2)
    first = small_run.loss_curve("LSTM", 5)[0]
    start = ensembles.make_models((2, 5), d=8, seed=3)
    x, y = first_token_recall(
        8, 5, generator=torch.Generator().manual_seed(3 + 1)
    )  # the first batch at T = 5
    with torch.no_grad():
        logits = start[5][1](x)[0]  # the default LSTM, before any step
    assert first == pytest.approx(F.cross_entropy(logits, y).item(), abs=1e-6)


def test_answers_score_as_the_table_says(small_run):
    _, y = small_run.test
    for j, T in enumerate(small_run.delays):
        said = ensembles.answers(small_run, T)
        assert list(said) == list(ensembles.KINDS) and said["LSTM"].shape == (32,)
        right = torch.stack([(a == y).float().mean() for a in said.values()])
        assert_close(right, small_run.at()[:, j])


def test_score_at_delay_at_the_trained_delay_is_the_table_and_moves_with_the_delay(small_run):
    recurrent = ensembles.KINDS[:3]
    same = ensembles.score_at_delay(small_run, trained_at=2, delay=2)
    assert list(same) == list(recurrent)
    assert_close(torch.tensor(list(same.values())), small_run.at()[:3, 0])
    x, y = small_run.test
    lstm = small_run.models[2][1]  # the two LSTMs trained at T = 2
    with torch.no_grad():
        expected = (lstm(x, delay=5).argmax(-1) == y).float().mean(-1)  # (2,)
    moved = ensembles.score_at_delay(small_run, trained_at=2, delay=5)
    assert_close(torch.tensor([moved[k] for k in recurrent[1:]]), expected)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda r: ensembles.score_at_delay(r, trained_at=3, delay=5), "trained_at"),
        (lambda r: ensembles.score_at_delay(r, trained_at=2, delay=6), "delay"),
        (lambda r: ensembles.answers(r, 4), "delay"),
    ],
)
def test_bad_delays_raise_value_error(small_run, call, words):
    with pytest.raises(ValueError, match=words):
        call(small_run)
