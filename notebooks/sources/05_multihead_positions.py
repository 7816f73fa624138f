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
# Notebook 04 built one attention: one set of weights per query. A Transformer layer runs
# several in parallel, **heads**, each free to look for something different (Vaswani et al.
# 2017, section 3.2.2). And attention by itself cannot tell word order, so the Transformer
# adds **positional encodings** to its inputs (section 3.5).
#
# **You will learn**
# * to split into heads, attend, merge and project, and to match `nn.MultiheadAttention`
#   weight for weight (and three of its traps);
# * what heads buy (and what they do not cost: parameters);
# * that self-attention without positions ignores order exactly, and how the sinusoidal
#   encoding fixes that: clocks of different speeds, where a shift of positions is a rotation.
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
# With $h$ heads and model width $d_{\text{model}}$, each head works in
# $d_k = d_{\text{model}}/h$ dimensions ($h$ is the number of heads in this notebook, not a
# hidden state, and $L$ the sequence length, the $N$ of notebook 04):
#
# $$\mathrm{head}_i = \mathrm{Attention}(Q_i, K_i, V_i), \qquad
# \mathrm{MultiHead}(x) = [\mathrm{head}_1, \dots, \mathrm{head}_h]\, W_o ,$$
#
# where $Q = xW_q$ (and likewise $K$, $V$) is computed once for all heads, and $Q_i$ is its
# $i$-th block of $d_k$ columns. Step by step, with shapes, for $d_{\text{model}} = 16$ and
# 4 heads. (PyTorch stores each weight as (out, in), so $xW_q$ in the maths is `x @ W_q.T` in
# code, and `nn.MultiheadAttention` also adds a bias.)

# %%
d_model, n_heads = 16, 4
mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)  # PyTorch's layer, at init
x = torch.randn(2, 6, d_model, generator=generator)  # (B, L, d_model)
W_q, W_k, W_v = mha.in_proj_weight.split(d_model)  # in_proj_weight = [W_q; W_k; W_v]
b_q, b_k, b_v = mha.in_proj_bias.split(d_model)
q, k, v = x @ W_q.T + b_q, x @ W_k.T + b_k, x @ W_v.T + b_v  # each (2, 6, 16)
q, k, v = (multihead.split_heads(t, n_heads) for t in (q, k, v))  # each (2, 4, 6, 4): (B, h, L, d_k)
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
# The scale inside each head is $1/\sqrt{d_k} = 1/\sqrt{d_{\text{model}}/h}$, here
# $1/\sqrt{4}$: `helpers.scaled_dot_product_attention` reads $d_k$ from the last dimension
# of `q`, which after the split is 4. Now the same numbers from PyTorch. Ask for
# `average_attn_weights=False` to get one map per head:

# %%
theirs, their_weights = mha(x, x, x, average_attn_weights=False)
torch.testing.assert_close(out, theirs)
torch.testing.assert_close(weights, their_weights)
print(
    f"max |ours - nn.MultiheadAttention| {helpers.within_rounding(out - theirs)} (output), "
    f"{helpers.within_rounding(weights - their_weights)} (weights)"
)

# %% [markdown]
# The course wraps these steps in `helpers.MultiHeadSelfAttention`, with the same layout;
# `from_torch` copies a PyTorch layer's weights into it:

# %%
ours = helpers.MultiHeadSelfAttention.from_torch(mha)
ours_out, ours_weights = ours(x)  # (2, 6, 16), (2, 4, 6, 6)
torch.testing.assert_close(ours_out, theirs)
print("helpers.MultiHeadSelfAttention matches:", tuple(ours_out.shape), tuple(ours_weights.shape))

# %% [markdown]
# ### Two traps in `nn.MultiheadAttention`
#
# **Averaged weights.** By default (`need_weights=True`, `average_attn_weights=True`) the
# weights it returns are the *mean over heads*, one $L \times L$ map per sequence: the
# individual heads are gone.

# %%
_, averaged = mha(x, x, x)  # the defaults
print("default weights:", tuple(averaged.shape), "  per head:", tuple(their_weights.shape))
print(f"max |default - mean of the heads| {helpers.within_rounding(averaged - their_weights.mean(1))}")

# %% [markdown]
# **`batch_first` is False by default.** Then the layer reads its input as
# $(L, B, d_{\text{model}})$. Give it a $(B, L, d_{\text{model}})$ tensor and it runs without
# complaint, attending *across the batch* instead of along the sentence:

# %%
default_layer = nn.MultiheadAttention(d_model, n_heads)  # batch_first=False
with torch.no_grad():
    default_layer.load_state_dict(mha.state_dict())  # the very same weights
