"""The course map and the claims ledger, rendered from one list each."""

from typing import NamedTuple

from .languages import LANGUAGES, current, words
from .tables import Table

NOTEBOOKS = [  # (file stem, title, claims tested)
    ("00_start_here", "Start here", ""),
    ("01_recurrence", "Recurrence: what can and cannot run in parallel", "C1"),
    ("02_bptt_gradients", "BPTT and the gradient product", "C2"),
    ("03_lstm_gating", "LSTM gating", "C3"),
    ("04_attention", "Scaled dot-product attention", "C4, C5"),
    ("05_multihead_positions", "Multi-head attention and positions", "C6"),
    ("06_parallelism_cost", "Parallelism and cost, measured", "C7, C8"),
    ("07_long_range_memory", "Long-range memory, trained live", "C3, C5, C6"),
    ("08_verdict", "The verdict", "C1-C8"),
]


class Claim(NamedTuple):
    """One claim of the article: what it says, the verdict, and what the verdict rests on; `short`
    and `short_verdict` say the same in a few words, for 00's ledger and the README's table."""

    id: str
    said: str  # what the article says
    verdict: str  # the honest verdict, in full
    where: list[str]  # the notebooks that test it
    measured: str  # what the course measures itself, and where
    literature: str  # what the verdict takes from published work, not measured here ("" if nothing)
    short: str  # the claim in a few words
    short_verdict: str  # the verdict in one line


