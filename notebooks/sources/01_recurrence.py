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
# 🌐 **English** · [Italiano](it/01_recurrence.ipynb) · [Русский](ru/01_recurrence.ipynb) · [فارسی](fa/01_recurrence.ipynb) · [Español](es/01_recurrence.ipynb)
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/01_recurrence.ipynb)
#
# **You will learn**
# * to build a vanilla RNN from its equation and check it against `torch.nn.RNNCell` and `torch.nn.RNN`;
# * why $h_t$ has to wait for the $t-1$ states computed before it, drawn as the unrolled chain and counted in
#   PyTorch's own autograd graph;
# * which part of an RNN *is* parallel across time (the input projection: one matmul for every $t$) and which
#   is not;
# * what the chain costs, measured on your machine: the same work with and without it, and at batch sizes
#   1 to 64;
# * which recurrences have an exact parallel shortcut (linear ones: a scan) and what the tanh RNN has instead.
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
from helpers.rnn import rnn_newton, rnn_newton_flops, rnn_weights

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
d_in, d_h, B, N = 3, 4, 2, 5  # N: the sequence length
cell = torch.nn.RNNCell(d_in, d_h)
W_xh, W_hh, b = rnn_weights(cell)  # b = bias_ih + bias_hh
x = torch.randn(B, N, d_in, generator=generator)
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
# weights. `nn.RNN` returns every hidden state, $(B, N, d_h)$, and the last one.

# %%
layer = torch.nn.RNN(d_in, d_h, batch_first=True)
with torch.no_grad():  # give nn.RNN the cell's weights
    for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
        getattr(layer, name + "_l0").copy_(getattr(cell, name))
H, h_N = helpers.rnn_forward(x, W_xh, W_hh, b)
H_ref, h_ref = layer(x)
assert_close(H, H_ref)
print(f"{N} steps    vs nn.RNN:     max |difference| {helpers.within_rounding(H - H_ref)}")

# %% [markdown]
# Both match to within float32 rounding (below $10^{-6}$ on values of size about 1): our equation *is*
# PyTorch's RNN.

# %% [markdown]
# ## The unrolled chain
#
# Write the recurrence out for every step and it becomes a chain: $h_1$ needs $h_0$, $h_2$ needs $h_1$,
# and $h_t$ cannot start before the $t-1$ states before it, $h_1, \dots, h_{t-1}$, have been computed
# ($h_0$ is given). With its own step, that makes $t$ tanh steps one after another. The **depth** of a
# computation is the length of its longest chain of operations that must run one after another; no number
# of processors can finish it faster than that. Computed as written, step after step, its depth is $N$
# steps for a sequence of $N$ tokens, whatever the hardware (the end of this notebook shows an algorithm that
# trades depth for extra work). (The figure leaves out the bias $b$.)

# %%
nb.plot_unrolled_chain(N=6)

# %% [markdown]
# The article's example in numbers: the 100th state. The cell runs PyTorch's own `nn.RNN` (not our code) on
# the first $t$ of 100 inputs and counts, in the autograd graph behind $h_t$, the tanh calls, the longest
# chain of tanh calls on one path back to the inputs (`nb.count_chain`), and the matrix products.

# %%
rnn = torch.nn.RNN(d_in, d_h, batch_first=True)  # PyTorch's RNN, its own weights
x_100 = torch.randn(1, 100, d_in, generator=generator)  # (1, 100, d_in): 100 tokens
for t in (1, 2, 99, 100):
    tanhs, chain, matmuls = nb.count_chain(rnn(x_100[:, :t])[1])  # the graph behind h_t
    print(f"h_{t:<3}: {tanhs:3d} tanh calls, all in one chain of {chain:3d}; {matmuls:3d} matmuls")

