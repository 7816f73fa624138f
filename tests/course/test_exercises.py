"""helpers.course.exercises: a clear pass, or a hint that says what is wrong; every
course exercise refuses plausible wrong answers."""

import math
import re

import numpy as np
import pytest
import torch

import helpers
from helpers import attention
from helpers.course.exercises import compare, register_exercise


@pytest.fixture(autouse=True)
def double_exercise():
    register_exercise(
        "double", reference=lambda x: 2 * x, make_inputs=lambda: (torch.randn(3, 4),), hint="multiply by two"
    )


def run(capsys, answer, name="double") -> str:
    helpers.check(name, answer)
    return capsys.readouterr().out


def test_a_right_answer_passes(capsys):
    assert "correct" in run(capsys, lambda x: x + x)


def test_not_attempted(capsys):
    def stub(x):
        raise NotImplementedError

    assert "not attempted yet" in run(capsys, stub)


@pytest.mark.parametrize(
    "answer, words",
    [
        (lambda x: 2 * x.T, "shape (4, 3), expected (3, 4)"),
        (lambda x: (2 * x).double(), "dtype torch.float64"),
        (lambda x: 3 * x, "wrong values"),
        (lambda x: (2 * x).tolist(), "should be a torch.Tensor"),
        (lambda x: 1 / 0, "ZeroDivisionError"),
    ],
)
def test_a_wrong_answer_says_what_is_wrong(capsys, answer, words):
    out = run(capsys, answer)
    assert words in out and "correct" not in out


def test_the_hint_comes_with_wrong_values(capsys):
    assert "Hint: multiply by two" in run(capsys, lambda x: 3 * x)


def test_the_hint_comes_when_the_code_fails(capsys):
    out = run(capsys, lambda x: x @ x)  # (3, 4) @ (3, 4): a shape error inside torch
    assert "RuntimeError" in out and "Hint: multiply by two" in out


def test_value_answers(capsys):
    assert "correct" in run(capsys, 1.0, "softmax_cold_limit")
    assert "not right" in run(capsys, 0.5, "softmax_cold_limit")
    assert "not attempted yet" in run(capsys, None, "softmax_cold_limit")


def test_unknown_exercise():
    with pytest.raises(ValueError, match="no exercise called 'nope'"):
        helpers.check("nope", 1)


def test_compare_tuples():
    a = torch.ones(2)
    assert compare((a, a), (a, a)) is None
    assert "tuple of 2" in compare(a, (a, a))
    assert "[1]" in compare((a, a), (a, 2 * a))


def halve(x):
    """The reference of a test exercise."""
    return x / 2


def test_solution_prints_the_reference(capsys):
    register_exercise("halve", reference=halve, make_inputs=lambda: (torch.ones(2),))
    helpers.solution("halve")
    assert "def halve(x):" in capsys.readouterr().out


def test_every_registered_exercise_accepts_its_reference(capsys):
    for name, ex in helpers.course.exercises.EXERCISES.items():
        answer = ex.reference if ex.make_inputs() else ex.reference()
        assert helpers.course.exercises.passes(name, answer), name
        helpers.check(name, answer)
        assert capsys.readouterr().out == f"[{name}] correct!\n", name  # not "incorrect", not a hint


def test_a_check_leaves_the_global_random_state_alone(capsys):
    state = torch.random.get_rng_state()
    helpers.check("double", lambda x: 2 * x)
    assert torch.equal(state, torch.random.get_rng_state())


# ---- every course exercise refuses plausible wrong answers ------------------------------

COURSE = sorted(set(helpers.course.exercises.EXERCISES) - {"double", "halve"})  # before this file adds more


def _one_hot_counts(x):
    return torch.nn.functional.one_hot(x, 8).sum(1)  # (B, 8)


def _lstm(order):
    """An LSTM step that reads the four stacked gates in `order` instead of i, f, g, o."""

    def step(x_t, h_prev, c_prev, W_ih, W_hh, b):
        gates = dict(zip(order, (x_t @ W_ih.T + h_prev @ W_hh.T + b).chunk(4, dim=-1)))
        i, f, g, o = gates["i"].sigmoid(), gates["f"].sigmoid(), gates["g"].tanh(), gates["o"].sigmoid()
        c_t = f * c_prev + i * g
        return o * torch.tanh(c_t), c_t

    return step


