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
# # 04 · Scaled dot-product attention
#
# 🌐 **English** · [Italiano](it/04_attention.ipynb) · [Русский](ru/04_attention.ipynb) · [فارسی](fa/04_attention.ipynb) · [Español](es/04_attention.ipynb)
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/04_attention.ipynb)
#
# Notebooks 01-03 showed why recurrence is slow (step $t$ waits for step $t-1$) and why its
# gradients fade over distance. The Transformer (Vaswani et al. 2017, *Attention Is All You
# Need*) replaces the recurrence with **self-attention**. This notebook builds it from its
# formula and tests what the article promises for it.
#
# **You will learn**
# * to write $\mathrm{softmax}(QK^\top/\sqrt{d_k})\,V$ in three lines and check it against PyTorch;
# * why the scores are divided by $\sqrt{d_k}$ (and what goes wrong if they are not);
# * padding and causal masks, and the one trap in PyTorch's mask conventions;
# * what "path length $O(1)$" does and does not do for gradients.
#
# **The article's claims this notebook tests** (translated from the article):
#
# > **C4** "Instead of propagating a state step by step, self-attention lets every token
# > interact directly with every other token in the sequence, simultaneously."
#
# > **C5** "The path length between any two tokens is $\mathcal{O}(1)$. This eliminates the
# > vanishing-gradient problem over long sequences, so that models easily handle contexts of
# > thousands (or even millions) of tokens."

# %% tags=["setup"]
# Setup: on Colab, install the course helpers; anywhere else this cell does nothing.
import subprocess
import sys

if "google.colab" in sys.modules:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "git+https://github.com/why-transformers/why-transformers"], check=True)

# %%
import math

import torch
import torch.nn.functional as F

import helpers
from helpers import attention
from helpers.course.tables import Table
from helpers.notebooks import nb04_attention as nb

helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(4)

# %% [markdown]
# ## Attention in three lines
#
# Each of $L$ queries $q_i$ (rows of $Q$) is compared with each of $S$ keys $k_j$ (rows of
# $K$) by a dot product; queries and keys are vectors of the same length $d_k$, and each key
# $k_j$ comes with a value $v_j$ (rows of $V$). A softmax over the keys turns each row of scores into weights
# $a_{ij} \ge 0$ that sum to 1, and the output is the weighted average of the values:
#
# $$\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right) V,
# \qquad y_i = \sum_j a_{ij}\, v_j .$$
#
# In **self**-attention $Q$, $K$ and $V$ are three linear projections of the same sequence
# $x$: $Q = xW_q$, $K = xW_k$, $V = xW_v$, so $L = S$, the sequence length, which from the
# path-length section on we write $N$, as the article does (notebooks 02-03 called it $T$). Here are the three lines, on a batch of 2
# sequences of 5 tokens with $d_k = 8$:

# %%
q, k, v = torch.randn(3, 2, 5, 8, generator=generator)  # each (B=2, L=5, d_k=8)
scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (2, 5, 5): every query with every key
weights = scores.softmax(dim=-1)  # (2, 5, 5): each row sums to 1
out = weights @ v  # (2, 5, 8)
print("weights:", tuple(weights.shape), " row sums:", [f"{r:.4f}" for r in weights.sum(-1)[0].tolist()])
print("out:    ", tuple(out.shape))

# %% [markdown]
# PyTorch has the same operation built in (and fused, so that it never stores the $L \times S$
# matrix when it can avoid it). Ours matches it to float32 precision; so does the course's
# `helpers.scaled_dot_product_attention`, which also returns the weights:

# %%
theirs = F.scaled_dot_product_attention(q, k, v)
ours, ours_weights = helpers.scaled_dot_product_attention(q, k, v)
torch.testing.assert_close(out, theirs)
torch.testing.assert_close(ours, theirs)
print(f"max |ours - F.scaled_dot_product_attention| {helpers.within_rounding(out - theirs)}")

# %% [markdown]
# **Claim C4, "every token interacts with every other, simultaneously"** is what you just
# saw: one matrix product computes all $L \times L$ scores, with no loop over positions.
# Keep one caveat for later: this is true when the whole sequence is known (training,
# encoding a prompt). *Generating* text is different; we return to it after the masks.
#
# ## Why divide by $\sqrt{d_k}$?
#
# If the entries of $q$ and $k$ are independent with mean 0 and variance 1, then
# $q\cdot k = \sum_{i=1}^{d_k} q_i k_i$ is a sum of $d_k$ terms of variance 1: its variance is
# $d_k$. Let us measure it:

# %%
for d_k in (4, 64, 512):
    s = nb.random_scores(d_k, n_queries=500, S=500)  # (500, 500) values of q.k
    print(
        f"d_k = {d_k:3d}:  var(q.k) = {s.var():7.1f}   var(q.k / sqrt(d_k)) = {(s / math.sqrt(d_k)).var():.2f}"
    )

# %% [markdown]
# The variance of the raw score grows like $d_k$ (4, 64, 512 up to sampling noise), while the
# scaled score keeps variance close to 1. Why does it matter? Large scores **saturate** the
# softmax: the largest score takes almost all the weight. Below, one query meets 16 keys with
# $d_k = 64$. Without scaling, the weights are almost one-hot; with it they stay spread out.
# The **entropy** $H = -\sum_j a_j \ln a_j$ measures the spread: $0$ for one-hot, $\ln 16
# \approx 2.77$ for uniform weights.

# %%
nb.plot_scaling(d_k=64)

# %% [markdown]
# Move **d_k** (powers of two; each value draws its own query and keys, from one seed). The scaled
# weights stay spread over several keys; the unscaled ones collapse onto one key as $d_k$
# grows. The next figure averages over many queries.

# %%
nb.explore_scaling()

# %% [markdown]
# Averaged over many random queries the picture is clear: without scaling, the entropy falls
# towards 0 as $d_k$ grows; with it, it stays near its $d_k = 1$ value.

# %%
nb.plot_entropy_vs_dk()

# %% [markdown]
# Saturation is not only ugly, it stops learning: the gradient of the softmax,
# $\partial a_i/\partial z_j = a_i(\delta_{ij} - a_j)$, vanishes when one weight is near 1.
# To compare fairly, we differentiate **both** versions with respect to the **same** raw
# scores $s = q \cdot k$, the quantity through which the gradient reaches $q$ and $k$:
# $\partial\,\mathrm{softmax}(s)/\partial s$ and $\partial\,\mathrm{softmax}(s/\sqrt{d_k})/\partial s$
# (the second carries a factor $1/\sqrt{d_k}$). Autograd gives the $16 \times 16$ Jacobian
# $J$ of each of 1000 random queries (16 keys); we report medians over the queries, and the
# share of queries left with almost no gradient, $\|J\|_F < 10^{-3}$:

# %%
rows = []
for d_k in (16, 64, 256, 512, 1024):
    J = nb.softmax_jacobian_norms(d_k, n_queries=1000)  # ||J||_F of each query, (1000,) per version
    rows.append(
        [d_k, f"{J['raw_max'].median():.3f}"]
        + [f"{J[v].median():.1e}" for v in ("raw", "scaled")]
        + [f"{(J[v] < 1e-3).float().mean():.0%}" for v in ("raw", "scaled")]
    )
header = ["d_k", "median largest weight, unscaled", "median ‖J‖ unscaled", "median ‖J‖ scaled"]
Table(header + ["‖J‖ < 1e-3 unscaled", "‖J‖ < 1e-3 scaled"], rows)

# %% [markdown]
# Read the table row by row. At $d_k = 512$ the unscaled softmax is saturated (its median
# largest weight is 1.000), its median Jacobian is about 30 times smaller than the scaled
# one's (4.2e-04 against 1.3e-02), and 53% of the queries have almost no gradient at all,
# against none with the scaling. But the comparison is not one-sided: at small $d_k$,
# including Vaswani et al.'s $d_k = 64$, the *unscaled* median is the larger one, because the
# scaled version carries the factor $1/\sqrt{d_k}$. What the scaling buys is uniformity: its
# median falls like $1/\sqrt{d_k}$ (halved each time $d_k$ grows 4-fold, a constant
# factor that a learning rate absorbs) and no query is left behind, while the unscaled
# Jacobian collapses, by four orders of magnitude from $d_k = 16$ to $1024$, in a growing share
# of the queries. Through a saturated softmax those queries and keys hardly learn. Dividing by
# $\sqrt{d_k}$ is the cure Vaswani et al. give, for large $d_k$, in section 3.2.1.
#
# ## Masks: who may attend to whom
#
# A boolean mask removes some query-key pairs: their score becomes $-\infty$, so their weight
# is $e^{-\infty} = 0$. Two masks matter in practice.
#
# **Padding.** Sequences in a batch have different lengths, so short ones are padded. No query
# may attend to padding. Here two sequences of lengths 5 and 3, padded to 5:

# %%
pad = attention.padding_mask([5, 3], S=5)  # (B=2, 1, S=5): True = a real token
_, w = helpers.scaled_dot_product_attention(q, k, v, mask=pad)
print(pad[:, 0].int())
print("weights of the second sequence (rows: queries, columns: keys):")
print(w[1].round(decimals=2))

# %% [markdown]
# The last two columns (the padding) get weight 0 in every row. **Causal.** When a model
# predicts the next token, position $t$ may only look at positions $\le t$: the mask is the
# lower triangle.

# %%
causal = helpers.causal_mask(5)  # (5, 5), True on and below the diagonal
_, w = helpers.scaled_dot_product_attention(q, k, v, mask=causal)
print(causal.int())
print(w[0].round(decimals=2))

# %% [markdown]
# ### The convention trap
#
# PyTorch has two attention functions whose boolean masks mean **opposite** things:
#
# | function | `True` in a boolean mask means |
# |---|---|
# | `F.scaled_dot_product_attention(..., attn_mask=m)` | this pair **may** attend |
# | `nn.MultiheadAttention(...)(..., attn_mask=m)` | this pair may **not** attend |
#
# To see it without any learned weights, we use an `nn.MultiheadAttention` with one head whose
# projections are the identity, so it computes plain attention of $x$ with itself. First, the
# mistake: pass it the same lower-triangular mask as `F.scaled_dot_product_attention`.

# %%
x = torch.randn(1, 5, 8, generator=generator)  # (B, L, d)
mha = nb.identity_attention(8)
tril = helpers.causal_mask(5)
reference = F.scaled_dot_product_attention(x, x, x, is_causal=True)
wrong, _ = mha(x, x, x, attn_mask=tril)  # True read as "may NOT attend"
print(wrong[0].detach().round(decimals=2))

# %% [markdown]
# No error, no warning, and the output is wrong: each position now attends only to the
# *future*, and the last position, which has no future, has every key masked, so its softmax
# is $0/0$ = `nan`. With a real model the `nan` would spread through the loss. The fix is to
# invert the mask:

# %%
right, _ = mha(x, x, x, attn_mask=~tril)  # ~tril: True above the diagonal
sdpa_mask = F.scaled_dot_product_attention(x, x, x, attn_mask=tril)
for name, y in (("MHA(attn_mask=~tril)", right), ("SDPA(attn_mask=tril)", sdpa_mask)):
    print(f"{name}: max |difference from SDPA(is_causal=True)| {helpers.within_rounding(y - reference)}")

# %% [markdown]
# So $\mathrm{MHA}(\texttt{attn\_mask}=\sim\!\texttt{tril}) = \mathrm{SDPA}(\texttt{attn\_mask}=
# \texttt{tril}) = \mathrm{SDPA}(\texttt{is\_causal=True})$, to float precision. The course's
# helpers follow `F.scaled_dot_product_attention`: `True` = may attend. When in doubt, pass
# `is_causal=True` (SDPA), or a float mask of $0$ and $-\infty$ that you *add* to the scores:
# it means the same thing in both APIs.
#
# ## C4 in generation: still one token per step
#
# With a causal mask, the output at position $t$ depends only on $x_1..x_t$. So in
# **training**, where the whole target sentence is known, all positions are computed at once.
# The same outputs can be computed one position at a time, as a model does when it
# **generates** text:

# %%
L = 6
x = torch.randn(1, L, 8, generator=generator)
all_at_once, _ = helpers.scaled_dot_product_attention(x, x, x, helpers.causal_mask(L))
steps = [
    helpers.scaled_dot_product_attention(x[:, t : t + 1], x[:, : t + 1], x[:, : t + 1])[0] for t in range(L)
]  # query t sees keys 0..t only
one_by_one = torch.cat(steps, dim=1)  # (1, L, 8)
pytorch = F.scaled_dot_product_attention(x, x, x, is_causal=True)  # independent of our helpers
print(f"max |all at once - one by one|  {helpers.within_rounding(all_at_once - one_by_one)}")
print(f"max |one by one - PyTorch's SDPA| {helpers.within_rounding(one_by_one - pytorch)} (is_causal=True)")

