"""The synthetic task of notebook 07: recall the first token after a delay.

A sequence is `delay + 1` tokens drawn uniformly from a vocabulary of `vocab` symbols;
the target is the first one. The distractors come from the *same* vocabulary, so the
only thing that marks the target is its position: a model must know where the
sequence starts. Guessing gives 1 / vocab (0.125 for 8 symbols)."""

import torch

from .checks import require_positive_int, require_tensor

VOCAB = 8  # symbols 0..7: chance is 1/8 = 0.125


def first_token_recall(
    batch: int, delay: int, vocab: int = VOCAB, generator: torch.Generator | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """x (batch, delay + 1) int64 tokens, uniform in 0..vocab-1; y = x[:, 0] (batch,).

    The model reads all of x and must output y: the token seen `delay` steps before the end.
    """
    require_positive_int(batch, "batch")
    require_positive_int(delay, "delay")
    require_positive_int(vocab, "vocab", minimum=2)
    x = torch.randint(0, vocab, (batch, delay + 1), generator=generator)  # (B, delay + 1)
    return x, x[:, 0].clone()  # (B, delay+1), (B,)


def most_frequent_token(x: torch.Tensor, vocab: int = VOCAB) -> torch.Tensor:
    """The best guess of a model blind to order: the commonest token of each row.

    x (B, L) int64 -> (B,) int64; ties go to the smallest token id. Seen as a bag, each of
    the L tokens is equally likely to have been the first, so P(first = v | bag) =
    count(v) / L, and the commonest token is the Bayes-optimal order-blind guess.
    """
    require_tensor(x, "x")
    if x.dim() != 2 or x.dtype != torch.int64:
        raise ValueError(
            f"x must be a (B, L) int64 tensor of tokens, got {x.dtype} of shape {tuple(x.shape)}"
        )
    counts = torch.nn.functional.one_hot(x, vocab).sum(dim=1)  # (B, vocab)
    return counts.argmax(dim=-1)  # (B,), first maximum wins


def order_blind_accuracy(
    delay: int, vocab: int = VOCAB, n: int = 20_000, generator: torch.Generator | None = None
) -> float:
    """Accuracy of `most_frequent_token` on the task: the ceiling for any order-blind model."""
    x, y = first_token_recall(n, delay, vocab, generator)
    return (most_frequent_token(x, vocab) == y).double().mean().item()
