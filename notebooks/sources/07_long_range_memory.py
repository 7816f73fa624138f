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
# # 07 · Long-range memory, trained live
#
# 🌐 **English** · [Italiano](it/07_long_range_memory.ipynb) · [Русский](ru/07_long_range_memory.ipynb) · [فارسی](fa/07_long_range_memory.ipynb) · [Español](es/07_long_range_memory.ipynb)
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/07_long_range_memory.ipynb)
#
# **You will learn**
# * to build a synthetic task that needs memory over a chosen distance: recall the first token after a delay $T$;
# * to train a tanh RNN, two LSTMs (PyTorch's default forget-gate bias, and $+3$) and a one-layer attention
#   model (with and without positional encoding) on the *same* small budget, and read the result honestly;
# * why attention without positions cannot do better than an order-blind guess on this task, and what that guess
#   scores, computed exactly;
# * the caveat the article skips: within a small budget the LSTM fails to *optimise*, which is not the same as
#   being unable to remember, and a cheap experiment that tells the two apart.
#
# **The article's claims this notebook tests (C3, C5)**, translated from the article:
#
# > *"Even LSTMs struggle with sequences longer than a few hundred tokens. The hidden vectors are forced to
# > compress the history of all previous tokens into a fixed-size representation, leading to a 'forgetting' effect."*
#
# > *"The path length between any two tokens is $\mathcal{O}(1)$. This eliminates the vanishing-gradient problem
# > over long sequences, allowing models to easily handle contexts of thousands (or even millions) of tokens."*
#
# It also tests claim C6 of notebook [05](05_multihead_positions.ipynb) (positional encodings are needed because
# attention has no order) in training: attention with and without positions.
#
# Notebooks [02](02_bptt_gradients.ipynb) and [03](03_lstm_gating.ipynb) measured gradients at initialisation.
# Here we train, and ask the question that matters: does the model learn to remember?

# %% tags=["setup"]
# Setup: on Colab, install the course helpers; anywhere else this cell does nothing.
import subprocess
import sys

if "google.colab" in sys.modules:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "git+https://github.com/why-transformers/why-transformers"], check=True)

# %%
import torch

import helpers
from helpers import ensembles, tasks
from helpers.notebooks import nb07_long_range_memory as nb

torch.set_num_threads(1)  # tiny models: one thread is fastest here, and gives the same numbers on every run
helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(4)

# %% [markdown]
# ## The task: recall the first token
#
# A sequence $x_0, x_1, \dots, x_T$ of $T+1$ tokens (so the article's sequence length $N$ is $T + 1$; $T$
# counts the steps back, as in notebook 02) is drawn uniformly from a vocabulary of 8 symbols. After
# reading all of it, the model must output $x_0$: the token it saw $T$ steps ago. The $T$ distractors come from
# the **same** vocabulary, so nothing about the target's content marks it; only its *position* does.
# Guessing scores $1/8 = 0.125$.

# %%
x, y = tasks.first_token_recall(batch=4, delay=10, generator=generator)
for row, target in zip(x.tolist(), y.tolist()):
    print(" ".join(map(str, row)), " -> answer", target)
print(f"chance: 1/{tasks.VOCAB} = {1 / tasks.VOCAB}")

# %% [markdown]
# ## The best an order-blind model can do
#
# A model that sees the tokens as a bag (a *multiset*: which tokens, how many times each, in no order) cannot
# tell which one came first. The attention model without positions below sees a little more: it answers at the
# last token $x_T$, which asks the question, so it knows $x_T$ and the bag of the $T$ tokens $x_0, \dots,
# x_{T-1}$ before it. Given those, each of the $T$ was equally likely to be the first, so
# $P(x_0 = v \mid x_T, \text{bag}) = \text{count}(v)/T$, counting in $x_0, \dots, x_{T-1}$: the best guess is
# the **commonest token before the query**, right with probability $\max_v \text{count}(v)/T$. Averaged over
# sequences, the ceiling is $\mathbb{E}[\max_v \text{count}(v)]/T$, where the counts of $T$ uniform tokens are
# multinomial. `tasks.order_blind_ceiling` computes it exactly (one symbol at a time, see its docstring);
# sampling 20,000 sequences checks it. At $T = 1$ the bag before the query is $x_0$ alone, so the ceiling is 1;
# it falls towards chance as $T$ grows.