# %% [markdown]
# Every tanh call behind $h_t$ lies on one chain: none of them could have run beside another. $h_{99}$, the
# last state $h_{100}$ waits for, is the end of a chain of 99: those are the article's "first 99 states"
# ($h_1, \dots, h_{99}$). $h_{100}$ adds its own step: **100 dependent steps** from $h_0$. The matmuls
# are one more than the steps: `nn.RNN` computes the input projection of all $t$ in one matrix product,
# then one product with $W_{hh}$ per step (the next section).

# %% [markdown]
# ## What *is* parallel: the input projection
#
# Look at the blue row of the figure. The input projection $u_t = W_{xh} x_t + b$ does not involve $h$ at
# all, so it can be computed for **every** $t$ before the loop starts, in a single matrix multiplication
# over a $(B, N, d_{in})$ tensor. Only the orange chain, $h_t = \tanh(u_t + W_{hh} h_{t-1})$, is sequential.
# `helpers.rnn_forward` is written exactly this way.

# %%
U_all = x @ W_xh.T + b  # (B, N, d_h): one matmul, all t
U_steps = torch.stack([x[:, t] @ W_xh.T + b for t in range(N)], dim=1)  # one t at a time
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
# ## Measured: the number of calls, not the work, sets the time
#
# A loop over $N$ tokens takes time that grows with $N$, but that proves nothing by itself: a parallel method
# also does work proportional to $N$. What a dependency changes is whether the work can be *rearranged*.
# Take $N = 100$ tanh steps of one size (batch $B$, width $d = 32$: the next cell prints both settings),
# computed three ways:
#
# 1. **one call**: $y_t = \tanh(u_t + W v_t)$ for every $t$ at once, a $(B, N, d)$ tensor in one go:
#    allowed because $y_t$ needs no other $y$;
# 2. **$N$ independent calls**: the same, one $t$ at a time;
# 3. **$N$ dependent steps**: the RNN's chain $h_t = \tanh(u_t + W h_{t-1})$, the same operators, but $v_t$
#    is now $h_{t-1}$, known only once step $t-1$ is done.
#
# The table counts, in each way's autograd graph (as above), the matrix products, the tanh calls and their
# longest chain: ways 2 and 3 make the same 100 calls of each, and only way 3 has them in one chain. Each way
# multiplies the same $BN$ vectors by $W$ once: $2BNd^2$ FLOPs (a multiply-add counts 2; the course's tests
# check this against PyTorch's FLOP counter, which the notebook leaves out because its first use takes
# seconds).

# %%
print(f"N = {nb.N_STEPS} steps of width d = {nb.WIDTH}")  # the settings of the three ways
nb.count_ways(batches=(1, 64))

# %% [markdown]
# Now the clock. The cell times the three ways at $B = 1$, $4$, $16$ and $64$ on one CPU thread, in turns
# (each round times one block of calls of each of the twelve combinations, three ways at four batch sizes;
# medians of 7 rounds), so a burst of load from other programs slows all of them alike. Timings depend on your CPU and on what else it is doing: nbval ignores the
# numbers, and the cell asserts three qualitative claims with margins that survive one of them running twice
# as slow.

# %%
# NBVAL_IGNORE_OUTPUT
# (timings depend on the machine)
ms = nb.time_ways(nb.BATCHES, repeats=7)  # {B: {way: ms}}, B = 1, 4, 16, 64
one, chain = nb.WAYS[0], nb.WAYS[2]
assert ms[1][chain] > 5 * ms[1][one], "100 chained steps should take far longer than one call"
assert ms[64][chain] < 16 * ms[1][chain], "64x the work per step should take far less than 64x the time"
assert ms[64][one] > 4 * ms[1][one], "one call's time should grow with its work"
nb.ways_table(ms)

