"""The first-token recall task of notebook 07, and the order-blind ceiling."""

import itertools
from collections import Counter

import pytest
import torch

from helpers.tasks import (
    VOCAB,
    first_token_recall,
    most_frequent_token,
    order_blind_accuracy,
    order_blind_ceiling,
    token_counts,
)


def test_first_token_recall_shapes_and_target():
    x, y = first_token_recall(5, 10, generator=torch.Generator().manual_seed(0))
    assert x.shape == (5, 11) and y.shape == (5,)
    assert x.dtype == y.dtype == torch.int64
    assert torch.equal(y, x[:, 0])
    assert 0 <= x.min() and x.max() < VOCAB


def test_first_token_recall_is_reproducible_and_uniform():
    a = first_token_recall(4, 3, generator=torch.Generator().manual_seed(1))[0]
    b = first_token_recall(4, 3, generator=torch.Generator().manual_seed(1))[0]
    assert torch.equal(a, b)
    x, _ = first_token_recall(20_000, 1, generator=torch.Generator().manual_seed(2))
    freq = torch.bincount(x.flatten(), minlength=VOCAB) / x.numel()
    assert (freq - 1 / VOCAB).abs().max() < 0.01


def test_target_is_not_marked_by_its_content():
    """Distractors come from the same vocabulary: only position marks the target."""
    x, y = first_token_recall(2000, 30, generator=torch.Generator().manual_seed(3))
    assert (x[:, 1:] == y[:, None]).any(dim=1).float().mean() > 0.9


@pytest.mark.parametrize(
    "bad",
    [
        dict(batch=0, delay=3),
        dict(batch=2, delay=0),
        dict(batch=2, delay=3, vocab=1),
        dict(batch=2.5, delay=3),
    ],
)
def test_bad_arguments_raise(bad):
    with pytest.raises(ValueError, match="batch|delay|vocab"):
        first_token_recall(**bad)


def test_most_frequent_token_breaks_ties_towards_the_smallest_id():
    x = torch.tensor([[3, 1, 3, 2], [5, 4, 4, 5], [7, 7, 7, 0]])
    assert torch.equal(most_frequent_token(x), torch.tensor([3, 4, 7]))


def test_most_frequent_token_rejects_floats():
    with pytest.raises(ValueError, match="int64"):
        most_frequent_token(torch.zeros(2, 3))


def test_token_counts_match_torch_bincount():
    x = torch.randint(0, VOCAB, (5, 9), generator=torch.Generator().manual_seed(4))
    expected = torch.stack([torch.bincount(row, minlength=VOCAB) for row in x])
    assert torch.equal(token_counts(x), expected)


@pytest.mark.parametrize("delay, vocab", [(1, 8), (2, 8), (3, 8), (4, 3), (5, 2), (6, 4)])
def test_order_blind_ceiling_equals_enumerating_every_sequence(delay, vocab):
    """Over all vocab^T equally likely x_0..x_{T-1}, the commonest is right max count / T of the time."""
    seqs = list(itertools.product(range(vocab), repeat=delay))
    brute = sum(max(Counter(s).values()) for s in seqs) / (delay * len(seqs))
    assert order_blind_ceiling(delay, vocab) == pytest.approx(brute, rel=1e-12)


def test_order_blind_ceiling_known_values():
    assert order_blind_ceiling(1) == 1.0  # the bag before the query is x_0 alone
    assert order_blind_ceiling(2) == pytest.approx(9 / 16, rel=1e-12)  # equal (1/8) or a coin flip


@pytest.mark.parametrize("delay", [10, 30, 100])
def test_order_blind_ceiling_agrees_with_sampling(delay):
    n = 20_000
    sampled = order_blind_accuracy(delay, n=n, generator=torch.Generator().manual_seed(delay))
    error = (sampled * (1 - sampled) / n) ** 0.5
    assert abs(sampled - order_blind_ceiling(delay)) < 4 * error


def test_order_blind_ceiling_falls_towards_chance_with_the_delay():
    ceilings = [order_blind_ceiling(T) for T in (3, 10, 30, 100)]
    assert all(a > b for a, b in zip(ceilings, ceilings[1:])) and ceilings[-1] > 1 / VOCAB


def test_order_blind_guess_ignores_the_query_token():
    """The query x_T is known to be last: it is no candidate for x_0 unless it also occurs before."""
    x = torch.tensor([[3, 5, 3, 5, 5]])  # all five favour 5; before the query 3 and 5 tie (-> 3)
    y, guess = x[:, 0], most_frequent_token(x[:, :-1])
    assert torch.equal(guess, torch.tensor([3])) and torch.equal(guess, y)


@pytest.mark.parametrize("call", [lambda: order_blind_ceiling(0), lambda: order_blind_ceiling(3, vocab=1)])
def test_order_blind_ceiling_rejects_bad_arguments(call):
    with pytest.raises(ValueError, match="delay|vocab"):
        call()
