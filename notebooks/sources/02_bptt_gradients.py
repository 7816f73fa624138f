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
# **You will learn**
# * to write the Jacobian of one RNN step, $J_k = \mathrm{diag}(1 - h_k^2)\,W_{hh}$, and check the
#   product of many of them against `torch.autograd`;
# * how $\|\partial h_T / \partial h_0\|$ shrinks or grows with $T$, for linear and $\tanh$ RNNs, with
#   orthogonal and Gaussian $W_{hh}$;
# * the precise condition (largest *singular value* and the bound on $\tanh'$, Pascanu, Mikolov & Bengio
#   2013), why the *eigenvalue* only sets the long-run rate of a linear RNN (a Lyapunov exponent sets it
#   for a $\tanh$ RNN), and the non-normal trap;
# * how the size of the inputs decides whether the $\tanh$ saturates;
# * why gradients are computed in float64 here, what clipping does for exploding gradients (it caps the
#   step, it does not remove the cause), and why it does nothing for vanishing ones.
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
# Write the step of notebook 01 as $z_k = W_{hh} h_{k-1} + W_{xh} x_k + b$ and $h_k = \tanh(z_k)$. The
# derivative of $h_k$ with respect to $h_{k-1}$ is a $(d \times d)$ matrix ($d = d_h$, the hidden size),
# the step Jacobian:
#
# $$J_k = \frac{\partial h_k}{\partial h_{k-1}} = \mathrm{diag}\big(\tanh'(z_k)\big)\, W_{hh}
#       = \mathrm{diag}\big(1 - h_k^2\big)\, W_{hh},$$
#
# because $\tanh' = 1 - \tanh^2$. Row $i$ of $W_{hh}$ is scaled by how steep unit $i$'s $\tanh$ was. By
# the chain rule, the gradient from step $T$ back to step $0$ is the product
#
# $$\frac{\partial h_T}{\partial h_0} = J_T\, J_{T-1} \cdots J_1 .$$
#
# This is the article's formula, and it is right. The article starts at $h_1$ and puts a loss $E_t$ at the
# end: $\partial E_t/\partial h_1 = \frac{\partial E_t}{\partial h_t}\, J_t \cdots J_2$. The first factor
# does not depend on how far back we go, so we study the product alone, from $h_0$. Matrices do not
# commute, so the order matters: the latest Jacobian stands on the left. $T$, the number of steps the
# gradient travels back, plays the role of the article's sequence length $N$ (notebooks 04, 06 and 08
# write $N$ again).
#
# `jacobians.jacobian_product` multiplies the $J_k$ out; below it is checked against `torch.autograd`, which
# knows nothing of our formula (float64, $d = 4$, $T = 10$).

# %%
d, T = 4, 10
W = helpers.matrix_with_spectral_radius(d, 1.0, generator=generator).double()  # a random W_hh
W_xh, x = torch.randn(d, d, generator=generator).double(), torch.randn(T, d, generator=generator).double()
h0 = torch.randn(d, generator=generator).double()

ours = jacobians.jacobian_product(W, T, x=x, W_xh=W_xh, h0=h0)  # J_T ... J_1, (d, d)
final_state = lambda h: jacobians.hidden_states(W, T, x=x, W_xh=W_xh, h0=h)[-1]
theirs = torch.autograd.functional.jacobian(final_state, h0)  # autograd's dh_T/dh_0
assert_close(ours, theirs)
print("product of J_k equals autograd's Jacobian:", torch.allclose(ours, theirs, rtol=1e-10, atol=1e-12))