CLAIMS = [
    Claim(
        "C1",
        "h_t needs h_{t-1}, so an RNN cannot be parallelised across time",
        "true for the tanh RNN: no exact shortcut is known, only iterative solvers at many times "
        "the work (about 60-400 times the loop's matmul FLOPs in 01, d_h = 4, depending on W_hh and "
        "on the scan; more for wider states); the input projection is "
        "one matmul, and a linear, element-wise recurrence parallelises (a scan, a "
        "convolution, chunks)",
        ["01", "08"],
        "the chain's depth N counted in nn.RNN's graph, and its time against the same FLOPs "
        "in one call, B = 1 to 64; Newton's iterations counted (01); a scan, a convolution and "
        "chunks equal to the loop (08)",
        "iterative solvers for nonlinear recurrences: Lim et al. 2024; the scan (Hillis & Steele "
        "1986; Blelloch 1990; "
        "Martin & Cundy 2018); which model computes it how: Gu et al. "
        "2022 (S4), Peng et al. 2023 (RWKV), Gu & Dao 2023 (Mamba), Dao & Gu 2024 (Mamba-2), "
        "Feng et al. 2024 (minGRU)",
        short="an RNN cannot run in parallel across time",
        short_verdict="true for the tanh RNN; a linear, element-wise one runs as a parallel scan",
    ),
    Claim(
        "C2",
        "BPTT gradients vanish if the largest eigenvalue of W_hh < 1, explode if > 1",
        "the mechanism is right, the condition imprecise: the largest singular value times the bound "
        "on tanh' below 1 is a sufficient condition for vanishing (Pascanu et al. 2013), and above 1 "
        "is necessary, not sufficient, for exploding; the exact long-run rate is the spectral radius "
        "rho for a linear RNN and the largest Lyapunov exponent for a tanh RNN, where, with unit-size "
        "inputs, tanh saturation makes even an eigenvalue of 1.1 vanish",
        ["02"],
        "gradient norms against the spectral radius, orthogonal and Gaussian W_hh, the "
        "non-normal hump, tanh saturation and the tanh RNN's long-run rate, checked against "
        "autograd (02)",
        "the sufficient condition on the largest singular value: Pascanu, Mikolov & Bengio 2013",
        short="eigenvalue < 1 vanishes, > 1 explodes",
        short_verdict="mechanism right; a largest singular value below 1 guarantees vanishing, and the "
        "eigenvalue sets only a linear RNN's rate",
    ),
    Claim(
        "C3",
        "LSTM gates let gradients flow, yet it forgets beyond a few hundred tokens",
        "mostly right: the cell path helps only while the forget gate stays open (forget bias about "
        "1 or more), and in a small "
        "training budget the LSTM fails to optimise, not to remember; gradient flow and fixed-size "
        "memory are two different failures",
        ["03", "07"],
        "the gradient through all paths against the forget bias, with the forget gates' product "
        "as a guide, at initialisation (03); recall after "
        "T = 10, 30, 100 steps within 200 Adam steps, on a synthetic task (07); the most a fixed-size "
        "state can hold at AWD-LSTM's sizes, 11,503 to 13,004 tokens, far above the 200 they use: "
        "capacity does not explain them (03)",
        "'a few hundred tokens': Khandelwal et al. 2018 (LSTM language models use about 200 "
        "tokens of context); 1000-step lags learned with long training: Hochreiter & "
        "Schmidhuber 1997",
        short="LSTMs let gradients flow, yet still forget",
        short_verdict="mostly right: the cell path helps only while the forget gate stays open",
    ),
    Claim(
        "C4",
        "self-attention lets every token interact with every other, all at once",
        "true in training and encoding; generation is still one token per step",
        ["04"],
        "one matmul gives all N x N scores; causal outputs one position at a time equal all at once (04)",
        "",
        short="every token sees every other, all at once",
        short_verdict="true in training; generation is still one token per step",
    ),
    Claim(
        "C5",
        "O(1) path length eliminates vanishing gradients; millions of tokens easily",
        "right about distance, wrong about scale: with positions, the path of length 1 gives a "
        "gradient that does not decay with distance, and it helps recall; but the cost is O(N^2) and "
        "long contexts fail in practice. The ~1/N of diffuse attention is the derivative of an "
        "average: it slows the learning of where to attend, and is not a vanishing gradient in the "
        "sense of Bengio et al. 1994 or Pascanu et al. 2013",
        ["04", "07", "08"],
        "gradient against distance and its 1/N share up to N = 4096 (04); recall at "
        "T = 100 (07); O(N^2 d) FLOPs and an O(N d) cache, counted (08)",
        "long contexts fail in practice: Liu et al. 2024 (lost in the middle), Hsieh et al. "
        "2024 (RULER); nothing here runs millions of tokens",
        short="an O(1) path ends vanishing gradients, for millions of tokens",
        short_verdict="right about distance: no decay; wrong about scale: O(N^2) cost, documented "
        "long-context failures",
    ),
    Claim(
        "C6",
        "positional encodings are needed because attention has no order",
        "true without a causal mask: self-attention is then permutation-equivariant (exactly, up "
        "to float rounding), and cannot learn a task where only order matters; a causal mask "
        "alone breaks the symmetry",
        ["05", "07"],
        "MHA(Px) = P MHA(x) to rounding, broken by the encoding or a causal mask (05); no "
        "positions, bounded by the order-blind ceiling, near it at T = 10 and 30 (07)",
        "language models without positional encoding still learn positions, which the authors "
        "attribute to the causal mask: Haviv et al. 2022",
        short="attention needs positions: it has no order",
        short_verdict="true without a causal mask; a causal mask alone breaks the symmetry",
    ),
    Claim(
        "C7",
        "the timing snippet shows attention beating the RNN loop",
        "the article implies it, but the snippet prints no numbers. Not on one CPU thread at batch "
        "32 (every CPU timing in 06 runs at THREADS = 1): the snippet times once, cold, and "
        "attention does N/d + 2 times the tanh RNN's work. On an H200 GPU, at B = 32, N = 512, "
        "d = 128, fp32, attention (0.37-0.45 ms forward, 1.57-1.94 ms forward + backward) beats "
        "cuDNN's nn.LSTM, the model it replaced (1.22 ms and 2.79 ms), in every run, while doing "
        "about 1.5 times its FLOPs; it loses only to cuDNN's tanh nn.RNN, which does about a sixth "
        "of attention's FLOPs (and the article's call beat even that in one of its two runs, "
        "forward + backward)",
        ["06"],
        "CPU timings on one thread on the machine that runs 06, FLOPs counted; GPU timings from "
        "sweeps on an H200 with 06's helpers, nn.LSTM among the models, each model timed "
        "separately, and a run of notebook 06 there that shows the run-to-run spread; shipped "
        "with their provenance (helpers/data/gpu)",
        "",
        short="the timing snippet shows attention winning",
        short_verdict="not on one CPU thread; on the GPU attention beats the LSTM it replaced, and "
        "loses to the far cheaper tanh RNN",
    ),
    Claim(
        "C8",
        "the complexity table",
        "right but incomplete: rows 1-3 match Vaswani et al. 2017 "
        "Table 1; rows on generation cost and state memory are missing",
        ["06", "08"],
        "FLOPs per layer, chains of dependent operations, layers linking distant tokens and "
        "the cost of generating one token, all counted (06, 08)",
        "the table: Vaswani et al. 2017, Table 1; recurrent models trained at scale: "
        "Peng et al. 2023 (RWKV), Gu & Dao 2023 (Mamba)",
        short="the complexity table",
        short_verdict="right but incomplete: generation cost and state memory are missing",
    ),
]


