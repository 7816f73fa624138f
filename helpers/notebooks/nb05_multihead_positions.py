"""Notebook 05: its figures, widgets, constants and exercises."""

import functools
import math

import torch
from matplotlib.transforms import Bbox
from torch import nn

from ..attention import entropy
from ..course.exercises import register_exercise
from ..course.style import finding, new_figure
from ..course.widgets import Explorer, choice, register
from ..measure import one_thread
from ..multihead import MultiHeadSelfAttention, split_heads
from ..positions import shift_rotation, sinusoidal_positional_encoding
from ..seed import seeded

SENTENCE = ("the", "cat", "sat", "on", "the", "mat")
WORD_TYPES = {"the": "determiner", "cat": "noun", "mat": "noun", "sat": "verb", "on": "preposition"}
TYPES = ("determiner", "noun", "verb", "preposition")
TOY_D_MODEL = 16  # 8 dimensions per head for 2 heads: 4 word-type features, 6 position slots, 6 spare


def toy_embeddings(words=SENTENCE) -> torch.Tensor:
    """(1, L, 16) hand-built: dims 0-3 one-hot word type, dims 8-13 one-hot position."""
    if len(words) > 6:
        raise ValueError(f"the toy embedding has 6 position slots, got {len(words)} words")
    x = torch.zeros(1, len(words), TOY_D_MODEL)
    for p, word in enumerate(words):
        if word not in WORD_TYPES:
            raise ValueError(f"unknown word {word!r}; known: {', '.join(sorted(WORD_TYPES))}")
        x[0, p, TYPES.index(WORD_TYPES[word])] = 1.0  # what the word is
        x[0, p, 8 + p] = 1.0  # where it is
    return x


def hand_built_heads(sharpness: float = 12.0) -> nn.MultiheadAttention:
    """nn.MultiheadAttention(16, 2 heads) with W_q, W_k set by hand; W_v, W_o the identity.

    Head 0 ("previous word"): position p asks for position p - 1.
    Head 1 ("grammar"): a determiner, a verb, a preposition ask for a noun; a noun asks for the verb.
    """
    W_q, W_k = torch.zeros(TOY_D_MODEL, TOY_D_MODEL), torch.zeros(TOY_D_MODEL, TOY_D_MODEL)
    for p in range(1, 6):  # head 0 uses rows 0-7 of W_q and W_k
        W_q[p - 1, 8 + p] = sharpness  # query of position p points at slot p - 1
    for p in range(6):
        W_k[p, 8 + p] = 1.0  # key of position p is slot p
    wants = {"determiner": "noun", "verb": "noun", "preposition": "noun", "noun": "verb"}
    for t, wanted in wants.items():  # head 1 uses rows 8-15
        W_q[8 + TYPES.index(wanted), TYPES.index(t)] = sharpness
    for i in range(len(TYPES)):
        W_k[8 + i, i] = 1.0  # key of a word is its type
    mha = nn.MultiheadAttention(TOY_D_MODEL, 2, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W_q, W_k, torch.eye(TOY_D_MODEL)]))  # [W_q; W_k; W_v]
        mha.out_proj.weight.copy_(torch.eye(TOY_D_MODEL))
    return mha


def _grid(weights: torch.Tensor, ncols: int = 8) -> tuple[torch.Tensor, list[tuple[float, float]], int, int]:
    """(n_heads, L, L) maps laid out as ONE (rows, cols) image with NaN gaps; each map's label spot."""
    nh, L, _ = weights.shape
    ncols = min(ncols, nh)
    nrows = math.ceil(nh / ncols)
    canvas = torch.full((nrows * (L + 1) - 1, ncols * (L + 1) - 1), float("nan"))
    spots = []
    for h in range(nh):
        r, c = divmod(h, ncols)
        canvas[r * (L + 1) : r * (L + 1) + L, c * (L + 1) : c * (L + 1) + L] = weights[h].detach()
        spots.append((c * (L + 1) + (L - 1) / 2, r * (L + 1) - 0.7))  # centred above the map
    return canvas, spots, nrows, ncols


def _word_ticks(ax, L: int, ncols: int, words=SENTENCE) -> None:
    """Words under and beside the maps; under and beside the first map only when there are many (faster)."""
    labelled = ncols if ncols <= 3 else 1
    ax.set_xticks([c * (L + 1) + j for c in range(labelled) for j in range(L)], list(words) * labelled)
    ax.set_yticks(range(L), list(words))
    ax.tick_params(bottom=False, left=False)  # words, no tick marks: less to draw
    ax.tick_params(axis="x", labelrotation=90, labelsize=7)
    ax.tick_params(axis="y", labelsize=7)


