"""why-transformers: the small library the notebooks share.

Every from-scratch piece here is tested against PyTorch's own in tests/. Importing helpers
changes no global setting: a notebook applies the course's figure style with
`helpers.use_style()` in its first code cell. Exercises and widgets register when their
module is imported; `import_all()` imports every module (`check` calls it for a name it
does not know yet).
"""

import importlib
import pkgutil

from . import exercises, plots, widgets  # noqa: F401
from .attention import MultiHeadSelfAttention, causal_mask, scaled_dot_product_attention
from .bptt import jacobian_norms
from .checks import within_rounding
from .exercises import check, solution
from .lstm import lstm_step
from .plots import use_style
from .positional import sinusoidal_positional_encoding
from .rnn import rnn_forward, rnn_step
from .seed import set_seed
from .spectra import matrix_with_spectral_radius, spectral_radius

__all__ = [
    "MultiHeadSelfAttention",
    "causal_mask",
    "check",
    "import_all",
    "jacobian_norms",
    "lstm_step",
    "matrix_with_spectral_radius",
    "rnn_forward",
    "rnn_step",
    "scaled_dot_product_attention",
    "set_seed",
    "sinusoidal_positional_encoding",
    "solution",
    "spectral_radius",
    "use_style",
    "within_rounding",
]


def import_all() -> None:
    """Import every module of helpers, so that every exercise and widget is registered."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
