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
# # 01 · Recurrence: what can and cannot run in parallel
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/01_recurrence.ipynb)
#
# **You will learn**
# * to build a vanilla RNN from its equation and check it against `torch.nn.RNNCell` and `torch.nn.RNN`;
# * why step $t$ has to wait for the $t$ steps before it, drawn as the unrolled chain;
# * which part of an RNN *is* parallel across time (the input projection: one matmul for every $t$) and which is not;
# * how the loop time grows with the sequence length, measured on your machine.
#
# **The article's claim this notebook tests (C1)**, translated from the article:
#
# > *"Since $h_t$ depends directly on $h_{t-1}$, the processing cannot be parallelised. To compute the
# > state of the 100th word in a sentence, the network must compute the first 99 states sequentially."*

# %% tags=["setup"]
# Setup: on Colab, install the course helpers; anywhere else this cell does nothing.
import subprocess
import sys

if "google.colab" in sys.modules:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "git+https://github.com/why-transformers/why-transformers"], check=True)

# %%
import torch
from torch.testing import assert_close

import helpers
from helpers.notebooks import nb01_recurrence as nb
from helpers.rnn import rnn_weights

helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(1)

# %% [markdown]
# ## The recurrence, from the equation
#
# A vanilla (Elman) RNN keeps a hidden state $h_t \in \mathbb{R}^{d_h}$ and updates it once per token:
#
# $$h_t = \tanh(W_{hh} h_{t-1} + W_{xh} x_t + b), \qquad h_0 = 0.$$
#
# $W_{xh}$ is $(d_h \times d_{in})$, $W_{hh}$ is $(d_h \times d_h)$, and the same weights are used at every
# step. In code the batch comes first and each row is one example, so the same formula reads
# `h_t = tanh(x_t @ W_xh.T + h_prev @ W_hh.T + b)`. That one line is `helpers.rnn_step`
# (you will write it yourself in the exercises).
#
# PyTorch's `nn.RNNCell` stores the same weights as `weight_ih` ($W_{xh}$) and `weight_hh` ($W_{hh}$),
# with *two* biases, `bias_ih + bias_hh`, that always appear as a sum: $b$.

# %%
d_in, d_h, B, T = 3, 4, 2, 5
cell = torch.nn.RNNCell(d_in, d_h)
W_xh, W_hh, b = rnn_weights(cell)  # b = bias_ih + bias_hh
x = torch.randn(B, T, d_in, generator=generator)
h0 = torch.zeros(B, d_h)
print("W_xh", tuple(W_xh.shape), " W_hh", tuple(W_hh.shape), " b", tuple(b.shape), " x", tuple(x.shape))

# %% [markdown]
# One step of ours against one step of `nn.RNNCell`. The difference is float32 rounding, whose last digits
# depend on your CPU (its vector instructions and thread count), so the cell prints a bound that every CPU
# meets, `helpers.within_rounding`, and checks it; `assert_close` checks PyTorch's own tolerance too.

# %%
ours, theirs = helpers.rnn_step(x[:, 0], h0, W_xh, W_hh, b), cell(x[:, 0], h0)
assert_close(ours, theirs)
print(f"one step   vs nn.RNNCell: max |difference| {helpers.within_rounding(ours - theirs)}")

# %% [markdown]
# Then a whole sequence: our loop, `helpers.rnn_forward`, against the fused `nn.RNN` layer given the same
# weights. `nn.RNN` returns every hidden state, $(B, T, d_h)$, and the last one.

# %%
layer = torch.nn.RNN(d_in, d_h, batch_first=True)
with torch.no_grad():  # give nn.RNN the cell's weights
    for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
        getattr(layer, name + "_l0").copy_(getattr(cell, name))
H, h_T = helpers.rnn_forward(x, W_xh, W_hh, b)
H_ref, h_ref = layer(x)
assert_close(H, H_ref)
print(f"{T} steps    vs nn.RNN:     max |difference| {helpers.within_rounding(H - H_ref)}")

