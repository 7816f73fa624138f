"""The vanilla (Elman) RNN, from h_t = tanh(W_hh h_{t-1} + W_xh x_t + b) (Elman 1990).

The input projection W_xh x_t + b is one matmul for every t; the chain of tanh steps is not,
step by step (rnn_chain), or by Newton's method over all t at once at extra work
(rnn_newton; Lim et al. 2024, "Parallelizing non-linear sequential models over the sequence
length", ICLR 2024)."""

import torch

from .checks import require_last_dim, require_tensor

# One convention for every recurrence in the course: rows are batch items (batch first), and a state
# meets its weights as h @ W.T, as torch.nn.RNNCell and nn.LSTMCell compute it. The maths' column form
# W_hh h_{t-1} is the same number. A leading axis on W_hh (an ensemble of M models) broadcasts.


def pre_activation(u_t: torch.Tensor, h_prev: torch.Tensor, W_hh: torch.Tensor) -> torch.Tensor:
    """z_t = u_t + h_{t-1} W_hh^T: the drive u_t = x_t W_xh^T + b plus what the last state adds.

    h_prev (..., d_h), W_hh (G d_h, d_h) or (..., G d_h, d_h), u_t (..., G d_h) -> (..., G d_h); G = 1
    for the tanh RNN, 4 for the LSTM's stacked gates. Linear in (u_t, h_prev): applied to their
    derivatives it gives the derivative of z_t (the forward-mode steps use it so)."""
    return u_t + h_prev @ W_hh.mT


def tanh_step(u_t: torch.Tensor, h_prev: torch.Tensor, W_hh: torch.Tensor) -> torch.Tensor:
    """The tanh RNN's step, h_t = tanh(u_t + h_{t-1} W_hh^T), given its drive u_t = x_t W_xh^T + b.

    The one definition: rnn_step, rnn_chain, rnn_newton, the Jacobian helpers, the ensembles and the
    notebooks' helpers all step through it. Shapes as in pre_activation, with G = 1.
    """
    return torch.tanh(pre_activation(u_t, h_prev, W_hh))


