"""Input checks that fail early, in words a learner understands."""
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
        raise ValueError(f"{name} has shape {tuple(x.shape)}, but its last dimension "
                         f"must be {size} to match {against}")
