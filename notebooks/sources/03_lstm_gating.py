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
# # 03 · LSTM gating: how far does the cell state carry a gradient?
#
# 🌐 **English** · [Italiano](it/03_lstm_gating.ipynb) · [Русский](ru/03_lstm_gating.ipynb) · [فارسی](fa/03_lstm_gating.ipynb) · [Español](es/03_lstm_gating.ipynb)
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/03_lstm_gating.ipynb)
#
# **The question:** the LSTM adds gates and a cell state to the RNN. How far back does that carry a gradient,
# and what does it not fix?
#
# **You will learn**
# * to build an LSTM cell from its equations and check it against `torch.nn.LSTMCell`;
# * why the cell state is a gradient highway: $\partial c_T/\partial c_0 = \prod_t \operatorname{diag}(f_t)$, with no weight matrix;
# * how much gradient crosses a sequence in an LSTM and in a vanilla RNN, and why the forget bias decides;
# * the second failure, which no gate fixes: a state of fixed size.
#
# **The article's claim (C3)**, translated from the article:
#
# > *"LSTMs introduced the cell state and gating mechanisms (forget gate, input gate, output gate) to let
# > gradients flow linearly, mitigating the vanishing-gradient problem. However, even LSTMs struggle with
# > sequences longer than a few hundred tokens. The hidden vectors are forced to compress the history of all
# > previous tokens into a fixed-size representation, leading to a 'forgetting' effect."*
#
# Here $T$ is the sequence length: $h_T$ is the last hidden state, $x_1$ the first input.

# %% tags=["setup"]
# Setup: on Colab, install the course helpers; anywhere else this cell does nothing.
import subprocess
import sys

if "google.colab" in sys.modules:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "git+https://github.com/why-transformers/why-transformers"], check=True)

# %%
import math
import statistics

import torch
from torch.testing import assert_close

import helpers
from helpers import jacobians
from helpers.lstm import (
    cell_path,
    input_gradient_norms,
    lstm_sequence,
    lstm_weights,
    set_forget_bias,
    weights64,
)
from helpers.notebooks import nb03_lstm_gating as nb

helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(3)

# %% [markdown]
# ## The LSTM cell, from its equations
#
# **An LSTM cell is six lines: three gates, a candidate, and two states.** The LSTM (Hochreiter & Schmidhuber
# 1997; the forget gate came with Gers, Schmidhuber & Cummins 2000) keeps a hidden state $h_t$ and a **cell
# state** $c_t$, its memory. Each step computes four vectors of size $d_h$, with $\sigma$ the logistic sigmoid:
#
# $$
# \begin{aligned}
# i_t &= \sigma(W_{xi} x_t + W_{hi} h_{t-1} + b_i) && \text{input gate: how much new content to write}\\
# f_t &= \sigma(W_{xf} x_t + W_{hf} h_{t-1} + b_f) && \text{forget gate: how much of } c_{t-1} \text{ to keep}\\
# g_t &= \tanh(W_{xg} x_t + W_{hg} h_{t-1} + b_g) && \text{candidate content}\\
# o_t &= \sigma(W_{xo} x_t + W_{ho} h_{t-1} + b_o) && \text{output gate: how much of the cell to show}\\
# c_t &= f_t \odot c_{t-1} + i_t \odot g_t \\
# h_t &= o_t \odot \tanh(c_t)
# \end{aligned}
# $$
#
# The gates $i, f, o$ lie between 0 and 1. They are soft switches, multiplied element by element ($\odot$).
# PyTorch stacks the four weight matrices in the order **i, f, g, o**, so the forget gate's rows and bias are
# the slice `[d_h:2*d_h]`. PyTorch keeps two bias vectors, `bias_ih` and `bias_hh`; they always appear as a
# sum, $b$.

