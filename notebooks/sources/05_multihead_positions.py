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
# # 05 · Multi-head attention and positions
#
# 🌐 **English** · [Italiano](it/05_multihead_positions.ipynb) · [Русский](ru/05_multihead_positions.ipynb) · [فارسی](fa/05_multihead_positions.ipynb) · [Español](es/05_multihead_positions.ipynb)
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/05_multihead_positions.ipynb)
#
# **The question:** what do several attention heads buy, and how does attention, which is blind to
# word order, learn where each word is?
#
# **You will learn**
# * to split into heads, attend, merge and project, matching `nn.MultiheadAttention`;
# * what heads buy: each head has its own softmax, so two heads keep two patterns that one head
#   must blend, at no extra parameters;
# * that self-attention without positions ignores order exactly;
# * how the sinusoidal encoding, clocks turning at different speeds, gives it back.
#
# **The article's claim this notebook tests** (translated from the article):
#
# > **C6** "Since self-attention has no inherent sequence order, the Transformer injects
# > positional encodings into the input embeddings to preserve word order."

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
from torch import nn

import helpers
from helpers import multihead, positions
from helpers.course.tables import Table
from helpers.notebooks import nb05_multihead_positions as nb

helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(5)

# %% [markdown]
# ## Split, attend, merge, project
#
# **A layer with several heads runs several small attentions side by side, each on its own slice
# of one projection.** With model width $d_{\text{model}}$ and $n_{\text{heads}}$ heads, each head
# works in $d_k = d_{\text{model}}/n_{\text{heads}}$ dimensions:
#
# $$\mathrm{head}_i = \mathrm{Attention}(Q_i, K_i, V_i), \qquad
# \mathrm{MultiHead}(x) = [\mathrm{head}_1, \dots, \mathrm{head}_{n_{\text{heads}}}]\, W_o .$$
#
# $Q = xW_q$ is computed once for all heads, and $Q_i$ is its $i$-th block of $d_k$ columns;
# likewise $K$ and $V$. Here $d_{\text{model}} = 16$, 4 heads, and sequences of $N = 6$ tokens.
# PyTorch stores each weight as (out, in), so $xW_q$ is `x @ W_q.T` in code.

# %%
d_model, n_heads = 16, 4
mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)  # PyTorch's layer, at init
x = torch.randn(2, 6, d_model, generator=generator)  # (B, N, d_model)
W_q, W_k, W_v = mha.in_proj_weight.split(d_model)  # in_proj_weight = [W_q; W_k; W_v]
b_q, b_k, b_v = mha.in_proj_bias.split(d_model)
q, k, v = x @ W_q.T + b_q, x @ W_k.T + b_k, x @ W_v.T + b_v  # each (2, 6, 16)
q, k, v = (multihead.split_heads(t, n_heads) for t in (q, k, v))  # each (2, 4, 6, 4): (B, n_heads, N, d_k)
heads, weights = helpers.scaled_dot_product_attention(q, k, v)  # (2, 4, 6, 4), (2, 4, 6, 6)
merged = multihead.merge_heads(heads)  # (2, 6, 16)
out = mha.out_proj(merged)  # (2, 6, 16)
print(
    "in_proj_weight",
    tuple(mha.in_proj_weight.shape),
    "-> q, k, v per head",
    tuple(q.shape),
    "-> weights",
    tuple(weights.shape),
    "-> out",
    tuple(out.shape),
)

# %% [markdown]
# Each head scales its scores by $1/\sqrt{d_k}$, here $1/\sqrt{4}$. PyTorch's layer gives the same
# numbers; `average_attn_weights=False` makes it return one map per head:

# %%
theirs, their_weights = mha(x, x, x, average_attn_weights=False)
torch.testing.assert_close(out, theirs)
torch.testing.assert_close(weights, their_weights)
print(
    f"max |ours - nn.MultiheadAttention| {helpers.within_rounding(out - theirs)} (output), "
    f"{helpers.within_rounding(weights - their_weights)} (weights)"
)

