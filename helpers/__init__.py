"""why-transformers: the small library the notebooks share.

Every from-scratch piece here is tested against PyTorch's own in tests/.
"""
from . import exercises, plots, widgets  # noqa: F401  (plots sets the course style)
from .attention import MultiHeadSelfAttention, causal_mask, scaled_dot_product_attention
from .bptt import jacobian_norms
from .checks import within_rounding
from .exercises import check, solution
from .lstm import lstm_step
from .positional import sinusoidal_positional_encoding
from .rnn import rnn_forward, rnn_step
from .seed import set_seed
from .spectra import matrix_with_spectral_radius, spectral_radius

# Modules that notebooks add (one line each, so that their exercises and explorers register):
from . import course, environment, recurrence, multihead, pathlength, gating, timing, tasks, memory, scan, complexity  # noqa: F401,E402

__all__ = [
    "MultiHeadSelfAttention", "causal_mask", "check", "jacobian_norms", "lstm_step",
    "matrix_with_spectral_radius", "rnn_forward", "rnn_step", "scaled_dot_product_attention",
    "set_seed", "sinusoidal_positional_encoding", "solution", "spectral_radius", "within_rounding",
]
