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
# In 2017 *Attention Is All You Need* (Vaswani et al. 2017) replaced recurrence with
# self-attention, and within a few years RNNs and LSTMs had all but vanished from
# large models. A short article, published in Italian, Russian, Persian and Spanish,
# explains why in five steps. This course teaches that argument **and tests every
# claim in it** with an experiment you can run and poke at. Where the article is
# right, you will see it; where it is wrong or too simple, you will see that too.
#
# **You will learn** what the course covers, how to use its widgets and exercises,
# and whether your machine is ready.

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
# 1. **The sequential bottleneck.** An RNN updates its hidden state with
#    $h_t = \tanh(W_{hh} h_{t-1} + W_{xh} x_t + b)$. Since $h_t$ needs $h_{t-1}$,
#    the 100th state needs the 99 before it, so the work cannot be spread across time.
# 2. **Vanishing and exploding gradients.** Backpropagation through time multiplies
#    the Jacobians $\partial h_k / \partial h_{k-1}$. If the largest eigenvalue of
#    $W_{hh}$ is below 1 the gradient shrinks exponentially; above 1 it explodes.
# 3. **LSTMs help but still forget.** The gated cell state lets gradients flow
#    further, yet in practice an LSTM forgets beyond a few hundred tokens.
# 4. **Attention fixes it.** Self-attention, $\mathrm{softmax}(QK^\top/\sqrt{d_k})V$
#    (queries $Q$, keys $K$ and values $V$ are three projections of the tokens, $d_k$
#    the size of a key; notebook 04 builds it), lets every token look at every other
#    at once: no sequential dependency, a path of length $O(1)$ between any two
#    tokens, and positional encodings to restore word order.
# 5. **The evidence.** A PyTorch snippet times an `RNNCell` loop against
#    `nn.MultiheadAttention`, and a table compares their complexity.
#
# Each step is a *claim* we can test. The ledger below says what each notebook
# found; the links open the notebook that tests the claim. Each verdict says what it
# rests on: *measured here* is what the course computes itself; *from the literature*
# is what it takes from published work instead, cited (C3's "a few hundred tokens",
# for one, was measured on language models far larger than anything trained here). Do
# not worry if words in the verdict column (singular value, scan,
# permutation-equivariant...) are new: each is explained in the notebook that reaches
# that verdict.

# %%
ledger.claims_ledger()

# %% [markdown]
# ## The course map

# %%
ledger.course_map()

# %% [markdown]
# ## How the notebooks work
#
# * **Read first, run later.** Every notebook is committed with its outputs, so
#   each figure is there before you run anything.
# * **Every number has a source you can see.** A number in a notebook's prose is a
#   setting in a code cell of that notebook above it (or in the code cell just below
#   the sentence that states it), a result that a cell of that
#   notebook prints (or draws in a figure or table) above it, or a published result,
#   cited with its authors and year. Timings and training results depend on the
#   machine: the prose quotes the committed run and says so, and the cell asserts only
#   what holds on any machine. A number that is none of these is a bug: please report it.
# * **Widgets.** Below each important figure a widget lets you change one thing
#   (sequence length, eigenvalue, head count...) and redraw. Drag a slider and
#   release it, click it and use the arrow keys, or type a value in the labelled box
#   beside it (the box is what a screen reader announces). If nothing moves, run the
#   notebook first (*Run → Run All Cells*): widgets need a live kernel.
# * **Exercises.** Each notebook ends with exercises. You write a function or a
#   number, `helpers.check(...)` tells you at once whether it is right, and if not,
#   what is wrong (shape, dtype, values). `helpers.solution(...)` shows the answer,
#   only when you ask.
# * **Everything is local.** Data is synthetic and made in the notebook; nothing is
#   downloaded. A laptop CPU is enough; a GPU is used when there is one.
# * **Notation.** $h_t$ is the hidden state after token $t$, $W_{xh}$ and $W_{hh}$ the
#   input and recurrent weights, $d$ (or $d_h$) the hidden width. $N$ is the length of a
#   sequence, as in the article; notebooks 02 and 07, which follow a gradient or a
#   memory back through time, write $T$ for the number of steps back, and notebook 03
#   writes $T$ for the length of the sequence it follows ($x_1$ is $T-1$ steps before
#   $h_T$). $\rho$ is a matrix's spectral radius and $\sigma_{\max}$ its largest singular
#   value (notebook 02); $d_k$ is the size of a key (notebook 04).
#
# ## Is your machine ready?

# %%
# NBVAL_IGNORE_OUTPUT
# (versions and device depend on your machine)
installed = environment.versions()
for name, version in installed.items():
    print(f"{name:>10}: {version}")
print(f"    device: {environment.device().type}")
assert int(installed["torch"].split(".")[0]) >= 2, "the course needs PyTorch 2 or newer"

# %% [markdown]
# The course was tested with the exact versions in `requirements.txt`; newer
# versions will very likely work too. `device: cpu` is fine: every notebook runs on a
# laptop CPU. `device: cuda` means PyTorch found a GPU, and the notebook that
# measures speed (06) will also time it there.
#
# ## Try a widget
#
# A softmax turns scores into probabilities; dividing the scores by a
# *temperature* first makes the distribution sharper (below 1) or flatter (above
# 1). You will meet this again in notebook 04, where $\sqrt{d_k}$ plays the role
# of a temperature. Here is the figure at temperature 1:

# %%
nb.plot_softmax(temperature=1.0)

# %% [markdown]
# Now move the **temperature** slider. If the bars change, widgets work on your
# machine.

# %%
nb.explore_softmax()

# %% [markdown]
# ## Where to run it
#
# * **On your machine:** `make lab` creates a virtual environment, installs the
#   tested versions and opens this notebook in JupyterLab; `make test` runs every
#   test. Only Python 3.10 or newer (tested on 3.11), `make` and `git` are needed.
# * **Colab:** open any notebook with its *Open in Colab* badge; its first cell
#   installs the course helpers there (and does nothing anywhere else).
# * **Binder:** the *launch binder* badge in the README builds the environment from
#   `environment.yml` and opens JupyterLab.
#
# ## A first exercise
#
# Softmax at temperature $\tau$ is $p_i = e^{s_i/\tau} / \sum_j e^{s_j/\tau}$. As
# $\tau \to 0$, what probability does the softmax give the largest score, when only one
# score is the largest (as 2 is among the widget's five scores)? Replace `None` with your
# answer and run the cell.

# %%
answer = None
helpers.check("softmax_cold_limit", answer)

# %% [markdown]
# **And when scores tie?** Write `cold_softmax(scores)`: the limit of
# $\mathrm{softmax}(s/\tau)$ as $\tau \to 0$, over the last dimension of a tensor of
# scores. Some rows the check feeds it have a unique maximum, others several scores
# tied for the largest, and in some the scores differ by very little, so that a softmax
# at a small temperature, whose output still differs from the limit, is refused.
# Replace `raise NotImplementedError` with your code.


# %%
def cold_softmax(scores):
    raise NotImplementedError


helpers.check("cold_softmax", cold_softmax)

# %% [markdown]
# Next: [01 · Recurrence](01_recurrence.ipynb).