def tanh_tangent_step(
    u_t: torch.Tensor,
    h_prev: torch.Tensor,
    W_hh: torch.Tensor,
    dh_prev: torch.Tensor,
    du_t: torch.Tensor | float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """tanh_step and its forward-mode derivative: h_t, and dh_t = (du_t + dh_{t-1} W_hh^T) * (1 - h_t^2).

    dh_prev (..., n, d_h) and du_t (..., n, d_h) hold n directions, one per row, beside h_prev (..., 1, d_h).
    """
    h = tanh_step(u_t, h_prev, W_hh)
    return h, pre_activation(du_t, dh_prev, W_hh) * (1 - h**2)


def rnn_step(
    x_t: torch.Tensor, h_prev: torch.Tensor, W_xh: torch.Tensor, W_hh: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    """One step: h_t = tanh(x_t W_xh^T + h_prev W_hh^T + b). In code (tanh_step runs it):

        h_t = torch.tanh(x_t @ W_xh.T + h_prev @ W_hh.T + b)

    x_t (B, d_in), h_prev (B, d_h), W_xh (d_h, d_in), W_hh (d_h, d_h), b (d_h,) -> (B, d_h).
    Equals torch.nn.RNNCell with b = b_ih + b_hh.
    """
    require_last_dim(x_t, W_xh.shape[1], "x_t", f"W_xh of shape {tuple(W_xh.shape)}")
    require_last_dim(h_prev, W_hh.shape[1], "h_prev", f"W_hh of shape {tuple(W_hh.shape)}")
    return tanh_step(input_projection(x_t, W_xh, b), h_prev, W_hh)  # (B, d_h)


def input_projection(x: torch.Tensor, W_xh: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """W_xh x_t + b for every t at once: x (B, N, d_in) -> (B, N, d_h), one matmul.

    Also the LSTM's (W_ih (4 d_h, d_in) -> (B, N, 4 d_h)), and an ensemble's (W_xh (M, 1, d_h, d_in))."""
    return x @ W_xh.mT + b


def rnn_forward(
    x: torch.Tensor, W_xh: torch.Tensor, W_hh: torch.Tensor, b: torch.Tensor, h0: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Run the RNN over a sequence: x (B, T, d_in) -> H (B, T, d_h), h_T (B, d_h).

    The input projection is one matmul for every t (parallel); the chain over t is not.
    Equals torch.nn.RNN(batch_first=True) with b = b_ih + b_hh.
    """
    require_tensor(x, "x")
    if x.dim() != 3:
        raise ValueError(f"x must have shape (B, T, d_in), got {tuple(x.shape)}")
    require_last_dim(x, W_xh.shape[1], "x", f"W_xh of shape {tuple(W_xh.shape)}")
    H = rnn_chain(input_projection(x, W_xh, b), W_hh, h0)  # (B, T, d_h)
    return H, H[:, -1]  # (B, T, d_h), (B, d_h)


def rnn_chain(U: torch.Tensor, W_hh: torch.Tensor, h0: torch.Tensor | None = None) -> torch.Tensor:
    """The sequential part alone: h_t = tanh(u_t + h_{t-1} W_hh^T), given every u_t = W_xh x_t + b.

    U (B, N, d_h), W_hh (d_h, d_h), h0 (B, d_h) or zeros -> H (B, N, d_h): N dependent steps.
    """
    require_tensor(U, "U")
    if U.dim() != 3 or U.shape[1] == 0:
        raise ValueError(f"U must have shape (B, N, d_h) with N >= 1, got {tuple(U.shape)}")
    require_last_dim(U, W_hh.shape[0], "U", f"W_hh of shape {tuple(W_hh.shape)}")
    h = U.new_zeros(U.shape[0], W_hh.shape[0]) if h0 is None else h0  # (B, d_h)
    H = []
    for t in range(U.shape[1]):  # sequential: step t needs h_{t-1}
        h = tanh_step(U[:, t], h, W_hh)  # (B, d_h)
        H.append(h)
    return torch.stack(H, dim=1)  # (B, N, d_h)


def rnn_weights(rnn: torch.nn.RNN | torch.nn.RNNCell) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(W_xh, W_hh, b) of a one-layer torch RNN or RNNCell, with b = b_ih + b_hh."""
    suffix = "_l0" if isinstance(rnn, torch.nn.RNN) else ""
    W_xh = getattr(rnn, "weight_ih" + suffix).detach()
    W_hh = getattr(rnn, "weight_hh" + suffix).detach()
    b = (getattr(rnn, "bias_ih" + suffix) + getattr(rnn, "bias_hh" + suffix)).detach()
    return W_xh, W_hh, b


def _affine_scan(A: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    """h_t = A_t h_{t-1} + c_t from h_0 = 0, for every t, by a Hillis-Steele scan: ceil(log2 N) levels.

    A (N, B, d, d), c (N, B, d) -> h (N, B, d). Composing two affine maps is one affine map,
    (A1, c1) then (A2, c2) = (A2 A1, A2 c1 + c2): each level composes every position with
    the one k before it, all at once.
    """
    k = 1
    while k < len(A):
        A, c = (
            torch.cat([A[:k], A[k:] @ A[:-k]]),
            torch.cat([c[:k], (A[k:] @ c[:-k, ..., None])[..., 0] + c[k:]]),
        )
        k *= 2
    return c  # with h_0 = 0, h_t is the composite map's offset


def rnn_newton(
    U: torch.Tensor, W_hh: torch.Tensor, *, tol: float = 1e-12, max_iterations: int = 30
) -> tuple[torch.Tensor, list[float]]:
    """The same H as rnn_chain (h_0 = 0), by Newton's method over all t at once (Lim et al. 2024, DEER).

    Guess every state (zeros), linearise every step around the guess, h_t ~ f_t + J_t (h_{t-1} - g_{t-1})
    with J_t = diag(1 - f_t^2) W_hh, solve that linear recurrence by a parallel scan, repeat.
    After k iterations h_1 .. h_k are exact (h_1's linearisation is at the exact h_0, and so on), so
    N + 1 iterations always suffice; it pays off when far fewer do. No loop over t; extra work:
    d x d Jacobians and up to ceil(log2 N) matrix products per position (rnn_newton_flops).
    Returns H (B, N, d_h) and the largest change of a state at each iteration; stops when it is <= tol.
    """
    require_tensor(U, "U")
    if U.dim() != 3:
        raise ValueError(f"U must have shape (B, N, d_h), got {tuple(U.shape)}")
    require_last_dim(U, W_hh.shape[0], "U", f"W_hh of shape {tuple(W_hh.shape)}")
    H, changes = torch.zeros_like(U), []
    while len(changes) < max_iterations and not (changes and changes[-1] <= tol):
        prev = torch.cat([torch.zeros_like(U[:, :1]), H[:, :-1]], dim=1)  # (B, N, d): the guessed h_{t-1}
        f = tanh_step(U, prev, W_hh)  # (B, N, d): one step from every guess
        J = (1 - f**2)[..., None] * W_hh  # (B, N, d, d): the step's Jacobian
        c = f - (J @ prev[..., None])[..., 0]  # (B, N, d)
        H_new = _affine_scan(J.transpose(0, 1), c.transpose(0, 1)).transpose(0, 1)  # (B, N, d)
        changes.append((H_new - H).abs().max().item())
        H = H_new
    return H, changes


def rnn_newton_flops(B: int, N: int, d: int, iterations: int, *, scan: str = "hillis-steele") -> int:
    """Matmul FLOPs of rnn_newton on U (B, N, d) over `iterations` (a multiply-add counts 2).

    Each iteration: one step from every guess and J_t times every guess (2 B N d^2 each), and
    the scan, which composes pairs of affine maps: a d x d matrix product (2 d^3) and a
    matrix-vector product (2 d^2) each. scan="hillis-steele" is rnn_newton's (_affine_scan): its
    level with offset k composes N - k pairs, about N log2 N in all (Hillis & Steele 1986).
    scan="work-efficient" counts a two-sweep scan instead (Blelloch 1990): at most 2 (N - 1) pairs
    in at most 2 ceil(log2 N) levels, at the same cost per pair; rnn_newton does not run it (the tests
    run one), so this is a count, not a measurement. The loop (rnn_chain) does 2 B N d^2 in all.
    """
    if scan == "hillis-steele":
        pairs = sum(N - k for k in (2**i for i in range(max(N - 1, 1).bit_length())) if k < N)
    elif scan == "work-efficient":
        pairs = 2 * (N - 1)
    else:
        raise ValueError(f"scan must be 'hillis-steele' or 'work-efficient', got {scan!r}")
    return iterations * (4 * B * N * d**2 + B * pairs * (2 * d**3 + 2 * d**2))
