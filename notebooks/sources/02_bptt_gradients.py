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
# # 02 · BPTT and the gradient product
#
# 🌐 **English** · [Italiano](it/02_bptt_gradients.ipynb) · [Русский](ru/02_bptt_gradients.ipynb) · [فارسی](fa/02_bptt_gradients.ipynb) · [Español](es/02_bptt_gradients.ipynb)
#
# [![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/why-transformers/why-transformers/blob/main/notebooks/02_bptt_gradients.ipynb)
#
# **The question:** a gradient travels $T$ steps back through an RNN; when does it shrink to nothing, and
# when does it blow up?
#
# **You will learn**
# * to write the Jacobian of one RNN step and multiply $T$ of them, checked against `torch.autograd`;
# * that a largest *singular value* below 1 guarantees vanishing, and what the *eigenvalue* really sets;
# * why a $\tanh$ RNN with inputs of unit size vanishes even when its eigenvalue is 1.1;
# * why clipping tames exploding gradients, and nothing as simple fixes vanishing ones.
#
# **The article's claim this notebook tests (C2)**, translated from the article:
#
# > *"As the sequence length $N$ increases, backpropagation through time (BPTT) requires repeated
# > multiplication of matrices with the recurrent weight $W_{hh}$. If the largest eigenvalue of $W_{hh}$
# > is less than 1, the gradients shrink exponentially (vanishing gradients). If it is greater than 1,
# > they grow exponentially (exploding gradients)."*
# >
# > $$\frac{\partial E_t}{\partial h_1} = \frac{\partial E_t}{\partial h_t} \prod_{k=2}^{t} \frac{\partial h_k}{\partial h_{k-1}}$$

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
from torch.testing import assert_close

import helpers
from helpers import jacobians
from helpers.course.tables import Table
from helpers.notebooks import nb02_bptt_gradients as nb
from helpers.spectra import largest_singular_value

helpers.use_style()  # the course's figure style; a returned figure shows as a PNG
generator = helpers.set_seed(2)

# %% [markdown]
# ## One Jacobian per step
#
# **Backpropagation through time multiplies one Jacobian per step.**
#
# The step of notebook 01 is $h_k = \tanh(z_k)$ with $z_k = W_{hh} h_{k-1} + W_{xh} x_k + b$. The
# derivative of $h_k$ with respect to $h_{k-1}$ is a $d \times d$ matrix, the step Jacobian:
#
# $$J_k = \frac{\partial h_k}{\partial h_{k-1}} = \mathrm{diag}\big(\tanh'(z_k)\big)\, W_{hh}
#       = \mathrm{diag}\big(1 - h_k^2\big)\, W_{hh},$$
#
# because $\tanh' = 1 - \tanh^2$. Row $i$ of $W_{hh}$ is scaled by how steep unit $i$'s $\tanh$ was. By
# the chain rule, the gradient from step $T$ back to step $0$ is the product
#
# $$\frac{\partial h_T}{\partial h_0} = J_T\, J_{T-1} \cdots J_1 .$$
#
# This is the article's product, and it is right. The newest Jacobian stands on the left. $T$, the number of
# steps back, plays the role of the article's $N$.
#
# **Why it matters for training.** A loss $E$ measured at step $T$ reaches an early state only through this
# product: $\partial E/\partial h_0 = (\partial E/\partial h_T)\,\partial h_T/\partial h_0$. If the
# product fades, what the weights could learn from early steps fades with it (*Going further* derives the
# weight gradient).

# %% [markdown]
# The loop below is the whole computation: a small $\tanh$ RNN ($d = 4$, $T = 10$), one $J_k$ per step,
# each multiplied on the left.

# %%
d, T = 4, 10
W = helpers.matrix_with_spectral_radius(d, 1.0, generator=generator).double()  # a random W_hh, (d, d)
W_xh, x = torch.randn(d, d, generator=generator).double(), torch.randn(T, d, generator=generator).double()
h0 = torch.randn(d, generator=generator).double()
H = jacobians.hidden_states(W, T, x=x, W_xh=W_xh, h0=h0)  # h_1 .. h_T, (T, d)

