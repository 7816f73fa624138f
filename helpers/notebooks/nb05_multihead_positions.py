"""Notebook 05: its figures, widgets, constants and exercises."""

import functools
import math

import torch
from matplotlib.transforms import Bbox
from torch import nn

from ..attention import entropy
from ..course.exercises import register_exercise
from ..course.style import COLORS, finding, new_figure
from ..course.tables import Table
from ..course.widgets import Explorer, choice, moving, register
from ..measure import one_thread
from ..multihead import MultiHeadSelfAttention, split_heads
from ..positions import shift_rotation, sinusoidal_positional_encoding
from ..seed import seeded

SENTENCE = ("the", "cat", "sat", "on", "the", "mat")
WORD_TYPES = {"the": "determiner", "cat": "noun", "mat": "noun", "sat": "verb", "on": "preposition"}
TYPES = ("determiner", "noun", "verb", "preposition")
TOY_D_MODEL = 16  # 8 dimensions per head for 2 heads: 4 word-type features, 6 position slots, 6 spare
WANTS = {"determiner": "noun", "verb": "noun", "preposition": "noun", "noun": "verb"}  # head 1's grammar
SHARPNESS = 12.0  # the hand-built W_q's entries: each head puts about 0.93 on its target
SHARPNESS_CHOICES = (1, 2, 4, 8, 12, 24, 48, 96)


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


def hand_built_heads(sharpness: float = SHARPNESS) -> nn.MultiheadAttention:
    """nn.MultiheadAttention(16, 2 heads) with W_q, W_k set by hand; W_v, W_o the identity.

    Head 0 ("previous word"): position p asks for position p - 1.
    Head 1 ("grammar"): a determiner, a verb, a preposition ask for a noun; a noun asks for the verb.
    """
    W_q, W_k = torch.zeros(TOY_D_MODEL, TOY_D_MODEL), torch.zeros(TOY_D_MODEL, TOY_D_MODEL)
    for p in range(1, 6):  # head 0 uses rows 0-7 of W_q and W_k
        W_q[p - 1, 8 + p] = sharpness  # query of position p points at slot p - 1
    for p in range(6):
        W_k[p, 8 + p] = 1.0  # key of position p is slot p
    for t, wanted in WANTS.items():  # head 1 uses rows 8-15
        W_q[8 + TYPES.index(wanted), TYPES.index(t)] = sharpness
    for i in range(len(TYPES)):
        W_k[8 + i, i] = 1.0  # key of a word is its type
    mha = nn.MultiheadAttention(TOY_D_MODEL, 2, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W_q, W_k, torch.eye(TOY_D_MODEL)]))  # [W_q; W_k; W_v]
        mha.out_proj.weight.copy_(torch.eye(TOY_D_MODEL))
    return mha


def one_head(sharpness: float = SHARPNESS) -> nn.MultiheadAttention:
    """nn.MultiheadAttention(16, 1 head) with the very weights of hand_built_heads(sharpness).

    Head 0's query and key weights fill rows 0-7, head 1's rows 8-15: as zero-padded 16 x 16 matrices,
    W_q = W_q0 + W_q1 and W_k = W_k0 + W_k1. With one head, a pair's score is head 0's score plus
    head 1's, scaled by 1/sqrt(16) instead of 1/sqrt(8), under one softmax per query.
    """
    layer = nn.MultiheadAttention(TOY_D_MODEL, 1, bias=False, batch_first=True)
    with torch.no_grad():
        layer.load_state_dict(hand_built_heads(sharpness).state_dict())
    return layer


def targets(words=SENTENCE) -> tuple[list[int | None], list[list[int]]]:
    """Each query's target in head 0 (the previous position; None for the first word) and in
    head 1 (the positions of the word type it wants: the nouns, or the verb)."""
    kinds = [WORD_TYPES[w] for w in words]
    previous = [None, *range(len(words) - 1)]
    grammar = [[j for j, kind in enumerate(kinds) if kind == WANTS[k]] for k in kinds]
    return previous, grammar


def pattern_weights(weights: torch.Tensor, words=SENTENCE) -> tuple[torch.Tensor, torch.Tensor]:
    """weights (N, N) of one map -> each query's weight on its previous word (NaN for the first) and
    its total weight on its grammar partners, each (N,)."""
    previous, grammar = targets(words)
    on_previous = torch.tensor(
        [float("nan") if j is None else weights[i, j].item() for i, j in enumerate(previous)]
    )
    on_grammar = torch.stack([weights[i, js].sum() for i, js in enumerate(grammar)]).detach()
    return on_previous, on_grammar


@functools.cache
def one_and_two_heads(sharpness: float = SHARPNESS) -> tuple[torch.Tensor, torch.Tensor]:
    """The maps of the toy sentence: two heads (2, N, N) and one head with W_q = W_q0 + W_q1 (N, N)."""
    x = toy_embeddings()
    with torch.no_grad(), one_thread():
        _, two = hand_built_heads(sharpness)(x, x, x, average_attn_weights=False)  # (1, 2, N, N)
        _, one = one_head(sharpness)(x, x, x)  # (1, N, N)
    return two[0], one[0]


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


ONE_AND_TWO = ["head 0: previous word", "head 1: grammar", "one head: W_q = W_q0 + W_q1"]


def weaker_pattern(two: torch.Tensor, one: torch.Tensor, words=SENTENCE) -> tuple[torch.Tensor, torch.Tensor]:
    """Per query, the weight on the weaker of its two targets (previous word, grammar partners): with the
    two heads (each pattern in its own head) and with one head; NaN for the first word (no previous)."""
    two_heads = torch.minimum(pattern_weights(two[0], words)[0], pattern_weights(two[1], words)[1])
    return two_heads, torch.minimum(*pattern_weights(one, words))


