"""The synthetic task of notebook 07: recall the first token after a delay.

A sequence is `delay + 1` tokens drawn uniformly from a vocabulary of `vocab` symbols;
the target is the first one. The distractors come from the *same* vocabulary, so the
only thing that marks the target is its position: a model must know where the
sequence starts. Guessing gives 1 / vocab (0.125 for 8 symbols).

A model blind to order (attention without positional encoding, read out at the last
position) sees the query token x_T and the bag of tokens, so at best the bag of the T
tokens x_0..x_{T-1} before the query: given that, x_0 is equally likely to be any of them,
and the best guess is their commonest token, right with probability (its count) / T.
`order_blind_ceiling` computes that accuracy exactly; `order_blind_accuracy` estimates it
by sampling."""

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


def token_counts(x: torch.Tensor, vocab: int = VOCAB) -> torch.Tensor:
    """How many times each token occurs in each row: x (B, L) int64 -> (B, vocab) int64."""
    require_tensor(x, "x")
    if x.dim() != 2 or x.dtype != torch.int64:
        raise ValueError(
            f"x must be a (B, L) int64 tensor of tokens, got {x.dtype} of shape {tuple(x.shape)}"
        )
    return torch.zeros(x.shape[0], vocab, dtype=torch.int64).scatter_add_(1, x, torch.ones_like(x))


def most_frequent_token(x: torch.Tensor, vocab: int = VOCAB) -> torch.Tensor:
    """The best guess of a model blind to order: the commonest token of each row.

    x (B, L) int64 -> (B,) int64; ties go to the smallest token id. Applied to the tokens
    before the query, x[:, :-1], it is the Bayes-optimal order-blind guess (module docstring).
    """
    return token_counts(x, vocab).argmax(dim=-1)  # (B,), the first maximum wins


def order_blind_accuracy(
    delay: int, vocab: int = VOCAB, n: int = 20_000, generator: torch.Generator | None = None
) -> float:
    """Monte Carlo estimate of `order_blind_ceiling`: the accuracy, on n sampled sequences, of
    guessing the commonest token before the query (`most_frequent_token(x[:, :-1])`).

    Its standard error is sqrt(p (1 - p) / n), about 0.003 at the default n.
    """
    require_positive_int(n, "n")
    x, y = first_token_recall(n, delay, vocab, generator)  # (n, delay + 1), (n,)
    return (most_frequent_token(x[:, :-1], vocab) == y).double().mean().item()


def order_blind_ceiling(delay: int, vocab: int = VOCAB) -> float:
    """The exact accuracy of the best order-blind guess: E[max_v count_v] / T, for the counts
    of T = delay tokens drawn uniformly from `vocab` symbols (a multinomial).

    E[max] = sum_{m >= 0} P(max > m). P(max <= m) places the symbols one at a time: symbol j
    takes k of the n tokens not yet placed with probability Binomial(n, 1 / (vocab - j)) at k,
    and no symbol may take more than m. Computed in float64: exact to rounding. The work grows
    as T^3: milliseconds up to T = 100.
    """
    require_positive_int(delay, "delay")
    require_positive_int(vocab, "vocab", minimum=2)
    n = torch.arange(delay + 1, dtype=torch.float64)[:, None]  # tokens not yet placed, (T+1, 1)
    k = n - n.T  # tokens a symbol takes to leave n.T of them, (T+1, T+1)
    log_choose = torch.lgamma(n + 1) - torch.lgamma(k.clamp(min=0) + 1) - torch.lgamma(n.T + 1)
    p = 1 / torch.arange(vocab, 0, -1, dtype=torch.float64)[:, None, None]  # symbol j: 1 / (vocab - j)
    pmf = torch.exp(log_choose + torch.xlogy(k, p) + torch.xlogy(n.T, 1 - p)) * (k >= 0)  # (V, T+1, T+1)
    expected_max = 0.0
    for m in range(delay):  # P(max > m) = 0 from m = T on
        f = torch.zeros(delay + 1, dtype=torch.float64)  # P(n tokens left, every count so far <= m)
        f[delay] = 1.0
        for step in pmf * (k <= m):  # one symbol at a time; the last (p = 1) takes all that are left
            f = f @ step  # (T+1,)
        expected_max += 1.0 - f[0].item()
    return expected_max / delay