product, loop_norms = torch.eye(d, dtype=torch.float64), []  # dh_0/dh_0 = I
for k in range(T):
    J_k = torch.diag(1 - H[k] ** 2) @ W  # diag(tanh'(z_k)) W_hh, (d, d)
    product = J_k @ product  # J_k J_{k-1} ... J_1: the newest factor on the left
    loop_norms.append(torch.linalg.matrix_norm(product, ord=2))  # ||dh_k/dh_0||_2

# %% [markdown]
# `torch.autograd` knows nothing of our formula, and must agree. So must the two helpers used from here on:
# `jacobians.jacobian_product` and `jacobians.jacobian_norms` (the norm at every $k$).

# %%
final_state = lambda h: jacobians.hidden_states(W, T, x=x, W_xh=W_xh, h0=h)[-1]  # h_0 -> h_T
autograd = torch.autograd.functional.jacobian(final_state, h0)  # autograd's dh_T/dh_0, (d, d)
helper_product = jacobians.jacobian_product(W, T, x=x, W_xh=W_xh, h0=h0)
helper_norms = jacobians.jacobian_norms(W, T, x=x, W_xh=W_xh, h0=h0)  # (T,)
assert_close(product, autograd)
assert_close(product, helper_product)
assert_close(torch.stack(loop_norms), helper_norms)
same = lambda a, b: torch.allclose(a, b, rtol=1e-10, atol=1e-12)
print("the loop's product equals autograd's Jacobian:", same(product, autograd))
print(
    "and the helpers' product and norms:",
    same(product, helper_product),
    same(torch.stack(loop_norms), helper_norms),
)

# %% [markdown]
# ## Linear RNN: the article's rule, exactly
#
# **Without the $\tanh$, and with an orthogonal $W_{hh}$, the article's rule is exact.**
#
# Two numbers measure a square matrix $W$:
#
# * its **spectral radius** $\rho(W) = \max_i |\lambda_i|$, the largest modulus of its eigenvalues: the
#   article's "largest eigenvalue";
# * its **spectral norm** $\sigma_{\max}(W) = \|W\|_2$, its largest singular value: the most $W$ can
#   stretch a vector.
#
# Drop the $\tanh$ and every $J_k$ is $W_{hh}$, so $\partial h_T/\partial h_0 = W_{hh}^{\,T}$, a matrix
# power. Take $W_{hh} = \rho\,Q$ with $Q$ orthogonal, a rotation that keeps every length ($d = 64$): all
# its eigenvalues and singular values have size $\rho$, so $\|W_{hh}^{\,T}\|_2 = \rho^T$.
# `nb.gradient_norms` returns these norms.

# %%
for rho in (0.9, 1.0, 1.1):
    norms = nb.gradient_norms(rho, 200, d=64, kind="orthogonal", nonlinearity="linear")  # (200,)
    # norms[T - 1] is ||dh_T/dh_0||, so norms[49] is T = 50
    print(
        f"rho = {rho}:  T=50: {norms[49]:.2g}  (rho^50 = {rho**50:.2g})    "
        f"T=200: {norms[199]:.2g}  (rho^200 = {rho**200:.2g})"
    )

# %% [markdown]
# Every norm equals $\rho^T$, as the article says, *for this matrix*. The figure adds a Gaussian $W_{hh}$
# (random entries, rescaled to the same $\rho$; dashed) and, on the right, the $\tanh$. Its inputs have
# unit size: $x_t \sim \mathcal N(0, I)$, $W_{xh} = I$.

# %%
nb.plot_gradient_norm_grid(T=200)

# %% [markdown]
# Two things do not fit the article's rule:
#
# * **Left, dashed:** the Gaussian matrices first *grow*, even with $\rho = 0.9$, and only later follow
#   $\rho^T$.
# * **Right:** with the $\tanh$, every curve vanishes, even at $\rho = 1.1$.
#
# The next sections explain both.