# %%
d_in, d_h, B = 3, 4, 2
cell = torch.nn.LSTMCell(d_in, d_h)
W_ih, W_hh, b = lstm_weights(cell)  # b = bias_ih + bias_hh
print("W_ih", tuple(W_ih.shape), " W_hh", tuple(W_hh.shape), " b", tuple(b.shape))
print("forget-gate bias b[d_h:2*d_h] =", b[d_h : 2 * d_h].detach().numpy().round(3))

# %% [markdown]
# One step of `helpers.lstm_step`, these six lines, against one step of `nn.LSTMCell`. The differences are
# float32 rounding, so the cell prints a bound that every CPU meets.

# %%
x_t, h_prev, c_prev = (torch.randn(B, n, generator=generator) for n in (d_in, d_h, d_h))
h_t, c_t, gates = helpers.lstm_step(x_t, h_prev, c_prev, W_ih, W_hh, b)
h_ref, c_ref = cell(x_t, (h_prev, c_prev))
assert_close(h_t, h_ref)
assert_close(c_t, c_ref)
print(f"h_t vs nn.LSTMCell: max |difference| {helpers.within_rounding(h_t - h_ref)}")
print(f"c_t vs nn.LSTMCell: max |difference| {helpers.within_rounding(c_t - c_ref)}")

# %% [markdown]
# Both match: our six lines *are* PyTorch's LSTM.

# %% [markdown]
# ## The gates over a sequence
#
# **At PyTorch's default initialisation the forget gate is half closed.** From here on we use one LSTM with
# $d_{in} = d_h = 64$, PyTorch's default initialisation and seed 3, fed random inputs
# $x_t \sim \mathcal{N}(0, I)$. The figure shows its gates over 60 steps with the forget bias $b_f = 0$: the
# mean over the 64 units, and a band holding the forget gate of 80 % of the units.

# %%
nb.plot_gates(forget_bias=0.0, T=60)

# %% [markdown]
# Every gate's mean stays near 0.5. PyTorch draws every weight and both biases uniformly in
# $\pm 1/\sqrt{d_h}$, so each gate's input is small and centred on 0, and $\sigma(0) = 0.5$. The cell below
# measures the forget gate of PyTorch's own draw, its biases left as drawn.

# %%
lstm = nb.make_lstm()  # PyTorch's defaults: forget bias not set
_, _, g_default = lstm_sequence(nb.random_inputs(60), *weights64(lstm))
b_f = (lstm.bias_ih + lstm.bias_hh)[nb.D : 2 * nb.D]
print(
    f"default forget bias b_f: from {b_f.min():.2f} to {b_f.max():.2f} (bound 2/sqrt(d_h) = {2 / math.sqrt(nb.D):.2f})"
)
z_f = torch.logit(g_default.f)  # the forget gate's pre-activations, (60, 64)
print(f"forget-gate pre-activation over 60 steps x 64 units: mean {z_f.mean():.2f}, std {z_f.std():.2f}")
f10, f90 = (g_default.f.quantile(p).item() for p in (0.1, 0.9))
print(f"forget gate f: mean {g_default.f.mean():.2f}, 10th to 90th percentile {f10:.2f} to {f90:.2f}")
f_geo = g_default.f.log().mean().exp()  # what a product of f's sees: the geometric mean
print(f"geometric mean of f: {f_geo:.2f}; what is left of the cell after 10 such steps: {f_geo**10:.1e}")

# %% [markdown]
# Half closed is a poor memory: after 10 steps less than a thousandth of the cell is left. Gers et al. (2000)
# already suggested a positive forget bias. Jozefowicz, Zaremba & Sutskever (2015) found that **a forget bias
# of 1** closes most of the LSTM's gap to the GRU. Keras adds 1 by default; PyTorch does not. Move the
# **forget bias** slider: $f_t$ follows $\sigma(b_f)$.

# %%
nb.explore_gates()

