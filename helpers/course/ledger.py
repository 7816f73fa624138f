"""The course map and the claims ledger, rendered from one list each."""

from pathlib import Path

from .tables import Table

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"

NOTEBOOKS = [  # (file stem, title, claims tested)
    ("00_start_here", "Start here", ""),
    ("01_recurrence", "Recurrence: what can and cannot run in parallel", "C1"),
    ("02_bptt_gradients", "BPTT and the gradient product", "C2"),
    ("03_lstm_gating", "LSTM gating", "C3"),
    ("04_attention", "Scaled dot-product attention", "C4, C5"),
    ("05_multihead_positions", "Multi-head attention and positions", "C6"),
    ("06_parallelism_cost", "Parallelism and cost, measured", "C7, C8"),
    ("07_long_range_memory", "Long-range memory, trained live", "C3, C5"),
    ("08_verdict", "The verdict", "C1-C8"),
]

CLAIMS = [  # (id, what the article says, the honest verdict in one line, notebooks)
    (
        "C1",
        "h_t needs h_{t-1}, so an RNN cannot be parallelised across time",
        "true for a nonlinear recurrence; the input projection is one matmul, and linear "
        "recurrences parallelise with a scan",
        ["01", "08"],
    ),
    (
        "C2",
        "BPTT gradients vanish if the largest eigenvalue of W_hh < 1, explode if > 1",
        "the mechanism is right, the condition imprecise: it is on the largest singular value and "
        "tanh' (Pascanu et al. 2013); the eigenvalue sets only the asymptotic rate, and tanh "
        "saturation makes even an eigenvalue of 1.1 vanish",
        ["02"],
    ),
    (
        "C3",
        "LSTM gates let gradients flow, yet it forgets beyond a few hundred tokens",
        "mostly right: the cell path helps only while the forget gate stays near 1, and in a small "
        "training budget the LSTM fails to optimise, not to remember; gradient flow and fixed-size "
        "memory are two different failures",
        ["03", "07"],
    ),
    (
        "C4",
        "self-attention lets every token interact with every other, all at once",
        "true in training and encoding; generation is still one token per step",
        ["04"],
    ),
    (
        "C5",
        "O(1) path length eliminates vanishing gradients; millions of tokens easily",
        "wrong as stated: a path of length 1 does help recall (with positions), but diffuse "
        "attention dilutes the gradient ~1/N, and cost is O(N^2)",
        ["04", "07", "08"],
    ),
    (
        "C6",
        "positional encodings are needed because attention has no order",
        "true: without them self-attention is permutation-equivariant (exactly, up to float "
        "rounding), and cannot learn a task where only order matters",
        ["05", "07"],
    ),
    (
        "C7",
        "the timing snippet shows attention beating the RNN loop",
        "not on a CPU at batch 32: the snippet times once, cold, and attention does N/d + 2 times "
        "the work; on a GPU it beats the Python loop, not cuDNN's nn.RNN at batch 32, d = 128, "
        "fp32: parallel hardware is not sufficient",
        ["06"],
    ),
    (
        "C8",
        "the complexity table",
        "right but incomplete: rows 1-3 match Vaswani et al. 2017 "
        "Table 1; rows on generation cost and state memory are missing",
        ["06", "08"],
    ),
]


def stem(prefix: str) -> str:
    return next(s for s, _, _ in NOTEBOOKS if s.startswith(prefix))


def link(prefix: str) -> str:
    """A Markdown link to notebook `prefix`, or its number marked as coming."""
    name = stem(prefix)
    exists = (NOTEBOOK_DIR / f"{name}.ipynb").exists()
    return f"[{prefix}]({name}.ipynb)" if exists else f"{prefix} (coming)"


def claims_ledger() -> Table:
    """The claims ledger, each row linking to its notebooks."""
    rows = [[cid, said, verdict, ", ".join(link(n) for n in where)] for cid, said, verdict, where in CLAIMS]
    return Table(["", "the article says", "honest verdict", "where"], rows)


def course_map() -> Table:
    """The notebooks in order."""
    return Table(["notebook", "what it shows", "claims"], [[link(s[:2]), t, c] for s, t, c in NOTEBOOKS])