# %% [markdown]
# ## Linear RNN: the eigenvalue story, exactly
#
# Two numbers describe the size of a square matrix $W$ here:
#
# * its **spectral radius** $\rho(W) = \max_i |\lambda_i|$, the largest modulus of its eigenvalues (they can
#   be complex). This is what the article calls "the largest eigenvalue";
# * its **spectral norm** $\|W\|_2 = \sigma_{\max}(W)$, the largest singular value: the most $W$ can stretch
#   any vector, $\|Wv\| \le \|W\|_2 \|v\|$. We measure gradient products with it.
#
# Drop the $\tanh$ ($h_k = W_{hh}h_{k-1} + W_{xh}x_k$) and every $J_k$ is $W_{hh}$, so
# $\partial h_k/\partial h_0 = W_{hh}^{\,k}$, the $k$-th matrix power. (In this notebook a superscript on
# a matrix is always a power, $W^k = W W \cdots W$; a transpose is written $W^\top$.) Take
# $W_{hh} = \rho\,Q$ with $Q$ orthogonal ($d = 64$): all its eigenvalues have modulus $\rho$ *and* all its
# singular values equal $\rho$, so $\|W_{hh}^{\,k}\|_2 = \rho^k$ for every $k$.
# `nb.gradient_norms(rho, 200, ...)` builds such a $W_{hh}$ and returns $\|\partial h_T/\partial h_0\|_2$
# for every $T$ from 1 to 200, in float64 (why float64: see below).

# %%
for rho in (0.9, 1.0, 1.1):
    norms = nb.gradient_norms(rho, 200, d=64, kind="orthogonal", nonlinearity="linear")  # (200,)
    # norms[T - 1] is ||dh_T/dh_0||, so norms[49] is T = 50
    print(
        f"rho = {rho}:  T=50: {norms[49]:.2g}  (rho^50 = {rho**50:.2g})    "
        f"T=200: {norms[199]:.2g}  (rho^200 = {rho**200:.2g})"
    )

# %% [markdown]
# About $5\times10^{-3}$, $1$ and $1.2\times10^{2}$ at $T = 50$; about $7\times10^{-10}$, $1$ and
# $2\times10^{8}$ at $T = 200$. Exponential in $T$, exactly as the article says, *for this matrix*.
# Now the same three spectral radii with a Gaussian $W_{hh}$ (random normal entries, rescaled to the same
# $\rho$; dashed lines), and with the $\tanh$ put back, on the right. The $\tanh$ RNN needs inputs; we
# choose inputs of unit size ($x_t \sim \mathcal N(0, I)$, $W_{xh} = I$). That is a choice, and it matters:
# the section on $\tanh$ saturation below varies it.

# %%
nb.plot_gradient_norm_grid(T=200)

# %% [markdown]
# Two things do not fit the article's rule:
#
# * **Left, dashed:** the Gaussian matrices start by *growing*, even the one with $\rho = 0.9$, and only
#   later settle to the slope $\rho^T$.
# * **Right:** with the $\tanh$, every curve vanishes, even at $\rho = 1.1$, where the rule predicts an
#   explosion.
#
# The next three sections explain both.
#
# ## The precise statement: singular values and $\tanh'$
#
# A norm bound on each factor bounds the product. With $\|\mathrm{diag}(v)\|_2 = \max_i |v_i|$,
#
# $$\|J_k\|_2 \le \max_i |\tanh'(z_{k,i})| \cdot \|W_{hh}\|_2 \le \gamma\,\sigma_{\max}(W_{hh}),
# \qquad \Big\|\frac{\partial h_T}{\partial h_0}\Big\|_2 \le \big(\gamma\,\sigma_{\max}\big)^T,$$
#
# with $\gamma = 1$ for $\tanh$ ($\tfrac14$ for the sigmoid). This is the statement of Pascanu, Mikolov &
# Bengio (2013, *On the difficulty of training recurrent neural networks*), refining Bengio, Simard &
# Frasconi (1994, *Learning long-term dependencies with gradient descent is difficult*):
#
# * $\sigma_{\max} < 1/\gamma$ is **sufficient** for vanishing: the bound goes to 0;
# * $\sigma_{\max} > 1/\gamma$ is **necessary, not sufficient**, for exploding: without it the product
#   cannot grow, with it it may still vanish (as the $\tanh$ panel shows).
#
# The largest singular value $\sigma_{\max} = \|W\|_2$ is the most any vector can be stretched in one
# step; the spectral radius $\rho$ (largest $|\lambda|$) can be far smaller. They are equal for *normal*
# matrices ($WW^\top = W^\top W$, e.g. orthogonal or symmetric ones), not for a random Gaussian one:

# %%
worst = {"linear": 0.0, "tanh": 0.0}  # the largest ||dh_k/dh_0|| / sigma_max^k, k = 1..200
for rho in (0.9, 1.0, 1.1):
    Wg = nb.recurrent_matrix(rho, kind="gaussian")  # the matrix gradient_norms builds (seed 0)
    norms = nb.gradient_norms(rho, 200, kind="gaussian", nonlinearity="linear")
    peak = int(norms.argmax()) + 1
    print(
        f"rho = {rho}: sigma_max = {largest_singular_value(Wg):.2f};  ||W^k|| peaks at {norms.max():.3g} "
        f"(k = {peak}), is {norms[49]:.2g} at k = 50 and {norms[199]:.2g} at k = 200"
    )
    bound = largest_singular_value(Wg) ** torch.arange(1, 201, dtype=torch.float64)  # gamma = 1
    for nl in worst:  # the linear RNN, and the tanh RNN driven by unit inputs (the figure's)
        ratio = nb.gradient_norms(rho, 200, kind="gaussian", nonlinearity=nl) / bound
        worst[nl] = max(worst[nl], ratio.max().item())
assert max(worst.values()) <= 1 + 1e-9, "a norm above sigma_max^k: the bound would be broken"
print(f"largest ||dh_k/dh_0|| / sigma_max^k: linear {worst['linear']:.2f}, tanh {worst['tanh']:.2f}")

# %% [markdown]
# So a Gaussian $W_{hh}$ with $\rho = 0.9$ has $\sigma_{\max} \approx 1.6$ and the gradient first grows
# (to about 1.7) before it vanishes; with $\rho = 1.0$, $\sigma_{\max} \approx 1.8$ and it grows to
# about 2.9 and stays of order one. (The three are one random matrix rescaled, so $\sigma_{\max}/\rho$ is
# the same for all of them; with $\rho = 1.1$ it explodes as predicted, but faster at first.) The last line
# checks the bound with $\gamma = 1$ on every $k$ from 1 to 200, for the linear RNN and for the $\tanh$ RNN
# of the figure: no norm exceeds $\sigma_{\max}^k$ (the linear one reaches it at $k = 1$, where
# $\|W\|_2 = \sigma_{\max}$ by definition).
#
# ## The eigenvalue sets the long-run rate of a linear RNN (Gelfand's formula)
#
# The article's eigenvalue is not wrong, it answers a different question. Gelfand's formula says that for
# any matrix $\|W^k\|^{1/k} \to \rho(W)$ as $k \to \infty$: **in the long run** the product of a linear RNN
# grows or shrinks like $\rho^k$, whatever happens at first. For the Gaussian $W_{hh}$ with $\rho = 0.9$:

# %%
Wg = nb.recurrent_matrix(0.9, kind="gaussian").double()  # the Gaussian W_hh above, rho = 0.9
for k in (1, 10, 100, 1000):
    rate = torch.linalg.matrix_norm(torch.linalg.matrix_power(Wg, k), ord=2).item() ** (1 / k)
    print(f"k = {k:4d}: ||W^k||^(1/k) = {rate:.4f}")
print(f"spectral radius rho = {helpers.spectral_radius(Wg):.4f}")

# %% [markdown]
# The per-step rate starts at $\sigma_{\max}$ and approaches $\rho = 0.9$ as $k$ grows.
#
# Gelfand's formula is about the powers of **one** matrix: it is the rate of the *linear* RNN, whose
# every factor is $W_{hh}$. With the $\tanh$ the factors $J_k = \mathrm{diag}(1 - h_k^2)\,W_{hh}$ change
# from step to step, with the inputs, and no single matrix has a $\rho$ that gives the rate. The long-run
# rate of such a product is its largest **Lyapunov exponent**, the average log growth per step,
#
# $$\mu = \lim_{T\to\infty} \frac{1}{T}\,\log\big\|J_T J_{T-1} \cdots J_1\big\|,$$
#
# which exists (and is the same for almost every run) when the factors come from a stationary *ergodic*
# random process with $\mathbb{E}\log^+\|J_k\| < \infty$ (Furstenberg & Kesten 1960; Oseledets 1968, the
# multiplicative ergodic theorem, gives the whole spectrum of exponents; for RNNs see Engelken, Wolf &
# Abbott 2023). Here $\|J_k\| \le \|W_{hh}\|$, so the second condition holds. For the linear RNN,
# $\mu = \log\rho$; for the $\tanh$ RNN it depends on $W_{hh}$ *and* on the inputs, which set the slopes
# $1 - h_k^2$. We measure it below as the slope of $\log\|\partial h_T/\partial h_0\|$ against $T$.
#
# ## The non-normal trap
#
# How long is "the long run"? For a non-normal matrix it can be long enough to matter. Take
#
# $$W = \begin{pmatrix} 0.9 & 5 \\ 0 & 0.9 \end{pmatrix}, \qquad
#   W^k = \begin{pmatrix} 0.9^k & 5k\,0.9^{k-1} \\ 0 & 0.9^k \end{pmatrix}.$$
#
# Both eigenvalues are $0.9$, so by the article's rule gradients vanish. But the off-diagonal entry grows
# like $k\,0.9^{k-1}$ before it decays:

# %%
W_trap = torch.tensor([[0.9, 5.0], [0.0, 0.9]], dtype=torch.float64)
powers = jacobians.power_norms(W_trap, 80)  # ||W^k||, k = 0..80
print(f"rho = {helpers.spectral_radius(W_trap):.2f}, sigma_max = {largest_singular_value(W_trap):.2f}")
print(f"||W^5|| = {powers[5]:.1f};  largest ||W^k|| = {powers.max():.1f} at k = {int(powers.argmax())}")
print(f"||W^k|| first drops below 1 at k = {int((powers[1:] < 1).nonzero()[0]) + 1}")

# %% [markdown]
# With $\rho = 0.9$, $\|W^5\| \approx 16$: the gradient is amplified about twentyfold at its peak, and
# stays above 1 for more than 50 steps.

# %%
nb.plot_non_normal(coupling=5.0, eigenvalue=0.9)

# %% [markdown]
# Move the **off-diagonal coupling** and the **eigenvalue λ (= ρ)** (both eigenvalues of this $W$, so also its
# spectral radius): with coupling 0 the matrix is normal and $\|W^k\| = \lambda^k$ exactly; the larger
# the coupling, the higher and longer the hump, at the same eigenvalue.

# %%
nb.explore_non_normal()

# %% [markdown]
# ## $\tanh$ saturation: why $\rho = 1.1$ vanishes
#
# With the $\tanh$, each $J_k$ carries $\mathrm{diag}(1 - h_k^2)$. Near $h = 0$ this is the identity and the
# $\tanh$ RNN behaves like the linear one. Driven by inputs of unit size, the hidden units sit well away
# from 0, their slopes are well below 1, and the product shrinks even when $\rho > 1$. Here is the measured
# rate of the figure's orthogonal curves, the slope of $\log\|\partial h_T/\partial h_0\|$ per step,
# fitted over $T = 50..200$ (`jacobians.log_growth_rate`), beside $\log\rho$:

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
# The linear RNN's slope is $\log\rho$ (Gelfand). The $\tanh$ RNN's Lyapunov exponent $\mu$ is about
# $-0.56$, $-0.46$ and $-0.38$: negative for all three, a factor $e^{\mu}$ of about 0.57, 0.63 and 0.68 per
# step, so even $\rho = 1.1$ vanishes. The average slope $\tanh'$ is about 0.5, which makes the factors
# shrink. For these random matrices, driven by inputs of this size, vanishing, not exploding, is what
# happens.
#
# **The input scale decides.** Multiply the inputs by a scale $s$ ($x_t \sim \mathcal N(0, s^2 I)$): small
# inputs keep the units near 0, where $\tanh$ is nearly linear; large ones saturate them.

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
# * $\rho = 0.9$: with inputs of size 0.01 the mean slope is 1.00 and the $\tanh$ RNN decays at 0.90 per
#   step, like $\rho^T$; at size 1 the rate drops to 0.57, at size 3 to 0.36: saturation speeds up the decay.
# * $\rho = 1.1$: the zero state is unstable, so even with inputs of size 0.01 the hidden state grows by
#   itself, until the $\tanh$ bends enough (a mean slope of 0.92) to hold the gradient's rate near 1.01 per
#   step: the gradient still grows, slowly (about $10^{2}$ at $T = 200$, far below
#   $1.1^{200} \approx 2\times10^{8}$). Larger inputs bend the $\tanh$ further (mean slope 0.88 at size
#   0.1, 0.52 at size 1) and the gradient vanishes.
#
# Here is the picture for one spectral radius, with $\rho^T$ as a wide grey band for reference (the linear
# orthogonal curve lies exactly on it):