# %%
ceiling = {T: tasks.order_blind_ceiling(T) for T in (1, *ensembles.DELAYS)}
n = 20_000
print(f"sampled: {n} sequences per delay, ± one standard error")
for T, exact in ceiling.items():
    sampled = tasks.order_blind_accuracy(T, n=n, generator=torch.Generator().manual_seed(T))
    error = (sampled * (1 - sampled) / n) ** 0.5  # standard error of a mean of n right/wrong
    print(f"T = {T:>3}: best order-blind accuracy {exact:.3f} exactly; sampled {sampled:.3f} ± {error:.3f}")
    assert abs(sampled - exact) <= 4 * error + 1e-12

# %% [markdown]
# ## Five models, one budget
#
# Every model embeds the tokens in $d = 32$ dimensions, reads the sequence, and maps one vector to 8 *logits*
# (one score per symbol; the softmax of the logits is the predicted distribution, the highest is the answer):
#
# * **tanh RNN**: $h_t = \tanh(W_{xh} x_t + W_{hh} h_{t-1} + b)$, answer from $h_T$.
# * **LSTM**: the cell of notebook 03, answer from $h_T$. PyTorch initialises every bias from
#   $U(-1/\sqrt d, 1/\sqrt d)$, so the forget gate starts at $f = \sigma(\approx 0) \approx 0.5$.
# * **LSTM, forget bias +3**: the same, with 3 added to the forget-gate bias at initialisation, so
#   $f \approx \sigma(3) \approx 0.95$. (The forget gate is from Gers, Schmidhuber & Cummins 2000;
#   Jozefowicz et al. 2015 recommend a bias of $+1$; we use $+3$ to make the effect plain.)
# * **attention + positions**: one head of self-attention on token embedding + sinusoidal encoding
#   (notebook 05); the answer is the output at the last position, $\mathrm{softmax}(q_T K^\top/\sqrt d)\,V$.
# * **attention, no positions**: the same without the encoding.
#
# Each is trained at each delay $T \in \{10, 30, 100\}$: fifteen models. They get the **same budget**: 200
# Adam steps (learning rate $10^{-2}$) on batches of 64 fresh sequences, the same batches for every model,
# and are then scored on 400 held-out sequences.
#
# To train in well under a minute on an idle laptop CPU (the time printed below depends on the machine and its load), the fifteen are trained **together**: the models of one
# family at one delay (the two LSTMs, say) form an *ensemble* whose weights carry a leading "member" axis, so
# one batched matrix product runs all its members at once. The members share nothing, the loss is the sum of their
# losses, and Adam updates every number on its own, so this is exactly fifteen separate trainings
# (`tests/test_ensembles.py` checks both that each member
# equals `torch.nn.RNN` / `torch.nn.LSTM` / scaled dot-product attention, and that members are independent).

# %%
budget = ensembles.Budget()
print(budget)
sizes = {
    kind: sum(p[0].numel() for p in ens.parameters())  # p[0]: member 0 of each ensemble
    for kind, ens in zip(["tanh RNN", "LSTM", "attention"], ensembles.make_models((10,))[10])
}
print("parameters per model:", sizes)

# %% [markdown]
# ## Training
#
# The progress line counts Adam steps (a saved copy of the notebook, as on GitHub, keeps its last state);
# every 20 steps all fifteen models are scored. The cell then prints what it trained
# and how long that took, which depends on the machine and on what else runs on it. Rerun on the same
# machine, the accuracies repeat exactly; on another machine floating-point rounding can send training down
# a slightly different path, so this cell checks its claims with wide margins.

