"""Notebook 07's models trained together: many small models of one kind as one batched model.

Notebook 07 shows each model as a plain `nn.Module` (a tanh RNN, an LSTM, one head of attention)
and trains it with a plain loop. Fifteen such trainings one after the other would take minutes, so
`train_all` runs them at once: the models of one kind at one delay form an *ensemble* whose
parameters carry a leading member axis M, so one batched matrix product runs all its members.
The members share nothing, the loss is the sum of their mean losses, and Adam updates every
number on its own: it is the same training as the plain loop, member by member. Each ensemble's
parameters have the plain model's names (`embed.weight`, `drive.weight`, `drive.bias`, `W_hh`,
`qkv.weight`, `qkv.bias`, `out.weight`, `out.bias`), so `member_weights` gives a plain model's
`state_dict`; tests/notebooks/test_nb07_long_range_memory.py trains both, step for step.

The steps are the course's one definitions, helpers.rnn.tanh_step and helpers.lstm.lstm_cell_step.
One speed-up is exact algebra: a token's drive x_t W^T + b depends only on the token, so it is
computed once per symbol (8 rows) and looked up, instead of once per position.
"""

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from .attention import scaled_dot_product_attention
from .lstm import lstm_cell_step
from .positions import sinusoidal_positional_encoding
from .rnn import input_projection, tanh_step
from .tasks import VOCAB, first_token_recall

KINDS = ("tanh RNN", "LSTM", "LSTM, forget bias +3", "attention + positions", "attention, no positions")
DELAYS = (10, 30, 100)
FORGET_BIAS = {"LSTM": 0.0, "LSTM, forget bias +3": 3.0}  # added to the forget gate's bias at init
POSITIONS = {"attention + positions": True, "attention, no positions": False}


@dataclass(frozen=True)
class Budget:
    """The training budget every model gets: the same for all fifteen."""

    steps: int = 200  # Adam steps
    batch: int = 64  # sequences per step
    lr: float = 1e-2  # Adam learning rate
    d: int = 32  # embedding, hidden and attention width
    eval_every: int = 20  # measure test accuracy every this many steps
    n_test: int = 400  # held-out sequences per measurement (std. error ~0.017 at chance)


def _uniform(generator: torch.Generator, *shape: int, bound: float) -> torch.Tensor:
    """U(-bound, bound): PyTorch's default init for nn.Linear (bound 1/sqrt(fan_in)) and nn.RNN."""
    return (torch.rand(*shape, generator=generator) * 2 - 1) * bound


class _Stacked(nn.Module):
    """The parameters of M copies of one nn.Linear or nn.Embedding, on a leading member axis."""

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor | None = None):
        super().__init__()
        self.weight = nn.Parameter(weight)  # (M, out, in), or (M, V, d) for an embedding
        self.bias = None if bias is None else nn.Parameter(bias)  # (M, out)


