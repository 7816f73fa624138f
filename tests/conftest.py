"""Shared by every test module: one seeded generator fixture and one float32 tolerance.

Test modules import the constants with `from conftest import ATOL` (pytest puts tests/ on
sys.path).
"""

import pytest

import helpers

ATOL = dict(atol=1e-5, rtol=1e-5)  # float32 against PyTorch's own: rounding, not a different result


@pytest.fixture
def g():
    """A generator seeded with 0, after seeding torch's global one too (for nn.Module inits)."""
    return helpers.set_seed(0)


helpers.import_all()  # every exercise and widget registered, whichever test module runs first