# %%
nb.plot_gradient_norms(rho=1.1, seq_len=200)

# %% [markdown]
# Move the **spectral radius ρ** of $W_{hh}$ (its largest $|\text{eigenvalue}|$), the **sequence length**
# and the **input scale**. Watch the linear orthogonal curve follow $\rho^T$, the Gaussian one bulge above
# it first, and the $\tanh$ curves: near $\rho^T$ at input scale 0.01 (for $\rho \le 1$), far below it at
# 1 or 3. (The widget uses $d = 32$, as in the figure's title, and fewer points per curve so that it redraws
# quickly; values above float64's range are drawn as red triangles, not dropped; values below it, which the
# norms report as 0, are left out: the curve stops there.)

# %%
nb.explore_gradient_norms()

# %% [markdown]
# ## Why float64
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
#
# ## Exploding gradients: clipping caps the step
#
# When the gradient explodes, one SGD step with it throws the weights far away. Pascanu et al. (2013)
# proposed **clipping the gradient norm**: if $\|g\| > c$, replace $g$ by $c\,g/\|g\|$. The direction is
# kept, only the step size is capped. In PyTorch it is one call, `torch.nn.utils.clip_grad_norm_`.
# A linear RNN with $\rho = 1.1$ over 200 steps:

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
# The huge norm becomes exactly `max_norm` and the direction is unchanged: the step still goes downhill,
# it just no longer throws the weights far away. In a training loop the call goes between
# `loss.backward()` and `optimizer.step()`.
#
# Clipping caps a step; it does not remove the cause. The product of Jacobians still explodes, and the
# next backward pass returns a huge gradient again, to be capped again. And it handles exploding gradients
# only: a gradient whose norm is below $c$ is left as it is, and one above $c$ is scaled as a whole, so a
# vanishing part stays vanishing. (For vanishing gradients Pascanu et al. proposed a different tool, a
# regulariser that penalises any change of the back-propagated gradient's norm from one step to the next,
# shrinking or growing, their section 3.3; clipping does nothing for them.)

# %% [markdown]
# ## Vanishing gradients have no such fix
#
# Why not scale a vanishing gradient *up*? Because the gradient is not uniformly small. The loss at step
# $T$ gets a contribution from every earlier input, and only the contributions from far back vanish. Here
# is $\|\partial L/\partial x_t\|$ for a $\tanh$ RNN ($\rho = 0.9$, unit inputs, $L = \sum h_{100}$):

# %%
W_tanh = helpers.matrix_with_spectral_radius(16, 0.9, kind="orthogonal", generator=generator)
grads = nb.input_gradient_norms(W_tanh, 100)  # ||dL/dx_t||, t = 1..100
print(
    f"from the last input: {grads[-1]:.2g};  from the first: {grads[0]:.2g};  ratio {grads[0] / grads[-1]:.1g}"
)