def stem(prefix: str) -> str:
    return next(s for s, _, _ in NOTEBOOKS if s.startswith(prefix))


def link(prefix: str) -> str:
    """A Markdown link to notebook `prefix`, relative to the notebook that shows it (tests/course/
    test_ledger.py checks that every target exists)."""
    return f"[{prefix}]({stem(prefix)}.ipynb)"


def claims_ledger() -> Table:
    """The claims ledger: each verdict, what it rests on (measured here, or taken from the
    literature, cited) and links to the notebooks that show it. In the learner's language."""
    said = words("CLAIMS_LEDGER") or {
        "header": ["", "the article says", "honest verdict", "measured here", "from the literature", "where"],
        "none": "none",
        **{c.id: (c.said, c.verdict, c.measured, c.literature) for c in CLAIMS},
    }
    rows = []
    for c in CLAIMS:
        claim, verdict, measured, literature = said[c.id]
        rows.append(
            [c.id, claim, verdict, measured, literature or said["none"], ", ".join(map(link, c.where))]
        )
    return _table(said["header"], rows)


class _RightToLeft(Table):
    """A table whose Markdown reads right to left (the Persian notebooks' outputs)."""

    def _repr_markdown_(self) -> str:
        wrapper = '<div dir="rtl" style="direction: rtl; text-align: right">'
        return f"{wrapper}\n\n{super()._repr_markdown_()}\n\n</div>"


def _table(header: list, rows: list[list]) -> Table:
    """A Table in the learner's language's direction."""
    return (_RightToLeft if LANGUAGES[current()].direction == "rtl" else Table)(header, rows)


def short_ledger() -> Table:
    """The ledger in eight lines, for 00: each claim in a few words, its verdict in one line, the
    notebooks that test it (the full ledger, with what each verdict rests on, is claims_ledger).
    In the learner's language (helpers.use_language)."""
    said = words("SHORT_LEDGER")
    rows = [
        [c.id, *(said[c.id] if said else (c.short, c.short_verdict)), ", ".join(link(n) for n in c.where)]
        for c in CLAIMS
    ]
    return _table(said["header"] if said else ["", "the article says", "verdict", "where"], rows)


def claims(tested: str) -> list[Claim]:
    """The claims a course-map entry names: "C4, C5", a range "C1-C8", or "" (none)."""
    ids = []
    for part in filter(None, (p.strip() for p in tested.split(","))):
        first, _, last = part.partition("-")
        ids += [f"C{i}" for i in range(int(first[1:]), int((last or first)[1:]) + 1)]
    return [c for c in CLAIMS if c.id in ids]


def readme_verdicts() -> dict[str, str]:
    """The README's course table, its column "article's claim tested: verdict", by notebook stem:
    each claim the notebook tests, in a few words, then its verdict in italics (08: the ledger)."""
    column = {}
    for stem, _, tested in NOTEBOOKS:
        if stem.startswith("08"):
            column[stem] = f"{tested}: the ledger, every verdict with what it rests on"
        else:
            verdicts = [
                f"{c.id}: {c.short}. *{c.short_verdict[0].upper()}{c.short_verdict[1:]}*."
                for c in claims(tested)
            ]
            column[stem] = " ".join(verdicts)
    return column


def course_map() -> Table:
    """The notebooks in order, in the learner's language (helpers.use_language)."""
    said = words("COURSE_MAP")
    rows = [[link(s[:2]), said[s] if said else t, c] for s, t, c in NOTEBOOKS]
    return _table(said["header"] if said else ["notebook", "what it shows", "claims"], rows)