# %% [markdown]
# ## The cell path: $\partial c_T / \partial c_0 = \prod_t \operatorname{diag}(f_t)$
#
# **Along the cell state, each step multiplies the gradient by the forget gate and by nothing else.**
# Differentiate $c_t = f_t \odot c_{t-1} + i_t \odot g_t$ with respect to $c_{t-1}$, keeping the gates fixed:
#
# $$\frac{\partial c_t}{\partial c_{t-1}}\bigg|_{\text{cell path}} = \operatorname{diag}(f_t)
# \qquad\Longrightarrow\qquad
# \frac{\partial c_T}{\partial c_0}\bigg|_{\text{cell path}} = \operatorname{diag}\Big(\prod_{t=1}^{T} f_t\Big).$$
#
# A vanilla RNN multiplies by $\operatorname{diag}(1 - h_t^2)\, W_{hh}$ at every step (notebook
# [02](02_bptt_gradients.ipynb)). The cell path has **no weight matrix** and **no squashing derivative**, only
# the forget gate. With $f_t = 1$ the gradient passes unchanged: Hochreiter & Schmidhuber's *constant error
# carousel*.
#
# **Check it against autograd.** The formula is exact when the gates do not depend on $c_0$, as when
# $W_{hh} = 0$. Then autograd through `nn.LSTMCell` must give $\operatorname{diag}(\prod_t f_t)$.

# %%
lstm1 = nb.make_lstm(forget_bias=1.0).double()  # PyTorch's cell, float64
no_loop = nb.make_lstm(forget_bias=1.0).double()
with torch.no_grad():
    no_loop.weight_hh.zero_()  # W_hh = 0: the gates depend on x only
x = nb.random_inputs(50)
c0 = torch.zeros(nb.D, dtype=torch.float64)
last_c = lambda c: nb.last_cell_state(no_loop, x, c)  # c_50 of nn.LSTMCell, as a function of c_0
J = torch.autograd.functional.jacobian(last_c, c0)  # dc_50/dc_0, (64, 64)
_, _, g50 = lstm_sequence(x, *weights64(no_loop))  # our gates, from the same weights
f_path = cell_path(g50.f)  # (64,), entries from about 1e-9 to 1e-6: compare relatively
assert_close(J, torch.diag(f_path), rtol=1e-9, atol=0)  # off the diagonal: exactly 0
gap = helpers.within_rounding((J.diagonal() - f_path) / f_path, bound=1e-9)
print(f"autograd dc_50/dc_0 through nn.LSTMCell vs diag(prod_t f_t): max relative difference {gap}")

# %% [markdown]
# They agree. With the real $W_{hh}$ there are more paths, through $h$ and the gates; Going further follows them.

# %% [markdown]
# ## Gradient flow: LSTM against the vanilla RNN
#
# **An LSTM beats a well-started RNN only when its forget gate starts open.** One yardstick serves every model:
# $\|\partial h_T/\partial x_1\|_F$, how much of a loss on the last state reaches the first input, at
# initialisation. $\|\cdot\|_F$ is the root of the sum of the squared entries. All models have $d = 64$ and
# the same inputs:
#
# * **RNN**: `nn.RNNCell(64, 64)` at PyTorch's default initialisation;
# * **orthogonal RNN**: the same with an orthogonal $W_{hh}$, which neither stretches nor shrinks a vector
#   (Saxe et al. 2014): the strong baseline;
# * **LSTM** with forget bias 0 (close to PyTorch's default), 1 and 3.
#
# Each dotted line is an LSTM's forget gates alone, $\max_j \prod_{t=2}^{T} f_t[j]$ for its most open unit $j$:
# a guide to its cell path.

# %%
x500 = nb.random_inputs(nb.T_MAX)  # the inputs of every curve below, (500, 64)
nb.plot_gradient_flow_biases(biases=(0.0, 1.0, 3.0))

# %%
nb.gradient_table(Ts=(50, 200, 500), biases=(0.0, 1.0, 3.0))