# %% [markdown]
# The course wraps these steps in `helpers.MultiHeadSelfAttention`; `from_torch` copies a PyTorch
# layer's weights into it:

# %%
ours = helpers.MultiHeadSelfAttention.from_torch(mha)
ours_out, ours_weights = ours(x)  # (2, 6, 16), (2, 4, 6, 6)
torch.testing.assert_close(ours_out, theirs)
print("helpers.MultiHeadSelfAttention matches:", tuple(ours_out.shape), tuple(ours_weights.shape))

# %% [markdown]
# ## What heads buy: a toy sentence
#
# **Each head has its own softmax, so two heads can follow two patterns at full strength, where
# one head must share a single softmax between them.** To see it, we build a layer by hand for
# "the cat sat on the mat". Each word's 16 numbers say *what* it is (dims 0-3: determiner, noun,
# verb or preposition) and *where* it is (dims 8-13, one per position); the rest are 0:

# %%
words = nb.SENTENCE
x_toy = nb.toy_embeddings()  # (1, N, 16)
for word, e in zip(words, x_toy[0]):
    print(f"{word:>4}: type dims {e[:4].int().tolist()}  position dims {e[8:14].int().tolist()}")

# %% [markdown]
# We set $W_q$ and $W_k$ of an `nn.MultiheadAttention(16, 2)` by hand; $W_v$ and $W_o$ are the
# identity. Clark et al. 2019 found both patterns in BERT: heads that attend to the previous
# token, and heads that attend to the objects of verbs, the determiners of nouns and the objects
# of prepositions.
#
# * **head 0, "previous word"**: the query of position $p$ points at position $p - 1$;
# * **head 1, "grammar"**: a determiner, a verb or a preposition asks for a noun; a noun asks
#   for the verb.

# %% [markdown]
# Now give the same weights to a layer with **one** head. Head 0's query weights fill rows 0-7
# of $W_q$ and head 1's rows 8-15, so $W_q = W_{q0} + W_{q1}$, each padded with zeros; likewise
# $W_k$. With one head, a pair's score is the sum of the two heads' scores, under one softmax per
# query. Left, the three maps; right, each query's weight on each pattern's target:

# %%
nb.plot_one_and_two_heads()

# %% [markdown]
# Read a row to see where a word looks. In head 0, "sat" looks at "cat"; the first "the" has no
# previous word, so it spreads evenly. In head 1, "cat" and "mat" look at "sat", and both "the"s
# split between the nouns: head 1 knows word types, not places. The one head blends the two:
# "cat" splits between "the" and "sat". The weights on each target, measured:

# %%
two, one = nb.one_and_two_heads()  # two heads' maps (2, N, N); the one head's (N, N)
apart = nb.apart()  # queries whose previous word is not a grammar partner: all but the first "the" and "sat"
weak2, weak1 = nb.weaker_pattern(two, one)  # per query, the weight on the weaker of its two targets
sweep = max(nb.weaker_pattern(*nb.one_and_two_heads(s))[1][apart].max() for s in nb.SHARPNESS_CHOICES)
print(f"weaker pattern at {', '.join(words[i] for i in apart)}: two heads at least {weak2[apart].min():.2f},")
print(f"  one head at most {weak1[apart].max():.2f}, and {sweep:.2f} at any W_q entries of the widget")
print(f'"sat" -> "mat": head 1 {two[1, 2, 5]:.2f}, one head {one[2, 5]:.2f}')
assert weak2[apart].min() > 0.9 and sweep <= 0.5 + 1e-6  # one softmax: the two targets share 1
nb.pattern_table(two, one)

# %% [markdown]
# A softmax's weights sum to 1. So with one head, a query's weight on its previous word plus its
# weight on its grammar partners is at most 1; each of the two heads has a whole 1 to spend.
# "sat" is the exception, since its previous word is a noun, but the one head drops "mat".
# Sharper weights do not help, as the sweep printed. Move the **W_q entries**, the number in the
# hand-built $W_q$:

# %%
nb.explore_one_and_two_heads()