def draw_maps(ax, weights: torch.Tensor, titles: list[str], words=SENTENCE, ncols: int = 8):
    """Many (L, L) attention maps as ONE image on one axis (fast): heads in a grid, NaN gaps.

    weights (n_heads, L, L); returns the image, for a colour bar."""
    canvas, spots, nrows, ncols = _grid(weights, ncols)
    for (x, y), title in zip(spots, titles):
        ax.text(x, y, title, ha="center", fontsize=8)
    image = ax.imshow(canvas.numpy(), vmin=0, vmax=1, cmap="viridis", interpolation="nearest")
    ax.grid(False)
    _word_ticks(ax, weights.shape[-1], ncols, words)
    ax.set_xlabel("key (attended to)")
    ax.set_ylabel("query (attending)")
    return image


def plot_sentence_heads(weights: torch.Tensor, names: list[str], words=SENTENCE):
    """(nh, L, L) maps of the toy sentence side by side, each titled by `names`."""
    fig, ax = new_figure(width=2.3 * weights.shape[0] + 1.2, height=3.2)
    image = draw_maps(ax, weights, names, words)
    fig.colorbar(image, ax=ax, shrink=0.8, label="attention weight")
    maps = "; ".join(f'"{name}"' for name in names)
    L = len(words)
    shown = f"{len(names)} maps side by side, each of {L} queries against {L} keys, left to right: {maps}; "
    shown += "colour: attention weight, 0 to 1."
    return finding(fig, shown)


HEAD_CHOICES = tuple(h for h in range(1, TOY_D_MODEL + 1) if TOY_D_MODEL % h == 0)


WEIGHT_SCALES = (1, 2, 4, 8, 16)  # 1: the initialisation itself (nn.Linear's default)
SHARP_SCALE = 8  # the figure's: W_q, W_k, W_v x 8, so that random maps are visibly sharp


INITS = ("linear", "torch_mha")  # nn.Linear's default (our class's), nn.MultiheadAttention's own