# %% [markdown]
# At $T = 50$ the default RNN keeps about $5 \times 10^{-17}$: gone. The orthogonal RNN keeps about
# $8 \times 10^{-7}$. The LSTM with forget bias 0 keeps about $9 \times 10^{-12}$, **less than the orthogonal
# RNN** at every $T$. With bias 1 it overtakes it; with bias 3 it keeps about 0.5 at $T = 50$ and
# $2 \times 10^{-4}$ at $T = 500$. **The gates help only as much as the forget gate stays open.**
#
# Each curve is nearly straight on the log axis: a fixed factor per step. Notebook 02 showed that
# $\sigma_{\max}(W_{hh}) < 1$ *guarantees* vanishing, and $\rho$ alone does not. The cell prints both, and the
# RNNs' factor per step, with the $\tanh$ and without it (a linear RNN, same weights).

# %%
for name in nb.RNNS:  # the same yardstick, with the tanh and without it
    rho, sigma_max = nb.rnn_rho(name), nb.rnn_sigma_max(name)
    tanh_rate, linear_rate = nb.decay_per_step(name), nb.linear_decay_per_step(name)
    print(
        f"{name:<15} rho = {rho:.2f}, sigma_max = {sigma_max:.2f}; "
        f"factor per step: with tanh {tanh_rate:.3f}, linear {linear_rate:.3f}"
    )
assert nb.rnn_sigma_max("RNN") > 1 and nb.decay_per_step("RNN") < 0.9 * nb.linear_decay_per_step("RNN")

# %% [markdown]
# The default RNN has $\rho = 0.58$ but $\sigma_{\max} = 1.15$: 02's sufficient condition does not hold, so
# nothing guarantees vanishing. Yet it vanishes, at 0.455 per step. Without the $\tanh$ the same weights
# shrink at 0.575, about $\rho$. The rest is the $\tanh$'s saturation: its slopes $1 - h_t^2$ are below 1.
# The orthogonal RNN would keep its norm without the $\tanh$ (1.000); with it, it shrinks at 0.729.
#
# Explore: the sliders set the **forget bias** and the **sequence length** $T$. Exercise 2 asks you to predict
# what you will see.

# %%
nb.explore_gradient_flow()

# %% [markdown]
# ## What LSTMs fix and what they do not
#
# **The cell path helps only while the forget gate stays open; a fixed-size state is a second, different
# failure.**
#
# * **Fixed:** only $f_t$ multiplies the gradient along the cell, so a gate near 1 carries it for hundreds of
#   steps.
# * **Not fixed:** a half-closed gate, PyTorch's default, still vanishes exponentially.
# * **Not changed:** each step still waits for the one before, as in notebook [01](01_recurrence.ipynb).
# * **A second failure:** even with a perfect gradient, the whole past must fit in $h_t$ and $c_t$, **$2 d_h$
#   numbers, whatever the length of the sequence**.

# %%
layer = torch.nn.LSTM(nb.D, nb.D, batch_first=True)
for T in (10, 100, 1000):
    _, (h_T, c_T) = layer(torch.randn(1, T, nb.D, generator=generator))
    print(f"T = {T:>4}: input history {T * nb.D:>6} numbers -> state {h_T.numel() + c_T.numel()} numbers")

# %% [markdown]
# A crude bound, for a task that needs the **whole** sequence, such as repeating it: $2 \times 64$ float32
# numbers hold at most $128 \times 32$ bits, and a token from a vocabulary of 8 carries 3 bits. Past this many
# tokens no training can make the state hold the sequence:

# %%
state_bits, bits_per_token = 2 * nb.D * 32, math.log2(8)
print(f"state: {state_bits} bits; a whole sequence: {bits_per_token:.0f} bits per token")
print(f"  -> the whole sequence outgrows the state after {nb.state_full_tokens([nb.D], 8):.0f} tokens")
nb.plot_state_size(d=nb.D, vocab=8)

# %% [markdown]
# Khandelwal, He, Qi & Jurafsky (2018) measured how much context trained LSTM language models use: about 200
# tokens, the article's "a few hundred". Is the bound the reason? Their models are much larger than our toy,
# so compute the bound at their sizes:

# %%
KHANDELWAL_CONTEXT = 200  # tokens of context their LSTM language models use (Khandelwal et al. 2018)
print(
    f"AWD-LSTM (Merity et al. 2018), layers of {nb.AWD_LSTM_UNITS} units, state {2 * sum(nb.AWD_LSTM_UNITS)} numbers"
)
for corpus, vocab in nb.LM_VOCABULARIES.items():
    full = nb.state_full_tokens(nb.AWD_LSTM_UNITS, vocab)
    print(
        f"  {corpus:<13} vocabulary {vocab:>6,}: state full after {full:>6,.0f} tokens, "
        f"{full / KHANDELWAL_CONTEXT:.0f}x the ~{KHANDELWAL_CONTEXT} tokens they use"
    )
assert (
    min(nb.state_full_tokens(nb.AWD_LSTM_UNITS, v) for v in nb.LM_VOCABULARIES.values())
    > 50 * KHANDELWAL_CONTEXT
)

# %% [markdown]
# At their sizes the bound is 11,503 to 13,004 tokens, about 60 times the context they use. So the bound does
# **not** explain the 200 tokens. It shows only that a fixed-size state must lose information once the
# history outgrows it, whatever the gates do. Attention (notebook [04](04_attention.ipynb)) keeps every past
# token instead, at a cost that notebook 06 measures. Notebook [07](07_long_range_memory.ipynb)'s task,
# recalling one token, needs 3 bits at any length: it tests training, not capacity.

# %% [markdown]
# ## Verdict
#
# **C3 is mostly right, and it joins two different failures.**
# * *"Gates let gradients flow linearly"*: **true on the cell path, while the forget gate stays open.** With
#   forget bias 0, close to PyTorch's default, the LSTM still vanishes, below an orthogonal RNN. With bias 1
#   it overtakes it; with 3 a gradient survives 500 steps.
# * *"Even LSTMs struggle beyond a few hundred tokens"*: **consistent with** Khandelwal et al. (2018), not
#   measured here.
# * *"A fixed-size representation"*: **true as a bound, and a separate failure.** But at real LSTMs' sizes
#   the bound lies far above 200 tokens, so it is not shown to be what stops them. Gates address *training*
#   (can a signal reach the first token?), not *capacity* (can $2 d_h$ numbers hold the history?).

# %% [markdown]
# ## Takeaways
#
# * Along an LSTM's cell state only the forget gate multiplies the gradient, so it travels far only while
#   that gate stays near 1.
# * PyTorch starts the forget gate half closed, and then an LSTM loses its gradient faster than a well-started
#   RNN; a forget bias of 1 puts it ahead, and 3 carries a gradient over 500 steps.
# * Gates fix the flow of gradients, not the size of the memory: a fixed-size state is a second, different
#   limit.

# %% [markdown]
# ## Exercises
#
# **1. Write the LSTM step.** Complete `my_lstm_step` from the equations at the top: return `(h_t, c_t)`. Shapes:
# `x_t` $(B, d_{in})$, `h_prev` and `c_prev` $(B, d_h)$, `W_ih` $(4 d_h, d_{in})$, `W_hh` $(4 d_h, d_h)$, `b` $(4 d_h)$,
# gates stacked i, f, g, o. Run the cell: `helpers.check` compares it with the reference on random inputs.


# %%
def my_lstm_step(x_t, h_prev, c_prev, W_ih, W_hh, b):
    # your code here: compute the four gates, then c_t and h_t
    raise NotImplementedError


helpers.check("lstm_step", my_lstm_step)

# %% [markdown]
# **2. Predict, then move the widget.** In the gradient-flow widget, set the sequence length to 500 and the
# forget bias to 0: the LSTM's line ends far above the default RNN's. As you lower the bias, it sinks. **First
# predict**, from the factors per step: the cell path shrinks by about $\sigma(b_f)$ per step, the default RNN
# by the factor printed for it above. What is the lowest forget bias on the slider at which the LSTM's
# $\|\partial h_{500}/\partial x_1\|_F$ is still above the default RNN's? Write down your prediction, then move
# the slider, and answer with what the widget shows. Does it match? Why not?