def _rotation(angle):
    c, s = math.cos(angle), math.sin(angle)
    return torch.tensor([[c, s], [-s, c]])


def _sdpa_mask(lengths, L):  # SDPA's convention: True = may attend
    return helpers.causal_mask(L) & attention.padding_mask(lengths, L)


WRONG = {  # exercise -> {what the mistake is: a plausible wrong answer}
    "cold_softmax": {
        "one-hot at the first maximum": lambda s: torch.eye(s.shape[-1])[s.argmax(-1)],
        "ties not shared": lambda s: (s == s.amax(-1, keepdim=True)).float(),
        "temperature 1": lambda s: s.softmax(-1),
        "uniform": lambda s: torch.full_like(s, 1 / s.shape[-1]),
    },
    "mha_mask": {
        "SDPA's convention (not inverted)": _sdpa_mask,
        "transposed": lambda lengths, L: ~_sdpa_mask(lengths, L).transpose(-2, -1),
        "padding masks the queries": lambda lengths, L: (
            ~(helpers.causal_mask(L) & attention.padding_mask(lengths, L).transpose(-2, -1))
        ),
        "causal only": lambda lengths, L: (~helpers.causal_mask(L)).expand(len(lengths), L, L),
        "padding only": lambda lengths, L: (~attention.padding_mask(lengths, L)).expand(len(lengths), L, L),
        "or instead of and": lambda n, L: ~(helpers.causal_mask(L) | attention.padding_mask(n, L)),
        "float mask": lambda lengths, L: (~_sdpa_mask(lengths, L)).float(),
    },
    "shift_rotation": {
        "transposed (a shift back by k)": lambda k, i, d: _rotation(k * 10000 ** (-2 * i / d)).T,
        "forgot the 2 of 2i": lambda k, i, d: _rotation(k * 10000 ** (-i / d)),
        "forgot k": lambda k, i, d: _rotation(10000 ** (-2 * i / d)),
        "angle times 2 pi": lambda k, i, d: _rotation(2 * math.pi * k * 10000 ** (-2 * i / d)),
        "exponent without the minus": lambda k, i, d: _rotation(k * 10000 ** (2 * i / d)),
        "float64": lambda k, i, d: _rotation(k * 10000 ** (-2 * i / d)).double(),
    },
    "attention": {
        "no 1/sqrt(d_k)": lambda q, k, v: (q @ k.transpose(-2, -1)).softmax(-1) @ v,
        "divided by d_k": lambda q, k, v: (q @ k.transpose(-2, -1) / q.shape[-1]).softmax(-1) @ v,
        "softmax over the queries": lambda q, k, v: (
            (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).softmax(-2) @ v
        ),
    },
    "score_spread": {"the variance": 256, "after scaling": 1, "sqrt of 64": 8, "sqrt of the 16 keys": 4},
    "query_strength": {
        "no sqrt(d_k)": math.log(18),
        "one noun takes 90%": 2 * math.log(36),
        "the strength above": 4,
        "log10": 2 * math.log10(18),
    },
    "uniform_entropy": {"in bits": 1.0, "doubles": 2.0, "ln N at 50": math.log(50), "halves": -math.log(2)},
    "split_heads": {
        "interleaved heads": lambda x, nh: x.view(*x.shape[:2], -1, nh).permute(0, 3, 1, 2),
        "reshape without transpose": lambda x, nh: x.reshape(x.shape[0], nh, x.shape[1], -1),
    },
    "mha_parameter_count": {
        "one less": 16639,
        "one more": 16641,
        "no biases": 4 * 64 * 64,
        "no out_proj": 3 * 64 * 64 + 3 * 64,
        "per head": 16640 // 8,
        "not whole": 16640.5,
    },
    "one_head_limit": {"half": 0.5, "all of it": 1, "none": 0, "a quarter": 0.25, "read at 12": 0.32},
    "linear_rnn_jacobian": {
        "W.T ** T": lambda W, T: W.T**T,
        "elementwise power": lambda W, T: W**T,
        "power of W.T": lambda W, T: torch.linalg.matrix_power(W.T, T),
        "one step short": lambda W, T: torch.linalg.matrix_power(W, T - 1),
    },
    "tanh_step_jacobian": {
        "scales columns": lambda h, W: W * (1 - h**2),
        "forgot 1 -": lambda h, W: (h**2)[:, None] * W,
        "transposed W": lambda h, W: (1 - h**2)[:, None] * W.T,
    },
    "vanishing_bound": {"49 steps": 0.9**49, "51 steps": 0.9**51, "one step": 0.9, "times 50": 0.9 * 50},
    "non_normal_peak": {"the peak at 0.9": 9, "one early": 5, "one late": 7, "below 1": 33, "not whole": 6.5},
    "sigmoid_bound": {
        "forgot the 1/4": 3**20,
        "slope alone": 0.25**20,
        "19 steps": 0.75**19,
        "times 20": 0.75 * 20,
        "tanh's gamma": 0.9**20,
    },
    "residual_step_jacobian": {
        "forgot I": lambda u, W: (1 - u**2)[:, None] * W,
        "scales columns": lambda u, W: torch.eye(W.shape[0]) + W * (1 - u**2),
        "forgot 1 -": lambda u, W: torch.eye(W.shape[0]) + (u**2)[:, None] * W,
        "I times the step": lambda u, W: (1 - u**2)[:, None] * W @ torch.eye(W.shape[0]),
    },
    "softmax_cold_limit": {"zero": 0, "uniform over 5": 0.2, "half": 0.5, "True": True},
    "rnn_step": {
        "forgot W_hh transpose": lambda x, h, W_xh, W_hh, b: torch.tanh(x @ W_xh.T + h @ W_hh + b),
        "forgot tanh": lambda x, h, W_xh, W_hh, b: x @ W_xh.T + h @ W_hh.T + b,
        "forgot b": lambda x, h, W_xh, W_hh, b: torch.tanh(x @ W_xh.T + h @ W_hh.T),
        "sigmoid": lambda x, h, W_xh, W_hh, b: torch.sigmoid(x @ W_xh.T + h @ W_hh.T + b),
    },
    "input_projection": {"forgot b": lambda x, W, b: x @ W.T, "minus b": lambda x, W, b: x @ W.T - b},
    "stacked_depth": {"one layer": 100, "layer after layer": 200, "one more": 102, "the first 99": 99},
    "wavefront_width": {"every step": 8, "every state": 24, "one at a time": 1, "two": 2, "last depth": 10},
    "lstm_step": {
        "order i, g, f, o": _lstm("igfo"),
        "order f, i, g, o": _lstm("figo"),
        "(c, h)": lambda *args: _lstm("ifgo")(*args)[::-1],
        "three values": helpers.lstm_step,
    },
    "lstm_below_rnn": {"the cell path's prediction": 0.0, "one step lower": -1.0, "bias 1": 1.0, "half": 0.5},
    "forget_bias_half": {
        "the gate, not the bias": 0.5**0.01,
        "rounded": 4.97,
        "one step short": math.log(0.5 ** (1 / 99) / (1 - 0.5 ** (1 / 99))),
        "logit of one half": 0.0,
        "log 100": math.log(100),
    },
    "lstm_flops": {
        "the tanh RNN's": lambda B, N, d: 4 * B * N * d**2,
        "one product per gate": lambda B, N, d: 8 * B * N * d**2,
        "three gates": lambda B, N, d: 12 * B * N * d**2,
        "forgot B": lambda B, N, d: 16 * N * d**2,
        "one step short": lambda B, N, d: 16 * B * (N - 1) * d**2,
    },
    "lstm_attention_break_even": {"N = d": 128, "the article's N": 512, "N = 3 d": 384, "N = 2": 2},
    "widget_flop_ratio": {
        "the article's size": 6.0,
        "N/d alone": 2.0,
        "times the batch": 128.0,
        "at N = 128": 3.0,
    },
    "most_frequent_token": {
        "ties to the largest id": lambda x: 7 - _one_hot_counts(x).flip(-1).argmax(-1),
        "the first token": lambda x: x[:, 0],
        "the count, not the token": lambda x: _one_hot_counts(x).max(-1).values,
    },
    "order_blind_two_tokens": {"half": 0.5, "equal only": 1 / 8, "differ only": 7 / 16, "rounded": 0.56},
    "forget_bias_for_100": {
        "unchanged": 3.0,
        "scaled with the delay": 10.0,
        "rounded": 4.22,
        "03's half over 100 steps": math.log(0.5**0.01 / (1 - 0.5**0.01)),
        "the share, not the bias": (1 / (1 + math.exp(-3))) ** 0.3,
    },
    "maxplus_combine": {
        "right first": lambda left, r: (left[0] + r[0], torch.maximum(r[1] + left[0], left[1])),
        "b not shifted": lambda left, r: (left[0] + r[0], torch.maximum(left[1], r[1])),
        "affine rule": lambda left, r: (left[0] * r[0], r[0] * left[1] + r[1]),
        "b added": lambda left, r: (left[0] + r[0], left[1] + r[0] + r[1]),
    },
    "scan_steps_million": {
        "one less": 19,
        "one more": 21,
        "log2 unrounded": math.log2(10**6),
        "N = 1000": 10,
    },
    "attention_equals_lstm": {"d = N": 1024, "d = N / 4": 256, "d = 2 N": 2048, "d = N / 8": 128},
}