# %% [markdown]
# Both match to within float32 rounding (below $10^{-6}$ on values of size about 1): our equation *is*
# PyTorch's RNN.

# %% [markdown]
# ## The unrolled chain
#
# Write the recurrence out for every step and it becomes a chain: $h_1$ needs $h_0$, $h_2$ needs $h_1$,
# and $h_t$ cannot start before the $t$ steps before it have finished. The **depth** of a computation is
# the length of its longest chain of operations that must run one after another; no number of
# processors can finish it faster than that. Whatever hardware you have, the depth of this computation
# is $N$ for a sequence of $N$ tokens. ($N$ is the article's letter for a sequence length; the code
# cells call the length of their small example `T`. The figure leaves out the bias $b$.)

# %%
nb.plot_unrolled_chain(T=6)

# %% [markdown]
# ## What *is* parallel: the input projection
#
# Look at the blue row of the figure. The input projection $u_t = W_{xh} x_t + b$ does not involve $h$ at
# all, so it can be computed for **every** $t$ before the loop starts, in a single matrix multiplication
# over a $(B, T, d_{in})$ tensor. Only the orange chain, $h_t = \tanh(u_t + W_{hh} h_{t-1})$, is sequential. `helpers.rnn_forward` is
# written exactly this way.

# %%
U_all = x @ W_xh.T + b  # (B, T, d_h): one matmul, all t
U_steps = torch.stack([x[:, t] @ W_xh.T + b for t in range(T)], dim=1)  # one t at a time
print("shape:", tuple(U_all.shape), "| equal to the per-step projections:", torch.allclose(U_all, U_steps))

# %% [markdown]
# Two more things are parallel, and the article does not mention them:
#
# * **within** a step, $h_{t-1} W_{hh}^\top$ is a matrix product over the whole batch and all $d_h$
#   hidden units: a GPU spreads it over thousands of threads. What cannot be spread is *time*;
# * the layer on top (a classifier on every $h_t$) is again one matmul over all $t$ once the chain is done.
#
# So the claim is about **depth across time**: $N$ dependent steps, each of which must wait for the last.

# %% [markdown]
# ## Measured: the loop time grows linearly with $N$
#
# If each step costs the same and the steps cannot overlap, the time is (steps) × (time per step). The cell
# below times the article's own loop (`h = cell(x[:, t], h)`, batch 8, $d = 32$, one CPU thread) at four
# lengths, taking turns (every round times each length once) and keeping the median of 5 rounds, so a burst
# of load from other programs slows all four alike. Timings depend on your machine and on what else it is
# doing, so nbval ignores the printed numbers; the cell asserts the qualitative claim instead, with a margin
# that survives a machine twice as busy: 8x the steps must take over 3x the time.

# %%
# NBVAL_IGNORE_OUTPUT
# (timings depend on the machine)
lengths = [64, 128, 256, 512]
seconds = nb.time_rnn_loops(lengths, repeats=5)
for n, s in zip(lengths, seconds):
    print(f"N = {n:3d}: {1e3 * s:6.2f} ms  ({1e6 * s / n:.0f} µs per step)")
assert seconds[3] > 3 * seconds[0], "8x the steps should take well over 3x the time"

# %% [markdown]
# The microseconds per step stay roughly constant (up to noise from whatever else your machine is
# running), so four times the length takes roughly four times as long: the time is proportional to $N$. (The printed numbers are from the machine that built this
# notebook; yours will differ, the straight line will not.)

# %%
nb.plot_loop_time(lengths, seconds)

# %% [markdown]
# Now move the **sequence length** slider: each redraw runs the loop again, once, at $N/4$, $N/2$, $3N/4$
# and $N$. The number of dependent steps is exactly $N$ (the title); the measured times follow a line
# through the origin, up to the noise of your machine.

# %%
nb.explore_sequential_cost()

