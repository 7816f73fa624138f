# ---
# jupyter:
#   jupytext:
#     formats: ipynb,sources//py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 08 · The verdict
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/08_verdict.ipynb)
#
# **You will learn**
# * to rebuild the article's complexity table from counts you make yourself: FLOPs per layer, the longest
#   chain of dependent operations, one wall-clock timing, one short training run;
# * what Vaswani et al.'s Table 1 says that the article leaves out (convolution, restricted attention), and
#   the two rows neither shows: the cost of generating one token and the memory kept between tokens;
# * the verdict on each of the article's eight claims, and which notebook shows it;
# * why recurrence came back: a *linear* recurrence can be computed by a parallel scan in $\lceil\log_2 N\rceil$
#   steps, which you will build and check against the loop.
#
# **The article's claim this notebook tests (C8)**: its closing table, translated from the article,
#
# | Feature | RNN / LSTM | Transformer |
# |---|---|---|
# | Sequential operations | $\mathcal{O}(N)$ | $\mathcal{O}(1)$ |
# | Computational complexity per layer | $\mathcal{O}(N \cdot d^2)$ | $\mathcal{O}(N^2 \cdot d)$ |
# | Maximum path length | $\mathcal{O}(N)$ | $\mathcal{O}(1)$ |
# | Parallelisation | Limited / impossible | Highly parallelisable |
# | Long-range dependencies | Poor (forgets) | Excellent (constant path) |
#
# and its conclusion: *"LLMs such as GPT and Claude would have been computationally impossible to train
# using recurrent architectures."*
#
# This notebook runs alone: it recomputes small versions of what it needs (counts are exact and cheap; the
# one training run is short) rather than reading results of other notebooks.

# %% tags=["setup"]
# Setup: on Colab, install the course helpers; anywhere else this cell does nothing.
import subprocess
import sys

if "google.colab" in sys.modules:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "git+https://github.com/why-transformers/why-transformers"], check=True)

# %%
import torch
from torch import nn

import helpers
from helpers import ensembles, measure, scan
from helpers.course import ledger
from helpers.course.tables import Table
from helpers.notebooks import nb08_verdict as nb

torch.set_num_threads(1)  # the one timing below runs on one thread: comparable across machines
helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(8)

# %% [markdown]
# ## Work per layer, counted
#
# `torch.utils.flop_counter.FlopCounterMode` counts the floating-point operations of every matrix product and
# convolution PyTorch runs. The count depends only on the shapes, so it is exact and the same on every
# machine; we run each layer once on a batch of one sequence. One layer of each kind of Vaswani et al.'s Table 1, width $d = 64$:
#
# * **recurrent**: $h_t = \tanh(W_{xh} x_t + W_{hh} h_{t-1} + b)$ over $N$ steps;
# * **recurrent (LSTM)**: the LSTM cell of notebook 03 over $N$ steps (four gates, so four times the products);
# * **self-attention**: one head, projections $Q, K, V$, $\mathrm{softmax}(QK^\top/\sqrt d)V$, output projection;
# * **convolutional**: `nn.Conv1d` with kernel width $k = 3$;
# * **restricted self-attention**: each token attends only within its block of $r = 16$ neighbours.

# %%
d, Ns = 64, [16, 64, 256, 1024]
flops = {kind: [nb.layer_flops(kind, N, d) for N in Ns] for kind in nb.LAYERS}
print(f"{'FLOPs of one layer':<34}" + "".join(f"{f'N = {N}':>14}" for N in Ns))
for kind, counts in flops.items():
    print(f"{kind:<34}" + "".join(f"{c:>14,}" for c in counts))

# %% [markdown]
# Divide the counts by the formulas and the constants appear: recurrent $4Nd^2$ (two $d \times d$ products per
# step, 2 FLOPs per multiply-add), LSTM $16Nd^2$ (the same for four gates), self-attention $8Nd^2 + 4N^2d$ (four
# projections, then $QK^\top$ and the weighted sum of $V$), convolution $2kNd^2$, restricted attention
# $8Nd^2 + 4rNd$.