# %% [markdown]
# ## A sufficient condition: the largest singular value
#
# **For a $\tanh$ RNN, $\sigma_{\max}(W_{hh}) < 1$ guarantees vanishing; $\sigma_{\max} > 1$ is necessary,
# not sufficient, for exploding.**
#
# The norm of a product is at most the product of the norms, and a diagonal matrix stretches a vector by at
# most its largest entry. With $\gamma = \max|\tanh'| = 1$ (it is $\tfrac14$ for the sigmoid),
#
# $$\|J_k\|_2 \le \gamma\,\sigma_{\max}(W_{hh}), \qquad
#   \Big\|\frac{\partial h_T}{\partial h_0}\Big\|_2 \le \big(\gamma\,\sigma_{\max}\big)^T .$$
#
# This is the statement of Pascanu, Mikolov & Bengio (2013). Below 1, the bound goes to 0. Above 1, it
# allows growth but does not force it. A *normal* matrix ($WW^\top = W^\top W$, e.g. orthogonal) has
# $\sigma_{\max} = \rho$. A Gaussian one does not:

# %%
for rho in (0.9, 1.0, 1.1):
    Wg = nb.recurrent_matrix(rho, kind="gaussian")  # the matrix gradient_norms builds (seed 0)
    norms = nb.gradient_norms(rho, 200, kind="gaussian", nonlinearity="linear")
    peak = int(norms.argmax()) + 1
    print(
        f"rho = {rho}: sigma_max = {largest_singular_value(Wg):.2f};  ||W^k|| peaks at {norms.max():.3g} "
        f"(k = {peak}), is {norms[49]:.2g} at k = 50 and {norms[199]:.2g} at k = 200"
    )

# %% [markdown]
# With $\rho = 0.9$, $\sigma_{\max} \approx 1.64$: the gradient grows to about 1.67, then vanishes.
#
# **A sanity check, not evidence.** The bound follows from the norms of the factors, so it cannot fail. The
# cell checks it anyway and prints it beside the measured value:

# %%
worst, measured = {"linear": 0.0, "tanh": 0.0}, {}  # worst: the largest ||dh_k/dh_0|| / sigma_max^k
for rho in (0.9, 1.0, 1.1):
    sigma = largest_singular_value(nb.recurrent_matrix(rho, kind="gaussian"))
    bound = sigma ** torch.arange(1, 201, dtype=torch.float64)  # sigma_max^k, k = 1..200 (gamma = 1)
    for nl in worst:  # the linear RNN, and the tanh RNN of the figure (unit inputs)
        measured[nl] = nb.gradient_norms(rho, 200, kind="gaussian", nonlinearity=nl)  # (200,)
        worst[nl] = max(worst[nl], (measured[nl] / bound).max().item())
    print(
        f"rho = {rho}: bound {sigma:.2f}^200 = {bound[-1]:.1e};  measured at k = 200: "
        f"linear {measured['linear'][-1]:.1e}, tanh {measured['tanh'][-1]:.1e}"
    )
assert max(worst.values()) <= 1 + 1e-9, "a norm above sigma_max^k: the bound would be broken"
print(f"largest ||dh_k/dh_0|| / sigma_max^k: linear {worst['linear']:.2f}, tanh {worst['tanh']:.2f}")

# %% [markdown]
# The bound holds, as it must, but for $\rho = 0.9$ it allows about $10^{43}$ where the gradient is about
# $10^{-9}$. For a non-normal $W_{hh}$ it is true and says nothing.

# %% [markdown]
# ## The long-run rate: the eigenvalue, then the Lyapunov exponent
#
# **The exact long-run rate is $\rho$ for a linear RNN, and the Lyapunov exponent for a $\tanh$ RNN.**
#
# Gelfand's formula says that for any matrix $\|W^k\|^{1/k} \to \rho(W)$ as $k \to \infty$. So in the long
# run a linear RNN's gradient grows or shrinks like $\rho^k$, whatever happens first. For the Gaussian
# $W_{hh}$ with $\rho = 0.9$:

# %%
Wg = nb.recurrent_matrix(0.9, kind="gaussian").double()  # the Gaussian W_hh above, rho = 0.9
for k in (1, 10, 100, 1000):
    rate = torch.linalg.matrix_norm(torch.linalg.matrix_power(Wg, k), ord=2).item() ** (1 / k)
    print(f"k = {k:4d}: ||W^k||^(1/k) = {rate:.4f}")
