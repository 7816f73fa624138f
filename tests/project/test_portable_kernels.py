"""Strict nbval once more on PyTorch's portable kernels: what another CPU would print.

PyTorch (ATen), MKL and oneDNN each pick vector kernels for the CPU they run on (AVX-512,
AVX2, NEON, ...), and a float32 result's last digits change with the kernel and the thread
count. The committed outputs must not depend on them, so the notebooks that compare float32
computations (those that call `helpers.within_rounding`) run again here with the portable
kernels on one thread. The normal nbval run covers this machine's own kernels.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
PORTABLE = {
    "ATEN_CPU_CAPABILITY": "default",  # ATen's scalar kernels, no AVX2/AVX-512
    "MKL_CBWR": "COMPATIBLE",  # MKL's code path that every x86-64 CPU runs alike
    "ONEDNN_MAX_CPU_ISA": "SSE41",  # oneDNN (convolutions, some matmuls) without AVX
    "OMP_NUM_THREADS": "1",  # and another thread count than the normal run
    "MKL_NUM_THREADS": "1",
}
ROUNDING_NOTEBOOKS = sorted(
    ROOT / "notebooks" / f"{p.stem}.ipynb"
    for p in (ROOT / "notebooks" / "sources").glob("[0-9][0-9]_*.py")
    if "within_rounding" in p.read_text()
)


def run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, **PORTABLE},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_portable_kernels_are_switched_on():
    probe = run(["-c", "import torch; print(torch.backends.cpu.get_cpu_capability())"])
    assert probe.stdout.strip() == "DEFAULT", probe.stdout + probe.stderr


def test_some_notebooks_compare_float32_results():
    assert len(ROUNDING_NOTEBOOKS) >= 4, ROUNDING_NOTEBOOKS


@pytest.mark.parametrize("notebook", ROUNDING_NOTEBOOKS, ids=lambda p: p.stem)
def test_strict_nbval_with_portable_kernels(notebook):
    result = run(["-m", "pytest", "-q", "--nbval", str(notebook.relative_to(ROOT))])
    assert result.returncode == 0, f"{notebook.name} on portable kernels:\n{result.stdout[-4000:]}"
