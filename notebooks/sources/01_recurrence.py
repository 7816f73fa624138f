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
# **The question:** why must an RNN compute its states one after another, and how much of its work
# could run in parallel all the same?
#
# **You will learn**
# * to build a vanilla RNN from its equation and check it against `torch.nn.RNNCell` and `torch.nn.RNN`;
# * why $h_t$ waits for every state before it, drawn as a chain and counted in PyTorch's own graph;
# * which part of an RNN is parallel across time, and what the chain costs, measured on your machine;
# * which recurrences have an exact parallel shortcut: the linear ones, with a *scan* (a running product
#   or sum, computed in parallel).
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
# **An RNN reads one token at a time and updates a hidden state with the same formula at every step.**
# A vanilla (Elman) RNN keeps a state $h_t \in \mathbb{R}^{d_h}$:
#
# $$h_t = \tanh(W_{hh} h_{t-1} + W_{xh} x_t + b), \qquad h_0 = 0.$$
#
# $W_{xh}$ is $(d_h \times d_{in})$ and $W_{hh}$ is $(d_h \times d_h)$. In code the batch comes first,
# one row per example, so the formula reads `h_t = tanh(x_t @ W_xh.T + h_prev @ W_hh.T + b)`. That line
# is `helpers.rnn_step`; you will write it yourself in the exercises.

# %% [markdown]
# PyTorch's `nn.RNNCell` stores $W_{xh}$ as `weight_ih` and $W_{hh}$ as `weight_hh`. It splits $b$ into
# two biases that always appear as a sum, `bias_ih + bias_hh`.

# %%
d_in, d_h, B, N = 3, 4, 2, 5  # N: the sequence length
cell = torch.nn.RNNCell(d_in, d_h)
W_xh, W_hh, b = rnn_weights(cell)  # b = bias_ih + bias_hh
x = torch.randn(B, N, d_in, generator=generator)
h0 = torch.zeros(B, d_h)
print("W_xh", tuple(W_xh.shape), " W_hh", tuple(W_hh.shape), " b", tuple(b.shape), " x", tuple(x.shape))

# %% [markdown]
# One step of ours against one step of `nn.RNNCell`. The last digits of float32 rounding depend on your
# CPU, so the cell prints a bound that every CPU meets, `helpers.within_rounding`:

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
# Both agree to within float32 rounding, below $10^{-6}$: our equation *is* PyTorch's RNN.

# %% [markdown]
# ## The unrolled chain
#
# **$h_t$ cannot start before $h_{t-1}$ is done, so the states form a chain.** Write the recurrence out
# step by step: $h_1$ needs $h_0$, $h_2$ needs $h_1$, and so on. The **depth** of a computation is its
# longest chain of operations that must run one after another. No number of processors can finish it
# faster than that. The figure leaves out the bias $b$.

# %%
nb.plot_unrolled_chain(N=6)

# %% [markdown]
# The article's example in numbers: the 100th state. The cell runs PyTorch's own `nn.RNN` on the first $t$
# of 100 tokens. In the autograd graph behind $h_t$ it counts the tanh calls, the longest chain of them
# (`nb.count_chain`), and the matrix products.

# %%
rnn = torch.nn.RNN(d_in, d_h, batch_first=True)  # PyTorch's RNN, its own weights
x_100 = torch.randn(1, 100, d_in, generator=generator)  # (1, 100, d_in): 100 tokens
for t in (1, 2, 99, 100):
    tanhs, chain, matmuls = nb.count_chain(rnn(x_100[:, :t])[1])  # the graph behind h_t
    print(f"h_{t:<3}: {tanhs:3d} tanh calls, all in one chain of {chain:3d}; {matmuls:3d} matmuls")

# %% [markdown]
# Every tanh call behind $h_t$ lies on one chain: none could have run beside another. $h_{99}$ ends a
# chain of 99, the article's "first 99 states", and $h_{100}$ adds its own step. There is one matmul more
# than there are steps: `nn.RNN` computes the input projection of every $t$ in one product.