print(f"spectral radius rho = {helpers.spectral_radius(Wg):.4f}")

# %% [markdown]
# The rate per step starts at $\sigma_{\max}$ and approaches $\rho = 0.9$.
#
# With the $\tanh$, the factors $J_k$ change from step to step, so no single $\rho$ gives the rate. The
# long-run rate of such a product is its largest **Lyapunov exponent** $\mu$, the average log growth per
# step:
#
# $$\mu = \lim_{T\to\infty} \frac{1}{T}\,\log\big\|J_T J_{T-1} \cdots J_1\big\|.$$
#
# For a linear RNN, $\mu = \log\rho$. For a $\tanh$ RNN, $\mu$ depends on $W_{hh}$ *and* on the inputs. We
# measure it below as a slope.

# %% [markdown]
# ## The non-normal trap
#
# **A matrix whose eigenvalues are all 0.9 can still amplify a gradient for many steps.**
#
# Take
#
# $$W = \begin{pmatrix} 0.9 & 5 \\ 0 & 0.9 \end{pmatrix}, \qquad
#   W^k = \begin{pmatrix} 0.9^k & 5k\,0.9^{k-1} \\ 0 & 0.9^k \end{pmatrix}.$$
#
# Both eigenvalues are $0.9$, so by the article's rule gradients vanish. But the corner entry grows like
# $k\,0.9^{k-1}$ before it decays:

# %%
W_trap = torch.tensor([[0.9, 5.0], [0.0, 0.9]], dtype=torch.float64)
powers = jacobians.power_norms(W_trap, 80)  # ||W^k||, k = 0..80
print(f"rho = {helpers.spectral_radius(W_trap):.2f}, sigma_max = {largest_singular_value(W_trap):.2f}")
print(f"||W^5|| = {powers[5]:.1f};  largest ||W^k|| = {powers.max():.1f} at k = {int(powers.argmax())}")
print(f"||W^k|| first drops below 1 at k = {int((powers[1:] < 1).nonzero()[0]) + 1}")

# %% [markdown]
# With $\rho = 0.9$, the gradient is amplified about twentyfold at its peak, and stays above 1 for more
# than 50 steps.

# %%
nb.plot_non_normal(coupling=5.0, eigenvalue=0.9)

# %% [markdown]
# Move the **off-diagonal coupling** and the **eigenvalue λ (= ρ)**. With coupling 0 the matrix is normal
# and $\|W^k\| = \lambda^k$ exactly.

# %%
nb.explore_non_normal()

# %% [markdown]
# ## $\tanh$ saturation: why $\rho = 1.1$ vanishes
#
# **Inputs of unit size push the units onto the flat parts of the $\tanh$, and the product shrinks even
# when $\rho > 1$.**
#
# Each $J_k$ carries $\mathrm{diag}(1 - h_k^2)$: the identity near $h = 0$, small far from it. The cell fits
# the slope of $\log\|\partial h_T/\partial h_0\|$ per step over $T = 50, \dots, 200$: $\log\rho$ for the
# linear RNN, $\mu$ for the $\tanh$ RNN.

# %%
x_unit, W_in = nb.random_inputs(200, 64)  # the inputs gradient_norms uses: unit size, (200, 64)
for rho in (0.9, 1.0, 1.1):
    H = jacobians.hidden_states(nb.recurrent_matrix(rho), 200, x=x_unit, W_xh=W_in)  # h_1..h_200, (200, 64)
    slope = {  # of log||dh_T/dh_0|| against T = 50..200, per step
        nl: jacobians.log_growth_rate(nb.gradient_norms(rho, 200, nonlinearity=nl), first=50)
        for nl in ("linear", "tanh")
    }
    print(
        f"rho = {rho}: log rho = {math.log(rho):+.3f};  slope: linear {slope['linear']:+.3f}, tanh mu = "
        f"{slope['tanh']:+.2f} (e^mu = {math.exp(slope['tanh']):.2f});  mean tanh' = {(1 - H**2).mean():.2f}"
    )

