"""helpers.timing: exact FLOP formulas, the article's models, sane timings, a grid-driven widget."""

import pytest
import torch
from torch.testing import assert_close

from helpers import timing
from helpers.timing import MODELS


@pytest.mark.parametrize("batch, seq_len, dim", [(1, 1, 4), (2, 7, 8), (3, 16, 12), (4, 40, 16)])
def test_flop_formulas_equal_flop_counter_mode(batch, seq_len, dim):
    loop, fused, attention = (timing.counted_flops(name, batch, seq_len, dim) for name in MODELS)
    assert loop == fused == timing.rnn_flops(batch, seq_len, dim) == 4 * batch * seq_len * dim**2
    assert attention == timing.attention_flops(batch, seq_len, dim)
    assert attention * dim == (seq_len + 2 * dim) * loop  # attention / RNN = N/d + 2, exactly


def test_count_flops_counts_a_plain_matmul():
    a, b = torch.ones(3, 5), torch.ones(5, 7)
    assert timing.count_flops(lambda: a @ b) == 2 * 3 * 5 * 7
    assert timing.count_flops(lambda: a + 1) == 0  # elementwise work is not counted


def test_fused_rnn_computes_the_same_state_as_the_article_loop():
    models = timing.article_models(8)
    loop, fused = models[MODELS[0]], models[MODELS[1]]
    cell, rnn = loop.rnn_cell, fused.rnn
    with torch.no_grad():
        for ours, theirs in (
            ("weight_ih", "weight_ih_l0"),
            ("weight_hh", "weight_hh_l0"),
            ("bias_ih", "bias_ih_l0"),
            ("bias_hh", "bias_hh_l0"),
        ):
            getattr(rnn, theirs).copy_(getattr(cell, ours))
    x = torch.randn(3, 11, 8)
    assert_close(fused(x), loop(x), atol=1e-5, rtol=1e-5)
    assert models[MODELS[2]](x).shape == (3, 11, 8)  # attention keeps every position


def test_operator_calls_grow_with_n_for_the_rnn_only():
    models = timing.article_models(8).values()
    counts = {n: [timing.operator_calls(m, torch.zeros(2, n, 8)) for m in models] for n in (4, 8, 16)}
    for i in (0, 1):  # RNN: a fixed number of calls per step, so linear in N
        assert counts[16][i] - counts[8][i] == 2 * (counts[8][i] - counts[4][i]) > 0
    assert counts[4][2] == counts[8][2] == counts[16][2]  # attention: independent of N
    assert counts[4][0] == 7 * 4  # the loop, per step: slice, 2 x (transpose, addmm), add, tanh


def test_operator_calls_count_each_operator_from_input_to_output():
    w = torch.ones(3, 3, requires_grad=True)
    assert timing.operator_calls(lambda x: torch.tanh(x @ w) + 1, torch.ones(2, 3)) == 3  # mm, tanh, add
    assert timing.operator_calls(lambda x: (x * 2).sum(), torch.ones(4)) == 2  # no weights: still counted
    x = torch.ones(2)
    timing.operator_calls(lambda t: t * 2, x)
    assert not x.requires_grad  # the caller's tensor is left as it was


def test_time_fn_returns_sane_positive_quartiles():
    a = torch.randn(64, 64)
    t = timing.time_fn(lambda: a @ a, repeats=4)
    assert t.runs >= 4
    assert 0 < t.q1_ms <= t.median_ms <= t.q3_ms
    assert t.median_ms < 100  # a 64x64 matmul takes microseconds, not a tenth of a second
    assert torch.get_num_threads() > 0 and "ms (IQR" in str(t)


def test_time_fns_interleaves_the_calls():
    log = []
    result = timing.time_fns({"a": lambda: log.append("a"), "b": lambda: log.append("b")}, repeats=3)
    switches = [x for i, x in enumerate(log) if i == 0 or log[i - 1] != x]
    assert switches == ["a", "b"] * 4  # a warm-up of each, then three rounds of a-then-b
    assert set(result) == {"a", "b"} and all(t.runs == 3 for t in result.values())


def test_time_fn_sees_more_work():
    small, big = torch.randn(32, 32), torch.randn(384, 384)
    assert timing.time_fn(lambda: big @ big).median_ms > 5 * timing.time_fn(lambda: small @ small).median_ms


def test_time_fn_runs_on_the_thread_count_it_is_given(monkeypatch):
    seen = []
    monkeypatch.setattr(timing, "THREADS", 1)  # read at call time, so learners can change it
    timing.time_fn(lambda: seen.append(torch.get_num_threads()), repeats=2)
    assert set(seen) == {1}
    seen.clear()
    timing.time_fn(lambda: seen.append(torch.get_num_threads()), repeats=2, threads=2)
    assert set(seen) == {2}


def test_time_fn_restores_the_thread_count():
    before = torch.get_num_threads()
    timing.time_fn(lambda: None, repeats=1, threads=1)
    assert torch.get_num_threads() == before


def test_grid_and_explorer_redraw_from_measurements():
    grid = timing.measure_grid(seq_lens=(8, 32), batches=(1, 2), dim=16, repeats=1)
    assert set(grid.at(2, 32)) == set(MODELS) and grid.devices == ["cpu"]
    explorer = timing.explore_cost()
    assert repr(explorer) == "Explorer(cost: sequence length, batch size)"
    titles = lambda: [ax.get_title() for ax in explorer.result.axes]
    explorer.controls["seq_len"].value = 8
    assert "N=8" in titles()[1] and "N/d + 2 = 2.5" in titles()[1]  # 8/16 + 2
    explorer.controls["batch"].value = 1
    assert "B=1" in titles()[0] and explorer.error is None


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: timing.article_models(10), "dim=10"),
        (lambda: timing.article_models(0), "dim"),
        (lambda: timing.time_fn(lambda: None, repeats=0), "repeats"),
        (lambda: timing.time_models(0, 8), "batch"),
        (lambda: timing.time_models(2, -1), "seq_len"),
        (lambda: timing.counted_flops("LSTM", 1, 2, 4), "LSTM"),
        (lambda: timing.measure_grid(seq_lens=()), "seq_lens"),
        (lambda: timing.plot_cost(7, 1, timing.Grid((8,), (1,), 16, {})), "seq_len=7"),
    ],
)
def test_bad_input_raises_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)


def test_thread_count_sets_and_restores_and_rejects_zero():
    before = torch.get_num_threads()
    with timing.thread_count(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(ValueError, match="threads"):
        with timing.thread_count(0):
            pass