# %% [markdown]
# ## What *is* parallel: the input projection
#
# **The part of a step that does not involve $h$ can be computed for every $t$ at once.** In the
# figure's blue row, $u_t = W_{xh} x_t + b$ needs no state. One matrix product over the whole
# $(B, N, d_{in})$ tensor gives every $u_t$ before the loop starts. Only the orange chain,
# $h_t = \tanh(u_t + W_{hh} h_{t-1})$, is sequential. `helpers.rnn_forward` is written this way.

# %%
U_all = x @ W_xh.T + b  # (B, N, d_h): one matmul, all t
U_steps = torch.stack([x[:, t] @ W_xh.T + b for t in range(N)], dim=1)  # one t at a time
print("shape:", tuple(U_all.shape), "| equal to the per-step projections:", torch.allclose(U_all, U_steps))

# %% [markdown]
# Two more things are parallel, and the article does not mention them:
#
# * **within** a step, $h_{t-1} W_{hh}^\top$ is one matrix product over the whole batch and all $d_h$
#   hidden units;
# * a layer on top, such as a classifier on every $h_t$, is again one product over all $t$.
#
# What cannot be spread out is *time*: $N$ steps, each waiting for the one before.

# %% [markdown]
# ## Measured: the chain against the same work in one call
#
# **The same work takes far longer as a chain of 100 steps than as one call.** We take $N = 100$ tanh
# steps of width $d = 32$ and compute them two ways:
#
# 1. **one call**: $y_t = \tanh(u_t + W v_t)$ for every $t$ at once, on a $(B, N, d)$ tensor, where
#    $u_t$ and $v_t$ are random vectors given in advance. This is allowed because no $y_t$ needs another;
# 2. **the chain**: $h_t = \tanh(u_t + W h_{t-1})$. The same operators, but $v_t$ is now $h_{t-1}$,
#    known only once step $t-1$ is done.
#
# Both multiply the same $BN$ vectors by $W$ once: the same FLOPs, $2BNd^2$. Their graphs, counted:

# %%
print(f"N = {nb.N_STEPS} steps of width d = {nb.WIDTH}")  # the settings of both ways
nb.count_ways(batches=(1, 64), ways=nb.CORE_WAYS)

# %% [markdown]
# Now the clock, at batch sizes $B$ from 1 to 64, on one CPU thread. A third way joins them: **100
# independent calls**, the one call cut into one call per $t$, none waiting for another. $B = 1$ is one sentence, the
# article's 100th-word example; the article's timing snippet, which notebook 06 runs, uses $B = 32$.
# The cell times every way in turns, 7 rounds, and keeps the time of the faster rounds, so a burst of
# load from other programs slows all of them alike and counts little.
# Timings depend on your CPU and on what else it runs: nbval ignores them, and the cell asserts the
# pattern with margins that survive one of them running twice as slow.

# %%
# NBVAL_IGNORE_OUTPUT
# (timings depend on the machine)
ms = nb.time_ways(nb.BATCHES, repeats=7)  # {B: {way: ms}}, B = 1, 4, 32, 64
one, apart, chain = nb.WAYS  # one call, 100 independent calls, the 100-step chain
assert ms[1][chain] > 5 * ms[1][one], "100 chained steps should take far longer than one call"
assert ms[1][apart] > 5 * ms[1][one], "100 separate calls should take far longer than one call"
assert ms[64][apart] > ms[64][chain] / 4, "100 separate calls should cost a good share of the chain's time"
assert ms[64][chain] < 16 * ms[1][chain], "64x the work per step should take far less than 64x the time"
assert ms[64][one] > 4 * ms[1][one], "one call's time should grow with its work"
print(
    f"B = 64 against B = 1, 64 times the work: one call took {ms[64][one] / ms[1][one]:.0f}x as long, "
    f"the chain {ms[64][chain] / ms[1][chain]:.1f}x"
)
nb.ways_table(ms)

# %% [markdown]
# Your numbers will differ from the committed run's; the pattern should not:
#
# * At $B = 1$ the chain took many times as long as one call doing the same FLOPs: tens of times in the
#   committed run, and the last column gives your machine's factor.
# * From $B = 1$ to $B = 64$ the work grows 64 times. One call's time grew many times over (the line
#   above the table; neighbouring rows can cross, as timings do). The chain's time grew far less: it is
#   set by its number of steps times the latency of one step, not by the work inside a step.
# * The 100 independent calls, which wait for nothing, also took many times one call: about as long as
#   the chain, or a large share of its time (the last column). On a CPU much of the chain's time is the fixed
#   cost of 100 small calls, not the waiting. What the dependency costs is that the chain *cannot* be
#   merged into one call, while independent calls can: that is what the input projection does.
#
# Parallel hardware speeds up one call; it cannot run the 100 steps of the chain side by side.