# %% [markdown]
# The linear slope is $\log\rho$. The $\tanh$ RNN's $\mu$ is negative for all three: a factor $e^{\mu}$ of
# about 0.57, 0.63 and 0.68 per step. The average $\tanh'$ is about 0.5.
#
# **The input scale decides.** Multiply the inputs by $s$. Small inputs keep the units near 0, where $\tanh$
# is nearly linear; large ones saturate them.

# %%
rows = []
for rho in (0.9, 1.1):
    for scale in (0.01, 0.1, 1.0, 3.0):
        x_s, W_in = nb.random_inputs(200, 64, scale=scale)  # (200, 64)
        H = jacobians.hidden_states(nb.recurrent_matrix(rho), 200, x=x_s, W_xh=W_in)  # (200, 64)
        norms = nb.gradient_norms(rho, 200, nonlinearity="tanh", input_scale=scale)  # (200,)
        rate = math.exp(jacobians.log_growth_rate(norms, first=50))
        mean_slope, norm_T = (1 - H**2).mean(), norms[-1]
        rows.append([rho, scale, f"{mean_slope:.2f}", f"{norm_T:.1g}", f"{rho**200:.1g}", f"{rate:.2f}"])
Table(["rho", "input scale", "mean tanh'", "||dh_200/dh_0||", "rho^200", "rate e^mu"], rows)

# %% [markdown]
# * $\rho = 0.9$: at input scale 0.01 the $\tanh$ RNN decays at 0.90 per step, like $\rho^T$; at scale 3,
#   at 0.36.
# * $\rho = 1.1$: at scale 0.01 the gradient still grows, at 1.01 per step; from scale 0.1 on it vanishes.
#
# One spectral radius, $d = 32$, with $\rho^T$ as a thick line:

# %%
nb.plot_gradient_norms(rho=1.1, seq_len=200)

# %% [markdown]
# Move the **spectral radius ρ**, the **sequence length** and the **input scale** ($d = 32$ here). Values past
# float64's range are drawn as red triangles; a curve that underflows to 0 stops.

# %%
nb.explore_gradient_norms()

# %% [markdown]
# ## Exploding gradients: clipping caps the step
#
# **Clipping rescales an exploding gradient to a fixed norm and keeps its direction.**
#
# If $\|g\| > c$, replace $g$ by $c\,g/\|g\|$ (Pascanu et al. 2013); in PyTorch,
# `torch.nn.utils.clip_grad_norm_`. A linear RNN with $\rho = 1.1$ over 200 steps:

# %%
W_rec = (
    helpers.matrix_with_spectral_radius(16, 1.1, kind="orthogonal", generator=generator)
    .double()
    .requires_grad_()
)
inputs = torch.randn(200, 16, generator=generator).double()
h = torch.zeros(16, dtype=torch.float64)
for x_t in inputs:
    h = W_rec @ h + x_t  # linear: nothing saturates
h.sum().backward()
raw = W_rec.grad.clone()
before = torch.nn.utils.clip_grad_norm_([W_rec], max_norm=1.0)  # rescales W_rec.grad in place
print(f"gradient norm before clipping: {before:.2e};  after: {W_rec.grad.norm():.3f}")
print("same direction:", torch.allclose(W_rec.grad / W_rec.grad.norm(), raw / raw.norm()))

# %% [markdown]
# The norm becomes `max_norm`; the step still goes downhill. The call goes between `loss.backward()` and
# `optimizer.step()`. It caps a step but does not remove the cause: the next backward pass explodes again.

# %% [markdown]
# ## Vanishing gradients have no such fix
#
# **A vanishing gradient cannot be scaled back up, because only its far-back part vanishes.**
#
# The loss at step $T$ gets a contribution from every earlier input. Here is $\|\partial L/\partial x_t\|$
# for a $\tanh$ RNN ($\rho = 0.9$, unit inputs, $L = \sum h_{100}$):