# %%
for kind, formula in [
    ("recurrent", lambda N: 4 * N * d * d),
    ("recurrent (LSTM)", lambda N: 16 * N * d * d),
    ("self-attention", lambda N: 8 * N * d * d + 4 * N * N * d),
    ("convolutional (k=3)", lambda N: 2 * 3 * N * d * d),
    ("restricted self-attention (r=16)", lambda N: 8 * N * d * d + 4 * 16 * N * d),
]:
    print(f"{kind:<34} counted / formula = {[f / formula(N) for f, N in zip(flops[kind], Ns)]}")
ratio = [a / r for a, r in zip(flops["self-attention"], flops["recurrent"])]
print("self-attention / tanh RNN:", ratio, " = N/d + 2")
ratio_lstm = [a / r for a, r in zip(flops["self-attention"], flops["recurrent (LSTM)"])]
print("self-attention / LSTM:    ", ratio_lstm, " = (N/d + 2) / 4")

# %%
nb.plot_flops(Ns, flops, d)

# %% [markdown]
# So the article's row 2 is right in its leading terms, but read it carefully: a real attention layer costs
# $\mathcal{O}(N^2 d + N d^2)$, because it also projects every token. Against a tanh RNN it does $N/d + 2$ times
# the work: 2.25 times at $N = 16$ and 18 times at $N = 1024$ for $d = 64$. Against an LSTM, whose four gates
# cost four times as much, attention is *cheaper* while $N < 2d$ (0.5625 times at $N = 16$, 0.75 at $N = 64$)
# and dearer beyond (4.5 times at $N = 1024$). That is Vaswani et al.'s own argument: for sentences shorter
# than the model width, attention costs less. For long sequences it costs more, and what it buys is a
# different *shape* of work.

# %% [markdown]
# ## Dependent steps: the shape of the work
#
# "Sequential operations" counts how many operations must run one after another, however many processors you
# have. We measure it as the depth of the autograd graph: the longest chain of operations, each waiting for
# the previous one, on a real input of $N$ tokens. For one layer this is also the longest path from the first
# token to the last output, the article's "maximum path length".

# %%
depth = {kind: [nb.dependent_steps(kind, N) for N in (16, 64, 256)] for kind in nb.LAYERS}
for kind, steps in depth.items():
    per_token = (steps[-1] - steps[0]) / (256 - 16)
    print(f"{kind:<34} longest chain at N = 16, 64, 256: {steps}, growth per token: {per_token:g}")

# %% [markdown]
# The recurrent layers' chains grow with every token: by 3 operations for the tanh RNN (a matrix product, an
# addition, a tanh) and by 9 for the LSTM (its gates and cell update). They are $\mathcal{O}(N)$ deep. The other three layers have a
# chain of constant length: all tokens are processed at once. That is the real advantage, on hardware that can do thousands of operations at the same time.
#
# Path length between distant tokens is a different matter for convolutions and restricted attention: one
# layer only connects neighbours, so linking token 1 to token $N$ takes a stack of $\mathcal{O}(N/k)$
# convolutions ($\mathcal{O}(\log_k N)$ if they are dilated) or $\mathcal{O}(N/r)$ restricted-attention
# layers. These two come from Vaswani et al.'s table, not from a measurement here.

# %% [markdown]
# ## One timing: does less depth mean less time on this machine?
#
# The article's configuration: batch 32, $N = 512$, $d = 128$, forward pass, one CPU thread, median of 3
# runs taken in turns after a warm-up (`helpers.measure.time_fns`; notebook 06 does this carefully, with
# spreads; this is a single check).

# %%
# NBVAL_IGNORE_OUTPUT
x = torch.randn(32, 512, 128, generator=generator)
rnn = nn.RNN(128, 128, batch_first=True)
mha = nn.MultiheadAttention(128, 4, batch_first=True)
with torch.no_grad():
    t = measure.time_fns({"rnn": lambda: rnn(x), "mha": lambda: mha(x, x, x)}, repeats=3)
