"""why-transformers: the small library the notebooks share.

The maths lives in modules named after ideas (rnn, lstm, attention, multihead, positions,
spectra, scan, tasks, jacobians, ensembles, measure, article, gpu_sweep): torch only, each
tested against PyTorch's own in tests/. Each notebook's figures, widgets, constants and
exercises live in helpers/notebooks/nbNN_<notebook>.py; the course's machinery (style,
widgets, exercises, tables, ledger) in helpers/course/.

Importing helpers changes no global setting: a notebook applies the course's figure style
with `helpers.use_style()` in its first code cell. Exercises and widgets register when their
notebook's module is imported; `import_all()` imports them all (`check` calls it for a name
it does not know yet).
"""

import importlib
import pkgutil

from .attention import causal_mask, scaled_dot_product_attention
from .checks import within_rounding
from .course.exercises import check, hint, solution
from .course.languages import use_language
from .course.style import use_style
from .jacobians import jacobian_norms
from .lstm import lstm_step
from .multihead import MultiHeadSelfAttention
from .positions import sinusoidal_positional_encoding
from .rnn import rnn_forward, rnn_step
from .seed import set_seed
from .spectra import matrix_with_spectral_radius, spectral_radius

__all__ = [
    "MultiHeadSelfAttention",
    "causal_mask",
    "check",
    "hint",
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
    "use_language",
    "use_style",
    "within_rounding",
]


def import_all() -> None:
    """Import every notebook's module, so that every exercise and widget is registered."""
    from . import notebooks

    for module in pkgutil.iter_modules(notebooks.__path__):
        importlib.import_module(f"{notebooks.__name__}.{module.name}")