# %%
W_tanh = helpers.matrix_with_spectral_radius(16, 0.9, kind="orthogonal", generator=generator)
grads = nb.input_gradient_norms(W_tanh, 100)  # ||dL/dx_t||, t = 1..100
print(
    f"from the last input: {grads[-1]:.2g};  from the first: {grads[0]:.2g};  ratio {grads[0] / grads[-1]:.1g}"
)

# %% [markdown]
# The first input moves the loss about $3\times10^{-27}$ times as much as the last. Scaling the gradient up
# scales both: the ratio stays. A fix needs a path that is not a long product of shrinking factors: the
# LSTM's cell state (notebook 03), or attention's one step from $T$ back to 1 (notebook 04).

# %% [markdown]
# ## Verdict
#
# **C2: the mechanism is right; the eigenvalue rule is a simplification.**
#
# * Right: BPTT multiplies the step Jacobians (the loop equals autograd), and the product shrinks or grows
#   exponentially in $T$. For a linear RNN with orthogonal $W_{hh}$ the eigenvalue rule is exact.
# * The condition that holds is a sufficient one: $\sigma_{\max} < 1$ guarantees vanishing; $\sigma_{\max} > 1$
#   is necessary, not sufficient, for exploding (Pascanu et al. 2013).
# * The exact long-run rate is $\rho$ for a linear RNN and the Lyapunov exponent for a $\tanh$ RNN, which
#   depends on the inputs: with inputs of unit size even $\rho = 1.1$ vanishes.
# * Vanishing is the hard failure: clipping caps an exploding step in one line.

# %% [markdown]
# ## Takeaways
#
# * The gradient through $T$ steps of an RNN is a product of $T$ Jacobians, one per step.
# * A largest singular value below 1 guarantees vanishing; the eigenvalue only gives a linear RNN's rate in
#   the long run.
# * A saturated $\tanh$ makes gradients vanish even when the eigenvalue is above 1, and vanishing, unlike
#   exploding, has no one-line fix.

# %% [markdown]
# ## Exercises
#
# **1. Predict, then move the widget.** In the non-normal trap, the hump of $\|W^k\|$ for eigenvalue 0.9 and
# coupling 5 peaks at $k = 9$. At which power $k$ does it peak for eigenvalue **0.85** (coupling 5)? Predict
# it on paper first, from the formula for $W^k$. Then set the eigenvalue slider to 0.85: the title says
# where the hump peaks.

# %%
answer = None  # an integer k
helpers.check("non_normal_peak", answer)

# %% [markdown]
# **2. A sigmoid RNN.** A recurrence $h_k = \sigma(W_{hh} h_{k-1} + W_{xh} x_k)$, with the logistic sigmoid
# $\sigma$, has $\sigma_{\max}(W_{hh}) = 3$. Is vanishing guaranteed? Give the bound that the inequality of
# this notebook gives for $\|\partial h_{20}/\partial h_0\|_2$ (a Python expression is fine).

# %%
answer = None
helpers.check("sigmoid_bound", answer)

# %% [markdown]
# **3. A residual step.** Add the old state back: $h_k = h_{k-1} + \tanh(W_{hh} h_{k-1} + W_{xh} x_k)$.
# Given $u_k = \tanh(W_{hh} h_{k-1} + W_{xh} x_k)$ $(d,)$ and $W_{hh}$ $(d, d)$, return this step's Jacobian
# $\partial h_k/\partial h_{k-1}$ $(d, d)$. Then think: what does it look like when the $\tanh$ saturates?


# %%
def my_residual_step_jacobian(u_k, W_hh):
    raise NotImplementedError


helpers.check("residual_step_jacobian", my_residual_step_jacobian)

# %% [markdown]
# Stuck? A wrong answer prints a hint, and `helpers.hint("non_normal_peak")` prints it at once;
# `helpers.solution("non_normal_peak")` prints a worked answer. The same works for the others.

# %% [markdown]
# ## Going further
#
# ### From the article's formula to ours
#
# *What it adds: why the notebook studies $\partial h_T/\partial h_0$ and not the article's
# $\partial E_t/\partial h_1$.*
#
# The article starts at $h_1$ and puts a loss $E_t$ at the end:
# $\partial E_t/\partial h_1 = \frac{\partial E_t}{\partial h_t}\, J_t \cdots J_2$. The first factor does not
# depend on how far back we go, so we study the product alone, from $h_0$. The hidden size is $d = d_h$.
# Notebooks 04, 06 and 08 write $N$ again for the sequence length.

