"""Checks: bad input fails early, in words a learner understands; agreement prints alike everywhere."""

import torch


def require_tensor(x, name: str) -> None:
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(x).__name__}")


def require_square(W, name: str) -> None:
    """W must be a 2-D square tensor."""
    require_tensor(W, name)
    if W.dim() != 2 or W.shape[0] != W.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {tuple(W.shape)}")


def require_positive_int(value, name: str, minimum: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")


def require_last_dim(x: torch.Tensor, size: int, name: str, against: str) -> None:
    """x.shape[-1] must equal `size` (the matching dimension of `against`)."""
    if x.shape[-1] != size:
        raise ValueError(
            f"{name} has shape {tuple(x.shape)}, but its last dimension must be {size} to match {against}"
        )


def within_rounding(difference, bound: float = 1e-6) -> str:
    """Assert max |difference| <= bound and return the bound as text, e.g. "< 1e-6".

    Two equal computations in float32 differ by rounding, in digits that depend on the CPU's
    vector kernels (AVX2, AVX-512, NEON) and thread count: print the bound, which every CPU
    reproduces, not the digits. `difference` is a tensor (ours - theirs) or a number.
    """
    if isinstance(difference, torch.Tensor):
        gap = difference.detach().abs().max().item()
    else:
        gap = abs(float(difference))
    if not gap <= bound:  # also false for nan
        raise AssertionError(f"max |difference| = {gap:.2e} is above {bound:.0e}: more than rounding")
    return f"< {bound:.0e}".replace("e-0", "e-")