# %%
answer = None
helpers.check("lstm_below_rnn", answer)

# %% [markdown]
# **3. Half the cell path over 100 steps.** Suppose every forget gate sits exactly at $\sigma(b_f)$. Which
# forget bias $b_f$ keeps half of the cell path, $\prod_t f_t = 1/2$, over 100 steps? Replace `None` with the
# exact value (an expression such as `math.log(2)` is fine). Compare it with the slider's range.

# %%
answer = None
helpers.check("forget_bias_half", answer)

# %% [markdown]
# **4. To think about (no check).** Set the widget's forget bias to 5: a gradient stays alive for hundreds of
# steps. Why might it still be a bad start for a model that must *forget*, say reset its memory at the end of
# each sentence?
#
# Stuck? A wrong answer prints a hint, and so does `helpers.hint("forget_bias_half")`.
# `helpers.solution("lstm_step")` (or `"lstm_below_rnn"`, `"forget_bias_half"`) prints a reference answer.

# %% [markdown]
# ## Going further
#
# The checks, derivations and run-to-run spread behind the core path, each still computed and asserted.

# %% [markdown]
# ### Checking the forget gate's slice
#
# This checks, on PyTorch's own cell, that the forget gate is the slice `[d_h:2*d_h]`. The gates depend on
# $x_t$ and $h_{t-1}$, not on $c_{t-1}$, so one step's Jacobian $\partial c_t/\partial c_{t-1}$ is exactly
# $\operatorname{diag}(f_t)$: autograd through `nn.LSTMCell` must give our $f_t$ on the diagonal. Then open
# the gate in PyTorch's biases (`helpers.lstm.set_forget_bias(cell, 50)`): $f_t$ becomes 1, so PyTorch's cell
# must copy $c_{t-1}$ and add our $i_t \odot g_t$, and its Jacobian must become the identity. With the wrong
# slice, each line below would fail.

# %%
dc_dc = lambda cell: torch.autograd.functional.jacobian(lambda c: cell(x_t[0], (h_prev[0], c))[1], c_prev[0])
diag_f = torch.diag(gates.f[0])  # our forget gate on the diagonal, (d_h, d_h)
print(f"autograd dc_t/dc_(t-1) vs diag(our f_t):        {helpers.within_rounding(dc_dc(cell) - diag_f)}")
set_forget_bias(cell, 50.0)  # bias_ih[d_h:2*d_h] = 50, bias_hh[d_h:2*d_h] = 0: sigma(50) = 1 in float32
_, c_open = cell(x_t, (h_prev, c_prev))  # PyTorch's step, gate open
open_gap = c_open - c_prev - gates.i * gates.g
print(f"gate open: PyTorch's c_t - c_prev vs our i*g:  {helpers.within_rounding(open_gap)}")
identity = torch.eye(d_h)
print(f"gate open: dc_t/dc_(t-1) vs identity:          {helpers.within_rounding(dc_dc(cell) - identity)}")

# %% [markdown]
# ### The cell path against all paths
#
# This follows every path from $c_0$ to $c_T$, not only the cell path. With the real $W_{hh}$, $c_0$ changes
# $h_1 = o_1 \tanh(c_1)$, which changes the next gates through $W_{hh}$, which change $c_2$, and so on. Those
# paths *do* contain $W_{hh}$ and squashing derivatives. `jacobians.lstm_gradient_norms` follows all of them:
# it carries the exact Jacobian $\partial c_k/\partial c_0$ forward, one step at a time (multiplying by each
# step's Jacobian, as autograd's *forward mode* does), in float64, with the overall scale kept as a logarithm
# so that nothing underflows, and returns its spectral norm $\|\cdot\|_2$ (the most it stretches a vector; for
# the cell path's diagonal, $\max_j \prod_t f_t[j]$). Here it is against autograd through `nn.LSTMCell`, and
# against the cell path alone.