# %% [markdown]
# The figure shows $B = 1$:

# %%
nb.plot_sequential_cost(batch=1)

# %% [markdown]
# Move the **batch size B**. The work of both bars grows with $B$ (the title), one call's bar grows with
# it, and the chain's bar moves far less, so the gap closes. Batching gives each step more to do, across
# sequences, never across time. The bars are the timings above.

# %%
nb.explore_sequential_cost()

# %% [markdown]
# ## Which chains have a shortcut
#
# **A linear recurrence can be computed without a loop over time.** A parallel method needs to summarise
# "steps $s+1$ to $t$" as one object of a fixed size, and to combine two summaries into one. Take
# $h_t = a_t \odot h_{t-1} + u_t$, element-wise. Two steps, $(a_1, u_1)$ then $(a_2, u_2)$, make one
# step of the same form: $(a_2 a_1,\ a_2 u_1 + u_2)$.

# %% [markdown]
# Unrolled, $h_t = \sum_{s \le t} \big(\prod_{r=s+1}^{t} a_r\big) u_s$: a cumulative product and a
# cumulative sum. Both are *scans*, and a scan runs in $O(\log N)$ parallel depth (Blelloch 1990). A
# loop-free version for a short sequence, against the loop:

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
# This closed form divides by $\prod a_r$, which underflows to zero on long sequences, and the division
# then overflows; notebook 08 builds a safe
# parallel scan. The recurrent models that train in parallel across time, such as S4, Mamba and minGRU,
# keep their recurrence linear in $h$.
#
# **For the tanh recurrence no exact shortcut is known.** Two tanh steps compose to
# $\tanh(W_{hh}\tanh(W_{hh} h + u_1) + u_2)$, which is not one step of the same form. Newton's method can
# still solve for all states at once, iteratively and at many times the work (see *Going further*).

# %% [markdown]
# ## Verdict
#
# **C1 is right about the tanh RNN the article writes down, and too strong as a statement about
# recurrence.**
#
# * True: $h_{100}$ ends a chain of 100 tanh steps, counted in `nn.RNN`'s graph, and the chain took far
#   longer than the same FLOPs in one call. On a CPU much of that is the cost of 100 small calls, which
#   independent steps could merge into one and the chain cannot.
# * But not everything waits: the input projection is one matmul for all $t$, and each step is parallel
#   over the batch and the hidden units.
# * And a *linear* recurrence has an exact parallel shortcut, a scan of $O(\log N)$ depth: the idea behind
#   the recurrent models that came back (notebook 08). For the tanh recurrence none is known, only
#   iterative solvers at many times the work.

# %% [markdown]
# ## Takeaways
#
# * An RNN's state $h_t$ waits for $h_{t-1}$, so $N$ tokens take $N$ steps one after another, whatever
#   the hardware.
# * The work that does not involve the state, such as the input projection, is one matrix product for
#   all tokens.
# * A linear recurrence can skip the loop with a parallel scan; for the tanh RNN no such exact shortcut is
#   known.

# %% [markdown]
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
# **3. Two layers.** A stacked RNN has two layers. Layer 1 is the RNN above, reading $x_t$. Layer 2 is
# another RNN that reads layer 1's state at the same step, $h^{(1)}_t$, in place of $x_t$. Both start from
# $h_0 = 0$. How many tanh steps must run one after another before layer 2's state at $t = 100$ is known?
# Replace `None` with a number.

# %%
answer = None
helpers.check("stacked_depth", answer)

# %% [markdown]
# **4. Predict, then move the widget.** In a stacked RNN of 3 layers over 8 steps, at most how many states
# could be computed at the same time? Predict it first. Then set the widget to 3 layers and 8 time steps:
# each state is labelled with the longest chain of tanh steps behind it.

# %%
nb.explore_stacked_chain()

