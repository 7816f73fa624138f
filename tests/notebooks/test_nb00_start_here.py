"""Notebook 00's module: the softmax widget's bars and the two exercises on softmax's cold limit."""

import pytest
import torch
import torch.nn.functional as F

import helpers
from helpers.notebooks import nb00_start_here as nb00
from helpers.seed import seeded


def run(capsys, name, answer) -> str:
    helpers.check(name, answer)
    return capsys.readouterr().out


def test_the_bars_are_pytorchs_softmax():
    heights, title = nb00._softmax_bars(0.5)
    torch.testing.assert_close(torch.tensor(heights), (torch.tensor(nb00.SCORES) / 0.5).softmax(-1))
    assert title == "softmax(s / τ) at temperature τ = 0.5"


@pytest.mark.parametrize("temperature", [0, -1.0, float("nan")])
def test_a_temperature_that_is_not_positive_raises(temperature):
    with pytest.raises(ValueError, match="temperature must be > 0"):
        nb00.plot_softmax(temperature)


def test_the_value_exercise_assumes_a_unique_maximum_and_the_scores_have_one():
    """The reference, 1, is the cold limit only when one score is the largest: the widget's are so."""
    scores = torch.tensor(nb00.SCORES, dtype=torch.float64)
    assert int((scores == scores.max()).sum()) == 1
    cold = (scores / 1e-3).softmax(-1)  # PyTorch's softmax, nearly frozen
    reference = helpers.course.exercises.EXERCISES["softmax_cold_limit"].reference()
    assert cold.max().item() == pytest.approx(reference)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_cold_softmax_is_pytorchs_softmax_at_a_tiny_temperature(k):
    """k tied maxima share the weight: 1/k each, the limit PyTorch's softmax approaches."""
    scores = torch.tensor([3.0] * k + [1.0, 0.0, -2.0])[: max(k, 5)]
    cold = nb00.cold_softmax(scores)
    torch.testing.assert_close(cold, (scores / 1e-3).softmax(-1))
    assert cold[:k].tolist() == pytest.approx([1 / k] * k) and cold[k:].sum() == 0


def test_the_check_feeds_ties_and_a_unique_maximum():
    with seeded(0):
        draws = [nb00._scores_with_ties()[0] for _ in range(3)]
    ties = [int(n) for s in draws for n in (s == s.amax(-1, keepdim=True)).sum(-1)]
    assert 1 in ties and 3 in ties and 2 in ties  # one-hot rows, and rows shared two and three ways


@pytest.mark.parametrize(
    "wrong",
    [
        lambda s: F.one_hot(s.argmax(-1), s.shape[-1]).float(),  # one-hot: ties broken by index
        lambda s: (s == s.amax(-1, keepdim=True)).float(),  # 1 on every tied maximum: sums to k
        lambda s: s.softmax(-1),  # temperature 1, not the limit
        lambda s: torch.full_like(s, 1 / s.shape[-1]),  # uniform: the hot limit
    ],
)
def test_plausible_wrong_answers_to_the_ties_exercise_are_refused(capsys, wrong):
    out = run(capsys, "cold_softmax", wrong)
    assert "[cold_softmax] not yet: " in out and "Hint: " in out and "correct" not in out


def test_the_ties_exercise_accepts_right_answers(capsys):
    assert "correct!" in run(capsys, "cold_softmax", nb00.cold_softmax)

    def by_counting(s):  # another right answer: 1 on the maxima, divided by how many there are
        top = torch.where(s == s.max(-1, keepdim=True).values, 1.0, 0.0)
        return top / top.sum(-1, keepdim=True)

    assert "correct!" in run(capsys, "cold_softmax", by_counting)


@pytest.mark.parametrize("tau", [1.0, 0.07, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 8e-8, 1e-9, 1e-20, 1e-38])
def test_a_softmax_at_a_small_finite_temperature_is_refused(capsys, tau):
    """Not the limit: the check's scores differ by as little as TINY_GAP, so softmax(s / tau) is far
    from 1/k on the tied maxima and 0 elsewhere unless tau is far below it; below that (8e-8 passed
    the values alone, 74 float32 epsilons from the limit) the rule scales the scores by 1e-30 and 1e30."""
    out = run(capsys, "cold_softmax", lambda s: (s / tau).softmax(-1))
    assert "[cold_softmax] not yet: " in out and "correct" not in out, out


def test_the_check_feeds_scores_that_differ_by_tiny_gaps():
    with seeded(0):
        (scores,) = nb00._scores_with_ties()
    gaps = (scores[:6, :, None] - scores[:6, None, :]).abs()  # the whole-number rows
    assert gaps[gaps > 0].min().item() == pytest.approx(nb00.TINY_GAP, rel=1e-3)
    assert scores[6, 0] > scores[6, 1] > scores[6, 0] - 1e-7  # neighbouring float32 numbers


@pytest.mark.parametrize(
    "near_tie",
    [
        lambda s: torch.isclose(s, s.amax(-1, keepdim=True), rtol=1e-5, atol=0).float(),
        lambda s: torch.isclose(s, s.amax(-1, keepdim=True), rtol=0.1, atol=0).float(),
    ],
)
def test_near_ties_counted_as_ties_are_refused(capsys, near_tie):
    out = run(capsys, "cold_softmax", lambda s: near_tie(s) / near_tie(s).sum(-1, keepdim=True))
    assert "[cold_softmax] not yet: " in out and "correct" not in out, out


@pytest.mark.parametrize("c", [1e-2, 1e-3, 1e-6])
def test_a_temperature_scaled_to_each_row_is_refused(capsys, c):
    spread = lambda s: s.amax(-1, keepdim=True) - s.amin(-1, keepdim=True)
    out = run(capsys, "cold_softmax", lambda s: (s / (c * spread(s))).softmax(-1))
    assert "[cold_softmax] not yet: " in out and "correct" not in out, out


@pytest.mark.parametrize("answer, verdict", [(1.0, "correct!"), (1 / 3, "not right"), (0.5, "not right")])
def test_the_value_exercise(capsys, answer, verdict):
    assert verdict in run(capsys, "softmax_cold_limit", answer)


def test_a_softmax_in_float64_at_an_extreme_temperature_is_refused(capsys):
    out = run(capsys, "cold_softmax", lambda s: (s.double() / 1e-300).softmax(-1).float())
    assert "[cold_softmax] not yet: " in out and "correct" not in out, out


@pytest.mark.parametrize("tau", [1e-45, torch.finfo(torch.float32).tiny, 1e-38, 1e-20])
def test_a_stable_softmax_at_any_float32_temperature_is_refused(capsys, tau):
    """softmax((s - max) / tau) never overflows; the smallest float32 gap, 1.4e-45, still tells it."""
    out = run(capsys, "cold_softmax", lambda s: ((s - s.amax(-1, keepdim=True)) / tau).softmax(-1))
    assert "[cold_softmax] not yet: " in out and "correct" not in out, out


def test_an_answer_written_for_two_dimensions_only_is_refused(capsys):
    def on_dim_1(s):  # right for (rows, scores) only
        top = s == s.max(dim=1, keepdim=True).values
        return top / top.sum(dim=1, keepdim=True)

    out = run(capsys, "cold_softmax", on_dim_1)
    assert "[cold_softmax] not yet: " in out and "correct" not in out, out