# %% [markdown]
# They agree, with each other and with PyTorch's causal attention. But when generating, token $t+1$ *is* the model's output at step $t$, so step
# $t+1$ cannot start before step $t$ ends: $N$ new tokens still take $N$ sequential steps,
# exactly like an RNN (each step is cheaper with a cache of past keys and values, but there
# are still $N$ of them). **C4 holds for training and for reading a prompt, not for
# generation.**
#
# ## Path length: what $O(1)$ buys
#
# In an RNN, the output $y_N$ reaches the input $x_t$ through $N - t$ steps of the
# recurrence, so the gradient $\partial y_N/\partial x_t$ is a product of $N - t$ Jacobians
# (notebook 02). In attention, $y_N = \sum_j a_{Nj} v_j$ depends on every $x_t$ directly:
# one step, whatever the distance. That is the article's "path length $O(1)$".
#
# Let us measure $\|\partial y_N / \partial x_t\|_F$ (the Frobenius norm: the root of the sum
# of squares of the Jacobian's entries) with autograd, for three single layers at PyTorch's
# default initialisation, $d = 32$, $N = 100$ random inputs, in float64:
#
# * `nn.RNN` (tanh) and `nn.LSTM`, one layer each;
# * one head of self-attention: the course's `helpers.MultiHeadSelfAttention(32, 1)`, whose
#   projections are `nn.Linear` layers at their default initialisation, with **no residual
#   connection and no LayerNorm** (a Transformer block adds both): attention alone.

# %%
nb.plot_gradient_vs_distance(N=100, d=32)

# %% [markdown]
# The RNN's and the LSTM's gradients fall exponentially with distance; attention's has no
# trend with distance: without positions nothing in this layer can tell distance (notebook 05
# shows it is permutation-equivariant), and the values vary only with the random inputs. Now
# look at the numbers at a few distances:

# %%
norms = nb.gradient_vs_distance(N=100, d=32)
for kind, g in norms.items():
    print(f"{kind:>9}: " + "  ".join(f"distance {s:2d}: {g[s - 1]:.1e}" for s in (1, 10, 50, 99)))
print(f"the RNN's W_hh at this initialisation: spectral radius rho = {nb.rnn_spectral_radius(d=32):.2f}")

# %% [markdown]
# Three things to read here. Far away, attention wins by many orders of magnitude, as the
# article says. But at distance 1, attention's gradient is *smaller* than the RNN's and the
# LSTM's: the path is short, but it is thin. Attention's gradient has no trend with distance,
# but it is not large. And
# the RNN in this comparison is the one PyTorch gives by default: its $W_{hh}$ has spectral
# radius $\rho$ = 0.55 (last line), well below 1, so its gradient shrinks fast (notebook 02
# shows how the decay depends on $\rho$).
#
# ## The dilution caveat: claim C5 is wrong as stated
#
# With diffuse attention (as at initialisation, and in some heads of trained models: Clark
# et al. 2019, *What Does BERT Look At?*, found heads that attend broadly over the whole
# sentence, besides heads that attend to the previous or the next token) each
# weight $a_{Nj}$ is about $1/N$. The gradient $\partial y_N/\partial x_t$ contains $a_{Nt}$,
# so it shrinks like $1/N$: the total gradient is shared among all $N$ tokens. We measure it
# for $N$ from 16 to 4096 (only the last query is computed: the projections of the $N$ tokens
# cost $O(N d^2)$ and its one row of scores $O(N d)$, where the full layer's $N^2$ scores
# would cost $O(N^2 d)$):

# %%
rows = nb.attention_dilution(Ns=(16, 64, 256, 1024, 4096), d=32)
print("     N   to x_1    mean over t < N   sum over t < N")
for N, first, mean, total in zip(rows["N"], rows["first"], rows["mean"], rows["total"]):
    print(f"{N:6d}   {first:.1e}   {mean:.1e}           {total:.2f}")

# %%
nb.plot_dilution(rows)