t_rnn, t_mha = t["rnn"].median_ms, t["mha"].median_ms
print(f"fused nn.RNN: {t_rnn:.0f} ms   nn.MultiheadAttention: {t_mha:.0f} ms   ratio {t_mha / t_rnn:.1f}")
assert t_mha > t_rnn  # on one CPU thread, the extra work (N/d + 2 = 6x) is not hidden by parallelism

# %% [markdown]
# On one CPU thread attention came out *slower* (the cell asserts it; the ratio printed depends on the machine,
# and notebook 06 measures it with spreads). Depth can only turn into speed when hardware runs the independent
# operations at the same time, as a GPU does: recurrence cannot use a GPU's width across time; attention can.
# That is not sufficient: on an NVIDIA H200 (notebook 06, section 6) cuDNN's `nn.RNN` still beat attention at
# these sizes (B = 32, d = 128, fp32). Attention won where the RNN's small steps leave the GPU idle (batch 1,
# long sequences) and where tensor cores run its products (wide layers in bfloat16).

# %% [markdown]
# ## Long-range dependencies: one short training run
#
# Notebook 07 trained fifteen models. Here is a cheaper rerun: the longest delay only ($T = 100$), half the
# budget (100 Adam steps), and two models, the best recurrent one of notebook 07 (the LSTM with forget bias
# $+3$) and attention with positions. Enough to see the gap.

# %%
# NBVAL_IGNORE_OUTPUT
short = ensembles.train_all(
    delays=(100,),
    budget=ensembles.Budget(steps=100, eval_every=100),
    seed=0,
    kinds=("LSTM, forget bias +3", "attention + positions"),
)
long_range = dict(zip(short.kinds, short.at()[:, 0].tolist()))
print(f"trained {short.n_models} models, 100 Adam steps each, in {short.seconds:.0f} s\n")
print(short.table())
assert long_range["attention + positions"] > 0.5 and long_range["LSTM, forget bias +3"] < 0.3

# %% [markdown]
# Attention with positions recalls the token 100 steps back; the LSTM stays near chance
# (0.125) within this budget. As notebook 07 explains, that is a failure to *optimise* in a small budget, not a hard
# limit: LSTMs have bridged 1000-step lags with far longer training (Hochreiter & Schmidhuber 1997).

# %% [markdown]
# ## What the article's table leaves out: generating text
#
# Training sees the whole sequence at once; **generation** produces one token at a time, each depending on the
# previous ones, for every architecture. The cost of producing the token at position $t$ (one layer):
#
# * recurrent: update $h$ from $h_{t-1}$ and $x_t$: $\mathcal{O}(d^2)$, whatever $t$; the state is $h$,
#   $d$ numbers;
# * self-attention with a key-value cache: project the new token, attend to all $t$ earlier keys and values:
#   $\mathcal{O}(d^2 + t\,d)$; the state is the cache, $2\,t\,d$ numbers, growing with every token.

# %%
for t in (16, 256, 4096):
    (f_rnn, s_rnn), (f_att, s_att) = (nb.generation_step(k, t, d) for k in ("recurrent", "self-attention"))
    print(
        f"t = {t:>4}: FLOPs recurrent {f_rnn:>7,}  attention {f_att:>9,}   "
        f"state recurrent {s_rnn:>3}  attention {s_att:>7,}"
    )

# %%
nb.plot_generation([16, 64, 256, 1024, 4096], d)

# %% [markdown]
# ## The table, rebuilt
#
# Vaswani et al.'s Table 1 in full, beside what we counted above ($d = 64$; FLOPs at $N = 1024$, dependent
# steps at $N = 256$), and the article's last two rows with what we measured.

