"""The exercise checker: a clear pass, or a hint that says what is wrong."""
import pytest
import torch

import helpers
from helpers.exercises import compare, register_exercise


@pytest.fixture(autouse=True)
def double_exercise():
    register_exercise("double", reference=lambda x: 2 * x,
                      make_inputs=lambda: (torch.randn(3, 4),), hint="multiply by two")


def run(capsys, answer, name="double") -> str:
    helpers.check(name, answer)
    return capsys.readouterr().out


def test_a_right_answer_passes(capsys):
    assert "correct" in run(capsys, lambda x: x + x)


def test_not_attempted(capsys):
    def stub(x):
        raise NotImplementedError
    assert "not attempted yet" in run(capsys, stub)


@pytest.mark.parametrize("answer, words", [
    (lambda x: 2 * x.T, "shape (4, 3), expected (3, 4)"),
    (lambda x: (2 * x).double(), "dtype torch.float64"),
    (lambda x: 3 * x, "wrong values"),
    (lambda x: (2 * x).tolist(), "should be a torch.Tensor"),
    (lambda x: 1 / 0, "ZeroDivisionError"),
])
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
    assert "should be a number" in run(capsys, None, "softmax_cold_limit")


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
    for name, ex in helpers.exercises.EXERCISES.items():
        helpers.check(name, ex.reference if ex.make_inputs() else ex.reference())
        assert "correct" in capsys.readouterr().out, name


def test_a_check_leaves_the_global_random_state_alone(capsys):
    state = torch.random.get_rng_state()
    helpers.check("double", lambda x: 2 * x)
    assert torch.equal(state, torch.random.get_rng_state())