# %% [markdown]
# **More heads give more, narrower maps, not more parameters.** $W_q, W_k, W_v, W_o$ keep their
# size whatever the number of heads; only the grouping of their columns changes:

# %%
for h in nb.HEAD_CHOICES:
    layer = nn.MultiheadAttention(16, h, batch_first=True)
    print(f"{h:2d} heads x d_k = {16 // h:2d}: {nb.parameter_count(layer)} parameters")
count_one, count_two = (nb.parameter_count(m) for m in (nb.one_head(), nb.hand_built_heads()))
print(f"the toy layers, without biases: one head {count_one}, two heads {count_two}")

# %% [markdown]
# ## Attention has no sense of order
#
# **Shuffle the tokens, and self-attention's output is shuffled the same way.** It computes the
# same scores between the same pairs, in shuffled rows and columns: with a permutation $P$,
# $\mathrm{MHA}(Px) = P\,\mathrm{MHA}(x)$. It is *permutation-equivariant*. So "the cat sat on
# the mat" and "the mat sat on the cat" give the same vectors, reordered. A test on 10 random
# tokens:

# %%
layer = ours  # the layer copied from PyTorch above
seq = torch.randn(1, 10, 16, generator=generator)  # (B=1, N=10, d_model=16)
perm = torch.randperm(10, generator=generator)
gap_plain = positions.permutation_gap(layer, seq, perm)
print(f"permutation {perm.tolist()}")
print(f"without positions: max |MHA(Px) - P MHA(x)| {helpers.within_rounding(gap_plain)}")

# %% [markdown]
# The difference is float32 rounding, below $10^{-6}$: the layer cannot see order at all.
#
# ## Sinusoidal positional encoding
#
# **Add to each slot $p$ a vector that depends only on $p$, and the output depends on order.**
# The Transformer's vector is
#
# $$PE_{p,\,2i} = \sin\!\left(\frac{p}{10000^{2i/d_{\text{model}}}}\right), \qquad
# PE_{p,\,2i+1} = \cos\!\left(\frac{p}{10000^{2i/d_{\text{model}}}}\right).$$
#
# Each pair of dimensions $(2i, 2i+1)$ is a clock turning at its own speed,
# $\omega_i = 10000^{-2i/d_{\text{model}}}$ radians per position. Left, the encoding of 64
# positions at $d_{\text{model}} = 64$; right, how similar two positions' encodings are:

# %%
nb.plot_encoding(T=64, d_model=64)

# %% [markdown]
# Nearby positions have similar encodings. The similarity runs in bands parallel to the
# diagonal: it depends on the offset between two positions, not on where they are. Now add the
# encoding to the slots *after* shuffling the tokens, so a word moved to slot 3 gets slot 3's
# encoding, and repeat the test:

# %%
pe = helpers.sinusoidal_positional_encoding(10, 16)  # (10, 16)
gap_pe = positions.permutation_gap(layer, seq, perm, pe=pe)
gap_causal = positions.permutation_gap(layer, seq, perm, mask=helpers.causal_mask(10))
size = layer(seq + pe)[0].abs().max().item()
print(f"with sinusoidal encoding: max |MHA(Px + PE) - P MHA(x + PE)| = {gap_pe:.2f}")
print(f"causal mask, no encoding: max |MHA(Px) - P MHA(x)|           = {gap_causal:.2f}")
print(f"for scale, the output itself:  max |MHA(x + PE)|             = {size:.2f}")
assert gap_pe > 1e5 * 1e-6 and gap_pe > 1e4 * gap_plain  # far above rounding

# %% [markdown]
# With the encoding, shuffling changes the output by an amount comparable to the output's own
# entries (the first and last lines): the layer now sees order. The second line shows that a
# **causal mask** breaks the symmetry too, because position $t$ sees a different set of tokens
# than position $t+1$. Haviv et al. 2022 found that decoder-only language models trained without positional encoding still learn
# positions, and credit the causal mask.

