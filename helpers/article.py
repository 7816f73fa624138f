"""The article's models (its RNNCell loop and attention), and the fused versions PyTorch ships."""

import functools

import torch
from torch import nn

from .checks import require_positive_int
from .measure import Timing, count_flops, time_fns, workload

D_MODEL = 128  # the article's embedding_dim
HEADS = 4  # the article's num_heads
MODELS = ("RNNCell loop", "nn.RNN (fused)", "attention (MHA)")


# --- the article's two models, copied exactly, and PyTorch's fused RNN -----------------
# Notebook 06 also shows these classes verbatim, because it runs the article's snippet as
# written; this copy serves the benchmark grid and the widget, which also run outside 06.


class CustomRNN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.rnn_cell = nn.RNNCell(dim, dim)

    def forward(self, x):
        h = torch.zeros(x.size(0), x.size(2), device=x.device)
        # Sequential loop over time steps (cannot be parallelised)
        for t in range(x.size(1)):
            h = self.rnn_cell(x[:, t, :], h)
        return h


class CustomSelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.num_heads = 4
        self.mha = nn.MultiheadAttention(dim, self.num_heads, batch_first=True)

    def forward(self, x):
        # Parallel matrix multiplication over all time steps
        attn_out, _ = self.mha(x, x, x)
        return attn_out


class FusedRNN(nn.Module):
    """The same recurrence as CustomRNN, run by torch.nn.RNN's C++ loop: x (B, N, d) -> h_N (B, d)."""

    def __init__(self, dim: int):
        super().__init__()
        self.rnn = nn.RNN(dim, dim, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _, h_n = self.rnn(x)  # h_n (1, B, d)
        return h_n[0]  # (B, d)


def article_models(dim: int = D_MODEL, device: str | torch.device = "cpu") -> dict[str, nn.Module]:
    """The three models compared, by name (MODELS), on `device`; dim must be divisible by 4."""
    require_positive_int(dim, "dim")
    if dim % HEADS:
        raise ValueError(f"dim={dim} must be divisible by the article's {HEADS} heads")
    models = [CustomRNN(dim), FusedRNN(dim), CustomSelfAttention(dim)]
    return {name: m.to(device) for name, m in zip(MODELS, models)}


def rnn_flops(batch: int, seq_len: int, dim: int) -> int:
    """Forward FLOPs of the RNN: per step x_t W_ih^T and h W_hh^T, 2 B d^2 each: 4 B N d^2."""
    return 4 * batch * seq_len * dim**2


def attention_flops(batch: int, seq_len: int, dim: int) -> int:
    """Forward FLOPs of nn.MultiheadAttention: projections 8 B N d^2, QK^T and AV 4 B N^2 d."""
    return 8 * batch * seq_len * dim**2 + 4 * batch * seq_len**2 * dim


@functools.cache  # a count depends only on its arguments: the table asks for some twice
def counted_flops(name: str, batch: int, seq_len: int, dim: int, backward: bool = False) -> int:
    """FlopCounterMode's count for model `name` (one of MODELS) on zeros (batch, seq_len, dim).

    Remembered per arguments (a count is the same every time), so a table that shows one count twice
    counts it once."""
    if name not in MODELS:
        raise ValueError(f"name must be one of {MODELS}, got {name!r}")
    # meta tensors carry shapes only, so attention's big products cost nothing to count;
    # the RNNs' thousands of tiny operators are quicker on the CPU
    device = "meta" if name == MODELS[2] else "cpu"
    model = article_models(dim, device)[name]
    return count_flops(workload(model, torch.zeros(batch, seq_len, dim, device=device), backward))


class FastAttention(nn.Module):
    """The article's attention asked for no weights: PyTorch's fused attention kernels.

    With need_weights=True (the default the article uses) nn.MultiheadAttention computes and
    returns the B x heads x N x N weights, so it cannot take the fused path.
    """

    def __init__(self, dim: int, heads: int = HEADS):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mha(x, x, x, need_weights=False)[0]  # (B, N, d)


class FusedLSTM(nn.Module):
    """torch.nn.LSTM, one call for all N steps (cuDNN on a GPU): x (B, N, d) -> h_N (B, d)."""

    def __init__(self, dim: int):
        super().__init__()
        self.lstm = nn.LSTM(dim, dim, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lstm(x)[1][0][0]


def time_models(
    batch: int,
    seq_len: int,
    dim: int = D_MODEL,
    *,
    backward: bool = False,
    repeats: int = 5,
    device: str | torch.device = "cpu",
) -> dict[str, Timing]:
    """Time the three models (MODELS) on one random input x (batch, seq_len, dim)."""
    require_positive_int(batch, "batch")
    require_positive_int(seq_len, "seq_len")
    models = article_models(dim, device)
    x = torch.randn(batch, seq_len, dim, device=device)
    return time_fns(
        {name: workload(m, x, backward) for name, m in models.items()}, repeats=repeats, device=device
    )