# %%
i, j = Ns.index(1024), 2  # N = 1024 in flops; N = 256 in depth
rows = [  # (layer type, complexity per layer, name counted, sequential ops, max path length)
    ("self-attention", "O(N² d)", "self-attention", "O(1)", "O(1)"),
    ("recurrent (tanh RNN)", "O(N d²)", "recurrent", "O(N)", "O(N)"),
    ("recurrent (LSTM)", "O(N d²)", "recurrent (LSTM)", "O(N)", "O(N)"),
    ("convolutional", "O(k N d²)", "convolutional (k=3)", "O(1)", "O(log_k N)"),
    ("restricted self-attention", "O(r N d)", "restricted self-attention (r=16)", "O(1)", "O(N/r)"),
]
Table(
    ["layer type", "complexity per layer", "counted FLOPs, N=1024", "sequential ops"]
    + ["longest chain, N=256", "max path length"],
    [
        [name, big_o, f"{flops[kind][i]:,}", ops, depth[kind][j], path]
        for name, big_o, kind, ops, path in rows
    ],
)

# %% [markdown]
# The complexity column is Vaswani et al.'s. For attention it counts only the comparison of all pairs,
# $\mathcal{O}(N^2 d)$; our counts also include the $\mathcal{O}(N d^2)$ projections that every attention layer
# pays. Then the rows that are not in Table 1, each with the cell above that measured it (the accuracy comes
# from the training run, so this table is not compared by the tests: its cell asserts the generation rows):

# %%
# NBVAL_IGNORE_OUTPUT
f_rnn, s_rnn = nb.generation_step("recurrent", 4096, d)
f_att, s_att = nb.generation_step("self-attention", 4096, d)
assert f_att > 10 * f_rnn and s_att > 1000 * s_rnn  # the two rows that favour recurrence
Table(
    ["", "recurrent (RNN / LSTM)", "self-attention (Transformer)", "measured here"],
    [
        ["parallel over time (training)", "no: O(N) chain", "yes: O(1) chain", "chain lengths above"],
        ["time on one CPU thread, B=32 N=512 d=128", "faster", "slower", "the timing above"],
        [
            "recall after T=100, short budget",
            "near chance",
            "solved (with positions)",
            f"accuracy {long_range['LSTM, forget bias +3']:.2f} vs {long_range['attention + positions']:.2f}",
        ],
        ["cost per generated token", "O(d²)", "O(d² + N d)", f"{f_rnn:,} vs {f_att:,} FLOPs at t=4096"],
        ["state kept while generating", "O(d)", "O(N d)", f"{s_rnn} vs {s_att:,} numbers at t=4096"],
    ],
)

# %% [markdown]
# The last two rows are why the story did not end in 2017: a recurrent model generates each token at a fixed
# cost with a fixed memory, while a Transformer's cost and cache grow with the context.

# %% [markdown]
# ## The claims ledger
#
# Each claim of the article, its verdict, and where the course shows it:

# %%
ledger.claims_ledger()

# %% [markdown]
# The evidence, notebook by notebook:
#
# | claim | verdict | the evidence |
# |---|---|---|
# | C1 sequential bottleneck | true for a nonlinear recurrence; a linear one runs as a parallel scan | [01](01_recurrence.ipynb): the unrolled chain and the loop time linear in $N$; the input projection is one matmul. Here: the chain length grows with $N$, and the scan below. |
# | C2 eigenvalue < 1 vanishes, > 1 explodes | mechanism right, condition imprecise | [02](02_bptt_gradients.ipynb): gradient norms against the spectral radius, orthogonal vs Gaussian $W_{hh}$, the non-normal matrix. |
# | C3 LSTMs still forget | mostly right | [03](03_lstm_gating.ipynb): $\partial c_T/\partial c_0 = \prod f_t$ and its dependence on the forget bias; [07](07_long_range_memory.ipynb): the accuracy-vs-delay figure (bias $+3$ learns $T = 30$, not $T = 100$). |
# | C4 every token sees every other at once | true in training and encoding, not in generation | [04](04_attention.ipynb): the attention matrix; generation stays sequential (the generation rows above). |
# | C5 $\mathcal{O}(1)$ path fixes long context | wrong as stated | [04](04_attention.ipynb): gradient vs distance and its dilution with $N$; [07](07_long_range_memory.ipynb): attention recalls at $T = 100$ only with positions. Here: $\mathcal{O}(N^2)$ work and an $\mathcal{O}(N d)$ cache. |
# | C6 positions are needed | true | [05](05_multihead_positions.ipynb): permutation equivariance without encoding; [07](07_long_range_memory.ipynb): attention without positions stuck at the order-blind ceiling. |
# | C7 the timing snippet | not on a CPU at batch 32; on a GPU, at the article's sizes, only against the Python loop | [06](06_parallelism_cost.ipynb): the snippet as written, then proper measurements, and an H200's: attention beats the loop, not cuDNN's `nn.RNN` at B = 32, d = 128, fp32; it wins at batch 1 with long $N$, and in wide layers in bf16. Here: one timing on one thread. |
# | C8 the table | right but incomplete | this notebook: the counted FLOPs, chain lengths and the generation rows. |