# %% [markdown]
# The first input moves the loss about $3\times10^{-27}$ times as much as the last one. What training uses
# is the gradient of the *weights*. $W_{hh}$ acts at every step, so $\partial L/\partial W_{hh}$ is a sum of
# one term per step, $\sum_k \delta_k h_{k-1}^\top$ with $\delta_k = \partial L/\partial z_k$
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
# Fixing vanishing needs more than rescaling the gradient. It needs a path along which the gradient is not a
# long product of shrinking factors: steps whose Jacobian stays near the identity (the LSTM's additive cell
# state while its forget gate stays open, notebook 03; skip connections), steps that keep the norm (an
# orthogonal recurrence without a saturating nonlinearity, like the linear one with $\rho = 1$ above), or a
# short path (attention links step $T$ to step 1 in one step, notebook 04, which also shows that diffuse
# attention dilutes that one step's gradient, about $1/N$ per token). Or it needs a regulariser or an
# initialisation that keeps the gradient's norm from shrinking step by step (Pascanu et al.'s regulariser
# above; ReLU RNNs started from the identity, Le, Jaitly & Hinton 2015). A better optimiser helps too:
# Hessian-free training (Martens & Sutskever 2011) trained RNNs on long-range tasks that had defeated
# gradient descent.
#
# ## Verdict
#
# **C2: the mechanism is right, the condition is imprecise.**
#
# * Right: BPTT multiplies the step Jacobians (checked against autograd above), and the product shrinks
#   or grows exponentially in $T$. For a linear RNN with orthogonal $W_{hh}$ the eigenvalue rule is exact
#   ($0.9^{50} \approx 5\times10^{-3}$, $1.1^{200} \approx 2\times10^{8}$, as printed).
# * Imprecise: the guarantee is on the largest **singular value** with the bound on $\tanh'$
#   (Pascanu et al. 2013): $\sigma_{\max} < 1$ suffices for vanishing, $\sigma_{\max} > 1$ is only
#   necessary for exploding. The eigenvalue sets the **asymptotic rate** of a linear RNN (Gelfand); before
#   that, a non-normal $W_{hh}$ with $\rho = 0.9$ can amplify gradients many times over.
# * Missing: $\tanh$ saturation. The rate of a $\tanh$ RNN is a Lyapunov exponent, set by $W_{hh}$ and the
#   inputs together: with inputs of unit size even $\rho = 1.1$ vanishes (about 0.68 per step), with
#   inputs of size 0.01 and $\rho = 0.9$ the $\tanh$ RNN follows $\rho^T$. Here vanishing is the failure we
#   saw, and it is the hard one: clipping caps the steps of an exploding gradient in one line (without removing
#   the cause), and does nothing for vanishing.
#
# ## Summary
#
# * $J_k = \mathrm{diag}(1 - h_k^2)W_{hh}$; $\partial h_T/\partial h_0 = J_T\cdots J_1$ (the chain rule, as the
#   article writes).
# * $\|\partial h_T/\partial h_0\| \le (\gamma\,\sigma_{\max})^T$: singular values give the guarantee,
#   eigenvalues give the long-run rate of a linear RNN, and they differ for non-normal matrices.
# * With $\tanh$ the long-run rate is a Lyapunov exponent: $\tanh'$ below 1 (large inputs, saturation)
#   makes gradients vanish even for $\rho > 1$.
# * Use float64 (or logs) to measure these products; clip to cap the steps of an exploding gradient;
#   vanishing needs more than rescaling (the early steps' share of the weight gradient is below rounding):
#   a path that is not a long product of shrinking factors (steps whose Jacobian stays near the identity,
#   as the LSTM's cell while its forget gate is open; steps that keep the norm; or a short path, as
#   attention's one step from $T$ to 1), or a regulariser or initialisation that keeps the norm from
#   shrinking.
#
# ## Exercises
#
# **1. The step Jacobian.** Given $h_k$ $(d,)$ and $W_{hh}$ $(d, d)$, return
# $J_k = \mathrm{diag}(1 - h_k^2)W_{hh}$ $(d, d)$.


# %%
def my_step_jacobian(h_k, W_hh):
    raise NotImplementedError


helpers.check("tanh_step_jacobian", my_step_jacobian)

# %% [markdown]
# **2. The Jacobian of a linear RNN.** For $h_k = W_{hh}h_{k-1} + W_{xh}x_k$, return
# $\partial h_T/\partial h_0$ given `W_hh` $(d, d)$ and the integer `T`.


# %%
def my_linear_rnn_jacobian(W_hh, T):
    raise NotImplementedError


helpers.check("linear_rnn_jacobian", my_linear_rnn_jacobian)

# %% [markdown]
# **3. A bound.** A $\tanh$ RNN has $\sigma_{\max}(W_{hh}) = 0.9$. What is the best upper bound the
# inequality above gives for $\|\partial h_{50}/\partial h_0\|_2$? Replace `None` with a number (a Python
# expression is fine).

# %%
answer = None
helpers.check("vanishing_bound", answer)

# %% [markdown]
# Stuck? `helpers.solution("tanh_step_jacobian")` prints a reference answer (the same works for the others).
#
# Next: [03 · LSTM gating](03_lstm_gating.ipynb).
