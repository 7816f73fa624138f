"""The first-token recall task of notebook 07, and the order-blind ceiling."""

import pytest
import torch

from helpers.tasks import VOCAB, first_token_recall, most_frequent_token, order_blind_accuracy


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


def test_order_blind_accuracy_with_two_tokens_is_nine_sixteenths():
    # equal with prob 1/8 (always right), else a coin flip: 1/8 + 7/8 * 1/2 = 9/16
    acc = order_blind_accuracy(1, generator=torch.Generator().manual_seed(0))
    assert acc == pytest.approx(9 / 16, abs=0.015)


def test_order_blind_ceiling_falls_towards_chance_with_the_delay():
    accs = [order_blind_accuracy(T, generator=torch.Generator().manual_seed(0)) for T in (10, 30, 100)]
    assert accs[0] > accs[1] > accs[2] > 1 / VOCAB
