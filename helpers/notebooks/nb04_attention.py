"""Notebook 04: its figures, widgets, constants and exercises."""

import functools
import math

import torch
from torch import nn

from ..attention import causal_mask, entropy, padding_mask
from ..checks import require_positive_int
from ..course.exercises import register_exercise
from ..course.style import COLORS, finding, finite_or_marked, log_axis, new_figure
from ..course.widgets import Explorer, choice, register
from ..jacobians import output_jacobian_norms
from ..measure import one_thread
from ..multihead import MultiHeadSelfAttention, last_token_attention
from ..seed import seeded
from ..spectra import largest_singular_value, spectral_radius
from .nb05_multihead_positions import SENTENCE, TYPES, WORD_TYPES


def identity_attention(d: int) -> nn.MultiheadAttention:
    """nn.MultiheadAttention(d, 1 head, batch_first=True) whose projections are the identity.

    Then mha(x, x, x) is plain softmax(x x^T / sqrt(d)) x: only the masks differ.
    """
    mha = nn.MultiheadAttention(d, 1, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(d).repeat(3, 1))  # [W_q; W_k; W_v] = [I; I; I]
        mha.out_proj.weight.copy_(torch.eye(d))
    return mha


# ---- Why sqrt(d_k): the variance of q.k grows with d_k --------------------------------

DK_CHOICES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


def random_scores(d_k: int, n_queries: int = 1, S: int = 16, seed: int = 0) -> torch.Tensor:
    """q . k for q, k with independent N(0, 1) entries: (n_queries, S), variance d_k."""
    require_positive_int(d_k, "d_k")
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n_queries, d_k, generator=g)
    k = torch.randn(S, d_k, generator=g)
    return q @ k.T  # (n_queries, S)


@functools.cache
def mean_entropies(S: int = 16, n_queries: int = 256) -> dict[str, list[float]]:
    """Mean entropy of softmax(q.k) and softmax(q.k / sqrt(d_k)) for each d_k in DK_CHOICES."""
    rows = {"raw": [], "scaled": []}
    for d_k in DK_CHOICES:
        s = random_scores(d_k, n_queries, S, seed=d_k)
        rows["raw"].append(entropy(s.softmax(-1)).mean().item())
        rows["scaled"].append(entropy((s / math.sqrt(d_k)).softmax(-1)).mean().item())
    return rows


def _scaling_lines(d_k: int, S: int = 16) -> tuple[list[float], list[float], list[str], str]:
    """What plot_scaling draws: the weights without and with 1/sqrt(d_k), their legend labels, the title."""
    s = random_scores(d_k, 1, S)[0]  # (S,)
    raw, scaled = s.softmax(-1), (s / math.sqrt(d_k)).softmax(-1)
    labels = [f"softmax(q·k): H = {entropy(raw):.2f}", f"softmax(q·k / √d_k): H = {entropy(scaled):.2f}"]
    title = f"One query, {S} keys, d_k = {d_k}; spread (std) of the {S} scores q·k: {s.std():.1f}\n"
    title += f"entropy H in nats (uniform: ln {S} = {math.log(S):.2f})"
    return raw.tolist(), scaled.tolist(), labels, title


def plot_scaling(d_k: int = 64, S: int = 16):
    """One query against S keys: the weights with and without 1/sqrt(d_k), and their entropy H."""
    raw, scaled, labels, title = _scaling_lines(d_k, S)
    fig, ax = new_figure(width=6.0, height=3.0)
    ax.plot(range(S), raw, "o-", color=COLORS[3], label=labels[0])
    ax.plot(range(S), scaled, "s-", color=COLORS[0], label=labels[1])
    ax.set(  # few ticks: each tick label costs time at every redraw
        ylim=(-0.02, 1.4),
        yticks=[0, 0.5, 1.0],
        xticks=range(0, S, 5),
        xlabel="key j",
        ylabel="attention weight",
    )
    ax.set_title(title, y=1.0)  # a fixed place: matplotlib need not measure the tick labels (faster)
    ax.legend(fontsize=8, loc="upper left")  # above the weights, which are <= 1
    return fig


