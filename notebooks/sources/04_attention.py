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
# Recurrence is slow and its gradients fade with distance (notebooks 01-03). The Transformer
# (Vaswani et al. 2017) replaces it with **self-attention**. **The question:** how does a word pick
# the words it needs, and does looking at all of them at once stop the fading?
#
# **You will learn**
# * what a query, a key and a value are for, on one word of a toy sentence;
# * to write $\mathrm{softmax}(QK^\top/\sqrt{d_k})\,V$ in three lines, and why it divides by $\sqrt{d_k}$;
# * padding and causal masks;
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
# ## One query, by hand
#
# **A query is the question a word asks; a key is what a word offers; their dot product scores the
# match.** Take "the cat sat on the mat" and describe each word by its type: determiner, noun, verb or
# preposition. A word's **key** is its type. The verb "sat" asks for a noun (who sat, and on what?), so
# its **query** points at "noun":

# %%
words = nb.SENTENCE  # ("the", "cat", "sat", "on", "the", "mat")
K = nb.toy_keys(words)  # (6, 4): row j is the key of word j, its type
q = nb.toy_query("sat")  # (4,): what "sat" looks for
print("      [det, noun, verb, prep]")
for word, key in zip(words, K):
    print(f"key of {word:>3}: {key.tolist()}")
print(f"query of sat: {q.tolist()}")

# %% [markdown]
# **Score every word, then turn the scores into weights.** The score of word $j$ is
# $s_j = q \cdot k_j / \sqrt{d_k}$, with $d_k = 4$ the length of the vectors (why we divide comes
# later). A softmax, $a_j = e^{s_j} / \sum_i e^{s_i}$, makes weights that are positive and sum to 1:

# %%
d_k = len(q)
scores = torch.zeros(len(words))
for j in range(len(words)):  # one score per word
    scores[j] = q @ K[j] / math.sqrt(d_k)
weights = scores.softmax(dim=0)  # e^s / sum(e^s)
for word, s, a in zip(words, scores, weights):
    print(f"{word:>3}: score {s:.2f}  weight {a:.3f}")
print(f"sum of the weights: {weights.sum():.3f}")

# %% [markdown]
# The nouns take most of the weight; a softmax never gives exactly 0.
#
# **The output is a blend of values.** Each word also carries a **value** $v_j$, what it passes on.
# The output for "sat" is $y = \sum_j a_j v_j$. Let each word pass on its type ($V = K$): $y$ then
# says how much of each type "sat" gathered.

# %%
V = K  # (6, 4): here each word passes on its type
y = weights @ V  # (4,): the values, weighted by attention
print("      [det, noun, verb, prep]")
print(f"output of sat: {[round(v, 2) for v in y.tolist()]}")

# %% [markdown]
# Mostly "noun": "sat" gathered what "cat" and "mat" offer.
#
# **Every word asks its own question.** A noun asks for the verb; the others ask for a noun:

# %%
Q = torch.stack([nb.toy_query(word) for word in words])  # (6, 4): one query per word
A = torch.zeros(len(words), len(words))
for i in range(len(words)):  # query i against every key
    A[i] = torch.stack([Q[i] @ K[j] / math.sqrt(d_k) for j in range(len(words))]).softmax(dim=0)
nb.plot_word_attention(A, words)

# %% [markdown]
# Each row is where one word looks. Both "the"s look at "cat" and "mat" alike: types cannot say which
# noun is nearer (notebook 05 adds positions).

# %% [markdown]
# ## From loops to matrices
#
# **The two loops are one matrix product.** Stack the queries as the rows of $Q$ and the keys as the
# rows of $K$: entry $(i, j)$ of $QK^\top$ is $q_i \cdot k_j$. With the values as the rows of $V$,
#
# $$\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right) V,
# \qquad y_i = \sum_j a_{ij}\, v_j .$$

# %%
A_matrix = (Q @ K.T / math.sqrt(d_k)).softmax(dim=-1)  # (6, 6): all scores in one product
print(f"max |loops - matrix form| {helpers.within_rounding(A - A_matrix)}")

# %% [markdown]
# In **self**-attention a model learns $Q = xW_q$, $K = xW_k$, $V = xW_v$ from the same sequence $x$;
# we chose ours by hand. $L$ queries meet $S$ keys; here $L = S = N$, the sequence length. The three
# lines, on 2 random sequences of 5 tokens with $d_k = 8$:

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
# **Claim C4 is what you just saw:** one matrix product computes all $L \times L$ scores, with no loop
# over positions, when the whole sequence is known. Generation comes after the masks.