# %% [markdown]
# What to read in the table (your numbers will differ from the committed run's, the pattern should not):
#
# * At $B = 1$ (one sequence, the article's case) the chain took tens of times as long as one call doing
#   the same FLOPs. The independent calls took about as long as the chain: on a CPU each small call pays a
#   fixed cost (Python, PyTorch's dispatch, a matmul too small to fill the vector units). The difference is
#   that way 2 *can* be rewritten as way 1, which is what the input projection does; way 3 cannot, because
#   step $t$ cannot start before step $t-1$ has produced $h_{t-1}$.
# * From $B = 1$ to $B = 64$ the chain does 64 times the FLOPs, and its time per step grew far less (the
#   cell asserts under 16 times; the table shows the factor on your machine), while one call's time grew
#   with its work. The chain's time is set mostly by its number of steps times the latency of one step,
#   far less by the work inside a step. Parallel hardware speeds up one call; it cannot run the 100 steps of
#   the chain side by side.
#
# On a GPU, one call spreads over thousands of threads while each step of the chain still waits for the one
# before; notebook 06 measures what that does to an RNN against attention. The figure shows $B = 1$.

# %%
nb.plot_sequential_cost(batch=1)

# %% [markdown]
# Now move the **batch size B**: the work of every way grows with $B$ (the title), the bar of one call grows
# with it, and the chain's bar moves far less, so the gap between them closes: batching is how an RNN gives
# parallel hardware something to do in each step, across sequences, never across time. The bars are the
# cell's timings above (in a fresh kernel, the batch sizes not yet timed are timed when the widget is built,
# and remembered).

# %%
nb.explore_sequential_cost()

# %% [markdown]
# ## Which chains have a shortcut
#
# A parallel method needs to summarise "steps $s+1$ to $t$" as one object of a fixed size, and to combine two
# such summaries into one (an *associative* combine). A **linear** recurrence has one. Take
# $h_t = a_t \odot h_{t-1} + u_t$ (element-wise): two steps, $(a_1, u_1)$ then $(a_2, u_2)$, are again one
# step, $(a_2 a_1,\ a_2 u_1 + u_2)$. Unrolled, $h_t = \sum_{s \le t} \big(\prod_{r=s+1}^{t} a_r\big) u_s$:
# a cumulative product and a cumulative sum. Both are *scans*, and a scan runs in $O(\log N)$ parallel depth
# (Blelloch 1990; Martin & Cundy 2018 used it to train linear RNNs in parallel over the sequence). Here is a
# loop-free version for a short sequence, matched against the loop:

# %%
a = torch.rand(N, d_h, generator=generator) * 0.5 + 0.5  # decay per step, in [0.5, 1)
u = torch.randn(N, d_h, generator=generator)
h, loop = torch.zeros(d_h), []
for t in range(N):  # the sequential way
    h = a[t] * h + u[t]
    loop.append(h)
A = torch.cumprod(a, dim=0)  # prod_{r<=t} a_r, a scan
scan = A * torch.cumsum(u / A, dim=0)  # no loop over t
print("loop-free linear recurrence equals the loop:", torch.allclose(torch.stack(loop), scan, atol=1e-5))

