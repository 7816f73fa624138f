"""Eigenvalues and singular values of recurrent weight matrices."""

import torch

from .checks import require_square
from .measure import one_thread

MATRIX_KINDS = ("gaussian", "orthogonal")


def spectral_radius(W: torch.Tensor) -> float:
    """rho(W) = max |lambda_i(W)|, the largest eigenvalue modulus of a square matrix."""
    require_square(W, "W")
    with one_thread():  # small matrices: one thread is faster, and steady on a busy CPU
        return torch.linalg.eigvals(W.double()).abs().max().item()


def largest_singular_value(W: torch.Tensor) -> float:
    """sigma_max(W) = ||W||_2, the spectral norm."""
    with one_thread():
        return torch.linalg.matrix_norm(W.double(), ord=2).item()


def matrix_with_spectral_radius(
    n: int, rho: float, *, kind: str = "gaussian", generator: torch.Generator | None = None
) -> torch.Tensor:
    """A random (n, n) float32 matrix with spectral radius `rho`.

    kind="gaussian": N(0, 1/n) entries rescaled; non-normal, so sigma_max > rho.
    kind="orthogonal": rho * Q with Q orthogonal, so every singular value is rho.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n (the matrix size) must be an integer >= 1, got {n!r}")
    if not rho >= 0:  # also rejects NaN
        raise ValueError(f"rho (the spectral radius) must be >= 0, got {rho!r}")
    if kind not in MATRIX_KINDS:
        raise ValueError(f"kind must be one of {MATRIX_KINDS}, got {kind!r}")
    A = torch.randn(n, n, generator=generator, dtype=torch.float64) / n**0.5
    if kind == "orthogonal":
        with one_thread():
            Q, R = torch.linalg.qr(A)
        W = Q * torch.sign(torch.diagonal(R))  # sign fix: Haar-distributed Q
    else:
        W = A / spectral_radius(A)
    return (rho * W).float()