# %% [markdown]
# ## Verdict
#
# **C6 is true without a causal mask.** Without positional information, self-attention is
# permutation-equivariant, exactly up to float rounding: "the cat sat on the mat" and "the mat
# sat on the cat" look the same to it. Adding the sinusoidal encoding makes the output depend on
# order. Two nuances: the sinusoidal encoding is one choice among several (learned embeddings,
# relative positions, rotary encodings and ALiBi are common today), and a causal mask alone
# already breaks the symmetry.

# %% [markdown]
# ## Takeaways
#
# * Each head has its own softmax, so two heads keep two patterns at full strength that one head
#   must blend, and splitting into heads costs no parameters.
# * Without positions, self-attention gives the same output for a shuffled sentence, only
#   shuffled: it cannot see word order.
# * Adding a positional encoding, or using a causal mask, makes the output depend on order.

# %% [markdown]
# ## Exercises
#
# **1. Split into heads.** Complete `my_split_heads`: it takes `x` of shape
# $(B, N, d_{\text{model}})$ and returns $(B, n_{\text{heads}}, N, d_{\text{model}}/n_{\text{heads}})$,
# head $i$ (counting from 0, as the code does) holding columns $i\,d_k$ to $(i+1)\,d_k - 1$ (the
# layout of `nn.MultiheadAttention`).


# %%
def my_split_heads(x, n_heads):
    """(B, N, d_model) -> (B, n_heads, N, d_model // n_heads)."""
    raise NotImplementedError


helpers.check("split_heads", my_split_heads)

# %% [markdown]
# **2. Predict, then move the widget.** In the one-head layer, the word "on" puts some weight on
# its previous word, "sat". What does that weight tend to as the **W_q entries** grow without
# bound? Predict it from how a one-head score is built, then move the widget's **W_q entries** to
# 96 and read the dashed curve at "on". Give the exact value.

# %%
answer = None
helpers.check("one_head_limit", answer)

# %% [markdown]
# **3. Count parameters.** How many parameters does `nn.MultiheadAttention(64, 8)` have, with its
# default biases? Work it out from what the layer holds, then check it with `nb.parameter_count`.

# %%
answer = None
helpers.check("mha_parameter_count", answer)

# %% [markdown]
# **4. A shift is a rotation.** Complete `my_shift_rotation`: the $2 \times 2$ matrix $R$ with
# $\begin{pmatrix} PE_{p+k,\,2i} \\ PE_{p+k,\,2i+1} \end{pmatrix} = R
# \begin{pmatrix} PE_{p,\,2i} \\ PE_{p,\,2i+1} \end{pmatrix}$ for every position $p$, as a
# float32 tensor. The check tries several $k$ and $i$ at $d_{\text{model}} = 16$.


# %%
def my_shift_rotation(k, i, d_model):
    """(2, 2) float32 R: [PE[p+k, 2i], PE[p+k, 2i+1]] = R @ [PE[p, 2i], PE[p, 2i+1]] for every p."""
    raise NotImplementedError


helpers.check("shift_rotation", my_shift_rotation)

# %% [markdown]
# `helpers.solution("split_heads")` prints a reference solution, when you want it.
#
# ## Going further
#
# ### Two traps in `nn.MultiheadAttention`
#
# Two defaults that change what the layer returns, without an error.
#
# **Averaged weights.** By default (`need_weights=True`, `average_attn_weights=True`) the weights
# it returns are the *mean over heads*, one $N \times N$ map per sequence: the individual heads
# are gone.

# %%
_, averaged = mha(x, x, x)  # the defaults
print("default weights:", tuple(averaged.shape), "  per head:", tuple(their_weights.shape))
print(f"max |default - mean of the heads| {helpers.within_rounding(averaged - their_weights.mean(1))}")

# %% [markdown]
# On the toy sentence, the default would return the mean of the two hand-built heads, which
# mixes the two patterns and shows neither clearly:

# %%
toy = nb.hand_built_heads()
_, toy_weights = toy(x_toy, x_toy, x_toy, average_attn_weights=False)  # (1, 2, N, N)
maps = torch.cat([toy_weights[0], toy_weights[0].mean(0, keepdim=True)])  # (3, N, N)
nb.plot_sentence_heads(maps, ["head 0: previous word", "head 1: grammar", "mean of the heads (default)"])