# %% [markdown]
# (This closed form divides by $\prod a_r$, which underflows on long sequences; real implementations use a
# numerically safe parallel scan. Notebook 08 builds one.)
#
# The recurrent models that train in parallel across time keep the recurrence linear in $h$ and put the
# nonlinearity between layers, and they break the chain in different ways:
#
# * **S4** (Gu, Goel & Ré 2022): the recurrence is linear *and the same at every step*, so the whole layer is
#   a convolution of the input with one long kernel; it trains as that convolution (with FFTs), not as a
#   scan, and generates step by step.
# * **Mamba** (Gu & Dao 2023): $a_t$ depends on the input (*selective*), so there is no single kernel; it
#   trains with a hardware-aware parallel scan that keeps the state in the GPU's on-chip memory.
# * **minGRU** (Feng et al. 2024, *"Were RNNs all we needed?"*): gates that depend on $x_t$ only make the
#   GRU linear in $h$; it trains with a parallel scan.
#
# ### The tanh chain: no exact shortcut, an iterative one
#
# Two tanh steps compose to $\tanh(W_{hh}\tanh(W_{hh} h + u_1) + u_2)$, which is not one step of the same
# form, so the pair trick has no tanh counterpart, and no other exact shortcut is known. That does not make
# parallel hardware useless across time. Lim et al. (2024, *"Parallelizing non-linear sequential models over
# the sequence length"*, DEER) solve for all states at once by **Newton's method**: guess every $h_t$,
# linearise every step around the guess (its Jacobian is $J_t = \mathrm{diag}(1 - f_t^2)\,W_{hh}$, with
# $f_t$ the step's output from the guessed $h_{t-1}$), solve that linear recurrence with a parallel scan (of
# $d_h \times d_h$ matrices now), and repeat. After $k$ iterations the first $k$ states are exact, so $N$
# iterations always give them all; the method pays off when far fewer do. `helpers.rnn.rnn_newton` is that
# method from scratch. Its scan is a Hillis-Steele scan (Hillis & Steele 1986): each of its
# $\lceil\log_2 N\rceil$ levels composes every position with one before it, about $N\log_2 N$ compositions
# in all. A work-efficient scan (Blelloch 1990) needs at most $2(N-1)$, in up to twice as many levels;
# `rnn_newton_flops(..., scan="work-efficient")` counts its work at the same cost per composition, without
# running it. The cell runs Newton on the 100 tokens above (in float64, so that it can converge far below
# float32 rounding) and checks it against `nn.RNN` (the difference must stay below $10^{-12}$). Then it
# prints the work of one iteration at wider $d_h$, with each scan, and counts iterations and work as
# $W_{hh}$ grows (scaled by $s$).

# %%
rnn64, x64 = rnn.double(), x_100.double()  # the same RNN and tokens, in float64
W_xh64, W_hh64, b64 = rnn_weights(rnn64)
U64 = x64 @ W_xh64.T + b64  # (1, 100, d_h): the parallel part
H_newton, changes = rnn_newton(U64, W_hh64)  # no loop over t
diff = helpers.within_rounding(H_newton - rnn64(x64)[0], bound=1e-12)  # float64 rounding, not float32's
print(f"Newton: {len(changes)} iterations; max |difference| from nn.RNN's 100 steps {diff}")
widths = (4, 64, 512)  # d_h; the loop over 100 steps does 2 * 100 * d_h^2 matmul FLOPs
for scan in ("hillis-steele", "work-efficient"):  # ours, and one counted only
    ratios = ", ".join(
        f"d_h = {w}: {rnn_newton_flops(1, 100, w, 1, scan=scan) / (2 * 100 * w**2):.0f}x" for w in widths
    )
    print(f"one Newton iteration's matmul FLOPs over the whole loop's, {scan} scan: {ratios}")
nb.newton_table(U64, W_hh64, scales=(1, 2, 3))