def test_every_exercise_has_a_wrong_answer_to_refuse():
    assert sorted(WRONG) == COURSE, f"no wrong answers for {sorted(set(COURSE) - set(WRONG))}"


@pytest.mark.parametrize("name, mistake", [(n, m) for n in COURSE for m in WRONG.get(n, {})])
def test_a_plausible_wrong_answer_fails(capsys, name, mistake):
    out = run(capsys, WRONG[name][mistake], name)
    assert "correct" not in out and f"[{name}] not yet: " in out, out
    assert "Hint: " in out and "Traceback" not in out, out


def test_numpy_scalars_arrays_and_one_element_tensors_are_numbers(capsys):
    for answer in (np.int64(16640), np.float64(16640), np.array(16640), torch.tensor(16640), 16640.0):
        assert "correct!" in run(capsys, answer, "mha_parameter_count"), answer
    for answer in (np.float64(math.log(2)), np.float32(math.log(2)), torch.tensor([math.log(2)])):
        assert "correct!" in run(capsys, answer, "uniform_entropy"), answer


@pytest.mark.parametrize(
    "answer, words",
    [
        (torch.ones(3, 4), "should be a single number, got a tensor of shape (3, 4)"),
        (np.ones(2), "should be a single number, got a numpy array of shape (2,)"),
        (True, "should be a number, got the bool True"),
        ("1.0", "should be a number, got the string '1.0'"),
        ([1.0], "should be a number, got list"),
        (lambda: 1.0, "should be a number, got a function"),
        (1 + 0j, "should be a number, got complex"),
    ],
)
def test_a_wrong_type_where_a_number_is_expected_gets_a_message(capsys, answer, words):
    out = run(capsys, answer, "softmax_cold_limit")
    assert words in out and "Hint: " in out and "correct" not in out, out


