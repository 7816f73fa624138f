"""Measure the GPU sweeps again, in the formats of helpers/data/gpu/ (`make gpu-bench`).

    python tools/gpu_bench.py                       # on CUDA: both grids, into build/gpu-bench/
    python tools/gpu_bench.py --device cpu --seq-lens 8,16 --batches 1 --widths 16:4 --out DIR

Writes sweep.csv (fp32, d = 128, five models, forward and forward + backward) and
width_precision.csv (forward + backward at batch 32, two widths, fp32 and bf16). To ship a
new run with the course, copy them into helpers/data/gpu/ and add their provenance to its README.
"""

import argparse
import sys
from pathlib import Path

import torch

from helpers import gpu_sweep


def ints(text: str) -> tuple[int, ...]:
    return tuple(int(s) for s in text.split(","))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--out", type=Path, default=Path("build/gpu-bench"))
    parser.add_argument("--seq-lens", type=ints, default=(16, 64, 256, 512, 1024, 2048, 4096, 8192))
    parser.add_argument("--batches", type=ints, default=(1, 32))
    parser.add_argument("--width-seq-lens", type=ints, default=(512, 2048, 8192))
    parser.add_argument("--widths", default="128:4,1024:16", help="dim:heads pairs")
    args = parser.parse_args(argv)
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        sys.exit("no CUDA GPU here: pass --device cpu to try the grid on the CPU")
    widths = tuple(tuple(int(v) for v in pair.split(":")) for pair in args.widths.split(","))
    sweep = gpu_sweep.measure_sweep(args.device, args.seq_lens, args.batches)
    gpu_sweep.write(sweep, args.out / "sweep.csv", gpu_sweep.SWEEP_COLUMNS)
    width = gpu_sweep.measure_width(args.device, args.width_seq_lens, widths)
    gpu_sweep.write(width, args.out / "width_precision.csv", gpu_sweep.WIDTH_COLUMNS)
    print(f"{len(sweep)} + {len(width)} rows in {args.out}/ (device: {sweep[0]['device']})")


if __name__ == "__main__":
    main()