# %% [markdown]
# ## Epilogue: how recurrence came back
#
# The sequential bottleneck (C1) is real for $h_t = \tanh(W h_{t-1} + \dots)$: there is no shortcut from $h_0$
# to $h_N$ but to apply the map $N$ times. But take a **linear**, elementwise recurrence
#
# $$h_t = a_t \odot h_{t-1} + b_t .$$
#
# One step is the affine map $h \mapsto a h + b$, and two steps compose into one:
# $(a_1, b_1)$ then $(a_2, b_2)$ is $(a_2 a_1,\; a_2 b_1 + b_2)$. Composition is **associative**, so the $N$
# prefix compositions can be computed as a tree: a *parallel scan* (Hillis & Steele 1986; Blelloch 1990).
# The Hillis-Steele version combines every position with the one $1, 2, 4, \dots$ places back, all positions at
# once, so it needs $\lceil \log_2 N \rceil$ steps instead of $N$. Martin & Cundy (2018) used exactly this to
# train linear RNNs in parallel over the sequence.

# %%
a = torch.rand(1000, 16, dtype=torch.float64, generator=generator)  # (N, d): decay per step, in (0, 1)
b = torch.randn(1000, 16, dtype=torch.float64, generator=generator)  # (N, d): input per step
h_loop = scan.linear_recurrence_loop(a, b)  # 1000 dependent steps
h_scan, steps = scan.linear_recurrence_scan(a, b, return_steps=True)
print(f"loop: {len(a)} dependent steps; scan: {steps} steps")
print("same result (to float64 precision):", torch.allclose(h_scan, h_loop, rtol=1e-12, atol=1e-12))

# %% [markdown]
# Each scan step does work on all $N$ positions at once: more work in total ($\mathcal{O}(N \log N)$ here;
# Blelloch's two-sweep version does $\mathcal{O}(N)$), but only 10 steps deep for $N = 1000$. Even on this CPU,
# where "at once" means vectorised:

# %%
# NBVAL_IGNORE_OUTPUT
a, b = torch.rand(10_000, 16, generator=generator), torch.randn(10_000, 16, generator=generator)
t = measure.time_fns(
    {"loop": lambda: scan.linear_recurrence_loop(a, b), "scan": lambda: scan.linear_recurrence_scan(a, b)},
    repeats=3,
)
t_loop, t_scan = t["loop"].median_ms, t["scan"].median_ms
print(f"N = 10,000, one thread: loop {t_loop:.1f} ms, scan {t_scan:.1f} ms")
assert t_scan < t_loop / 2  # 14 vectorised steps against 10,000 small ones