# %% [markdown]
# **`batch_first` is False by default.** Then the layer reads its input as
# $(N, B, d_{\text{model}})$. Give it a $(B, N, d_{\text{model}})$ tensor and it runs without
# complaint, attending *across the batch* instead of along the sentence:

# %%
default_layer = nn.MultiheadAttention(d_model, n_heads)  # batch_first=False
with torch.no_grad():
    default_layer.load_state_dict(mha.state_dict())  # the very same weights
wrong, wrong_weights = default_layer(x, x, x)  # x is (B=2, N=6, d)
print("weights:", tuple(wrong_weights.shape), "= 6 'sequences' of 2 'tokens'")
print(f"max |wrong - right| = {(wrong - theirs).abs().max():.2f}")
right, _ = default_layer(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1))
print(f"with x.transpose(0, 1): max |difference| {helpers.within_rounding(right.transpose(0, 1) - theirs)}")

# %% [markdown]
# The telltale sign is the weights' shape: $(6, 2, 2)$, six "sequences" of two "tokens". Pass
# `batch_first=True`, as this course does, or transpose. The third trap, the boolean mask that
# means *may not attend*, is in notebook 04.
#
# ### The one head's scale
#
# Why the one head's blend is not its softer scale.
#
# The one head has $d_k = 16$, so it divides the summed scores by $\sqrt{16}$, where each of the
# two heads divides by $\sqrt{8}$. Multiplying the one head's $W_q$ by $\sqrt{2}$ gives it the two
# heads' scale exactly. The blend stays:

# %%
matched = nb.one_head(nb.SHARPNESS * math.sqrt(2))  # scores (s_0 + s_1) / sqrt(8)
_, one_matched = matched(x_toy, x_toy, x_toy)  # (1, N, N)
_, weak_matched = nb.weaker_pattern(two, one_matched[0])
cat = one_matched[0, 1]  # the query "cat"
print(f'at the two heads\' scale: "cat" -> "the" {cat[0]:.2f}, "cat" -> "sat" {cat[2]:.2f}')
print(f"weaker pattern, one head: at most {weak_matched[apart].max():.2f}")
assert weak_matched[apart].max() <= 0.5

# %% [markdown]
# ### Untrained heads
#
# What heads look like before training, and how that depends on the initialisation.
#
# We take `helpers.MultiHeadSelfAttention` as initialised, which is `nn.Linear`'s default: weights
# and biases uniform in $\pm 1/\sqrt{d_{\text{model}}}$. `nn.MultiheadAttention` initialises its
# own layer differently: Xavier `in_proj` weights, zero biases. We multiply $W_q, W_k, W_v$
# (`in_proj`) by a factor and measure how sharp each head's map of the toy sentence is by its
# entropy, averaged over the 6 queries: $\ln 6 = 1.79$ nats for uniform attention, 0 when every
# word attends to one word. With the factor 1 and with the factor 8, for seed 0 (the figure's);
# then, at factor 8, averaged over five seeds, for `nn.Linear`'s initialisation and for
# `nn.MultiheadAttention`'s:

# %%
rows, flat = [], 0.0
for h in nb.HEAD_CHOICES:
    H_init, H_sharp = (nb.random_head_maps(h, scale)[1] for scale in (1, nb.SHARP_SCALE))  # (h,) each
    rows.append([h, 16 // h, f"{H_init.mean():.2f}", f"{H_sharp.mean():.2f}"])
    rows[-1].append(f"{H_sharp.min():.2f} to {H_sharp.max():.2f}")
    rows[-1] += [f"{nb.mean_head_entropy(h, init=init):.2f}" for init in nb.INITS]  # seeds 0-4
    flat = max(flat, (nb.random_head_maps(h, 1)[0] - 1 / 6).abs().max().item())  # factor 1: uniform?
lowest = min(nb.random_head_maps(h, 1)[1].min().item() for h in nb.HEAD_CHOICES)  # over every head
print(f"factor 1, seed 0: every weight of every map is within {flat:.3f} of 1/6;")
print(f"the lowest entropy of any head, at any head count, is {lowest:.4f} (ln 6 = {math.log(6):.4f})")
header = [
    "heads",
    "d_k",
    "entropy, × 1",
    f"entropy, × {nb.SHARP_SCALE}",
    f"range over heads, × {nb.SHARP_SCALE}",
]
header += [f"× {nb.SHARP_SCALE}, 5 seeds", f"× {nb.SHARP_SCALE}, 5 seeds, MHA's init"]
Table(header, rows)

# %% [markdown]
# At factor 1 every head's entropy, at every head count, rounds to $\ln 6 = 1.79$ (the lowest is
# printed above), and every weight is within 0.03 of $1/6$: the initial weights are small, so the
# scores are nearly equal (notebook 04's diffuse attention). So the maps below are drawn with the
# initial in_proj weights **multiplied by 8**, only to make the random maps visibly sharp; the
# layer is still untrained, its patterns mean nothing, and training is what makes heads
# specialise. The colours are the toy maps' (dark 0, yellow 1); the title gives the heads'
# entropies, lowest to highest, and their mean:

# %%
nb.plot_heads(n_heads=4, scale=nb.SHARP_SCALE)

# %% [markdown]
# Choose the number of **heads** (only divisors of $d_{\text{model}} = 16$) and the factor on
# the initial $W_q, W_k, W_v$ (**W_q, W_k, W_v ×**; 1 is `nn.Linear`'s default initialisation,
# as our class uses). What the table shows: at factor 1 every map is flat, whatever the number
# of heads; at factor 8, narrower heads differ more from one another (for seed 0, 2 heads range
# from 0.81 to 0.94 nats, 16 heads from 0.57 to 1.40); *on average* over five seeds, with this
# initialisation, the sharpness changes little up to 4 heads and falls a little at 8 and 16
# (0.92 to 1.11 nats), while with `nn.MultiheadAttention`'s initialisation the maps are sharper
# and blur steadily as heads multiply (0.52 to 0.89 nats). How sharp untrained heads are depends
# on the initialisation, not only on their number.

# %%
nb.explore_heads()

# %% [markdown]
# ### The clocks' wavelengths
#
# How slow the slowest clock is, read off the encoding itself.
#
# Pair $i$ turns $\omega_i$ radians per position, so one turn takes
# $\lambda_i = 2\pi \cdot 10000^{2i/d_{\text{model}}}$ positions: $2\pi \approx 6$ for the first
# pair, and for the last, $i = d_{\text{model}}/2 - 1$,
# $2\pi \cdot 10000^{(d_{\text{model}} - 2)/d_{\text{model}}}$, short of $2\pi \cdot 10000$
# (that would be $i = d_{\text{model}}/2$, a pair that does not exist). We read the turn per
# position off the encoding (the angle of each pair at position 1, since position 0 is at angle
# 0) and compare with the formula, for this notebook's two widths:

# %%
for d in (16, 64):
    pe2 = helpers.sinusoidal_positional_encoding(2, d).double()  # positions 0 and 1, (2, d)
    turn = torch.atan2(pe2[1, 0::2], pe2[1, 1::2])  # radians each pair turns per position, (d/2,)
    wavelength = 2 * math.pi / turn  # positions per turn, (d/2,)
    print(
        f"d_model = {d}: first pair {wavelength[0]:.2f}, last pair {wavelength[-1]:,.0f} positions; "
        f"2π·10000^((d-2)/d) = {2 * math.pi * 10000 ** ((d - 2) / d):,.0f}, 2π·10000 = {2 * math.pi * 1e4:,.0f}"
    )

# %% [markdown]
# The slowest clock turns once every 47,117 positions at $d_{\text{model}} = 64$ and 19,869 at
# $d_{\text{model}} = 16$: three quarters and a third of $2\pi \cdot 10000 = 62\,832$.
#
# ### A shift is a rotation
#
# Why the similarity of two positions depends only on their offset.
#
# $PE_{p+k} = M_k\, PE_p$, where $M_k$ rotates each pair $i$ by the angle $k\,\omega_i$
# (`positions.shift_matrix`, a $2 \times 2$ rotation per pair) and depends only on $k$:

# %%
pe64 = helpers.sinusoidal_positional_encoding(64, 64)  # (64 positions, d_model = 64)
for offset in (1, 5, 20):
    M = positions.shift_matrix(offset, 64)  # (64, 64), block-diagonal
    gap = pe64[offset:] - pe64[:-offset] @ M.T  # PE_(p+offset) - M PE_p, every p
    print(f"offset {offset:2d}: max |PE_(p+offset) - M PE_p| {helpers.within_rounding(gap)}")

# %% [markdown]
# So the dot product $PE_p \cdot PE_{p+k} = PE_p \cdot M_k PE_p$ is the same for every $p$. Each pair of $PE_p$,
# $(\sin p\,\omega_i, \cos p\,\omega_i)$, is a unit vector, and $M_k$ turns it by the angle $k\,\omega_i$: the pair
# contributes $\cos(k\,\omega_i)$, whatever $p$, and the dot product is $\sum_i \cos(k\,\omega_i)$, with
# $\omega_i = 10000^{-2i/d_{\text{model}}}$. The cell compares the measured dot products, at every $p$, with
# this closed form, computed in float64 from the frequencies alone:

# %%
omega = 10000 ** (-torch.arange(0, 64, 2, dtype=torch.float64) / 64)  # (32,): each pair's angle per position
for offset in (1, 5, 20):
    dots = (pe64[:-offset] * pe64[offset:]).sum(-1)  # PE_p . PE_{p+offset}, every p
    closed = torch.cos(offset * omega).sum()  # sum_i cos(offset * omega_i): no p in it
    gap = helpers.within_rounding(dots.double() - closed, bound=1e-4)
    print(
        f"offset {offset:2d}: PE_p . PE_(p+offset) = {dots.mean():6.2f};"
        f" sum_i cos(offset * omega_i) = {closed:.3f}; max |difference| over p {gap}"
    )

# %% [markdown]
# ## Further reading
#
# * Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł. &
#   Polosukhin, I. (2017). Attention is all you need. *NeurIPS 30*. arXiv:1706.03762. (Multi-head
#   attention, section 3.2.2; the sinusoidal encoding, section 3.5.)
# * Clark, K., Khandelwal, U., Levy, O. & Manning, C. D. (2019). What does BERT look at? An
#   analysis of BERT's attention. *BlackboxNLP*. arXiv:1906.04341. (Heads for the previous token
#   and for syntactic relations.)
# * Voita, E., Talbot, D., Moiseev, F., Sennrich, R. & Titov, I. (2019). Analyzing multi-head
#   self-attention: specialized heads do the heavy lifting, the rest can be pruned. *ACL*.
#   arXiv:1905.09418.
# * Michel, P., Levy, O. & Neubig, G. (2019). Are sixteen heads really better than one?
#   *NeurIPS*. arXiv:1905.10650. (Many trained heads can be removed at test time.)
# * Shaw, P., Uszkoreit, J. & Vaswani, A. (2018). Self-attention with relative position
#   representations. *NAACL*. arXiv:1803.02155.
# * Su, J., Lu, Y., Pan, S., Murtadha, A., Wen, B. & Liu, Y. (2021). RoFormer: enhanced
#   Transformer with rotary position embedding. arXiv:2104.09864.
# * Press, O., Smith, N. A. & Lewis, M. (2022). Train short, test long: attention with linear
#   biases enables input length extrapolation. *ICLR*. arXiv:2108.12409. (ALiBi.)
# * Haviv, A., Ram, O., Press, O., Izsak, P. & Levy, O. (2022). Transformer language models
#   without positional encodings still learn positional information. *Findings of EMNLP*.
#   arXiv:2203.16634.
#
# Next: [06 · Parallelism and cost, measured](06_parallelism_cost.ipynb).