def update_scaling(fig, d_k: int = 64, S: int = 16) -> None:
    """plot_scaling's figure, redrawn in place for another d_k."""
    ax = fig.axes[0]
    raw, scaled, labels, title = _scaling_lines(d_k, S)
    for line, weights, text, label in zip(ax.lines, (raw, scaled), ax.get_legend().get_texts(), labels):
        line.set_ydata(weights)
        line.set_label(label)
        text.set_text(label)
    ax.set_title(title, y=1.0)


def plot_entropy_vs_dk(S: int = 16):
    """Mean entropy of the weights against d_k, with and without the 1/sqrt(d_k) scaling."""
    rows = mean_entropies(S)
    fig, ax = new_figure(width=6.0, height=3.2)
    ax.plot(DK_CHOICES, rows["raw"], "o-", color=COLORS[3], label="softmax(q·k)")
    ax.plot(DK_CHOICES, rows["scaled"], "s-", color=COLORS[0], label="softmax(q·k / √d_k)")
    ax.axhline(math.log(S), ls=":", color=COLORS[7], label=f"uniform: ln {S} = {math.log(S):.2f}")
    log_axis(ax, "x", ticks=DK_CHOICES)
    ax.set(
        ylim=(0, math.log(S) * 1.1),
        xlabel="d_k (dimensions, log scale)",
        ylabel="entropy (nats)",
        title=f"Mean entropy over 256 random queries, {S} keys",
    )
    ax.legend(fontsize=8)
    return fig


@register
def explore_scaling() -> Explorer:
    """A d_k slider (powers of two) over plot_scaling."""
    return Explorer(
        plot_scaling, {"d_k": choice("d_k", DK_CHOICES, 64)}, name="scaling", update=update_scaling
    )


def softmax_jacobian_norms(d_k: int, n_queries: int = 1000, S: int = 16, seed: int = 0) -> dict:
    """||d a / d s||_F per query, a = softmax(s) ("raw") or softmax(s / sqrt(d_k)) ("scaled").

    Both are differentiated with autograd with respect to the SAME raw scores s = q.k
    (n_queries, S), which is what the gradient to q and k flows through: one backward pass
    per key j gives row j of every query's Jacobian. Also returns the largest weight of each
    query ("raw_max", "scaled_max").
    """
    s = random_scores(d_k, n_queries, S, seed).double().requires_grad_()  # (n_queries, S), float64
    out = {}
    with one_thread():  # small tensors: one thread is many times faster than several
        for name, c in (("raw", 1.0), ("scaled", math.sqrt(d_k))):
            a = (s / c).softmax(-1)  # (n_queries, S)
            rows = [torch.autograd.grad(a[:, j].sum(), s, retain_graph=True)[0] for j in range(S)]
            out[name] = torch.stack(rows).pow(2).sum(dim=(0, 2)).sqrt()  # (n_queries,): ||J||_F per query
            out[f"{name}_max"] = a.detach().max(-1).values  # (n_queries,)
    return out