def apart(words=SENTENCE) -> list[int]:
    """The queries whose two targets differ: a previous word that is not one of its grammar partners."""
    return [i for i, (p, g) in enumerate(zip(*targets(words))) if p is not None and p not in g]


def pattern_table(two: torch.Tensor, one: torch.Tensor, words=SENTENCE) -> Table:
    """Each query's weight on its previous word and on its grammar partners: two heads, one head."""
    previous, grammar = targets(words)
    (prev2, _), (_, gram2) = pattern_weights(two[0], words), pattern_weights(two[1], words)
    prev1, gram1 = pattern_weights(one, words)
    shown = lambda w: "-" if math.isnan(w) else f"{w:.2f}"  # noqa: E731
    rows = [
        [word, "-" if p is None else words[p], shown(prev2[i]), shown(prev1[i])]
        + [", ".join(words[j] for j in grammar[i]), shown(gram2[i]), shown(gram1[i])]
        for i, (word, p) in enumerate(zip(words, previous))
    ]
    header = ["query", "previous word", "two heads", "one head", "grammar partners", "two heads", "one head"]
    return Table(header, rows)


def _one_and_two_finding(fig, two: torch.Tensor, one: torch.Tensor, words=SENTENCE) -> None:
    previous, grammar = targets(words)
    shared = [
        i for i, (p, g) in enumerate(zip(previous, grammar)) if p in g
    ]  # "sat": its previous word is a noun
    weak2, weak1 = (w[apart(words)] for w in weaker_pattern(two, one, words))
    but = ", ".join(f'"{words[i]}"' for i in shared)
    shown = f"With two heads every query puts at least {weak2.min():.2f} on the target of each pattern; "
    shown += f"with one head, the weaker pattern gets at most {weak1.max():.2f} "
    shown += f"(all queries but the first and {but})."
    finding(fig, shown)


def plot_one_and_two_heads(sharpness: float = SHARPNESS, words=SENTENCE):
    """Left: the two hand-built heads' maps and one head's with W_q = W_q0 + W_q1. Right: each query's
    weight on its previous word and on its grammar partners, two heads against one."""
    fig, (ax, ax2) = new_figure(1, 2, width=12.0, height=3.4, width_ratios=[2.6, 1])
    N = len(words)
    image = draw_maps(ax, torch.zeros(3, N, N), ONE_AND_TWO, words)
    fig.colorbar(image, ax=ax, shrink=0.8, label="attention weight")
    for layer, style in (("two heads", "-"), ("one head", "--")):
        for pattern, marker, colour in (("previous word", "o", COLORS[0]), ("grammar", "s", COLORS[1])):
            ax2.plot(range(N), [0.0] * N, style, marker=marker, color=colour, label=f"{layer}: {pattern}")
    ax2.set_xticks(range(N), list(words))
    ax2.set(ylim=(0, 1.5), yticks=[0, 0.25, 0.5, 0.75, 1], xlabel="query", ylabel="weight on the target")
    ax2.legend(fontsize=7, loc="upper center", ncols=2, handlelength=2.5)  # above the curves (at most 1)
    ax2.set_title(" ", fontsize=9)
    moving(ax.images[0], *ax2.lines, ax2.title, zorder=6)  # a widget redraws these over the rest, kept
    update_one_and_two_heads(fig, sharpness)
    return fig


def update_one_and_two_heads(fig, sharpness: float = SHARPNESS) -> None:
    """plot_one_and_two_heads' figure, redrawn in place: the maps, the four curves, the title."""
    if isinstance(sharpness, bool) or not isinstance(sharpness, (int, float)) or not sharpness > 0:
        raise ValueError(f"sharpness (of the hand-built W_q) must be a number > 0, got {sharpness!r}")
    two, one = one_and_two_heads(float(sharpness))  # (2, N, N), (N, N)
    ax, ax2 = fig.axes[:2]
    ax.images[0].set_data(_grid(torch.cat([two, one[None]]))[0].numpy())
    curves = [pattern_weights(two[0])[0], pattern_weights(two[1])[1], *pattern_weights(one)]
    for line, y in zip(ax2.lines, curves):
        line.set_ydata(y.numpy())
    ax2.set_title(f"each pattern's target, W_q entries {sharpness:g}", fontsize=9)
    _one_and_two_finding(fig, two, one)


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


@register
def explore_one_and_two_heads() -> Explorer:
    """The sharpness of the hand-built W_q, over plot_one_and_two_heads."""
    controls = {"sharpness": choice("W_q entries", SHARPNESS_CHOICES, int(SHARPNESS))}
    return Explorer(
        plot_one_and_two_heads,
        controls,
        name="one_and_two_heads",
        update=update_one_and_two_heads,
        background=(),
    )


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
    "one_head_limit",
    reference=lambda: 1 / 3,
    hint="as the W_q entries grow, one softmax gives all its weight to the keys with the highest score, "
    "in equal shares. A one-head score is the previous-word score plus the grammar score: which keys "
    'of "on" score highest, and how many are they?',
    worked="With one head, the score of a key is its previous-word score plus its grammar score.\n"
    '"on" (a preposition at position 3) gets one unit from "sat" (its previous word) and one each from '
    '"cat" and "mat" (nouns).\nThree keys tie for the top score; as the W_q entries grow, the softmax '
    "shares its weight of 1 equally between them: 1/3 = 0.3333 each.",
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