wrong, wrong_weights = default_layer(x, x, x)  # x is (B=2, L=6, d)
print("weights:", tuple(wrong_weights.shape), "= 6 'sequences' of 2 'tokens'")
print(f"max |wrong - right| = {(wrong - theirs).abs().max():.2f}")
right, _ = default_layer(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1))
print(f"with x.transpose(0, 1): max |difference| {helpers.within_rounding(right.transpose(0, 1) - theirs)}")

# %% [markdown]
# The telltale sign is the weights' shape: $(6, 2, 2)$, six "sequences" of two "tokens". Pass
# `batch_first=True`, as this course does, or transpose. (The third trap, the boolean mask
# that means *may not attend*, is in notebook 04.)
#
# ## Heads you can read: a toy sentence
#
# Random weights give random maps. To see what heads *can* do, we build a layer by hand for the
# sentence "the cat sat on the mat". Each word's 16-number embedding says *what* it is (dims
# 0-3, one of 4 word types: determiner, noun, verb, preposition) and *where* it is (dims 8-13,
# one of 6 positions); the other six dims are 0:

# %%
words = nb.SENTENCE
x_toy = nb.toy_embeddings()  # (1, 6, 16)
for word, e in zip(words, x_toy[0]):
    print(f"{word:>4}: type dims {e[:4].int().tolist()}  position dims {e[8:14].int().tolist()}")

# %% [markdown]
# Then we set $W_q$ and $W_k$ of an `nn.MultiheadAttention(16, 2)` by hand (the values $W_v$
# and the output $W_o$ are the identity). Both patterns occur in trained models: Clark et al.
# 2019 (*What Does BERT Look At?*) found BERT heads that attend to the previous or the next
# token, and heads that attend to the direct objects of verbs, the determiners of nouns and
# the objects of prepositions.
#
# * **head 0, "previous word"**: the query of position $p$ points at position $p - 1$;
# * **head 1, "grammar"**: the query of a determiner, a verb or a preposition asks for a noun;
#   the query of a noun asks for the verb.
#
# Below are the two heads' maps and, on the right, what the default `need_weights=True`
# would return: their average.

# %%
toy = nb.hand_built_heads()
_, toy_weights = toy(x_toy, x_toy, x_toy, average_attn_weights=False)  # (1, 2, 6, 6)
maps = torch.cat([toy_weights[0], toy_weights[0].mean(0, keepdim=True)])  # (3, 6, 6)
nb.plot_sentence_heads(maps, ["head 0: previous word", "head 1: grammar", "mean of the heads (default)"])

# %% [markdown]
# Read a row to see where a word looks: in head 0, "sat" looks at "cat" and "mat" looks at
# "the"; "the" at position 0 has no previous word, so its attention spreads evenly. In head 1,
# "cat" and "mat" look at "sat", and "sat" splits its attention between the two nouns. Notice
# that head 1 knows only word *types*: both "the"s attend to "cat" and "mat" equally, since
# nothing in that head says which noun is nearer. Order has to come from somewhere (here, from
# the position dimensions that head 0 uses). The averaged map mixes the two patterns and
# shows neither clearly. The strongest weights, printed:

# %%
for h, name in enumerate(["previous word", "grammar"]):
    picks = [
        f"{words[i]}->{words[j]} {toy_weights[0, h, i, j]:.2f}"
        for i, j in enumerate(toy_weights[0, h].argmax(-1).tolist())
    ]
    print(f"head {h} ({name}): " + ", ".join(picks))

# %% [markdown]
# ## How many heads?
#
# Splitting $d_{\text{model}}$ into more heads gives more, narrower maps. It does **not**
# change the parameter count: $W_q, W_k, W_v, W_o$ are always $d_{\text{model}} \times
# d_{\text{model}}$, plus biases, $4 d_{\text{model}}^2 + 4 d_{\text{model}}$:

# %%
for h in nb.HEAD_CHOICES:
    layer = nn.MultiheadAttention(16, h, batch_first=True)
    print(f"{h:2d} heads x d_k = {16 // h:2d}: {nb.parameter_count(layer)} parameters")

# %% [markdown]
# What do *untrained* heads look like? We take `helpers.MultiHeadSelfAttention` as initialised,
# which is `nn.Linear`'s default (weights and biases uniform in $\pm 1/\sqrt{d_{\text{model}}}$;
# `nn.MultiheadAttention` initialises its own layer differently: Xavier `in_proj` weights, zero biases),
# multiply $W_q, W_k, W_v$ (`in_proj`) by a factor, and measure how sharp each head's map
# of the toy sentence is by its entropy, averaged over the 6 queries: $\ln 6 = 1.79$ nats
# for uniform attention, 0 when every word attends to one word. With the factor 1 and with the
# factor 8, for seed 0 (the figure's); then, at factor 8, averaged over five seeds, for
# `nn.Linear`'s initialisation and for `nn.MultiheadAttention`'s:

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
# printed above), and every weight is within 0.03 of $1/6$: the initial weights are small, so the scores are nearly
# equal (notebook 04's diffuse attention). So the maps below are drawn with the initial in_proj weights
# **multiplied by 8**, only to make the random maps visibly sharp; the layer is still untrained,
# its patterns mean nothing, and training is what makes heads specialise. Same colours as
# above (dark 0, yellow 1); the title gives the heads' entropies, lowest to highest, and their mean:

# %%
nb.plot_heads(n_heads=4, scale=nb.SHARP_SCALE)

# %% [markdown]
# Choose the number of **heads** (only divisors of $d_{\text{model}} = 16$) and the factor on
# the initial $W_q, W_k, W_v$ (**W_q, W_k, W_v ×**; 1 is `nn.Linear`'s default initialisation,
# as our class uses). Four things to see, the first three in the table above: at factor 1 every map is flat, whatever the number
# of heads; at factor 8, narrower heads differ more from one another (for seed 0, 2 heads range
# from 0.81 to 0.94 nats, 16 heads from 0.57 to 1.40); *on average* over five seeds, with this
# initialisation, the sharpness changes little up to 4 heads and falls a little at 8 and 16
# (0.92 to 1.11 nats), while with `nn.MultiheadAttention`'s initialisation the maps are sharper
# and blur steadily as heads multiply (0.52 to 0.89 nats): how sharp untrained heads are
# depends on the initialisation, not only on their number; and, as printed above, the
# parameters stay at 1088.

# %%
nb.explore_heads()

# %% [markdown]
# ## Attention has no sense of order
#
# Shuffle the tokens of a sequence with a permutation $P$. Self-attention computes the same
# scores between the same pairs, just in shuffled rows and columns, so its output is the
# shuffled output: $\mathrm{MHA}(Px) = P\,\mathrm{MHA}(x)$ (it is *permutation-equivariant*).
# "the cat sat on the mat" and "the mat sat on the cat" give the same vectors, reordered. We
# test it on a random sequence of 10 tokens:

# %%
layer = ours  # the layer copied from PyTorch above
x = torch.randn(1, 10, 16, generator=generator)  # (B=1, L=10, d_model=16)
perm = torch.randperm(10, generator=generator)
gap_plain = positions.permutation_gap(layer, x, perm)
print(f"permutation {perm.tolist()}")
print(f"without positions: max |MHA(Px) - P MHA(x)| {helpers.within_rounding(gap_plain)}")

# %% [markdown]
# The difference is float32 rounding error (below $10^{-6}$; its last digits depend on your CPU, so the
# cell prints the bound and checks it): the layer cannot see order at all.
#
# ## Sinusoidal positional encoding
#
# The fix is to add to each *slot* $p$ a vector that depends only on $p$:
#
# $$PE_{p,\,2i} = \sin\!\left(\frac{p}{10000^{2i/d_{\text{model}}}}\right), \qquad
# PE_{p,\,2i+1} = \cos\!\left(\frac{p}{10000^{2i/d_{\text{model}}}}\right).$$
#
# Each pair of dimensions $(2i, 2i+1)$ is a clock that turns at its own speed,
# $\omega_i = 10000^{-2i/d_{\text{model}}}$ radians per position, so one turn takes
# $\lambda_i = 2\pi \cdot 10000^{2i/d_{\text{model}}}$ positions: $2\pi \approx 6$ for the first
# pair, and for the last, $i = d_{\text{model}}/2 - 1$,
# $2\pi \cdot 10000^{(d_{\text{model}} - 2)/d_{\text{model}}}$, short of $2\pi \cdot 10000$
# (that would be $i = d_{\text{model}}/2$, a pair that does not exist). We read the turn per
# position off the encoding itself (the angle of each pair at position 1, since position 0 is
# at angle 0) and compare with the formula, for this notebook's two widths:

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
# $d_{\text{model}} = 16$: three quarters and a third of $2\pi \cdot 10000 = 62,832$. Left, the
# encoding for 64 positions and $d_{\text{model}} = 64$; right, how similar two positions'
# encodings are:

# %%
nb.plot_encoding(T=64, d_model=64)

# %% [markdown]
# Nearby positions have similar encodings, and the similarity falls off with distance along
# bands parallel to the diagonal: it depends on the offset $p - q$, not on $p$ itself. That is
# exact: $PE_{p+k} = M_k\, PE_p$, where $M_k$ rotates each pair $i$ by the angle $k\,\omega_i$
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
# Now add the encoding to the slots *after* shuffling the tokens (a word moved to slot 3 gets
# slot 3's encoding) and repeat the test:

# %%
pe = helpers.sinusoidal_positional_encoding(10, 16)  # (10, 16)
gap_pe = positions.permutation_gap(layer, x, perm, pe=pe)
gap_causal = positions.permutation_gap(layer, x, perm, mask=helpers.causal_mask(10))
size = layer(x + pe)[0].abs().max().item()
print(f"with sinusoidal encoding: max |MHA(Px + PE) - P MHA(x + PE)| = {gap_pe:.2f}")
print(f"causal mask, no encoding: max |MHA(Px) - P MHA(x)|           = {gap_causal:.2f}")
print(f"for scale, the output itself:  max |MHA(x + PE)|             = {size:.2f}")
assert gap_pe > 1e5 * 1e-6 and gap_pe > 1e4 * gap_plain  # far above rounding

# %% [markdown]
# With the encoding, shuffling the words changes the output by an amount comparable to the
# output's own entries (compare the first and the last line printed above), over $10^5$ times
# the rounding bound of the test without positions: the layer now sees order. The second
# line shows that a **causal mask** also breaks the symmetry, since position $t$ sees a
# different set of tokens than position $t+1$; decoder-only language models trained without
# any positional encoding do learn positional information (Haviv et al. 2022), which the authors
# attribute to the causal mask.
#
# ## Verdict
#
# **C6 is true without a causal mask.** Without positional information, self-attention is permutation-equivariant,
# exactly up to float rounding (below $10^{-6}$ here): "the cat sat on the mat" and "the mat sat on
# the cat" look the same to it. Adding the sinusoidal encoding to the inputs makes the output
# depend on order. Two nuances: the sinusoidal encoding is one choice among several (learned
# embeddings, relative positions, rotary encodings and ALiBi are common today), and a causal
# mask alone already breaks the symmetry.
#
# ## Summary
#
# * Multi-head attention: project once, split $d_{\text{model}}$ into $h$ contiguous blocks of
#   $d_k = d_{\text{model}}/h$, attend in each with scale $1/\sqrt{d_k}$, merge, project by
#   $W_o$. It matches `nn.MultiheadAttention`, whose `in_proj_weight` is $[W_q; W_k; W_v]$.
# * Traps: `batch_first=False` by default; `need_weights=True` averages the heads unless
#   `average_attn_weights=False`; the boolean `attn_mask` means *may not attend*.
# * More heads: more, narrower maps, the same $4 d_{\text{model}}^2 + 4 d_{\text{model}}$
#   parameters.
# * Without positions, $\mathrm{MHA}(Px) = P\,\mathrm{MHA}(x)$; sinusoidal encodings (or a
#   causal mask) break that symmetry.
# * Pair $i$ of the sinusoidal encoding turns $10000^{-2i/d_{\text{model}}}$ radians per position:
#   wavelengths from $2\pi$ to $2\pi \cdot 10000^{(d_{\text{model}}-2)/d_{\text{model}}}$, and
#   $PE_{p+k}$ is $PE_p$ rotated pair by pair, by angles that depend only on $k$.
#
# ## Exercises
#
# **1. Split into heads.** Complete `my_split_heads`: it takes `x` of shape
# $(B, L, d_{\text{model}})$ and returns $(B, h, L, d_{\text{model}}/h)$, head $i$ (counting from 0,
# as the code does) holding columns $i\,d_k$ to $(i+1)\,d_k - 1$ (the layout of `nn.MultiheadAttention`).


# %%
def my_split_heads(x, n_heads):
    """(B, L, d_model) -> (B, n_heads, L, d_model // n_heads)."""
    raise NotImplementedError


helpers.check("split_heads", my_split_heads)

# %% [markdown]
# **2. Count parameters.** How many parameters does `nn.MultiheadAttention(64, 8)` have
# (with its default biases)? Work it out, then check it with `nb.parameter_count`.

# %%
answer = None
helpers.check("mha_parameter_count", answer)

# %% [markdown]
# **3. A shift is a rotation.** Complete `my_shift_rotation`: the $2 \times 2$ matrix $R$ with
# $\begin{pmatrix} PE_{p+k,\,2i} \\ PE_{p+k,\,2i+1} \end{pmatrix} = R
# \begin{pmatrix} PE_{p,\,2i} \\ PE_{p,\,2i+1} \end{pmatrix}$ for every position $p$, as a
# float32 tensor. (Pair $i$ turns by $\omega_i = 10000^{-2i/d_{\text{model}}}$ radians per
# position; expand $\sin(x + a)$ and $\cos(x + a)$.) The check tries several $k$, $i$ at
# $d_{\text{model}} = 16$.


# %%
def my_shift_rotation(k, i, d_model):
    """(2, 2) float32 R: [PE[p+k, 2i], PE[p+k, 2i+1]] = R @ [PE[p, 2i], PE[p, 2i+1]] for every p."""
    raise NotImplementedError


helpers.check("shift_rotation", my_shift_rotation)

# %% [markdown]
# `helpers.solution("split_heads")` prints a reference solution, when you want it.
#
# Next: [06 · Parallelism and cost, measured](06_parallelism_cost.ipynb).
