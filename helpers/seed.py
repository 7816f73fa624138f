"""One seed for everything: Python's `random`, NumPy and torch; and seeded draws that leave it alone."""

import contextlib
import random

import numpy as np
import torch


def set_seed(seed: int) -> torch.Generator:
    """Seed `random`, NumPy and torch; return a fresh generator seeded with `seed`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    return torch.Generator().manual_seed(seed)


@contextlib.contextmanager
def seeded(seed: int):
    """Draw from torch's global generator as if freshly seeded with `seed`, then restore it.

    Helpers build their weights (nn.Module inits draw from the global generator) inside
    `with seeded(seed):`, so calling a helper never moves a notebook's random state.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        yield