# ---- Exercises ------------------------------------------------------------------------


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """softmax(q k^T / sqrt(d_k)) v; q (..., L, d_k), k (..., S, d_k), v (..., S, d_v)."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., L, S)
    return scores.softmax(dim=-1) @ v  # (..., L, d_v)


def _qkv(trial: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """q (..., L, d_k), k (..., S, d_k), v (..., S, d_v): one batch dim (3-D) in even trials, two (4-D) in
    odd ones, every size drawn and all different, so that a fixed d_k (sqrt(8)) or a fixed axis
    (transpose(1, 2)) fails."""
    n_batch = 1 + trial % 2
    *batch, L, S, d_k, d_v = (2 + torch.randperm(10)[: n_batch + 4]).tolist()  # distinct sizes, 2..11
    return torch.randn(*batch, L, d_k), torch.randn(*batch, S, d_k), torch.randn(*batch, S, d_v)


register_exercise(
    "attention",
    reference=attention,
    make_inputs=_qkv,
    hint="scores are q @ k.transpose(-2, -1), divided by sqrt(d_k) = sqrt(q.shape[-1]); "
    "softmax over the keys (dim=-1), then multiply by v.",
)
register_exercise(
    "score_spread",
    reference=lambda: 16,
    hint="the variance of q.k is d_k; the spread (standard deviation) is the square root of the variance.",
    worked="q.k = q_1 k_1 + ... + q_256 k_256: 256 independent terms of variance 1.\n"
    "Variances add: Var(q.k) = d_k = 256.\n"
    "The spread is its square root: sqrt(256) = 16. After the division by sqrt(d_k) it would be 1.",
)
register_exercise(
    "uniform_entropy",
    reference=lambda: math.log(2),
    hint="first find the entropy of uniform weights over N keys, -sum (1/N) ln(1/N); then compare 2N with N.",
    worked="Uniform over N keys: p_j = 1/N, so H(N) = -N * (1/N) * ln(1/N) = ln N.\n"
    "H(2N) - H(N) = ln 2N - ln N = ln 2, whatever N is.\n"
    "math.log(2) = 0.6931 nats (1 bit).",
)


def mha_attn_mask(lengths: list[int], L: int) -> torch.Tensor:
    """(B, L, L) attn_mask for nn.MultiheadAttention (True = may NOT attend): causal and padding.

    Query t may attend to key j when j <= t (causal) and j < lengths[b] (a real token):
    SDPA's mask (True = may attend) is their AND; nn.MultiheadAttention wants its inverse.
    """
    return ~(causal_mask(L) & padding_mask(lengths, L))  # (L, L) & (B, 1, L) -> (B, L, L)


def _lengths_and_L() -> tuple[list[int], int]:
    """3 sequences of L = 7 slots: one full, two padded (so that padding matters in every trial)."""
    L = 7
    return [L, *torch.randint(2, L, (2,)).tolist()], L


register_exercise(
    "mha_mask",
    reference=mha_attn_mask,
    make_inputs=_lengths_and_L,
    hint="build the mask in SDPA's convention first (True = may attend): helpers.causal_mask(L) "
    "& attention.padding_mask(lengths, L), which masks keys (columns); then invert it with ~.",
)

ARCHITECTURES = ("RNN", "LSTM", "attention")


def make_module(kind: str, d: int = 32, seed: int = 0) -> nn.Module:
    """One layer at PyTorch's initialisation, in float64: nn.RNN, nn.LSTM, or our one-head attention.

    The attention is helpers.MultiHeadSelfAttention(d, 1): nn.Linear projections at their
    default initialisation, no residual connection, no LayerNorm.
    """
    if kind not in ARCHITECTURES:
        raise ValueError(f"kind must be one of {ARCHITECTURES}, got {kind!r}")
    require_positive_int(d, "d")
    layer = {"RNN": nn.RNN, "LSTM": nn.LSTM}.get(kind)
    with seeded(seed):
        if layer is not None:
            return layer(d, d, batch_first=True).double()
        return MultiHeadSelfAttention(d, 1).double()


def make_model(kind: str, d: int = 32, seed: int = 0):
    """make_module's layer as f: x (B, N, d) -> y_N (B, d), its output at the last position."""
    module = make_module(kind, d, seed)
    if kind == "attention":
        return lambda x: last_token_attention(module, x)
    return lambda x: module(x)[0][:, -1]


def rnn_spectral_radius(d: int = 32, seed: int = 0) -> float:
    """rho(W_hh) of the nn.RNN that make_model("RNN", d, seed) builds."""
    return spectral_radius(make_module("RNN", d, seed).weight_hh_l0.detach())


def random_sequence(N: int, d: int, seed: int = 0) -> torch.Tensor:
    """x (N, d), standard normal, float64 (an RNN's gradient underflows float32 past ~1e-38)."""
    require_positive_int(N, "N (the sequence length)", minimum=2)
    return torch.randn(N, d, dtype=torch.float64, generator=torch.Generator().manual_seed(seed))


def gradient_vs_distance(N: int = 100, d: int = 32, seed: int = 0) -> dict[str, torch.Tensor]:
    """Per model, ||dy_N / dx_t|| at distance N - t = 1, 2, ..., N - 1 (entry 0 = distance 1)."""
    x = random_sequence(N, d, seed)
    return {kind: output_jacobian_norms(make_model(kind, d, seed), x)[:-1].flip(0) for kind in ARCHITECTURES}