# %% [markdown]
# ### When the Lyapunov exponent exists
#
# *What it adds: the theorem behind $\mu$, and why it applies to the $\tanh$ RNN here.*
#
# The limit $\mu$ exists, and is the same for almost every run, when the factors $J_k$ come from a stationary
# *ergodic* random process with $\mathbb{E}\log^+\|J_k\| < \infty$ (Furstenberg & Kesten 1960). Oseledets
# (1968), the multiplicative ergodic theorem, gives the whole spectrum of exponents; for RNNs see Engelken,
# Wolf & Abbott (2023). Here $\|J_k\| \le \|W_{hh}\|$, so the second condition holds. The slope the notebook
# fits over $T = 50, \dots, 200$ is an estimate of $\mu$ from one finite run.

# %% [markdown]
# ### Why $\rho = 1.1$ still grows at input scale 0.01
#
# *What it adds: what the table's one growing $\tanh$ row means.*
#
# With $\rho = 1.1$ the zero state is unstable, so even inputs of size 0.01 let the hidden state grow by
# itself, until the $\tanh$ bends enough (a mean slope of 0.92) to hold the gradient's rate near 1.01 per
# step. The gradient still grows, but only to about $10^{2}$ at $T = 200$, far below
# $1.1^{200} \approx 2\times10^{8}$. Larger inputs bend the $\tanh$ further: a mean slope of 0.88 at size 0.1,
# 0.52 at size 1, and the gradient vanishes.

# %% [markdown]
# ### Why float64
#
# *What it adds: why every norm here is computed in float64, and what float32 would report.*
#
# These products leave the range of float32 quickly. The cell prints the smallest positive normal number
# of float32 and of float64, and the smallest float32 subnormal (below the normals, with fewer digits; below
# it, zero). Then it multiplies out $W^{200}$ for $W = 0.5\,I$ (true norm $0.5^{200}$) in each:

# %%
print(
    f"smallest normal float32: {torch.finfo(torch.float32).smallest_normal:.1e},  "
    f"float64: {torch.finfo(torch.float64).smallest_normal:.1e};  "
    f"smallest float32 subnormal: {torch.nextafter(torch.tensor(0.0), torch.tensor(1.0)):.1e}"
)
print(f"true norm 0.5^200 = {0.5**200:.1e}")
W_half = 0.5 * torch.eye(8)
for dtype in (torch.float32, torch.float64):
    print(f"||W^200|| multiplied out in {dtype}: {jacobians.naive_product_norm(W_half, 200, dtype):.2g}")

# %% [markdown]
# $0.5^{200} \approx 6\times10^{-61}$ lies far below float32's smallest subnormal, about $10^{-45}$ (its
# normals end near $10^{-38}$), and well inside float64's range, which goes to about $10^{-308}$. float32
# returns exactly 0: the gradient has not become small, it has become *unmeasurable*. That is why
# every norm in this notebook is float64, and why `helpers.jacobian_norms` also keeps the product
# normalised and tracks its scale as a logarithm: past float64's range it reports `inf` (overflow) or 0,
# never NaN.

# %% [markdown]
# ### The weight gradient, step by step
#
# *What it adds: the same vanishing seen in what training uses, the gradient of $W_{hh}$, where the early
# steps are lost to rounding.*
#
# $W_{hh}$ acts at every step, so $\partial L/\partial W_{hh}$ is a sum of one term per step,
# $\sum_k \delta_k h_{k-1}^\top$ with $\delta_k = \partial L/\partial z_k$
# (`jacobians.weight_gradient_by_step`; the terms must add up to autograd's gradient). The terms of the
# first 10 steps carry what the early inputs can teach the weights. How much of the sum are they, and does
# adding them to the other 90 change the sum at all?