# %%
x20 = x[:20]
W_ih64, W_hh64, b64 = weights64(lstm1)
last_c = lambda c: nb.last_cell_state(lstm1, x20, c)  # c_20 of nn.LSTMCell, as a function of c_0
J20 = torch.autograd.functional.jacobian(last_c, c0)  # dc_20/dc_0, (64, 64)
ours, cell_only = jacobians.lstm_gradient_norms(W_ih64, W_hh64, b64, x20)
assert_close(ours[-1], torch.linalg.matrix_norm(J20, ord=2), rtol=1e-9, atol=0)
_, _, g20 = lstm_sequence(x20, W_ih64, W_hh64, b64)
print(f"||dc_20/dc_0||_2, all paths: {ours[-1]:.2e} (autograd agrees)")
print(f"cell path alone, max prod f: {cell_path(g20.f).max():.2e}")
print(f"ratio: {ours[-1] / cell_path(g20.f).max():.0f}")

# %% [markdown]
# With the forget bias at 1, after 20 steps the full Jacobian is about nine times the cell path alone (in
# $\|\cdot\|_2$): the loops through $h$ add to the gradient rather than cancel it. The cell path is the part
# you can reason about in one line, which is why the figures draw its forget gates as a dotted guide.

# %% [markdown]
# ### Our gradient norms against autograd
#
# This checks the numbers behind every curve, through PyTorch's own cells. `helpers.lstm.input_gradient_norms`
# computes $\|\partial h_k/\partial x_1\|_F$ for every $k$ in one pass: it carries
# $\partial(h_k, c_k)/\partial x_1$ forward one step at a time in float64, with the overall scale kept as a
# logarithm so that nothing underflows. Here it is against reverse-mode autograd through `nn.RNNCell` and
# `nn.LSTMCell` (`jacobians.output_jacobian_norms`), at $T = 50$, with one more LSTM: PyTorch's biases as
# drawn, whose forget biases lie within $\pm 0.25$.

# %%
models = {name: nb.make_rnn(orthogonal) for name, orthogonal in nb.RNNS.items()}
models["LSTM, default biases"] = nb.make_lstm()  # PyTorch's own draw: forget biases within +-0.25
models |= {f"LSTM, forget bias {bias:g}": nb.make_lstm(bias) for bias in (0.0, 1.0, 3.0)}
for name, torch_cell in models.items():
    ours = input_gradient_norms([torch_cell], x500[:50])[0, -1]  # ||dh_50/dx_1||_F
    theirs = jacobians.output_jacobian_norms(nb.last_state(torch_cell.double()), x500[:50])[0]
    agree = helpers.within_rounding(ours / theirs - 1, bound=1e-9)
    print(
        f"{name:<20} ||dh_50/dx_1|| = {ours:.1e}; vs autograd through nn.{type(torch_cell).__name__}: {agree}"
    )

# %% [markdown]
# They agree within $10^{-9}$, relative. PyTorch's biases as drawn give about the same as forget bias 0.

# %% [markdown]
# ### The LSTM's factor per step, and the guide
#
# This compares each LSTM's measured factor per step with the one-line prediction of its cell path,
# $\sigma(b_f)$, and the full gradient with the dotted guide $\prod f$. The guide is not the cell path's exact
# share of $\|\partial h_T/\partial x_1\|_F$: it leaves out how $x_1$ enters the cell
# ($\partial c_1/\partial x_1$) and how $c_T$ leaves it ($o_T \odot \tanh'(c_T)$); it shows the cell path's rate.

# %%
for bias in (0.0, 1.0, 3.0):
    name = f"LSTM, forget bias {bias:g}"
    print(
        f"{name:<20} factor per step {nb.decay_per_step(bias):.3f}   (sigma(b_f): {1 / (1 + math.exp(-bias)):.3f})"
    )
    ratio = nb.gradient_norm_at(500, bias) / nb.cell_path_at(500, bias)  # all paths against the guide
    guide = nb.decay_per_step(bias, cell_path=True)
    print(f"{'':<20} guide prod f {guide:.3f} per step; at T = 500, all paths / guide prod f = {ratio:.0e}")