def plot_gradient_vs_distance(N: int = 100, d: int = 32, seed: int = 0):
    """Log-scale ||dy_N / dx_t|| against the distance N - t, the three models side by side."""
    norms = gradient_vs_distance(N, d, seed)
    fig, ax = new_figure(width=6.4, height=3.4)
    for color, style, (kind, g) in zip(COLORS, ("-", "--", "-."), norms.items()):
        finite_or_marked(ax, range(1, N), g.tolist(), label=kind, color=color, ls=style)  # not colour alone
    log_axis(ax, "y")
    ax.set(
        xlabel="distance N - t (tokens)",
        ylabel=r"$\|\partial y_N / \partial x_t\|_F$",
        title=f"Gradient from the last output to an earlier input (N = {N}, d = {d}, at init)",
    )
    ax.legend()
    return fig


def attention_dilution(Ns=(16, 64, 256, 1024, 4096), d: int = 32, seed: int = 0) -> dict[str, list]:
    """Attention at init: ||dy_N/dx_t||_F to the first token, and its mean and sum over the N - 1
    earlier tokens t < N, per N."""
    f = make_model("attention", d, seed)
    rows = {"N": [], "first": [], "mean": [], "total": []}
    for N in Ns:
        g = output_jacobian_norms(f, random_sequence(N, d, seed))[:-1]  # every t < N
        for key, value in (
            ("N", N),
            ("first", g[0].item()),
            ("mean", g.mean().item()),
            ("total", g.sum().item()),
        ):
            rows[key].append(value)
    return rows


def plot_dilution(rows: dict[str, list]):
    """Log-log: attention's gradient to one token against N, with a 1/N guide, and the sum over tokens."""
    fig, ax = new_figure(width=6.0, height=3.4)
    N = rows["N"]
    norm = r"$\|\partial y_N / \partial x_t\|_F$"
    ax.plot(N, rows["mean"], "o-", color=COLORS[2], label=f"{norm}, mean over the N - 1 tokens t < N")
    ax.plot(N, rows["first"], "s--", color=COLORS[0], label=r"$\|\partial y_N / \partial x_1\|_F$")
    ax.plot(N, rows["total"], "^-", color=COLORS[1], label=f"{norm}, sum over the N - 1 tokens t < N")
    guide = [rows["mean"][0] * N[0] / n for n in N]
    ax.plot(N, guide, ":", color=COLORS[7], label="slope 1/N")
    log_axis(ax, "x", ticks=N)
    log_axis(ax, "y")
    ax.set(
        xlabel="sequence length N (tokens)",
        ylabel="gradient norm (Frobenius)",
        title="Diffuse attention shares one gradient among N tokens",
    )
    ax.legend(fontsize=8)
    return fig


# ---- One query by hand: notebook 05's toy sentence, each word described by its type ----

WANTS = {"determiner": "noun", "verb": "noun", "preposition": "noun", "noun": "verb"}  # type -> wanted type
TOY_STRENGTH = 4.0  # the length of a toy query: how loudly a word asks


def _type_vector(word_type: str) -> torch.Tensor:
    """(4,) one-hot over TYPES (determiner, noun, verb, preposition)."""
    return torch.eye(len(TYPES))[TYPES.index(word_type)]


def toy_keys(words=SENTENCE) -> torch.Tensor:
    """(len(words), 4): row j, the key of word j, is its type, one-hot over TYPES."""
    for w in words:
        if w not in WORD_TYPES:
            raise ValueError(f"unknown word {w!r}; known: {', '.join(sorted(WORD_TYPES))}")
    return torch.stack([_type_vector(WORD_TYPES[w]) for w in words])


def toy_query(word: str, strength: float = TOY_STRENGTH) -> torch.Tensor:
    """(4,): the query of `word`, `strength` times the one-hot of the type it asks for (WANTS)."""
    if word not in WORD_TYPES:
        raise ValueError(f"unknown word {word!r}; known: {', '.join(sorted(WORD_TYPES))}")
    return strength * _type_vector(WANTS[WORD_TYPES[word]])


def plot_word_attention(weights: torch.Tensor, words=SENTENCE):
    """Heatmap of (L, S) attention weights, rows = queries, columns = keys, labelled with the words."""
    L, S = weights.shape
    fig, ax = new_figure(width=4.6, height=3.6)
    image = ax.imshow(weights.detach().numpy(), vmin=0, vmax=1, cmap="viridis")
    for i in range(L):
        for j in range(S):  # the weight in each cell, dark text on light cells
            w = weights[i, j].item()
            colour = "black" if w > 0.5 else "white"
            ax.text(j, i, f"{w:.2f}", ha="center", va="center", fontsize=8, color=colour)
    ax.grid(False)
    ax.set_xticks(range(S), list(words))
    ax.set_yticks(range(L), [f"{w} ({i})" for i, w in enumerate(words)])
    ax.set(xlabel="key: the word looked at", ylabel="query: the word looking", title="Where each word looks")
    fig.colorbar(image, ax=ax, shrink=0.8, label="attention weight")
    return finding(fig, f"{L} rows of weights, one per query word, each over the {S} words; rows sum to 1.")