# %%
# NBVAL_IGNORE_OUTPUT
results = nb.train(ensembles.DELAYS, budget, seed=0)
print(
    f"trained {results.n_models} models ({len(ensembles.KINDS)} kinds x {len(ensembles.DELAYS)} delays), "
    f"{budget.steps} Adam steps each (the time is on the progress line)\n"
)
print(results.table())
acc = dict(zip(ensembles.KINDS, results.at().tolist()))  # kind -> [accuracy at T = 10, 30, 100]
assert acc["attention + positions"][-1] > 0.5  # far above chance (0.125) at T = 100
assert max(acc["LSTM"][1:] + acc["tanh RNN"][1:]) < 0.25  # near chance at T = 30 and 100
assert acc["LSTM, forget bias +3"][0] > 0.8  # the open forget gate learns T = 10

# %% [markdown]
# Is attention without positions above chance, and is it at or below the order-blind ceiling? A score on the
# `n_test` held-out sequences of the budget is itself a sample: its standard error is
# $\sqrt{p(1-p)/n_\text{test}}$, so "above chance" means above $1/8$ by more than a few standard errors (taken
# at $p = 1/8$), and "never above the ceiling" means not above it by more than a few (taken at the ceiling). The
# last column asks whether the model learned the order-blind rule: how often its answer *is* a commonest token
# before the query (ties count: any of them is an equally good guess).

# %%
# NBVAL_IGNORE_OUTPUT
x_test, _ = results.test  # the 400 held-out sequences, (400, 101)
for j, T in enumerate(ensembles.DELAYS):
    score, bound, chance = acc["attention, no positions"][j], ceiling[T], 1 / tasks.VOCAB
    error = (bound * (1 - bound) / budget.n_test) ** 0.5
    above = (score - chance) / (chance * (1 - chance) / budget.n_test) ** 0.5  # in standard errors at p = 1/8
    said = ensembles.answers(results, T)["attention, no positions"]  # (400,) tokens
    counts = tasks.token_counts(x_test[:, :T])  # (400, 8): each token's count before the query x_T
    rule = (counts.gather(1, said[:, None])[:, 0] == counts.max(1).values).float().mean()
    print(f"T = {T:>3}: scored {score:.3f}, {above:.1f} standard errors above chance; ", end="")
    print(f"ceiling {bound:.3f} (standard error {error:.3f}); ", end="")
    print(f"a commonest token before the query {rule:.0%} of the time")
    assert score <= bound + 3 * error  # never above the ceiling, within sampling error
    assert T > 30 or above > 3  # above chance at T = 10 and 30, beyond sampling error

# %% [markdown]
# Read the table row by row. The two cells above print every number and assert the main ones with a margin; the
# numbers quoted are those of
# the committed run (another machine can round its way down a slightly different training path):
#
# * **attention + positions** solves the task at every delay: accuracy 1.00 at $T = 10$, $30$ and $100$.
# * **LSTM, forget bias +3** solves $T = 10$ and $T = 30$ (1.00) but is at chance at $T = 100$ (0.13).
# * **LSTM with the default bias** and the **tanh RNN** are near chance at $T = 30$ and $T = 100$. At
#   $T = 10$ they partly learn (0.59 and 0.26 in the committed run). That number is fragile: after 200 steps
#   these two are still in the middle of learning $T = 10$, so another seed or another machine can land
#   elsewhere between chance and partial recall (exercise 3 tries other seeds).
# * **attention without positions** is never above the order-blind ceiling (0.302, 0.224, 0.177, computed
#   before any training): 0.29, 0.21, 0.15 in the committed run, within one standard error of it at $T = 10$
#   and $30$ and further below at $T = 100$. It is above chance at $T = 10$ and $30$ (10.0 and 5.3 standard
#   errors), not clearly at $T = 100$ (1.4 standard errors: within sampling error of chance). It learned the
#   order-blind rule for the most part at $T = 10$ (its answer is a commonest token before the query 87% of the
#   time) and only in part at $T = 100$ (28%).

# %%
nb.plot_accuracy_vs_delay(results, bound=[ceiling[T] for T in ensembles.DELAYS])

# %% [markdown]
# Move the **training step** slider to watch the picture form: which models learn, and when. (No training
# happens when you move it; it shows the scores recorded during the run above.)

# %%
nb.explore_training(results)