class _Ensemble(nn.Module):
    """M independent models of one kind for one delay. What every kind has: token embeddings
    `embed` (M, V, d), drawn N(0, 1) as nn.Embedding, and an output layer `out` (M, V, d) + (M, V)."""

    def __init__(self, M: int, delay: int, d: int, generator: torch.Generator):
        super().__init__()
        self.delay = delay  # answer at t = delay
        k = 1 / math.sqrt(d)
        self.embed = _Stacked(torch.randn(M, VOCAB, d, generator=generator))
        self.out = _Stacked(_uniform(generator, M, VOCAB, d, bound=k), _uniform(generator, M, VOCAB, bound=k))

    def tokens(self, x: torch.Tensor, delay: int | None = None) -> torch.Tensor:
        """x (B, L) tokens -> x[:, :T+1], where T is `delay` (default: the ensemble's)."""
        T = self.delay if delay is None else delay
        if not 0 < T < x.shape[1]:
            raise ValueError(
                f"delay must be between 1 and {x.shape[1] - 1} for x of shape {tuple(x.shape)}, got {T!r}"
            )
        return x[:, : T + 1]

    def lookup_drive(self, x: torch.Tensor, W: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """Every member's drive x_t W^T + b for tokens x (B, N): (M, B, N, out). Computed once per
        symbol, then looked up: the same numbers as embedding every position and projecting it."""
        per_symbol = input_projection(self.embed.weight, W, b[:, None])  # (M, V, out)
        return per_symbol[:, x]  # (M, B, N, out)

    def read_out(self, h: torch.Tensor) -> torch.Tensor:
        """h (M, B, d) -> logits (M, B, V)."""
        return h @ self.out.weight.mT + self.out.bias[:, None]


class RNNEnsemble(_Ensemble):
    """M tanh RNNs, h_t = tanh(u_t + h_{t-1} W_hh^T), u_t = x_t W_xh^T + b, read out at t = delay.

    No weight depends on the delay: forward(x, delay=T) reads out the same RNNs at another T."""

    def __init__(self, M: int, delay: int, d: int, generator: torch.Generator):
        super().__init__(M, delay, d, generator)
        k = 1 / math.sqrt(d)
        self.drive = _Stacked(_uniform(generator, M, d, d, bound=k), _uniform(generator, M, d, bound=k))
        self.W_hh = nn.Parameter(_uniform(generator, M, d, d, bound=k))
        self.kinds = [KINDS[0]] * M

    def forward(self, x: torch.Tensor, delay: int | None = None) -> torch.Tensor:
        """x (B, L) tokens -> logits (M, B, V), read out at t = delay (default: self.delay)."""
        U = self.lookup_drive(self.tokens(x, delay), self.drive.weight, self.drive.bias)  # (M, B, T+1, d)
        h = torch.zeros_like(U[:, :, 0])  # (M, B, d)
        for u_t in U.unbind(dim=2):  # sequential in t
            h = tanh_step(u_t, h, self.W_hh)  # (M, B, d)
        return self.read_out(h)  # (M, B, V)


class LSTMEnsemble(_Ensemble):
    """M LSTMs (gates i, f, g, o as in nn.LSTM), read out at t = delay; the forget-gate
    bias of member m starts at nn.Linear's init plus forget_bias[m]. As for the RNN, no
    weight depends on the delay: forward(x, delay=T) reads out the same LSTMs at another T."""

    def __init__(self, forget_bias: list[float], delay: int, d: int, generator: torch.Generator):
        M, k = len(forget_bias), 1 / math.sqrt(d)
        super().__init__(M, delay, d, generator)
        b = _uniform(generator, M, 4 * d, bound=k)  # gates i, f, g, o stacked
        b[:, d : 2 * d] += torch.tensor(forget_bias, dtype=torch.float32)[:, None]
        self.drive = _Stacked(_uniform(generator, M, 4 * d, d, bound=k), b)
        self.W_hh = nn.Parameter(_uniform(generator, M, 4 * d, d, bound=k))
        self.kinds = ["LSTM" if b == 0 else f"LSTM, forget bias {b:+g}" for b in forget_bias]

    def forward(self, x: torch.Tensor, delay: int | None = None) -> torch.Tensor:
        """x (B, L) tokens -> logits (M, B, V), read out at t = delay (default: self.delay)."""
        U = self.lookup_drive(self.tokens(x, delay), self.drive.weight, self.drive.bias)  # (M, B, T+1, 4d)
        h = c = U.new_zeros(U.shape[0], U.shape[1], self.W_hh.shape[2])  # (M, B, d)
        for u_t in U.unbind(dim=2):  # sequential in t
            h, c, _ = lstm_cell_step(u_t, h, c, self.W_hh)  # (M, B, d) each
        return self.read_out(h)  # (M, B, V)


class AttentionEnsemble(_Ensemble):
    """M one-layer, one-head self-attention models, read out at the last position
    t = delay: the last row of the attention matrix (the other rows never reach the
    loss). Member m adds sinusoidal positional encodings when positions[m] is True."""

    def __init__(self, positions: list[bool], delay: int, d: int, generator: torch.Generator):
        M, k = len(positions), 1 / math.sqrt(d)
        super().__init__(M, delay, d, generator)
        self.register_buffer("positions", torch.tensor(positions, dtype=torch.float32))  # (M,)
        self.register_buffer("pe", sinusoidal_positional_encoding(delay + 1, d))  # (T+1, d)
        self.qkv = _Stacked(_uniform(generator, M, 3 * d, d, bound=k), _uniform(generator, M, 3 * d, bound=k))
        self.kinds = [KINDS[3] if p else KINDS[4] for p in positions]

    def forward(self, x: torch.Tensor, return_weights: bool = False):
        """x (B, L) tokens -> logits (M, B, V) (and attention weights (M, B, T+1)).

        (e + pe) W^T + b = e W^T + b + pe W^T: the tokens' part per symbol, the positions' once."""
        W = self.qkv.weight  # (M, 3d, d): [W_q; W_k; W_v]
        qkv = self.lookup_drive(self.tokens(x), W, self.qkv.bias)  # (M, B, T+1, 3d)
        qkv = qkv + self.positions[:, None, None, None] * (self.pe @ W.mT)[:, None]  # + PE W^T
        q, k, v = qkv.chunk(3, dim=-1)  # each (M, B, T+1, d)
        out, w = scaled_dot_product_attention(q[:, :, -1:], k, v)  # (M, B, 1, d), (M, B, 1, T+1)
        logits = self.read_out(out[:, :, 0])  # (M, B, V)
        return (logits, w[:, :, 0]) if return_weights else logits


def make_models(delays=DELAYS, d: int = 32, seed: int = 0, kinds=KINDS) -> dict[int, list[_Ensemble]]:
    """For each delay, the chosen kinds (all of KINDS by default) as up to three ensembles:
    a tanh RNN, LSTMs (forget bias 0, +3), attention models (with, without positions)."""
    unknown = set(kinds) - set(KINDS)
    if unknown or not kinds:
        raise ValueError(f"kinds must be a non-empty selection of {KINDS}, got {kinds!r}")
    g, models = torch.Generator().manual_seed(seed), {}
    biases = [b for k, b in FORGET_BIAS.items() if k in kinds]
    positions = [p for k, p in POSITIONS.items() if k in kinds]
    for T in delays:
        models[T] = (
            ([RNNEnsemble(1, T, d, g)] if KINDS[0] in kinds else [])
            + ([LSTMEnsemble(biases, T, d, g)] if biases else [])
            + ([AttentionEnsemble(positions, T, d, g)] if positions else [])
        )
    return models


def member_weights(models: dict[int, list[_Ensemble]], kind: str, delay: int) -> dict[str, torch.Tensor]:
    """The weights of the model of `kind` at `delay`, as a plain model's state_dict: parameter
    name -> tensor, without the member axis (copies: changing them changes nothing here)."""
    if delay not in models:
        raise ValueError(f"delay must be one of {tuple(models)}, got {delay!r}")
    for ens in models[delay]:
        if kind in ens.kinds:
            m = ens.kinds.index(kind)
            return {name: p[m].detach().clone() for name, p in ens.named_parameters()}
    raise ValueError(f"kind must be one of {[k for e in models[delay] for k in e.kinds]}, got {kind!r}")


def predict(ensembles: list[_Ensemble], x: torch.Tensor) -> torch.Tensor:
    """Logits of every model at one delay: (n_kinds, B, V), rows in the order of KINDS."""
    return torch.cat([m(x) for m in ensembles])


def _accuracies(models: dict, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """(n_kinds, n_delays) test accuracy."""
    with torch.no_grad():
        cols = [(predict(ens, x).argmax(-1) == y).float().mean(-1) for ens in models.values()]
    return torch.stack(cols, dim=1)


@dataclass
class Results:
    """Test accuracy of every model, measured during training, and every training loss."""

    delays: tuple[int, ...]
    budget: Budget
    kinds: tuple[str, ...] = KINDS  # the rows, in this order
    steps: list[int] = field(default_factory=list)  # where accuracy was measured
    accuracy: list[torch.Tensor] = field(default_factory=list)  # each (n_kinds, n_delays)
    losses: list[torch.Tensor] = field(default_factory=list, repr=False)  # each step's (n_kinds, n_delays)
    models: dict = field(default_factory=dict, repr=False)
    test: tuple = field(default=(), repr=False)  # the held-out (x, y): x (n_test, max(delays) + 1)
    seconds: float = 0.0  # wall time of the training loop

    @property
    def n_models(self) -> int:
        """How many models were trained: kinds x delays."""
        return len(self.kinds) * len(self.delays)

    def at(self, step: int | None = None) -> torch.Tensor:
        """(n_kinds, n_delays) accuracy at `step` (default: the end of training)."""
        step = self.steps[-1] if step is None else step
        if step not in self.steps:
            raise ValueError(f"step must be one of the measured steps {self.steps}, got {step!r}")
        return self.accuracy[self.steps.index(step)]

    def loss_curve(self, kind: str, delay: int) -> list[float]:
        """The training loss of one model at every Adam step, as the plain loop returns it."""
        if kind not in self.kinds or delay not in self.delays:
            raise ValueError(f"kind and delay must be trained ones, got {kind!r} at {delay!r}")
        i, j = self.kinds.index(kind), self.delays.index(delay)
        return [step[i, j].item() for step in self.losses]

    def table(self, step: int | None = None) -> str:
        """The accuracy table as text: one row per model kind, one column per delay."""
        acc = self.at(step)
        lines = [f"{'model':<26}" + "".join(f"T={T:<7}" for T in self.delays)]
        lines += [
            f"{kind:<26}" + "".join(f"{a:<9.2f}" for a in row.tolist()) for kind, row in zip(self.kinds, acc)
        ]
        return "\n".join(lines)


def train_all(
    delays=DELAYS,
    budget: Budget = Budget(),  # noqa: B008 (frozen: one shared default is safe)
    seed: int = 0,
    progress: Callable[[int], object] | None = None,
    kinds=KINDS,
    dtype: torch.dtype = torch.float32,
) -> Results:
    """Train every kind at every delay; return accuracies over training and every loss.

    The batches at delay T are those the plain loop draws: first_token_recall(batch, T) from a
    generator seeded `seed + 1`, the same for every kind. One held-out set at the longest delay
    (seed + 2) scores every model, cut to its delay. `dtype` float64 makes rounding too small to
    steer Adam: the plain loop's check runs so."""
    delays, kinds = tuple(delays), tuple(k for k in KINDS if k in kinds)
    models = {T: [e.to(dtype) for e in ens] for T, ens in make_models(delays, budget.d, seed, kinds).items()}
    params = [p for ens in models.values() for m in ens for p in m.parameters()]
    opt = torch.optim.Adam(params, lr=budget.lr)
    data = {T: torch.Generator().manual_seed(seed + 1) for T in delays}
    x_test, y_test = first_token_recall(
        budget.n_test, max(delays), generator=torch.Generator().manual_seed(seed + 2)
    )
    results = Results(delays, budget, kinds, models=models, test=(x_test, y_test))

    def measure(step: int) -> None:
        results.steps.append(step)
        results.accuracy.append(_accuracies(models, x_test, y_test))

    start = time.perf_counter()
    measure(0)
    for step in range(1, budget.steps + 1):
        losses = []
        for T, ensembles in models.items():
            x, y = first_token_recall(budget.batch, T, generator=data[T])  # (B, T+1), (B,)
            logits = predict(ensembles, x)  # (kinds, B, V)
            losses.append(F.cross_entropy(logits.mT, y.expand(len(logits), -1), reduction="none").mean(-1))
        losses = torch.stack(losses, dim=1)  # (kinds, delays): each model's mean loss on its batch
        opt.zero_grad()
        losses.sum().backward()  # members share nothing: each gets the gradient of its own loss
        opt.step()
        results.losses.append(losses.detach())
        if step % budget.eval_every == 0:
            measure(step)
        if progress and (step % budget.eval_every == 0 or step == budget.steps):
            progress(step)
    results.seconds = time.perf_counter() - start
    return results


def attention_on_first_token(results: Results, delay: int, n: int = 500) -> dict[str, float]:
    """Mean attention weight the last position puts on position 0, for both attention kinds."""
    if delay not in results.delays:
        raise ValueError(f"delay must be one of the trained delays {results.delays}, got {delay!r}")
    x, _ = first_token_recall(n, delay, generator=torch.Generator().manual_seed(123))
    attention = [e for e in results.models[delay] if isinstance(e, AttentionEnsemble)]
    if not attention:
        raise ValueError("these results contain no attention model")
    with torch.no_grad():
        _, w = attention[0](x, return_weights=True)  # (members, n, delay + 1)
    return {kind: w[m, :, 0].mean().item() for m, kind in enumerate(attention[0].kinds)}


def answers(results: Results, delay: int) -> dict[str, torch.Tensor]:
    """Each model's answer (its highest logit) to every held-out sequence, at one trained delay:
    kind -> (n_test,) int64 tokens."""
    if delay not in results.delays:
        raise ValueError(f"delay must be one of the trained delays {results.delays}, got {delay!r}")
    with torch.no_grad():
        said = predict(results.models[delay], results.test[0]).argmax(-1)  # (kinds, n_test)
    return dict(zip(results.kinds, said))


def score_at_delay(results: Results, trained_at: int, delay: int) -> dict[str, float]:
    """Test accuracy at `delay` of the recurrent models trained at delay `trained_at`, unchanged.

    A recurrent model's weights do not depend on T, so the model trained to answer at
    t = trained_at can read further and answer at t = delay. Scored on the run's held-out
    sequences, as the models trained at `delay` were: the two columns compare directly.
    """
    if trained_at not in results.delays:
        raise ValueError(f"trained_at must be one of the trained delays {results.delays}, got {trained_at!r}")
    recurrent = [e for e in results.models[trained_at] if not isinstance(e, AttentionEnsemble)]
    if not recurrent:
        raise ValueError("these results contain no recurrent model")
    x, y = results.test  # (n_test, max(delays) + 1), (n_test,)
    with torch.no_grad():
        right = torch.cat([e(x, delay) for e in recurrent]).argmax(-1) == y  # (kinds, n_test)
    kinds = [k for e in recurrent for k in e.kinds]
    return dict(zip(kinds, right.float().mean(-1).tolist()))