# %% [markdown]
# This is the idea behind the recurrent models that now compete with Transformers:
#
# * **S4** (Gu, Goel & Ré 2021): a linear state-space recurrence $h_t = \bar A h_{t-1} + \bar B x_t$, computed
#   in training as a long convolution, and step by step in generation.
# * **Mamba** (Gu & Dao 2023): makes $a_t, b_t$ depend on the input (*selective*), computed with a
#   hardware-aware parallel scan.
# * **RWKV** (Peng et al. 2023): attention-like mixing rewritten as a linear recurrence: trains in parallel,
#   generates like an RNN.
# * **minGRU / minLSTM** (Feng et al. 2024, *"Were RNNs all we needed?"*): drop the dependence of the gates
#   on $h_{t-1}$, so $a_t$ and $b_t$ depend on $x_t$ only, and the GRU/LSTM becomes a scan.
#
# They keep what the generation rows above favour in recurrence, $\mathcal{O}(d)$ state and $\mathcal{O}(d^2)$
# per token, and remove the $\mathcal{O}(N)$ chain in training. The price is that the recurrence must be
# linear in $h$: the nonlinearity moves into the layers around it.

# %% [markdown]
# ## Verdict
#
# **C8 (the table): right as far as it goes, and incomplete.** Rows 1-3 match Vaswani et al.'s Table 1, and our
# counts reproduce them: a recurrent layer's chain of dependent operations grows with $N$, an attention layer's
# does not. But the table hides that for long sequences attention does more work ($N/d + 2$ times a tanh
# RNN's, more than an LSTM's once $N > 2d$), that its speed-up needs parallel hardware and enough work per step
# to fill it (on one CPU thread attention was slower; on an H200 it lost to cuDNN's `nn.RNN` at batch 32,
# $d = 128$, fp32, and won at batch 1 with long sequences, and in wide layers in bfloat16), and it omits the two
# rows that favour recurrence: $\mathcal{O}(d^2)$ per generated token and $\mathcal{O}(d)$ state, against
# $\mathcal{O}(d^2 + N d)$ and $\mathcal{O}(N d)$. "Long-range dependencies: poor vs excellent" holds in a
# small training budget on a task with one sharp target, with positional encoding; it is not a law.
#
# **The conclusion** ("LLMs would have been computationally impossible to train with recurrent
# architectures") overreaches: *nonlinear* recurrence could not use GPUs across time, but linear recurrences
# computed by a parallel scan train in parallel, and models built on them (Mamba, RWKV) are trained at large
# scale today. The Transformer won because it used the hardware of 2017 well, not because recurrence is
# impossible.

# %% [markdown]
# ## Summary
#
# * Counted FLOPs: tanh RNN $4Nd^2$, LSTM $16Nd^2$, attention $8Nd^2 + 4N^2d$: attention does $N/d + 2$ times
#   the work of a tanh RNN, and less than an LSTM only while $N < 2d$.
# * Longest chain of dependent operations: grows 3 per token for the RNN; constant for attention,
#   convolution and restricted attention. That depth, not the work, is attention's advantage; parallel hardware
#   lets it pay off at scale, not everywhere (notebook 06's GPU measurements).
# * Generation reverses the picture: per token $\mathcal{O}(d^2)$ and $\mathcal{O}(d)$ state for recurrence,
#   against $\mathcal{O}(d^2 + N d)$ and an $\mathcal{O}(N d)$ cache for attention.
# * A linear recurrence is an associative scan: $\lceil \log_2 N \rceil$ parallel steps, equal to the loop.
#   That is why S4, Mamba, RWKV and minGRU brought recurrence back.

# %% [markdown]
# ## Exercises
#
# **1. Compose two steps.** Write `combine(left, right)` where `left = (a1, b1)` and `right = (a2, b2)` are
# two affine steps $h \mapsto a h + b$ (tensors of the same shape). Return the pair `(a, b)` of the single step
# that applies `left` first, then `right`.


# %%
def combine(left, right):
    raise NotImplementedError


helpers.check("combine", combine)

# %% [markdown]
# **2. How deep is the scan?** How many Hillis-Steele steps does a scan over $N = 1000$ positions need?

# %%
answer = None
helpers.check("scan_steps_1000", answer)

