"""helpers.measure: threads, the timer, the FLOP and operator counters, graph depth."""

import pytest
import torch

from helpers import article, measure


def test_count_flops_counts_a_plain_matmul():
    a, b = torch.ones(3, 5), torch.ones(5, 7)
    assert measure.count_flops(lambda: a @ b) == 2 * 3 * 5 * 7
    assert measure.count_flops(lambda: a + 1) == 0  # elementwise work is not counted


def test_operator_calls_grow_with_n_for_the_rnn_only():
    models = article.article_models(8).values()
    counts = {n: [measure.operator_calls(m, torch.zeros(2, n, 8)) for m in models] for n in (4, 8, 16)}
    for i in (0, 1):  # RNN: a fixed number of calls per step, so linear in N
        assert counts[16][i] - counts[8][i] == 2 * (counts[8][i] - counts[4][i]) > 0
    assert counts[4][2] == counts[8][2] == counts[16][2]  # attention: independent of N
    assert counts[4][0] == 7 * 4  # the loop, per step: slice, 2 x (transpose, addmm), add, tanh


def test_operator_calls_count_each_operator_from_input_to_output():
    w = torch.ones(3, 3, requires_grad=True)
    assert measure.operator_calls(lambda x: torch.tanh(x @ w) + 1, torch.ones(2, 3)) == 3  # mm, tanh, add
    assert measure.operator_calls(lambda x: (x * 2).sum(), torch.ones(4)) == 2  # no weights: still counted
    x = torch.ones(2)
    measure.operator_calls(lambda t: t * 2, x)
    assert not x.requires_grad  # the caller's tensor is left as it was


def test_time_fn_returns_sane_positive_quartiles():
    a = torch.randn(64, 64)
    t = measure.time_fn(lambda: a @ a, repeats=4)
    assert t.runs >= 4
    assert 0 < t.q1_ms <= t.median_ms <= t.q3_ms
    assert t.median_ms < 100  # a 64x64 matmul takes microseconds, not a tenth of a second
    assert torch.get_num_threads() > 0 and "ms (IQR" in str(t)


def test_time_fns_interleaves_the_calls():
    log = []
    result = measure.time_fns({"a": lambda: log.append("a"), "b": lambda: log.append("b")}, repeats=3)
    switches = [x for i, x in enumerate(log) if i == 0 or log[i - 1] != x]
    assert switches == ["a", "b"] * 4  # a warm-up of each, then three rounds of a-then-b
    assert set(result) == {"a", "b"} and all(t.runs == 3 for t in result.values())


def test_time_fn_sees_more_work():
    small, big = torch.randn(32, 32), torch.randn(384, 384)
    assert measure.time_fn(lambda: big @ big).median_ms > 5 * measure.time_fn(lambda: small @ small).median_ms


def test_time_fn_runs_on_the_thread_count_it_is_given(monkeypatch):
    seen = []
    monkeypatch.setattr(measure, "THREADS", 1)  # read at call time, so learners can change it
    measure.time_fn(lambda: seen.append(torch.get_num_threads()), repeats=2)
    assert set(seen) == {1}
    seen.clear()
    measure.time_fn(lambda: seen.append(torch.get_num_threads()), repeats=2, threads=2)
    assert set(seen) == {2}


def test_time_fn_restores_the_thread_count():
    before = torch.get_num_threads()
    measure.time_fn(lambda: None, repeats=1, threads=1)
    assert torch.get_num_threads() == before


def test_thread_count_sets_and_restores_and_rejects_zero():
    before = torch.get_num_threads()
    with measure.thread_count(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(ValueError, match="threads"):
        with measure.thread_count(0):
            pass