def _nouns_and_others(words=SENTENCE) -> tuple[int, int]:
    nouns = sum(WORD_TYPES[w] == "noun" for w in words)
    return nouns, len(words) - nouns


def _strength_for_nouns(share: float = 0.9) -> float:
    """The query strength c at which the nouns take `share` of "sat"'s weight (d_k = 4).

    Noun scores are c / sqrt(4), the others 0: n e^{c/2} / (n e^{c/2} + m) = share."""
    n, m = _nouns_and_others()
    return math.sqrt(len(TYPES)) * math.log(share * m / ((1 - share) * n))


register_exercise(
    "query_strength",
    reference=_strength_for_nouns,
    hint="a noun's score is strength * 1 / sqrt(d_k) with d_k = 4, every other word's is 0; "
    "write the two nouns' share of the softmax and set it to 0.9.",
    worked="Nouns score c / sqrt(4) = c / 2; the 4 other words score 0.\n"
    "Their share: 2 e^{c/2} / (2 e^{c/2} + 4) = 0.9, so 0.2 e^{c/2} = 3.6 and e^{c/2} = 18.\n"
    "c = 2 ln 18 = 5.781 (with no sqrt(d_k) it would be ln 18).",
)


# ---- Corrections: why the distance figure's RNN decays; what the 1/N slows -------------


def rnn_norms(d: int = 32, seed: int = 0) -> tuple[float, float]:
    """(rho, sigma_max) of the W_hh of make_model("RNN", d, seed): spectral radius, largest singular value."""
    W = make_module("RNN", d, seed).weight_hh_l0.detach()
    return spectral_radius(W), largest_singular_value(W)


def rnn_decay(N: int = 100, d: int = 32, seed: int = 0, input_scale: float = 1.0) -> dict[str, float]:
    """The RNN's ||dy_N/dx_t|| per step of distance (geometric mean ratio from distance 1 to N - 1), and
    the mean tanh slope 1 - h_t^2 along the way, for the inputs random_sequence(N, d) * input_scale."""
    x = input_scale * random_sequence(N, d, seed)
    g = output_jacobian_norms(make_model("RNN", d, seed), x)[:-1].flip(0)  # distance 1 .. N - 1
    h, _ = make_module("RNN", d, seed)(x[None])  # (1, N, d)
    return {"rate": (g[-1] / g[0]).item() ** (1 / (N - 2)), "slope": (1 - h.detach() ** 2).mean().item()}


def score_gradient_dilution(Ns=(16, 64, 256, 1024, 4096), d: int = 32, seed: int = 0) -> list[float]:
    """Attention at init: per N, the mean over t < N of ||dy_N / ds_t||, s (N,) the last query's scores.

    The gradient that would move score s_t (where to attend): dy_N/ds_t = W_o a_t (v_t - sum_j a_j v_j)."""
    attn = make_module("attention", d, seed)
    W_o = attn.out_proj.weight.detach()  # (d, d)
    out = []
    for N in Ns:
        with torch.no_grad():
            q, k, v = attn.in_proj(random_sequence(N, d, seed)).split(d, dim=-1)  # each (N, d)
            a = (k @ q[-1] / math.sqrt(d)).softmax(0)  # (N,): the last query's weights
            grads = (a[:, None] * (v - a @ v)) @ W_o.T  # (N, d): row t is dy_N / ds_t
        out.append(grads[:-1].norm(dim=1).mean().item())
    return out


def average_gradient_norm(d: int = 32, seed: int = 0) -> float:
    """||W_o W_v||_F: N times ||dy_N/dx_t|| if every weight were exactly 1/N (y_N a plain average)."""
    attn = make_module("attention", d, seed)
    W_v = attn.in_proj.weight.detach()[2 * d :]  # rows [W_q; W_k; W_v]
    return torch.linalg.matrix_norm(attn.out_proj.weight.detach() @ W_v).item()