# %% [markdown]
# ## Why divide by $\sqrt{d_k}$?
#
# **Without the division, the scores grow with $d_k$ and the softmax picks one key.** With
# independent entries of mean 0 and variance 1, $q\cdot k = \sum_{i=1}^{d_k} q_i k_i$ sums $d_k$ terms
# of variance 1: its variance is $d_k$. Measured:

# %%
for d_k in (4, 64, 512):
    s = nb.random_scores(d_k, n_queries=500, S=500)  # (500, 500) values of q.k
    print(
        f"d_k = {d_k:3d}:  var(q.k) = {s.var():7.1f}   var(q.k / sqrt(d_k)) = {(s / math.sqrt(d_k)).var():.2f}"
    )

# %% [markdown]
# The scaled variance stays near 1. Large scores **saturate** the softmax: the largest takes almost
# all the weight. Below, one query meets 16 keys. The **entropy** $H = -\sum_j a_j \ln a_j$ measures
# the spread: $0$ for one-hot, $\ln 16 \approx 2.77$ for uniform weights.

# %%
nb.plot_scaling(d_k=64)

# %% [markdown]
# Move **d_k**: the unscaled weights collapse onto one key as $d_k$ grows; the scaled ones stay
# spread over several keys.

# %%
nb.explore_scaling()

# %% [markdown]
# Averaged over many random queries the picture is clear: without scaling, the entropy falls
# towards 0 as $d_k$ grows; with it, it stays near its $d_k = 1$ value.

# %%
nb.plot_entropy_vs_dk()

# %% [markdown]
# A saturated softmax also stops learning: its gradient vanishes when one weight is near 1
# (*Going further* measures it).

# %% [markdown]
# ## Masks: who may attend to whom
#
# **A boolean mask removes some query-key pairs: their score becomes $-\infty$, so their weight is
# $e^{-\infty} = 0$.** Two masks matter in practice.
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
# PyTorch's two attention functions read a boolean mask in **opposite** ways: `True` means *may
# attend* in `F.scaled_dot_product_attention`, *may not* in `nn.MultiheadAttention`. *Going further*
# shows the trap.

# %% [markdown]
# ## C4 in generation: still one token per step
#
# **Generating text is still one token per step.** In training every token of the text is known in
# advance. A causal mask keeps output $t$ from seeing tokens after $t$, so one call computes every
# output. Generation does not know token $t+1$ until it has produced it, so it computes them one at
# a time:

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
# They agree, with each other and with PyTorch. But in generation, token $t+1$ *is* the output of
# step $t$: $N$ new tokens take $N$ sequential steps, as in an RNN (a cache of past keys and values
# makes each step cheaper, not fewer). **C4 holds for training and for reading a prompt, not for
# generation.**

# %% [markdown]
# ## Path length: what $O(1)$ buys
#
# **In attention every input is one step from every output; in an RNN, $x_t$ is $N - t$ steps from
# $y_N$.** The RNN's gradient $\partial y_N/\partial x_t$ is a product of $N - t$ Jacobians (notebook
# 02); attention's $y_N = \sum_j a_{Nj} v_j$ uses every $x_t$ directly. We measure
# $\|\partial y_N / \partial x_t\|_F$ with autograd for three layers at PyTorch's initialisation,
# $d = 32$, $N = 100$, float64: `nn.RNN`, `nn.LSTM`, and one attention head,
# `helpers.MultiHeadSelfAttention(32, 1)`, with no residual and no LayerNorm.

# %%
nb.plot_gradient_vs_distance(N=100, d=32)

# %% [markdown]
# The RNN's and the LSTM's gradients fall exponentially with distance (at initialisation the LSTM's
# forget gates are about one half: notebook 03). Attention's has no trend:
# without positions, nothing in this layer can tell distance (notebook 05). The numbers:

# %%
norms = nb.gradient_vs_distance(N=100, d=32)
for kind, g in norms.items():
    print(f"{kind:>9}: " + "  ".join(f"distance {s:2d}: {g[s - 1]:.1e}" for s in (1, 10, 50, 99)))
rho, sigma_max = nb.rnn_norms(d=32)
print(f"the RNN's W_hh: spectral radius rho = {rho:.2f}, largest singular value sigma_max = {sigma_max:.2f}")
print(f"the RNN's gradient shrinks by {nb.rnn_decay(N=100, d=32)['rate']:.2f} per step of distance")

# %% [markdown]
# Far away, attention wins by many orders of magnitude. At distance 1 its gradient is *smaller*: the
# path is short, but it is thin.
#
# Why does this RNN fade? Its $W_{hh}$ has $\rho$ = 0.55 but $\sigma_{\max}$ = 1.11, so notebook 02's
# guarantee, $\sigma_{\max} < 1$, does not hold. The decay, 0.43 per step, is faster than $\rho$: the
# tanh saturates (*Going further*).

