"""Notebook 08: its figures, widgets, constants and exercises."""

import itertools
import math

import torch
import torch.autograd.forward_ad as fwAD
from torch import nn

from .. import gpu_sweep as gs
from ..attention import scaled_dot_product_attention
from ..checks import require_positive_int, within_rounding
from ..course.exercises import register_exercise
from ..course.style import COLORS, log_axis, new_figure
from ..course.widgets import Explorer, choice, register
from ..lstm import lstm_step
from ..measure import count_flops, graph_depth, one_thread
from ..multihead import MultiHeadSelfAttention
from ..rnn import pre_activation, rnn_forward, rnn_step, tanh_step
from ..scan import (
    combine,
    linear_recurrence_chunked,
    linear_recurrence_conv,
    linear_recurrence_loop,
    linear_recurrence_scan,
    scan_steps,
)
from ..seed import seeded

DEVICE = torch.device("cpu")  # counts depend only on shapes; "meta" would also work, but slower here
R = 16  # the window of restricted self-attention: a token sees itself and the R tokens before it
K = 3  # the kernel width of the convolutions


# --- one layer of each kind of Vaswani et al.'s Table 1, input x (1, N, d) ---------------
# Each factory takes the sequence length N, the width d and the tensors' device and dtype.


def _rnn_layer(N: int, d: int, **kw):
    W = torch.randn(d, d, **kw) / math.sqrt(d)  # random: a path shows as a nonzero derivative
    return lambda x: rnn_forward(x, W, W, torch.zeros(d, **kw))[0]


def _lstm_layer(N: int, d: int, **kw):
    W_ih, W_hh = (torch.randn(4 * d, d, **kw) / math.sqrt(d) for _ in range(2))
    b = torch.zeros(4 * d, **kw)

    def layer(x):
        h = c = torch.zeros(x.shape[0], d, **kw)
        out = []
        for t in range(x.shape[1]):  # sequential: step t needs step t-1
            h, c, _ = lstm_step(x[:, t], h, c, W_ih, W_hh, b)
            out.append(h)
        return torch.stack(out, 1)  # (1, N, d)

    return layer


def _attention_layer(N: int, d: int, **kw):
    attention = MultiHeadSelfAttention(d, 1).to(**kw)
    return lambda x: attention(x)[0]