# %%
answer = None
helpers.check("wavefront_width", answer)

# %% [markdown]
# Stuck? A wrong answer prints a hint; `helpers.solution("rnn_step")` prints a reference answer (the same
# works for the others).

# %% [markdown]
# ## Going further
#
# The measurements and details the core path left out, each with what it adds.

# %% [markdown]
# ### The three ways, counted
#
# *What it adds: the graphs and FLOPs of the 100 independent calls, and what changes on a GPU.*
#
# The independent calls $y_t = \tanh(u_t + W v_t)$, one $t$ at a time, make as many calls as the chain,
# but none of them waits for another. Each way multiplies the same $BN$ vectors by $W$ once, $2BNd^2$
# FLOPs, a multiply-add counting 2. The course's tests check this against PyTorch's FLOP counter, left
# out here because its first use takes seconds.

# %%
nb.count_ways(batches=(1, 64))

# %% [markdown]
# The independent calls' tanh calls form no chain longer than 1. Their cost on a CPU is each small call's
# fixed price: Python, PyTorch's dispatch, a matmul too small to fill the vector units.
#
# On a GPU one call spreads over thousands of threads while each step of the chain still waits for the
# one before; notebook 06 measures what that does to an RNN against attention.

# %% [markdown]
# ### Recurrent models that train in parallel
#
# *What it adds: how S4, Mamba and minGRU use the linear shortcut.*
#
# Martin & Cundy (2018) used a parallel scan to train linear RNNs over the sequence. The recurrent
# models that train in parallel across time keep the recurrence linear in $h$, put the nonlinearity
# between layers, and break the chain in different ways:
#
# * **S4** (Gu, Goel & Ré 2022): the recurrence is linear *and the same at every step*, so the whole layer
#   is a convolution of the input with one long kernel. It trains as that convolution, with FFTs, not as a
#   scan, and generates step by step.
# * **Mamba** (Gu & Dao 2023): $a_t$ depends on the input (*selective*), so there is no single kernel. It
#   trains with a hardware-aware parallel scan that keeps the state in the GPU's on-chip memory.
# * **minGRU** (Feng et al. 2024, *"Were RNNs all we needed?"*): gates that depend on $x_t$ only make the
#   GRU linear in $h$; it trains with a parallel scan.

# %% [markdown]
# ### The tanh chain in parallel: Newton's method
#
# *What it adds: the tanh chain can use parallel hardware across time, iteratively, and how many
# iterations it takes.*
#
# Lim et al. (2024, *"Parallelizing non-linear sequential models over the sequence length"*, DEER) solve
# for all states at once by **Newton's method**. Guess every $h_t$. Linearise every step around the guess:
# its Jacobian is $J_t = \mathrm{diag}(1 - f_t^2)\,W_{hh}$, with $f_t$ the step's output from the guessed
# $h_{t-1}$. Solve that linear recurrence with a parallel scan, of $d_h \times d_h$ matrices now, and
# repeat.

# %% [markdown]
# After $k$ iterations the first $k$ states are exact, so $N$ iterations always give them all; the method
# pays off when far fewer do. `helpers.rnn.rnn_newton` is that method from scratch. The cell runs it on
# the 100 tokens above, in float64 so that it can converge far below float32 rounding, and checks it
# against `nn.RNN`: the difference must stay below $10^{-12}$.

# %%
rnn64, x64 = rnn.double(), x_100.double()  # the same RNN and tokens, in float64
W_xh64, W_hh64, b64 = rnn_weights(rnn64)
U64 = x64 @ W_xh64.T + b64  # (1, 100, d_h): the parallel part
H_newton, changes = rnn_newton(U64, W_hh64)  # no loop over t
diff = helpers.within_rounding(H_newton - rnn64(x64)[0], bound=1e-12)  # float64 rounding, not float32's
print(f"Newton: {len(changes)} iterations; max |difference| from nn.RNN's 100 steps {diff}")