# %% [markdown]
# **3. (Open.)** With `nb.layer_flops`, find the sequence length $N$ at which one self-attention layer
# with $d = 512$ does 10 times the work of a recurrent layer. Is that a long sequence for a language model?
# Then, with `nb.generation_step`, compare the key-value cache of one attention layer at $t = 100{,}000$
# with the recurrent state.

# %% [markdown]
# ## Further reading
#
# * Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł. & Polosukhin, I.
#   (2017). Attention is all you need. *NeurIPS 30*. arXiv:1706.03762. (Table 1.)
# * Bengio, Y., Simard, P. & Frasconi, P. (1994). Learning long-term dependencies with gradient descent is
#   difficult. *IEEE Transactions on Neural Networks*, 5(2), 157-166.
# * Pascanu, R., Mikolov, T. & Bengio, Y. (2013). On the difficulty of training recurrent neural networks.
#   *ICML*. arXiv:1211.5063.
# * Hochreiter, S. & Schmidhuber, J. (1997). Long short-term memory. *Neural Computation*, 9(8), 1735-1780.
# * Gers, F. A., Schmidhuber, J. & Cummins, F. (2000). Learning to forget: continual prediction with LSTM.
#   *Neural Computation*, 12(10), 2451-2471.
# * Jozefowicz, R., Zaremba, W. & Sutskever, I. (2015). An empirical exploration of recurrent network
#   architectures. *ICML*.
# * Khandelwal, U., He, H., Qi, P. & Jurafsky, D. (2018). Sharp nearby, fuzzy far away: how neural language
#   models use context. *ACL*. arXiv:1805.04623.
# * Hillis, W. D. & Steele, G. L. (1986). Data parallel algorithms. *Communications of the ACM*, 29(12),
#   1170-1183.
# * Blelloch, G. E. (1990). Prefix sums and their applications. Technical report CMU-CS-90-190, Carnegie
#   Mellon University.
# * Martin, E. & Cundy, C. (2018). Parallelizing linear recurrent neural nets over sequence length. *ICLR*.
#   arXiv:1709.04057.
# * Gu, A., Goel, K. & Ré, C. (2021). Efficiently modeling long sequences with structured state spaces.
#   *ICLR 2022*. arXiv:2111.00396.
# * Gu, A. & Dao, T. (2023). Mamba: linear-time sequence modeling with selective state spaces. arXiv:2312.00752.
# * Peng, B. et al. (2023). RWKV: reinventing RNNs for the Transformer era. *Findings of EMNLP*.
#   arXiv:2305.13048.
# * Feng, L., Tung, F., Ahmed, M. O., Bengio, Y. & Hajimirsadeghi, H. (2024). Were RNNs all we needed?
#   arXiv:2410.01201.
# * Tay, Y., Dehghani, M., Abnar, S., Shen, Y., Bahri, D., Pham, P., Rao, J., Yang, L., Ruder, S. & Metzler, D.
#   (2021). Long Range Arena: a benchmark for efficient Transformers. *ICLR*. arXiv:2011.04006.
# * Haviv, A., Ram, O., Press, O., Izsak, P. & Levy, O. (2022). Transformer language models without positional
#   encodings still learn positional information. *Findings of EMNLP*. arXiv:2203.16634.
# * Liu, N. F., Lin, K., Hewitt, J., Paranjape, A., Bevilacqua, M., Petroni, F. & Liang, P. (2024). Lost in the
#   middle: how language models use long contexts. *TACL*, 12, 157-173. arXiv:2307.03172.
# * Hsieh, C.-P., Sun, S., Kriman, S., Acharya, S., Rekesh, D., Jia, F., Zhang, Y. & Ginsburg, B. (2024). RULER:
#   what's the real context size of your long-context language models? *COLM*. arXiv:2404.06654.
# * Dao, T., Fu, D. Y., Ermon, S., Rudra, A. & Ré, C. (2022). FlashAttention: fast and memory-efficient exact
#   attention with IO-awareness. *NeurIPS*. arXiv:2205.14135.
#
# Back to the start: [00 · Start here](00_start_here.ipynb).