def _conv_layer(N: int, d: int, k: int = K, **kw):
    """A convolution of width k over time: output t sees inputs t-1, t, t+1 (k = 3)."""
    conv = nn.Conv1d(d, d, k, padding=k // 2, **kw)
    return lambda x: conv(x.transpose(1, 2)).transpose(1, 2)


def _dilated_conv_layer(N: int, d: int, dilation: int = K, k: int = K, **kw):
    """A causal convolution of width k with gaps: output t sees t, t - dilation, t - 2 dilation (k = 3)."""
    conv = nn.Conv1d(d, d, k, dilation=dilation, **kw)
    pad = (k - 1) * dilation  # zeros before token 0: the output keeps N positions
    return lambda x: conv(nn.functional.pad(x.transpose(1, 2), (pad, 0))).transpose(1, 2)


def _restricted_attention_layer(N: int, d: int, r: int = R, **kw):
    """Vaswani et al.'s restricted self-attention as a sliding window: token t attends to
    itself and the r tokens before it, t - r .. t (as in Mistral 7B, Jiang et al. 2023).
    One layer moves information r tokens forward, so linking tokens D apart takes
    ceil(D / r) layers: Table 1's O(N / r)."""
    proj, out = nn.Linear(d, 3 * d, **kw), nn.Linear(d, d, **kw)
    before_start = torch.arange(N)[:, None] + torch.arange(r + 1) < r  # (N, r+1)
    mask = ~before_start[:, None, :]  # (N, 1, r+1): False on the padding before token 0

    def windows(t):  # (N, d) -> (N, r+1, d): row t holds positions t-r .. t
        return torch.cat([t.new_zeros(r, d), t]).unfold(0, r + 1, 1).transpose(1, 2)

    def layer(x):
        q, k, v = proj(x[0]).chunk(3, dim=-1)  # each (N, d)
        y, _ = scaled_dot_product_attention(q[:, None], windows(k), windows(v), mask)  # (N, 1, d)
        return out(y[:, 0])[None]  # (1, N, d)

    return layer


LAYERS = {
    "recurrent": _rnn_layer,
    "recurrent (LSTM)": _lstm_layer,
    "self-attention": _attention_layer,
    "convolutional (k=3)": _conv_layer,
    "restricted self-attention (r=16)": _restricted_attention_layer,
}

FLOP_FORMULAS = {  # kind -> FLOPs of one layer on N tokens of width d (2 FLOPs per multiply-add)
    "recurrent": lambda N, d: 4 * N * d * d,  # W_xh x_t and W_hh h_{t-1}, N times
    "recurrent (LSTM)": lambda N, d: 16 * N * d * d,  # the same for four gates
    "self-attention": lambda N, d: 8 * N * d * d + 4 * N * N * d,  # 4 projections; QK^T and AV
    "convolutional (k=3)": lambda N, d: 2 * K * N * d * d,  # k products of (d x d) per token
    "restricted self-attention (r=16)": lambda N, d: 8 * N * d * d + 4 * (R + 1) * N * d,  # r+1 keys
}


DILATED = "convolutional (k=3), causal, dilated 1, 3, 9, ..."
PATH_KINDS = [*LAYERS, DILATED]  # the layers of Table 1, and the dilated convolution of its path column


def _layer(kind: str, N: int, d: int, dtype=torch.float32, dilation: int = K):
    """One layer of `kind` (a key of PATH_KINDS); a dilated one has gaps of `dilation`."""
    if kind not in PATH_KINDS:
        raise ValueError(f"kind must be one of {PATH_KINDS}, got {kind!r}")
    require_positive_int(N, "N (the sequence length)")
    require_positive_int(d, "d (the width)")
    with seeded(0):  # the weights never move the notebook's random state
        if kind == DILATED:
            return _dilated_conv_layer(N, d, dilation, device=DEVICE, dtype=dtype)
        return LAYERS[kind](N, d, device=DEVICE, dtype=dtype)


def layer_flops(kind: str, N: int, d: int) -> int:
    """FLOPs of one layer of `kind` (a key of PATH_KINDS) on a sequence of N vectors of size d."""
    layer, x = _layer(kind, N, d), torch.zeros(1, N, d, device=DEVICE)
    with torch.no_grad():  # forward only: no graph to record
        return count_flops(lambda: layer(x))


def dependent_steps(kind: str, N: int, d: int = 8) -> int:
    """Autograd graph depth of one layer of `kind` on a real (1, N, d) input."""
    layer = _layer(kind, N, d)
    with seeded(0):
        x = torch.randn(1, N, d, requires_grad=True)
    return graph_depth(layer(x))


# --- path length: how many stacked layers link two tokens D apart -------------------------


def _stack(kind: str, N: int, d: int):
    """Layers of `kind`, one after another, in float64; the dilated one's layer l has dilation 3^l."""
    for depth in itertools.count():
        yield _layer(kind, N, d, dtype=torch.float64, dilation=K**depth)


def link_depths(kind: str, N: int, d: int = 4, max_layers: int = 1024) -> list[int]:
    """For each position t of N tokens, the fewest stacked layers of `kind` through which the
    output at t depends on the input at position 0 (0 for t = 0 itself).

    Counted by forward-mode autograd on a real input: the derivative of every output with
    respect to token 0 is carried through the layers (in float64, rescaled after each layer
    so that it cannot underflow), and it is exactly zero where no path of operations exists.
    One recurrent layer links every pair, through the t steps of its chain.
    """
    if kind not in PATH_KINDS:
        raise ValueError(f"kind must be one of {PATH_KINDS}, got {kind!r}")
    require_positive_int(N, "N (the sequence length)", minimum=2)
    with seeded(0):
        x = torch.randn(1, N, d, dtype=torch.float64)
    tangent = torch.zeros_like(x)
    tangent[0, 0] = 1.0  # d/d(token 0)
    depths = [0] + [None] * (N - 1)
    with one_thread(), fwAD.dual_level():  # tiny layers: one thread is fastest
        for n_layers, layer in enumerate(_stack(kind, N, d), start=1):
            x, tangent = fwAD.unpack_dual(layer(fwAD.make_dual(x, tangent)))
            felt = tangent[0].abs().sum(-1) > 0  # (N,): which outputs depend on token 0
            depths = [n_layers if old is None and now else old for old, now in zip(depths, felt.tolist())]
            if None not in depths:
                return depths
            if n_layers == max_layers:
                raise ValueError(f"{kind!r}: no path over {N - 1} tokens within {max_layers} layers")
            tangent = tangent / tangent.abs().max()  # a derivative's size is not the point: its support is
    raise AssertionError("unreachable")


def layers_to_link(kind: str, distance: int, d: int = 4, max_layers: int = 1024) -> int:
    """The fewest stacked layers of `kind` through which the output at position `distance`
    depends on the input at position 0 (see link_depths)."""
    require_positive_int(distance, "distance")
    return link_depths(kind, distance + 1, d, max_layers)[distance]


# --- generating one token at position t: the rows the article leaves out ------------------


def _generation(kind: str, t: int, d: int):
    """(step, state, full) for the token at position t of one layer of `kind`, width d, after t
    random tokens: `step` computes the output at t from the new token and `state` alone, `state`
    is what the layer itself keeps from the t tokens before, and `full` is PyTorch's output at t
    computed from all t + 1 tokens at once, keeping nothing, to compare with `step`.

    recurrent: nn.RNN (tanh); its state is h_{t-1} as nn.RNN returns it (d numbers).
    self-attention: nn.MultiheadAttention with one head; its state is the key-value cache, the
    keys and values its own input projection gives the t tokens before (2 t d numbers).
    """
    require_positive_int(t, "t (the position)")
    require_positive_int(d, "d (the width)")
    if kind not in ("recurrent", "self-attention"):
        raise ValueError(f"kind must be 'recurrent' or 'self-attention', got {kind!r}")
    with seeded(0):  # the layer and the tokens never move the notebook's random state
        before, x = torch.randn(1, t, d, device=DEVICE), torch.randn(1, 1, d, device=DEVICE)
        if kind == "recurrent":
            layer = nn.RNN(d, d, batch_first=True, device=DEVICE)
        else:
            layer = nn.MultiheadAttention(d, 1, batch_first=True, device=DEVICE)
    everything = torch.cat([before, x], 1)  # (1, t + 1, d)
    if kind == "recurrent":
        _, h = layer(before)  # (1, 1, d): all nn.RNN keeps of the t tokens
        W_ih, W_hh, b = layer.weight_ih_l0, layer.weight_hh_l0, layer.bias_ih_l0 + layer.bias_hh_l0

        def step():
            return rnn_step(x[:, 0], h[0], W_ih, W_hh, b)  # (1, d)

        return step, [h], lambda: layer(everything)[0][:, -1]
    W, b = layer.in_proj_weight, layer.in_proj_bias  # (3d, d), (3d,): q, k, v stacked
    _, cache_k, cache_v = nn.functional.linear(before, W, b).chunk(3, dim=-1)  # (1, t, d) each

    def step():
        q, k, v = nn.functional.linear(x, W, b).chunk(3, dim=-1)  # (1, 1, d) each
        keys, values = torch.cat([cache_k, k], 1), torch.cat([cache_v, v], 1)  # (1, t + 1, d)
        return layer.out_proj(scaled_dot_product_attention(q, keys, values)[0])[:, 0]  # (1, d)

    causal = torch.ones(t + 1, t + 1, dtype=torch.bool, device=DEVICE).triu(1)  # True: may not attend
    full = lambda: layer(everything, everything, everything, attn_mask=causal, need_weights=False)[0][:, -1]
    return step, [cache_k, cache_v], full


def generation_step(kind: str, t: int, d: int) -> tuple[int, int]:
    """(FLOPs, numbers of state kept) to produce the token at position t, one layer, counted.

    recurrent: h_t = tanh(W_ih x_t + W_hh h_{t-1} + b) from nn.RNN's state h_{t-1}.
    self-attention with a key-value cache: project x_t, attend to the t cached keys and values
    and its own, project out; the state is the cache that nn.MultiheadAttention's projection
    gives the t tokens before. `state_suffices` checks that the step needs nothing more.
    """
    with torch.no_grad():
        step, state, _ = _generation(kind, t, d)
        return count_flops(step), sum(s.numel() for s in state)


def state_suffices(kind: str, t: int, d: int, bound: float = 1e-5) -> str:
    """The step computed from the state alone against PyTorch's layer run on all t + 1 tokens
    (nn.RNN; nn.MultiheadAttention with a causal mask): max |difference| as a bound, e.g. "< 1e-5"."""
    with torch.no_grad():
        step, _, full = _generation(kind, t, d)
        return within_rounding(step() - full(), bound=bound)


GENERATION_FORMULAS = {  # kind -> (FLOPs, numbers kept) for the token at position t, width d
    "recurrent": lambda t, d: (4 * d * d, d),
    "self-attention": lambda t, d: (8 * d * d + 4 * (t + 1) * d, 2 * t * d),
}


# --- the epilogue: what a linear, element-wise recurrence saves ---------------------------


def chain_costs(N: int, d: int) -> dict[str, tuple[int, int | None]]:
    """Matrix-product FLOPs (what FlopCounterMode counts) of three recurrences over N steps of
    width d, inputs already projected: (inside the loop over t, inside one combine of two steps
    in a scan). None: the tanh has no combine."""
    require_positive_int(N, "N (the sequence length)")
    require_positive_int(d, "d (the width)")
    with seeded(0):
        W, u = torch.randn(d, d) / math.sqrt(d), torch.randn(N, d)  # (d, d), (N, d)
        a = torch.rand(N, d)  # (N, d): element-wise decays

    def tanh_loop():
        h = torch.zeros(1, d)  # (1, d): a row, batch first
        for u_t in u:  # h_t = tanh(u_t + W h_{t-1}): the RNN's chain
            h = tanh_step(u_t, h, W)

    def dense_loop():
        h = torch.zeros(1, d)
        for u_t in u:  # h_t = W h_{t-1} + u_t: linear, but a d x d product per step
            h = pre_activation(u_t, h, W)

    dense_combine = lambda: (W @ W, u[0][None] @ W.T + u[1])  # (W, u1) then (W, u2): W W is d x d x d
    return {
        "tanh RNN: h = tanh(W h + u_t)": (count_flops(tanh_loop), None),
        "linear, dense: h = W h + u_t": (count_flops(dense_loop), count_flops(dense_combine)),
        "linear, diagonal: h = a_t * h + u_t": (
            count_flops(lambda: linear_recurrence_loop(a, u)),
            count_flops(lambda: combine((a[0], u[0]), (a[1], u[1]))),
        ),
    }


ALGORITHMS = [  # (the way to compute h_t = a_t h_{t-1} + b_t, who uses it, what a_t must be)
    ("loop", "RWKV-4 (a serial CUDA loop)", "anything"),
    ("scan", "Mamba, minGRU", "anything"),
    ("convolution (FFT)", "S4, in training", "the same at every t"),
    ("chunks of {chunk}, a matmul in each", "Mamba-2", "one number per step"),
]


def compare_algorithms(decay: torch.Tensor, b: torch.Tensor, chunk: int = 50) -> list[list]:
    """Each algorithm of ALGORITHMS on the decays it accepts, made from `decay` (N, d), against
    the loop: [name, used by, a_t must be, longest chain of its autograd graph, max |difference|].
    The loop is the reference (tests/test_scan.py checks it against the recurrence worked out by
    hand): its row says so, instead of a difference with itself."""
    N = len(b)
    a_const, a_scalar = decay[0], decay[:, 0]  # (d,): fixed in time; (N,): one number per step
    cases = [
        (decay, lambda b: linear_recurrence_loop(decay, b)),
        (decay, lambda b: linear_recurrence_scan(decay, b)),
        (a_const.expand(N, -1), lambda b: linear_recurrence_conv(a_const, b)),
        (a_scalar[:, None].expand(N, b.shape[1]), lambda b: linear_recurrence_chunked(a_scalar, b, chunk)),
    ]
    rows = []
    for (name, used_by, needs), (a, run) in zip(ALGORITHMS, cases):
        b_ = b.detach().requires_grad_()
        h = run(b_)
        reference = linear_recurrence_loop(a, b)
        gap = "(the reference)" if name == "loop" else within_rounding(h - reference, bound=1e-12)
        rows.append([name.format(chunk=chunk), used_by, needs, graph_depth(h), gap])
    return rows


# --- the figures --------------------------------------------------------------------------

# one colour and marker per kind of layer, the same in every figure
_LAYER_STYLE = {
    "recurrent": (COLORS[0], "o"),
    "recurrent (LSTM)": (COLORS[1], "s"),
    "self-attention": (COLORS[2], "D"),
    "convolutional (k=3)": (COLORS[3], "^"),
    "restricted self-attention (r=16)": (COLORS[4], "p"),
}
_SHORT = ["RNN", "LSTM", "attention", "conv", "window"]  # LAYERS, in order, for bar labels


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


# --- the widget: d and N over the FLOP and generation rows --------------------------------

WIDTHS = (16, 32, 64, 128, 256, 512, 1024)
LENGTHS = (16, 64, 256, 1024, 4096, 16384)


def _cost_bars(d: int, N: int) -> tuple[list[int], list[int], list[str]]:
    """What the cost figure draws: the FLOPs of one layer of each kind over N tokens; the FLOPs
    and the state of generating token N, recurrent then attention; and the two panels' labels,
    which state attention's cost as a multiple of the RNN's."""
    if d not in WIDTHS or N not in LENGTHS:
        raise ValueError(f"d must be one of {WIDTHS} and N one of {LENGTHS}, got d={d!r}, N={N!r}")
    train = [FLOP_FORMULAS[kind](N, d) for kind in LAYERS]
    (rnn_f, rnn_s), (att_f, att_s) = (GENERATION_FORMULAS[k](N, d) for k in ("recurrent", "self-attention"))
    labels = [
        f"one layer: attention = {N / d + 2:g} x RNN",  # N/d + 2
        f"token N: attention = {att_f / rnn_f:.1f} x, {att_s // rnn_s:,} x RNN",  # FLOPs; state (2N)
    ]
    return train, [rnn_f, rnn_s, att_f, att_s], labels


_LABEL = {"fontsize": 9}


def plot_costs(d: int = 64, N: int = 1024):
    """Left: FLOPs of one layer of each kind over N tokens. Right: the cost of generating token N,
    FLOPs and numbers kept, recurrent (blue, plain, left) against attention (green, hatched, right),
    each bar named under it, so that colour is not needed to tell them apart. One log y axis with
    fixed limits that fit every d and N, and few texts, so that a redraw stays fast."""
    train, gen, labels = _cost_bars(d, N)
    shape = {"sharey": True, "gridspec_kw": {"width_ratios": (5, 4)}}
    fig, (ax1, ax2) = new_figure(1, 2, width=7.4, height=2.6, **shape)
    hatch = lambda kind: "//" if kind == "self-attention" else None  # attention hatched in both panels
    ax1.bar(_SHORT, train, color=[_LAYER_STYLE[k][0] for k in LAYERS], hatch=[hatch(k) for k in LAYERS])
    for offset, kind, values in ((-0.2, "recurrent", gen[:2]), (0.2, "self-attention", gen[2:])):
        ax2.bar([offset, 1 + offset], values, width=0.4, color=_LAYER_STYLE[kind][0], hatch=hatch(kind))
    ax2.set_xticks([-0.2, 0.2, 0.8, 1.2], ["RNN\nFLOPs", "attn.\nFLOPs", "RNN\nstate", "attn.\nstate"])
    log_axis(ax1, "y", ticks=(1e2, 1e7, 1e12))
    for ax, label in zip((ax1, ax2), labels):
        ax.set(ylim=(10, 1e14), ylabel="FLOPs, or numbers kept")
        ax.set_xlabel(label, **_LABEL)
    ax2.tick_params(labelleft=False)  # one y axis, labelled once; the hidden label is for screen readers
    ax2.yaxis.label.set_visible(False)
    return fig


def update_costs(fig, d: int = 64, N: int = 1024) -> None:
    """plot_costs's figure, redrawn in place for another d and N."""
    train, gen, labels = _cost_bars(d, N)
    for bar, height in zip([*fig.axes[0].patches, *fig.axes[1].patches], [*train, *gen]):
        bar.set_height(height)
    for ax, label in zip(fig.axes, labels):
        ax.set_xlabel(label, **_LABEL)


@register
def explore_costs() -> Explorer:
    """Width and sequence length over the per-layer FLOPs and the per-token generation cost."""
    controls = {"d": choice("width d", WIDTHS, 64), "N": choice("sequence length N", LENGTHS, 1024)}
    return Explorer(plot_costs, controls, name="costs", update=update_costs)


# --- the H200 at the article's sizes (notebook 06's measurements, shipped as CSV) -------------

GPU_MODELS = (gs.RNN, gs.LSTM, gs.MHA, gs.FAST_MHA)  # cuDNN's tanh RNN and LSTM; the two attention calls
_FLOP_KIND = {gs.RNN: "recurrent", gs.LSTM: "recurrent (LSTM)", gs.MHA: "self-attention"}


def h200_at_article_sizes(N: int = 512, d: int = 128, batch: int = 32) -> list[list]:
    """The H200 sweep (helpers/data/gpu/h200_sweep.csv) at B = 32, N = 512, d = 128, fp32: per model,
    [name, forward ms, forward + backward ms, its FLOPs as a multiple of attention's], the FLOPs from
    FLOP_FORMULAS (the counts of this notebook; the batch cancels in the ratio)."""
    sweep, at = gs.read("h200_sweep"), dict(batch=batch, seq_len=N, dim=d)
    attention = FLOP_FORMULAS["self-attention"](N, d)
    rows = []
    for model in GPU_MODELS:
        fwd, both = (gs.value(sweep, pass_=p, model=model, **at) for p in gs.PASSES)
        flops = FLOP_FORMULAS[_FLOP_KIND.get(model, "self-attention")](N, d) / attention
        rows.append([model, fwd, both, round(flops, 4)])
    return rows


def h200_runs_against(over: str = gs.LSTM) -> dict[str, tuple[float, float]]:
    """Every shipped H200 run at the article's sizes, forward + backward: run -> (ms of `over`, ms of
    attention with need_weights=False)."""
    return gs.runs_at_512(model=gs.FAST_MHA, over=over)


# --- linear attention: attention that is a linear recurrence -----------------------------


def feature_map(x: torch.Tensor) -> torch.Tensor:
    """phi(x) = elu(x) + 1 > 0, Katharopoulos et al. 2020's choice."""
    return nn.functional.elu(x) + 1


def linear_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Causal linear attention as attention (Katharopoulos et al. 2020): the score of key j for query
    t is phi(q_t) . phi(k_j) (no softmax), masked to j <= t and normalised; q, k (N, d), v (N, d_v)."""
    scores = (feature_map(q) @ feature_map(k).T).tril()  # (N, N): zero above the diagonal
    return scores @ v / scores.sum(-1, keepdim=True)  # (N, d_v)


def linear_attention_by_scan(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, int]:
    """The same output from a linear recurrence, S_t = S_{t-1} + phi(k_t) v_t^T and z_t = z_{t-1} +
    phi(k_t) (a_t = 1), computed by the parallel scan; y_t = phi(q_t)^T S_t / phi(q_t)^T z_t.
    Returns (y, numbers of state): S and z, d d_v + d numbers whatever N."""
    fq, fk = feature_map(q), feature_map(k)  # (N, d)
    b = torch.cat([fk[:, :, None] * v[:, None, :], fk[:, :, None]], dim=2)  # (N, d, d_v + 1): [k v^T | k]
    state = linear_recurrence_scan(torch.ones_like(b), b)  # (N, d, d_v + 1): [S_t | z_t] for every t
    read = torch.einsum("nd,nde->ne", fq, state)  # (N, d_v + 1)
    return read[:, :-1] / read[:, -1:], state[0].numel()


# --- exercises ----------------------------------------------------------------------------


def maxplus_combine(left: tuple, right: tuple) -> tuple:
    """Two steps h -> max(h + a, b), element-wise: first `left` = (a1, b1), then `right` = (a2, b2).
    max(max(h + a1, b1) + a2, b2) = max(h + (a1 + a2), max(b1 + a2, b2))."""
    (a1, b1), (a2, b2) = left, right
    return a1 + a2, torch.maximum(b1 + a2, b2)


def _two_steps() -> tuple:
    return tuple((torch.randn(3, 4), torch.randn(3, 4)) for _ in range(2))


register_exercise(
    "maxplus_combine",
    reference=maxplus_combine,
    make_inputs=_two_steps,
    hint="apply (a1, b1) to h, then (a2, b2) to the result: max(max(h + a1, b1) + a2, b2); "
    "adding a2 moves inside the inner max, and the max of three terms is a max of two.",
)
register_exercise(
    "scan_steps_million",
    reference=lambda: scan_steps(10**6),
    hint="after s steps each position holds the last 2^s steps: the scan is done when 2^s >= N.",
    worked="Step s combines at offset 2^(s-1): after s steps, position t holds the last 2^s steps.\n"
    "The scan is done when 2^s >= N = 1,000,000: 2^19 = 524,288 is too few, 2^20 = 1,048,576 is "
    "enough.\nSo ceil(log2 10^6) = 20 steps, against 1,000,000 for the loop.",
)
register_exercise(
    "attention_equals_lstm",
    reference=lambda: 512,
    hint="set one attention layer's count equal to one LSTM layer's, 8 N d^2 + 4 N^2 d = 16 N d^2, "
    "and solve for d at N = 1024.",
    worked="8 N d^2 + 4 N^2 d = 16 N d^2 gives 4 N^2 d = 8 N d^2, so N = 2 d.\n"
    "At N = 1024 that is d = 512: the widget's label then reads attention = N/d + 2 = 4 x RNN, "
    "the LSTM's 16 N d^2 / 4 N d^2.",
)
