"""Notebook 08: its figures, widgets, constants and exercises."""

import torch
from torch import nn

from ..attention import scaled_dot_product_attention
from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, log_axis, new_figure
from ..lstm import lstm_step
from ..measure import count_flops, graph_depth
from ..multihead import MultiHeadSelfAttention
from ..rnn import rnn_forward
from ..scan import combine, scan_steps

DEVICE = torch.device("cpu")  # counts depend only on shapes; "meta" would also work, but slower here


# --- one layer of each kind of Vaswani et al.'s Table 1, input x (1, N, d) ---------------


def _rnn_layer(N: int, d: int, device=DEVICE):
    W = torch.zeros(d, d, device=device)
    return lambda x: rnn_forward(x, W, W, torch.zeros(d, device=device))[0]


def _lstm_layer(N: int, d: int, device=DEVICE):
    W_ih, W_hh = torch.zeros(4 * d, d, device=device), torch.zeros(4 * d, d, device=device)
    b = torch.zeros(4 * d, device=device)

    def layer(x):
        h = c = torch.zeros(x.shape[0], d, device=device)
        for t in range(x.shape[1]):  # sequential: step t needs step t-1
            h, c, _ = lstm_step(x[:, t], h, c, W_ih, W_hh, b)
        return h

    return layer


def _attention_layer(N: int, d: int, device=DEVICE):
    return MultiHeadSelfAttention(d, 1).to(device)


def _conv_layer(N: int, d: int, k: int = 3, device=DEVICE):
    conv = nn.Conv1d(d, d, k, padding=k // 2, device=device)
    return lambda x: conv(x.transpose(1, 2)).transpose(1, 2)


def _restricted_attention_layer(N: int, d: int, r: int = 16, device=DEVICE):
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


LAYERS = {
    "recurrent": _rnn_layer,
    "recurrent (LSTM)": _lstm_layer,
    "self-attention": _attention_layer,
    "convolutional (k=3)": _conv_layer,
    "restricted self-attention (r=16)": _restricted_attention_layer,
}


def layer_flops(kind: str, N: int, d: int) -> int:
    """FLOPs of one layer of `kind` (a key of LAYERS) on a sequence of N vectors of size d."""
    if kind not in LAYERS:
        raise ValueError(f"kind must be one of {list(LAYERS)}, got {kind!r}")
    require_positive_int(N, "N (the sequence length)")
    require_positive_int(d, "d (the width)")
    layer, x = LAYERS[kind](N, d), torch.zeros(1, N, d, device=DEVICE)
    with torch.no_grad():  # forward only: no graph to record
        return count_flops(lambda: layer(x))


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
    x = torch.zeros(1, 1, d, device=DEVICE)
    if kind == "recurrent":
        state = torch.zeros(1, d, device=DEVICE)
        W = torch.zeros(d, d, device=DEVICE)
        return count_flops(lambda: torch.tanh(x[:, 0] @ W.T + state @ W.T)), state.numel()
    if kind == "self-attention":
        cache_k = cache_v = torch.zeros(1, t, d, device=DEVICE)
        proj, out = nn.Linear(d, 3 * d, device=DEVICE), nn.Linear(d, d, device=DEVICE)

        def step():
            q, k, v = proj(x).chunk(3, dim=-1)  # (1, 1, d) each
            keys, values = torch.cat([cache_k, k], 1), torch.cat([cache_v, v], 1)  # (1, t+1, d)
            return out(scaled_dot_product_attention(q, keys, values)[0])

        return count_flops(step), cache_k.numel() + cache_v.numel()
    raise ValueError(f"kind must be 'recurrent' or 'self-attention', got {kind!r}")


# --- the figures --------------------------------------------------------------------------

# one colour and marker per kind of layer, the same in both figures
_LAYER_STYLE = {
    "recurrent": (COLORS[0], "o"),
    "recurrent (LSTM)": (COLORS[1], "s"),
    "self-attention": (COLORS[2], "D"),
    "convolutional (k=3)": (COLORS[3], "^"),
    "restricted self-attention (r=16)": (COLORS[4], "v"),
}


def _log_axes(ax, xs: list[int], xlabel: str) -> None:
    """Log-log axes with a labelled tick at each x that was counted, and at 1, 2, 5, 10, 20, ... on y."""
    log_axis(ax, "x", ticks=xs)
    log_axis(ax, "y", subs=(1.0, 2.0, 5.0))
    ax.set_xlabel(xlabel)


def plot_flops(Ns: list[int], flops: dict[str, list[int]], d: int):
    """FLOPs of one layer against N, log-log, one line per kind."""
    fig, ax = new_figure(width=6.8, height=3.6)
    for kind, values in flops.items():
        color, marker = _LAYER_STYLE[kind]
        ax.plot(Ns, values, marker=marker, color=color, label=kind)
    ax.axvline(d, color="grey", lw=1, ls="--", label=f"N = d = {d}")
    _log_axes(ax, Ns, "sequence length N (tokens)")
    ax.set(ylabel="FLOPs of one layer", title=f"work per layer, counted (d = {d})")
    ax.legend(fontsize=8, loc="upper left")
    return fig


def plot_generation(ts: list[int], d: int):
    """Per-token FLOPs and state size against the position t, recurrent vs attention."""
    fig, (ax1, ax2) = new_figure(1, 2, width=9.0, height=3.4)
    for kind in ("recurrent", "self-attention"):
        color, marker = _LAYER_STYLE[kind]
        flops, state = zip(*(generation_step(kind, t, d) for t in ts))
        ax1.plot(ts, flops, marker=marker, color=color, label=kind)
        ax2.plot(ts, state, marker=marker, color=color, label=kind)
    for ax in (ax1, ax2):
        _log_axes(ax, ts, "position t of the new token")
    ax1.set(ylabel="FLOPs to produce it", title=f"generation cost per token (d = {d})")
    ax2.set(ylabel="numbers kept between tokens", title=f"state memory (d = {d})")
    ax1.legend(fontsize=8)
    return fig


def _two_steps() -> tuple:
    return tuple((torch.rand(3, 4), torch.randn(3, 4)) for _ in range(2))


register_exercise(
    "combine",
    reference=combine,
    make_inputs=_two_steps,
    hint="apply (a1, b1) to h, then (a2, b2) to the result: "
    "a2 * (a1 * h + b1) + b2, and read off the new a and b.",
)
register_exercise(
    "scan_steps_1000",
    reference=lambda: scan_steps(1000),
    hint="the offset doubles each step: 1, 2, 4, ... until it reaches N.",
    worked="Step s combines at offset 2^(s-1): after s steps, position t holds the last 2^s steps.\n"
    "The scan is done when 2^s >= N = 1000: 2^9 = 512 is too few, 2^10 = 1024 is enough.\n"
    "So ceil(log2 1000) = 10 steps.",
)
