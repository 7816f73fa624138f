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
# # 00 · Start here: why did Transformers replace RNNs?
#
# 🌐 **English** · [Italiano](it/00_start_here.ipynb) · [Русский](ru/00_start_here.ipynb) · [فارسی](fa/00_start_here.ipynb) · [Español](es/00_start_here.ipynb)
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/00_start_here.ipynb)
#
# **Why did attention replace recurrence?** In 2017 *Attention Is All You Need* (Vaswani et
# al. 2017) replaced recurrence with self-attention. Within a few years RNNs and LSTMs had
# all but vanished from large models.
#
# A short article, *Why Transformers replaced RNNs and LSTMs* (in Italian, Russian, Persian and
# Spanish: *Perché i Transformer hanno sostituito le reti RNN e LSTM*), explains why in five steps.
# This course teaches that argument **and tests every claim in it** with an experiment you
# can run. Where the article is right, you will see it; where it is wrong, you will see that too.
#
# **You will learn**
#
# * the article's argument, and the verdict on each of its eight claims;
# * why Transformers won all the same;
# * how to run a notebook, move a widget and check an exercise.

# %% tags=["setup"]
# Setup: on Colab, install the course helpers; anywhere else this cell does nothing.
import subprocess
import sys

if "google.colab" in sys.modules:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "git+https://github.com/why-transformers/why-transformers"], check=True)

# %%
import helpers
from helpers.course import environment, ledger
from helpers.notebooks import nb00_start_here as nb

helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(0)

# %% [markdown]
# ## The article's argument on one page
#
# **The article makes its case in five steps, and each step is a claim we can test.**
#
# 1. **The sequential bottleneck.** An RNN updates its hidden state with
#    $h_t = \tanh(W_{hh} h_{t-1} + W_{xh} x_t + b)$. Since $h_t$ needs $h_{t-1}$,
#    the 100th state needs the 99 before it. The work cannot be spread across time.
# 2. **Vanishing and exploding gradients.** Backpropagation through time multiplies
#    the Jacobians $\partial h_k / \partial h_{k-1}$. If the largest eigenvalue of
#    $W_{hh}$ is below 1 the gradient shrinks exponentially; above 1 it explodes.
# 3. **LSTMs help but still forget.** The gated cell state lets gradients flow
#    further, yet in practice an LSTM forgets beyond a few hundred tokens.
# 4. **Attention fixes it.** Self-attention, $\mathrm{softmax}(QK^\top/\sqrt{d_k})V$,
#    lets every token look at every other at once; notebook 04 builds it. No step waits for
#    another, a path of length $O(1)$ joins any two tokens, and positional encodings restore
#    word order.
# 5. **The evidence.** A PyTorch snippet times an `RNNCell` loop against
#    `nn.MultiheadAttention`, and a table compares their complexity. The article implies
#    that attention wins the race; the snippet prints no numbers.

# %% [markdown]
# ## Eight claims, eight verdicts
#
# **Each claim gets a one-line verdict; the link opens the notebook whose experiment reaches it.**
# Steps 1 to 3 are claims C1 to C3; step 4 makes three (C4 to C6), step 5 two (C7, C8). Read the
# table as a map: its words are explained in the notebooks it links to.

# %%
ledger.short_ledger()

# %% [markdown]
# The full ledger, in [08](08_verdict.ipynb), adds what each verdict rests on: *measured here*,
# or *from the literature*, cited.

# %% [markdown]
# ## Why Transformers won all the same
#
# **Attention turns training into a few large matrix products, and that is the work modern
# hardware does best.** The caveats are real: the cost grows with the square of the length,
# long contexts still fail, and generation is still one token at a time. But in training
# every token is known in advance. Attention handles them all at once, in big products that
# keep a GPU busy, while an RNN must finish each step before the next. On a GPU, at the
# article's sizes (32 sequences of 512 tokens, width 128), this already beats the LSTM that
# attention replaced (C7). A plain tanh RNN is faster still, but it does far less work, and its
# gradient to distant tokens fades (02, 04). So the same hardware and hours train a larger model
# on more text.
# And any two tokens are one step apart: a long-range link need not survive hundreds of
# steps. Recurrence came back later, where a fixed cost per generated token matters (08).