# %% [markdown]
# The mean gradient to one earlier token (over the $N - 1$ tokens $t < N$) falls by about 4
# each time $N$ grows 4-fold (from about 1e-1 at $N = 16$ to about 5e-4 at $N = 4096$), right
# on the $1/N$ guide, while the sum over those $N - 1$ tokens stays near 2. The gradient to one particular token, $x_1$, fluctuates
# around the same line because its weight $a_{N1}$ is random. At a million tokens the share
# of one token would be about a million times smaller than the whole.
#
# This decay is polynomial, not exponential like the RNN's, so it is a far milder problem,
# and training can sharpen the attention onto the tokens that matter. But it shows that
# "path length $O(1)$" is a statement about the *graph* (how many operations separate two
# tokens), not about the *size* of the gradient. And other costs grow with $N$ too:
#
# * **Compute and memory are $O(N^2)$**: the score matrix has $N^2$ entries per head and
#   layer (FlashAttention, Dao et al. 2022, avoids *storing* it, not computing it). Notebook
#   06 counts and times the compute.
# * **Long contexts fail in documented ways.** Liu et al. 2024 (*Lost in the Middle*) found
#   that language models use information at the start and end of a long context far better
#   than in the middle; the RULER benchmark (Hsieh et al. 2024) found that most models fall
#   well short of their advertised context length on tasks harder than retrieving one fact.
#
# ## Verdict
#
# * **C4 (every token interacts with every other, simultaneously): true in training and
#   encoding.** One matrix product computes all $L \times L$ interactions. In generation,
#   tokens still come one per step.
# * **C5 (O(1) path length eliminates vanishing gradients; millions of tokens easily): wrong
#   as stated.** The path length is $O(1)$ and attention's gradient does not decay with
#   *distance* (the RNN's fell by dozens of orders of magnitude over 100 steps). But with
#   diffuse attention the gradient to one token is diluted like $1/N$, compute and memory grow
#   like $N^2$, and long-context failures are documented. "Millions of tokens easily" is not
#   something this mechanism gives for free.
#
# ## Summary
#
# * $\mathrm{softmax}(QK^\top/\sqrt{d_k})V$: three lines, equal to
#   `F.scaled_dot_product_attention`.
# * $\mathrm{var}(q\cdot k) = d_k$; without the $1/\sqrt{d_k}$ the softmax saturates at large
#   $d_k$ and its gradient vanishes in a growing share of the queries; with it, the median
#   gradient shrinks only like $1/\sqrt{d_k}$ and no query is left without one.
# * Masks: `True` = may attend in `F.scaled_dot_product_attention` and in these helpers;
#   `True` = may **not** attend in `nn.MultiheadAttention`'s `attn_mask`.
#   $\mathrm{MHA}(\sim\!\mathrm{tril}) = \mathrm{SDPA}(\mathrm{tril}) = \mathrm{SDPA}(\text{is\_causal})$.
# * Attention's gradient is flat in distance but diluted as $1/N$; its cost is $O(N^2)$.
#
# ## Exercises
#
# **1. Write attention.** Complete `my_attention` (no mask), then run the cell. The check
# compares it with the reference on random inputs of several shapes: one or two batch
# dimensions, and a different $d_k$ each time.


# %%
def my_attention(q, k, v):
    """softmax(q k^T / sqrt(d_k)) v for q (..., L, d_k), k (..., S, d_k), v (..., S, d_v)."""
    raise NotImplementedError


helpers.check("attention", my_attention)

# %% [markdown]
# **2. The variance of a score.** The entries of $q$ and $k$ are independent, mean 0,
# variance 1, and $d_k = 64$. What is the variance of $q \cdot k$ (before scaling)?

# %%
answer = None
helpers.check("score_variance", answer)

# %% [markdown]
# **3. Uniform attention.** What is the entropy, in nats, of attention weights spread
# uniformly over 50 keys? (Use `math`.)

# %%
answer = None
helpers.check("uniform_entropy", answer)

# %% [markdown]
# **4. One mask, two conventions.** A batch of sequences of real lengths `lengths`, padded to
# `L` slots, goes through a causal `nn.MultiheadAttention` with one head. Complete
# `my_mha_mask`: it returns the boolean `attn_mask` of shape $(B, L, L)$ (with $h$ heads
# PyTorch wants $(B h, L, L)$: `repeat_interleave(h, dim=0)`) in **that layer's** convention,
# `True` = may **not** attend. Query $t$ of sequence $b$ may attend to key $j$ only when
# $j \le t$ and $j$ is a real token. The check compares your mask with the reference on
# random lengths.


# %%
def my_mha_mask(lengths, L):
    """(B, L, L) boolean attn_mask for nn.MultiheadAttention: True = may NOT attend."""
    raise NotImplementedError


helpers.check("mha_mask", my_mha_mask)

# %% [markdown]
# `helpers.solution("attention")` prints a reference solution, when you want it.
#
# Next: [05 · Multi-head attention and positions](05_multihead_positions.ipynb).