# %% [markdown]
# ### What an iteration costs: two scans
#
# *What it adds: the work Newton's method pays for its depth, with two kinds of scan, and how it grows
# with $W_{hh}$ and $d_h$.*
#
# `rnn_newton` uses a Hillis-Steele scan (Hillis & Steele 1986): each of its $\lceil\log_2 N\rceil$
# levels composes every position with one before it, about $N\log_2 N$ compositions in all. A
# work-efficient scan (Blelloch 1990) needs at most $2(N-1)$, in up to twice as many levels;
# `rnn_newton_flops(..., scan="work-efficient")` counts its work at the same cost per composition, without
# running it. The cell prints the work of one iteration at wider $d_h$, then counts iterations and work
# as $W_{hh}$ grows, scaled by $s$.

# %%
widths = (4, 64, 512)  # d_h; the loop over 100 steps does 2 * 100 * d_h^2 matmul FLOPs
for scan in ("hillis-steele", "work-efficient"):  # ours, and one counted only
    ratios = ", ".join(
        f"d_h = {w}: {rnn_newton_flops(1, 100, w, 1, scan=scan) / (2 * 100 * w**2):.0f}x" for w in widths
    )
    print(f"one Newton iteration's matmul FLOPs over the whole loop's, {scan} scan: {ratios}")
nb.newton_table(U64, W_hh64, scales=(1, 2, 3))

# %% [markdown]
# These are counts, the same on every machine. The last iteration is the one that finds nothing left to
# change, and FLOPs are relative to the loop's. With the weights PyTorch initialised, spectral radius
# 0.53, Newton needed 5 iterations. With our Hillis-Steele scan that is 35 levels of scans instead of 100
# steps, for about 150 times the loop's matmul FLOPs; a work-efficient scan would need about 60 times, in
# up to 70 levels.

# %% [markdown]
# As $W_{hh}$ grows, so do the iterations. At spectral radius 1.59 Newton needed 13, that is 91 levels,
# nearly the loop's 100 steps, for about 400 times the FLOPs. A work-efficient scan needs about 155 times,
# in up to 182 levels, which may then be deeper than the loop. How much Newton gains depends on the RNN's
# dynamics and on the scan (Gonzalez, Warrington, Smith & Linderman 2024 make the method cheaper and more
# stable).
#
# And this RNN is tiny, $d_h = 4$. Each level of the scan composes $d_h \times d_h$ matrices, $2d_h^3$
# FLOPs per product, where the loop multiplies a vector by $W_{hh}$, $2d_h^2$ per step. So the price
# grows roughly in proportion to $d_h$: one iteration alone costs 31 times the whole loop at $d_h = 4$,
# 374 times at $d_h = 64$ and 2941 times at $d_h = 512$ with our scan; 12, 131 and 1018 times with a
# work-efficient one.

# %% [markdown]
# ## Further reading
#
# * Elman, J. L. (1990). Finding structure in time. *Cognitive Science*, 14(2), 179-211. (The vanilla RNN.)
# * Hillis, W. D. & Steele, G. L. (1986). Data parallel algorithms. *Communications of the ACM*, 29(12),
#   1170-1183.
# * Blelloch, G. E. (1990). Prefix sums and their applications. Technical report CMU-CS-90-190, Carnegie
#   Mellon University.
# * Martin, E. & Cundy, C. (2018). Parallelizing linear recurrent neural nets over sequence length. *ICLR*.
#   arXiv:1709.04057.
# * Gu, A., Goel, K. & Ré, C. (2022). Efficiently modeling long sequences with structured state spaces.
#   *ICLR*. arXiv:2111.00396.
# * Gu, A. & Dao, T. (2023). Mamba: linear-time sequence modeling with selective state spaces. arXiv:2312.00752.
# * Feng, L., Tung, F., Ahmed, M. O., Bengio, Y. & Hajimirsadeghi, H. (2024). Were RNNs all we needed?
#   arXiv:2410.01201.
# * Lim, Y. H., Zhu, Q., Selfridge, J. & Kasim, M. F. (2024). Parallelizing non-linear sequential models over the
#   sequence length. *ICLR*. arXiv:2309.12252.
# * Gonzalez, X., Warrington, A., Smith, J. T. H. & Linderman, S. W. (2024). Towards scalable and stable
#   parallelization of nonlinear RNNs. *NeurIPS*. arXiv:2407.19115.
#
# Next: [02 · BPTT and the gradient product](02_bptt_gradients.ipynb).