def test_a_value_where_a_function_is_expected_gets_a_message(capsys):
    out = run(capsys, torch.zeros(3, 5), "rnn_step")
    assert "should be a function" in out and "Hint: " in out
    assert "returned None (is `return` missing?)" in run(capsys, lambda *args: None, "rnn_step")


def test_stubs_print_exactly_what_the_notebooks_show(capsys):
    assert run(capsys, None, "softmax_cold_limit") == (
        "[softmax_cold_limit] not attempted yet: replace `None` with your answer "
        "(stuck? `helpers.hint('softmax_cold_limit')`).\n"
    )

    def stub(*args):
        raise NotImplementedError

    assert run(capsys, stub, "maxplus_combine") == (
        "[maxplus_combine] not attempted yet: replace `raise NotImplementedError` with your code "
        "(stuck? `helpers.hint('maxplus_combine')`).\n"
    )


def test_counts_are_exact_and_floats_ask_for_the_exact_value():
    assert compare(16640.0, 16640) is None and compare(np.int64(3), 3) is None
    assert "not right" in compare(16639, 16640)
    assert "whole number" in compare(16640.5, 16640)
    assert compare(True, 1) is not None
    assert compare(9 / 16 * (1 + 1e-8), 9 / 16) is None  # float32-level error: fine
    assert "close but not exact" in compare(0.56, 9 / 16)
    assert "not right" in compare(math.log2(50), math.log(50))