# %% [markdown]
# The learning curves at the longest delay (scored every 20 steps) show *how* each model got there: attention
# with positions stays at chance for a few dozen steps, then jumps to perfect; the recurrent models stay near
# chance, and so does attention without positions, which cannot rise above its order-blind ceiling (0.177 at this
# delay).

# %%
nb.plot_learning_curves(results, delay=100)

# %% [markdown]
# ## What the attention model looks at
#
# If attention with positions really solved the task by *looking back* at position 0, its attention weight
# there should be close to 1. Without positions, every copy of a token gets the same score, so the weight on
# position 0 can be no more than that of any other token with the same symbol. Averaged over sequences, it is
# then at most $1/T$ whatever the model learned: the $T$ positions before the query are interchangeable, so
# they get the same mean weight, and those weights sum to at most 1. The cell checks that theorem against the
# trained model (a leak of position into the model would break it); it is not a finding of the training.

# %%
# NBVAL_IGNORE_OUTPUT
weight_on_first = ensembles.attention_on_first_token(results, delay=100)
for kind, w in weight_on_first.items():
    print(f"{kind:<24}: mean attention weight on position 0 = {w:.3f}  (uniform would be {1 / 101:.3f})")
assert weight_on_first["attention + positions"] > 0.5
assert weight_on_first["attention, no positions"] < 2 / 100  # the theorem: a mean of at most 1/T, T = 100

# %% [markdown]
# With positions, the last token puts most of its attention on position 0: a direct path, one step long,
# whatever the delay. Without positions, the weight on position 0 stays small, close to that on every other
# token. Here is why no training could fix that:
#
# * Without positional encoding, the score of key $j$ is $q_T \cdot k(x_j)$: it depends only on the *symbol*
#   $x_j$, not on where it is. Two positions holding the same symbol get the same weight, and the output is a
#   function of the bag of tokens (plus the last token, which asks the question). So the model is
#   order-blind, and the ceiling above applies to it: the best it can learn is "answer the commonest token
#   before the query", and it came close to that at $T = 10$ and $30$.
# * Something else could break the symmetry. If the distractors were a separate "blank" symbol, the
#   target's *content* would mark it and attention without positions would solve the task. A **causal mask**
#   also leaks position: with it, position 0 is the only one that attends only to itself, so a *second*
#   layer can find it (language models without any positional encoding still learn positions, which Haviv, Ram,
#   Press, Izsak & Levy attribute to the causal mask: 2022, *Transformer language models without positional
#   encodings still learn positional information*, Findings of EMNLP). Our model has one layer and reads out at one position, so nothing breaks the symmetry.
#
# That is claim C6 of notebook [05](05_multihead_positions.ipynb) at work in training: without positional
# information, self-attention cannot see order.

# %% [markdown]
# ## The caveat: failing to optimise is not failing to remember
#
# Did the LSTMs fail at $T = 100$ because an LSTM *cannot* carry one token over 100 steps? A cell state with
# the forget gate at 1 and the input gate at 0 keeps it forever, so the weights exist; the question is whether
# training finds them. No weight of a recurrent model depends on $T$, so a model trained at $T = 10$ can simply
# read on and answer at $t = 100$. The cell below scores the recurrent models trained at $T = 10$ and $30$,
# unchanged and with no further training, at $T = 100$, on the same 400 test sequences as the table.

# %%
# NBVAL_IGNORE_OUTPUT
at_100 = {T: ensembles.score_at_delay(results, trained_at=T, delay=100) for T in ensembles.DELAYS}
for T, scores in at_100.items():
    print(
        f"trained at T = {T:>3}, scored at T = 100: " + ", ".join(f"{k} {a:.2f}" for k, a in scores.items())
    )
assert min(at_100[10]["LSTM, forget bias +3"], at_100[30]["LSTM, forget bias +3"]) > 0.8  # keeps x_0
assert at_100[100]["LSTM, forget bias +3"] < 0.25  # the one trained at T = 100 did not learn

