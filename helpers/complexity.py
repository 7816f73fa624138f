"""Notebook 08: the article's complexity table, rebuilt from counts and one timing.

FLOPs are counted by torch.utils.flop_counter.FlopCounterMode on "meta" tensors (shapes
only, nothing is computed), so they are exact, deterministic and free. Dependent steps
are the depth of the autograd graph: the longest chain of operations, each waiting for
the one before. Only `median_ms` measures wall time.
"""
import time

import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

from .attention import MultiHeadSelfAttention, scaled_dot_product_attention
from .checks import require_positive_int
from .rnn import rnn_forward

META = torch.device("meta")


def count_flops(fn, *args) -> int:
    """FLOPs of fn(*args) (matmuls and convolutions; a multiply-add counts 2)."""
    with FlopCounterMode(display=False) as counter:
        fn(*args)
    return counter.get_total_flops()


# --- one layer of each kind of Vaswani et al.'s Table 1, input x (1, N, d) ---------------

def _rnn_layer(N: int, d: int, device=META):
    W = torch.empty(d, d, device=device)
    return lambda x: rnn_forward(x, W, W, torch.empty(d, device=device))[0]


def _attention_layer(N: int, d: int, device=META):
    return MultiHeadSelfAttention(d, 1).to(device)


def _conv_layer(N: int, d: int, k: int = 3, device=META):
    conv = nn.Conv1d(d, d, k, padding=k // 2, device=device)
    return lambda x: conv(x.transpose(1, 2)).transpose(1, 2)


def _restricted_attention_layer(N: int, d: int, r: int = 16, device=META):
    """Attention within blocks of r neighbours (a simple form of Vaswani's restricted
    self-attention): x (1, N, d) -> (N/r, r, d) blocks, each attends only to itself."""
    if N % r:
        raise ValueError(f"N={N} must be a multiple of the window r={r}")
    proj = nn.Linear(d, 3 * d, device=device)
    out = nn.Linear(d, d, device=device)

    def layer(x):
        q, k, v = proj(x.view(N // r, r, d)).chunk(3, dim=-1)  # each (N/r, r, d)
        return out(scaled_dot_product_attention(q, k, v)[0]).view(1, N, d)
    return layer


LAYERS = {"recurrent": _rnn_layer, "self-attention": _attention_layer,
          "convolutional (k=3)": _conv_layer, "restricted self-attention (r=16)":
          _restricted_attention_layer}


def layer_flops(kind: str, N: int, d: int) -> int:
    """FLOPs of one layer of `kind` (a key of LAYERS) on a sequence of N vectors of size d."""
    if kind not in LAYERS:
        raise ValueError(f"kind must be one of {list(LAYERS)}, got {kind!r}")
    require_positive_int(N, "N (the sequence length)")
    require_positive_int(d, "d (the width)")
    layer = LAYERS[kind](N, d)
    return count_flops(layer, torch.empty(1, N, d, device=META))


# --- dependent steps: the longest chain in the autograd graph ----------------------------

def graph_depth(output: torch.Tensor) -> int:
    """The longest chain of autograd operations from `output` back to the inputs."""
    depth, order, seen, stack = {}, [], set(), [(output.grad_fn, False)]
    while stack:                                   # iterative post-order (no recursion limit)
        node, done = stack.pop()
        if node is None or (node in seen and not done):
            continue
        if done:
            order.append(node)
            continue
        seen.add(node)
        stack.append((node, True))
        stack.extend((child, False) for child, _ in node.next_functions)
    for node in order:                             # children come before parents
        depth[node] = 1 + max((depth.get(c, 0) for c, _ in node.next_functions if c), default=0)
    return depth[output.grad_fn]


def dependent_steps(kind: str, N: int, d: int = 8) -> int:
    """Autograd graph depth of one layer of `kind` on a real (1, N, d) input."""
    layer = LAYERS[kind](N, d, device="cpu")
    x = torch.randn(1, N, d, requires_grad=True)
    out = layer(x)
    return graph_depth(out[0] if isinstance(out, tuple) else out)


# --- generating one token at position t: the rows the article leaves out ------------------

def generation_step(kind: str, t: int, d: int) -> tuple[int, int]:
    """(FLOPs, numbers of state kept) to produce the token at position t, one layer.

    recurrent: h_t = tanh(W_xh x_t + W_hh h_{t-1}); the state is h (d numbers).
    self-attention with a key-value cache: project x_t, attend to t cached keys and values,
    project out; the state is the cache (2 t d numbers).
    """
    require_positive_int(t, "t (the position)")
    x = torch.empty(1, 1, d, device=META)
    if kind == "recurrent":
        state = torch.empty(1, d, device=META)
        W = torch.empty(d, d, device=META)
        flops = count_flops(lambda: torch.tanh(x[:, 0] @ W.T + state @ W.T))
        return flops, state.numel()
    if kind == "self-attention":
        cache_k = cache_v = torch.empty(1, t, d, device=META)
        proj, out = nn.Linear(d, 3 * d, device=META), nn.Linear(d, d, device=META)

        def step():
            q, k, v = proj(x).chunk(3, dim=-1)                          # (1, 1, d) each
            keys, values = torch.cat([cache_k, k], 1), torch.cat([cache_v, v], 1)  # (1, t+1, d)
            return out(scaled_dot_product_attention(q, keys, values)[0])
        return count_flops(step), cache_k.numel() + cache_v.numel()
    raise ValueError(f"kind must be 'recurrent' or 'self-attention', got {kind!r}")


# --- one wall-clock measurement -----------------------------------------------------------

def median_ms(fn, *args, repeat: int = 5, warmup: int = 1) -> float:
    """Median wall time of fn(*args) in milliseconds, after `warmup` untimed calls."""
    with torch.no_grad():
        for _ in range(warmup):
            fn(*args)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn(*args)
            times.append(time.perf_counter() - start)
    return 1000 * sorted(times)[len(times) // 2]
