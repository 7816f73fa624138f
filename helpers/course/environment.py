"""Where the course is running: versions, device, Colab."""

import platform
import sys

import torch


def in_colab() -> bool:
    """True inside Google Colab."""
    return "google.colab" in sys.modules


def device() -> torch.device:
    """The GPU if there is one, else the CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def versions() -> dict[str, str]:
    """Versions of the packages the course depends on."""
    import ipywidgets
    import matplotlib
    import numpy

    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": numpy.__version__,
        "matplotlib": matplotlib.__version__,
        "ipywidgets": ipywidgets.__version__,
    }