# %% [markdown]
# ## The course map
#
# **Nine notebooks, in order; each tests one or two claims.**

# %%
ledger.course_map()

# %% [markdown]
# ## How the notebooks work
#
# * **Read first, run later.** Every notebook is saved with its figures and outputs.
# * **Every number has a source.** A number in the prose is a setting in a code cell, a
#   result printed or drawn above it, or a published result, cited. Any other number is a
#   bug: please report it.
# * **Widgets** need a live kernel: run the notebook first (*Run → Run All Cells*). Drag a
#   slider, use the arrow keys, or type a value in the labelled box beside it.
# * **Exercises.** `helpers.check(...)` tells you at once whether your answer is right, and if
#   not, what is wrong. `helpers.solution(...)` shows the answer, only when you ask.
# * **Everything is local.** Nothing is downloaded; a laptop CPU is enough.
# * **Notation.** $h_t$ is the hidden state after token $t$; $W_{xh}$ and $W_{hh}$ are the
#   input and recurrent weights; $d$ is the width; $N$ is the length of a sequence. $T$ counts
#   the steps a gradient or a memory travels back (02, 03, 07). $\rho$ is a matrix's spectral
#   radius, $\sigma_{\max}$ its largest singular value (02), $d_k$ the size of a key (04).

# %% [markdown]
# ## How to run it
#
# **Three ways: on your machine, on Colab, or on Binder.**
#
# * **On your machine:** `make lab` creates a virtual environment, installs the
#   tested versions and opens this notebook in JupyterLab; `make test` runs every
#   test.
# * **Colab:** open any notebook with its *Open in Colab* badge; its first cell
#   installs the course helpers there, and does nothing anywhere else.
# * **Binder:** the *launch binder* badge in the README builds the environment from
#   `environment.yml` and opens JupyterLab.
#
# Is your machine ready? The next cell says.

# %%
# NBVAL_IGNORE_OUTPUT
# (versions and device depend on your machine)
installed = environment.versions()
for name, version in installed.items():
    print(f"{name:>10}: {version}")
print(f"    device: {environment.device().type}")
assert int(installed["torch"].split(".")[0]) >= 2, "the course needs PyTorch 2 or newer"

# %% [markdown]
# `device: cpu` is fine. With `device: cuda`, notebook 06 also times the GPU.
#
# ## Try a widget
#
# **A temperature makes a softmax sharper or flatter.** A softmax turns scores into
# probabilities. Dividing the scores by a *temperature* first makes the distribution sharper
# (below 1) or flatter (above 1). In notebook 04, $\sqrt{d_k}$ plays the role of a
# temperature. Here is the figure at temperature 1:

# %%
nb.plot_softmax(temperature=1.0)

# %% [markdown]
# Now move the **temperature** slider. If the bars change, widgets work on your machine.

# %%
nb.explore_softmax()

# %% [markdown]
# ## Exercise: predict, then check
#
# **Predict first.** Softmax at temperature $\tau$ is $p_i = e^{s_i/\tau} / \sum_j e^{s_j/\tau}$.
# As $\tau \to 0$, what probability does the softmax give the largest score, when only one
# score is the largest (as 2 is among the widget's five)? Write your prediction, then slide
# the temperature down to check it. Replace `None` with your answer and run the cell.

# %%
answer = None
helpers.check("softmax_cold_limit", answer)

# %% [markdown]
# **A harder second part: when scores tie.** Write `cold_softmax(scores)`: the limit of
# $\mathrm{softmax}(s/\tau)$ as $\tau \to 0$, over the last dimension of a tensor of
# scores. Some rows the check feeds it tie for the largest score. In others two scores differ
# by so little that a softmax at any small temperature is still far from the limit: an answer
# that computes one is refused.
# Replace `raise NotImplementedError` with your code.


# %%
def cold_softmax(scores):
    raise NotImplementedError


helpers.check("cold_softmax", cold_softmax)

# %% [markdown]
# Next: [01 · Recurrence](01_recurrence.ipynb).