# %% [markdown]
# The $+3$ LSTM trained at $T = 10$ or $30$ answers at $T = 100$ about as well as it does where it was trained
# (1.00 and 0.99 in the committed run), while the one trained at $T = 100$ is at chance. So an LSTM of this size
# does carry $x_0$ over 100 steps, and 200 Adam steps found such weights, at a short delay. What failed at
# $T = 100$ is *finding* them: optimisation, not memory. (This is generalisation to a longer delay than the one trained on:
# nothing here was trained from short delays to long ones. Doing that, a curriculum from easy to hard examples
# (Bengio, Louradour, Collobert & Weston 2009), is the natural next step.)
#
# Why is $T = 100$ so much harder to learn from scratch? At initialisation, the gradient that reaches $x_0$
# along the cell state is scaled by $\prod_t f_t$ (notebook 03). With forget gates at their initial values:

# %%
for bias in (0.0, 3.0):
    f = torch.sigmoid(torch.tensor(bias)).item()
    print(
        f"forget bias {bias:+.0f}: f = {f:.3f}; f^10 = {f**10:.2g}, f^30 = {f**30:.2g}, f^100 = {f**100:.2g}"
    )

# %% [markdown]
# With $f = \sigma(\text{bias})$, ignoring what the inputs add to the gate, the default bias scales the signal from
# $x_0$ by about $10^{-3}$ after 10 steps and $10^{-30}$ after 100: after 100 steps there is nothing to learn
# from. With bias $+3$ it is still about $0.6$ after 10 steps and $0.2$ after 30, which is why those delays were
# learned, but about $0.008$ after 100. **Open question**, not tested here (a
# longer run does not fit this notebook's time): would more Adam steps at $T = 100$ find the weights from
# scratch, or is a signal scaled by $0.008$ too weak to start from? Exercise 3 tests it. The attention model
# needs neither, because its path from $x_0$ to the answer has length 1.
#
# At initialisation, it is the forget gate that shrinks the signal. The original LSTM (Hochreiter & Schmidhuber 1997)
# had **no forget gate**: its cell state $c_t = c_{t-1} + i_t \odot g_t$ carried the error back unchanged (their
# "constant error carousel", as if $f = 1$ always), and it bridged lags of more than 1000 steps on synthetic
# tasks. The forget gate was added later (Gers, Schmidhuber & Cummins 2000) so that a cell can reset; PyTorch's
# LSTM has it, and its default initialisation starts it half closed ($f \approx 0.5$). A forget bias of $+3$
# moves the cell back towards the 1997 design ($f \approx 0.95$).
#
# Two different failures hide behind the word "forgets", and this task isolates the first:
# 1. **Optimisation** (this notebook): the gradient that would teach the model to keep $x_0$ is too weak.
# 2. **Capacity** (notebook 03): a state of $d$ numbers cannot hold everything about a long history. Recalling
#    *one* token of 3 bits needs almost no capacity, so capacity is not what failed here: the same LSTM, trained
#    at $T = 10$, holds it for 100 steps.

# %% [markdown]
# ## Verdict
#
# **C3 (LSTMs still forget): mostly right, as in notebook 03, with a correction.** Within the same budget both LSTMs fail at
# $T = 100$ while attention succeeds. But the failure is one of *optimisation*, it depends strongly on the
# forget-gate initialisation (the $+3$ LSTM learns $T = 30$ perfectly, the default one only partly learns
# $T = 10$), and it is not a fixed limit: the $+3$ LSTM trained at $T = 10$ answers at $T = 100$ unchanged, and the
# original LSTM, which had no forget gate, bridged lags of more than 1000 steps (Hochreiter & Schmidhuber 1997).
# "A few hundred tokens" is a statement about typical training, not about the architecture.
#
# **C5 (constant path length makes long contexts easy): wrong as stated (notebook 04), but its weak form is
# supported here.** A path of
# length 1 from $x_0$ to the answer let attention reach the same accuracy at $T = 100$ as at $T = 10$ within the
# same 200 steps, *if* it has positional information, though at $T = 100$ it first stayed at chance for a few
# dozen steps (the learning curve above); without it, attention is bounded by the order-blind ceiling (near it
# at $T = 10$ and $30$).
# This task has a single, sharp target; notebook 04 showed that when attention is spread over $N$ tokens the gradient to each one is diluted
# about $1/N$, and "millions of tokens easily" is not what this or any experiment here shows.

