"""Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5)."""
import torch

from .checks import require_positive_int


def sinusoidal_positional_encoding(T: int, d_model: int) -> torch.Tensor:
    """PE (T, d_model): PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d))."""
    require_positive_int(T, "T (the number of positions)")
    require_positive_int(d_model, "d_model")
    p = torch.arange(T, dtype=torch.float64)[:, None]                # (T, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)          # (ceil(d/2),)
    angle = p / 10000 ** (two_i / d_model)                            # (T, ceil(d/2))
    pe = torch.zeros(T, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)[:, : d_model // 2]
    return pe.float()
