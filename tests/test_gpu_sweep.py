"""helpers.gpu_sweep: the shipped GPU measurements and the sweep that redoes them
(`make gpu-bench`), on a small CPU grid with the same columns and every model."""

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import gpu_sweep
from helpers.notebooks import nb06_parallelism_cost as nb06

ROOT = Path(__file__).resolve().parents[1]


def header(path: Path) -> list[str]:
    with path.open(newline="") as f:
        return next(csv.reader(f))


def test_the_shipped_files_have_the_documented_columns():
    assert header(gpu_sweep.DATA / "h200_sweep.csv") == gpu_sweep.SWEEP_COLUMNS
    assert header(gpu_sweep.DATA / "h200_width_precision.csv") == gpu_sweep.WIDTH_COLUMNS


def test_the_sweep_covers_every_model_at_every_shape():
    rows = gpu_sweep.read("h200_sweep")
    assert {r["model"] for r in rows} == set(gpu_sweep.SWEEP_MODELS)
    for batch in (1, 32):
        for n in (16, 512, 8192):
            assert len(gpu_sweep.pick(rows, batch=batch, seq_len=n, pass_="fwd")) == 5


def test_value_reads_one_row_and_refuses_ambiguity():
    rows = gpu_sweep.read("h200_sweep")
    assert gpu_sweep.value(rows, batch=32, seq_len=512, pass_="fwd", model=gpu_sweep.RNN) == 0.2635
    with pytest.raises(ValueError, match="expected one row"):
        gpu_sweep.value(rows, batch=32, seq_len=512)
    with pytest.raises(ValueError, match="no GPU measurement called 'nope'"):
        gpu_sweep.read("nope")


def test_runs_at_512_reads_one_row_per_file_and_model():
    runs = gpu_sweep.runs_at_512()
    assert list(runs) == list(gpu_sweep.RUNS_AT_512)
    rows = gpu_sweep.read("h200_sweep")
    at = dict(batch=32, seq_len=512, pass_="fwd+bwd")
    assert runs["sweep"] == (
        gpu_sweep.value(rows, model=gpu_sweep.RNN, **at),
        gpu_sweep.value(rows, model=gpu_sweep.FAST_MHA, **at),
    )
    assert len(set(runs.values())) == len(runs)  # five different runs, not one row read five times


def test_executed_06_reads_the_gpu_times_of_notebook_06s_run():
    times = gpu_sweep.executed_06()
    assert set(times) == {"fwd", "fwd+bwd"}
    assert set(times["fwd"]) == {gpu_sweep.LOOP, gpu_sweep.RNN, gpu_sweep.MHA}
    assert times["fwd+bwd"][gpu_sweep.RNN] == 2.27 and times["fwd+bwd"][gpu_sweep.MHA] == 1.78


PRINTED_ROW = re.compile(r"  (\S.*?) +([\d.]+) ms \(IQR ([\d.]+)-([\d.]+), (\d+) runs")


def test_notebook_06s_run_is_the_one_its_executed_notebook_printed():
    """Provenance: h200_notebook06.csv holds what notebook 06 printed on the H200 (executed_06/)."""
    notebook = json.loads((gpu_sweep.DATA / "executed_06" / "06_parallelism_cost.ipynb").read_text())
    printed, pass_ = [], None
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            for line in "".join(output.get("text", "")).splitlines():
                if line.endswith("B=32, N=512, d=128, GPU:"):
                    pass_ = "fwd+bwd" if line.startswith("forward + backward") else "fwd"
                elif pass_ and (
                    m := re.match(r"  (\S.*?) +([\d.]+) ms \(IQR ([\d.]+)-([\d.]+), (\d+) runs", line)
                ):
                    printed.append((pass_, m[1], float(m[2]), float(m[3]), float(m[4]), int(m[5])))
                else:
                    pass_ = None
    rows = gpu_sweep.read("h200_notebook06")
    shipped = [(r["pass"], r["model"], r["median_ms"], r["q1_ms"], r["q3_ms"], r["runs"]) for r in rows]
    assert shipped == printed and len(printed) == 6
    assert {(r["device"], r["torch"], r["batch"], r["seq_len"], r["dim"]) for r in rows} == {
        ("NVIDIA H200", "2.11.0+cu130", 32, 512, 128)
    }


def test_bench_on_a_small_cpu_grid_writes_the_shipped_formats(tmp_path):
    command = [
        sys.executable,
        "tools/gpu_bench.py",
        "--device",
        "cpu",
        "--seq-lens",
        "8,16",
        "--batches",
        "1",
    ]
    command += ["--width-seq-lens", "8", "--widths", "16:4", "--out", str(tmp_path)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True, timeout=300)
    assert header(tmp_path / "sweep.csv") == gpu_sweep.SWEEP_COLUMNS
    assert header(tmp_path / "width_precision.csv") == gpu_sweep.WIDTH_COLUMNS
    with (tmp_path / "sweep.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 * 2 * 5  # passes x lengths x models, batch 1
    assert all(float(r["median_ms"]) > 0 and r["device"] == "cpu" for r in rows)
    with (tmp_path / "width_precision.csv").open(newline="") as f:
        assert {r["dtype"] for r in csv.DictReader(f)} == {"float32", "bfloat16"}


@pytest.mark.parametrize(
    "plot, data",
    [
        ("plot_times", "h200_sweep"),
        ("plot_memory", "h200_sweep"),
        ("plot_width_precision", "h200_width_precision"),
    ],
)
def test_figures_draw_every_line_from_the_data(plot, data):
    fig = getattr(nb06, plot)(gpu_sweep.read(data))
    assert all(len(ax.get_lines()) >= 3 for ax in fig.axes)