def random_heads(
    n_heads: int, scale: float = SHARP_SCALE, seed: int = 0, init: str = "linear"
) -> MultiHeadSelfAttention:
    """An untrained MultiHeadSelfAttention(16, n_heads), in_proj's weights x `scale`.

    init "linear": the class's own initialisation, nn.Linear's default (weights and biases uniform in
    +-1/sqrt(16)); "torch_mha": nn.MultiheadAttention's (Xavier-uniform in_proj, zero biases), copied
    with from_torch. in_proj holds W_q, W_k and W_v; the same weights for every head count. At scale 1
    (nn.Linear's initialisation) every map of the toy sentence is almost uniform.
    """
    if n_heads not in HEAD_CHOICES:
        raise ValueError(f"n_heads must divide d_model={TOY_D_MODEL}: one of {HEAD_CHOICES}, got {n_heads!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0:
        raise ValueError(f"scale (of the initial in_proj weights) must be a number > 0, got {scale!r}")
    if init not in INITS:
        raise ValueError(f"init must be one of {INITS}, got {init!r}")
    with seeded(seed):
        if init == "linear":
            mha = MultiHeadSelfAttention(TOY_D_MODEL, n_heads)
        else:
            torch_layer = nn.MultiheadAttention(TOY_D_MODEL, n_heads, batch_first=True)
            mha = MultiHeadSelfAttention.from_torch(torch_layer)
    with torch.no_grad():
        mha.in_proj.weight.mul_(scale)
    return mha


@functools.cache
def random_head_maps(n_heads: int, scale: float = SHARP_SCALE, seed: int = 0, init: str = "linear"):
    """Each head's map of the toy sentence (n_heads, L, L), and its entropy averaged over queries (n_heads,).

    Cached: the widget shows 25 of them, each the same every time."""
    with torch.no_grad(), one_thread():
        _, weights = random_heads(n_heads, scale, seed, init)(toy_embeddings())  # (1, nh, L, L)
    return weights[0], entropy(weights[0]).mean(-1)


def mean_head_entropy(
    n_heads: int, scale: float = SHARP_SCALE, seeds=range(5), init: str = "linear"
) -> float:
    """The heads' entropy (mean over queries) averaged over every head and over several seeds."""
    return torch.cat([random_head_maps(n_heads, scale, seed, init)[1] for seed in seeds]).mean().item()


def parameter_count(module: nn.Module) -> int:
    """Number of trainable numbers in a module."""
    return sum(p.numel() for p in module.parameters())


HEADS_BOX = Bbox.from_bounds(0.08, 0.24, 0.9, 0.65)  # where plot_heads' maps may go, in figure fractions


def plot_heads(n_heads: int = 4, scale: float = SHARP_SCALE, seed: int = 0):
    """Each head's map of the toy sentence for an untrained layer; the heads' entropies in the title."""
    fig, ax = new_figure(width=8.0, height=3.0)
    fig.set_layout_engine(None)
    # A fixed box, not a laid-out one: the maps shrink inside it to keep square cells at any head count,
    # the same way whether the figure is new or updated in place.
    ax.set_axes_locator(lambda _ax, _renderer: HEADS_BOX)
    ax.imshow([[0.0]], vmin=0, vmax=1, cmap="viridis", interpolation="nearest")  # colours 0-1 as above
    ax.set_anchor("N")  # the maps just under the title
    ax.grid(False)
    ax.set(xlabel="key (attended to)", ylabel="query")
    update_heads(fig, n_heads, scale, seed)
    return fig


def update_heads(fig, n_heads: int = 4, scale: float = SHARP_SCALE, seed: int = 0) -> None:
    """plot_heads' figure, redrawn in place: the maps as one image, the ticks and the title.

    Few texts (no label per head): each text costs a few ms at every redraw."""
    weights, H = random_head_maps(n_heads, scale, seed)  # (nh, L, L), (nh,)
    canvas, _, _, ncols = _grid(weights)
    ax, (rows, cols), L = fig.axes[0], canvas.shape, weights.shape[-1]
    ax.images[0].set_data(canvas.numpy())
    ax.images[0].set_extent((-0.5, cols - 0.5, rows - 0.5, -0.5))  # also the limits (autoscaled)
    _word_ticks(ax, L, ncols)
    spread = f"{H.min():.2f} to {H.max():.2f}, mean {H.mean():.2f}" if n_heads > 1 else f"{H.mean():.2f}"
    ax.set_title(
        f"{n_heads} head{'s' if n_heads > 1 else ''} × {TOY_D_MODEL // n_heads} dims, "
        f"W_q, W_k, W_v × {scale:g}: "
        f"entropy per head {spread} (uniform {math.log(L):.2f})",
        fontsize=9,
        y=1.0,  # a fixed place: matplotlib need not measure the tick labels to place it (faster)
    )
    maps = f"{n_heads} maps side by side, one per head, left to right" if n_heads > 1 else "one map"
    words = "the words label every map" if ncols <= 3 else "the words label the first map"
    finding(fig, f"{maps}; {words}; colour: attention weight, 0 to 1.")


@register
def explore_heads() -> Explorer:
    """Head count (only divisors of d_model) and the scale of the initial W_q, W_k, W_v (in_proj),
    over plot_heads."""
    controls = {
        "n_heads": choice("heads", HEAD_CHOICES, 4),
        "scale": choice("W_q, W_k, W_v ×", WEIGHT_SCALES, SHARP_SCALE),
    }
    return Explorer(plot_heads, controls, name="heads", update=update_heads)


def _split_inputs() -> tuple[torch.Tensor, int]:
    """B, L, n_heads, hs all different and n_heads > 1: a mixed-up layout cannot pass by luck."""
    return torch.randn(2, 5, 24), int(torch.tensor([3, 4, 6, 8])[torch.randint(4, ())])


register_exercise(
    "split_heads",
    reference=split_heads,
    make_inputs=_split_inputs,
    hint="view as (B, L, n_heads, hs), then swap L and n_heads with transpose(1, 2).",
)
register_exercise(
    "shift_rotation",
    reference=shift_rotation,
    make_inputs=lambda: (int(torch.randint(2, 21, ())), int(torch.randint(1, 8, ())), 16),
    hint="pair i turns by omega_i = 10000 ** (-2 * i / d_model) radians per position, so k positions "
    "later by omega_i * k; expand sin(a + b) and cos(a + b). Return a (2, 2) float32 tensor.",
)
register_exercise(
    "mha_parameter_count",
    reference=lambda: 4 * 64 * 64 + 4 * 64,
    hint="in_proj is (3 d, d) plus 3 d biases; out_proj is (d, d) plus d biases.",
    worked="in_proj: 3 d x d weights + 3 d biases; out_proj: d x d weights + d biases.\n"
    "The 8 heads share these matrices (each reads d / 8 columns): no extra parameters.\n"
    "With d = 64: 4*64*64 + 4*64 = 16384 + 256 = 16640.",
)


def plot_encoding(T: int = 64, d_model: int = 64):
    """Left: the encoding PE (T, d_model). Right: cosine similarity between positions."""
    pe = sinusoidal_positional_encoding(T, d_model)
    unit = pe / pe.norm(dim=-1, keepdim=True)
    fig, (ax, ax2) = new_figure(1, 2, width=10.0, height=3.8)
    im = ax.imshow(pe.numpy(), aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1)
    ax.grid(False)
    ax.set(
        xlabel="dimension of the encoding",
        ylabel="position p",
        title="PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...)",
    )
    fig.colorbar(im, ax=ax, shrink=0.8)
    im2 = ax2.imshow((unit @ unit.T).numpy(), cmap="viridis")
    ax2.grid(False)
    ax2.set(xlabel="position q", ylabel="position p", title="cosine similarity of PE[p] and PE[q]")
    fig.colorbar(im2, ax=ax2, shrink=0.8)
    return fig