# %%
x_in, W_in = nb.random_inputs(100, 16)  # the inputs input_gradient_norms used, (100, 16)
terms = jacobians.weight_gradient_by_step(W_tanh, x_in, W_in)  # (100, 16, 16): step k's term
W_shared = W_tanh.double().requires_grad_()
jacobians.hidden_states(W_shared, 100, x=x_in, W_xh=W_in)[-1].sum().backward()  # L = sum(h_100)
assert_close(terms.sum(0), W_shared.grad)  # the 100 terms add up to autograd's dL/dW_hh
early, late = terms[:10].sum(0), terms[10:].sum(0)  # steps 1-10, steps 11-100
print(f"||early|| / ||dL/dW_hh|| = {early.norm() / terms.sum(0).norm():.0e}")
for dtype in (torch.float32, torch.float64):
    changed = not torch.equal(late.to(dtype) + early.to(dtype), late.to(dtype))
    eps = torch.finfo(dtype).eps  # the smallest relative difference dtype resolves near 1
    print(f"adding the first 10 steps' terms in {dtype} (eps {eps:.0e}) changes the sum: {changed}")

# %% [markdown]
# The first 10 steps make up about $2\times10^{-24}$ of the weight gradient. Float32 resolves relative
# differences of about $10^{-7}$ and float64 about $2\times10^{-16}$, so in both adding them changes not one
# bit: the early steps are lost to rounding beside the late steps' terms of order one. Scaling the gradient
# (up, or down as clipping does) multiplies every term by the same number and leaves this share as it is.

# %% [markdown]
# ### More ways to fight vanishing
#
# *What it adds: the fixes the literature tried, beyond the two the core names.*
#
# Clipping handles exploding gradients only: a gradient whose norm is below $c$ is left as it is, and one
# above $c$ is scaled as a whole, so a vanishing part stays vanishing. Fixing vanishing needs a path along
# which the gradient is not a long product of shrinking factors: steps whose Jacobian stays near the identity
# (the LSTM's additive cell state while its forget gate stays open, notebook 03; skip connections), steps that
# keep the norm (an orthogonal recurrence without a saturating nonlinearity, like the linear one with
# $\rho = 1$ above), or a short path (attention links step $T$ to step 1 in one step, notebook 04, which also
# shows that diffuse attention dilutes that one step's gradient, about $1/N$ per token). Or it needs a
# regulariser or an initialisation that keeps the gradient's norm from shrinking step by step. Pascanu et al.
# proposed a regulariser that penalises any change of the back-propagated gradient's norm from one step to the
# next (their section 3.3); Le, Jaitly & Hinton (2015) started ReLU RNNs from the identity. A better optimiser
# helps too: Hessian-free training (Martens & Sutskever 2011) trained RNNs on long-range tasks that had
# defeated gradient descent.

# %% [markdown]
# ## Further reading
#
# * Bengio, Y., Simard, P. & Frasconi, P. (1994). Learning long-term dependencies with gradient descent is
#   difficult. *IEEE Transactions on Neural Networks*, 5(2), 157-166. (Vanishing gradients, first analysed.)
# * Pascanu, R., Mikolov, T. & Bengio, Y. (2013). On the difficulty of training recurrent neural networks.
#   *ICML*. arXiv:1211.5063. (The singular-value condition, clipping, and the regulariser.)
# * Furstenberg, H. & Kesten, H. (1960). Products of random matrices. *Annals of Mathematical Statistics*,
#   31(2), 457-469. (When the Lyapunov exponent exists.)
# * Oseledets, V. I. (1968). A multiplicative ergodic theorem. *Transactions of the Moscow Mathematical
#   Society*, 19, 197-231.
# * Engelken, R., Wolf, F. & Abbott, L. F. (2023). Lyapunov spectra of chaotic recurrent neural networks.
#   *Physical Review Research*, 5, 043044. arXiv:2006.02427.
# * Le, Q. V., Jaitly, N. & Hinton, G. E. (2015). A simple way to initialize recurrent networks of rectified
#   linear units. arXiv:1504.00941.
# * Martens, J. & Sutskever, I. (2011). Learning recurrent neural networks with Hessian-free optimization.
#   *ICML*.
#
# Next: [03 · LSTM gating](03_lstm_gating.ipynb).