def test_compare_says_how_many_values_a_tuple_has():
    a = torch.ones(2)
    assert "tuple of 2 values, got 3 values" in compare((a, a, a), (a, a))


def test_the_linear_jacobian_is_checked_at_several_T_of_at_least_2(capsys):
    seen = []

    def spy(W, T):
        seen.append(T)
        return torch.linalg.matrix_power(W, T)

    assert "correct!" in run(capsys, spy, "linear_rnn_jacobian")
    assert min(seen) >= 2 and len(set(seen)) >= 3, seen


def test_every_lambda_reference_has_a_worked_answer():
    for name in COURSE:
        ex = helpers.course.exercises.EXERCISES[name]
        assert ex.worked or ex.reference.__name__ != "<lambda>", name


@pytest.mark.parametrize("name", [n for n in COURSE if helpers.course.exercises.EXERCISES[n].worked])
def test_a_worked_answer_reaches_the_reference(capsys, name):
    ex = helpers.course.exercises.EXERCISES[name]
    helpers.solution(name)
    out = capsys.readouterr().out
    assert ex.worked in out and "lambda" not in out
    if not ex.wants_function:
        value = ex.reference()
        assert f"answer: {value!r}" in out
        assert (str(value) if isinstance(value, int) else f"{value:.4g}") in ex.worked
        return
    assert str(ex.reference(2, 9, 16)) in ex.worked  # its example: B, N, d = 2, 9, 16
    namespace = {}
    exec(next(line for line in ex.worked.splitlines() if line.startswith("def ")), namespace)
    assert "correct!" in run(capsys, namespace[name], name)  # its formula passes the check


def test_the_hint_comes_after_a_wrong_try_or_on_request(capsys):
    hint = helpers.course.exercises._lookup("softmax_cold_limit").hint
    assert hint and hint not in run(capsys, None, "softmax_cold_limit")  # no try yet: no hint
    assert f"Hint: {hint}" in run(capsys, 0.123, "softmax_cold_limit")  # a wrong try: the hint
    helpers.hint("softmax_cold_limit")
    assert capsys.readouterr().out == f"[softmax_cold_limit] Hint: {hint}\n"


def test_hint_of_an_exercise_without_one_points_to_the_solution(capsys):
    register_exercise("triple", reference=lambda x: 3 * x, make_inputs=lambda: (torch.randn(2),))
    helpers.hint("triple")
    out = capsys.readouterr().out
    assert out == "[triple] no hint for this one: `helpers.solution('triple')` shows a worked answer.\n"


# ---- every diagnosis in the learner's language ------------------------------------------

# English words a diagnosis would use; none is a word of Italian, Spanish, Russian or Persian prose
ENGLISH_WORDS = set(
    "the is should be got expected which not but has have your of with its at on for to and right wrong "
    "values value shape close exact give fails number answer function whole single string remove quotes "
    "call write itself raised returned missing attempted yet replace hint stuck operations result loop "
    "every covers steps sequence inputs require counts use connected detached computed outside cannot "
    "count draw this tuple".split()
)
CODE = re.compile(  # what a message quotes: code, words, an error's own text, [name], identifiers, numbers
    r"`[^`]*`|'[^']*'|\"[^\"]*\"|«\u2066?[A-Za-z]+\u2069?»"
    r"|\b[A-Z]\w*(?:Error|Exception): [^.]*|\[[\w.]+\]|\b\w*[_.\d]\w*(?:\.\w+)*\b"
    r"|\b(?:NoneType|tau|torch|numpy|matmul|autograd|PyTorch|list|complex|bool|True|False|None|dtype|softmax"
    r"|sigma|x|t|d_in|B|N)\b"
)
LANGS = [lang for lang in helpers.course.languages.TRANSLATED]