# %% [markdown]
# The LSTMs shrink *slower* than $\sigma(b_f)$ (0.60 against 0.50, 0.81 against 0.73, 0.983 against 0.953),
# while the guide $\prod f$ shrinks at about $\sigma(b_f)$ (0.495, 0.723, 0.966). The loops through $h$ and
# $W_{hh}$ carry gradient too, and by $T = 500$ the full gradient is far above the guide: about $10^{39}$ times
# at forget bias 0, $10^{4}$ at forget bias 3. But the ranking is set by the forget bias, and every curve whose
# factor is below 1 still vanishes exponentially, only more slowly.

# %% [markdown]
# ### Run to run: eight seeds
#
# This shows how much one draw of weights and inputs decides at large $T$. The table says $2 \times 10^{-4}$
# at forget bias 3 and $T = 500$ for our seed; the same LSTM drawn with eight seeds gives:

# %%
spread = nb.seed_spread(3.0, Ts=(50, 500), seeds=range(8))
for T, values in spread.items():
    ranked = sorted(values)
    print(  # statistics.median: of 8 values, the mean of the middle two
        f"forget bias 3, T = {T}: median {statistics.median(values):.1e}, range {ranked[0]:.1e} to {ranked[-1]:.1e}"
        f" over {len(values)} seeds; ours (seed {nb.SEED}) is number {ranked.index(values[nb.SEED]) + 1} from the bottom"
    )

# %% [markdown]
# At $T = 50$ the eight draws agree (0.4 to 0.7). At $T = 500$ they do not: from $2 \times 10^{-4}$ to $0.1$,
# with a median of about $0.03$, and our seed happens to give the smallest of the eight, more than a hundred
# times below the median. So read one draw at large $T$ as an order of magnitude at best. Either way a gradient
# survives 500 steps, far beyond anything the RNNs or the LSTM with forget bias 0 can do.

# %% [markdown]
# ### Why the capacity bound is loose
#
# This says what the bound leaves out. A float32 number holds fewer than 32 useful bits for a network that
# must compute with it; the state must also do the model's work, not only store tokens; and training may not
# find the weights that would use the state fully. Each of these lowers what a real LSTM can keep, and none is
# measured here. The bound says only that *some* information must be lost once the history outgrows it.

# %% [markdown]
# ## Further reading
#
# * Hochreiter, S. & Schmidhuber, J. (1997). Long short-term memory. *Neural Computation*, 9(8), 1735-1780.
#   (The LSTM and its constant error carousel, without a forget gate.)
# * Gers, F. A., Schmidhuber, J. & Cummins, F. (2000). Learning to forget: continual prediction with LSTM.
#   *Neural Computation*, 12(10), 2451-2471. (The forget gate, and a positive forget bias.)
# * Saxe, A. M., McClelland, J. L. & Ganguli, S. (2014). Exact solutions to the nonlinear dynamics of learning in
#   deep linear neural networks. *ICLR*. arXiv:1312.6120. (Orthogonal initialisation.)
# * Jozefowicz, R., Zaremba, W. & Sutskever, I. (2015). An empirical exploration of recurrent network
#   architectures. *ICML*. (The forget-gate bias of 1.)
# * Merity, S., Keskar, N. S. & Socher, R. (2018). Regularizing and optimizing LSTM language models. *ICLR*.
#   arXiv:1708.02182. (AWD-LSTM, the model Khandelwal et al. study.)
# * Khandelwal, U., He, H., Qi, P. & Jurafsky, D. (2018). Sharp nearby, fuzzy far away: how neural language
#   models use context. *ACL*. arXiv:1805.04623. (LSTM language models use about 200 tokens of context.)
#
# Next: [04 · Scaled dot-product attention](04_attention.ipynb).
