"""Path length versus gradient size: ||dy_N / dx_t|| for an RNN, an LSTM and attention."""

import torch
from torch import nn

from .attention import MultiHeadSelfAttention, scaled_dot_product_attention
from .checks import require_positive_int, require_tensor
from .plots import COLORS, finite_or_marked, log_axis, new_figure
from .seed import seeded
from .timing import one_thread

ARCHITECTURES = ("RNN", "LSTM", "attention")


def last_token_attention(attn: MultiHeadSelfAttention, x: torch.Tensor) -> torch.Tensor:
    """Self-attention's output at the last position only: x (B, N, d) -> y_N (B, d).

    Equals attn(x)[0][:, -1] (the last query sees every key, with or without a causal
    mask) but costs O(N d) instead of O(N^2 d), so N can be in the thousands.
    """
    B, N, d = x.shape
    q, k, v = attn.in_proj(x).split(d, dim=-1)  # each (B, N, d)
    q, k, v = (t.view(B, N, attn.n_heads, -1).transpose(1, 2) for t in (q, k, v))  # (B, nh, N, hs)
    out, _ = scaled_dot_product_attention(q[:, :, -1:], k, v)  # (B, nh, 1, hs)
    return attn.out_proj(out.transpose(1, 2).reshape(B, d))  # (B, d)


def make_model(kind: str, d: int = 32, seed: int = 0):
    """One layer at PyTorch's initialisation, in float64, as f: x (B, N, d) -> y_N (B, d)."""
    if kind not in ARCHITECTURES:
        raise ValueError(f"kind must be one of {ARCHITECTURES}, got {kind!r}")
    require_positive_int(d, "d")
    with seeded(seed):
        if kind == "RNN":
            rnn = nn.RNN(d, d, batch_first=True).double()
            return lambda x: rnn(x)[0][:, -1]
        if kind == "LSTM":
            lstm = nn.LSTM(d, d, batch_first=True).double()
            return lambda x: lstm(x)[0][:, -1]
        attn = MultiHeadSelfAttention(d, 1).double()
    return lambda x: last_token_attention(attn, x)


def output_jacobian_norms(f, x: torch.Tensor) -> torch.Tensor:
    """||dy_N / dx_t||_F for every position t: x (N, d_in) -> (N,).

    f maps a batch x (B, N, d_in) to y_N (B, d_out). One backward pass per output
    coordinate, all at once: copy x d_out times; copy i carries row i of the Jacobian.
    """
    require_tensor(x, "x")
    if x.dim() != 2:
        raise ValueError(f"x must have shape (N, d_in), got {tuple(x.shape)}")
    with one_thread():
        d_out = f(x[None]).shape[-1]
        xs = x.expand(d_out, *x.shape).clone().requires_grad_()  # (d_out, N, d_in)
        f(xs).diagonal().sum().backward()  # copy i gets d y_N[i] / d x
    return xs.grad.pow(2).sum(dim=(0, 2)).sqrt()  # (N,)


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
    for color, (kind, g) in zip(COLORS, norms.items()):
        finite_or_marked(ax, range(1, N), g.tolist(), label=kind, color=color)
    log_axis(ax, "y")
    ax.set(
        xlabel="distance N - t (tokens)",
        ylabel=r"$\|\partial y_N / \partial x_t\|_F$",
        title=f"Gradient from the last output to an earlier input (N = {N}, d = {d}, at init)",
    )
    ax.legend()
    return fig


def attention_dilution(Ns=(16, 64, 256, 1024, 4096), d: int = 32, seed: int = 0) -> dict[str, list]:
    """Attention at init: gradient to the first token, mean and total over all earlier tokens, per N."""
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
    """Log-log: attention's gradient to one token against N, with a 1/N guide."""
    fig, ax = new_figure(width=6.0, height=3.4)
    N = rows["N"]
    ax.plot(N, rows["mean"], "o-", color=COLORS[2], label="mean over earlier tokens")
    ax.plot(N, rows["first"], "s--", color=COLORS[0], label="to the first token $x_1$")
    ax.plot(N, rows["total"], "^-", color=COLORS[1], label="sum over earlier tokens")
    guide = [rows["mean"][0] * N[0] / n for n in N]
    ax.plot(N, guide, ":", color=COLORS[7], label="slope 1/N")
    log_axis(ax, "x", ticks=N)
    log_axis(ax, "y")
    ax.set(
        xlabel="sequence length N (tokens)",
        ylabel=r"$\|\partial y_N / \partial x_t\|_F$",
        title="Diffuse attention shares one gradient among N tokens",
    )
    ax.legend(fontsize=8)
    return fig