# %% [markdown]
# ## Dilution: the catch in claim C5
#
# **Diffuse attention gives each token only a $1/N$ share of the gradient.** At initialisation, and
# in some trained heads (Clark et al. 2019), each weight $a_{Nt}$ is about $1/N$, and
# $\partial y_N/\partial x_t$ contains $a_{Nt}$. We measure it up to $N = 4096$, and the gradient to
# one score $s_{Nt}$, which teaches the layer *where* to attend:

# %%
Ns = (16, 64, 256, 1024, 4096)
dilution = nb.attention_dilution(Ns=Ns, d=32)
dilution["score"] = nb.score_gradient_dilution(Ns=Ns, d=32)  # mean over t < N of ||dy_N / ds_t||
print("     N   to x_1    mean over t < N   sum over t < N   to one score, mean")
for N, first, mean, total, score in zip(*(dilution[key] for key in ("N", "first", "mean", "total", "score"))):
    print(f"{N:6d}   {first:.1e}   {mean:.1e}           {total:.2f}             {score:.1e}")

# %%
nb.plot_dilution(dilution)

# %% [markdown]
# The mean falls about 4-fold each time $N$ grows 4-fold, while the sum stays near 2. That is the derivative
# of an **average**: the gradient is shared out, not lost. It is not a vanishing gradient in the sense
# of Bengio et al. 1994 or Pascanu et al. 2013, which shrinks exponentially with distance. What $1/N$
# slows is the gradient to each score: learning *where* to attend.
#
# **Cost grows with $N$ too.** The score matrix has $N^2$ entries (notebook 06 times it), and long
# contexts fail in documented ways (Liu et al. 2024; Hsieh et al. 2024; see *Going further*).

# %% [markdown]
# ## Verdict
#
# * **C4 (every token interacts with every other, simultaneously): true in training and
#   encoding.** One matrix product computes all $L \times L$ interactions; generation is still one
#   token per step.
# * **C5 (O(1) path length eliminates vanishing gradients; millions of tokens easily): right
#   about distance, wrong about scale.** Attention's gradient does not decay with distance; the
#   RNN's fell by dozens of orders of magnitude over 100 steps. But the cost grows like $N^2$ and
#   long contexts fail in documented ways. The $1/N$ of diffuse attention is no vanishing gradient:
#   it slows the learning of where to attend.

# %% [markdown]
# ## Takeaways
#
# * A query is what a word looks for, a key what it offers; the softmax of their scores says how much
#   of each value the word takes.
# * Dividing the scores by $\sqrt{d_k}$ keeps the softmax from collapsing onto one key.
# * Attention's gradient does not fade with distance, but its cost grows like $N^2$ and diffuse
#   attention gives each token only a $1/N$ share.

# %% [markdown]
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
# **2. Predict, then move the widget.** The scaling widget above draws one query and 16 keys with
# independent entries of mean 0 and variance 1. Before you move it: what is the spread (the standard
# deviation) of the unscaled scores $q \cdot k$ at $d_k = 256$? Check your prediction, then set the
# widget to 256: its title prints the spread of the 16 scores it drew.

# %%
answer = None
helpers.check("score_spread", answer)

# %% [markdown]
# **3. Longer context, flatter attention.** A query that matches no key better than the others
# spreads its weights uniformly over the $N$ keys. By how many nats does the entropy of those
# weights grow when $N$ doubles? (Use `math`.)

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
# **5. A louder query.** In the toy sentence the query of "sat" is a strength times the "noun"
# direction, and the strength above was 4. Which strength makes the two nouns together take 90% of
# the weight of "sat"? Give the exact value (an expression with `math` is fine). Then try it: set
# `q = nb.toy_query("sat", strength=...)` and rerun the scoring loop of "One query, by hand".

# %%
answer = None
helpers.check("query_strength", answer)

# %% [markdown]
# `helpers.solution("attention")` prints a reference solution, when you want it.

# %% [markdown]
# ## Going further
#
# The measurements and details the core path left out, each with what it adds.

# %% [markdown]
# ### The softmax's gradient, scaled and unscaled
#
# *What it adds: the measurement behind "saturation stops learning", and the small $d_k$ where the
# unscaled gradient is the larger one.*

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

# %% [markdown]
# ### The convention trap
#
# *What it adds: the mask mistake that raises no error, and its fix.*
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

# %% [markdown]
# ### Where the RNN's decay comes from
#
# *What it adds: the two causes of the decay in the distance figure, $\rho$ and the tanh, taken apart.*
#
# The same RNN, the same inputs made 100 times smaller: the tanh then works near 0, where it is almost
# linear. The mean slope $\tanh' = 1 - h_t^2$ shows how much it bends.