# %% [markdown]
# ## Summary
#
# * Recall-the-first-token isolates memory over a chosen distance $T$; distractors from the same vocabulary
#   make position the only reliable clue (without it, the token counts are worth at most the order-blind
#   ceiling: 0.302, 0.224, 0.177 at $T = 10$, 30, 100).
# * Same budget, same data: attention with positions was perfect at every delay; the LSTM with forget bias
#   $+3$ reached $T = 30$ but not $T = 100$; the default LSTM and the tanh RNN were near chance beyond $T = 10$.
# * Attention without positions is order-blind: it can do no better than "answer the commonest token before the
#   query" (0.302, 0.224, 0.177 at $T = 10, 30, 100$, computed exactly), and it never scored above that.
# * At initialisation the cell-state gradient is scaled by $f^T$: $0.5^{100} \approx 10^{-30}$ with the default
#   bias. The LSTM failed to *optimise*, not to remember: the $+3$ LSTM trained at $T = 10$ answers at $T = 100$
#   with no further training. The 1997 LSTM had no forget gate ($f = 1$); the gate came in 2000.

# %% [markdown]
# ## Exercises
#
# **1. The order-blind guess.** Write `most_frequent_token(x)`: for a batch of sequences `x` (shape `(B, L)`,
# integer tokens 0-7), return the commonest token of each row, shape `(B,)`, ties going to the smallest token.
# (`torch.bincount` works on one row; for all rows at once, try `torch.nn.functional.one_hot`.)


# %%
def most_frequent_token(x):
    raise NotImplementedError


helpers.check("most_frequent_token", most_frequent_token)

# %% [markdown]
# **2. The ceiling with two tokens.** At $T = 2$ the sequence is $x_0, x_1, x_2$: an order-blind model answering
# at $x_2$ sees $x_2$ and the bag $\{x_0, x_1\}$ of the two tokens before it. What accuracy does the best
# order-blind guess reach? Give an exact number. (Hint: how often are the two tokens equal?)

# %%
answer = None
helpers.check("order_blind_two_tokens", answer)

# %% [markdown]
# **3. (Open.)** Answer the open question of the caveat: train the two LSTMs at $T = 100$ alone for three times
# the steps, `nb.train((100,), ensembles.Budget(steps=600), seed=0, kinds=("LSTM", "LSTM, forget bias +3"))`
# (one to a few minutes, depending on the machine). Does the $+3$ LSTM learn $T = 100$ from scratch? Does the default one learn
# anything? Then, with the default budget, try `seed=1` and `seed=2` for all fifteen models: which results
# change and which do not? Does the $+3$ LSTM trained at $T = 10$ still answer at $T = 100$
# (`ensembles.score_at_delay`)?
#
# ## Further reading
#
# * Hochreiter, S. & Schmidhuber, J. (1997). Long short-term memory. *Neural Computation*, 9(8), 1735-1780.
#   (The LSTM, without a forget gate, and its experiments on lags of 1000 steps.)
# * Gers, F. A., Schmidhuber, J. & Cummins, F. (2000). Learning to forget: continual prediction with LSTM.
#   *Neural Computation*, 12(10), 2451-2471. (The forget gate.)
# * Bengio, Y., Louradour, J., Collobert, R. & Weston, J. (2009). Curriculum learning. *ICML*.
# * Jozefowicz, R., Zaremba, W. & Sutskever, I. (2015). An empirical exploration of recurrent network
#   architectures. *ICML*. (The forget-gate bias of 1.)
# * Khandelwal, U., He, H., Qi, P. & Jurafsky, D. (2018). Sharp nearby, fuzzy far away: how neural language
#   models use context. *ACL*. arXiv:1805.04623. (LSTM language models use about 200 tokens of context.)
# * Haviv, A., Ram, O., Press, O., Izsak, P. & Levy, O. (2022). Transformer language models without positional
#   encodings still learn positional information. *Findings of EMNLP*. arXiv:2203.16634.
#
# Next: [08 · The verdict](08_verdict.ipynb).