def english_words(message: str) -> set[str]:
    """The English words of `message` outside what it quotes from code."""
    return {w for w in re.findall(r"[A-Za-z]+", CODE.sub(" ", message)) if w.lower() in ENGLISH_WORDS}


def _loop_over_t(x, W, b):  # right values, but the rule refuses a loop over t
    return torch.stack([x[:, t] @ W.T + b for t in range(x.shape[1])], dim=1)


def _softmax_2d_only(s):  # right on (9, 5) scores, fails on a (5,) row: the rule says so
    return helpers.course.exercises.EXERCISES["cold_softmax"].reference(s) if s.dim() == 2 else s[:, 0]


EVERY_MISTAKE = [  # (exercise, wrong answer): every wrong answer above, then wrong types and the rules
    *[(n, WRONG[n][m]) for n in COURSE for m in WRONG.get(n, {})],
    *[
        ("softmax_cold_limit", a)
        for a in (torch.ones(3, 4), np.ones(2), torch.tensor(0.5), np.float32(0.5) * np.ones(1), True, "1.0")
    ],
    *[("softmax_cold_limit", a) for a in ([1.0], lambda: 1.0, 1 + 0j, None)],
    ("rnn_step", torch.zeros(3, 5)),
    ("rnn_step", lambda *args: None),
    ("rnn_step", lambda *args: [1.0]),
    ("lstm_step", lambda *args: torch.zeros(1)),
    ("input_projection", _loop_over_t),
    ("cold_softmax", _softmax_2d_only),
    ("maxplus_combine", lambda *args: 1 / 0),
]


@pytest.fixture
def language(request):
    helpers.use_language(request.param)
    yield request.param
    helpers.use_language("en")


@pytest.mark.parametrize("language", LANGS, indirect=True)
def test_no_english_sentence_in_any_diagnosis_in_a_translated_language(capsys, language):
    """Each exercise's wrong answers (and wrong types, rule refusals, a failing answer, a stub, the
    hint and the solution) in every language: no English word outside the code words it quotes.
    A failing answer's own error message is Python's or PyTorch's (division by zero), so it is left out."""
    found = {}
    for name, answer in EVERY_MISTAKE:
        out = run(capsys, answer, name)
        assert helpers.course.languages.verdict("correct") not in out, (name, out)
        helpers.hint(name)
        out += capsys.readouterr().out
        if words := english_words(out):
            found[f"{name}: {out.strip()}"] = sorted(words)
    for name in COURSE:
        if helpers.course.exercises.EXERCISES[name].worked:
            helpers.solution(name)
            out = capsys.readouterr().out
            if words := english_words(out.rsplit("\n", 2)[-2]):  # its last line: "answer: ..."
                found[f"solution({name}): {out.strip()[-80:]}"] = sorted(words)
    assert not found, "\n".join(f"{k} -> {v}" for k, v in found.items())


def test_the_detector_finds_the_english_diagnosis(capsys):
    out = run(capsys, 1024, "attention_equals_lstm")
    assert english_words(out) >= {"is", "which", "not", "right"}
    assert not english_words("[x] NoneType: `helpers.hint('x')` torch.float32 (3, 4) tau -> 0")


@pytest.mark.parametrize("language", ["fa"], indirect=True)
def test_persian_feedback_isolates_its_code_and_numbers(capsys, language):
    """Right to left, each left-to-right run (a number, a shape, code) is isolated (LRI ... PDI), and
    the whole line is a right-to-left isolate: the order survives in any left-to-right output."""
    out = run(capsys, 1024, "attention_equals_lstm").strip()
    lri, rli, pdi = "\u2066", "\u2067", "\u2069"
    assert out.startswith(rli) and out.endswith(pdi), repr(out)
    assert f"{lri}1024{pdi}" in out and f"{lri}[attention_equals_lstm]{pdi}" in out, repr(out)
    assert f"{lri}8 N d^2 + 4 N^2 d = 16 N d^2{pdi}" in out, repr(out)  # from its hint
    out = run(capsys, torch.ones(3, 4), "softmax_cold_limit")
    assert f"{lri}(3, 4){pdi}" in out, repr(out)