# %%
for scale in (1.0, 0.01):
    decay = nb.rnn_decay(N=100, d=32, input_scale=scale)
    print(
        f"inputs x {scale}: gradient shrinks by {decay['rate']:.2f} per step, mean tanh' {decay['slope']:.2f}"
    )
print(f"rho = {rho:.2f}, sigma_max = {sigma_max:.2f}")
assert sigma_max > 1 > rho  # notebook 02's sufficient condition fails; the rate still falls below rho

# %% [markdown]
# With small inputs the gradient shrinks by 0.54 per step, close to $\rho$ = 0.55: a linear RNN's
# long-run rate is its spectral radius. With unit inputs the tanh bends (mean slope 0.74) and the rate
# falls to 0.43. Since $\sigma_{\max}$ = 1.11 > 1, notebook 02's bound promises nothing here; the
# decay is real all the same, set by $\rho < 1$ and sped up by saturation.

# %% [markdown]
# ### The $1/N$ is the derivative of an average
#
# *What it adds: the dilution checked against the formula of a plain average.*
#
# If every weight were exactly $1/N$, the layer would output $y_N = W_o \frac1N \sum_t W_v x_t$ (plus
# biases), so $\partial y_N/\partial x_t = W_o W_v / N$ for every $t$: $N$ times the mean gradient
# would be $\|W_o W_v\|_F$ at every $N$.

# %%
for N, mean in zip(dilution["N"], dilution["mean"]):
    print(f"N = {N:4d}: N x mean gradient = {N * mean:.2f}")
print(f"||W_o W_v||_F = {nb.average_gradient_norm(d=32):.2f}")

# %% [markdown]
# $N$ times the mean stays close to $\|W_o W_v\|_F$ at every $N$: at initialisation the layer is almost
# a plain average. The gradient to one particular token, $x_1$, fluctuates around the same line because its
# weight $a_{N1}$ is random. At a million tokens the share of one token would be about a million times
# smaller than the whole. This decay is polynomial, not exponential like the RNN's, so it is a far milder
# problem, and training can sharpen the attention onto the tokens that matter. Only the last query is
# computed: the projections of the $N$ tokens cost $O(N d^2)$ and its one row of scores $O(N d)$, where
# the full layer's $N^2$ scores would cost $O(N^2 d)$.

# %% [markdown]
# ### Costs and long contexts, in the literature
#
# *What it adds: what the core's two sentences on cost and long contexts refer to.*
#
# * **Diffuse heads exist in trained models.** Clark et al. 2019, *What Does BERT Look At?*, found
#   heads that attend broadly over the whole sentence, besides heads that attend to the previous or
#   the next token.
# * **Compute and memory are $O(N^2)$**: the score matrix has $N^2$ entries per head and layer
#   (FlashAttention, Dao et al. 2022, avoids *storing* it, not computing it). Notebook 06 counts and
#   times the compute.
# * **Long contexts fail in documented ways.** Liu et al. 2024 (*Lost in the Middle*) found that
#   language models use information at the start and end of a long context far better than in the
#   middle; the RULER benchmark (Hsieh et al. 2024) found that most models fall well short of their
#   advertised context length on tasks harder than retrieving one fact.

# %% [markdown]
# ## Further reading
#
# * Vaswani, A. et al. (2017). Attention is all you need. *NeurIPS*. arXiv:1706.03762. (Section 3.2:
#   scaled dot-product attention and the $\sqrt{d_k}$.)
# * Raschka, S. (2024). *Build a Large Language Model (From Scratch)*, chapter 3. Manning. (Attention
#   from one query to the matrices.)
# * Clark, K., Khandelwal, U., Levy, O. & Manning, C. D. (2019). What does BERT look at? An analysis of
#   BERT's attention. *BlackboxNLP*. arXiv:1906.04341.
# * Bengio, Y., Simard, P. & Frasconi, P. (1994). Learning long-term dependencies with gradient descent
#   is difficult. *IEEE Transactions on Neural Networks*, 5(2), 157-166.
# * Pascanu, R., Mikolov, T. & Bengio, Y. (2013). On the difficulty of training recurrent neural
#   networks. *ICML*. arXiv:1211.5063.
# * Dao, T. et al. (2022). FlashAttention: fast and memory-efficient exact attention with IO-awareness.
#   *NeurIPS*. arXiv:2205.14135.
# * Liu, N. F. et al. (2024). Lost in the middle: how language models use long contexts. *TACL*, 12.
#   arXiv:2307.03172.
# * Hsieh, C.-P. et al. (2024). RULER: what's the real context size of your long-context language
#   models? *COLM*. arXiv:2404.06654.
#
# Next: [05 · Multi-head attention and positions](05_multihead_positions.ipynb).