# %% [markdown]
# ## When the tanh goes, the chain can be broken
#
# The chain is unbreakable because of the $\tanh$: $\tanh(W_{hh}\tanh(W_{hh} h + u_1) + u_2)$ has no
# shortcut. A **linear** recurrence is different. Take $h_t = a_t \odot h_{t-1} + u_t$ (element-wise):
# unrolled, $h_t = \sum_{s \le t} \big(\prod_{r=s+1}^{t} a_r\big) u_s$, which is a cumulative product and a
# cumulative sum. Both are *scans*, and a scan runs in $O(\log N)$ parallel depth (Blelloch 1990;
# Martin & Cundy 2018). This is the idea behind S4, Mamba and minGRU; notebook 08 builds it. Here is a
# loop-free version for a short sequence, matched against the loop:

# %%
a = torch.rand(T, d_h, generator=generator) * 0.5 + 0.5  # decay per step, in (0.5, 1)
u = torch.randn(T, d_h, generator=generator)
h, loop = torch.zeros(d_h), []
for t in range(T):  # the sequential way
    h = a[t] * h + u[t]
    loop.append(h)
A = torch.cumprod(a, dim=0)  # prod_{r<=t} a_r, a scan
scan = A * torch.cumsum(u / A, dim=0)  # no loop over t
print("loop-free linear recurrence equals the loop:", torch.allclose(torch.stack(loop), scan, atol=1e-5))

# %% [markdown]
# (This closed form divides by $\prod a_r$, which underflows on long sequences; real implementations use a
# numerically safe parallel scan. Notebook 08 shows one.)
#
# ## Verdict
#
# **C1 is true for the RNN the article writes down, and too strong as a statement about recurrence.**
#
# * True: with the $\tanh$ recurrence, $h_t$ needs $h_{t-1}$; the computation has $N$ dependent steps,
#   and the measured loop time grows linearly with $N$.
# * But not everything is sequential: the input projection (and any per-token output layer) is one
#   matmul for all $t$, and each step's matrix product is parallel over batch and hidden units.
# * And recurrence itself is not the culprit: a *linear* recurrence can be computed by a parallel scan in
#   $O(\log N)$ depth. Recurrent models that do this (S4, Mamba, minGRU) are why recurrence came back
#   (notebook 08).
#
# ## Summary
#
# * $h_t = \tanh(W_{hh}h_{t-1} + W_{xh}x_t + b)$ is exactly `nn.RNNCell` (with $b$ = `bias_ih + bias_hh`),
#   and looping it is exactly `nn.RNN`.
# * Unrolled, the RNN is a chain of depth $N$: step $t$ waits for $t$ earlier steps.
# * $W_{xh}x_t + b$ for all $t$ is one matmul; only $\tanh(u_t + W_{hh}h_{t-1})$ is sequential.
# * Loop time ∝ $N$, measured. Linear recurrences escape this with a scan.
#
# ## Exercises
#
# **1. Write `rnn_step`.** Given `x_t` $(B, d_{in})$, `h_prev` $(B, d_h)$, `W_xh` $(d_h, d_{in})$,
# `W_hh` $(d_h, d_h)$ and `b` $(d_h,)$, return $h_t$ $(B, d_h)$. Replace `raise NotImplementedError`
# and run the cell.


# %%
def my_rnn_step(x_t, h_prev, W_xh, W_hh, b):
    raise NotImplementedError


helpers.check("rnn_step", my_rnn_step)

# %% [markdown]
# **2. The parallel part.** Write `input_projection(x, W_xh, b)` that returns $W_{xh}x_t + b$ for every
# $t$ at once: `x` is $(B, T, d_{in})$, the result $(B, T, d_h)$. No loop over $t$.


# %%
def my_input_projection(x, W_xh, b):
    raise NotImplementedError


helpers.check("input_projection", my_input_projection)

# %% [markdown]
# **3. Count.** Starting from $h_0$, how many $\tanh$ steps must run one after another before $h_{100}$ is
# known, however many processors you have? Replace `None` with a number.

# %%
answer = None
helpers.check("dependent_steps", answer)

# %% [markdown]
# Stuck? `helpers.solution("rnn_step")` prints a reference answer (the same works for the others).
#
# Next: [02 · BPTT and the gradient product](02_bptt_gradients.ipynb).