# %% [markdown]
# These are counts, the same on every machine (the last iteration is the one that finds nothing left to
# change; FLOPs are relative to the loop's). With the weights PyTorch initialised (spectral radius 0.53),
# Newton needed 5 iterations: with our Hillis-Steele scan, 35 levels of scans instead of 100 steps, for
# about 150 times the loop's matmul FLOPs; a work-efficient scan would need about 60 times, in up to 70
# levels. As $W_{hh}$ grows, so do the iterations: at spectral radius 1.59 it needed 13, that is 91 levels,
# nearly the loop's 100 steps, for about 400 times the FLOPs, or about 155 times in up to 182 levels with a
# work-efficient scan, which may then be deeper than the loop. The tanh chain *can* use parallel hardware
# across time, iteratively and at extra work, and how much it gains depends on the RNN's dynamics and on the
# scan (Gonzalez, Warrington, Smith & Linderman 2024 make the method cheaper and more stable).
#
# And this RNN is tiny, $d_h = 4$. Each level of the scan composes $d_h \times d_h$ matrices ($2d_h^3$
# FLOPs per product) where the loop multiplies a vector by $W_{hh}$ ($2d_h^2$ per step), so the price
# grows roughly in proportion to $d_h$: one iteration alone costs 31 times the whole loop at $d_h = 4$,
# 374 times at $d_h = 64$ and 2941 times at $d_h = 512$ with our scan, 12, 131 and 1018 times with a
# work-efficient one (the lines above the table).
#
# ## Verdict
#
# **C1 is right about the tanh RNN the article writes down (no exact shortcut is known, and its measured
# cost follows its steps far more than its work), and too strong as a statement about recurrence.**
#
# * True: with the $\tanh$ recurrence, $h_t$ needs $h_{t-1}$; $h_{100}$ is the end of a chain of 100 tanh
#   steps (99 earlier states, then its own), counted in `nn.RNN`'s graph. Measured, the chain took far
#   longer than the same FLOPs in one call, and 64 times the work per step changed its time far less than
#   64 times: its time follows its number of separate calls far more than its work, and, unlike $N$
#   independent calls, a chain cannot be merged into one call.
# * But not everything is sequential: the input projection (and any per-token output layer) is one
#   matmul for all $t$ (`nn.RNN` computes it so), and each step's matrix product is parallel over batch and
#   hidden units.
# * "Cannot be parallelised" is too strong. A *linear* recurrence has an exact shortcut, a parallel scan of
#   $O(\log N)$ depth; recurrent models built on linear recurrences (S4 trained as a convolution, Mamba and
#   minGRU with scans) are why recurrence came back (notebook 08). The tanh recurrence has no known exact
#   shortcut, but Newton's method computes it in parallel iteratively, at extra work that grows with
#   $W_{hh}$ (Lim et al. 2024): here ($d_h = 4$) 5 iterations and about 60 to 150 times the loop's matmul
#   FLOPs (a work-efficient scan, or our Hillis-Steele one), or 13 and about 155 to 400 times, and the price
#   grows roughly in proportion to $d_h$.
#
# ## Summary
#
# * $h_t = \tanh(W_{hh}h_{t-1} + W_{xh}x_t + b)$ is exactly `nn.RNNCell` (with $b$ = `bias_ih + bias_hh`),
#   and looping it is exactly `nn.RNN`.
# * Unrolled, the RNN is a chain of depth $N$: $h_t$ waits for the $t-1$ states before it, so $h_{100}$ is
#   100 dependent steps from $h_0$.
# * $W_{xh}x_t + b$ for all $t$ is one matmul; only $\tanh(u_t + W_{hh}h_{t-1})$ is sequential.
# * Measured: the same FLOPs take far longer as a chain than as one call, and 64 times the work per step
#   changes the chain's time far less: its cost is mostly its number of steps.
# * A linear recurrence has an exact parallel shortcut (a scan); no exact shortcut is known for the tanh
#   recurrence, only iterative parallel methods (Newton's, DEER) at extra work: about 60 to 400 times the
#   loop's matmul FLOPs here ($d_h = 4$), depending on $W_{hh}$ and on the scan, growing with $d_h$.
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
# $t$ at once: `x` is $(B, N, d_{in})$, the result $(B, N, d_h)$. No loop over $t$: the check runs your
# function on two sequence lengths and refuses it if it runs more operations on the longer one.


# %%
def my_input_projection(x, W_xh, b):
    raise NotImplementedError


helpers.check("input_projection", my_input_projection)

# %% [markdown]
# **3. Count.** Starting from $h_0$ (given), how many $\tanh$ steps must run one after another before
# $h_{100}$ is known, computed step by step as the recurrence is written (exactly, without iterative
# solvers), however many processors you have? Count $h_{100}$'s own step. Replace `None` with a number.

# %%
answer = None
helpers.check("dependent_steps", answer)

# %% [markdown]
# Stuck? `helpers.solution("rnn_step")` prints a reference answer (the same works for the others).
#
# Next: [02 · BPTT and the gradient product](02_bptt_gradients.ipynb).
